//! Shadow entries and refault detection (mm/workingset.c).
//!
//! On eviction a folio's page-cache slot (or swap slot) keeps a shadow: the
//! memcg and node it was evicted from, a timestamp, and its workingset bit.
//! On refault the shadow decides whether the folio was evicted too early.
//! Two models: the classic LRU's refault distance against nonresident_age,
//! and MGLRU's generation token (recent iff evicted from the generation that
//! is still the oldest).
use super::folio::{lru_tier_from_refs, pg, FolioId, LRU_REFS_WIDTH};
use super::lruvec::lru_hist_from_seq;
use super::vmstat::Item;
use super::{LruvecId, MemcgId, Mm, LRU_GEN_FILE};
use crate::event::EventKind;
use super::refault::{Feedback, RefaultRecord};
use super::trace::FolioWhat;

/// Bits of the eviction timestamp/token in a shadow (EVICTION_SHIFT leaves
/// room for the memcg id, node id and workingset bit; the kernel has ~40).
pub const EVICTION_BITS: u32 = 40;
pub const EVICTION_MASK: u64 = (1 << EVICTION_BITS) - 1;
const MEMCG_ID_BITS: u32 = 16;
const NODE_BITS: u32 = 4;

/// With patch 004 an MGLRU shadow's eviction field holds the generation token
/// in its high bits and a nonresident_age timestamp in the low
/// LRU_GEN_EVICTION_BITS (LRU_GEN_EVICTION_BITS = EVICTION_BITS -
/// LRU_REFS_WIDTH - LRU_GEN_WIDTH in the kernel; 22 bits here).
///
/// Simplified: the RFC as posted keeps LRU_GEN_WIDTH (3) bits of min_seq in
/// the token but lru_gen_test_recent() compares them with min_seq masked to
/// EVICTION_MASK >> LRU_REFS_WIDTH, so from min_seq 8 on no refault would be
/// recent. The engine compares the token with min_seq in the token's own
/// bits (lru_gen_check), as the rest of the RFC intends; the two agree while
/// min_seq < 8, as at the experiment's defaults.
pub const LRU_GEN_EVICTION_BITS: u32 = 22;
const LRU_GEN_EVICTION_MASK: u64 = (1 << LRU_GEN_EVICTION_BITS) - 1;

/// A decoded shadow entry (unpack_shadow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shadow {
    pub memcg: MemcgId,
    pub node: usize,
    pub eviction: u64,
    pub workingset: bool,
}

/// pack_shadow(): [eviction:40][memcg:16][node:4][workingset:1][1]. The low
/// bit plays xa_mk_value's role: a shadow is never 0.
pub fn pack_shadow(memcg: MemcgId, node: usize, eviction: u64, workingset: bool) -> u64 {
    let mut v = eviction & EVICTION_MASK;
    v = (v << MEMCG_ID_BITS) | u64::from(memcg);
    v = (v << NODE_BITS) | node as u64;
    v = (v << 1) | u64::from(workingset);
    (v << 1) | 1
}

/// unpack_shadow().
pub fn unpack_shadow(v: u64) -> Shadow {
    let v = v >> 1;
    let workingset = v & 1 != 0;
    let v = v >> 1;
    let node = (v & ((1 << NODE_BITS) - 1)) as usize;
    let v = v >> NODE_BITS;
    let memcg = (v & ((1 << MEMCG_ID_BITS) - 1)) as MemcgId;
    let eviction = (v >> MEMCG_ID_BITS) & EVICTION_MASK;
    Shadow { memcg, node, eviction, workingset }
}

impl Mm {
    /// bucket_order: how many low bits of nonresident_age a shadow drops so
    /// that the timestamp covers all of memory.
    pub fn bucket_order(&self) -> u32 {
        let fls = 64 - self.totalram_pages.saturating_sub(1).leading_zeros();
        fls.saturating_sub(EVICTION_BITS)
    }

    /// workingset_age_nonresident(): advance the clock of the lruvec and of
    /// every ancestor's lruvec on the same node.
    pub fn workingset_age_nonresident(&mut self, lv: LruvecId, nr: u64) {
        let node = self.lruvec_node(lv);
        let mut m = Some(self.lruvec_memcg(lv));
        while let Some(id) = m {
            let l = self.lruvec_id(id, node);
            self.lruvecs[l as usize].nonresident_age += nr;
            m = self.memcgs[id as usize].parent;
        }
    }

    /// workingset_eviction(): the shadow for an evicted folio. MGLRU:
    /// lru_gen_eviction(). Classic: timestamp from the reclaim target's lruvec
    /// (root for global reclaim), which then ages by one.
    pub fn workingset_eviction(&mut self, f: FolioId, target_memcg: MemcgId) -> u64 {
        if let Some(b) = self.knobs.baseline {
            return self.baseline_eviction(b, f);
        }
        if self.knobs.lru_gen_enabled {
            return self.lru_gen_eviction(f);
        }
        let node = self.lruvec_node(self.folios.lruvec[f as usize]);
        let lv = self.lruvec_id(target_memcg, node);
        let eviction = self.lruvecs[lv as usize].nonresident_age >> self.bucket_order();
        self.workingset_age_nonresident(lv, 1);
        pack_shadow(target_memcg, node, eviction, self.folios.test(f, pg::WORKINGSET))
    }

    /// lru_gen_eviction() (v6.12): token = (min_seq << LRU_REFS_WIDTH) |
    /// max(refs - 1, 0) of the folio's own lruvec; counts evicted[tier];
    /// workingset bit = refs != 0. Does not touch nonresident_age.
    fn lru_gen_eviction(&mut self, f: FolioId) -> u64 {
        let lv = self.folios.lruvec[f as usize];
        let type_ = self.folios.type_of(f);
        let refs = self.folios.lru_refs(f);
        let tier = lru_tier_from_refs(refs);
        let lrugen = &mut self.lruvecs[lv as usize].lrugen;
        let min_seq = lrugen.min_seq[type_];
        let mut token = (min_seq << LRU_REFS_WIDTH) | u64::from(refs.saturating_sub(1));
        let hist = lru_hist_from_seq(min_seq);
        lrugen.evicted[hist][type_][tier] += 1;
        if self.knobs.refault_distance_mglru {
            // Patch 004: a nonresident_age timestamp rides along, and evictions age it.
            let age = self.lruvecs[lv as usize].nonresident_age & LRU_GEN_EVICTION_MASK;
            token = (token << LRU_GEN_EVICTION_BITS) | age;
            self.workingset_age_nonresident(lv, 1);
        }
        let memcg = self.lruvec_memcg(lv);
        let node = self.lruvec_node(lv);
        pack_shadow(memcg, node, token, refs != 0)
    }

    /// workingset_refault(): a folio came back while its shadow was still
    /// there. Dispatches to lru_gen_refault() with MGLRU (and to a baseline
    /// policy's own rule when one is on).
    pub fn workingset_refault(&mut self, f: FolioId, shadow: u64, in_fault: bool) {
        if let Some(b) = self.knobs.baseline {
            self.baseline_refault(b, f, shadow);
        } else if self.knobs.lru_gen_enabled {
            self.lru_gen_refault(f, shadow, in_fault);
        } else {
            self.classic_workingset_refault(f, shadow, in_fault);
        }
    }

    /// The generation token of an MGLRU shadow, and how many low bits of
    /// the eviction field a patch-004 timestamp took.
    pub(super) fn lru_gen_token(&self, s: &Shadow) -> (u64, u32) {
        if self.knobs.refault_distance_mglru {
            (s.eviction >> LRU_GEN_EVICTION_BITS, LRU_GEN_EVICTION_BITS)
        } else {
            (s.eviction, 0)
        }
    }

    /// lru_test_refault() (patch 004, shared by both LRUs in the patch): the
    /// refault distance SP (nonresident_age now minus at eviction) against
    /// the workingset: with active = AF (+ AA with swap), if active >=
    /// IF + IA the refault counts when SP < IF + IA, else when
    /// SP < active + (file ? IA : IF). With MGLRU the two youngest
    /// generations count as active.
    pub fn lru_test_refault(&self, lv: LruvecId, eviction: u64, bits: u32, file: bool) -> bool {
        self.lru_refault_check(lv, eviction, bits, file).passes()
    }

    /// lru_gen_refault() (v6.12): only a shadow from the folio's own lruvec
    /// counts; WORKINGSET_REFAULT always (before v6.5 only if recent), and if
    /// recent: refaulted[tier] and WORKINGSET_ACTIVATE (not before v6.5); in a fault or with refs >= 3, the folio gets all
    /// refs bits and PG_workingset (tier 3) and WORKINGSET_RESTORE counts.
    /// Before v6.7 (`mglru_underprotection_fix` off): only in a fault or with
    /// refs saturated (4), and only PG_workingset comes back (tier 1).
    fn lru_gen_refault(&mut self, f: FolioId, shadow: u64, in_fault: bool) {
        if self.knobs.refault_distance_mglru {
            self.lru_gen_refault_distance(f, shadow, in_fault);
            return;
        }
        let s = unpack_shadow(shadow);
        let type_ = self.folios.type_of(f);
        let (lv, gen) = self.lru_gen_check(&s, type_);
        let recent = gen.recent;
        if lv != self.folios.lruvec[f as usize] {
            self.record_refault(|mm| RefaultRecord { gen: Some(gen), counted: false, refault_counted: false, ..RefaultRecord::new(mm, f, lv, type_, "lru_gen_refault", in_fault, s.workingset) });
            return;
        }
        let memcg = self.lruvec_memcg(lv);
        // Before v6.5 only a recent refault was counted, and not as an activation.
        let accounting_fix = self.knobs.mglru_workingset_accounting_fix;
        let refault_counted = accounting_fix || recent;
        if refault_counted {
            self.count(memcg, Item::WorkingsetRefaultAnon.plus(type_), 1, true);
        }
        let mut tier = 0;
        let mut restore = false;
        if recent {
            let lrugen = &mut self.lruvecs[lv as usize].lrugen;
            let hist = lru_hist_from_seq(lrugen.min_seq[type_]);
            let refs = (s.eviction & ((1 << LRU_REFS_WIDTH) - 1)) as u32 + u32::from(s.workingset);
            tier = lru_tier_from_refs(refs);
            lrugen.refaulted[hist][type_][tier] += 1;
            if accounting_fix {
                self.count_workingset_activate(memcg, self.lruvec_node(lv), type_);
            }
            let fixed = self.knobs.mglru_underprotection_fix;
            if in_fault || if fixed { refs >= (1 << LRU_REFS_WIDTH) - 1 } else { refs == 1 << LRU_REFS_WIDTH } {
                // Before v6.7 only PG_workingset comes back, not the refs.
                self.folios.set(f, if fixed { pg::REFS_MASK | pg::WORKINGSET } else { pg::WORKINGSET });
                self.count(memcg, Item::WorkingsetRestoreAnon.plus(type_), 1, true);
                restore = true;
            }
        }
        self.trace(f, "lru_gen_refault", FolioWhat::Refault { recent, tier: Some(tier), restore });
        let now = self.now_ns;
        self.events.push(now, || EventKind::Refault { lruvec: lv, type_, recent, tier, restore, function: "lru_gen_refault" });
        let feedback = if recent { Feedback::Refaulted } else { Feedback::None };
        self.record_refault(|mm| RefaultRecord {
            gen: Some(gen),
            // Before v6.5 a recent refault is not counted as an activation (sort_folio counts it later).
            activate: recent && accounting_fix,
            refault_counted,
            restore,
            tier,
            tier_before: tier,
            feedback,
            ..RefaultRecord::new(mm, f, lv, type_, "lru_gen_refault", in_fault, s.workingset)
        });
    }

    /// lru_gen_refault() with patch 004: a refault counts when it is recent
    /// (its generation is still the oldest) or its refault distance fits the
    /// workingset (lru_test_refault). A qualified refault of a folio with
    /// refs is activated (youngest generation); its tier for the PID
    /// controller is raised by one; PG_workingset is restored. Recent
    /// refaults feed refaulted[] of the current generation, the others go
    /// straight into the averages (their generation is gone).
    fn lru_gen_refault_distance(&mut self, f: FolioId, shadow: u64, in_fault: bool) {
        let s = unpack_shadow(shadow);
        let type_ = self.folios.type_of(f);
        let lv = self.lruvec_id(s.memcg, s.node);
        let file = type_ == LRU_GEN_FILE;
        let check = |mm: &Mm| mm.lru_refault_check(lv, s.eviction & LRU_GEN_EVICTION_MASK, LRU_GEN_EVICTION_BITS, file);
        if lv != self.folios.lruvec[f as usize] {
            self.record_refault(|mm| RefaultRecord {
                distance: Some(check(mm)),
                gen: Some(mm.lru_gen_check(&s, type_).1),
                counted: false,
                refault_counted: false,
                ..RefaultRecord::new(mm, f, lv, type_, "lru_gen_refault", in_fault, s.workingset)
            });
            return;
        }
        let memcg = self.lruvec_memcg(lv);
        self.count(memcg, Item::WorkingsetRefaultAnon.plus(type_), 1, true);
        let distance = check(self);
        let refault = distance.passes();
        let (_, gen) = self.lru_gen_check(&s, type_);
        let recent = gen.recent;
        let record = |mm: &Mm| RefaultRecord { distance: Some(distance), gen: Some(gen), ..RefaultRecord::new(mm, f, lv, type_, "lru_gen_refault", in_fault, s.workingset) };
        if !recent && !refault {
            let now = self.now_ns;
            self.trace(f, "lru_gen_refault", FolioWhat::Refault { recent: false, tier: Some(0), restore: false });
            self.events.push(now, || EventKind::Refault { lruvec: lv, type_, recent: false, tier: 0, restore: false, function: "lru_gen_refault" });
            self.record_refault(record);
            return;
        }
        let (token, _) = self.lru_gen_token(&s);
        let refs = (token & ((1 << LRU_REFS_WIDTH) - 1)) as u32 + u32::from(s.workingset);
        let mut tier = lru_tier_from_refs(refs);
        let tier_before = tier;
        if refault {
            if refs > 0 {
                self.folios.set(f, pg::ACTIVE);
            }
            if refs != 1 << LRU_REFS_WIDTH {
                tier = lru_tier_from_refs(refs + 1);
            }
            self.count_workingset_activate(memcg, self.lruvec_node(lv), type_);
        }
        let restore = refault || in_fault || refs == 1 << LRU_REFS_WIDTH;
        if restore {
            self.count(memcg, Item::WorkingsetRestoreAnon.plus(type_), 1, true);
            self.folios.set(f, pg::WORKINGSET);
        }
        let lrugen = &mut self.lruvecs[lv as usize].lrugen;
        if recent {
            let hist = lru_hist_from_seq(lrugen.min_seq[type_]);
            lrugen.refaulted[hist][type_][tier] += 1;
        } else {
            lrugen.avg_total[type_][tier] += 1;
            lrugen.avg_refaulted[type_][tier] += 1;
        }
        let now = self.now_ns;
        if recent {
            self.trace(f, "lru_gen_refault", FolioWhat::Refault { recent: true, tier: Some(tier), restore });
            self.events.push(now, || EventKind::Refault { lruvec: lv, type_, recent: true, tier, restore, function: "lru_gen_refault" });
        } else {
            let activated = refs > 0;
            self.trace(f, "lru_gen_refault", FolioWhat::RefaultByDistance { tier, activated, restore });
            self.events.push(now, || EventKind::RefaultByDistance { lruvec: lv, type_, tier, activated, restore });
        }
        let feedback = if recent { Feedback::Refaulted } else { Feedback::Averages };
        self.record_refault(|mm| RefaultRecord { activate: refault, restore, tier, tier_before, feedback, ..record(mm) });
    }

    /// Pages on a classic list of `memcg`'s lruvec on `node`, including its
    /// descendants (lruvec_page_state is hierarchical).
    pub(super) fn lruvec_page_state(&self, memcg: MemcgId, node: usize, lru: usize) -> u64 {
        self.memcg_subtree_sum(memcg, |m| self.lruvecs[self.lruvec_id(m, node) as usize].lru_size(lru))
    }

    /// workingset_test_recent() (classic, 6.6-6.12): the refault distance
    /// (nonresident_age now minus at eviction) against the workingset size
    /// (active file; + inactive file for anon; + anon lists with swap).
    pub fn workingset_test_recent(&self, s: &Shadow, file: bool) -> bool {
        self.workingset_check(s, file).passes()
    }

    /// workingset_refault() (classic): WORKINGSET_REFAULT; if the refault
    /// distance is within the workingset, the folio starts active
    /// (WORKINGSET_ACTIVATE) and, if it was part of the workingset before,
    /// gets PG_workingset back (WORKINGSET_RESTORE) and its type's reclaim
    /// cost is charged (lru_note_cost_refault).
    fn classic_workingset_refault(&mut self, f: FolioId, shadow: u64, in_fault: bool) {
        let s = unpack_shadow(shadow);
        let type_ = self.folios.type_of(f);
        let lv = self.folios.lruvec[f as usize];
        let memcg = self.lruvec_memcg(lv);
        self.count(memcg, Item::WorkingsetRefaultAnon.plus(type_), 1, true);
        let check = self.workingset_check(&s, type_ == LRU_GEN_FILE);
        let recent = check.passes();
        if recent {
            self.folios.set(f, pg::ACTIVE);
            self.workingset_age_nonresident(lv, 1);
            self.count_workingset_activate(memcg, self.lruvec_node(lv), type_);
            if s.workingset {
                self.folios.set(f, pg::WORKINGSET);
                // lru_note_cost_refault(): the thrashing type costs an I/O,
                // which turns get_scan_count's balance towards the other.
                self.lru_note_cost(lv, type_ == LRU_GEN_FILE, 1, 0);
                self.count(memcg, Item::WorkingsetRestoreAnon.plus(type_), 1, true);
            }
        }
        let now = self.now_ns;
        let restore = recent && s.workingset;
        self.trace(f, "workingset_refault", FolioWhat::Refault { recent, tier: None, restore });
        self.events.push(now, || EventKind::Refault { lruvec: lv, type_, recent, tier: 0, restore, function: "workingset_refault" });
        let shadow_lv = self.lruvec_id(s.memcg, s.node);
        self.record_refault(|mm| RefaultRecord {
            distance: Some(check),
            activate: recent,
            restore,
            ..RefaultRecord::new(mm, f, shadow_lv, type_, "workingset_refault", in_fault, s.workingset)
        });
    }

    /// workingset_activation(): an fd access activated a folio (classic only).
    pub fn workingset_activation(&mut self, f: FolioId) {
        if self.knobs.lru_gen_enabled {
            return;
        }
        let lv = self.folios.lruvec[f as usize];
        self.workingset_age_nonresident(lv, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shadows_round_trip_and_are_never_zero() {
        for (memcg, node, ev, ws) in [(0, 0, 0, false), (513, 3, EVICTION_MASK, true), (65535, 15, 12345, false)] {
            let v = pack_shadow(memcg, node, ev, ws);
            assert_ne!(v, 0);
            assert!(v < 1 << 62, "fits an address-space slot payload");
            assert_eq!(unpack_shadow(v), Shadow { memcg, node, eviction: ev, workingset: ws });
        }
    }
}
