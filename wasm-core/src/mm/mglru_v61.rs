//! MGLRU reclaim as in v6.1/v6.2, before the memcg LRU (used when
//! `Knobs::memcg_lru` is off), with patch 000 ("multi-gen LRU: optimize
//! multiple memcgs", in v6.1) as the switch `Knobs::optimize_multiple_memcgs`.
//!
//! Without the patch (the MGLRU series up to its patch 8): kswapd ages every
//! memcg on each balance_pgdat iteration (lru_gen_age_node), and each memcg is
//! scanned in proportion to its size at the current priority, with no
//! back-off. With the patch: kswapd skips the aging pass while some memcg
//! could still evict at least MIN_LRU_BATCH pages without aging
//! (memcgs_need_aging), and the eviction loop backs off (should_abort_scan):
//! kswapd once it has reclaimed nr_to_reclaim since the last aging pass,
//! direct reclaim if it would age a memcg twice or swap after meeting its
//! target, and at priorities below DEF_PRIORITY - 2 once the zones are above
//! their watermarks.
use super::lruvec::{MIN_LRU_BATCH, MIN_NR_GENS};
use super::pgdat::{WMARK_HIGH, WMARK_LOW};
use super::vmscan::ScanControl;
use super::{LruvecId, Mm, DEF_PRIORITY};

impl Mm {
    /// should_run_aging() (v6.1): like v6.12's, but the evictable total is
    /// always computed and shifted by the priority ("nr_to_scan").
    fn should_run_aging_61(&self, lv: LruvecId, max_seq: u64, can_swap: bool, priority: u32) -> (bool, u64) {
        let g = &self.lruvecs[lv as usize].lrugen;
        let first = usize::from(!can_swap);
        let (mut young, mut old, mut total) = (0u64, 0u64, 0u64);
        for type_ in first..2 {
            for seq in g.min_seq[type_]..=max_seq {
                let size = g.gen_size(super::lruvec::lru_gen_from_seq(seq), type_);
                total += size;
                if seq == max_seq {
                    young += size;
                } else if seq + MIN_NR_GENS == max_seq {
                    old += size;
                }
            }
        }
        let nr = total >> priority;
        let min_seq = g.min_seq[first];
        let need = if min_seq + MIN_NR_GENS > max_seq {
            true
        } else if min_seq + MIN_NR_GENS < max_seq {
            false
        } else {
            young * MIN_NR_GENS > total || old * (MIN_NR_GENS + 2) < total
        };
        (need, nr)
    }

    /// get_nr_to_scan() (v6.1): (nr_to_scan, need_aging). Protected memcgs
    /// scan nothing; without need for aging, (evictable >> priority); at
    /// DEF_PRIORITY no aging; kswapd leaves aging to lru_gen_age_node();
    /// direct reclaim ages here.
    fn get_nr_to_scan_61(&mut self, lv: LruvecId, sc: &mut ScanControl, can_swap: bool) -> (u64, bool) {
        let memcg = self.lruvec_memcg(lv);
        if self.mem_cgroup_below_min(sc.target_mem_cgroup, memcg)
            || (self.mem_cgroup_below_low(sc.target_mem_cgroup, memcg) && !sc.memcg_low_reclaim)
        {
            return (0, false);
        }
        let max_seq = self.lruvecs[lv as usize].lrugen.max_seq;
        let (need_aging, nr_to_scan) = self.should_run_aging_61(lv, max_seq, can_swap, sc.priority);
        if !need_aging {
            return (nr_to_scan, false);
        }
        if sc.priority != DEF_PRIORITY {
            if sc.kswapd {
                return (0, true);
            }
            // set_mm_walk(NULL): the walk stays until lru_gen_shrink_lruvec ends.
            sc.mm_walk = true;
            if self.try_to_inc_max_seq(lv, max_seq, can_swap, false) {
                return (nr_to_scan, true);
            }
        }
        let min_seq = self.lruvecs[lv as usize].lrugen.min_seq[usize::from(!can_swap)];
        let max_seq = self.lruvecs[lv as usize].lrugen.max_seq;
        (if min_seq + MIN_NR_GENS <= max_seq { nr_to_scan } else { 0 }, true)
    }

    /// should_abort_scan() (v6.1; only with patch 000: before it the loop had
    /// no back-off).
    fn should_abort_scan_61(&mut self, lv: LruvecId, seq: u64, sc: &mut ScanControl, need_swapping: bool) -> bool {
        if !self.knobs.optimize_multiple_memcgs {
            return false;
        }
        if !sc.kswapd {
            // age each memcg at most once to ensure fairness
            if self.lruvecs[lv as usize].lrugen.max_seq - seq > 1 {
                return true;
            }
            // over-swapping can increase allocation latency
            if sc.nr_reclaimed >= sc.nr_to_reclaim && need_swapping {
                return true;
            }
            if sc.cgroup_reclaim() {
                return false;
            }
        } else if sc.nr_reclaimed - sc.last_reclaimed < sc.nr_to_reclaim {
            return false;
        }
        // keep scanning at low priorities to ensure fairness
        if sc.priority > DEF_PRIORITY - 2 {
            return false;
        }
        let node = self.lruvec_node(lv);
        for z in 0..=sc.reclaim_idx {
            let zone = &self.nodes[node].zones[z];
            if zone.managed == 0 {
                continue;
            }
            let wmark = if sc.kswapd { zone.watermark[WMARK_HIGH] } else { zone.watermark[WMARK_LOW] };
            if wmark > zone.free_pages() {
                return false;
            }
        }
        sc.nr_reclaimed += MIN_LRU_BATCH;
        true
    }

    /// lru_gen_shrink_lruvec() (v6.1): evict until this lruvec's share at the
    /// current priority is scanned or should_abort_scan() backs off. With
    /// patch 000, a lruvec that reclaimed at least MIN_LRU_BATCH pages without
    /// needing aging clears sc->memcgs_need_aging.
    pub fn lru_gen_shrink_lruvec_61(&mut self, lv: LruvecId, sc: &mut ScanControl) {
        // set_mm_walk(pgdat): kswapd's own walk; others get one only by aging.
        sc.mm_walk = sc.kswapd;
        let mut need_aging;
        let mut scanned = 0u64;
        let reclaimed = sc.nr_reclaimed;
        let seq = self.lruvecs[lv as usize].lrugen.max_seq;
        loop {
            let swappiness = if sc.may_swap {
                self.get_swappiness(lv, sc)
            } else if !sc.cgroup_reclaim() && self.get_swappiness(lv, sc) > 0 {
                1
            } else {
                0
            };
            let (nr_to_scan, aging) = self.get_nr_to_scan_61(lv, sc, swappiness != 0);
            need_aging = aging;
            if nr_to_scan == 0 {
                return;
            }
            sc.last_evicted_anon = false;
            let delta = self.evict_folios(lv, sc, swappiness);
            if delta == 0 {
                return;
            }
            scanned += delta;
            if scanned >= nr_to_scan {
                break;
            }
            let need_swapping = sc.last_evicted_anon;
            if self.should_abort_scan_61(lv, seq, sc, need_swapping) {
                break;
            }
        }
        if self.knobs.optimize_multiple_memcgs && sc.nr_reclaimed - reclaimed >= MIN_LRU_BATCH && !need_aging {
            sc.memcgs_need_aging = false;
        }
    }

    /// lru_gen_age_node() (v6.1), called by kswapd before each shrink pass:
    /// with patch 000 the aging pass is skipped while the last pass found
    /// memcgs that evicted without aging (memcgs_need_aging cleared);
    /// otherwise every memcg that needs aging is aged (age_lruvec).
    pub fn lru_gen_age_node_61(&mut self, node: usize, sc: &mut ScanControl) {
        if self.knobs.optimize_multiple_memcgs {
            sc.last_reclaimed = sc.nr_reclaimed;
            if !sc.memcgs_need_aging {
                sc.memcgs_need_aging = true;
                return;
            }
        }
        for memcg in self.memcg_subtree(0) {
            let lv = self.lruvec_id(memcg, node);
            // age_lruvec()
            if self.mem_cgroup_below_min(None, memcg) {
                continue;
            }
            let can_swap = self.get_swappiness(lv, sc) != 0;
            let max_seq = self.lruvecs[lv as usize].lrugen.max_seq;
            if self.should_run_aging_61(lv, max_seq, can_swap, sc.priority).0 {
                self.try_to_inc_max_seq(lv, max_seq, can_swap, false);
            }
        }
    }
}
