//! MGLRU aging: should_run_aging(), try_to_inc_max_seq() and inc_max_seq(),
//! and the min_seq advances (mm/vmscan.c).
use crate::mm::folio::pg;
use crate::mm::lruvec::{lru_gen_from_seq, MAX_NR_GENS, MIN_NR_GENS};
use crate::mm::vmscan::ScanControl;
use crate::mm::{LruvecId, Mm, ANON_AND_FILE, DEF_PRIORITY, LRU_GEN_ANON, LRU_GEN_FILE, MAX_NR_ZONES};
use crate::cost;
use crate::event::EventKind;
use crate::mm::trace::FolioWhat;

impl Mm {
    // ---------------------------------------------------------------- aging

    /// should_run_aging() (v6.12): returns (whether aging is due, nr_to_scan).
    /// Aging is due when no cold generation is left, or with exactly three
    /// generations when the youngest holds more than half the pages or the
    /// oldest (max_seq - MIN_NR_GENS, `old`) less than a quarter. Four
    /// generations never age.
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
    pub fn get_nr_to_scan(&mut self, lv: LruvecId, sc: &mut ScanControl, can_swap: bool) -> i64 {
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
        // set_mm_walk(NULL, true): the walk stays for the rest of this call.
        sc.mm_walk = true;
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
    /// aging. Without swap (`can_swap` false) the walk skips anon memory
    /// (should_skip_vma, get_pfn_folio): those folios keep their accessed
    /// bit, and stay queued for a later walk. Simplified: no mm_struct list,
    /// no Bloom filters, no non-leaf PMD accessed bits; the walk always
    /// completes. So the walk finds every young PTE, where the kernel's skips
    /// page tables the Bloom filter did not mark (a table is kept for the
    /// next walk only when at least one in eight of its PTEs was young,
    /// suitable_to_scan) and mms that have not run since the last walk
    /// (should_skip_mm): hot pages in sparse tables, which the kernel leaves
    /// in their generation until eviction finds them young (folio_referenced
    /// in shrink_folio_list, then max_seq), are promoted here by the aging,
    /// so scans are a little cheaper than the kernel's. The walk is per
    /// lruvec: a folio is promoted by its own memcg's aging, where the kernel
    /// walks the mms of the memcg being aged and skips folios charged to
    /// another (get_pfn_folio), which matters only for files shared across
    /// memcgs.
    pub fn try_to_inc_max_seq(&mut self, lv: LruvecId, seq: u64, can_swap: bool, force_scan: bool) -> bool {
        if seq < self.lruvecs[lv as usize].lrugen.max_seq {
            return false;
        }
        let new_gen = lru_gen_from_seq(seq);
        let walk = std::mem::take(&mut self.lruvecs[lv as usize].mm_walk);
        let mut skipped = Vec::new();
        let mut promoted = 0u64;
        for &f in &walk {
            // Still resident, still this lruvec's, still young?
            if self.folios.lruvec[f as usize] != lv || !self.folios.test(f, pg::YOUNG) || !self.folios.test(f, pg::MAPPED) {
                self.folios.clear(f, pg::WALK_QUEUED);
                continue;
            }
            if !can_swap && self.folios.test(f, pg::ANON) {
                skipped.push(f);
                continue;
            }
            self.folios.clear(f, pg::WALK_QUEUED);
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
        self.lruvecs[lv as usize].mm_walk = skipped;
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
    /// Simplified: the kernel drops the LRU lock and restarts every
    /// MAX_LRU_BATCH folios (nobody else runs meanwhile here), so the moves
    /// happen in one go.
    fn inc_min_seq(&mut self, lv: LruvecId, type_: usize, can_swap: bool) -> bool {
        let old_gen = lru_gen_from_seq(self.lruvecs[lv as usize].lrugen.min_seq[type_]);
        let mut moved = 0u64;
        if type_ == LRU_GEN_FILE || can_swap {
            for zone in 0..MAX_NR_ZONES {
                while let Some(f) = {
                    let l = &self.lruvecs[lv as usize].lrugen.folios[old_gen][type_][zone];
                    (l.tail != crate::mm::folio::NIL).then_some(l.tail)
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
        self.events.push(now, || EventKind::MinSeq { lruvec: lv, type_, min_seq, function: "inc_min_seq", moved });
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
            self.events.push(now, || EventKind::MinSeq { lruvec: lv, type_, min_seq: seq, function: "try_to_inc_min_seq", moved: 0 });
        }
        success
    }
}
