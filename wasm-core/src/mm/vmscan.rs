//! Reclaim drivers (mm/vmscan.c): `struct scan_control`, the priority loop
//! (do_try_to_free_pages), shrink_node and shrink_node_memcgs, and the entry
//! points try_to_free_pages (direct reclaim) and
//! try_to_free_mem_cgroup_pages (memcg limit and proactive reclaim). What
//! happens to each isolated folio is in folio_list.rs (shrink_folio_list).
use super::vmstat::Item;
use super::{LruvecId, MemcgId, Mm, DEF_PRIORITY, MAX_NR_ZONES, SWAP_CLUSTER_MAX};
use crate::cost;
use crate::event::EventKind;

/// The root memcg's id.
pub const ROOT_MEMCG: MemcgId = 0;

/// The `nr` sub-struct of `struct scan_control` (`sc->nr`): counts of what
/// shrink_folio_list() met among the folios isolated since shrink_node()
/// cleared them (memset at its top). The classic LRU's
/// shrink_inactive_list() adds them up for shrink_node()'s throttling
/// (throttle.rs); MGLRU wakes the flusher when `unqueued_dirty` equals
/// `file_taken`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScanNr {
    /// nr.dirty: page cache dirty or under writeback.
    pub dirty: u64,
    /// nr.unqueued_dirty: file folios taken that were dirty but not queued
    /// for writeback.
    pub unqueued_dirty: u64,
    /// nr.congested: page cache under writeback that already had PG_reclaim.
    pub congested: u64,
    /// nr.writeback: folios under writeback given PG_reclaim (case 2, swap
    /// included).
    pub writeback: u64,
    /// nr.immediate: folios kswapd met under writeback with PG_reclaim on a
    /// PGDAT_WRITEBACK node (case 1).
    pub immediate: u64,
    /// nr.file_taken: file folios taken.
    pub file_taken: u64,
    /// nr.taken: folios taken.
    pub taken: u64,
}

/// `struct scan_control`: one reclaim invocation's goals and state.
#[derive(Clone, Debug)]
pub struct ScanControl {
    pub nr_to_reclaim: u64,
    pub nr_reclaimed: u64,
    pub nr_scanned: u64,
    pub priority: u32,
    /// The highest zone index reclaim may take pages from.
    pub reclaim_idx: usize,
    pub order: u32,
    /// None for global reclaim (kswapd, direct); Some(memcg) for memcg reclaim
    /// (limit or memory.reclaim; the root memcg counts as root reclaim).
    pub target_mem_cgroup: Option<MemcgId>,
    pub may_writepage: bool,
    pub may_unmap: bool,
    pub may_swap: bool,
    /// __GFP_IO in gfp_mask.
    pub gfp_io: bool,
    pub proactive: bool,
    /// current_is_kswapd().
    pub kswapd: bool,
    /// current->reclaim_state->mm_walk is set (set_mm_walk): kswapd's and
    /// proactive reclaim's from the start of lru_gen_shrink_node or
    /// lru_gen_shrink_lruvec (v6.12; only kswapd's in v6.1), any
    /// reclaimer's once try_to_inc_max_seq has allocated one, until that
    /// call ends (clear_mm_walk). With it lru_gen_look_around promotes in
    /// place; without, through folio_activate (PGACTIVATE).
    pub mm_walk: bool,
    pub memcg_low_reclaim: bool,
    pub memcg_low_skipped: bool,
    /// sc->memcg_full_walk (v6.11+): set for do_try_to_free_pages()'s retry
    /// after partial walks reclaimed nothing; every walk is then a full one.
    pub memcg_full_walk: bool,
    /// sc->nr: what shrink_folio_list() met, since shrink_node() cleared it.
    pub nr: ScanNr,
    /// Pages written by shrink_folio_list (reclaim_stat.nr_pageout).
    pub nr_pageout: u64,
    // Classic LRU state set by prepare_scan_control().
    pub anon_cost: u64,
    pub file_cost: u64,
    /// DEACTIVATE_ANON | DEACTIVATE_FILE.
    pub may_deactivate: u8,
    pub force_deactivate: bool,
    pub skipped_deactivate: bool,
    pub cache_trim_mode: bool,
    /// kswapd's retry of a failed priority loop without cache_trim_mode
    /// (v6.10+, "mm, vmscan: retry kswapd's priority loop with
    /// cache_trim_mode off on failure"): set for the retry, and whether a
    /// shrink_node in cache_trim_mode reclaimed nothing.
    pub no_cache_trim_mode: bool,
    pub cache_trim_mode_failed: bool,
    pub file_is_tiny: bool,
    // MGLRU v6.1 (patch 000) state.
    pub memcgs_need_aging: bool,
    pub last_reclaimed: u64,
    /// The last evict_folios() isolated anon folios (need_swapping).
    pub last_evicted_anon: bool,
}

impl ScanControl {
    /// A scan_control with the kernel's defaults for a reclaim of `nr_to_reclaim`.
    pub fn new(nr_to_reclaim: u64, target: Option<MemcgId>) -> Self {
        ScanControl {
            nr_to_reclaim,
            nr_reclaimed: 0,
            nr_scanned: 0,
            priority: DEF_PRIORITY,
            reclaim_idx: MAX_NR_ZONES - 1,
            order: 0,
            target_mem_cgroup: target,
            may_writepage: true,
            may_unmap: true,
            may_swap: true,
            gfp_io: true,
            proactive: false,
            mm_walk: false,
            kswapd: false,
            memcg_low_reclaim: false,
            memcg_low_skipped: false,
            memcg_full_walk: false,
            nr: ScanNr::default(),
            nr_pageout: 0,
            anon_cost: 0,
            file_cost: 0,
            may_deactivate: 0,
            force_deactivate: false,
            skipped_deactivate: false,
            cache_trim_mode: false,
            no_cache_trim_mode: false,
            cache_trim_mode_failed: false,
            file_is_tiny: false,
            memcgs_need_aging: false,
            last_reclaimed: 0,
            last_evicted_anon: false,
        }
    }

    /// memset(&sc->nr, 0, sizeof(sc->nr)) at the top of shrink_node().
    pub fn clear_nr(&mut self) {
        self.nr = ScanNr::default();
    }

    /// cgroup_reclaim(): reclaim on behalf of a memcg (including the root's memory.reclaim).
    pub fn cgroup_reclaim(&self) -> bool {
        self.target_mem_cgroup.is_some()
    }

    /// root_reclaim(): global reclaim or reclaim targeting the root memcg.
    pub fn root_reclaim(&self) -> bool {
        self.target_mem_cgroup.is_none_or(|m| m == ROOT_MEMCG)
    }
}

impl Mm {
    /// can_age_anon_pages(): aging the anon LRU is worth it whenever swap is
    /// configured (total_swap_pages), even when it is full or a memcg's
    /// swap.max is 0. Simplified: no demotion to another tier.
    pub(crate) fn can_age_anon_pages(&self) -> bool {
        self.swap.pages > 0
    }

    /// shrink_lruvec(): one lruvec's share of a reclaim pass (a baseline
    /// policy's own victim selection when one is on).
    pub fn shrink_lruvec(&mut self, lv: LruvecId, sc: &mut ScanControl) {
        if let Some(b) = self.knobs.baseline {
            self.baseline_shrink_lruvec(b, lv, sc);
            return;
        }
        self.cost_ns += cost::SHRINK_LRUVEC_NS;
        if self.knobs.lru_gen_enabled && !self.knobs.memcg_lru {
            self.lru_gen_shrink_lruvec_61(lv, sc);
        } else if self.knobs.lru_gen_enabled {
            self.lru_gen_shrink_lruvec(lv, sc);
        } else {
            self.classic_shrink_lruvec(lv, sc);
        }
    }

    /// shrink_node_memcgs() (v6.12): walk the target's subtree
    /// (mem_cgroup_iter), skipping memcgs protected by memory.min, and by
    /// memory.low unless this is the low-reclaim retry. A partial walk (not
    /// kswapd) uses the shared iterator of (target, node), starting after the
    /// memcg where the last partial walk stopped, and stops once
    /// nr_to_reclaim is met; reaching the end of the tree resets the iterator.
    /// Without partial walks (kernels before ~6.11) every walk visits every
    /// memcg; so does do_try_to_free_pages()'s retry (sc->memcg_full_walk).
    pub fn shrink_node_memcgs(&mut self, node: usize, sc: &mut ScanControl) {
        let target = sc.target_mem_cgroup.unwrap_or(ROOT_MEMCG);
        let partial = !sc.kswapd && !sc.memcg_full_walk && self.partial_memcg_walks();
        let order = self.memcg_subtree(target);
        // A walk that would start past the last memcg starts over at the target.
        let start = if partial { self.memcg_iter.get(&(target, node)).copied().filter(|&p| p < order.len()).unwrap_or(0) } else { 0 };
        let mut stopped_at = None;
        for (i, &memcg) in order.iter().enumerate().skip(start) {
            if self.mem_cgroup_below_min(sc.target_mem_cgroup, memcg) {
                continue;
            }
            if self.mem_cgroup_below_low(sc.target_mem_cgroup, memcg) {
                if !sc.memcg_low_reclaim {
                    sc.memcg_low_skipped = true;
                    continue;
                }
                self.memcg_memory_event(memcg, super::memcontrol::MemcgEvent::Low);
            }
            let lv = self.lruvec_id(memcg, node);
            self.shrink_lruvec(lv, sc);
            if partial && sc.nr_reclaimed >= sc.nr_to_reclaim {
                stopped_at = Some(i);
                break;
            }
        }
        if partial {
            // mem_cgroup_iter_break() keeps the position; the end of the tree resets it.
            let next = stopped_at.map_or(0, |i| i + 1);
            self.memcg_iter.insert((target, node), next);
        }
    }

    /// Whether the kernel modelled walks memcgs partially, with a shared
    /// iterator (v6.11+, "mm: vmscan: restore incremental cgroup iteration"):
    /// not with the `memcg_full_walk` knob (v6.10 and older), nor with the
    /// v6.1/6.2 MGLRU that predates the memcg LRU.
    fn partial_memcg_walks(&self) -> bool {
        !self.knobs.memcg_full_walk && (!self.knobs.lru_gen_enabled || self.knobs.memcg_lru)
    }

    /// shrink_node(): root reclaim with MGLRU and the memcg LRU goes to
    /// lru_gen_shrink_node() (which resets kswapd_failures itself);
    /// everything else walks the memcgs (shrink_node_memcgs), the classic
    /// LRU after prepare_scan_control(), and then throttles on what it met
    /// under writeback (shrink_node_throttle). Any progress resets the node's
    /// kswapd_failures, so that a successful direct reclaim revives a
    /// kswapd that gave up (v4.12+, c73322d098e4); none in cache_trim_mode marks
    /// cache_trim_mode_failed (v6.10+).
    pub fn shrink_node(&mut self, node: usize, sc: &mut ScanControl) {
        // Writes that ended while the reclaimer ran (their completion
        // interrupts), whether or not this pass isolates anything.
        self.writeback_complete_until(self.now_ns + self.cost_ns);
        // memset(&sc->nr, 0, sizeof(sc->nr))
        sc.clear_nr();
        if self.knobs.lru_gen_enabled && self.knobs.memcg_lru && sc.root_reclaim() {
            self.lru_gen_shrink_node(node, sc);
            return;
        }
        if !self.knobs.lru_gen_enabled && self.knobs.baseline.is_none() {
            self.prepare_scan_control(node, sc);
        }
        let before = sc.nr_reclaimed;
        self.shrink_node_memcgs(node, sc);
        if !self.knobs.lru_gen_enabled {
            self.shrink_node_throttle(node, sc);
        }
        if sc.nr_reclaimed > before {
            self.nodes[node].kswapd.failures = 0;
        } else if sc.cache_trim_mode {
            sc.cache_trim_mode_failed = true;
        }
    }

    /// do_try_to_free_pages() (v6.12): the priority loop from DEF_PRIORITY
    /// down to 0, shrinking every node with an eligible zone (shrink_zones)
    /// until nr_to_reclaim is met; writeback is allowed below
    /// DEF_PRIORITY - 2; direct reclaim that has reclaimed nothing by
    /// priority 1 waits a jiffy (consider_reclaim_throttle, after each
    /// shrink_zones()); afterwards the refault snapshot is taken, and memcg
    /// reclaim clears its target's LRUVEC_CGROUP_CONGESTED. If
    /// nothing was reclaimed, retry from the initial priority: with full
    /// memcg walks when the walks were partial (v6.11+, "mm: vmscan: restore
    /// incremental cgroup iteration", with v6.12's priority reset), then
    /// with forced deactivation (classic, when deactivation was skipped),
    /// then with memcg_low_reclaim when memcgs were skipped for memory.low. Global reclaim counts ALLOCSTALL at every
    /// (re)try, as the kernel does after its `retry:` label.
    ///
    /// Simplified: no compaction_ready bail-out (the model allocates order-0
    /// pages only).
    pub fn do_try_to_free_pages(&mut self, sc: &mut ScanControl, memcg_of_task: MemcgId) -> u64 {
        let initial_priority = sc.priority;
        loop {
            if !sc.cgroup_reclaim() {
                self.count(memcg_of_task, Item::AllocstallDma.plus(sc.reclaim_idx), 1, true);
            }
            loop {
                sc.nr_scanned = 0;
                let nodes = self.eligible_nodes(sc.reclaim_idx);
                for &node in &nodes {
                    self.shrink_node(node, sc);
                }
                if let Some(&first) = nodes.first() {
                    self.consider_reclaim_throttle(first, sc);
                }
                if sc.nr_reclaimed >= sc.nr_to_reclaim {
                    break;
                }
                if sc.priority < DEF_PRIORITY - 2 {
                    sc.may_writepage = true;
                }
                if sc.priority == 0 {
                    break;
                }
                sc.priority -= 1;
            }
            let nodes = self.eligible_nodes(sc.reclaim_idx);
            for &node in &nodes {
                self.snapshot_refaults(sc.target_mem_cgroup, node);
            }
            if let Some(target) = sc.target_mem_cgroup {
                self.clear_cgroup_congested(target, &nodes);
            }
            if sc.nr_reclaimed > 0 {
                return sc.nr_reclaimed;
            }
            if !sc.memcg_full_walk && self.partial_memcg_walks() {
                sc.priority = initial_priority;
                sc.memcg_full_walk = true;
                continue;
            }
            if sc.skipped_deactivate && !sc.force_deactivate {
                sc.priority = initial_priority;
                sc.force_deactivate = true;
                sc.skipped_deactivate = false;
                continue;
            }
            if sc.memcg_low_skipped && !sc.memcg_low_reclaim {
                sc.priority = initial_priority;
                sc.force_deactivate = false;
                sc.memcg_low_reclaim = true;
                sc.memcg_low_skipped = false;
                continue;
            }
            return 0;
        }
    }

    /// The nodes shrink_zones() visits: those with a populated zone at or
    /// below `reclaim_idx` (for_each_zone_zonelist_nodemask, one
    /// shrink_node per pgdat). Simplified: in node order, not the zonelist's
    /// distance order, and no nodemask.
    fn eligible_nodes(&self, reclaim_idx: usize) -> Vec<usize> {
        (0..self.nodes.len()).filter(|&n| self.has_zone_upto(n, reclaim_idx)).collect()
    }

    /// try_to_free_mem_cgroup_pages(): reclaim at least max(nr_pages,
    /// SWAP_CLUSTER_MAX) from `memcg`'s subtree on every node (memcg limit
    /// reclaim, and each round of memory.reclaim).
    pub fn try_to_free_mem_cgroup_pages(&mut self, memcg: MemcgId, nr_pages: u64, may_swap: bool, proactive: bool) -> u64 {
        let mut sc = ScanControl::new(nr_pages.max(SWAP_CLUSTER_MAX), Some(memcg));
        sc.may_swap = may_swap;
        sc.proactive = proactive;
        // The classic LRU flushes the target's memcg statistics in each round's
        // prepare_scan_control(); MGLRU returns from it first and flushes none.
        let flush = if self.knobs.lru_gen_enabled { 0 } else { cost::ROUND_PER_MEMCG_NS * self.memcg_subtree_sum(memcg, |_| 1) };
        self.cost_ns += cost::RECLAIM_ROUND_NS + flush;
        let reclaimed = self.do_try_to_free_pages(&mut sc, memcg);
        let now = self.now_ns;
        let path = self.memcgs[memcg as usize].path.clone();
        let (nr_to_reclaim, priority, task) = (sc.nr_to_reclaim, sc.priority, self.current_comm());
        self.events.push_rare(now, || EventKind::ReclaimRound {
            lruvec_memcg: path,
            function: "try_to_free_mem_cgroup_pages",
            nr_to_reclaim,
            reclaimed,
            priority,
            task,
        });
        reclaimed
    }

    /// try_to_free_pages(): direct reclaim of SWAP_CLUSTER_MAX pages by an
    /// allocating task (global, all memcgs), counting allocstall at each try.
    pub fn try_to_free_pages(&mut self, memcg_of_task: MemcgId, highest_zoneidx: usize) -> u64 {
        let mut sc = ScanControl::new(SWAP_CLUSTER_MAX, None);
        sc.reclaim_idx = highest_zoneidx;
        self.cost_ns += cost::RECLAIM_ROUND_NS;
        let reclaimed = self.do_try_to_free_pages(&mut sc, memcg_of_task);
        let now = self.now_ns;
        let (nr_to_reclaim, priority, task) = (sc.nr_to_reclaim, sc.priority, self.current_comm());
        self.events.push_rare(now, || EventKind::ReclaimRound {
            lruvec_memcg: "/".into(),
            function: "try_to_free_pages",
            nr_to_reclaim,
            reclaimed,
            priority,
            task,
        });
        reclaimed
    }
}
