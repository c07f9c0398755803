//! shrink_folio_list() (mm/vmscan.c): what happens to each folio reclaim
//! has isolated, with folio_check_references() and the `activate_locked`
//! label; the reclaim drivers that call it are in vmscan.rs.
use super::filemap::Slot;
use super::folio::{lru_tier_from_refs, pg, FolioId};
use super::trace::FolioWhat;
use super::vmscan::{ScanControl, ROOT_MEMCG};
use super::vmstat::Item;
use super::{LruvecId, MemcgId, Mm};

/// enum folio_references.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FolioRef {
    Activate,
    Keep,
    Reclaim,
}

impl Mm {
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
    /// Swap writes are asynchronous on the SSD (swap_writepage_bdev_async):
    /// the folio stays on the LRU under writeback with PG_reclaim and is
    /// freed by a later scan once folio_end_writeback() has rotated it to
    /// the tail; on brd (BLK_FEAT_SYNCHRONOUS) the write has ended when
    /// pageout() returns and the folio is freed in the same pass. Writes
    /// that ended while the reclaimer ran are taken in at the start of each
    /// batch (and of each shrink_node pass).
    ///
    /// What it met under writeback and dirty is added up in `sc` (the
    /// kernel's reclaim_stat, which shrink_inactive_list adds to sc->nr) for
    /// shrink_node()'s throttling: kswapd on a PGDAT_WRITEBACK node counts a
    /// folio it already marked PG_reclaim as nr_immediate (case 1).
    ///
    /// Simplified: dirty file folios are never written here (MGLRU's sort_folio keeps them off the
    /// list; the classic LRU marks them PG_reclaim and activates them for the
    /// flusher): today's filesystems have no ->writepage for kswapd's
    /// PGDAT_DIRTY writeback to call.
    pub fn shrink_folio_list(&mut self, list: &mut Vec<FolioId>, lv: LruvecId, sc: &mut ScanControl) -> u64 {
        let target = sc.target_mem_cgroup.unwrap_or(ROOT_MEMCG);
        let memcg = self.lruvec_memcg(lv);
        let node = self.lruvec_node(lv);
        // Writes that ended while the reclaimer ran (their completion
        // interrupts): rotated to the tail before this batch is looked at.
        self.writeback_complete_until(self.now_ns + self.cost_ns);
        let mut keep = Vec::with_capacity(list.len());
        let mut reclaimed = 0;
        for &f in list.iter() {
            sc.nr_scanned += 1;
            let fl = self.folios.flags[f as usize];
            if !sc.may_unmap && fl & pg::MAPPED != 0 {
                keep.push(f);
                continue;
            }
            // "folio_update_gen() tried to promote this page?": a mapped
            // folio that a page-table walk or lru_gen_look_around() found
            // young while it was isolated (PG_referenced, since
            // isolate_folio() cleared it) is kept; evict_folios() puts it
            // back at max_seq.
            if self.knobs.lru_gen_enabled && self.knobs.baseline.is_none() && fl & pg::MAPPED != 0 && fl & pg::REFERENCED != 0 {
                self.trace(f, "shrink_folio_list", FolioWhat::KeptPromoted);
                keep.push(f);
                continue;
            }
            // folio_check_dirty_writeback(): page cache only (the flushers
            // do not write anon, and reclaim must not stall on it).
            let file = fl & pg::ANON == 0;
            let (dirty, writeback) = (file && fl & pg::DIRTY != 0, file && fl & pg::WRITEBACK != 0);
            if dirty || writeback {
                sc.nr.dirty += 1;
            }
            if dirty && !writeback {
                sc.nr.unqueued_dirty += 1;
            }
            // Cycling through the LRU faster than the writes complete.
            if writeback && fl & pg::RECLAIM != 0 {
                sc.nr.congested += 1;
            }
            if fl & pg::WRITEBACK != 0 {
                // Under writeback (swap too): rotate to the tail when the
                // write ends (folio_end_writeback), meanwhile
                // activate_locked. Case 1: kswapd on a PGDAT_WRITEBACK node
                // meets a folio it already marked (nr_immediate: it will
                // stall); case 2: mark it (nr_writeback).
                if sc.kswapd && fl & pg::RECLAIM != 0 && self.nodes[node].pgdat_writeback {
                    sc.nr.immediate += 1;
                } else {
                    self.folios.set(f, pg::RECLAIM);
                    sc.nr.writeback += 1;
                }
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
                    // Simplified: that is so since 6.12-rc7 ("use
                    // {ptep,pmdp}_clear_young_notify()"); from 6.1 to 6.11
                    // lru_gen_look_around() also marked the isolated folio
                    // itself PG_referenced, so it got FOLIOREF_ACTIVATE
                    // (counted in pgactivate, its swap slot freed when swap
                    // is half full) and re-entered at max_seq all the same.
                    // Every variant here does 6.12's.
                    // With the reclaimer's mm walk, if it holds one (ScanControl::mm_walk).
                    self.lru_gen_look_around(f, sc.mm_walk);
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
                    // (PG_reclaim), counted in NR_VMSCAN_IMMEDIATE.
                    self.count_global(Item::NrVmscanImmediate);
                    self.folios.set(f, pg::RECLAIM);
                    self.activate_locked(f, memcg);
                    keep.push(f);
                    continue;
                }
                if !sc.may_writepage {
                    keep.push(f);
                    continue;
                }
                // pageout(): folio_clear_dirty_for_io, folio_set_reclaim,
                // swap_writepage (counted in pswpout when submitted, and
                // as PAGE_SUCCESS in NR_VMSCAN_WRITE).
                self.folios.clear(f, pg::DIRTY);
                sc.nr_pageout += 1;
                self.count_global(Item::NrVmscanWrite);
                self.count(memcg, Item::Pswpout, 1, true);
                self.count(memcg, Item::Pgpgout, 1, true);
                if let Some(done) = self.swap_writepage() {
                    // PAGE_SUCCESS with the folio under writeback: `keep`.
                    // It goes back to the LRU with PG_reclaim, and
                    // folio_end_writeback() rotates it to the tail to be
                    // freed by a later scan.
                    self.folios.set(f, pg::RECLAIM);
                    self.folio_start_writeback(f);
                    self.queue_writeback(done, f);
                    self.trace(f, "pageout", FolioWhat::SwapWriteStarted);
                    keep.push(f);
                    continue;
                }
                // "A synchronous write - probably a ramdisk": written
                // (NR_WRITTEN, as folio_end_writeback counts it); free it now.
                self.count_global(Item::NrWritten);
                self.trace(f, "pageout", FolioWhat::SwappedOut);
            }
            // __remove_mapping(): leave a shadow, free the folio.
            let tier = lru_tier_from_refs(self.folios.lru_refs(f));
            self.trace(f, "__remove_mapping", FolioWhat::Evicted { tier });
            let shadow = self.workingset_eviction(f, target);
            let (m, idx) = (self.folios.mapping[f as usize], self.folios.index[f as usize]);
            if self.folios.test(f, pg::ORPHAN) {
                // Its task has exited: no swap entry refers to the slot
                // (put_swap_folio frees it; the shadow goes with it).
                self.delete_from_swap_cache(f);
            } else if anon {
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

    /// shrink_folio_list()'s `activate_locked` label: a swap-cache folio
    /// gives its slot back when swap is more than half full
    /// (mem_cgroup_swap_full, folio_free_swap), and the folio goes back
    /// active, counted as PGACTIVATE. Simplified: never mlocked.
    pub(crate) fn activate_locked(&mut self, f: FolioId, memcg: MemcgId) {
        if self.folios.test(f, pg::SWAPCACHE) && self.mem_cgroup_swap_full(memcg) {
            self.folio_free_swap(f);
        }
        self.folios.set(f, pg::ACTIVE);
        self.count(memcg, Item::Pgactivate, 1, true);
    }

    /// shrink_inactive_list()'s flusher nudge: when every one of the
    /// `nr_taken` folios shrink_folio_list() saw was dirty and not queued for
    /// writeback (`sc.nr.unqueued_dirty` grew by `nr_taken` since
    /// `unqueued_before`), the flushers are not doing their job: wake them.
    pub(crate) fn wakeup_flushers_if_all_unqueued(&mut self, sc: &ScanControl, unqueued_before: u64, nr_taken: u64) {
        if sc.nr.unqueued_dirty - unqueued_before == nr_taken {
            self.wakeup_flusher_threads();
        }
    }

    /// folio_check_references() for the classic LRU: a referenced PTE
    /// activates a folio that was already referenced (mapped executables,
    /// also activated at once, are not modelled), else marks it referenced
    /// and keeps it for another trip on the inactive list; without PTE
    /// references the folio is reclaimed (RECLAIM_CLEAN and RECLAIM are one
    /// case here).
    pub(crate) fn classic_check_references(&mut self, f: FolioId, referenced_ptes: bool) -> FolioRef {
        let referenced_folio = self.folios.test_clear(f, pg::REFERENCED);
        if referenced_ptes {
            self.folios.set(f, pg::REFERENCED);
            return if referenced_folio { FolioRef::Activate } else { FolioRef::Keep };
        }
        FolioRef::Reclaim
    }
}
