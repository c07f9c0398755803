//! Exact LRU, a textbook policy (not a kernel one): one list per type, most
//! recently used at the head; every hit moves the folio to the head, and
//! reclaim takes folios from the tail. It is the reference the kernel's
//! approximations (the classic two-list LRU, MGLRU's generations) are
//! measured against.
use super::inactive_list;
use crate::mm::folio::{pg, FolioId, NIL};
use crate::mm::{LruvecId, Mm};

impl Mm {
    /// A hit: the folio becomes the most recently used.
    pub(crate) fn lru_mark_accessed(&mut self, f: FolioId) {
        if !self.folios.test(f, pg::LRU) {
            return;
        }
        let list = self.folio_lru_list(f);
        self.baseline_move_to_head(f, list);
    }

    /// Isolates the `want` least recently used folios of `type_`. Returns
    /// the folios looked at.
    pub(crate) fn lru_isolate(&mut self, lv: LruvecId, type_: usize, want: u64, list: &mut Vec<u32>) -> u64 {
        let l = inactive_list(type_);
        let mut scanned = 0;
        while (list.len() as u64) < want {
            let tail = self.lruvecs[lv as usize].lists[l].tail;
            if tail == NIL {
                break;
            }
            scanned += 1;
            self.baseline_isolate_one(tail, list);
        }
        scanned
    }
}
