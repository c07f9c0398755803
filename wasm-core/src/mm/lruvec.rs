//! `struct lruvec`: the LRU lists of one memcg on one node, in both shapes
//! (the multi-gen LRU's `struct lru_gen_folio` and the classic
//! active/inactive lists), plus the workingset state (nonresident_age).
//!
//! Which shape is in use follows `Knobs::lru_gen_enabled`; a scenario does not
//! switch at run time (the kernel drains and converts the lists when
//! /sys/kernel/mm/lru_gen/enabled changes; the simulator does not model that).

use super::folio::FolioId;
use super::list::ListHead;
use super::{MemcgId, ANON_AND_FILE, MAX_NR_ZONES};

/// MIN_NR_GENS, MAX_NR_GENS, MAX_NR_TIERS, NR_HIST_GENS (include/linux/mmzone.h).
pub const MIN_NR_GENS: u64 = 2;
pub const MAX_NR_GENS: u64 = 4;
pub const MAX_NR_TIERS: usize = 4;
pub const NR_HIST_GENS: usize = 1;
/// MIN_LRU_BATCH = BITS_PER_LONG, MAX_LRU_BATCH = MIN_LRU_BATCH * 64.
pub const MIN_LRU_BATCH: u64 = 64;
pub const MAX_LRU_BATCH: u64 = 4096;

/// lru_gen_from_seq(): the list slot of a sequence number.
#[inline]
pub fn lru_gen_from_seq(seq: u64) -> usize {
    (seq % MAX_NR_GENS) as usize
}

/// lru_hist_from_seq().
#[inline]
pub fn lru_hist_from_seq(seq: u64) -> usize {
    (seq % NR_HIST_GENS as u64) as usize
}

type PerGen<T> = [[[T; MAX_NR_ZONES]; ANON_AND_FILE]; MAX_NR_GENS as usize];

/// `struct lru_gen_folio` (include/linux/mmzone.h).
#[derive(Clone, Debug)]
pub struct LruGenFolio {
    /// The youngest generation; only increases.
    pub max_seq: u64,
    /// The oldest generation of each type; only increases.
    pub min_seq: [u64; ANON_AND_FILE],
    /// Birth time (simulated ns) of each generation slot.
    pub timestamps: [u64; MAX_NR_GENS as usize],
    /// folios[gen][type][zone]: where folios physically sit.
    pub folios: PerGen<ListHead>,
    /// nr_pages[gen][type][zone]: sizes by the folios' generation bits. These
    /// differ from the list lengths after aging promotes folios in place
    /// (folio_update_gen) until eviction sorts them (sort_folio "promoted").
    pub nr_pages: PerGen<i64>,
    pub avg_refaulted: [[u64; MAX_NR_TIERS]; ANON_AND_FILE],
    pub avg_total: [[u64; MAX_NR_TIERS]; ANON_AND_FILE],
    /// protected[hist][type][tier - 1]: tier 0 is never protected.
    pub protected: [[[u64; MAX_NR_TIERS - 1]; ANON_AND_FILE]; NR_HIST_GENS],
    pub evicted: [[[u64; MAX_NR_TIERS]; ANON_AND_FILE]; NR_HIST_GENS],
    pub refaulted: [[[u64; MAX_NR_TIERS]; ANON_AND_FILE]; NR_HIST_GENS],
    /// memcg LRU membership: generation (0..MEMCG_NR_GENS, a seq modulo 3)
    /// and segment (0, HEAD, TAIL).
    pub gen: u8,
    pub seg: u8,
    /// The tier_idx isolate_folios last scanned each type with: sort_folio
    /// protects the tiers above it. None until the type is first scanned.
    /// Not in the kernel (a local of isolate_folios there); kept for the views.
    pub tier_idx: [Option<u8>; ANON_AND_FILE],
}

impl LruGenFolio {
    /// lru_gen_init_lruvec(): max_seq = MIN_NR_GENS + 1, min_seq = 0, so the
    /// lruvec starts with four (empty) generations.
    pub fn new(now: u64) -> Self {
        LruGenFolio {
            max_seq: MIN_NR_GENS + 1,
            min_seq: [0; ANON_AND_FILE],
            timestamps: [now; MAX_NR_GENS as usize],
            folios: Default::default(),
            nr_pages: Default::default(),
            avg_refaulted: Default::default(),
            avg_total: Default::default(),
            protected: Default::default(),
            evicted: Default::default(),
            refaulted: Default::default(),
            gen: 0,
            seg: 0,
            tier_idx: [None; ANON_AND_FILE],
        }
    }

    /// get_nr_gens(lruvec, type).
    #[inline]
    pub fn nr_gens(&self, type_: usize) -> u64 {
        self.max_seq - self.min_seq[type_] + 1
    }

    /// Pages of one type in generation slot `gen`, over all zones.
    pub fn gen_size(&self, gen: usize, type_: usize) -> u64 {
        self.nr_pages[gen][type_].iter().map(|&n| n.max(0) as u64).sum()
    }

    /// Pages on the lists of slot `gen` (physical placement).
    pub fn list_size(&self, gen: usize, type_: usize) -> u64 {
        self.folios[gen][type_].iter().map(|l| u64::from(l.len)).sum()
    }

    /// lru_gen_is_active(): the two youngest generations count as "active".
    pub fn is_active(&self, gen: usize) -> bool {
        gen == lru_gen_from_seq(self.max_seq) || gen == lru_gen_from_seq(self.max_seq - 1)
    }
}

/// enum lru_list for the classic LRU.
pub const LRU_INACTIVE_ANON: usize = 0;
pub const LRU_ACTIVE_ANON: usize = 1;
pub const LRU_INACTIVE_FILE: usize = 2;
pub const LRU_ACTIVE_FILE: usize = 3;
pub const LRU_UNEVICTABLE: usize = 4;
pub const NR_LRU_LISTS: usize = 5;

#[derive(Clone, Debug)]
pub struct Lruvec {
    pub memcg: MemcgId,
    pub node: usize,
    pub lrugen: LruGenFolio,
    /// Classic lists[NR_LRU_LISTS]: one list per LRU across zones (the
    /// node-based LRU); folios of zones above reclaim_idx are skipped when
    /// isolating.
    pub lists: [ListHead; NR_LRU_LISTS],
    /// Per-zone sizes of the classic lists (lruvec_lru_size by zone).
    pub lru_zone_size: [[u64; MAX_NR_ZONES]; NR_LRU_LISTS],
    pub anon_cost: u64,
    pub file_cost: u64,
    /// Workingset clock: grows with evictions (and activations).
    pub nonresident_age: u64,
    /// refaults[type] snapshot (snapshot_refaults()).
    pub refaults: [u64; ANON_AND_FILE],
    /// WORKINGSET_ACTIVATE_ANON/FILE of this lruvec, hierarchical (its
    /// memcg's descendants on the same node included): the lruvec_page_state
    /// that snapshot_refaults() and prepare_scan_control() compare.
    pub workingset_activate: [u64; ANON_AND_FILE],
    /// Folios whose PTE became young since the last aging: the simulator's
    /// stand-in for the page tables that walk_mm() would scan.
    pub mm_walk: Vec<FolioId>,
    /// LRUVEC_NODE_CONGESTED and LRUVEC_CGROUP_CONGESTED: every dirty page
    /// cache folio kswapd (node) or memcg reclaim (cgroup) met with this
    /// lruvec as its target was under writeback with PG_reclaim; direct
    /// and memcg reclaim of this target then stall (throttle.rs).
    pub node_congested: bool,
    pub cgroup_congested: bool,
}

impl Lruvec {
    pub fn new(memcg: MemcgId, node: usize, now: u64) -> Self {
        Lruvec {
            memcg,
            node,
            lrugen: LruGenFolio::new(now),
            lists: Default::default(),
            lru_zone_size: Default::default(),
            anon_cost: 0,
            file_cost: 0,
            nonresident_age: 0,
            refaults: [0; ANON_AND_FILE],
            workingset_activate: [0; ANON_AND_FILE],
            mm_walk: Vec::new(),
            node_congested: false,
            cgroup_congested: false,
        }
    }

    /// [inactive_anon, active_anon, inactive_file, active_file]: the
    /// lruvec's NR_LRU_BASE + lru page states. With MGLRU
    /// (lru_gen_update_size keeps them) the two youngest generations count
    /// as active (lru_gen_is_active).
    pub fn lru_sizes(&self, lru_gen: bool) -> [u64; 4] {
        if !lru_gen {
            return [self.lru_size(LRU_INACTIVE_ANON), self.lru_size(LRU_ACTIVE_ANON), self.lru_size(LRU_INACTIVE_FILE), self.lru_size(LRU_ACTIVE_FILE)];
        }
        let g = &self.lrugen;
        let mut out = [0u64; 4];
        for gen in 0..MAX_NR_GENS as usize {
            for t in 0..ANON_AND_FILE {
                out[t * 2 + usize::from(g.is_active(gen))] += g.gen_size(gen, t);
            }
        }
        out
    }

    /// Pages on the classic list `lru`, over all zones.
    pub fn lru_size(&self, lru: usize) -> u64 {
        u64::from(self.lists[lru].len)
    }

    /// lruvec_lru_size(lruvec, lru, zone_idx): pages of `lru` in zones <= zone_idx.
    pub fn lru_size_upto(&self, lru: usize, zone_idx: usize) -> u64 {
        self.lru_zone_size[lru][..=zone_idx].iter().sum()
    }
}
