//! CLOCK (second chance), a textbook policy (not a kernel one): the folios
//! of a type form a ring with the hand at the list's tail; a new folio goes
//! in just behind the hand (the head) with its reference bit clear, a hit
//! sets the bit (PG_referenced here). To evict, the hand looks at the folio
//! under it: referenced, it loses the bit and the hand moves past it (the
//! folio goes to the head); otherwise it is evicted.
use super::inactive_list;
use crate::mm::folio::{pg, NIL};
use crate::mm::{LruvecId, Mm};

impl Mm {
    /// Sweeps the hand until `want` folios of `type_` are isolated or the
    /// ring is empty. Returns the folios the hand passed. Ends: each pass
    /// over a folio clears its bit, so a second lap finds victims.
    pub(crate) fn clock_isolate(&mut self, lv: LruvecId, type_: usize, want: u64, list: &mut Vec<u32>) -> u64 {
        let l = inactive_list(type_);
        let mut scanned = 0;
        while (list.len() as u64) < want {
            let hand = self.lruvecs[lv as usize].lists[l].tail;
            if hand == NIL {
                break;
            }
            scanned += 1;
            if self.folios.test_clear(hand, pg::REFERENCED) {
                self.baseline_move_to_head(hand, l);
            } else {
                self.baseline_isolate_one(hand, list);
            }
        }
        scanned
    }
}
