//! Swap space: `struct swap_info_struct` reduced to a slot allocator and the
//! per-slot shadow entries the swap cache leaves behind (mm/swapfile.c,
//! mm/swap_state.c).
//!
//! Simplified: one swap device; slots are handed out last-freed-first; swap
//! writes complete synchronously (the reclaimer pays the cost in simulated
//! time), like zram or a fast SSD under light load.
use super::folio::NIL;

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
