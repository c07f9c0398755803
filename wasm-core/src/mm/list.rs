//! Index-linked doubly linked lists over the folio table's prev/next links
//! (the kernel's `struct list_head` embedded in `folio->lru`).
//!
//! "Head" is where `list_add` inserts (youngest); scanning pops from the
//! tail (`lru_to_folio(head->prev)`), as in the kernel.
use super::folio::{FolioId, Folios, NIL};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListHead {
    pub head: u32,
    pub tail: u32,
    pub len: u32,
}

impl Default for ListHead {
    fn default() -> Self {
        ListHead { head: NIL, tail: NIL, len: 0 }
    }
}

impl ListHead {
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// list_add(): insert at the head.
    pub fn add_head(&mut self, t: &mut Folios, f: FolioId) {
        let i = f as usize;
        t.prev[i] = NIL;
        t.next[i] = self.head;
        if self.head != NIL {
            t.prev[self.head as usize] = f;
        } else {
            self.tail = f;
        }
        self.head = f;
        self.len += 1;
    }

    /// list_add_tail(): insert at the tail (next to be scanned).
    pub fn add_tail(&mut self, t: &mut Folios, f: FolioId) {
        let i = f as usize;
        t.next[i] = NIL;
        t.prev[i] = self.tail;
        if self.tail != NIL {
            t.next[self.tail as usize] = f;
        } else {
            self.head = f;
        }
        self.tail = f;
        self.len += 1;
    }

    /// list_del(): unlink `f`, which must be on this list.
    pub fn del(&mut self, t: &mut Folios, f: FolioId) {
        let i = f as usize;
        let (p, n) = (t.prev[i], t.next[i]);
        if p != NIL {
            t.next[p as usize] = n;
        } else {
            debug_assert_eq!(self.head, f);
            self.head = n;
        }
        if n != NIL {
            t.prev[n as usize] = p;
        } else {
            debug_assert_eq!(self.tail, f);
            self.tail = p;
        }
        t.prev[i] = NIL;
        t.next[i] = NIL;
        self.len -= 1;
    }

    /// Removes and returns the tail (the oldest entry).
    pub fn pop_tail(&mut self, t: &mut Folios) -> Option<FolioId> {
        if self.tail == NIL {
            return None;
        }
        let f = self.tail;
        self.del(t, f);
        Some(f)
    }

    /// Removes and returns the head.
    pub fn pop_head(&mut self, t: &mut Folios) -> Option<FolioId> {
        if self.head == NIL {
            return None;
        }
        let f = self.head;
        self.del(t, f);
        Some(f)
    }

    /// Iterates from head to tail (for views and invariant checks).
    pub fn iter<'a>(&self, t: &'a Folios) -> ListIter<'a> {
        ListIter { t, cur: self.head }
    }
}

pub struct ListIter<'a> {
    t: &'a Folios,
    cur: u32,
}

impl Iterator for ListIter<'_> {
    type Item = FolioId;
    fn next(&mut self) -> Option<FolioId> {
        if self.cur == NIL {
            return None;
        }
        let f = self.cur;
        self.cur = self.t.next[f as usize];
        Some(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_del_pop_keep_order_and_length() {
        let mut t = Folios::with_capacity(8);
        let mut l = ListHead::default();
        for f in 0..4 {
            l.add_head(&mut t, f);
        }
        l.add_tail(&mut t, 4);
        assert_eq!(l.iter(&t).collect::<Vec<_>>(), vec![3, 2, 1, 0, 4]);
        l.del(&mut t, 1);
        assert_eq!(l.iter(&t).collect::<Vec<_>>(), vec![3, 2, 0, 4]);
        assert_eq!(l.pop_tail(&mut t), Some(4));
        assert_eq!(l.pop_head(&mut t), Some(3));
        assert_eq!(l.len, 2);
        assert_eq!(l.iter(&t).collect::<Vec<_>>(), vec![2, 0]);
        l.del(&mut t, 2);
        l.del(&mut t, 0);
        assert!(l.is_empty());
        assert_eq!((l.head, l.tail), (NIL, NIL));
    }
}
