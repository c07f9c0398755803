//! The page allocator (mm/page_alloc.c), order 0: free lists, watermark
//! checks, the zonelist walk (local node first), the fast path at the low
//! watermark and the slow path (wake kswapd, the min watermark, direct
//! reclaim, should_reclaim_retry, then OOM).
//!
//! Simplified: no per-cpu lists, no compaction or high orders, no
//! ALLOC_HARDER/HIGH reserves, no watermark boosting, no direct reclaim
//! throttling (allow_direct_reclaim), no cpusets.
use serde::{Deserialize, Serialize};

use super::folio::{pg, FolioId, NIL};
use super::memcontrol::ChargeFailed;
use super::pgdat::{ZoneType, WMARK_LOW, WMARK_MIN};
use super::vmscan::ROOT_MEMCG;
use super::{MemcgId, Mm, MAX_NR_ZONES, MAX_RECLAIM_RETRIES};

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

/// The allocation's zone modifiers (gfp_zone of its gfp mask).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub enum Gfp {
    /// GFP_HIGHUSER_MOVABLE: user pages, any zone up to ZONE_MOVABLE.
    #[default]
    Movable,
    /// GFP_KERNEL / GFP_HIGHUSER without __GFP_MOVABLE: up to ZONE_NORMAL.
    Normal,
    /// GFP_DMA32.
    Dma32,
    /// GFP_DMA.
    Dma,
}

impl Gfp {
    /// gfp_zone(): the highest zone index the allocation may use.
    pub fn zone(self) -> usize {
        match self {
            Gfp::Movable => 3,
            Gfp::Normal => 2,
            Gfp::Dma32 => 1,
            Gfp::Dma => 0,
        }
    }
}

impl Mm {
    /// __zone_watermark_ok() for order 0: free pages must stay above
    /// `mark + lowmem_reserve[highest_zoneidx]`.
    pub fn zone_watermark_ok(&self, node: usize, z: usize, _order: u32, mark: u64, highest_zoneidx: usize) -> bool {
        let zone = &self.nodes[node].zones[z];
        zone.free_pages() > mark + zone.lowmem_reserve[highest_zoneidx]
    }

    /// The nodes in zonelist order for an allocation on `node`: the local
    /// node first, then the others by distance (here: by id, wrapping).
    fn zonelist_nodes(&self, node: usize) -> impl Iterator<Item = usize> {
        let n = self.nodes.len();
        (0..n).map(move |i| (node + i) % n)
    }

    /// Whether `node` has a populated (managed) zone at or below `idx`: a
    /// zone an allocation or a reclaim up to that zone index may use.
    pub(crate) fn has_zone_upto(&self, node: usize, idx: usize) -> bool {
        self.nodes[node].zones[..=idx.min(MAX_NR_ZONES - 1)].iter().any(|z| z.managed > 0)
    }

    /// get_page_from_freelist(): the first zone in zonelist order (zones
    /// `highest_zoneidx` down to 0 on each node) whose free pages pass the
    /// watermark `wmark` gives a page.
    fn get_page_from_freelist(&mut self, node: usize, highest_zoneidx: usize, wmark: usize) -> Option<FolioId> {
        for n in self.zonelist_nodes(node).collect::<Vec<_>>() {
            for z in (0..=highest_zoneidx.min(MAX_NR_ZONES - 1)).rev() {
                let zone = &self.nodes[n].zones[z];
                if zone.managed == 0 {
                    continue;
                }
                let mark = zone.watermark[wmark];
                if !self.zone_watermark_ok(n, z, 0, mark, highest_zoneidx) {
                    continue;
                }
                if let Some(f) = self.rmqueue_zone(n, z) {
                    return Some(f);
                }
            }
        }
        None
    }

    /// rmqueue() -> __rmqueue_smallest(): takes a free page off the zone's
    /// free list and clears its flags but the zone's. Simplified: order-0
    /// pages only, one free list per zone (no buddy orders, migratetypes or
    /// per-CPU lists).
    fn rmqueue_zone(&mut self, node: usize, z: usize) -> Option<FolioId> {
        let f = self.nodes[node].zones[z].free_list.pop_head(&mut self.folios)?;
        let zone_bits = self.folios.flags[f as usize] & pg::ZONE_MASK;
        self.folios.flags[f as usize] = zone_bits;
        Some(f)
    }

    /// zone_reclaimable_pages(): LRU pages of a zone over all memcgs (anon
    /// only when swap space is left).
    pub fn zone_reclaimable_pages(&self, node: usize, z: usize) -> u64 {
        let with_anon = self.swap.nr_free() > 0;
        let mut n = 0u64;
        for m in 0..self.memcgs.len() {
            let lv = &self.lruvecs[self.lruvec_id(m as MemcgId, node) as usize];
            if self.knobs.lru_gen_enabled {
                for gen in 0..4 {
                    n += lv.lrugen.nr_pages[gen][1][z].max(0) as u64;
                    if with_anon {
                        n += lv.lrugen.nr_pages[gen][0][z].max(0) as u64;
                    }
                }
            } else {
                n += lv.lru_zone_size[2][z] + lv.lru_zone_size[3][z];
                if with_anon {
                    n += lv.lru_zone_size[0][z] + lv.lru_zone_size[1][z];
                }
            }
        }
        n
    }

    /// should_reclaim_retry(): retry while fewer than MAX_RECLAIM_RETRIES
    /// rounds in a row made no progress and some zone could pass its min
    /// watermark if all its reclaimable pages were freed.
    fn should_reclaim_retry(&self, node: usize, highest_zoneidx: usize, progress: bool, no_progress_loops: &mut u32) -> bool {
        if progress {
            *no_progress_loops = 0;
        } else {
            *no_progress_loops += 1;
        }
        if *no_progress_loops > MAX_RECLAIM_RETRIES {
            return false;
        }
        for n in self.zonelist_nodes(node) {
            for z in 0..=highest_zoneidx.min(MAX_NR_ZONES - 1) {
                let zone = &self.nodes[n].zones[z];
                if zone.managed == 0 {
                    continue;
                }
                let available = self.zone_reclaimable_pages(n, z) + zone.free_pages();
                if available > zone.watermark[WMARK_MIN] + zone.lowmem_reserve[highest_zoneidx] {
                    return true;
                }
            }
        }
        false
    }

    /// __alloc_pages(): one page for the current task (`self.current`).
    /// Fast path at the low watermark; else the slow path: wake kswapd on
    /// every node, retry at the min watermark, then direct reclaim
    /// (try_to_free_pages, nr_to_reclaim 32) and retry while
    /// should_reclaim_retry() allows; then fail (the caller runs the OOM
    /// killer, unless the allocation may not use ZONE_NORMAL:
    /// __alloc_pages_may_oom's "does not needlessly kill tasks for lowmem").
    /// With no managed zone it may use on any node it fails at once, without
    /// reclaim (the slow path's "if (!ac->preferred_zoneref->zone) goto
    /// nopage"). Its time (the fast path's PAGE_ALLOC_NS plus any direct
    /// reclaim) goes into the task's access cost.
    pub fn alloc_folio(&mut self, node: usize, memcg: MemcgId) -> Result<FolioId, ChargeFailed> {
        let hz = self.current.highest_zoneidx;
        let result = self.alloc_pages_inner(node, memcg, hz);
        self.cost_ns += crate::cost::PAGE_ALLOC_NS;
        result
    }

    /// __alloc_pages(): the fast path (get_page_from_freelist at the low
    /// watermark), then __alloc_pages_slowpath(): wake kswapd, try again at
    /// the min watermark, direct reclaim and retry while
    /// should_reclaim_retry() sees progress. Simplified: order 0, no
    /// compaction, no ALLOC_HARDER/ALLOC_OOM reserves and no OOM killer here
    /// (the caller kills, for allocations up to ZONE_NORMAL and above).
    fn alloc_pages_inner(&mut self, node: usize, memcg: MemcgId, hz: usize) -> Result<FolioId, ChargeFailed> {
        let fail = ChargeFailed { memcg: ROOT_MEMCG, oom: hz >= ZoneType::Normal as usize };
        if let Some(f) = self.get_page_from_freelist(node, hz, WMARK_LOW) {
            return Ok(f);
        }
        if !(0..self.nodes.len()).any(|n| self.has_zone_upto(n, hz)) {
            return Err(ChargeFailed { oom: false, ..fail });
        }
        // __alloc_pages_slowpath()
        self.wake_all_kswapds(hz);
        if let Some(f) = self.get_page_from_freelist(node, hz, WMARK_MIN) {
            return Ok(f);
        }
        let mut no_progress_loops = 0;
        loop {
            // __alloc_pages_direct_reclaim()
            let reclaimed = self.try_to_free_pages(memcg, hz);
            if let Some(f) = self.get_page_from_freelist(node, hz, WMARK_MIN) {
                return Ok(f);
            }
            if !self.should_reclaim_retry(node, hz, reclaimed > 0, &mut no_progress_loops) {
                return Err(fail);
            }
            // retry: "Ensure kswapd doesn't accidentally go to sleep as long as we loop".
            self.wake_all_kswapds(hz);
            if let Some(f) = self.get_page_from_freelist(node, hz, WMARK_MIN) {
                return Ok(f);
            }
        }
    }

    /// wake_all_kswapds(): wake the kswapd of every node with a managed zone
    /// the allocation may use.
    fn wake_all_kswapds(&mut self, hz: usize) {
        for n in 0..self.nodes.len() {
            if self.has_zone_upto(n, hz) {
                self.wakeup_kswapd(n, 0, hz);
            }
        }
    }

    /// Takes a free page from `node`, zones `highest_zoneidx` down to 0,
    /// ignoring watermarks (for set-up and tests).
    pub fn rmqueue(&mut self, node: usize, highest_zoneidx: usize) -> Option<FolioId> {
        for z in (0..=highest_zoneidx).rev() {
            if self.nodes[node].zones[z].managed == 0 {
                continue;
            }
            if let Some(f) = self.rmqueue_zone(node, z) {
                return Some(f);
            }
        }
        None
    }

    /// free_unref_folios(): the folio goes back to its zone's free list.
    pub fn free_folio(&mut self, f: FolioId, node: usize) {
        let zone_bits = self.folios.flags[f as usize] & pg::ZONE_MASK;
        let z = self.folios.zone(f);
        self.folios.flags[f as usize] = zone_bits | pg::FREE;
        self.folios.mapping[f as usize] = NIL;
        self.nodes[node].zones[z].free_list.add_head(&mut self.folios, f);
        self.vmstat.add(super::vmstat::Item::Pgfree, 1);
    }
}
