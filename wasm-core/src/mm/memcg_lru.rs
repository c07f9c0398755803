//! The memcg LRU (mm/vmscan.c, include/linux/mmzone.h `struct lru_gen_memcg`;
//! patch 001): a per-node LRU of memcgs with two valid generations (old
//! and young, in three slots) and eight bins, used by global and root reclaim with MGLRU (v6.3+):
//! lru_gen_rotate_memcg, shrink_one, shrink_many, set_initial_priority,
//! lru_gen_shrink_node.
//!
//! Simplified: the kernel's RCU hlist_nulls walk becomes a walk by
//! successor on a deque (an entry rotated to the tail of the list being
//! walked is visited again, as in the kernel; the nulls-marker restart never
//! triggers because nothing else runs during the walk); no memcg offlining.
use std::collections::VecDeque;

use super::lruvec::MIN_LRU_BATCH;
use super::vmscan::ScanControl;
use super::{LruvecId, MemcgId, Mm, DEF_PRIORITY};
use crate::event::EventKind;

/// MEMCG_NR_GENS, MEMCG_NR_BINS. Only two generations are valid, old (seq)
/// and young (seq + 1); since "mm/mglru: respect min_ttl_ms with memcgs"
/// (v6.7) there are three slots, so that a stale seq read locklessly
/// (seq - 1) does not wrap around to young (mmzone.h's comment on
/// MEMCG_NR_GENS). The patch as posted had two; with one
/// thread the decisions are the same. The third slot is always empty.
pub const MEMCG_NR_GENS: usize = 3;
pub const MEMCG_NR_BINS: usize = 8;

/// lru_gen_rotate_memcg() ops (and lrugen.seg values for HEAD/TAIL).
pub const MEMCG_LRU_NOP: u8 = 0;
pub const MEMCG_LRU_HEAD: u8 = 1;
pub const MEMCG_LRU_TAIL: u8 = 2;
pub const MEMCG_LRU_OLD: u8 = 3;
pub const MEMCG_LRU_YOUNG: u8 = 4;

pub fn op_name(op: u8) -> &'static str {
    ["none", "HEAD", "TAIL", "OLD", "YOUNG"][op as usize]
}

/// `pgdat->memcg_lru`.
#[derive(Clone, Debug, Default)]
pub struct MemcgLru {
    pub seq: u64,
    pub nr_memcgs: [u64; MEMCG_NR_GENS],
    /// fifo[gen][bin]: lruvec ids, head first.
    pub fifo: [[VecDeque<LruvecId>; MEMCG_NR_BINS]; MEMCG_NR_GENS],
}

/// get_memcg_gen(seq).
pub fn get_memcg_gen(seq: u64) -> usize {
    (seq % MEMCG_NR_GENS as u64) as usize
}

impl Mm {
    /// lru_gen_online_memcg(): a new memcg joins the tail of one random bin
    /// (drawn once, the same on every node) of the old generation of every
    /// node.
    pub fn lru_gen_online_memcg(&mut self, memcg: MemcgId) {
        let bin = self.rng.below(MEMCG_NR_BINS as u64) as usize;
        for node in 0..self.nodes.len() {
            let lv = self.lruvec_id(memcg, node);
            let gen = get_memcg_gen(self.nodes[node].memcg_lru.seq);
            let l = &mut self.lruvecs[lv as usize].lrugen;
            l.gen = gen as u8;
            l.seg = 0;
            let lru = &mut self.nodes[node].memcg_lru;
            lru.fifo[gen][bin].push_back(lv);
            lru.nr_memcgs[gen] += 1;
        }
    }

    /// lru_gen_rotate_memcg(): move a lruvec within the memcg LRU, to a
    /// random bin: HEAD/TAIL keep its generation (marking the segment), OLD
    /// moves it to the head of the old generation, YOUNG to the tail of the
    /// young one. When the old generation empties, seq advances and the young
    /// generation becomes the old one.
    pub fn lru_gen_rotate_memcg(&mut self, lv: LruvecId, op: u8) {
        let node = self.lruvec_node(lv);
        let bin = self.rng.below(MEMCG_NR_BINS as u64) as usize;
        let seq = self.nodes[node].memcg_lru.seq;
        let old = self.lruvecs[lv as usize].lrugen.gen as usize;
        let (new, seg) = match op {
            MEMCG_LRU_HEAD => (old, MEMCG_LRU_HEAD),
            MEMCG_LRU_TAIL => (old, MEMCG_LRU_TAIL),
            MEMCG_LRU_OLD => (get_memcg_gen(seq), 0),
            _ => (get_memcg_gen(seq + 1), 0),
        };
        let l = &mut self.lruvecs[lv as usize].lrugen;
        l.seg = seg;
        l.gen = new as u8;
        let lru = &mut self.nodes[node].memcg_lru;
        for list in lru.fifo[old].iter_mut() {
            if let Some(pos) = list.iter().position(|&x| x == lv) {
                list.remove(pos);
                break;
            }
        }
        if op == MEMCG_LRU_HEAD || op == MEMCG_LRU_OLD {
            lru.fifo[new][bin].push_front(lv);
        } else {
            lru.fifo[new][bin].push_back(lv);
        }
        lru.nr_memcgs[old] -= 1;
        lru.nr_memcgs[new] += 1;
        let flipped = lru.nr_memcgs[old] == 0 && old == get_memcg_gen(lru.seq);
        if flipped {
            lru.seq += 1;
        }
        let now = self.now_ns;
        let path = self.memcgs[self.lruvec_memcg(lv) as usize].path.clone();
        self.events.push(now, || EventKind::MemcgRotated { node, memcg: path, op, gen: new, bin, flipped });
    }

    /// lruvec_is_sizable(): big enough to be worth scanning at this priority
    /// (total >> priority > 0).
    fn lruvec_is_sizable(&self, lv: LruvecId, sc: &ScanControl) -> bool {
        let can_swap = self.get_swappiness(lv, sc) != 0;
        let g = &self.lruvecs[lv as usize].lrugen;
        let mut total = 0u64;
        for type_ in usize::from(!can_swap)..2 {
            for seq in g.min_seq[type_]..=g.max_seq {
                total += g.gen_size(super::lruvec::lru_gen_from_seq(seq), type_);
            }
        }
        (total >> sc.priority) > 0
    }

    /// shrink_one() (v6.12): below memory.min -> YOUNG; below memory.low ->
    /// TAIL once (then reclaimed, counting MEMCG_LOW); otherwise
    /// try_to_shrink_lruvec(): aged -> YOUNG; not aged but sizable -> stay;
    /// too small -> TAIL once, then YOUNG.
    pub fn shrink_one(&mut self, lv: LruvecId, sc: &mut ScanControl) -> u8 {
        let memcg = self.lruvec_memcg(lv);
        if self.mem_cgroup_below_min(None, memcg) {
            return MEMCG_LRU_YOUNG;
        }
        if self.mem_cgroup_below_low(None, memcg) {
            if self.lruvecs[lv as usize].lrugen.seg != MEMCG_LRU_TAIL {
                return MEMCG_LRU_TAIL;
            }
            self.memcg_memory_event(memcg, super::memcontrol::MemcgEvent::Low);
        }
        self.cost_ns += crate::cost::SHRINK_LRUVEC_NS;
        let success = self.try_to_shrink_lruvec(lv, sc);
        if success {
            return MEMCG_LRU_YOUNG;
        }
        if self.lruvec_is_sizable(lv, sc) {
            return MEMCG_LRU_NOP;
        }
        if self.lruvecs[lv as usize].lrugen.seg != MEMCG_LRU_TAIL {
            MEMCG_LRU_TAIL
        } else {
            MEMCG_LRU_YOUNG
        }
    }

    /// shrink_many(): walk the old generation from a random bin (sharding),
    /// shrink_one() each memcg whose generation still is the old one, apply
    /// each memcg's rotation after moving past it, and stop as soon as
    /// should_abort_scan() says so; otherwise go on bin by bin until back at
    /// the first.
    pub fn shrink_many(&mut self, node: usize, sc: &mut ScanControl) {
        let gen = get_memcg_gen(self.nodes[node].memcg_lru.seq);
        let first_bin = self.rng.below(MEMCG_NR_BINS as u64) as usize;
        let mut bin = first_bin;
        loop {
            let mut pending: Option<(LruvecId, u8)> = None;
            let mut cur = self.nodes[node].memcg_lru.fifo[gen][bin].front().copied();
            let mut aborted = false;
            while let Some(lv) = cur {
                if let Some((plv, op)) = pending.take() {
                    if op != MEMCG_LRU_NOP {
                        self.lru_gen_rotate_memcg(plv, op);
                    }
                }
                if self.lruvecs[lv as usize].lrugen.gen as usize == gen {
                    let op = self.shrink_one(lv, sc);
                    pending = Some((lv, op));
                    if self.should_abort_scan(lv, sc) {
                        aborted = true;
                    }
                }
                // The successor of lv in this list now (lv itself has not moved yet).
                let list = &self.nodes[node].memcg_lru.fifo[gen][bin];
                cur = list.iter().position(|&x| x == lv).and_then(|p| list.get(p + 1).copied());
                if aborted {
                    break;
                }
            }
            if let Some((plv, op)) = pending {
                if op != MEMCG_LRU_NOP {
                    self.lru_gen_rotate_memcg(plv, op);
                }
            }
            if aborted {
                return;
            }
            bin = (bin + 1) % MEMCG_NR_BINS;
            if bin == first_bin {
                return;
            }
        }
    }

    /// set_initial_priority(): at DEF_PRIORITY with nr_to_reclaim >= 64,
    /// start at the priority where (inactive >> priority) ~ nr_to_reclaim,
    /// clamped to [DEF_PRIORITY / 2, DEF_PRIORITY].
    pub fn set_initial_priority(&self, node: usize, sc: &mut ScanControl) {
        if sc.priority != DEF_PRIORITY || sc.nr_to_reclaim < MIN_LRU_BATCH {
            return;
        }
        let mut reclaimable = 0u64;
        // can_reclaim_anon_pages(NULL, nid, sc): any free swap slot.
        let can_swap = self.swap.nr_free() > 0;
        for m in 0..self.memcgs.len() {
            let sizes = self.lruvecs[self.lruvec_id(m as MemcgId, node) as usize].lru_sizes(true);
            reclaimable += sizes[2];
            if can_swap {
                reclaimable += sizes[0];
            }
        }
        let fls = |x: u64| 64 - x.leading_zeros() as i64;
        let priority = fls(reclaimable) - 1 - fls(sc.nr_to_reclaim - 1);
        sc.priority = priority.clamp(i64::from(DEF_PRIORITY / 2), i64::from(DEF_PRIORITY)) as u32;
    }

    /// lru_gen_shrink_node(): root reclaim (kswapd, direct reclaim, the root's
    /// memory.reclaim) with MGLRU and the memcg LRU. Skipped when it may not
    /// write or unmap ("unmapped clean folios are already prioritized").
    pub fn lru_gen_shrink_node(&mut self, node: usize, sc: &mut ScanControl) {
        let reclaimed = sc.nr_reclaimed;
        if sc.may_writepage && sc.may_unmap {
            // set_mm_walk(pgdat, sc->proactive) ... clear_mm_walk().
            sc.mm_walk = sc.kswapd || sc.proactive;
            self.set_initial_priority(node, sc);
            if sc.kswapd {
                sc.nr_reclaimed = 0;
            }
            self.shrink_many(node, sc);
            if sc.kswapd {
                sc.nr_reclaimed += reclaimed;
            }
        }
        if sc.nr_reclaimed > reclaimed {
            self.nodes[node].kswapd.failures = 0;
        }
    }
}
