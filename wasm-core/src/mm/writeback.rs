//! Dirty page-cache writeback: the flusher threads (fs/fs-writeback.c
//! `wakeup_flusher_threads`), completion (mm/filemap.c `folio_end_writeback`
//! with `folio_rotate_reclaimable`), and writer throttling
//! (mm/page-writeback.c `balance_dirty_pages`).
//!
//! Simplified: one flusher for the machine, woken when a memcg's dirty pages
//! pass dirty_background_ratio of its memory (memory.max, or all memory), by
//! reclaim that meets dirty folios, and every dirty_writeback_centisecs to
//! write what has been dirty longer than dirty_expire_centisecs (judged per
//! folio, where the kernel judges an inode by when it was first dirtied);
//! each write completes WRITEBACK_NS after it starts; a writer over
//! dirty_ratio waits for one write.
use super::folio::{pg, FolioId};
use super::vmstat::Item;
use super::{MemcgId, Mm};
use crate::cost;

/// vm.dirty_background_ratio and vm.dirty_ratio (percent).
pub const DIRTY_BACKGROUND_RATIO: u64 = 10;
pub const DIRTY_RATIO: u64 = 20;
/// vm.dirty_writeback_centisecs (500): how often the flusher wakes to write old dirty data.
pub const DIRTY_WRITEBACK_INTERVAL_NS: u64 = 5_000_000_000;
/// vm.dirty_expire_centisecs (3000): dirty data older than this is written by the periodic flush.
pub const DIRTY_EXPIRE_INTERVAL_NS: u64 = 30_000_000_000;

impl Mm {
    /// The memory a memcg's dirty limits are a share of.
    fn dirtyable_pages(&self, memcg: MemcgId) -> u64 {
        self.memcgs[memcg as usize].memory_max.min(self.totalram_pages)
    }

    /// folio_mark_dirty() for a page-cache folio: it joins the flusher's
    /// list; a writer over dirty_ratio is throttled (balance_dirty_pages);
    /// over dirty_background_ratio the flusher starts.
    pub fn folio_mark_dirty(&mut self, f: FolioId) {
        if self.folios.test(f, pg::DIRTY) {
            return;
        }
        self.folios.set(f, pg::DIRTY);
        if self.folios.test(f, pg::ANON) {
            return;
        }
        // folio_account_dirtied(): NR_DIRTIED.
        self.count_global(Item::NrDirtied);
        let memcg = self.lruvec_memcg(self.folios.lruvec[f as usize]);
        self.memcgs[memcg as usize].nr_dirty += 1;
        let now = self.now_ns + self.cost_ns;
        self.dirty_list.push((now, f));
        let dirty = self.memcgs[memcg as usize].nr_dirty + self.memcgs[memcg as usize].nr_writeback;
        let limit = self.dirtyable_pages(memcg);
        if dirty * 100 > limit * DIRTY_RATIO {
            // balance_dirty_pages(): wait for writeback to make progress (a write's time on the device).
            self.wait_ns(self.io_latency(cost::WRITEBACK_NS));
            self.wakeup_flusher_threads();
        } else if dirty * 100 > limit * DIRTY_BACKGROUND_RATIO {
            self.wakeup_flusher_threads();
        }
    }

    /// wakeup_flusher_threads(): start writeback of every dirty page-cache
    /// folio; each takes its turn on the device and completes WRITEBACK_NS
    /// after it starts.
    pub fn wakeup_flusher_threads(&mut self) {
        let mut list = std::mem::take(&mut self.dirty_list);
        for &(_, f) in &list {
            self.write_dirty_folio(f);
        }
        list.clear();
        self.dirty_list = list;
    }

    /// wb_check_old_data_flush() (for_kupdate writeback), every
    /// dirty_writeback_centisecs up to `t_ns`: start writeback of the page
    /// cache dirty for longer than dirty_expire_centisecs. The list is in
    /// the order the folios were dirtied, so the old ones come first.
    fn wb_check_old_data_flush(&mut self, t_ns: u64) {
        while self.next_kupdate_ns <= t_ns {
            let at = self.next_kupdate_ns;
            self.next_kupdate_ns += DIRTY_WRITEBACK_INTERVAL_NS;
            let old = self.dirty_list.partition_point(|&(since, _)| since.saturating_add(DIRTY_EXPIRE_INTERVAL_NS) <= at);
            if old == 0 {
                continue;
            }
            let expired: Vec<(u64, FolioId)> = self.dirty_list.drain(..old).collect();
            for (_, f) in expired {
                self.write_dirty_folio(f);
            }
        }
    }

    /// Starts writeback of `f` if it is still dirty page cache not under
    /// writeback (the flusher's list keeps folios that were written,
    /// redirtied or freed since).
    fn write_dirty_folio(&mut self, f: FolioId) {
        let fl = self.folios.flags[f as usize];
        if fl & pg::DIRTY == 0 || fl & pg::WRITEBACK != 0 || fl & pg::FREE != 0 || fl & pg::ANON != 0 {
            return;
        }
        let memcg = self.lruvec_memcg(self.folios.lruvec[f as usize]);
        self.folios.clear(f, pg::DIRTY);
        self.memcgs[memcg as usize].nr_dirty -= 1;
        self.folio_start_writeback(f);
        let done = self.storage_write_async(cost::WRITEBACK_NS);
        self.queue_writeback(done, f);
        self.count(memcg, Item::Pgpgout, 1, true);
    }

    /// A write of `f` in flight until `done`, kept in completion order.
    pub(crate) fn queue_writeback(&mut self, done: u64, f: FolioId) {
        let at = self.writeback.partition_point(|&(when, _)| when <= done);
        self.writeback.insert(at, (done, f));
    }

    /// __folio_start_writeback(): PG_writeback set, and the folio counts in
    /// its memcg's NR_WRITEBACK (page cache and swap alike), which the
    /// dirty limits read.
    pub(crate) fn folio_start_writeback(&mut self, f: FolioId) {
        self.folios.set(f, pg::WRITEBACK);
        let memcg = self.lruvec_memcg(self.folios.lruvec[f as usize]);
        self.memcgs[memcg as usize].nr_writeback += 1;
    }

    /// The folio is no longer under writeback: it leaves its memcg's
    /// `nr_writeback`.
    fn writeback_ended(&mut self, f: FolioId) {
        let memcg = self.lruvec_memcg(self.folios.lruvec[f as usize]);
        self.memcgs[memcg as usize].nr_writeback -= 1;
        self.folios.clear(f, pg::WRITEBACK);
    }

    /// folio_end_writeback() for every write finished by `t_ns`: a folio
    /// that reclaim marked PG_reclaim rotates to the tail of its LRU (the
    /// oldest generation with MGLRU) to be reclaimed next. Swap writes end
    /// here too (end_swap_bio_write).
    pub fn writeback_complete_until(&mut self, t_ns: u64) {
        if !self.dirty_list.is_empty() && self.next_kupdate_ns <= t_ns {
            self.wb_check_old_data_flush(t_ns);
        }
        while let Some(&(when, f)) = self.writeback.front() {
            if when > t_ns {
                break;
            }
            self.writeback.pop_front();
            // __folio_end_writeback(): NR_WRITTEN (page cache and swap).
            self.count_global(Item::NrWritten);
            self.writeback_ended(f);
            if self.folios.test_clear(f, pg::RECLAIM) && self.folios.test(f, pg::LRU) {
                self.folio_rotate_reclaimable(f);
            }
        }
    }

    /// folio_rotate_reclaimable() and lru_move_tail(): to the tail of the
    /// inactive list, or with MGLRU to the tail of the oldest generation
    /// (lru_gen_add_folio with reclaiming), counted as PGROTATED (global
    /// only, as __count_vm_events; memory.stat has no pgrotated). Not
    /// modelled: the per-CPU folio batch that defers the move.
    fn folio_rotate_reclaimable(&mut self, f: FolioId) {
        if self.folios.test(f, pg::DIRTY) || self.knobs.baseline.is_some() {
            // A baseline policy keeps its own order: the folio stays put.
            return;
        }
        self.count_global(Item::Pgrotated);
        if self.knobs.lru_gen_enabled {
            self.lru_gen_del_folio(f, true);
            self.folios.clear(f, pg::ACTIVE);
            self.lru_gen_add_folio(f, true);
        } else {
            self.classic_del_folio(f);
            self.folios.clear(f, pg::ACTIVE);
            let lv = self.folios.lruvec[f as usize];
            let lru = self.folio_lru_list(f);
            let zone = self.folios.zone(f);
            let l = &mut self.lruvecs[lv as usize];
            l.lists[lru].add_tail(&mut self.folios, f);
            l.lru_zone_size[lru][zone] += 1;
        }
    }
}
