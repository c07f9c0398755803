//! The multi-gen LRU inside one lruvec (mm/vmscan.c "multi-gen LRU",
//! include/linux/mm_inline.h), v6.12 baseline: insertion, references and
//! tiers, aging (max_seq) and min_seq advances, and the eviction loop with
//! its PID controller.
//!
//! Simplified throughout: no locks, RCU, Bloom filters or per-cpu batches;
//! the page-table walk of `walk_mm` is the lruvec's queue of folios whose PTE
//! accessed bit was set since the last aging ([`crate::mm::lruvec::Lruvec::mm_walk`]).
//!
//! The module is split as the kernel's code is read: this file has the
//! generation lists (insertion, removal, references, look-around),
//! `aging.rs` advances max_seq and min_seq, `ctrl.rs` is the PID controller
//! over tiers, and `evict.rs` is the eviction loop.
mod aging;
mod ctrl;
mod evict;

pub use ctrl::{positive_ctrl_err, CtrlPos};
use crate::mm::folio::{lru_tier_from_refs, pg, FolioId, LRU_REFS_WIDTH};
use crate::mm::lruvec::{lru_gen_from_seq, MAX_NR_GENS, MIN_NR_GENS};
use crate::mm::{LruvecId, Mm, LRU_GEN_ANON};
use crate::mm::trace::{AddRule, FolioWhat};
use crate::mm::vmstat::Item;

/// What evict_folios() does with a folio shrink_folio_list() left behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejected {
    /// Dirty or under writeback with PG_reclaim: left alone until writeback ends.
    Writeback,
    /// Active, referenced, mapped, locked, dirty, or already retried: re-enters
    /// at max_seq ("don't add rejected folios to the oldest generation").
    Activate,
    /// Clean and unmapped: retried once.
    Retry,
}

impl Mm {
    // ---------------------------------------------------------------- sizes

    /// lru_gen_update_size(): moves one folio's page between generation
    /// counters (None = off the generation lists). Simplified: the kernel
    /// also updates the active/inactive list sizes here; the views work
    /// those out from the generations instead (sim/views.rs).
    fn lru_gen_update_size(&mut self, lv: LruvecId, f: FolioId, old_gen: Option<usize>, new_gen: Option<usize>) {
        let type_ = self.folios.type_of(f);
        let zone = self.folios.zone(f);
        let lrugen = &mut self.lruvecs[lv as usize].lrugen;
        if let Some(g) = old_gen {
            lrugen.nr_pages[g][type_][zone] -= 1;
        }
        if let Some(g) = new_gen {
            lrugen.nr_pages[g][type_][zone] += 1;
        }
    }

    // ------------------------------------------------------------ insertion

    /// lru_gen_add_folio() (include/linux/mm_inline.h, v6.12 rules): the
    /// target generation is, first match wins,
    /// 1. PG_active -> max_seq;
    /// 2. anon not in the swap cache, or PG_reclaim with dirty/writeback -> max_seq - 1;
    /// 3. `reclaiming`, or `min_seq + MIN_NR_GENS >= max_seq` -> min_seq;
    /// 4. otherwise min_seq + 1.
    ///
    /// Before v6.7 ("fix underprotected page cache", `mglru_underprotection_fix`
    /// off): rule 2 gave min_seq + 1, and everything not active went to min_seq.
    ///
    /// PG_active is cleared (it only says "youngest" on the way in). The folio
    /// goes to the tail when reclaiming (scanned next), else the head.
    pub fn lru_gen_add_folio(&mut self, f: FolioId, reclaiming: bool) {
        let lv = self.folios.lruvec[f as usize];
        let type_ = self.folios.type_of(f);
        let lrugen = &self.lruvecs[lv as usize].lrugen;
        let (max_seq, min_seq) = (lrugen.max_seq, lrugen.min_seq[type_]);
        let fl = self.folios.flags[f as usize];
        // Before v6.7 the cold-but-busy cases went to min_seq + 1 and
        // everything else to min_seq.
        let fixed = self.knobs.mglru_underprotection_fix;
        let busy = if fixed { max_seq - 1 } else { min_seq + 1 };
        let (seq, rule) = if fl & pg::ACTIVE != 0 {
            (max_seq, AddRule::Active)
        } else if type_ == LRU_GEN_ANON && fl & pg::SWAPCACHE == 0 {
            (busy, AddRule::AnonNotInSwapCache)
        } else if fl & pg::RECLAIM != 0 && fl & (pg::DIRTY | pg::WRITEBACK) != 0 {
            (busy, AddRule::ReclaimDirty)
        } else if !fixed {
            (min_seq, AddRule::Oldest)
        } else if reclaiming {
            (min_seq, AddRule::Reclaiming)
        } else if min_seq + MIN_NR_GENS >= max_seq {
            (min_seq, AddRule::FewGenerations)
        } else {
            (min_seq + 1, AddRule::SecondOldest)
        };
        self.trace(f, "lru_gen_add_folio", FolioWhat::Added { seq, rule });
        let gen = lru_gen_from_seq(seq);
        self.folios.clear(f, pg::ACTIVE);
        self.folios.set_lru_gen(f, Some(gen));
        self.lru_gen_update_size(lv, f, None, Some(gen));
        self.gen_list_add(lv, f, gen, reclaiming);
    }

    /// lru_gen_del_folio(): takes the folio off its generation list. When not
    /// reclaiming, a folio in one of the two youngest generations gets
    /// PG_active (what /proc/vmstat calls active).
    pub fn lru_gen_del_folio(&mut self, f: FolioId, reclaiming: bool) -> bool {
        let Some(gen) = self.folios.lru_gen(f) else {
            return false;
        };
        let lv = self.folios.lruvec[f as usize];
        if !reclaiming && self.lruvecs[lv as usize].lrugen.is_active(gen) {
            self.folios.set(f, pg::ACTIVE);
        }
        self.folios.set_lru_gen(f, None);
        self.lru_gen_update_size(lv, f, Some(gen), None);
        self.gen_list_del(lv, f);
        true
    }

    /// Puts `f` on the list of generation slot `gen` (head, or tail).
    fn gen_list_add(&mut self, lv: LruvecId, f: FolioId, gen: usize, tail: bool) {
        let type_ = self.folios.type_of(f);
        let zone = self.folios.zone(f);
        self.folios.set_list_slot(f, gen);
        let list = &mut self.lruvecs[lv as usize].lrugen.folios[gen][type_][zone];
        if tail {
            list.add_tail(&mut self.folios, f);
        } else {
            list.add_head(&mut self.folios, f);
        }
    }

    /// Takes `f` off the generation list that holds it.
    fn gen_list_del(&mut self, lv: LruvecId, f: FolioId) {
        let type_ = self.folios.type_of(f);
        let zone = self.folios.zone(f);
        let slot = self.folios.list_slot(f);
        self.lruvecs[lv as usize].lrugen.folios[slot][type_][zone].del(&mut self.folios, f);
    }

    /// The sequence number that generation slot `gen` holds for `type_`.
    pub fn seq_of_gen(&self, lv: LruvecId, type_: usize, gen: usize) -> u64 {
        let g = &self.lruvecs[lv as usize].lrugen;
        let lo = g.min_seq[type_];
        lo + ((gen as u64 + MAX_NR_GENS - lo % MAX_NR_GENS) % MAX_NR_GENS)
    }

    // ------------------------------------------------------ refs and tiers

    /// folio_inc_refs() (mm/swap.c, v6.12; lru_gen_inc_refs in 6.14+): an fd
    /// access. The first sets PG_referenced, the second PG_workingset, later
    /// ones count LRU_REFS up to 3, so N accesses put a folio in tier
    /// order_base_2(N). No list move, no workingset_activation.
    pub fn folio_inc_refs(&mut self, f: FolioId) {
        if !self.folios.test(f, pg::REFERENCED) {
            self.folios.set(f, pg::REFERENCED);
            return;
        }
        if !self.folios.test(f, pg::WORKINGSET) {
            self.folios.set(f, pg::WORKINGSET);
            self.trace(f, "folio_inc_refs", FolioWhat::Refs { refs: 1, tier: 1 });
            return;
        }
        let refs = self.folios.refs_counter(f);
        if refs < (1 << LRU_REFS_WIDTH) - 1 {
            self.folios.set_refs_counter(f, refs + 1);
            let refs = self.folios.lru_refs(f);
            self.trace(f, "folio_inc_refs", FolioWhat::Refs { refs, tier: lru_tier_from_refs(refs) });
        }
    }

    /// folio_update_gen(): the page-table walk found the folio young and
    /// promotes it to `gen` in place (generation bits rewritten, refs
    /// cleared); it stays on its old list until sort_folio() moves it.
    /// Returns the old generation, or None if the folio was isolated.
    fn folio_update_gen(&mut self, f: FolioId, gen: usize) -> Option<usize> {
        let old = self.folios.lru_gen(f)?;
        self.folios.clear(f, pg::REFS_MASK | pg::REFS_FLAGS);
        self.folios.set_lru_gen(f, Some(gen));
        Some(old)
    }

    /// folio_inc_gen(): moves a folio of the oldest generation to the next
    /// one (refs cleared; PG_reclaim set when reclaiming). A folio already
    /// promoted in place keeps its newer generation. Returns the new slot;
    /// the caller moves it on the lists.
    fn folio_inc_gen(&mut self, lv: LruvecId, f: FolioId, reclaiming: bool) -> usize {
        let type_ = self.folios.type_of(f);
        let old_gen = lru_gen_from_seq(self.lruvecs[lv as usize].lrugen.min_seq[type_]);
        let cur = self.folios.lru_gen(f).expect("folio_inc_gen on a folio off the lists");
        if cur != old_gen {
            return cur;
        }
        let new_gen = (old_gen + 1) % MAX_NR_GENS as usize;
        self.folios.clear(f, pg::REFS_MASK | pg::REFS_FLAGS);
        self.folios.set_lru_gen(f, Some(new_gen));
        if reclaiming {
            self.folios.set(f, pg::RECLAIM);
        }
        self.lru_gen_update_size(lv, f, Some(old_gen), Some(new_gen));
        new_gen
    }

    /// Moves `f` to the head or tail of the list of slot `to`
    /// (list_move / list_move_tail).
    fn move_folio(&mut self, lv: LruvecId, f: FolioId, to: usize, tail: bool) {
        self.gen_list_del(lv, f);
        self.gen_list_add(lv, f, to, tail);
    }

    /// lru_gen_look_around() (simplified): while checking a young PTE during
    /// eviction, the kernel also scans a window of 64 PTEs around it (its
    /// own included, shifted to stay within the PMD and the VMA) and moves
    /// their young folios to max_seq: in place when the reclaimer has an mm
    /// walk (`walk`: set_mm_walk, see `ScanControl::mm_walk`), else through
    /// folio_activate(), which counts PGACTIVATE. Here the window is the
    /// pages idx-32..idx+31 of the same mapping, clipped at its ends.
    /// An aging pass (try_to_inc_max_seq) leaves its walk to the rest of
    /// that lru_gen_shrink_node call (root reclaim) or lru_gen_shrink_lruvec
    /// call (memcg reclaim): `ScanControl::mm_walk`.
    pub fn lru_gen_look_around(&mut self, f: FolioId, walk: bool) {
        let m = self.folios.mapping[f as usize];
        let idx = self.folios.index[f as usize] as i64;
        let lv = self.folios.lruvec[f as usize];
        let gen = lru_gen_from_seq(self.lruvecs[lv as usize].lrugen.max_seq);
        let len = self.mappings[m as usize].slots.len() as i64;
        for i in (idx - 32).max(0)..(idx + 32).min(len) {
            if i == idx {
                continue;
            }
            if let crate::mm::filemap::Slot::Folio(g) = self.slot(m, i as u32) {
                let fl = self.folios.flags[g as usize];
                if fl & pg::YOUNG != 0 && fl & pg::MAPPED != 0 && self.folios.lruvec[g as usize] == lv {
                    self.folios.clear(g, pg::YOUNG);
                    // With a walk, folio_update_gen() (refs cleared); without
                    // one, v6.12 reads folio_lru_gen() and calls
                    // folio_activate() on a folio not yet in max_seq, which
                    // keeps its refs (v6.13 clears them first).
                    let old = if walk {
                        self.folio_update_gen(g, gen)
                    } else {
                        let old = self.folios.lru_gen(g);
                        if old.is_some_and(|old| old != gen) {
                            self.folios.set_lru_gen(g, Some(gen));
                        }
                        old
                    };
                    match old {
                        Some(old) if old != gen => {
                            self.lru_gen_update_size(lv, g, Some(old), Some(gen));
                            if !walk {
                                let memcg = self.lruvec_memcg(lv);
                                self.count(memcg, Item::Pgactivate, 1, true);
                            }
                            let seq = self.lruvecs[lv as usize].lrugen.max_seq;
                            self.trace(g, "lru_gen_look_around", FolioWhat::LookAround { seq });
                        }
                        Some(_) => {}
                        None => self.folios.set(g, pg::REFERENCED),
                    }
                }
            }
        }
    }
}
