//! Reclaim drivers (mm/vmscan.c): `struct scan_control`, shrink_folio_list,
//! the priority loop (do_try_to_free_pages), shrink_node and
//! shrink_node_memcgs, and the entry points try_to_free_pages (direct
//! reclaim) and try_to_free_mem_cgroup_pages (memcg limit and proactive
//! reclaim).
use super::filemap::Slot;
use super::folio::{pg, FolioId};
use super::vmstat::Item;
use super::{LruvecId, MemcgId, Mm, DEF_PRIORITY, MAX_NR_ZONES, SWAP_CLUSTER_MAX};
use crate::cost;
use crate::event::EventKind;
use super::trace::FolioWhat;
use super::folio::lru_tier_from_refs;

/// enum folio_references.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FolioRef {
    Activate,
    Keep,
    Reclaim,
}

/// The root memcg's id.
pub const ROOT_MEMCG: MemcgId = 0;

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
    pub memcg_low_reclaim: bool,
    pub memcg_low_skipped: bool,
    /// sc->memcg_full_walk (v6.11+): set for do_try_to_free_pages()'s retry
    /// after partial walks reclaimed nothing; every walk is then a full one.
    pub memcg_full_walk: bool,
    /// sc->nr.file_taken and sc->nr.unqueued_dirty: file folios taken and
    /// those of them dirty but not queued for writeback, since shrink_node()
    /// cleared them; MGLRU wakes the flusher when the two are equal.
    pub nr_file_taken: u64,
    pub nr_unqueued_dirty: u64,
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
            kswapd: false,
            memcg_low_reclaim: false,
            memcg_low_skipped: false,
            memcg_full_walk: false,
            nr_file_taken: 0,
            nr_unqueued_dirty: 0,
            nr_pageout: 0,
            anon_cost: 0,
            file_cost: 0,
            may_deactivate: 0,
            force_deactivate: false,
            skipped_deactivate: false,
            cache_trim_mode: false,
            file_is_tiny: false,
            memcgs_need_aging: false,
            last_reclaimed: 0,
            last_evicted_anon: false,
        }
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
    /// Swap slots `memcg` may still use: free device slots, capped by the
    /// swap.max headroom of the memcg and its ancestors
    /// (mem_cgroup_get_nr_swap_pages).
    pub fn nr_swap_pages_for(&self, memcg: MemcgId) -> u64 {
        let mut n = self.swap.nr_free();
        let mut m = Some(memcg);
        while let Some(id) = m {
            let cg = &self.memcgs[id as usize];
            n = n.min(cg.swap_max.saturating_sub(cg.swap_usage));
            m = cg.parent;
        }
        n
    }

    fn swap_charge(&mut self, memcg: MemcgId) {
        let mut m = Some(memcg);
        while let Some(id) = m {
            self.memcgs[id as usize].swap_usage += 1;
            m = self.memcgs[id as usize].parent;
        }
    }

    /// Releases one swap slot's charge (mem_cgroup_uncharge_swap).
    pub fn swap_uncharge(&mut self, memcg: MemcgId) {
        let mut m = Some(memcg);
        while let Some(id) = m {
            self.memcgs[id as usize].swap_usage -= 1;
            m = self.memcgs[id as usize].parent;
        }
    }

    /// mem_cgroup_below_min(): `emin >= usage`, so an empty memcg counts as
    /// protected too (shrink_one rotates it young without shrinking it).
    /// Simplified: the memcg's own memory.min stands for its effective
    /// protection (no distribution among siblings); the reclaim target and
    /// the root are never protected.
    pub fn mem_cgroup_below_min(&self, target: Option<MemcgId>, memcg: MemcgId) -> bool {
        let cg = &self.memcgs[memcg as usize];
        Some(memcg) != target && memcg != ROOT_MEMCG && cg.usage <= cg.memory_min
    }

    /// mem_cgroup_below_low(), simplified like [`Mm::mem_cgroup_below_min`].
    pub fn mem_cgroup_below_low(&self, target: Option<MemcgId>, memcg: MemcgId) -> bool {
        let cg = &self.memcgs[memcg as usize];
        Some(memcg) != target && memcg != ROOT_MEMCG && cg.usage <= cg.memory_low
    }

    /// add_to_swap(): allocate a swap slot (charged to the memcg) and put the
    /// anon folio in the swap cache, dirty (it must be written).
    fn add_to_swap(&mut self, f: FolioId) -> bool {
        let memcg = self.lruvec_memcg(self.folios.lruvec[f as usize]);
        if self.nr_swap_pages_for(memcg) == 0 {
            return false;
        }
        let Some(slot) = self.swap.alloc_slot() else {
            return false;
        };
        self.swap_charge(memcg);
        self.folios.swap[f as usize] = slot;
        self.swap.cache[slot as usize] = f;
        self.folios.set(f, pg::SWAPCACHE | pg::DIRTY);
        true
    }

    /// shrink_folio_list(): try to free each isolated folio. Young mapped
    /// folios are activated (folio_check_references); anon folios go to swap
    /// (add_to_swap, pageout); mapped folios are unmapped; clean folios leave
    /// a shadow (workingset_eviction) and are freed. Reclaimed folios are
    /// removed from `list`; the rest stay for the caller to put back.
    ///
    /// As in v6.12, the checks before folio_check_references come first: a
    /// mapped folio is kept if reclaim may not unmap; a dirty file folio not
    /// under writeback counts as unqueued dirty (folio_check_dirty_writeback,
    /// whatever its references); a folio under writeback gets PG_reclaim and
    /// is activated (case 2: cgroup v2 throttling is "sane") with its
    /// accessed bits untouched.
    ///
    /// Simplified: writes complete synchronously (the reclaimer pays
    /// SWAP_OUT_NS), so only page cache is ever under writeback; dirty file
    /// folios are never written here (MGLRU's sort_folio keeps them off the
    /// list; the classic LRU marks them PG_reclaim and activates them for the
    /// flusher); no kswapd writeback (PGDAT_DIRTY) and no immediate-reclaim
    /// stall (PGDAT_WRITEBACK, case 1).
    pub fn shrink_folio_list(&mut self, list: &mut Vec<FolioId>, lv: LruvecId, sc: &mut ScanControl) -> u64 {
        let target = sc.target_mem_cgroup.unwrap_or(ROOT_MEMCG);
        let memcg = self.lruvec_memcg(lv);
        let node = self.lruvec_node(lv);
        let mut keep = Vec::with_capacity(list.len());
        let mut reclaimed = 0;
        for &f in list.iter() {
            sc.nr_scanned += 1;
            let fl = self.folios.flags[f as usize];
            if !sc.may_unmap && fl & pg::MAPPED != 0 {
                keep.push(f);
                continue;
            }
            // folio_check_dirty_writeback(): page cache only (the flushers
            // do not write anon).
            let file = fl & pg::ANON == 0;
            if file && fl & pg::DIRTY != 0 && fl & pg::WRITEBACK == 0 {
                sc.nr_unqueued_dirty += 1;
            }
            if fl & pg::WRITEBACK != 0 {
                // Under writeback: rotate to the tail when the write ends
                // (folio_end_writeback), meanwhile activate_locked.
                self.folios.set(f, pg::RECLAIM);
                self.activate_locked(f, memcg);
                keep.push(f);
                continue;
            }
            // folio_check_references()
            let referenced_ptes = fl & pg::MAPPED != 0 && fl & pg::YOUNG != 0;
            if referenced_ptes {
                self.folios.clear(f, pg::YOUNG);
            }
            let refs = if self.knobs.baseline.is_some() {
                // The baseline policy chose this victim itself.
                FolioRef::Reclaim
            } else if self.knobs.lru_gen_enabled {
                if referenced_ptes {
                    // v6.12 has no MGLRU case here: one young mapping marks
                    // the folio PG_referenced and keeps it (FOLIOREF_KEEP, no
                    // PGACTIVATE); evict_folios then rejects it to max_seq.
                    // set_mm_walk(): kswapd and proactive reclaim have an mm walk.
                    self.lru_gen_look_around(f, sc.kswapd || sc.proactive);
                    self.folios.set(f, pg::REFERENCED);
                    self.trace(f, "folio_check_references", FolioWhat::ActivatedYoung);
                    keep.push(f);
                    continue;
                }
                FolioRef::Reclaim
            } else {
                self.classic_check_references(f, referenced_ptes)
            };
            if refs == FolioRef::Keep {
                self.trace(f, "folio_check_references", FolioWhat::ClassicKept);
                keep.push(f);
                continue;
            }
            if refs == FolioRef::Activate {
                self.trace(f, "folio_check_references", FolioWhat::ActivatedYoung);
                self.activate_locked(f, memcg);
                keep.push(f);
                continue;
            }
            let anon = fl & pg::ANON != 0;
            if anon && !self.folios.test(f, pg::SWAPCACHE) {
                if !sc.gfp_io {
                    keep.push(f);
                    continue;
                }
                if !self.add_to_swap(f) {
                    // No swap space: keep it hot.
                    self.activate_locked(f, memcg);
                    keep.push(f);
                    continue;
                }
            }
            if self.folios.test(f, pg::MAPPED) {
                // try_to_unmap() (may_unmap was checked first): an anon PTE becomes a swap entry.
                self.folios.clear(f, pg::MAPPED | pg::YOUNG);
                if anon {
                    let slot = self.folios.swap[f as usize];
                    let (m, idx) = (self.folios.mapping[f as usize], self.folios.index[f as usize]);
                    self.set_slot(m, idx, Slot::Swap(slot));
                }
            }
            if self.folios.test(f, pg::DIRTY) {
                if !anon {
                    // Reclaim does not write page cache: leave it to the
                    // flusher, and reclaim it as soon as it is written
                    // (PG_reclaim).
                    self.folios.set(f, pg::RECLAIM);
                    self.activate_locked(f, memcg);
                    keep.push(f);
                    continue;
                }
                if !sc.may_writepage {
                    keep.push(f);
                    continue;
                }
                // pageout() to swap, completing at once.
                self.folios.clear(f, pg::DIRTY);
                self.storage_write_sync();
                sc.nr_pageout += 1;
                self.trace(f, "pageout", FolioWhat::SwappedOut);
                self.count(memcg, Item::Pswpout, 1, true);
                self.count(memcg, Item::Pgpgout, 1, true);
            }
            // __remove_mapping(): leave a shadow, free the folio.
            let tier = lru_tier_from_refs(self.folios.lru_refs(f));
            self.trace(f, "__remove_mapping", FolioWhat::Evicted { tier });
            let shadow = self.workingset_eviction(f, target);
            let (m, idx) = (self.folios.mapping[f as usize], self.folios.index[f as usize]);
            if anon {
                let slot = self.folios.swap[f as usize];
                self.swap.shadows[slot as usize] = shadow;
                self.swap.cache[slot as usize] = super::folio::NIL;
                self.folios.swap[f as usize] = super::folio::NIL;
                self.set_slot(m, idx, Slot::Swap(slot));
            } else {
                self.set_slot(m, idx, Slot::Shadow(shadow));
            }
            self.uncharge(memcg, 1);
            self.free_folio(f, node);
            reclaimed += 1;
        }
        *list = keep;
        reclaimed
    }

    /// can_age_anon_pages(): aging the anon LRU is worth it whenever swap is
    /// configured (total_swap_pages), even when it is full or a memcg's
    /// swap.max is 0. Simplified: no demotion to another tier.
    pub(crate) fn can_age_anon_pages(&self) -> bool {
        self.swap.pages > 0
    }

    /// shrink_folio_list()'s `activate_locked` label: a swap-cache folio
    /// gives its slot back when swap is more than half full
    /// (mem_cgroup_swap_full, folio_free_swap), and the folio goes back
    /// active, counted as PGACTIVATE. Simplified: never mlocked.
    fn activate_locked(&mut self, f: FolioId, memcg: MemcgId) {
        if self.folios.test(f, pg::SWAPCACHE) && self.mem_cgroup_swap_full(memcg) {
            self.folio_free_swap(f);
        }
        self.folios.set(f, pg::ACTIVE);
        self.count(memcg, Item::Pgactivate, 1, true);
    }

    /// shrink_inactive_list()'s flusher nudge: when every one of the
    /// `nr_taken` folios shrink_folio_list() saw was dirty and not queued for
    /// writeback (`sc.nr_unqueued_dirty` grew by `nr_taken` since
    /// `unqueued_before`), the flushers are not doing their job: wake them.
    pub(crate) fn wakeup_flushers_if_all_unqueued(&mut self, sc: &ScanControl, unqueued_before: u64, nr_taken: u64) {
        if sc.nr_unqueued_dirty - unqueued_before == nr_taken {
            self.wakeup_flusher_threads();
        }
    }

    /// folio_check_references() for the classic LRU: a referenced PTE
    /// activates a folio that was already referenced (mapped executables,
    /// also activated at once, are not modelled), else marks it referenced
    /// and keeps it for another trip on the inactive list; without PTE
    /// references the folio is reclaimed (RECLAIM_CLEAN and RECLAIM are one
    /// case here).
    fn classic_check_references(&mut self, f: FolioId, referenced_ptes: bool) -> FolioRef {
        let referenced_folio = self.folios.test_clear(f, pg::REFERENCED);
        if referenced_ptes {
            self.folios.set(f, pg::REFERENCED);
            return if referenced_folio { FolioRef::Activate } else { FolioRef::Keep };
        }
        FolioRef::Reclaim
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
                self.memcgs[memcg as usize].events.low += 1;
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
    /// LRU after prepare_scan_control(). Any progress resets the node's
    /// kswapd_failures, so that a successful direct reclaim revives a
    /// kswapd that gave up (v4.11+).
    pub fn shrink_node(&mut self, node: usize, sc: &mut ScanControl) {
        // memset(&sc->nr, 0, sizeof(sc->nr))
        sc.nr_file_taken = 0;
        sc.nr_unqueued_dirty = 0;
        if self.knobs.lru_gen_enabled && self.knobs.memcg_lru && sc.root_reclaim() {
            self.lru_gen_shrink_node(node, sc);
            return;
        }
        if !self.knobs.lru_gen_enabled && self.knobs.baseline.is_none() {
            self.prepare_scan_control(node, sc);
        }
        let before = sc.nr_reclaimed;
        self.shrink_node_memcgs(node, sc);
        if sc.nr_reclaimed > before {
            self.nodes[node].kswapd.failures = 0;
        }
    }

    /// do_try_to_free_pages() (v6.12): the priority loop from DEF_PRIORITY
    /// down to 0, shrinking every node with an eligible zone (shrink_zones)
    /// until nr_to_reclaim is met; writeback is allowed below
    /// DEF_PRIORITY - 2; afterwards the refault snapshot is taken. If
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
                for node in self.eligible_nodes(sc.reclaim_idx) {
                    self.shrink_node(node, sc);
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
            for node in self.eligible_nodes(sc.reclaim_idx) {
                self.snapshot_refaults(sc.target_mem_cgroup, node);
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
        (0..self.nodes.len()).filter(|&n| self.nodes[n].zones[..=reclaim_idx].iter().any(|z| z.managed > 0)).collect()
    }

    /// try_to_free_mem_cgroup_pages(): reclaim at least max(nr_pages,
    /// SWAP_CLUSTER_MAX) from `memcg`'s subtree on every node (memcg limit
    /// reclaim, and each round of memory.reclaim).
    pub fn try_to_free_mem_cgroup_pages(&mut self, memcg: MemcgId, nr_pages: u64, may_swap: bool, proactive: bool) -> u64 {
        let mut sc = ScanControl::new(nr_pages.max(SWAP_CLUSTER_MAX), Some(memcg));
        sc.may_swap = may_swap;
        sc.proactive = proactive;
        self.cost_ns += cost::RECLAIM_ROUND_NS + cost::ROUND_PER_MEMCG_NS * self.memcg_subtree_sum(memcg, |_| 1);
        let reclaimed = self.do_try_to_free_pages(&mut sc, memcg);
        let now = self.now_ns;
        let path = self.memcgs[memcg as usize].path.clone();
        let (nr_to_reclaim, priority) = (sc.nr_to_reclaim, sc.priority);
        self.events.push(now, || EventKind::ReclaimRound {
            lruvec_memcg: path,
            function: "try_to_free_mem_cgroup_pages",
            nr_to_reclaim,
            reclaimed,
            priority,
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
        let (nr_to_reclaim, priority) = (sc.nr_to_reclaim, sc.priority);
        self.events.push(now, || EventKind::ReclaimRound {
            lruvec_memcg: "/".into(),
            function: "try_to_free_pages",
            nr_to_reclaim,
            reclaimed,
            priority,
        });
        reclaimed
    }
}
