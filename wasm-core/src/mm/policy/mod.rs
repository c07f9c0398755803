//! Baseline replacement policies for comparison: exact LRU, CLOCK and
//! S3-FIFO. These are textbook cache policies, **not kernel ones**: no Linux
//! version reclaims this way. They exist so that a trace can be replayed
//! through MGLRU, the classic active/inactive LRU and the policies that
//! papers and cache simulators report, on the same engine path.
//!
//! They plug in where MGLRU and the classic LRU plug in, selected by
//! [`Knobs::baseline`](super::Knobs) (with `lru_gen_enabled` off):
//! - placement: the lruvec's classic lists hold the folios (anon and file
//!   apart, as the lruvec is shaped), so `lruvec_add_folio`,
//!   `lruvec_del_folio`, the per-zone sizes, the views and the invariant
//!   checks work unchanged; `PG_active` says which list (for S3-FIFO: the
//!   main queue);
//! - access: [`Mm::baseline_mark_accessed`] instead of `folio_mark_accessed`'s
//!   kernel ladders;
//! - eviction: [`Mm::baseline_shrink_lruvec`] instead of `shrink_lruvec`'s
//!   kernel scan: the policy picks its victims, and the engine's
//!   `shrink_folio_list` frees them (shadow entries, uncharge, free lists);
//! - shadows: [`Mm::baseline_eviction`] and [`Mm::baseline_refault`] instead
//!   of the workingset code (S3-FIFO keeps its ghost queue in them).
//!
//! Everything around the policy is the engine's: the memcg charge at
//! memory.max, try_to_free_mem_cgroup_pages and its priority loop, the page
//! allocator. A memcg at its limit reclaims `nr_to_reclaim` pages per
//! reclaim (SWAP_CLUSTER_MAX = 32 for a one-page charge) under every policy,
//! so a cache of N pages holds between N - 32 and N pages for every policy.
use serde::{Deserialize, Serialize};

use super::folio::{pg, FolioId};
use super::lruvec::{LRU_ACTIVE_ANON, LRU_INACTIVE_ANON, LRU_INACTIVE_FILE};
use super::vmscan::ScanControl;
use super::vmstat::Item;
use super::workingset::{pack_shadow, unpack_shadow};
use super::{LruvecId, Mm, LRU_GEN_ANON, LRU_GEN_FILE};
use crate::cost;

mod clock;
mod lru;
mod s3fifo;

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

/// A textbook replacement policy (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub enum Baseline {
    /// Exact LRU: every access moves the page to the most-recently-used end;
    /// the least recently used page is evicted.
    Lru,
    /// CLOCK (second chance): one reference bit per page, a hand sweeping a
    /// ring; a referenced page loses its bit and is passed over once.
    Clock,
    /// S3-FIFO (Yang et al., SOSP 2023): a small FIFO (10 %), a main FIFO
    /// with 2-bit frequencies, and a ghost FIFO of pages evicted from the
    /// small queue.
    S3fifo,
}

impl Baseline {
    pub const ALL: [Baseline; 3] = [Baseline::Lru, Baseline::Clock, Baseline::S3fifo];

    pub fn name(self) -> &'static str {
        match self {
            Baseline::Lru => "lru",
            Baseline::Clock => "clock",
            Baseline::S3fifo => "s3fifo",
        }
    }
}

/// The inactive list of a type: where LRU and CLOCK keep every folio, and
/// S3-FIFO its small queue (the active list is its main queue).
#[inline]
pub(crate) fn inactive_list(type_: usize) -> usize {
    if type_ == LRU_GEN_ANON {
        LRU_INACTIVE_ANON
    } else {
        LRU_INACTIVE_FILE
    }
}

#[inline]
pub(crate) fn active_list(type_: usize) -> usize {
    inactive_list(type_) + (LRU_ACTIVE_ANON - LRU_INACTIVE_ANON)
}

impl Mm {
    /// The baseline policy in use, if any.
    #[inline]
    pub fn baseline(&self) -> Option<Baseline> {
        self.knobs.baseline
    }

    /// A hit on a resident folio, as the policy sees it (stands in for
    /// folio_mark_accessed()).
    pub fn baseline_mark_accessed(&mut self, b: Baseline, f: FolioId) {
        match b {
            Baseline::Lru => self.lru_mark_accessed(f),
            Baseline::Clock => self.folios.set(f, pg::REFERENCED),
            Baseline::S3fifo => self.s3fifo_mark_accessed(f),
        }
    }

    /// Stands in for shrink_lruvec(): the policy isolates up to the pages
    /// this reclaim still needs (nr_to_reclaim - nr_reclaimed), file first,
    /// anon after it when swap allows, and shrink_folio_list() frees them;
    /// what it could not free (dirty, under writeback, no swap) goes back to
    /// the head of its list. Unlike the kernel's scans, the priority does not
    /// scale the work: a textbook cache evicts exactly what it must.
    pub fn baseline_shrink_lruvec(&mut self, b: Baseline, lv: LruvecId, sc: &mut ScanControl) {
        self.cost_ns += cost::SHRINK_LRUVEC_NS;
        let memcg = self.lruvec_memcg(lv);
        let can_swap = sc.may_swap && self.nr_swap_pages_for(memcg) > 0;
        let mut list = Vec::new();
        for type_ in [LRU_GEN_FILE, LRU_GEN_ANON] {
            if type_ == LRU_GEN_ANON && !can_swap {
                continue;
            }
            loop {
                let want = sc.nr_to_reclaim.saturating_sub(sc.nr_reclaimed);
                if want == 0 {
                    return;
                }
                list.clear();
                let scanned = match b {
                    Baseline::Lru => self.lru_isolate(lv, type_, want, &mut list),
                    Baseline::Clock => self.clock_isolate(lv, type_, want, &mut list),
                    Baseline::S3fifo => self.s3fifo_isolate(lv, type_, want, &mut list),
                };
                self.cost_ns += scanned * cost::SCAN_FOLIO_NS;
                let item = if sc.kswapd { Item::PgscanKswapd } else { Item::PgscanDirect };
                self.count(memcg, item, list.len() as u64, !sc.cgroup_reclaim());
                self.count(memcg, Item::PgscanAnon.plus(type_), list.len() as u64, true);
                if list.is_empty() {
                    break;
                }
                let unqueued_dirty_before = sc.nr.unqueued_dirty;
                sc.nr.taken += list.len() as u64;
                let reclaimed = self.shrink_folio_list(&mut list, lv, sc);
                self.wakeup_flushers_if_all_unqueued(sc, unqueued_dirty_before, list.len() as u64 + reclaimed);
                for &f in &list {
                    // shrink_folio_list marks what it keeps PG_active: for
                    // S3-FIFO that is the main queue; LRU and CLOCK have one list.
                    if b != Baseline::S3fifo {
                        self.folios.clear(f, pg::ACTIVE);
                    }
                    self.folios.set(f, pg::LRU);
                    self.classic_add_folio(f);
                }
                sc.nr_reclaimed += reclaimed;
                let item = if sc.kswapd { Item::PgstealKswapd } else { Item::PgstealDirect };
                self.count(memcg, item, reclaimed, !sc.cgroup_reclaim());
                self.count(memcg, Item::PgstealAnon.plus(type_), reclaimed, true);
                if reclaimed == 0 {
                    break;
                }
            }
        }
    }

    /// Takes `f` off its list for shrink_folio_list (isolate_lru_folios for
    /// one folio).
    pub(crate) fn baseline_isolate_one(&mut self, f: FolioId, list: &mut Vec<FolioId>) {
        self.classic_del_folio(f);
        self.folios.clear(f, pg::LRU);
        list.push(f);
    }

    /// Moves `f` to the head of the list it belongs on now (after its
    /// PG_active changed, or to rotate it).
    pub(crate) fn baseline_move_to_head(&mut self, f: FolioId, from_list: usize) {
        let lv = self.folios.lruvec[f as usize];
        let zone = self.folios.zone(f);
        let l = &mut self.lruvecs[lv as usize];
        l.lists[from_list].del(&mut self.folios, f);
        l.lru_zone_size[from_list][zone] -= 1;
        self.classic_add_folio(f);
    }

    /// Stands in for workingset_eviction(): the shadow entry left behind.
    /// LRU and CLOCK use it for nothing but counting refaults; S3-FIFO
    /// stamps pages evicted from its small queue as ghost entries.
    pub fn baseline_eviction(&mut self, b: Baseline, f: FolioId) -> u64 {
        let lv = self.folios.lruvec[f as usize];
        let (memcg, node) = (self.lruvec_memcg(lv), self.lruvec_node(lv));
        match b {
            Baseline::S3fifo => self.s3fifo_eviction(f),
            Baseline::Lru | Baseline::Clock => pack_shadow(memcg, node, 0, false),
        }
    }

    /// Stands in for workingset_refault(): counts WORKINGSET_REFAULT; S3-FIFO
    /// sends a page found in its ghost queue straight to the main queue
    /// (counted as WORKINGSET_ACTIVATE).
    pub fn baseline_refault(&mut self, b: Baseline, f: FolioId, shadow: u64) {
        let lv = self.folios.lruvec[f as usize];
        let memcg = self.lruvec_memcg(lv);
        let type_ = self.folios.type_of(f);
        self.count(memcg, Item::WorkingsetRefaultAnon.plus(type_), 1, true);
        if b == Baseline::S3fifo && self.s3fifo_in_ghost(lv, &unpack_shadow(shadow)) {
            self.folios.set(f, pg::ACTIVE);
            self.count(memcg, Item::WorkingsetActivateAnon.plus(type_), 1, true);
        }
    }
}
