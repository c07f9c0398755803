//! What a task's access does to memory: page-cache reads and writes
//! (mm/filemap.c `filemap_read`, `filemap_add_folio`), faults on mapped
//! memory (mm/memory.c `handle_mm_fault`, `do_anonymous_page`,
//! `do_swap_page`, mm/filemap.c `filemap_fault`), and adding new folios to
//! the LRU (mm/swap.c `folio_add_lru`).
//!
//! An address space's slot per page is the kernel's xarray entry (for files)
//! or page-table entry (for anonymous memory): empty, a resident folio, a
//! shadow entry left by eviction, or a swap entry.
use super::folio::{pg, FolioId};
use super::memcontrol::ChargeFailed;
use super::vmstat::Item;
use super::{MappingId, MappingKind, MemcgId, Mm};
use crate::cost;

const TAG_SHIFT: u32 = 62;
const TAG_FOLIO: u64 = 1;
const TAG_SHADOW: u64 = 2;
const TAG_SWAP: u64 = 3;
const PAYLOAD_MASK: u64 = (1 << TAG_SHIFT) - 1;

/// One decoded slot of an address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Empty,
    Folio(FolioId),
    /// A shadow entry (workingset.c pack_shadow) with its payload.
    Shadow(u64),
    /// A swap entry: the page is in this swap slot.
    Swap(u32),
}

impl Slot {
    pub fn decode(v: u64) -> Slot {
        match v >> TAG_SHIFT {
            0 => Slot::Empty,
            TAG_FOLIO => Slot::Folio(v as u32),
            TAG_SHADOW => Slot::Shadow(v & PAYLOAD_MASK),
            _ => Slot::Swap(v as u32),
        }
    }
    pub fn encode(self) -> u64 {
        match self {
            Slot::Empty => 0,
            Slot::Folio(f) => (TAG_FOLIO << TAG_SHIFT) | u64::from(f),
            Slot::Shadow(s) => (TAG_SHADOW << TAG_SHIFT) | (s & PAYLOAD_MASK),
            Slot::Swap(s) => (TAG_SWAP << TAG_SHIFT) | u64::from(s),
        }
    }
}

/// How a task touches a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// read() through the page cache.
    Read,
    /// write() through the page cache (the page becomes dirty).
    Write,
    /// A load from mapped memory (mmap'd file or anonymous).
    Load,
    /// A store to mapped memory.
    Store,
}

/// What one access did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub hit: bool,
    /// Needed I/O (a read from the file or from swap).
    pub major: bool,
}

impl Mm {
    #[inline]
    pub fn slot(&self, m: MappingId, index: u32) -> Slot {
        Slot::decode(self.mappings[m as usize].slots[index as usize])
    }

    /// The slot as a resident page: a swap entry whose folio is still in
    /// the swap cache (unmapped, under writeback or not yet freed) is that
    /// folio, which is on the LRU.
    pub fn resident_slot(&self, m: MappingId, index: u32) -> Slot {
        match self.slot(m, index) {
            Slot::Swap(s) if self.swap.cache[s as usize] != super::folio::NIL => Slot::Folio(self.swap.cache[s as usize]),
            other => other,
        }
    }

    #[inline]
    pub fn set_slot(&mut self, m: MappingId, index: u32, s: Slot) {
        self.mappings[m as usize].slots[index as usize] = s.encode();
    }

    /// One access by a task of `memcg` running on `node`. Costs are added to
    /// `self.cost_ns`. Fails only when a charge cannot be met (memcg OOM).
    pub fn access(&mut self, memcg: MemcgId, node: usize, m: MappingId, index: u32, op: Op) -> Result<Outcome, ChargeFailed> {
        match (self.mappings[m as usize].kind, op) {
            (MappingKind::File, Op::Read | Op::Write) => self.filemap_read(memcg, node, m, index, op == Op::Write),
            (_, Op::Load | Op::Store) => self.handle_mm_fault(memcg, node, m, index, op == Op::Store),
            (MappingKind::Anon, Op::Read | Op::Write) => self.handle_mm_fault(memcg, node, m, index, op == Op::Write),
        }
    }

    /// filemap_read() of one page, or generic_perform_write() of a whole
    /// one: a miss allocates a folio, checks the shadow of a read
    /// (workingset_refault in filemap_add_folio; a write's __GFP_WRITE, from
    /// FGP_WRITE, skips it: a rewritten page is no refault), adds it to the
    /// LRU outside a fault, and reads it; a write of the whole page reads nothing (write_begin only reads
    /// the part of a folio a write does not cover). A read marks the folio
    /// accessed; a write does not (v4.7, bbddabe2e436 "mm: filemap: only do
    /// access activations on reads": write_begin's FGP_WRITEBEGIN has no
    /// FGP_ACCESSED), it only dirties it. Simplified: every write covers
    /// whole pages.
    fn filemap_read(&mut self, memcg: MemcgId, node: usize, m: MappingId, index: u32, write: bool) -> Result<Outcome, ChargeFailed> {
        let (f, outcome) = match self.slot(m, index) {
            Slot::Folio(f) => {
                self.cost_ns += cost::FD_READ_HIT_NS;
                (f, Outcome { hit: true, major: false })
            }
            Slot::Empty | Slot::Shadow(_) | Slot::Swap(_) => {
                let f = self.page_cache_miss(memcg, node, m, index, false, !write)?;
                (f, Outcome { hit: false, major: !write })
            }
        };
        // A textbook policy counts every hit, and only hits: its new pages start cold.
        let accessed = if self.knobs.baseline.is_some() { outcome.hit } else { !write };
        if accessed {
            self.folio_mark_accessed(f);
        }
        if write {
            self.folio_mark_dirty(f);
        }
        Ok(outcome)
    }

    /// filemap_add_folio() and the read: allocates, charges and inserts a
    /// page-cache folio for (m, index), then reads it (cost of a major read)
    /// unless `read` is false (a write of the whole page fills it). A shadow
    /// left in the slot is a refault (workingset_refault) unless this is a
    /// write, whose __GFP_WRITE makes filemap_add_folio drop the shadow
    /// unchecked. `in_fault` decides its LRU placement.
    fn page_cache_miss(&mut self, memcg: MemcgId, node: usize, m: MappingId, index: u32, in_fault: bool, read: bool) -> Result<FolioId, ChargeFailed> {
        let f = self.alloc_charged_folio(memcg, node, false)?;
        self.install_folio(f, m, index);
        let shadow = match self.slot(m, index) {
            Slot::Shadow(s) => Some(s),
            _ => None,
        };
        self.set_slot(m, index, Slot::Folio(f));
        // `!read` is a write() here: a fault always reads.
        if let Some(s) = shadow.filter(|_| read) {
            self.workingset_refault(f, s, in_fault);
        }
        self.folio_add_lru(f, in_fault);
        if read {
            self.storage_read(cost::MAJOR_FAULT_READ_NS);
            self.count(memcg, Item::Pgpgin, 1, true);
        }
        Ok(f)
    }

    /// handle_mm_fault() for a load or store to mapped memory: a resident,
    /// mapped folio just gets its PTE accessed bit set (harvested by aging);
    /// otherwise do_anonymous_page, do_swap_page or filemap_fault.
    fn handle_mm_fault(&mut self, memcg: MemcgId, node: usize, m: MappingId, index: u32, store: bool) -> Result<Outcome, ChargeFailed> {
        let kind = self.mappings[m as usize].kind;
        let mut outcome = Outcome::default();
        let mut from_swap = false;
        let f = match self.slot(m, index) {
            Slot::Folio(f) if self.folios.test(f, pg::MAPPED) => {
                self.cost_ns += cost::MAPPED_HIT_NS;
                outcome.hit = true;
                f
            }
            Slot::Folio(f) => {
                // Resident in the page cache but not mapped: a minor fault maps it.
                self.count(memcg, Item::Pgfault, 1, true);
                self.cost_ns += cost::MINOR_FAULT_NS;
                outcome.hit = true;
                f
            }
            Slot::Empty | Slot::Shadow(_) if kind == MappingKind::File => {
                self.count(memcg, Item::Pgfault, 1, true);
                self.count(memcg, Item::Pgmajfault, 1, true);
                outcome.major = true;
                self.page_cache_miss(memcg, node, m, index, true, true)?
            }
            Slot::Empty | Slot::Shadow(_) => {
                // do_anonymous_page(): a zeroed folio, active (in a fault).
                self.count(memcg, Item::Pgfault, 1, true);
                let f = self.alloc_charged_folio(memcg, node, true)?;
                self.install_folio(f, m, index);
                self.set_slot(m, index, Slot::Folio(f));
                self.folio_add_lru(f, true);
                self.cost_ns += crate::cost::MINOR_FAULT_NS;
                f
            }
            Slot::Swap(slot) if self.swap.cache[slot as usize] != super::folio::NIL => {
                // Still in the swap cache (unmapped but not yet freed): map it again.
                let f = self.swap.cache[slot as usize];
                from_swap = true;
                self.count(memcg, Item::Pgfault, 1, true);
                self.cost_ns += cost::MINOR_FAULT_NS;
                self.set_slot(m, index, Slot::Folio(f));
                outcome.hit = true;
                f
            }
            Slot::Swap(slot) => {
                self.count(memcg, Item::Pgfault, 1, true);
                self.count(memcg, Item::Pgmajfault, 1, true);
                outcome.major = true;
                from_swap = true;
                self.do_swap_page(memcg, node, m, index, slot)?
            }
        };
        self.folios.set(f, pg::MAPPED);
        self.pte_mkyoung(f);
        if let (Some(b), true) = (self.knobs.baseline, outcome.hit) {
            // A textbook policy sees every hit, mapped ones too.
            self.baseline_mark_accessed(b, f);
        }
        if store {
            self.folio_mark_dirty(f);
        }
        // The swap copy goes (folio_free_swap): after a store it is stale,
        // and a swap-in gives its slot back when swap is more than half full
        // (do_swap_page's should_try_to_free_swap).
        if self.folios.test(f, pg::SWAPCACHE) && (store || (from_swap && self.mem_cgroup_swap_full(self.lruvec_memcg(self.folios.lruvec[f as usize])))) {
            self.folio_free_swap(f);
        }
        Ok(outcome)
    }

    /// do_swap_page(): read the folio back from swap into the swap cache,
    /// feed the slot's shadow to workingset_refault, map it (active, in a
    /// fault). The folio stays in the swap cache, so evicting it again while
    /// clean needs no write.
    fn do_swap_page(&mut self, memcg: MemcgId, node: usize, m: MappingId, index: u32, slot: u32) -> Result<FolioId, ChargeFailed> {
        let f = self.alloc_charged_folio(memcg, node, true)?;
        self.install_folio(f, m, index);
        self.folios.set(f, pg::SWAPCACHE);
        self.folios.swap[f as usize] = slot;
        self.swap.cache[slot as usize] = f;
        let shadow = std::mem::take(&mut self.swap.shadows[slot as usize]);
        self.set_slot(m, index, Slot::Folio(f));
        if shadow != 0 {
            self.workingset_refault(f, shadow, true);
        }
        self.folio_add_lru(f, true);
        self.storage_read(cost::SWAP_IN_NS);
        self.count(memcg, Item::Pswpin, 1, true);
        // submit_bio() counts every read, a swap-in's too.
        self.count(memcg, Item::Pgpgin, 1, true);
        Ok(f)
    }

    /// folio_free_swap() (mm/swapfile.c): give a swap-cache folio's slot
    /// back when nothing else needs it: the folio is not under writeback and
    /// no page table holds the swap entry (folio_swapped: its PTE maps the
    /// folio again). The folio is dirty from then on: evicting it again
    /// means a new slot and a new write.
    pub(crate) fn folio_free_swap(&mut self, f: FolioId) -> bool {
        let fl = self.folios.flags[f as usize];
        if fl & pg::SWAPCACHE == 0 || fl & pg::WRITEBACK != 0 {
            return false;
        }
        let slot = self.folios.swap[f as usize];
        let (m, idx) = (self.folios.mapping[f as usize], self.folios.index[f as usize]);
        if self.slot(m, idx) == Slot::Swap(slot) {
            return false;
        }
        self.delete_from_swap_cache(f);
        self.folios.set(f, pg::DIRTY);
        true
    }

    /// Removes an anon folio from the swap cache and frees its slot
    /// (delete_from_swap_cache + swap_free).
    pub fn delete_from_swap_cache(&mut self, f: FolioId) {
        let slot = self.folios.swap[f as usize];
        self.folios.clear(f, pg::SWAPCACHE);
        self.folios.swap[f as usize] = super::folio::NIL;
        self.swap.cache[slot as usize] = super::folio::NIL;
        self.swap.free_slot(slot);
        let memcg = self.lruvec_memcg(self.folios.lruvec[f as usize]);
        self.swap_uncharge(memcg);
    }

    /// Sets the PTE accessed bit; with MGLRU, the first time since the last
    /// aging, the folio is queued for the next page-table walk (walk_mm's
    /// view of it). The classic LRU has no walk: it reads the bit in
    /// folio_referenced(), and a queue nothing drains would only grow.
    #[inline]
    fn pte_mkyoung(&mut self, f: FolioId) {
        let fl = self.folios.flags[f as usize];
        if fl & pg::YOUNG == 0 {
            self.folios.flags[f as usize] = fl | pg::YOUNG;
            if self.knobs.lru_gen_enabled && fl & pg::WALK_QUEUED == 0 && fl & pg::LRU != 0 {
                self.folios.flags[f as usize] |= pg::WALK_QUEUED;
                let lv = self.folios.lruvec[f as usize];
                self.lruvecs[lv as usize].mm_walk.push(f);
            }
        }
    }

    /// folio_mark_accessed() (mm/swap.c): with MGLRU only folio_inc_refs();
    /// the classic LRU's referenced/activate ladder otherwise; a baseline
    /// policy's own hit rule (not a kernel path).
    pub fn folio_mark_accessed(&mut self, f: FolioId) {
        if let Some(b) = self.knobs.baseline {
            self.baseline_mark_accessed(b, f);
        } else if self.knobs.lru_gen_enabled {
            self.folio_inc_refs(f);
        } else {
            self.classic_mark_accessed(f);
        }
    }

    /// Allocates a folio on `node` (or any node), reclaiming globally when
    /// none is free, then charges it to `memcg`.
    fn alloc_charged_folio(&mut self, memcg: MemcgId, node: usize, anon: bool) -> Result<FolioId, ChargeFailed> {
        let f = self.alloc_folio(node, memcg)?;
        if let Err(e) = self.try_charge(memcg, 1) {
            let n = self.folio_node(f);
            self.free_folio(f, n);
            return Err(e);
        }
        let n = self.folio_node(f);
        self.folios.lruvec[f as usize] = self.lruvec_id(memcg, n);
        if anon {
            self.folios.set(f, pg::ANON);
        }
        Ok(f)
    }

    /// folio_add_lru(): onto the lruvec of the memcg it is charged to. With
    /// MGLRU a folio added inside a fault is active (lru_gen_in_fault), so it
    /// lands in max_seq; read()/readahead folios do not.
    pub fn folio_add_lru(&mut self, f: FolioId, in_fault: bool) {
        if self.knobs.lru_gen_enabled && in_fault {
            self.folios.set(f, pg::ACTIVE);
        }
        self.lruvec_add_folio(f);
    }

    /// lruvec_del_folio(): off whichever LRU the folio is on (not reclaiming).
    pub fn lruvec_del_folio(&mut self, f: FolioId) {
        self.folios.clear(f, pg::LRU);
        if self.knobs.lru_gen_enabled {
            self.lru_gen_del_folio(f, false);
        } else {
            self.classic_del_folio(f);
        }
    }

    /// lruvec_add_folio(): lru_gen_add_folio() or the classic list add.
    pub fn lruvec_add_folio(&mut self, f: FolioId) {
        self.folios.set(f, pg::LRU);
        if self.knobs.lru_gen_enabled {
            self.lru_gen_add_folio(f, false);
        } else {
            self.classic_add_folio(f);
        }
    }
}
