//! Swap space: `struct swap_info_struct` reduced to a slot allocator and the
//! per-slot shadow entries the swap cache leaves behind (mm/swapfile.c,
//! mm/swap_state.c).
//!
//! Simplified: one swap device; slots are handed out last-freed-first. The
//! writes themselves are in machine.rs (`Mm::swap_writepage`): asynchronous
//! on the SSD, synchronous on brd.
use super::folio::{pg, FolioId, NIL};
use super::{MemcgId, Mm};

#[derive(Clone, Debug, Default)]
pub struct SwapInfo {
    /// Total slots (0 = no swap).
    pub pages: u64,
    free: Vec<u32>,
    /// For each slot: the shadow left by the evicted folio (0 = none).
    pub shadows: Vec<u64>,
    /// For each slot: the swap-cache folio, or NIL.
    pub cache: Vec<u32>,
}

impl SwapInfo {
    pub fn new(pages: u64) -> Self {
        SwapInfo {
            pages,
            free: (0..pages as u32).rev().collect(),
            shadows: vec![0; pages as usize],
            cache: vec![NIL; pages as usize],
        }
    }

    pub fn nr_free(&self) -> u64 {
        self.free.len() as u64
    }

    /// get_swap_page(): a free slot, or None when swap is full.
    pub fn alloc_slot(&mut self) -> Option<u32> {
        self.free.pop()
    }

    /// swap_free(): the slot is free again; its shadow is dropped.
    pub fn free_slot(&mut self, slot: u32) {
        self.shadows[slot as usize] = 0;
        self.cache[slot as usize] = NIL;
        self.free.push(slot);
    }
}

impl Mm {
    /// Swap slots `memcg` may still use: free device slots, capped by the
    /// swap.max headroom of the memcg and its ancestors
    /// (mem_cgroup_get_nr_swap_pages).
    pub fn nr_swap_pages_for(&self, memcg: MemcgId) -> u64 {
        self.memcg_ancestors(memcg).fold(self.swap.nr_free(), |n, id| {
            let cg = &self.memcgs[id as usize];
            n.min(cg.swap_max.saturating_sub(cg.swap_usage))
        })
    }

    /// __mem_cgroup_try_charge_swap(): charges one swap slot to the memcg's
    /// memcg->swap counter and its ancestors'. Simplified: the caller has
    /// checked swap.max (mem_cgroup_get_nr_swap_pages), so the charge cannot
    /// fail here, and there is no swap_cgroup record of the owner (the slot
    /// remembers its memcg through the folio's).
    pub(crate) fn swap_charge(&mut self, memcg: MemcgId) {
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

    /// add_to_swap(): allocate a swap slot (charged to the memcg) and put the
    /// anon folio in the swap cache, dirty (it must be written).
    pub(crate) fn add_to_swap(&mut self, f: FolioId) -> bool {
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
}
