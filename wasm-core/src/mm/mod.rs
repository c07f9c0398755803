//! The memory-management model: one file per kernel mechanism.
//!
//! [`Mm`] is the whole simulated machine's mm state (the kernel's global
//! state plus every `pglist_data`, `mem_cgroup` and `lruvec`). Mechanisms are
//! `impl Mm` blocks in their own files, named after the kernel functions they
//! mirror: [`mglru`] (mm/vmscan.c multi-gen LRU), [`workingset`]
//! (mm/workingset.c), [`vmscan`] (shrink_node, do_try_to_free_pages),
//! [`memcontrol`] (charging, memory.max), [`page_alloc`], [`swap`],
//! [`filemap`] (page cache and faults).
use serde::{Deserialize, Serialize};

pub mod classic;
pub mod filemap;
pub mod kswapd;
pub mod folio;
pub mod folio_list;
pub mod list;
pub mod lruvec;
pub mod machine;
pub mod memcg_lru;
pub mod memcontrol;
pub mod mglru;
pub mod mglru_v61;
pub mod page_alloc;
pub mod pgdat;
pub mod refault;
pub mod policy;
pub mod swap;
pub mod throttle;
pub mod trace;
pub mod vmscan;
pub mod vmstat;
pub mod workingset;
pub mod writeback;

use crate::event::EventLog;
use crate::rng::Rng;
use folio::{FolioId, Folios};
use lruvec::Lruvec;
use memcontrol::MemCgroup;
use pgdat::PgData;
use swap::SwapInfo;
use vmstat::{Counters, Item};

/// DEF_PRIORITY: scan size at priority p is `size >> p`.
pub const DEF_PRIORITY: u32 = 12;
/// SWAP_CLUSTER_MAX: the unit of reclaim batches.
pub const SWAP_CLUSTER_MAX: u64 = 32;
/// MAX_RECLAIM_RETRIES (mm/internal.h).
pub const MAX_RECLAIM_RETRIES: u32 = 16;
/// MAX_SWAPPINESS.
pub const MAX_SWAPPINESS: u32 = 200;
/// Default vm_swappiness.
pub const DEFAULT_SWAPPINESS: u32 = 60;
/// Type indices of MGLRU (LRU_GEN_ANON, LRU_GEN_FILE).
pub const LRU_GEN_ANON: usize = 0;
pub const LRU_GEN_FILE: usize = 1;
pub const ANON_AND_FILE: usize = 2;
/// MAX_NR_ZONES (DMA, DMA32, NORMAL, MOVABLE; no HIGHMEM on 64-bit).
pub const MAX_NR_ZONES: usize = 4;

pub type MemcgId = u16;
pub type LruvecId = u16;
pub type MappingId = u32;

/// Switches: kernel behaviour that the scenario (and later, the patch
/// experiments) choose. Defaults are the v6.12 baseline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Knobs {
    /// CONFIG_LRU_GEN with /sys/kernel/mm/lru_gen/enabled = y.
    pub lru_gen_enabled: bool,
    /// vm.swappiness (0..=200); a memcg may override it.
    pub swappiness: u32,
    /// Patch 002 (v4.12, "prevent kswapd sleeping prematurely due to
    /// mismatched classzone_idx"): with no recent wakeup kswapd's zone index
    /// reads MAX_NR_ZONES ("unset", so sleep decisions use the zone it was
    /// balancing for) instead of 0 (ZONE_DMA). true = v4.12 and later.
    pub kswapd_classzone_fix: bool,
    /// "mm, vmscan: prevent useless kswapd loops" (v5.3, dffcac2cb88e,
    /// Fixes: patch 002): after kswapd_try_to_sleep() returns without a new
    /// wakeup, kswapd keeps the zone index of its last run. Patch 002 as
    /// merged (v4.12-v5.2) read it with kswapd_classzone_idx(pgdat, 0), so
    /// a nap that ended with the node unbalanced, or a balance_pgdat() that
    /// could not balance, was followed by a run and a sleep check for
    /// ZONE_DMA alone. Only matters with `kswapd_classzone_fix`. true = v5.3+.
    pub kswapd_useless_loops_fix: bool,
    /// Patch 001 (v6.3, "multi-gen LRU: memcg LRU"): with MGLRU, global and
    /// root reclaim pick memcgs from the per-node memcg LRU (shrink_many)
    /// instead of walking them all with mem_cgroup_iter. true = v6.3 and later.
    pub memcg_lru: bool,
    /// Patch 003: how memory.reclaim sizes its rounds.
    pub proactive_batch: memcontrol::ProactiveBatch,
    /// Kernels before ~6.11: shrink_node_memcgs() visits every memcg of the
    /// subtree on every pass instead of a partial walk with a shared
    /// iterator. false = v6.12.
    pub memcg_full_walk: bool,
    /// Patch 000 (v6.1, "multi-gen LRU: optimize multiple memcgs"): applies
    /// to MGLRU without the memcg LRU (v6.1/6.2). kswapd first reclaims
    /// memcgs that can evict without aging, and the eviction loop backs off.
    /// false = the MGLRU series before it.
    pub optimize_multiple_memcgs: bool,
    /// Patch 004 (RFC v3, 2023, not merged): MGLRU also checks the shadow's
    /// refault distance against the (simplified) workingset size: a refault
    /// within it is activated or promoted a tier, even when its generation
    /// is gone. false = mainline.
    pub refault_distance_mglru: bool,
    /// "mm/mglru: fix underprotected page cache" (v6.7, 081488051d28, also
    /// in 6.1.y/6.6.y stable): folios read through file descriptors start in
    /// the second oldest generation, sort_folio protects a folio whose refs
    /// are saturated, and a refault with refs >= 3 gets its refs back.
    /// false = the MGLRU of v6.1-v6.6 (what patch 004 was posted against):
    /// such folios start in the oldest generation, anon not in the swap
    /// cache in the second oldest, and only tiers protect. true = v6.7+.
    pub mglru_underprotection_fix: bool,
    /// "Multi-gen LRU: fix workingset accounting" (Kalesh Singh, v6.5):
    /// lru_gen_refault counts WORKINGSET_REFAULT for every refault into the
    /// shadow's own lruvec and WORKINGSET_ACTIVATE for a recent one. false =
    /// MGLRU of v6.1-v6.4: only a recent refault (generation still the
    /// oldest) counted as a refault at all, and sort_folio counted
    /// WORKINGSET_ACTIVATE when a tier protected a folio. Counters only: no
    /// reclaim decision reads them. true = v6.5+.
    pub mglru_workingset_accounting_fix: bool,
    /// A textbook replacement policy instead of the kernel's (exact LRU,
    /// CLOCK, S3-FIFO; see [`policy`]), for comparisons such as trace
    /// replay. Needs `lru_gen_enabled` off. None = the kernel's LRU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<policy::Baseline>,
}

impl Default for Knobs {
    fn default() -> Self {
        Knobs { lru_gen_enabled: true, swappiness: DEFAULT_SWAPPINESS, kswapd_classzone_fix: true, kswapd_useless_loops_fix: true, memcg_lru: true, proactive_batch: memcontrol::ProactiveBatch::Decaying, memcg_full_walk: false, optimize_multiple_memcgs: true, refault_distance_mglru: false, mglru_underprotection_fix: true, mglru_workingset_accounting_fix: true, baseline: None }
    }
}

/// The task running now (the kernel's `current`): who it is and what it
/// allocates with (its gfp mask).
#[derive(Clone, Copy, Debug)]
pub struct Current {
    /// gfp_zone() of its allocations.
    pub highest_zoneidx: usize,
    /// Its index in [`Mm::comms`]; None for kswapd and the engine's own work.
    pub task: Option<u32>,
}

impl Default for Current {
    /// GFP_HIGHUSER_MOVABLE.
    fn default() -> Self {
        Current { highest_zoneidx: MAX_NR_ZONES - 1, task: None }
    }
}

/// What an address space caches: a file's pages or a process's anonymous memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MappingKind {
    File,
    Anon,
}

/// An address space: `struct address_space` for files (its xarray of folios
/// and shadows) or the anonymous memory of one region of a process (its page
/// table entries, which hold either a folio or a swap entry).
#[derive(Clone, Debug)]
pub struct AddressSpace {
    pub name: String,
    pub kind: MappingKind,
    /// The memcg that owns the region (anon) or that first-touch charges go to.
    pub memcg: MemcgId,
    /// One slot per page: see [`filemap::Slot`].
    pub slots: Vec<u64>,
    /// Tracked sample: pages 0, stride, 2*stride, ... (tracked_count of them).
    pub tracked_stride: u32,
    pub tracked_count: u32,
}

/// The simulated machine's memory management state.
#[derive(Clone, Debug)]
pub struct Mm {
    pub knobs: Knobs,
    pub folios: Folios,
    pub nodes: Vec<PgData>,
    pub memcgs: Vec<MemCgroup>,
    /// Indexed by `memcg * nodes.len() + node` (mem_cgroup_lruvec()).
    pub lruvecs: Vec<Lruvec>,
    pub mappings: Vec<AddressSpace>,
    pub swap: SwapInfo,
    /// /proc/vmstat event counters.
    pub vmstat: Counters,
    /// Simulated time in nanoseconds (the engine's jiffies).
    pub now_ns: u64,
    /// Randomness of kernel decisions that the kernel takes at random.
    pub rng: Rng,
    pub events: EventLog,
    /// totalram_pages(), for bucket_order.
    pub totalram_pages: u64,
    /// Simulated time spent by the current actor (task or reclaimer) since
    /// the caller last took it; the simulation charges it to the actor.
    pub cost_ns: u64,
    /// The storage device is busy until this time (io_service_ns per I/O).
    pub io_busy_until: u64,
    /// Of `cost_ns`, the time the current actor waited without a CPU.
    pub io_wait_ns: u64,
    /// The storage device and the CPU count (the scenario's `machine`).
    pub machine: machine::Machine,
    /// CPU sharing between actors when `machine.cpus` is set.
    pub cpu: machine::CpuShare,
    /// Page-cache folios dirtied since the flusher last ran.
    pub dirty_list: Vec<(u64, FolioId)>,
    /// When the flusher next looks for dirty page cache older than
    /// dirty_expire_centisecs (wb_check_old_data_flush).
    pub next_kupdate_ns: u64,
    /// Writes in flight: (completion time, folio), in completion order.
    pub writeback: std::collections::VecDeque<(u64, FolioId)>,
    /// Decisions about tracked folios in the current step.
    pub traces: Vec<trace::FolioTrace>,
    /// The task on whose behalf the engine runs now.
    pub current: Current,
    /// Each task's name (`current->comm`), by [`Current::task`]: the
    /// workloads' tasks, then the memory.reclaim writers. Events name the
    /// task that reclaimed or slept.
    pub comms: Vec<crate::event::Reclaimer>,
    /// mem_cgroup_iter's shared reclaim iterators: (target, node) -> the
    /// position in the target's subtree where the next partial walk starts.
    pub memcg_iter: std::collections::BTreeMap<(MemcgId, usize), usize>,
}

impl Mm {
    /// The name of the task running now, if a task is (current->comm), for
    /// an event; None too when events are not recorded (nobody reads it).
    pub fn current_comm(&self) -> Option<crate::event::Reclaimer> {
        if !self.events.enabled {
            return None;
        }
        self.current.task.and_then(|t| self.comms.get(t as usize)).cloned()
    }

    pub fn nr_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// mem_cgroup_lruvec(memcg, pgdat).
    #[inline]
    pub fn lruvec_id(&self, memcg: MemcgId, node: usize) -> LruvecId {
        (memcg as usize * self.nodes.len() + node) as LruvecId
    }

    #[inline]
    pub fn lruvec_memcg(&self, lv: LruvecId) -> MemcgId {
        (lv as usize / self.nodes.len()) as MemcgId
    }

    #[inline]
    pub fn lruvec_node(&self, lv: LruvecId) -> usize {
        lv as usize % self.nodes.len()
    }

    /// The node a folio's page frame belongs to.
    pub fn folio_node(&self, f: FolioId) -> usize {
        self.nodes.iter().position(|n| f >= n.start_pfn && f < n.end_pfn()).expect("folio id within a node")
    }

    /// Bytes of heap the model holds, by part: (folio table, address-space
    /// slots, everything else: lruvecs, memcgs, swap, queues).
    pub fn memory_bytes(&self) -> (usize, usize, usize) {
        let folios = self.folios.len() * Folios::BYTES_PER_FOLIO;
        let slots: usize = self.mappings.iter().map(|a| a.slots.capacity() * 8).sum();
        let lruvecs = self.lruvecs.len() * std::mem::size_of::<Lruvec>() + self.lruvecs.iter().map(|l| l.mm_walk.capacity() * 4).sum::<usize>();
        let memcgs = self.memcgs.len() * (std::mem::size_of::<MemCgroup>() + vmstat::NR_ITEMS * 8);
        let swap = self.swap.pages as usize * (4 + 8 + 4);
        let queues = self.dirty_list.capacity() * 12 + self.writeback.capacity() * 16;
        (folios, slots, lruvecs + memcgs + swap + queues)
    }

    /// One 4 KiB I/O on the shared storage device, issued by the current
    /// actor at `now + cost_ns`: it waits for the device, occupies it for
    /// its service time (io_service_ns), and returns the time the actor waits for the device
    /// (queueing only; the caller adds the I/O's own latency).
    pub fn device_io(&mut self) -> u64 {
        let t = self.now_ns + self.cost_ns;
        let start = t.max(self.io_busy_until);
        self.io_busy_until = start + self.io_service_ns();
        start - t
    }

    /// An I/O nobody waits for (the flusher's writeback): occupies the
    /// device and returns when it completes.
    pub fn device_io_async(&mut self, latency: u64) -> u64 {
        let start = self.now_ns.max(self.io_busy_until);
        self.io_busy_until = start + self.io_service_ns();
        start + latency
    }

    /// __count_vm_events() plus __count_memcg_events() for the memcg and its
    /// ancestors (memory.stat is hierarchical).
    pub fn count(&mut self, memcg: MemcgId, item: Item, n: u64, global: bool) {
        if n == 0 {
            return;
        }
        if global {
            self.vmstat.add(item, n);
        }
        let mut m = Some(memcg);
        while let Some(id) = m {
            let cg = &mut self.memcgs[id as usize];
            cg.stat.add(item, n);
            m = cg.parent;
        }
    }

    /// WORKINGSET_ACTIVATE_ANON/FILE (`type_` 0/1) counted as the kernel's
    /// mod_lruvec_state() counts it: /proc/vmstat, memory.stat of `memcg`
    /// and its ancestors, and the lruvecs of those memcgs on `node` (what
    /// a node's reclaim compares, per node).
    pub fn count_workingset_activate(&mut self, memcg: MemcgId, node: usize, type_: usize) {
        self.count(memcg, vmstat::Item::WorkingsetActivateAnon.plus(type_), 1, true);
        // Up the tree as count() goes, without collecting the path (a refault is a hot path).
        let mut m = Some(memcg);
        while let Some(id) = m {
            let lv = self.lruvec_id(id, node);
            self.lruvecs[lv as usize].workingset_activate[type_] += 1;
            m = self.memcgs[id as usize].parent;
        }
    }

    /// __count_vm_event() alone: an event /proc/vmstat counts and
    /// memory.stat does not (pageoutrun, pgrotated, the kswapd wmark hits).
    pub fn count_global(&mut self, item: Item) {
        self.vmstat.add(item, 1);
    }
}
