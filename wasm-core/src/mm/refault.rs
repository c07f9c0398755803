//! What a refault was compared with, and what was decided (mm/workingset.c,
//! the kernel's workingset_test_recent / lru_gen_test_recent /
//! lru_test_refault made visible).
//!
//! The checks here are the numbers the engine's refault code compares,
//! returned whole instead of as a bare bool, so that the shadow-LRU view can
//! show a shadow's refault distance against the same threshold the next
//! refault would meet. The refault paths in [`super::workingset`] decide
//! with these very structs ([`DistanceCheck::passes`], [`GenCheck::recent`]),
//! so what the view reports cannot drift from what the engine does.
//!
//! [`RefaultRecord`]: one refault's inputs and outcome, logged per step
//! (bounded, like events) only while the event log is on.
use super::folio::{pg, FolioId, LRU_REFS_WIDTH};
use super::workingset::{Shadow, EVICTION_MASK};
use super::{LruvecId, MappingId, MemcgId, Mm};

/// Refault decisions kept per step; the rest are counted as dropped.
pub const REFAULTS_PER_STEP: usize = 256;

/// Names of [inactive_anon, active_anon, inactive_file, active_file] as the
/// kernel's node_stat_item calls them.
pub const LIST_NAMES: [&str; 4] = ["NR_INACTIVE_ANON", "NR_ACTIVE_ANON", "NR_INACTIVE_FILE", "NR_ACTIVE_FILE"];

/// A refault distance against a workingset size: what
/// workingset_test_recent() (classic) or lru_test_refault() (patch 004)
/// compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistanceCheck {
    /// nonresident_age now minus at eviction, in pages (masked to the
    /// timestamp's bits; the timestamp itself keeps only multiples of
    /// 1 << bucket_order).
    pub distance: u64,
    /// The workingset size the distance is compared with.
    pub threshold: u64,
    /// true: the refault counts when distance <= threshold
    /// (workingset_test_recent); false: when distance < threshold
    /// (lru_test_refault).
    pub inclusive: bool,
    /// [inactive_anon, active_anon, inactive_file, active_file] of the
    /// shadow's memcg subtree on its node, as read (0 where not read).
    pub lists: [u64; 4],
    /// Which of `lists` the threshold sums.
    pub terms: [bool; 4],
    /// Whether the memcg could swap (anon lists count only then).
    pub swap: bool,
    /// lru_test_refault only: whether active >= inactive, which picks the rule.
    pub active_covers_inactive: Option<bool>,
}

impl DistanceCheck {
    /// Whether the refault is within the workingset.
    pub fn passes(&self) -> bool {
        if self.inclusive {
            self.distance <= self.threshold
        } else {
            self.distance < self.threshold
        }
    }
}

/// An MGLRU shadow's generation token against the lruvec's window:
/// lru_gen_test_recent().
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenCheck {
    /// The sequence number of the generation the folio was evicted from
    /// (the token keeps only its low bits; this is the full number: the
    /// newest one at or below min_seq with those bits).
    pub token_seq: u64,
    /// The lruvec's min_seq of the folio's type and its max_seq, now.
    pub min_seq: u64,
    pub max_seq: u64,
    /// token_seq == min_seq (in the token's bits): the generation it left is
    /// still the oldest.
    pub recent: bool,
    /// max(refs - 1, 0) as the token stored it (the fd accesses it had).
    pub token_refs: u32,
}

/// Where a qualified MGLRU refault's feedback for the PID controller went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feedback {
    /// Not counted (classic LRU, or not a qualified refault).
    None,
    /// refaulted[hist][type][tier] of the current generation.
    Refaulted,
    /// Patch 004: avg_refaulted/avg_total (its generation is gone).
    Averages,
}

/// One refault: the shadow's lruvec, what was compared, what was decided.
#[derive(Clone, Debug, PartialEq)]
pub struct RefaultRecord {
    pub time_ns: u64,
    /// The page that refaulted.
    pub mapping: MappingId,
    pub index: u32,
    /// Whether the page is in the tracked sample.
    pub tracked: bool,
    /// LRU_GEN_ANON or LRU_GEN_FILE.
    pub type_: usize,
    /// The lruvec the shadow names (memcg and node of the eviction).
    pub lruvec: LruvecId,
    /// "workingset_refault" or "lru_gen_refault".
    pub function: &'static str,
    /// In a page fault (lru_gen_in_fault).
    pub in_fault: bool,
    /// The shadow's workingset bit.
    pub workingset: bool,
    /// The refault distance check (classic; MGLRU with patch 004).
    pub distance: Option<DistanceCheck>,
    /// The generation check (MGLRU).
    pub gen: Option<GenCheck>,
    /// false: MGLRU ignored it (the shadow is from another lruvec): not
    /// even WORKINGSET_REFAULT was counted.
    pub counted: bool,
    /// WORKINGSET_REFAULT was counted: false where it was ignored (above),
    /// and with MGLRU before v6.5 for a refault that is not recent.
    pub refault_counted: bool,
    /// WORKINGSET_ACTIVATE was counted (classic: the folio starts active).
    pub activate: bool,
    /// WORKINGSET_RESTORE was counted (PG_workingset set again).
    pub restore: bool,
    /// MGLRU: the tier the refault was counted in, and the tier it had
    /// before patch 004 raised it (equal when not raised).
    pub tier: usize,
    pub tier_before: usize,
    pub feedback: Feedback,
    /// MGLRU: a restore gives back all refs bits with PG_workingset, and
    /// refs >= 3 qualifies (v6.7+, the underprotection fix); before, only
    /// PG_workingset, for refs at the maximum (4).
    pub all_refs: bool,
}

impl RefaultRecord {
    /// A refault of folio `f` (already installed for its page) from a shadow
    /// naming `lruvec`: counted, nothing decided yet.
    pub(super) fn new(mm: &Mm, f: FolioId, lruvec: LruvecId, type_: usize, function: &'static str, in_fault: bool, workingset: bool) -> Self {
        RefaultRecord {
            time_ns: mm.now_ns,
            mapping: mm.folios.mapping[f as usize],
            index: mm.folios.index[f as usize],
            tracked: mm.folios.test(f, pg::TRACKED),
            type_,
            lruvec,
            function,
            in_fault,
            workingset,
            distance: None,
            gen: None,
            counted: true,
            refault_counted: true,
            activate: false,
            restore: false,
            tier: 0,
            tier_before: 0,
            feedback: Feedback::None,
            all_refs: mm.knobs.mglru_underprotection_fix,
        }
    }
}

impl Mm {
    /// lru_gen_test_recent(): recent iff the token's sequence number equals
    /// the current min_seq of its type (in the token's bits). Returns the
    /// shadow's lruvec and what was compared, with the full sequence number
    /// and max_seq for views.
    pub fn lru_gen_check(&self, s: &Shadow, type_: usize) -> (LruvecId, GenCheck) {
        let lv = self.lruvec_id(s.memcg, s.node);
        let lrugen = &self.lruvecs[lv as usize].lrugen;
        let min_seq = lrugen.min_seq[type_];
        let (token, bits) = self.lru_gen_token(s);
        let mask = EVICTION_MASK >> (LRU_REFS_WIDTH + bits);
        let seq_bits = token >> LRU_REFS_WIDTH;
        let recent = seq_bits == (min_seq & mask);
        // min_seq only grows: the token's generation is the newest at or below min_seq with these bits.
        let token_seq = min_seq.wrapping_sub((min_seq & mask).wrapping_sub(seq_bits) & mask);
        let token_refs = (token & ((1 << LRU_REFS_WIDTH) - 1)) as u32;
        (lv, GenCheck { token_seq, min_seq, max_seq: lrugen.max_seq, recent, token_refs })
    }

    /// lru_test_refault() with what it compared (see there): the distance,
    /// the threshold and the lists it sums, and which rule applied.
    pub fn lru_refault_check(&self, lv: LruvecId, eviction: u64, bits: u32, file: bool) -> DistanceCheck {
        DistanceCheck { distance: self.lru_refault_distance(lv, eviction, bits), ..self.lru_workingset_size(lv, file) }
    }

    /// lru_test_refault()'s refault distance: nonresident_age now minus the
    /// timestamp, in its `bits`.
    pub fn lru_refault_distance(&self, lv: LruvecId, eviction: u64, bits: u32) -> u64 {
        let mask = (1u64 << bits) - 1;
        self.lruvecs[lv as usize].nonresident_age.wrapping_sub(eviction) & mask
    }

    /// lru_test_refault()'s workingset size for a refault into `lv` (the
    /// distance left 0): with active = AF (+ AA with swap), IA + IF when
    /// active >= IA + IF, else active + (file ? IA : IF); IA only with swap.
    pub fn lru_workingset_size(&self, lv: LruvecId, file: bool) -> DistanceCheck {
        let sizes = self.memcg_lru_sizes(self.lruvec_memcg(lv), self.lruvec_node(lv));
        let [ia, aa, ifile, af] = sizes;
        let swap = self.nr_swap_pages_for(self.lruvec_memcg(lv)) > 0;
        let active = af + if swap { aa } else { 0 };
        let inactive_anon = if swap { ia } else { 0 };
        let covers = active >= inactive_anon + ifile;
        // [inactive_anon, active_anon, inactive_file, active_file] summed by each rule.
        let (threshold, terms) = if covers {
            (inactive_anon + ifile, [swap, false, true, false])
        } else if file {
            (active + inactive_anon, [swap, swap, false, true])
        } else {
            (active + ifile, [false, swap, true, true])
        };
        DistanceCheck { distance: 0, threshold, inclusive: false, lists: sizes, terms, swap, active_covers_inactive: Some(covers) }
    }

    /// workingset_test_recent() with what it compared: the refault distance
    /// and the workingset size (distance <= size), term by term.
    pub fn workingset_check(&self, s: &Shadow, file: bool) -> DistanceCheck {
        DistanceCheck { distance: self.workingset_distance(s), ..self.workingset_size(s.memcg, s.node, file) }
    }

    /// workingset_test_recent()'s refault distance, in pages: the shadow's
    /// lruvec's nonresident_age now minus the shadow's timestamp shifted
    /// back by bucket_order (`eviction <<= bucket_order`), masked to the
    /// timestamp's bits.
    pub fn workingset_distance(&self, s: &Shadow) -> u64 {
        let lv = self.lruvec_id(s.memcg, s.node);
        let refault = self.lruvecs[lv as usize].nonresident_age;
        refault.wrapping_sub(s.eviction << self.bucket_order()) & EVICTION_MASK
    }

    /// workingset_test_recent()'s workingset size for a shadow of `memcg` on
    /// `node` (the distance left 0). The lists are the memcg's subtree on
    /// the node (lruvec_page_state): NR_ACTIVE_FILE; + NR_INACTIVE_FILE for
    /// an anon refault; with swap, + NR_ACTIVE_ANON, and + NR_INACTIVE_ANON
    /// for a file refault.
    pub fn workingset_size(&self, memcg: MemcgId, node: usize, file: bool) -> DistanceCheck {
        let swap = self.nr_swap_pages_for(memcg) > 0;
        // [inactive_anon, active_anon, inactive_file, active_file] (the lru indices).
        let terms = [swap && file, swap, !file, true];
        let mut lists = [0u64; 4];
        for lru in (0..4).filter(|&l| terms[l]) {
            lists[lru] = self.lruvec_page_state(memcg, node, lru);
        }
        DistanceCheck { distance: 0, threshold: lists.iter().sum(), inclusive: true, lists, terms, swap, active_covers_inactive: None }
    }

    /// The nonresident_age timestamp patch 004 keeps in an MGLRU shadow's
    /// low LRU_GEN_EVICTION_BITS.
    pub fn lru_gen_timestamp(&self, s: &Shadow) -> u64 {
        s.eviction & ((1 << super::workingset::LRU_GEN_EVICTION_BITS) - 1)
    }

    /// Logs one refault decision (only while events are logged; past
    /// REFAULTS_PER_STEP in a step it is counted as dropped).
    #[inline]
    pub(super) fn record_refault(&mut self, build: impl FnOnce(&Mm) -> RefaultRecord) {
        if !self.events.enabled {
            return;
        }
        if self.events.refaults.len() >= REFAULTS_PER_STEP {
            self.events.refaults_dropped += 1;
            return;
        }
        let r = build(self);
        self.events.refaults.push(r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(distance: u64, threshold: u64, inclusive: bool) -> DistanceCheck {
        DistanceCheck { distance, threshold, inclusive, lists: [0; 4], terms: [false; 4], swap: false, active_covers_inactive: None }
    }

    #[test]
    fn inclusive_and_strict_comparisons() {
        assert!(check(10, 10, true).passes());
        assert!(!check(10, 10, false).passes());
        assert!(check(9, 10, false).passes());
        assert!(!check(11, 10, true).passes());
    }
}
