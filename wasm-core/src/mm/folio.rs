//! struct folio, reduced to what reclaim reads: a struct of arrays indexed by
//! a u32 folio id (which doubles as the page frame number: folios are order 0).
//!
//! Kernel counterpart: `struct folio` / `page->flags` (include/linux/page-flags.h,
//! include/linux/mm_inline.h). Simplified: one page per folio, no refcount,
//! no rmap (a folio knows its one mapping and offset; "mapped" is a flag).

pub type FolioId = u32;
/// The null link of index-linked lists.
pub const NIL: u32 = u32::MAX;

/// Flag bits of [`Folios::flags`] (the kernel's PG_* bits and the MGLRU fields).
pub mod pg {
    /// PG_lru: on an LRU list.
    pub const LRU: u32 = 1 << 0;
    /// PG_swapbacked: anonymous memory (the "anon" LRU type).
    pub const ANON: u32 = 1 << 1;
    /// Mapped into a page table (folio_mapped()).
    pub const MAPPED: u32 = 1 << 2;
    pub const DIRTY: u32 = 1 << 3;
    pub const WRITEBACK: u32 = 1 << 4;
    pub const REFERENCED: u32 = 1 << 5;
    pub const WORKINGSET: u32 = 1 << 6;
    pub const ACTIVE: u32 = 1 << 7;
    /// The accessed ("young") bit of the PTE that maps the folio.
    pub const YOUNG: u32 = 1 << 8;
    /// PG_reclaim: rotate to the tail when writeback ends.
    pub const RECLAIM: u32 = 1 << 9;
    pub const UNEVICTABLE: u32 = 1 << 10;
    pub const SWAPCACHE: u32 = 1 << 11;
    /// On a zone free list (not a kernel page flag: the buddy allocator's state).
    pub const FREE: u32 = 1 << 12;
    /// Queued for the page-table walk of the next aging (the simulator's
    /// stand-in for "a young PTE exists in some mm").
    pub const WALK_QUEUED: u32 = 1 << 13;
    /// The page is in the sample whose decisions are traced for the views.
    pub const TRACKED: u32 = 1 << 14;
    /// A swap-cache folio whose task exited while its swap write was in
    /// flight: free_swap_and_cache() could not take it (folio_free_swap
    /// fails under writeback), so it stays on the LRU, charged, holding its
    /// slot, with no PTE or swap entry of a task referring to it, until
    /// reclaim frees it (not a kernel page flag: the kernel's state is a
    /// swap count of SWAP_HAS_CACHE alone).
    pub const ORPHAN: u32 = 1 << 15;
    /// LRU_GEN_MASK: gen + 1 (0 = not on a generation list), LRU_GEN_WIDTH = 3 bits.
    pub const GEN_SHIFT: u32 = 16;
    pub const GEN_MASK: u32 = 0b111 << GEN_SHIFT;
    /// LRU_REFS_MASK: the 2-bit access counter (LRU_REFS_WIDTH = MAX_NR_TIERS - 2).
    pub const REFS_SHIFT: u32 = 19;
    pub const REFS_MASK: u32 = 0b11 << REFS_SHIFT;
    /// LRU_REFS_FLAGS: PG_referenced | PG_workingset.
    pub const REFS_FLAGS: u32 = REFERENCED | WORKINGSET;
    /// Zone number (2 bits).
    pub const ZONE_SHIFT: u32 = 21;
    pub const ZONE_MASK: u32 = 0b11 << ZONE_SHIFT;
    /// The generation slot whose list physically holds the folio (2 bits).
    /// It differs from GEN after an in-place promotion (folio_update_gen)
    /// until sort_folio moves the folio; the kernel finds the list through
    /// folio->lru and needs no such field.
    pub const LIST_SHIFT: u32 = 23;
    pub const LIST_MASK: u32 = 0b11 << LIST_SHIFT;
}

/// LRU_REFS_WIDTH: bits of the fd access counter.
pub const LRU_REFS_WIDTH: u32 = 2;

/// The folio table. 26 bytes per folio: flags, two list links, the mapping
/// and offset it caches, the lruvec it is charged to, its swap slot.
#[derive(Clone, Debug, Default)]
pub struct Folios {
    pub flags: Vec<u32>,
    pub prev: Vec<u32>,
    pub next: Vec<u32>,
    /// The address space (file or anon region) this folio caches.
    pub mapping: Vec<u32>,
    /// Offset in pages within the mapping.
    pub index: Vec<u32>,
    /// The lruvec (memcg, node) the folio is charged to.
    pub lruvec: Vec<u16>,
    /// The swap slot of an anon folio in the swap cache (folio->swap), or NIL.
    pub swap: Vec<u32>,
}

impl Folios {
    pub fn with_capacity(n: usize) -> Self {
        Folios {
            flags: vec![0; n],
            prev: vec![NIL; n],
            next: vec![NIL; n],
            mapping: vec![NIL; n],
            index: vec![0; n],
            lruvec: vec![0; n],
            swap: vec![NIL; n],
        }
    }

    pub fn len(&self) -> usize {
        self.flags.len()
    }

    pub fn is_empty(&self) -> bool {
        self.flags.is_empty()
    }

    /// Bytes of folio-table memory per folio (for the benchmark).
    pub const BYTES_PER_FOLIO: usize = 4 + 4 + 4 + 4 + 4 + 2 + 4;

    #[inline]
    pub fn test(&self, f: FolioId, bit: u32) -> bool {
        self.flags[f as usize] & bit != 0
    }
    #[inline]
    pub fn set(&mut self, f: FolioId, bit: u32) {
        self.flags[f as usize] |= bit;
    }
    #[inline]
    pub fn clear(&mut self, f: FolioId, bit: u32) {
        self.flags[f as usize] &= !bit;
    }
    /// Clears `bit`, returning whether it was set (folio_test_clear_*).
    #[inline]
    pub fn test_clear(&mut self, f: FolioId, bit: u32) -> bool {
        let was = self.test(f, bit);
        self.clear(f, bit);
        was
    }

    /// folio_is_file_lru(): 0 = anon, 1 = file (the MGLRU "type").
    #[inline]
    pub fn type_of(&self, f: FolioId) -> usize {
        usize::from(!self.test(f, pg::ANON))
    }

    #[inline]
    pub fn zone(&self, f: FolioId) -> usize {
        ((self.flags[f as usize] & pg::ZONE_MASK) >> pg::ZONE_SHIFT) as usize
    }

    /// folio_lru_gen(): the generation slot, or None when not on a generation list.
    #[inline]
    pub fn lru_gen(&self, f: FolioId) -> Option<usize> {
        let g = (self.flags[f as usize] & pg::GEN_MASK) >> pg::GEN_SHIFT;
        if g == 0 {
            None
        } else {
            Some(g as usize - 1)
        }
    }

    #[inline]
    pub fn set_lru_gen(&mut self, f: FolioId, gen: Option<usize>) {
        let v = gen.map_or(0, |g| g as u32 + 1);
        let fl = &mut self.flags[f as usize];
        *fl = (*fl & !pg::GEN_MASK) | (v << pg::GEN_SHIFT);
    }

    /// The slot of the generation list that physically holds the folio.
    #[inline]
    pub fn list_slot(&self, f: FolioId) -> usize {
        ((self.flags[f as usize] & pg::LIST_MASK) >> pg::LIST_SHIFT) as usize
    }

    #[inline]
    pub fn set_list_slot(&mut self, f: FolioId, slot: usize) {
        let fl = &mut self.flags[f as usize];
        *fl = (*fl & !pg::LIST_MASK) | ((slot as u32) << pg::LIST_SHIFT);
    }

    /// The raw 2-bit LRU_REFS counter.
    #[inline]
    pub fn refs_counter(&self, f: FolioId) -> u32 {
        (self.flags[f as usize] & pg::REFS_MASK) >> pg::REFS_SHIFT
    }

    #[inline]
    pub fn set_refs_counter(&mut self, f: FolioId, v: u32) {
        let fl = &mut self.flags[f as usize];
        *fl = (*fl & !pg::REFS_MASK) | ((v.min(3)) << pg::REFS_SHIFT);
    }

    /// folio_lru_refs() (v6.12): the counter plus PG_workingset.
    #[inline]
    pub fn lru_refs(&self, f: FolioId) -> u32 {
        self.refs_counter(f) + u32::from(self.test(f, pg::WORKINGSET))
    }
}

/// order_base_2(n): ceil(log2(n)), with order_base_2(0) = order_base_2(1) = 0.
#[inline]
pub fn order_base_2(n: u64) -> u32 {
    if n <= 1 {
        0
    } else {
        64 - (n - 1).leading_zeros()
    }
}

/// lru_tier_from_refs() (v6.12): tier = order_base_2(refs + 1).
#[inline]
pub fn lru_tier_from_refs(refs: u32) -> usize {
    order_base_2(u64::from(refs) + 1) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_base_2_matches_the_kernel() {
        let expect = [(0, 0), (1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (1 << 20, 20)];
        for (n, o) in expect {
            assert_eq!(order_base_2(n), o, "order_base_2({n})");
        }
    }

    #[test]
    fn tiers_from_refs() {
        // refs 0 -> tier 0, 1 -> 1, 2..3 -> 2, 4 -> 3 (MAX_NR_TIERS = 4)
        let tiers: Vec<usize> = (0..=4).map(lru_tier_from_refs).collect();
        assert_eq!(tiers, vec![0, 1, 2, 2, 3]);
    }

    #[test]
    fn gen_field_round_trips_and_stays_in_its_bits() {
        let mut t = Folios::with_capacity(1);
        t.set(0, pg::ANON | pg::REFERENCED | pg::ZONE_MASK);
        for g in 0..4 {
            t.set_lru_gen(0, Some(g));
            assert_eq!(t.lru_gen(0), Some(g));
            assert!(t.test(0, pg::ANON) && t.test(0, pg::REFERENCED));
            assert_eq!(t.zone(0), 3);
        }
        t.set_lru_gen(0, None);
        assert_eq!(t.lru_gen(0), None);
        for r in 0..4 {
            t.set_refs_counter(0, r);
            assert_eq!(t.refs_counter(0), r);
            assert_eq!(t.lru_gen(0), None);
        }
        t.set_refs_counter(0, 9);
        assert_eq!(t.refs_counter(0), 3, "the counter saturates at 3");
        t.set(0, pg::WORKINGSET);
        assert_eq!(t.lru_refs(0), 4);
    }
}
