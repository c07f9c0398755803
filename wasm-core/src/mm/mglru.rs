//! The multi-gen LRU inside one lruvec (mm/vmscan.c "multi-gen LRU",
//! include/linux/mm_inline.h), v6.12 baseline: insertion, references and
//! tiers, aging (max_seq) and min_seq advances, and the eviction loop with
//! its PID controller.
//!
//! Simplified throughout: no locks, RCU, Bloom filters or per-cpu batches;
//! the page-table walk of `walk_mm` is the lruvec's queue of folios whose PTE
//! accessed bit was set since the last aging ([`super::lruvec::Lruvec::mm_walk`]).
use super::folio::{lru_tier_from_refs, pg, FolioId, LRU_REFS_WIDTH};
use super::lruvec::{lru_gen_from_seq, lru_hist_from_seq, MAX_LRU_BATCH, MAX_NR_GENS, MAX_NR_TIERS, MIN_LRU_BATCH, MIN_NR_GENS};
use super::vmscan::ScanControl;
use super::vmstat::Item;
use super::{LruvecId, Mm, ANON_AND_FILE, DEF_PRIORITY, LRU_GEN_ANON, LRU_GEN_FILE, MAX_NR_ZONES, MAX_SWAPPINESS};
use crate::cost;
use crate::event::EventKind;
use super::trace::{AddRule, FolioWhat};

/// `struct ctrl_pos`: one position of the PID controller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CtrlPos {
    pub refaulted: u64,
    pub total: u64,
    pub gain: u64,
}

/// positive_ctrl_err(): true if the process variable `pv` has few refaults
/// or a refault rate (scaled by its gain) no higher than the set point `sp`'s.
pub fn positive_ctrl_err(sp: &CtrlPos, pv: &CtrlPos) -> bool {
    pv.refaulted < MIN_LRU_BATCH
        || u128::from(pv.refaulted) * u128::from(sp.total + MIN_LRU_BATCH) * u128::from(sp.gain)
            <= u128::from(sp.refaulted + 1) * u128::from(pv.total) * u128::from(pv.gain)
}

/// What evict_folios() does with a folio shrink_folio_list() left behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejected {
    /// Dirty or under writeback with PG_reclaim: left alone until writeback ends.
    Writeback,
    /// Active, referenced, mapped, locked, dirty, or already retried: re-enters
    /// at max_seq ("don't add rejected folios to the oldest generation").
    Activate,
    /// Clean and unmapped: retried once.
    Retry,
}

impl Mm {
    // ---------------------------------------------------------------- sizes

    /// lru_gen_update_size(): moves one folio's page between generation
    /// counters (None = off the generation lists), keeping the classic
    /// active/inactive view consistent for /proc/vmstat.
    fn lru_gen_update_size(&mut self, lv: LruvecId, f: FolioId, old_gen: Option<usize>, new_gen: Option<usize>) {
        let type_ = self.folios.type_of(f);
        let zone = self.folios.zone(f);
        let lrugen = &mut self.lruvecs[lv as usize].lrugen;
        if let Some(g) = old_gen {
            lrugen.nr_pages[g][type_][zone] -= 1;
        }
        if let Some(g) = new_gen {
            lrugen.nr_pages[g][type_][zone] += 1;
        }
    }

    // ------------------------------------------------------------ insertion

    /// lru_gen_add_folio() (include/linux/mm_inline.h, v6.12 rules): the
    /// target generation is, first match wins,
    /// 1. PG_active -> max_seq;
    /// 2. anon not in the swap cache, or PG_reclaim with dirty/writeback -> max_seq - 1;
    /// 3. `reclaiming`, or `min_seq + MIN_NR_GENS >= max_seq` -> min_seq;
    /// 4. otherwise min_seq + 1.
    ///
    /// Before v6.8 ("fix underprotected page cache", `mglru_underprotection_fix`
    /// off): rule 2 gave min_seq + 1, and everything not active went to min_seq.
    ///
    /// PG_active is cleared (it only says "youngest" on the way in). The folio
    /// goes to the tail when reclaiming (scanned next), else the head.
    pub fn lru_gen_add_folio(&mut self, f: FolioId, reclaiming: bool) {
        let lv = self.folios.lruvec[f as usize];
        let type_ = self.folios.type_of(f);
        let lrugen = &self.lruvecs[lv as usize].lrugen;
        let (max_seq, min_seq) = (lrugen.max_seq, lrugen.min_seq[type_]);
        let fl = self.folios.flags[f as usize];
        // Before v6.8 the cold-but-busy cases went to min_seq + 1 and
        // everything else to min_seq.
        let fixed = self.knobs.mglru_underprotection_fix;
        let busy = if fixed { max_seq - 1 } else { min_seq + 1 };
        let (seq, rule) = if fl & pg::ACTIVE != 0 {
            (max_seq, AddRule::Active)
        } else if type_ == LRU_GEN_ANON && fl & pg::SWAPCACHE == 0 {
            (busy, AddRule::AnonNotInSwapCache)
        } else if fl & pg::RECLAIM != 0 && fl & (pg::DIRTY | pg::WRITEBACK) != 0 {
            (busy, AddRule::ReclaimDirty)
        } else if !fixed {
            (min_seq, AddRule::Oldest)
        } else if reclaiming {
            (min_seq, AddRule::Reclaiming)
        } else if min_seq + MIN_NR_GENS >= max_seq {
            (min_seq, AddRule::FewGenerations)
        } else {
            (min_seq + 1, AddRule::SecondOldest)
        };
        self.trace(f, "lru_gen_add_folio", FolioWhat::Added { seq, rule });
        let gen = lru_gen_from_seq(seq);
        self.folios.clear(f, pg::ACTIVE);
        self.folios.set_lru_gen(f, Some(gen));
        self.lru_gen_update_size(lv, f, None, Some(gen));
        self.gen_list_add(lv, f, gen, reclaiming);
    }

    /// lru_gen_del_folio(): takes the folio off its generation list. When not
    /// reclaiming, a folio in one of the two youngest generations gets
    /// PG_active (what /proc/vmstat calls active).
    pub fn lru_gen_del_folio(&mut self, f: FolioId, reclaiming: bool) -> bool {
        let Some(gen) = self.folios.lru_gen(f) else {
            return false;
        };
        let lv = self.folios.lruvec[f as usize];
        if !reclaiming && self.lruvecs[lv as usize].lrugen.is_active(gen) {
            self.folios.set(f, pg::ACTIVE);
        }
        self.folios.set_lru_gen(f, None);
        self.lru_gen_update_size(lv, f, Some(gen), None);
        self.gen_list_del(lv, f);
        true
    }

    /// Puts `f` on the list of generation slot `gen` (head, or tail).
    fn gen_list_add(&mut self, lv: LruvecId, f: FolioId, gen: usize, tail: bool) {
        let type_ = self.folios.type_of(f);
        let zone = self.folios.zone(f);
        self.folios.set_list_slot(f, gen);
        let list = &mut self.lruvecs[lv as usize].lrugen.folios[gen][type_][zone];
        if tail {
            list.add_tail(&mut self.folios, f);
        } else {
            list.add_head(&mut self.folios, f);
        }
    }

    /// Takes `f` off the generation list that holds it.
    fn gen_list_del(&mut self, lv: LruvecId, f: FolioId) {
        let type_ = self.folios.type_of(f);
        let zone = self.folios.zone(f);
        let slot = self.folios.list_slot(f);
        self.lruvecs[lv as usize].lrugen.folios[slot][type_][zone].del(&mut self.folios, f);
    }

    /// The sequence number that generation slot `gen` holds for `type_`.
    pub fn seq_of_gen(&self, lv: LruvecId, type_: usize, gen: usize) -> u64 {
        let g = &self.lruvecs[lv as usize].lrugen;
        let lo = g.min_seq[type_];
        lo + ((gen as u64 + MAX_NR_GENS - lo % MAX_NR_GENS) % MAX_NR_GENS)
    }

    // ------------------------------------------------------ refs and tiers

    /// folio_inc_refs() (mm/swap.c, v6.12; lru_gen_inc_refs in 6.14+): an fd
    /// access. The first sets PG_referenced, the second PG_workingset, later
    /// ones count LRU_REFS up to 3, so N accesses put a folio in tier
    /// order_base_2(N). No list move, no workingset_activation.
    pub fn folio_inc_refs(&mut self, f: FolioId) {
        if !self.folios.test(f, pg::REFERENCED) {
            self.folios.set(f, pg::REFERENCED);
            return;
        }
        if !self.folios.test(f, pg::LRU) {
            return;
        }
        if !self.folios.test(f, pg::WORKINGSET) {
            self.folios.set(f, pg::WORKINGSET);
            self.trace(f, "folio_inc_refs", FolioWhat::Refs { refs: 1, tier: 1 });
            return;
        }
        let refs = self.folios.refs_counter(f);
        if refs < (1 << LRU_REFS_WIDTH) - 1 {
            self.folios.set_refs_counter(f, refs + 1);
            let refs = self.folios.lru_refs(f);
            self.trace(f, "folio_inc_refs", FolioWhat::Refs { refs, tier: lru_tier_from_refs(refs) });
        }
    }

    /// folio_update_gen(): the page-table walk found the folio young and
    /// promotes it to `gen` in place (generation bits rewritten, refs
    /// cleared); it stays on its old list until sort_folio() moves it.
    /// Returns the old generation, or None if the folio was isolated.
    fn folio_update_gen(&mut self, f: FolioId, gen: usize) -> Option<usize> {
        let old = self.folios.lru_gen(f)?;
        self.folios.clear(f, pg::REFS_MASK | pg::REFS_FLAGS);
        self.folios.set_lru_gen(f, Some(gen));
        Some(old)
    }

    /// folio_inc_gen(): moves a folio of the oldest generation to the next
    /// one (refs cleared; PG_reclaim set when reclaiming). A folio already
    /// promoted in place keeps its newer generation. Returns the new slot;
    /// the caller moves it on the lists.
    fn folio_inc_gen(&mut self, lv: LruvecId, f: FolioId, reclaiming: bool) -> usize {
        let type_ = self.folios.type_of(f);
        let old_gen = lru_gen_from_seq(self.lruvecs[lv as usize].lrugen.min_seq[type_]);
        let cur = self.folios.lru_gen(f).expect("folio_inc_gen on a folio off the lists");
        if cur != old_gen {
            return cur;
        }
        let new_gen = (old_gen + 1) % MAX_NR_GENS as usize;
        self.folios.clear(f, pg::REFS_MASK | pg::REFS_FLAGS);
        self.folios.set_lru_gen(f, Some(new_gen));
        if reclaiming {
            self.folios.set(f, pg::RECLAIM);
        }
        self.lru_gen_update_size(lv, f, Some(old_gen), Some(new_gen));
        new_gen
    }

    /// Moves `f` to the head or tail of the list of slot `to`
    /// (list_move / list_move_tail).
    fn move_folio(&mut self, lv: LruvecId, f: FolioId, to: usize, tail: bool) {
        self.gen_list_del(lv, f);
        self.gen_list_add(lv, f, to, tail);
    }

    // ---------------------------------------------------------------- aging

    /// should_run_aging() (v6.12): returns (whether aging is due, nr_to_scan).
    /// Aging is due when no cold generation is left, or with exactly three
    /// generations when the youngest holds more than half the pages or the
    /// oldest-but-one less than a quarter. Four generations never age.
    pub fn should_run_aging(&self, lv: LruvecId, max_seq: u64, can_swap: bool) -> (bool, u64) {
        let lrugen = &self.lruvecs[lv as usize].lrugen;
        let first = usize::from(!can_swap);
        let min_seq = lrugen.min_seq;
        if min_seq[first] + MIN_NR_GENS > max_seq {
            return (true, 0);
        }
        let (mut young, mut old, mut total) = (0u64, 0u64, 0u64);
        for (type_, &type_min) in min_seq.iter().enumerate().skip(first) {
            for seq in type_min..=max_seq {
                let size = lrugen.gen_size(lru_gen_from_seq(seq), type_);
                total += size;
                if seq == max_seq {
                    young += size;
                } else if seq + MIN_NR_GENS == max_seq {
                    old += size;
                }
            }
        }
        if min_seq[first] + MIN_NR_GENS < max_seq {
            return (false, total);
        }
        if young * MIN_NR_GENS > total || old * (MIN_NR_GENS + 2) < total {
            return (true, total);
        }
        (false, total)
    }

    /// get_nr_to_scan() (v6.12): how much to scan at this priority; -1 means
    /// "aged (or protected): stop and rotate this memcg young". No aging at
    /// DEF_PRIORITY. Simplified: memory.min is the only protection checked
    /// here (memory.low is handled by the callers).
    pub fn get_nr_to_scan(&mut self, lv: LruvecId, sc: &ScanControl, can_swap: bool) -> i64 {
        let memcg = self.lruvec_memcg(lv);
        if self.mem_cgroup_below_min(sc.target_mem_cgroup, memcg) {
            return -1;
        }
        let max_seq = self.lruvecs[lv as usize].lrugen.max_seq;
        let (success, nr_to_scan) = self.should_run_aging(lv, max_seq, can_swap);
        if nr_to_scan > 0 && !self.memcgs[memcg as usize].online {
            return nr_to_scan as i64;
        }
        if !success || sc.priority == DEF_PRIORITY {
            return (nr_to_scan >> sc.priority) as i64;
        }
        if self.try_to_inc_max_seq(lv, max_seq, can_swap, false) {
            -1
        } else {
            0
        }
    }

    /// try_to_inc_max_seq(): the kernel walks the page tables of the memcg's
    /// processes, clearing young PTEs and promoting their folios to max_seq in
    /// place (folio_update_gen), then calls inc_max_seq(). Here the walk visits
    /// the lruvec's queue of folios whose accessed bit was set since the last
    /// aging. Simplified: no mm_struct list, no Bloom filters, no
    /// non-leaf PMD accessed bits; the walk always completes.
    pub fn try_to_inc_max_seq(&mut self, lv: LruvecId, seq: u64, can_swap: bool, force_scan: bool) -> bool {
        if seq < self.lruvecs[lv as usize].lrugen.max_seq {
            return false;
        }
        let new_gen = lru_gen_from_seq(seq);
        let walk = std::mem::take(&mut self.lruvecs[lv as usize].mm_walk);
        let mut promoted = 0u64;
        for &f in &walk {
            self.folios.clear(f, pg::WALK_QUEUED);
            // Still resident, still this lruvec's, still young?
            if self.folios.lruvec[f as usize] != lv || !self.folios.test(f, pg::YOUNG) || !self.folios.test(f, pg::MAPPED) {
                continue;
            }
            self.folios.clear(f, pg::YOUNG);
            if let Some(old) = self.folio_update_gen(f, new_gen) {
                if old != new_gen {
                    self.lru_gen_update_size(lv, f, Some(old), Some(new_gen));
                    promoted += 1;
                    self.trace(f, "try_to_inc_max_seq", FolioWhat::PromotedByWalk { seq });
                }
            } else {
                // Isolated right now: shrink_folio_list will see it referenced.
                self.folios.set(f, pg::REFERENCED);
            }
        }
        let mut walk = walk;
        walk.clear();
        self.lruvecs[lv as usize].mm_walk = walk;
        self.cost_ns += promoted * cost::SCAN_FOLIO_NS / 4;
        let ok = self.inc_max_seq(lv, seq, can_swap, force_scan);
        if ok {
            let max_seq = self.lruvecs[lv as usize].lrugen.max_seq;
            let now = self.now_ns;
            self.events.push_rare(now, || EventKind::Aged { lruvec: lv, max_seq, promoted });
        }
        ok
    }

    /// inc_max_seq(): if a type already has MAX_NR_GENS generations, retire
    /// its oldest (inc_min_seq); then open a new youngest generation.
    pub fn inc_max_seq(&mut self, lv: LruvecId, seq: u64, can_swap: bool, _force_scan: bool) -> bool {
        if seq != self.lruvecs[lv as usize].lrugen.max_seq {
            return false;
        }
        for type_ in (0..ANON_AND_FILE).rev() {
            if self.lruvecs[lv as usize].lrugen.nr_gens(type_) != MAX_NR_GENS {
                continue;
            }
            self.inc_min_seq(lv, type_, can_swap);
        }
        // reset_ctrl_pos(type, carryover = false) clears nothing with NR_HIST_GENS == 1.
        let lrugen = &mut self.lruvecs[lv as usize].lrugen;
        let next = lru_gen_from_seq(lrugen.max_seq + 1);
        lrugen.timestamps[next] = self.now_ns;
        lrugen.max_seq += 1;
        true
    }

    /// inc_min_seq(): every folio of the oldest generation moves into the next
    /// one (folio_inc_gen); for anon without swap nothing moves. Then the PID
    /// history carries over (reset_ctrl_pos) and min_seq advances.
    fn inc_min_seq(&mut self, lv: LruvecId, type_: usize, can_swap: bool) -> bool {
        let old_gen = lru_gen_from_seq(self.lruvecs[lv as usize].lrugen.min_seq[type_]);
        let mut moved = 0u64;
        if type_ == LRU_GEN_FILE || can_swap {
            for zone in 0..MAX_NR_ZONES {
                while let Some(f) = {
                    let l = &self.lruvecs[lv as usize].lrugen.folios[old_gen][type_][zone];
                    (l.tail != super::folio::NIL).then_some(l.tail)
                } {
                    let new_gen = self.folio_inc_gen(lv, f, false);
                    self.move_folio(lv, f, new_gen, true);
                    moved += 1;
                    let seq = self.seq_of_gen(lv, type_, new_gen);
                    self.trace(f, "inc_min_seq", FolioWhat::Aged { seq });
                }
            }
        }
        self.reset_ctrl_pos(lv, type_, true);
        let lrugen = &mut self.lruvecs[lv as usize].lrugen;
        lrugen.min_seq[type_] += 1;
        let min_seq = lrugen.min_seq[type_];
        let now = self.now_ns;
        self.events.push_rare(now, || EventKind::MinSeq { lruvec: lv, type_, min_seq, function: "inc_min_seq", moved });
        true
    }

    /// try_to_inc_min_seq(): after isolation, retire oldest generations that
    /// are empty (while at least MIN_NR_GENS remain), keeping
    /// min_seq[anon] <= min_seq[file] when swapping is possible.
    pub fn try_to_inc_min_seq(&mut self, lv: LruvecId, can_swap: bool) -> bool {
        let lrugen = &self.lruvecs[lv as usize].lrugen;
        let mut min_seq = lrugen.min_seq;
        let max_seq = lrugen.max_seq;
        for (type_, seq) in min_seq.iter_mut().enumerate().skip(usize::from(!can_swap)) {
            while *seq + MIN_NR_GENS <= max_seq {
                let gen = lru_gen_from_seq(*seq);
                if lrugen.folios[gen][type_].iter().any(|l| !l.is_empty()) {
                    break;
                }
                *seq += 1;
            }
        }
        if can_swap {
            min_seq[LRU_GEN_ANON] = min_seq[LRU_GEN_ANON].min(min_seq[LRU_GEN_FILE]);
            min_seq[LRU_GEN_FILE] = min_seq[LRU_GEN_ANON].max(lrugen.min_seq[LRU_GEN_FILE]);
        }
        let mut success = false;
        for (type_, &seq) in min_seq.iter().enumerate().skip(usize::from(!can_swap)) {
            if seq == self.lruvecs[lv as usize].lrugen.min_seq[type_] {
                continue;
            }
            self.reset_ctrl_pos(lv, type_, true);
            self.lruvecs[lv as usize].lrugen.min_seq[type_] = seq;
            success = true;
            let now = self.now_ns;
            self.events.push_rare(now, || EventKind::MinSeq { lruvec: lv, type_, min_seq: seq, function: "try_to_inc_min_seq", moved: 0 });
        }
        success
    }

    // ------------------------------------------------------- PID controller

    /// read_ctrl_pos(): refaults and total evictions (plus protections for
    /// tiers >= 1) of (type, tier), smoothed over generations.
    pub fn read_ctrl_pos(&self, lv: LruvecId, type_: usize, tier: usize, gain: u64) -> CtrlPos {
        let lrugen = &self.lruvecs[lv as usize].lrugen;
        let hist = lru_hist_from_seq(lrugen.min_seq[type_]);
        let mut total = lrugen.avg_total[type_][tier] + lrugen.evicted[hist][type_][tier];
        if tier > 0 {
            total += lrugen.protected[hist][type_][tier - 1];
        }
        CtrlPos { refaulted: lrugen.avg_refaulted[type_][tier] + lrugen.refaulted[hist][type_][tier], total, gain }
    }

    /// reset_ctrl_pos(): when min_seq[type] advances (carryover), the
    /// generation's counters are folded into the moving averages (factor 1/2)
    /// and cleared (NR_HIST_GENS == 1).
    pub fn reset_ctrl_pos(&mut self, lv: LruvecId, type_: usize, carryover: bool) {
        if !carryover {
            return;
        }
        let hist = lru_hist_from_seq(self.lruvecs[lv as usize].lrugen.min_seq[type_]);
        let patch004 = self.knobs.refault_distance_mglru;
        let lrugen = &mut self.lruvecs[lv as usize].lrugen;
        for tier in 0..MAX_NR_TIERS {
            let refaulted = lrugen.avg_refaulted[type_][tier] + lrugen.refaulted[hist][type_][tier];
            let mut total = lrugen.avg_total[type_][tier] + lrugen.evicted[hist][type_][tier];
            if tier > 0 {
                total += lrugen.protected[hist][type_][tier - 1];
            }
            if patch004 {
                // Raised tiers can refault more than they evicted (patch 004).
                total = total.max(refaulted);
            }
            lrugen.avg_refaulted[type_][tier] = refaulted / 2;
            lrugen.avg_total[type_][tier] = total / 2;
            lrugen.refaulted[hist][type_][tier] = 0;
            lrugen.evicted[hist][type_][tier] = 0;
            if tier > 0 {
                lrugen.protected[hist][type_][tier - 1] = 0;
            }
        }
    }

    /// get_type_to_scan() (<= 6.13): compare tier 0 of anon (gain swappiness)
    /// with tier 0 of file (gain 200 - swappiness) to pick the type; then find
    /// the last tier of that type whose refault rate stays below the other
    /// type's tier 0. Returns (type, tier_idx).
    pub fn get_type_to_scan(&self, lv: LruvecId, swappiness: u32) -> (usize, usize) {
        let gain = [u64::from(swappiness), u64::from(MAX_SWAPPINESS - swappiness)];
        let sp = self.read_ctrl_pos(lv, LRU_GEN_ANON, 0, gain[LRU_GEN_ANON]);
        let pv = self.read_ctrl_pos(lv, LRU_GEN_FILE, 0, gain[LRU_GEN_FILE]);
        let type_ = usize::from(positive_ctrl_err(&sp, &pv));
        let sp = self.read_ctrl_pos(lv, 1 - type_, 0, gain[1 - type_]);
        let mut tier = 1;
        while tier < MAX_NR_TIERS {
            let pv = self.read_ctrl_pos(lv, type_, tier, gain[type_]);
            if !positive_ctrl_err(&sp, &pv) {
                break;
            }
            tier += 1;
        }
        (type_, tier - 1)
    }

    /// get_tier_idx() (<= 6.13): the last tier whose refault rate is at most
    /// about twice tier 0's (gains 1:2, to leave a margin for fluctuations).
    pub fn get_tier_idx(&self, lv: LruvecId, type_: usize) -> usize {
        let sp = self.read_ctrl_pos(lv, type_, 0, 1);
        let mut tier = 1;
        while tier < MAX_NR_TIERS {
            let pv = self.read_ctrl_pos(lv, type_, tier, 2);
            if !positive_ctrl_err(&sp, &pv) {
                break;
            }
            tier += 1;
        }
        tier - 1
    }

    // ------------------------------------------------------------- eviction

    /// sort_folio() (v6.12): true if the folio was moved instead of isolated:
    /// promoted by aging (its generation is no longer the oldest), protected
    /// (tier > tier_idx, or refs saturated since v6.8), outside reclaim_idx, or waiting
    /// for writeback (locked, writeback, or a dirty file folio).
    fn sort_folio(&mut self, lv: LruvecId, f: FolioId, sc: &mut ScanControl, tier_idx: usize) -> bool {
        let gen = self.folios.lru_gen(f).expect("sort_folio on a listed folio");
        let type_ = self.folios.type_of(f);
        let zone = self.folios.zone(f);
        let refs = self.folios.lru_refs(f);
        let tier = lru_tier_from_refs(refs);
        let min_seq = self.lruvecs[lv as usize].lrugen.min_seq[type_];
        let old_gen = lru_gen_from_seq(min_seq);

        // promoted
        if gen != old_gen {
            self.move_folio(lv, f, gen, false);
            let seq = self.seq_of_gen(lv, type_, gen);
            self.trace(f, "sort_folio", FolioWhat::SortPromoted { seq });
            return true;
        }
        // protected
        let saturated = self.knobs.mglru_underprotection_fix && refs == 1 << LRU_REFS_WIDTH;
        if tier > tier_idx || saturated {
            let hist = lru_hist_from_seq(min_seq);
            let new_gen = self.folio_inc_gen(lv, f, false);
            self.move_folio(lv, f, new_gen, true);
            self.lruvecs[lv as usize].lrugen.protected[hist][type_][tier - 1] += 1;
            self.trace(f, "sort_folio", FolioWhat::SortProtected { tier, tier_idx, seq: min_seq + 1 });
            return true;
        }
        // ineligible
        if zone > sc.reclaim_idx {
            let new_gen = self.folio_inc_gen(lv, f, false);
            self.move_folio(lv, f, new_gen, true);
            return true;
        }
        let fl = self.folios.flags[f as usize];
        let dirty = fl & pg::DIRTY != 0;
        let writeback = fl & pg::WRITEBACK != 0;
        if type_ == LRU_GEN_FILE && dirty {
            sc.nr_file_taken += 1;
            if !writeback {
                sc.nr_unqueued_dirty += 1;
            }
        }
        // waiting for writeback
        if writeback || (type_ == LRU_GEN_FILE && dirty) {
            let new_gen = self.folio_inc_gen(lv, f, true);
            self.move_folio(lv, f, new_gen, false);
            self.trace(f, "sort_folio", FolioWhat::SortWriteback { seq: min_seq + 1 });
            return true;
        }
        false
    }

    /// isolate_folio(): take the folio off its list for shrink_folio_list.
    /// Without __GFP_IO, dirty folios and anon folios outside the swap cache
    /// are refused. An unreferenced folio loses its refs (see MAX_NR_TIERS);
    /// PG_reclaim and PG_referenced are cleared.
    fn isolate_folio(&mut self, f: FolioId, sc: &ScanControl) -> bool {
        let fl = self.folios.flags[f as usize];
        if !sc.gfp_io && (fl & pg::DIRTY != 0 || (fl & pg::ANON != 0 && fl & pg::SWAPCACHE == 0)) {
            return false;
        }
        if fl & pg::LRU == 0 {
            return false;
        }
        self.folios.clear(f, pg::LRU);
        if fl & pg::REFERENCED == 0 {
            self.folios.clear(f, pg::REFS_MASK | pg::REFS_FLAGS);
        }
        self.folios.clear(f, pg::RECLAIM | pg::REFERENCED);
        self.lru_gen_del_folio(f, true);
        self.trace(f, "isolate_folio", FolioWhat::Isolated);
        true
    }

    /// scan_folios(): pops folios from the tail of the oldest generation of
    /// `type_`, zone by zone from reclaim_idx down, sorting or isolating each;
    /// stops after MAX_LRU_BATCH folios or MIN_LRU_BATCH isolated or skipped.
    /// Returns the folios scanned, or 0 when nothing could be isolated and the
    /// budget was not used up.
    fn scan_folios(&mut self, lv: LruvecId, sc: &mut ScanControl, type_: usize, tier: usize, list: &mut Vec<FolioId>) -> u64 {
        let lrugen = &self.lruvecs[lv as usize].lrugen;
        if lrugen.nr_gens(type_) == MIN_NR_GENS {
            return 0;
        }
        let gen = lru_gen_from_seq(lrugen.min_seq[type_]);
        let (mut sorted, mut scanned, mut isolated) = (0u64, 0u64, 0u64);
        let mut remaining = MAX_LRU_BATCH;
        let memcg = self.lruvec_memcg(lv);
        for i in (1..=MAX_NR_ZONES).rev() {
            let zone = (sc.reclaim_idx + i) % MAX_NR_ZONES;
            let mut moved: Vec<FolioId> = Vec::new();
            loop {
                let tail = self.lruvecs[lv as usize].lrugen.folios[gen][type_][zone].tail;
                if tail == super::folio::NIL {
                    break;
                }
                let f = tail;
                scanned += 1;
                if self.sort_folio(lv, f, sc, tier) {
                    sorted += 1;
                } else if self.isolate_folio(f, sc) {
                    list.push(f);
                    isolated += 1;
                } else {
                    self.gen_list_del(lv, f);
                    moved.push(f);
                }
                remaining -= 1;
                if remaining == 0 || isolated.max(moved.len() as u64) >= MIN_LRU_BATCH {
                    break;
                }
            }
            if !moved.is_empty() {
                // list_splice(&moved, head): skipped folios return to the head.
                let n = moved.len() as u64;
                for &f in moved.iter().rev() {
                    self.gen_list_add(lv, f, gen, false);
                }
                self.count(memcg, Item::PgskipDma.plus(zone), n, true);
            }
            if remaining == 0 || isolated >= MIN_LRU_BATCH {
                break;
            }
        }
        let item = if sc.kswapd { Item::PgscanKswapd } else { Item::PgscanDirect };
        let global = !sc.cgroup_reclaim();
        self.count(memcg, item, isolated, global);
        self.count(memcg, Item::Pgrefill, sorted, global);
        // PGSCAN_ANON/FILE count globally, whoever reclaims.
        self.count(memcg, Item::PgscanAnon.plus(type_), isolated, true);
        self.cost_ns += scanned * cost::SCAN_FOLIO_NS;
        if isolated > 0 || remaining == 0 {
            scanned
        } else {
            0
        }
    }

    /// isolate_folios() (<= 6.13): choose the type (swappiness 0 -> file; the
    /// type with the older min_seq; swappiness 1 -> file, 200 -> anon; no
    /// __GFP_IO -> file; else the PID controller), then scan it, falling back
    /// to the other type if nothing was isolated. Returns (scanned, type, tier_idx).
    fn isolate_folios(&mut self, lv: LruvecId, sc: &mut ScanControl, swappiness: u32, list: &mut Vec<FolioId>) -> (u64, usize, usize) {
        let min_seq = self.lruvecs[lv as usize].lrugen.min_seq;
        let mut tier: Option<usize> = None;
        let mut type_ = if swappiness == 0 {
            LRU_GEN_FILE
        } else if min_seq[LRU_GEN_ANON] < min_seq[LRU_GEN_FILE] {
            LRU_GEN_ANON
        } else if swappiness == 1 {
            LRU_GEN_FILE
        } else if swappiness == MAX_SWAPPINESS {
            LRU_GEN_ANON
        } else if !sc.gfp_io {
            LRU_GEN_FILE
        } else {
            let (t, idx) = self.get_type_to_scan(lv, swappiness);
            tier = Some(idx);
            t
        };
        let mut scanned = 0;
        let mut used_tier = 0;
        for _ in usize::from(swappiness == 0)..ANON_AND_FILE {
            let t = tier.unwrap_or_else(|| self.get_tier_idx(lv, type_));
            used_tier = t;
            scanned = self.scan_folios(lv, sc, type_, t, list);
            if scanned > 0 {
                break;
            }
            type_ = 1 - type_;
            tier = None;
        }
        (scanned, type_, used_tier)
    }

    /// evict_folios(): isolate a batch from the oldest generation, reclaim it
    /// with shrink_folio_list(), and put the rest back: a rejected folio
    /// (active, referenced, mapped, dirty, under writeback, or on the retry
    /// pass) gets PG_active and re-enters at max_seq; clean unmapped ones are
    /// retried once. Returns the folios scanned.
    pub fn evict_folios(&mut self, lv: LruvecId, sc: &mut ScanControl, swappiness: u32) -> u64 {
        let mut list = Vec::new();
        let (mut scanned, type_, tier_idx) = self.isolate_folios(lv, sc, swappiness, &mut list);
        if self.try_to_inc_min_seq(lv, swappiness != 0) {
            scanned += 1;
        }
        if self.lruvecs[lv as usize].lrugen.nr_gens(usize::from(swappiness == 0)) == MIN_NR_GENS {
            scanned = 0;
        }
        if list.is_empty() {
            return scanned;
        }
        let isolated = list.len() as u64;
        let memcg = self.lruvec_memcg(lv);
        let mut skip_retry = false;
        let mut total_reclaimed = 0;
        let mut rejected = 0;
        loop {
            let reclaimed = self.shrink_folio_list(&mut list, lv, sc);
            sc.nr_reclaimed += reclaimed;
            total_reclaimed += reclaimed;
            let mut clean = Vec::new();
            for &f in list.iter().rev() {
                let fl = self.folios.flags[f as usize];
                if fl & pg::RECLAIM != 0 && fl & (pg::DIRTY | pg::WRITEBACK) != 0 {
                    if fl & pg::WORKINGSET != 0 {
                        self.folios.set(f, pg::REFERENCED);
                    }
                    self.putback(f);
                    continue;
                }
                if skip_retry || fl & (pg::ACTIVE | pg::REFERENCED | pg::MAPPED | pg::DIRTY | pg::WRITEBACK) != 0 {
                    // don't add rejected folios to the oldest generation
                    self.folios.clear(f, pg::REFS_MASK | pg::REFS_FLAGS);
                    self.folios.set(f, pg::ACTIVE);
                    rejected += 1;
                    self.trace(f, "evict_folios", FolioWhat::Rejected);
                    self.putback(f);
                    continue;
                }
                clean.push(f);
            }
            if type_ == super::LRU_GEN_ANON {
                sc.last_evicted_anon = true;
            }
            let item = if sc.kswapd { Item::PgstealKswapd } else { Item::PgstealDirect };
            self.count(memcg, item, reclaimed, !sc.cgroup_reclaim());
            self.count(memcg, Item::PgstealAnon.plus(type_), reclaimed, true);
            if clean.is_empty() {
                break;
            }
            list = clean;
            skip_retry = true;
        }
        let now = self.now_ns;
        self.events.push(now, || EventKind::Evicted {
            lruvec: lv,
            type_,
            tier_idx,
            scanned,
            isolated,
            reclaimed: total_reclaimed,
            rejected,
        });
        scanned
    }

    /// move_folios_to_lru() for one folio: back onto the lruvec it came from.
    fn putback(&mut self, f: FolioId) {
        self.folios.set(f, pg::LRU);
        self.lru_gen_add_folio(f, false);
    }

    /// get_swappiness() (MGLRU): 0 when swapping is not allowed or fewer than
    /// MIN_LRU_BATCH swap slots are free, else the memcg's swappiness.
    pub fn get_swappiness(&self, lv: LruvecId, sc: &ScanControl) -> u32 {
        if !sc.may_swap || self.nr_swap_pages_for(self.lruvec_memcg(lv)) < MIN_LRU_BATCH {
            return 0;
        }
        self.mem_cgroup_swappiness(self.lruvec_memcg(lv))
    }

    /// should_abort_scan() (v6.7+): memcg (non-root) reclaim never aborts, for
    /// fairness; root reclaim stops once nr_to_reclaim is met; kswapd at
    /// order 0 also stops when every eligible zone is above high + 64.
    pub fn should_abort_scan(&self, lv: LruvecId, sc: &ScanControl) -> bool {
        if !sc.root_reclaim() {
            return false;
        }
        if sc.nr_reclaimed >= sc.nr_to_reclaim.max(2 << sc.order) {
            return true;
        }
        if !sc.kswapd || sc.order > 0 {
            return false;
        }
        let node = self.lruvec_node(lv);
        for z in 0..=sc.reclaim_idx {
            let zone = &self.nodes[node].zones[z];
            let mark = zone.watermark[super::pgdat::WMARK_HIGH] + MIN_LRU_BATCH;
            if zone.managed > 0 && !self.zone_watermark_ok(node, z, 0, mark, sc.reclaim_idx) {
                return false;
            }
        }
        true
    }

    /// try_to_shrink_lruvec(): evict in batches until the lruvec's share at
    /// this priority is scanned, nothing more can be evicted, or reclaim may
    /// stop. Returns true when this memcg should be rotated young (it aged or
    /// is protected).
    pub fn try_to_shrink_lruvec(&mut self, lv: LruvecId, sc: &mut ScanControl) -> bool {
        let swappiness = self.get_swappiness(lv, sc);
        let mut scanned = 0u64;
        let nr_to_scan;
        loop {
            let n = self.get_nr_to_scan(lv, sc, swappiness != 0);
            if n <= 0 {
                nr_to_scan = n;
                break;
            }
            let delta = self.evict_folios(lv, sc, swappiness);
            if delta == 0 {
                nr_to_scan = n;
                break;
            }
            scanned += delta;
            if scanned >= n as u64 || self.should_abort_scan(lv, sc) {
                nr_to_scan = n;
                break;
            }
        }
        // Dirty file folios that sort_folio set aside need the flusher.
        if sc.nr_unqueued_dirty > 0 {
            self.wakeup_flusher_threads();
        }
        nr_to_scan < 0
    }

    /// lru_gen_shrink_lruvec(): reclaim of one lruvec outside the memcg LRU
    /// walk (memcg reclaim); an aged lruvec rotates to the young generation
    /// of the memcg LRU.
    pub fn lru_gen_shrink_lruvec(&mut self, lv: LruvecId, sc: &mut ScanControl) {
        if self.try_to_shrink_lruvec(lv, sc) && self.knobs.memcg_lru {
            self.lru_gen_rotate_memcg(lv, super::memcg_lru::MEMCG_LRU_YOUNG);
        }
    }

    /// lru_gen_look_around() (simplified): while checking a young PTE during
    /// eviction, the kernel also scans up to 64 neighbouring PTEs and promotes
    /// their young folios to max_seq in place. Here the neighbours are the
    /// adjacent pages of the same mapping (+-32).
    pub fn lru_gen_look_around(&mut self, f: FolioId) {
        let m = self.folios.mapping[f as usize];
        let idx = self.folios.index[f as usize] as i64;
        let lv = self.folios.lruvec[f as usize];
        let gen = lru_gen_from_seq(self.lruvecs[lv as usize].lrugen.max_seq);
        let len = self.mappings[m as usize].slots.len() as i64;
        for i in (idx - 32).max(0)..(idx + 32).min(len) {
            if i == idx {
                continue;
            }
            if let super::filemap::Slot::Folio(g) = self.slot(m, i as u32) {
                let fl = self.folios.flags[g as usize];
                if fl & pg::YOUNG != 0 && fl & pg::MAPPED != 0 && self.folios.lruvec[g as usize] == lv {
                    self.folios.clear(g, pg::YOUNG);
                    if let Some(old) = self.folio_update_gen(g, gen) {
                        if old != gen {
                            self.lru_gen_update_size(lv, g, Some(old), Some(gen));
                            let seq = self.lruvecs[lv as usize].lrugen.max_seq;
                            self.trace(g, "lru_gen_look_around", FolioWhat::LookAround { seq });
                        }
                    } else {
                        self.folios.set(g, pg::REFERENCED);
                    }
                }
            }
        }
    }
}
