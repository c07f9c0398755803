//! The simulation: builds the machine from a scenario, runs the tasks on the
//! simulated clock, and reports frames and counters.
//!
//! Stepping follows discrete-event simulators: `step()` advances the clock
//! by the scenario's `step_ns`, running every task action due before then in
//! time order (ties by task index); `run_until(t)`; `time()`. A checkpoint is
//! a clone of the whole state.
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

use crate::event::{EventLog, Reclaimer};
use crate::mm::folio::{pg, Folios};
use crate::mm::list::ListHead;
use crate::mm::lruvec::Lruvec;
use crate::mm::memcontrol::{MemCgroup, MemoryReclaim, PAGE_COUNTER_MAX};
use crate::mm::kswapd::Kswapd;
use crate::mm::pgdat::{self, PgData, Zone, ZoneType};
use crate::mm::swap::SwapInfo;
use crate::mm::trace::FolioTrace;
use crate::mm::vmstat::{Counters, Item};
use crate::mm::{AddressSpace, MappingId, MappingKind, MemcgId, Mm, MAX_NR_ZONES};
use crate::rng::Rng;
use crate::scenario::{parent_path, Scenario, ScenarioError};
use crate::workload::{Generator, Target, ZipfTables};

mod invariants;
mod tasks;
mod views;
pub use views::in_memory_stat;


/// A running workload.
#[derive(Clone, Debug)]
pub struct Task {
    pub name: String,
    pub memcg: MemcgId,
    pub node: usize,
    pub mapping: MappingId,
    pub gen: Generator,
    /// Simulated time of its next access.
    pub next_ns: u64,
    pub start_ns: u64,
    pub stop_ns: u64,
    /// gfp_zone() of its allocations.
    pub highest_zoneidx: usize,
    /// Free its anonymous memory when it ends.
    pub free_on_exit: bool,
    /// Minimum ns between accesses (1e9 / rate), 0 = unpaced.
    pub interval_ns: u64,
    /// Pace as a closed loop (WorkloadSpec::closed_loop).
    pub closed_loop: bool,
    pub accesses: u64,
    pub hits: u64,
    /// When its first pass over its region ended (its first `pages`
    /// accesses done), 0 until then: for a sequential anonymous task, when
    /// its whole allocation had been touched, as simoop times an
    /// allocation (malloc and memset of a buffer, reclaim stalls included).
    pub first_pass_ns: u64,
    /// Accesses not made because a lowmem allocation failed (gfp dma or
    /// dma32): they take their turn in the task's pace all the same.
    pub failed: u64,
    /// When the task ended (its pass done, its stop reached, OOM-killed);
    /// 0 while it runs.
    pub ended_ns: u64,
    pub alive: bool,
}

#[derive(Clone, Debug)]
pub struct Simulation {
    pub scenario: Scenario,
    pub mm: Mm,
    pub tasks: Vec<Task>,
    queue: BinaryHeap<Reverse<(u64, u32)>>,
    step: u64,
    /// The last HISTORY_LEN decisions about each tracked page, with the
    /// step they were made in (rendered to text only when asked: a
    /// checkpoint clones this map, so it stays compact).
    history: BTreeMap<(MappingId, u32), VecDeque<(u64, FolioTrace)>>,
    /// Where the current frame's window began (see begin_frame), if set.
    frame_start_ns: Option<u64>,
    /// Scheduled memory.reclaim writers: (memcg, spec index, writes done).
    proactive: Vec<(MemcgId, usize, u64)>,
    /// Every memory.reclaim write so far (the last RECLAIM_LOG_LEN).
    pub reclaim_log: VecDeque<MemoryReclaim>,
    /// Each zone's free pages and the pgsteal CV at the end of each of the
    /// last FREE_TRAIL_STEPS steps: (step, free per zone, nodes in order,
    /// every zone of a node; the CV, NaN where it is not defined:
    /// reclaimed_pgsteal_cv). Kept only while the event log is on (the views); a frame sends
    /// the part in its window (ZoneView::free_trail, Frame::pgsteal_cv_trail).
    free_trail: VecDeque<(u64, Vec<u64>, f64)>,
}

/// How many steps of zone free pages a simulation keeps for the views (the
/// app's zone charts span the last 300 frames).
pub const FREE_TRAIL_STEPS: usize = 300;

/// Work counted for every step, besides its accesses and scans (the step's
/// own overhead: kswapd, writeback, the tracked folios' traces).
const WORK_PER_STEP: u64 = 32;

/// memory.reclaim writes kept for views and metrics.
pub const RECLAIM_LOG_LEN: usize = 4096;

/// Pages per address space in the tracked sample.
pub const TRACKED_PER_MAPPING: u32 = 48;
/// The tracked sample over all address spaces stays about this small, so a
/// frame stays light with many tasks (at least 4 pages per address space).
pub const TRACKED_TOTAL: u32 = 512;
/// Decisions kept per tracked page.
pub const HISTORY_LEN: usize = 64;
/// Frames carry the tracked pages as full records (Frame::folios) only up
/// to this many (the automatic sample always fits); the compact form
/// (Frame::tracked) has every size.
pub const FULL_FOLIO_RECORDS: usize = 2048;
/// Decisions about tracked folios a frame carries at most.
pub const FOLIO_EVENTS_PER_FRAME: usize = 256;

impl Simulation {
    /// Builds the machine: nodes and zones (free lists, watermarks,
    /// lowmem_reserve), the memcg tree with one lruvec per (memcg, node),
    /// swap, and one task per workload.
    pub fn new(scenario: Scenario) -> Result<Self, ScenarioError> {
        scenario.validate()?;
        let total: u64 = scenario.nodes.iter().flat_map(|n| &n.zones).map(|z| u64::from(z.pages)).sum();
        let mut folios = Folios::with_capacity(total as usize);
        let mut nodes = Vec::new();
        let mut pfn = 0u32;
        for (nid, ns) in scenario.nodes.iter().enumerate() {
            let start = pfn;
            let mut zones: Vec<Zone> = ZoneType::ALL
                .iter()
                .map(|&t| Zone {
                    zone_type: t,
                    start_pfn: 0,
                    managed: 0,
                    free_list: ListHead::default(),
                    watermark: [0; 4],
                    lowmem_reserve: [0; MAX_NR_ZONES],
                })
                .collect();
            for zs in &ns.zones {
                let z = &mut zones[zs.zone as usize];
                z.start_pfn = pfn;
                z.managed = u64::from(zs.pages);
                for f in pfn..pfn + zs.pages {
                    folios.flags[f as usize] = ((zs.zone as u32) << pg::ZONE_SHIFT) | pg::FREE;
                    z.free_list.add_tail(&mut folios, f);
                }
                pfn += zs.pages;
            }
            pgdat::setup_per_zone_lowmem_reserve(&mut zones);
            let unset = if scenario.knobs.kswapd_classzone_fix { MAX_NR_ZONES } else { 0 };
            nodes.push(PgData { node_id: nid, zones, start_pfn: start, nr_pages: pfn - start, kswapd: Kswapd::new(unset), memcg_lru: Default::default(), pgdat_writeback: false });
        }

        // init_per_zone_wmark_min(): one min_free_kbytes for the machine,
        // shared out over the zones of every node by their size.
        let lowmem = pgdat::lowmem_pages(nodes.iter().flat_map(|n| n.zones.iter()));
        let mfk = scenario.min_free_kbytes.unwrap_or_else(|| pgdat::default_min_free_kbytes(lowmem));
        for node in &mut nodes {
            pgdat::setup_per_zone_wmarks(&mut node.zones, mfk, scenario.watermark_scale_factor, lowmem);
        }

        let mut memcgs = vec![MemCgroup::new(0, "/".into(), None)];
        for spec in &scenario.memcgs {
            let id = memcgs.len() as MemcgId;
            let parent = memcgs.iter().position(|m| m.path == parent_path(&spec.path)).expect("validated parent") as MemcgId;
            let mut cg = MemCgroup::new(id, spec.path.clone(), Some(parent));
            cg.memory_max = spec.memory_max.unwrap_or(PAGE_COUNTER_MAX);
            cg.memory_high = spec.memory_high.unwrap_or(PAGE_COUNTER_MAX);
            cg.memory_low = spec.memory_low;
            cg.memory_min = spec.memory_min;
            cg.swap_max = spec.swap_max.unwrap_or(PAGE_COUNTER_MAX);
            cg.swappiness = spec.swappiness;
            memcgs[parent as usize].children.push(id);
            memcgs.push(cg);
        }
        let mut lruvecs = Vec::new();
        for m in 0..memcgs.len() {
            for n in 0..nodes.len() {
                lruvecs.push(Lruvec::new(m as MemcgId, n, 0));
            }
        }

        let mut mm = Mm {
            knobs: scenario.knobs.clone(),
            folios,
            nodes,
            memcgs,
            lruvecs,
            mappings: Vec::new(),
            swap: SwapInfo::new(scenario.swap_pages),
            vmstat: Counters::default(),
            now_ns: 0,
            rng: Rng::new(scenario.seed, u64::MAX),
            events: EventLog::default(),
            totalram_pages: total,
            cost_ns: 0,
            io_busy_until: 0,
            io_wait_ns: 0,
            machine: scenario.machine,
            cpu: Default::default(),
            dirty_list: Vec::new(),
            next_kupdate_ns: crate::mm::writeback::DIRTY_WRITEBACK_INTERVAL_NS,
            writeback: Default::default(),
            traces: Vec::new(),
            current: Default::default(),
            comms: Vec::new(),
            memcg_iter: Default::default(),
        };

        if mm.knobs.lru_gen_enabled && mm.knobs.memcg_lru {
            for m in 0..mm.memcgs.len() {
                mm.lru_gen_online_memcg(m as MemcgId);
            }
        }

        let mut tasks = Vec::new();
        // Tracked pages per address space asked for by its workloads (the most, if several share it).
        let mut asked_tracked: Vec<Option<u32>> = Vec::new();
        let mut zipf_tables = ZipfTables::default();
        for (i, w) in scenario.workloads.iter().enumerate() {
            let memcg = mm.memcgs.iter().position(|m| m.path == w.memcg).expect("validated memcg") as MemcgId;
            let kind = match &w.target {
                Target::File { .. } => MappingKind::File,
                Target::Anon { .. } => MappingKind::Anon,
            };
            let name = w.mapping_name();
            let pages = w.target.pages() as usize;
            let mapping = match mm.mappings.iter().position(|a| a.name == name) {
                Some(m) => {
                    let a = &mut mm.mappings[m];
                    if a.slots.len() < pages {
                        a.slots.resize(pages, 0);
                    }
                    m as MappingId
                }
                None => {
                    let tracked_count = (pages as u32).min(TRACKED_PER_MAPPING);
                    let tracked_stride = pages as u32 / tracked_count.max(1);
                    mm.mappings.push(AddressSpace { name, kind, memcg, slots: vec![0; pages], tracked_stride, tracked_count });
                    (mm.mappings.len() - 1) as MappingId
                }
            };
            asked_tracked.resize(mm.mappings.len(), None);
            let asked = &mut asked_tracked[mapping as usize];
            *asked = (*asked).max(w.tracked_pages);
            tasks.push(Task {
                name: w.name.clone(),
                memcg,
                node: w.node as usize,
                mapping,
                gen: Generator::new(w, Rng::new(scenario.seed, i as u64), &mut zipf_tables),
                next_ns: w.start_ns,
                start_ns: w.start_ns,
                stop_ns: w.stop_ns,
                highest_zoneidx: w.gfp.zone(),
                free_on_exit: w.free_on_exit,
                interval_ns: 1_000_000_000u64.checked_div(w.rate).unwrap_or(0),
                closed_loop: w.closed_loop,
                accesses: 0,
                hits: 0,
                first_pass_ns: 0,
                failed: 0,
                ended_ns: 0,
                alive: true,
            });
        }
        // Shrink the automatic sample when there are many address spaces;
        // a workload's trackedPages sets its address space's sample.
        let per_mapping = (TRACKED_TOTAL / mm.mappings.len().max(1) as u32).clamp(4, TRACKED_PER_MAPPING);
        for (a, asked) in mm.mappings.iter_mut().zip(&asked_tracked) {
            let pages = a.slots.len() as u32;
            a.tracked_count = pages.min(asked.unwrap_or(per_mapping));
            a.tracked_stride = pages / a.tracked_count.max(1);
        }
        let mut queue: BinaryHeap<Reverse<(u64, u32)>> = tasks.iter().enumerate().map(|(i, t)| Reverse((t.next_ns, i as u32))).collect();
        let mut proactive = Vec::new();
        mm.comms = tasks.iter().map(|t| Reclaimer::Task(t.name.clone())).chain(scenario.proactive.iter().map(|p| Reclaimer::MemoryReclaim(p.memcg.clone()))).collect();
        for (j, p) in scenario.proactive.iter().enumerate() {
            let memcg = mm.memcgs.iter().position(|m| m.path == p.memcg).expect("validated memcg") as MemcgId;
            proactive.push((memcg, j, 0));
            queue.push(Reverse((p.start_ns, (tasks.len() + j) as u32)));
        }
        Ok(Simulation { scenario, mm, tasks, queue, step: 0, history: BTreeMap::new(), frame_start_ns: None, proactive, reclaim_log: VecDeque::new(), free_trail: VecDeque::new() })
    }

    /// Records events for views (off by default: the CLI and benchmarks do
    /// not pay for them).
    pub fn set_event_log(&mut self, on: bool) {
        self.mm.events.enabled = on;
    }

    /// Starts a frame window: the next frame() reports kswapd transitions
    /// since now, however many steps are taken before it.
    pub fn begin_frame(&mut self) {
        self.frame_start_ns = Some(self.mm.now_ns);
    }

    /// Starts the frame window at simulated time `t_ns` (at most now): the
    /// next frame() reports kswapd transitions since then. After step k the
    /// clock reads exactly k * step_ns, so a window can start at any earlier
    /// step (the timeline's replays use this).
    pub fn begin_frame_at(&mut self, t_ns: u64) {
        self.frame_start_ns = Some(t_ns.min(self.mm.now_ns));
    }

    /// Steps taken so far.
    pub fn step_count(&self) -> u64 {
        self.step
    }

    /// Accesses made by all tasks so far.
    pub fn accesses(&self) -> u64 {
        self.tasks.iter().map(|t| t.accesses).sum()
    }

    /// The cost of the run so far in work the engine did, deterministic
    /// where wall-clock time is not: accesses, pages scanned and refilled,
    /// and [`WORK_PER_STEP`] per step. The timeline takes checkpoints by
    /// it; the range check weighs its points by it (`VariantResult::work`).
    pub fn work(&self) -> u64 {
        let v = &self.mm.vmstat;
        self.accesses() + v.get(Item::PgscanAnon) + v.get(Item::PgscanFile) + v.get(Item::Pgrefill) + self.step * WORK_PER_STEP
    }

    /// Simulated time in ns.
    pub fn time(&self) -> u64 {
        self.mm.now_ns
    }

    /// An estimate of the heap memory this state holds, in bytes: what a
    /// checkpoint (a clone) costs. Counts the folio table, the address
    /// spaces' slots, swap, the tracked pages' histories, the allocation
    /// latencies, kswapd's logs, the memory.reclaim log and the per-lruvec
    /// and per-memcg records; the zipf tables are shared between clones and
    /// not counted. The timeline budgets its checkpoints with it.
    pub fn approx_bytes(&self) -> usize {
        use std::mem::size_of;
        let mm = &self.mm;
        let folios = mm.folios.len() * 26;
        let slots: usize = mm.mappings.iter().map(|a| a.slots.len() * 8 + a.name.len() + size_of::<AddressSpace>()).sum();
        let swap = mm.swap.pages as usize * 16;
        let history: usize = self.history.values().map(|h| h.len() * size_of::<(u64, FolioTrace)>() + 64).sum();
        let lruvecs = mm.lruvecs.len() * size_of::<Lruvec>();
        let memcgs: usize = mm.memcgs.iter().map(|m| size_of::<MemCgroup>() + m.path.len() + m.children.len() * 2).sum();
        let nodes: usize = mm.nodes.iter().map(|n| size_of::<PgData>() + n.kswapd.timeline.len() * 16 + n.kswapd.sleep_log.len() * 64).sum();
        let writeback = mm.dirty_list.len() * 12 + mm.writeback.len() * 16;
        let reclaims: usize = self.reclaim_log.iter().map(|r| size_of::<MemoryReclaim>() + r.rounds.len() * 16).sum();
        let tasks = self.tasks.len() * (size_of::<Task>() + 32) + self.queue.len() * 16;
        let events = mm.events.events.len() * 64 + mm.traces.len() * size_of::<FolioTrace>();
        let trail: usize = self.free_trail.iter().map(|(_, f, _)| 40 + f.len() * 8).sum();
        size_of::<Simulation>() + folios + slots + swap + history + lruvecs + memcgs + nodes + writeback + reclaims + tasks + events + trail
    }

    /// Advances one step (scenario.step_ns of simulated time).
    pub fn step(&mut self) {
        self.mm.events.clear();
        self.mm.traces.clear();
        let target = (self.step + 1) * self.scenario.step_ns;
        self.run_until(target);
        self.step += 1;
        if self.mm.events.enabled {
            let step = self.step;
            if self.free_trail.len() == FREE_TRAIL_STEPS {
                self.free_trail.pop_front();
            }
            let free = self.mm.nodes.iter().flat_map(|p| p.zones.iter().map(|z| z.free_pages())).collect();
            let cv = self.reclaimed_pgsteal_cv();
            self.free_trail.push_back((step, free, cv));
            for t in &self.mm.traces {
                let h = self.history.entry((t.mapping, t.index)).or_default();
                if h.len() == HISTORY_LEN {
                    h.pop_front();
                }
                h.push_back((step, t.clone()));
            }
        }
    }

    /// The node whose kswapd is due first, and when.
    fn next_kswapd(&self) -> Option<(u64, usize)> {
        self.mm.nodes.iter().enumerate().filter_map(|(n, p)| p.kswapd.next_ns.map(|t| (t, n))).min()
    }

    /// Runs every action due before `t_ns` in time order: task accesses and
    /// kswapd actions (kswapd first on a tie), completing writeback on the way.
    pub fn run_until(&mut self, t_ns: u64) {
        loop {
            let task = self.queue.peek().map(|&Reverse((when, i))| (when, i));
            let kswapd = self.next_kswapd();
            match (task, kswapd) {
                (_, Some((kt, node))) if kt < t_ns && task.is_none_or(|(tt, _)| kt <= tt) => {
                    let kt = kt.max(self.mm.now_ns);
                    self.mm.now_ns = kt;
                    self.mm.writeback_complete_until(kt);
                    self.mm.kswapd_run(node);
                }
                (Some((when, i)), _) if when < t_ns => {
                    self.queue.pop();
                    self.run_task(when, i as usize);
                }
                _ => break,
            }
        }
        self.mm.now_ns = self.mm.now_ns.max(t_ns);
        self.mm.writeback_complete_until(t_ns);
    }
}
