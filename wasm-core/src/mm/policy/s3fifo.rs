//! S3-FIFO (Yang, Zhang, Qiu, Yue, Vinayak: "FIFO queues are all you need
//! for cache eviction", SOSP 2023), a textbook policy (not a kernel one).
//!
//! Three FIFO queues: a small queue S (10 % of the cache; the lruvec's
//! inactive list), a main queue M (the active list, PG_active set) and a
//! ghost queue G of pages recently evicted from S. Each resident folio has a
//! 2-bit frequency (the LRU_REFS bits), raised by hits up to 3. A miss
//! inserts into M if the page is in G, else into S, frequency 0. Eviction
//! takes from S while S holds at least 10 % of the cache: the tail of S moves
//! to M if its frequency is above 1 (evicting from M if that overfills it),
//! else it is evicted and joins G. Otherwise the tail of M is reinserted with
//! its frequency lowered by one while that is above 0, else evicted.
//!
//! The ghost queue is kept in the shadow entries, as the kernel keeps its
//! non-resident history: a page evicted from S leaves a shadow stamped with
//! the lruvec's count of ghost insertions (nonresident_age); on a refault
//! the page is in G if fewer than |M|'s capacity (90 % of the cache) ghost
//! insertions happened since. Simplified: a ghost entry that refaults does
//! not free its place for older ones, as removing it from a real FIFO would.
use super::{active_list, inactive_list};
use crate::mm::folio::{pg, FolioId, NIL};
use crate::mm::vmstat::Item;
use crate::mm::workingset::{pack_shadow, Shadow, EVICTION_MASK};
use crate::mm::{LruvecId, Mm};

/// The small queue's share of the cache, in percent.
pub const SMALL_PERCENT: u64 = 10;

impl Mm {
    /// A hit: frequency + 1, at most 3.
    pub(crate) fn s3fifo_mark_accessed(&mut self, f: FolioId) {
        let freq = self.folios.refs_counter(f);
        if freq < 3 {
            self.folios.set_refs_counter(f, freq + 1);
        }
    }

    /// Isolates `want` victims of `type_` (one more when moving a folio from
    /// S overfills M). The cache size is S + M when reclaim starts (the
    /// memcg is at its limit then); with M empty, S gives the victims
    /// whatever its size. Returns the folios looked at.
    pub(crate) fn s3fifo_isolate(&mut self, lv: LruvecId, type_: usize, want: u64, list: &mut Vec<FolioId>) -> u64 {
        let (s, m) = (inactive_list(type_), active_list(type_));
        let lists = &self.lruvecs[lv as usize].lists;
        let capacity = u64::from(lists[s].len + lists[m].len);
        let main_capacity = capacity - capacity * SMALL_PERCENT / 100;
        let mut scanned = 0;
        while (list.len() as u64) < want {
            let lists = &self.lruvecs[lv as usize].lists;
            let (s_len, m_len) = (u64::from(lists[s].len), u64::from(lists[m].len));
            if s_len + m_len == 0 {
                break;
            }
            if s_len > 0 && (s_len * 100 >= capacity * SMALL_PERCENT || m_len == 0) {
                scanned += self.s3fifo_evict_small(lv, s, m, main_capacity, list);
            } else {
                scanned += self.s3fifo_evict_main(lv, m, list);
            }
        }
        scanned
    }

    /// evictS: until one folio leaves S for G, move frequent ones to M.
    fn s3fifo_evict_small(&mut self, lv: LruvecId, s: usize, m: usize, main_capacity: u64, list: &mut Vec<FolioId>) -> u64 {
        let mut scanned = 0;
        loop {
            let t = self.lruvecs[lv as usize].lists[s].tail;
            if t == NIL {
                return scanned;
            }
            scanned += 1;
            if self.folios.refs_counter(t) > 1 {
                self.folios.set(t, pg::ACTIVE);
                self.baseline_move_to_head(t, s);
                let memcg = self.lruvec_memcg(lv);
                self.count(memcg, Item::Pgactivate, 1, true);
                if u64::from(self.lruvecs[lv as usize].lists[m].len) > main_capacity {
                    scanned += self.s3fifo_evict_main(lv, m, list);
                }
            } else {
                self.baseline_isolate_one(t, list);
                return scanned;
            }
        }
    }

    /// evictM: reinsert the tail while its frequency is above 0 (lowering
    /// it), evict the first one at 0.
    fn s3fifo_evict_main(&mut self, lv: LruvecId, m: usize, list: &mut Vec<FolioId>) -> u64 {
        let mut scanned = 0;
        loop {
            let t = self.lruvecs[lv as usize].lists[m].tail;
            if t == NIL {
                return scanned;
            }
            scanned += 1;
            let freq = self.folios.refs_counter(t);
            if freq > 0 {
                self.folios.set_refs_counter(t, freq - 1);
                self.baseline_move_to_head(t, m);
            } else {
                self.baseline_isolate_one(t, list);
                return scanned;
            }
        }
    }

    /// The shadow of an evicted folio: from S, a ghost entry stamped with the
    /// ghost clock (which then advances); from M, no ghost.
    pub(crate) fn s3fifo_eviction(&mut self, f: FolioId) -> u64 {
        let lv = self.folios.lruvec[f as usize];
        let (memcg, node) = (self.lruvec_memcg(lv), self.lruvec_node(lv));
        if self.folios.test(f, pg::ACTIVE) {
            return pack_shadow(memcg, node, 0, false);
        }
        let l = &mut self.lruvecs[lv as usize];
        let stamp = l.nonresident_age;
        l.nonresident_age += 1;
        pack_shadow(memcg, node, stamp, true)
    }

    /// Whether a shadow is still in the ghost queue of `lv`: left by an
    /// eviction from S of this lruvec fewer than |M|'s capacity ghost
    /// insertions ago.
    pub(crate) fn s3fifo_in_ghost(&self, lv: LruvecId, s: &Shadow) -> bool {
        if !s.workingset || self.lruvec_id(s.memcg, s.node) != lv {
            return false;
        }
        let l = &self.lruvecs[lv as usize];
        let cache: u64 = l.lists.iter().map(|x| u64::from(x.len)).sum();
        let ghost_capacity = (cache - cache * SMALL_PERCENT / 100).max(1);
        let distance = l.nonresident_age.wrapping_sub(s.eviction) & EVICTION_MASK;
        distance < ghost_capacity
    }
}
