//! The simulation: builds the machine from a scenario, runs the tasks on the
//! simulated clock, and reports frames and counters.
//!
//! Stepping follows discrete-event simulators: `step()` advances the clock
//! by the scenario's `step_ns`, running every task action due before then in
//! time order (ties by task index); `run_until(t)`; `time()`. A checkpoint is
//! a clone of the whole state.
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

use crate::event::EventLog;
use crate::mm::filemap::Slot;
use crate::mm::folio::{pg, Folios};
use crate::mm::list::ListHead;
use crate::mm::lruvec::{lru_gen_from_seq, Lruvec, LRU_ACTIVE_ANON, LRU_ACTIVE_FILE, LRU_INACTIVE_ANON, LRU_INACTIVE_FILE};
use crate::mm::memcontrol::{MemCgroup, MemoryReclaim, PAGE_COUNTER_MAX};
use crate::mm::kswapd::Kswapd;
use crate::mm::pgdat::{self, PgData, Zone, ZoneType};
use crate::mm::swap::SwapInfo;
use crate::mm::trace::FolioTrace;
use crate::mm::vmstat::{Counters, Item};
use crate::mm::{AddressSpace, MappingId, MappingKind, MemcgId, Mm, MAX_NR_ZONES};
use crate::rng::Rng;
use crate::scenario::{parent_path, Scenario, ScenarioError};
use crate::view::{Counter, EventView, Frame, GenView, KswapdView, LruvecView, MemcgLruView, MemcgView, NodeView, ReclaimRoundView, ReclaimView, TierView, TrackedCell, TrackedFolioView, TrackedFolios, TrackedSpaceView, ZoneView};
use crate::workload::{Generator, Target};

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
    pub accesses: u64,
    pub hits: u64,
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
}

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
            let lowmem: u64 = zones.iter().filter(|z| z.zone_type != ZoneType::Movable).map(|z| z.managed).sum();
            let mfk = scenario.min_free_kbytes.unwrap_or_else(|| pgdat::default_min_free_kbytes(lowmem));
            pgdat::setup_per_zone_wmarks(&mut zones, mfk, scenario.watermark_scale_factor);
            pgdat::setup_per_zone_lowmem_reserve(&mut zones);
            let unset = if scenario.knobs.kswapd_classzone_fix { MAX_NR_ZONES } else { 0 };
            nodes.push(PgData { node_id: nid, zones, start_pfn: start, nr_pages: pfn - start, kswapd: Kswapd::new(unset), memcg_lru: Default::default() });
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
            dirty_list: Vec::new(),
            writeback: Default::default(),
            traces: Vec::new(),
            current: Default::default(),
            memcg_iter: Default::default(),
            alloc_latencies: Vec::new(),
            alloc_latency_log: true,
        };

        if mm.knobs.lru_gen_enabled && mm.knobs.memcg_lru {
            for m in 0..mm.memcgs.len() {
                mm.lru_gen_online_memcg(m as MemcgId);
            }
        }

        let mut tasks = Vec::new();
        // Tracked pages per address space asked for by its workloads (the most, if several share it).
        let mut asked_tracked: Vec<Option<u32>> = Vec::new();
        for (i, w) in scenario.workloads.iter().enumerate() {
            let memcg = mm.memcgs.iter().position(|m| m.path == w.memcg).expect("validated memcg") as MemcgId;
            let (kind, name) = match &w.target {
                Target::File { file, .. } => (MappingKind::File, format!("file:{}", file.clone().unwrap_or_else(|| w.name.clone()))),
                Target::Anon { .. } => (MappingKind::Anon, format!("anon:{}", w.name)),
            };
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
                gen: Generator::new(w, Rng::new(scenario.seed, i as u64)),
                next_ns: w.start_ns,
                start_ns: w.start_ns,
                stop_ns: w.stop_ns,
                highest_zoneidx: w.gfp.zone(),
                free_on_exit: w.free_on_exit,
                interval_ns: if w.rate > 0 { 1_000_000_000 / w.rate } else { 0 },
                accesses: 0,
                hits: 0,
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
        for (j, p) in scenario.proactive.iter().enumerate() {
            let memcg = mm.memcgs.iter().position(|m| m.path == p.memcg).expect("validated memcg") as MemcgId;
            proactive.push((memcg, j, 0));
            queue.push(Reverse((p.start_ns, (tasks.len() + j) as u32)));
        }
        Ok(Simulation { scenario, mm, tasks, queue, step: 0, history: BTreeMap::new(), frame_start_ns: None, proactive, reclaim_log: VecDeque::new() })
    }

    /// Records events for views (off by default: the CLI and benchmarks do
    /// not pay for them).
    pub fn set_event_log(&mut self, on: bool) {
        self.mm.events.enabled = on;
    }

    /// Keeps every allocation's latency for percentiles (on by default; see
    /// `Mm::alloc_latency_log`).
    pub fn set_alloc_latency_log(&mut self, on: bool) {
        self.mm.alloc_latency_log = on;
        if !on {
            self.mm.alloc_latencies = Vec::new();
        }
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
        let writeback = mm.dirty_list.len() * 4 + mm.writeback.len() * 16;
        let reclaims: usize = self.reclaim_log.iter().map(|r| size_of::<MemoryReclaim>() + r.rounds.len() * 16).sum();
        let tasks = self.tasks.len() * (size_of::<Task>() + 32) + self.queue.len() * 16;
        let events = mm.events.events.len() * 64 + mm.traces.len() * size_of::<FolioTrace>();
        size_of::<Simulation>() + folios + slots + swap + history + lruvecs + memcgs + nodes + writeback + reclaims + tasks + events + mm.alloc_latencies.len() * 4
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
            for t in &self.mm.traces {
                let h = self.history.entry((t.mapping, t.index)).or_default();
                if h.len() == HISTORY_LEN {
                    h.pop_front();
                }
                h.push_back((step, t.clone()));
            }
        }
    }

    fn page_key(&self, m: MappingId, index: u32) -> String {
        format!("{}#{index}", self.mm.mappings[m as usize].name)
    }

    /// A decision about a tracked folio, made in `step`, as the UI shows it.
    fn trace_view(&self, step: u64, t: &FolioTrace) -> EventView {
        let (kind, reason) = t.describe();
        EventView {
            step,
            time_ns: t.time_ns,
            kind: kind.into(),
            function: t.function.into(),
            reason,
            page: Some(self.page_key(t.mapping, t.index)),
        }
    }

    /// The recorded decisions about a tracked page ("file:reader#120"), oldest first.
    pub fn history(&self, page: &str) -> Vec<EventView> {
        let Some((name, idx)) = page.rsplit_once('#') else {
            return Vec::new();
        };
        let Ok(idx) = idx.parse::<u32>() else {
            return Vec::new();
        };
        let Some(m) = self.mm.mappings.iter().position(|a| a.name == name) else {
            return Vec::new();
        };
        self.history.get(&(m as MappingId, idx)).map(|h| h.iter().map(|(step, t)| self.trace_view(*step, t)).collect()).unwrap_or_default()
    }

    /// Where each tracked page's folio is now, in compact form (see
    /// [`TrackedFolios`]); `shown` lists the lruvec ids of Frame::lruvecs in
    /// order (a resident page's lruvec is always among them).
    pub fn tracked_compact(&self, shown: &[usize]) -> TrackedFolios {
        let mm = &self.mm;
        let mut position = vec![u16::MAX; mm.lruvecs.len()];
        for (p, &lv) in shown.iter().enumerate() {
            position[lv] = p as u16;
        }
        let mut spaces = Vec::new();
        let mut cells = Vec::new();
        for (m, a) in mm.mappings.iter().enumerate() {
            if a.tracked_count == 0 {
                continue;
            }
            spaces.push(TrackedSpaceView {
                name: a.name.clone(),
                kind: if a.kind == MappingKind::Anon { "anon".into() } else { "file".into() },
                memcg: mm.memcgs[a.memcg as usize].path.clone(),
                stride: a.tracked_stride,
                count: a.tracked_count,
            });
            cells.reserve(a.tracked_count as usize * 4);
            for i in 0..a.tracked_count {
                let mut cell = TrackedCell::default();
                match mm.slot(m as MappingId, i * a.tracked_stride) {
                    Slot::Folio(f) => {
                        let lv = mm.folios.lruvec[f as usize];
                        cell.state = TrackedCell::RESIDENT;
                        cell.lruvec = position[lv as usize];
                        if let Some(gen) = mm.folios.lru_gen(f) {
                            let g = &mm.lruvecs[lv as usize].lrugen;
                            let seq = mm.seq_of_gen(lv, mm.folios.type_of(f), gen);
                            cell.gen = (seq.saturating_sub(g.min_seq[0].min(g.min_seq[1])) + 1).min(255) as u8;
                        }
                        cell.tier = crate::mm::folio::lru_tier_from_refs(mm.folios.lru_refs(f)) as u8;
                        cell.active = mm.folios.test(f, pg::ACTIVE);
                    }
                    Slot::Shadow(_) => cell.state = TrackedCell::EVICTED,
                    Slot::Swap(_) => cell.state = TrackedCell::SWAPPED,
                    Slot::Empty => {}
                }
                cells.extend_from_slice(&cell.encode());
            }
        }
        TrackedFolios { spaces, cells }
    }

    /// Where each tracked page's folio is now.
    pub fn tracked_folios(&self) -> Vec<TrackedFolioView> {
        let mm = &self.mm;
        let mut out = Vec::new();
        for (m, a) in mm.mappings.iter().enumerate() {
            for i in 0..a.tracked_count {
                let idx = i * a.tracked_stride;
                let mut v = TrackedFolioView {
                    page: self.page_key(m as MappingId, idx),
                    kind: if a.kind == MappingKind::Anon { "anon".into() } else { "file".into() },
                    memcg: mm.memcgs[a.memcg as usize].path.clone(),
                    state: "absent".into(),
                    seq: None,
                    tier: 0,
                    active: false,
                    node: None,
                };
                match mm.slot(m as MappingId, idx) {
                    Slot::Folio(f) => {
                        v.state = "resident".into();
                        let lv = mm.folios.lruvec[f as usize];
                        v.memcg = mm.memcgs[mm.lruvec_memcg(lv) as usize].path.clone();
                        v.node = Some(mm.lruvec_node(lv) as u32);
                        if let Some(gen) = mm.folios.lru_gen(f) {
                            v.seq = Some(mm.seq_of_gen(lv, mm.folios.type_of(f), gen));
                        }
                        v.tier = crate::mm::folio::lru_tier_from_refs(mm.folios.lru_refs(f)) as u32;
                        v.active = mm.folios.test(f, pg::ACTIVE);
                    }
                    Slot::Shadow(_) => v.state = "evicted".into(),
                    Slot::Swap(_) => v.state = "swapped".into(),
                    Slot::Empty => {}
                }
                out.push(v);
            }
        }
        out
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

    /// One write to memory.reclaim by proactive writer `j` at `when`.
    fn run_proactive(&mut self, when: u64, j: usize) {
        let (memcg, spec, done) = self.proactive[j];
        let p = self.scenario.proactive[spec].clone();
        self.mm.now_ns = when;
        self.mm.writeback_complete_until(when);
        self.mm.cost_ns = 0;
        self.mm.current = Default::default();
        let pages = match p.bytes {
            Some(b) => b.div_ceil(4096),
            None if p.pages == 0 => self.mm.memcgs[memcg as usize].usage,
            None => p.pages,
        };
        let result = self.mm.memory_reclaim(memcg, pages);
        let duration = self.mm.cost_ns.max(1);
        if self.reclaim_log.len() == RECLAIM_LOG_LEN {
            self.reclaim_log.pop_front();
        }
        self.reclaim_log.push_back(result);
        self.proactive[j].2 = done + 1;
        if done + 1 < p.count {
            let next = (p.start_ns + (done + 1) * p.interval_ns).max(when + duration);
            self.queue.push(Reverse((next, (self.tasks.len() + j) as u32)));
        }
    }

    /// A task ends; with free_on_exit its anonymous memory goes (exit_mmap).
    fn task_exit(&mut self, i: usize) {
        self.tasks[i].alive = false;
        let m = self.tasks[i].mapping;
        if self.tasks[i].free_on_exit && self.mm.mappings[m as usize].kind == MappingKind::Anon {
            self.free_anon_mapping(m);
        }
    }

    /// One access of task `i` at `when` (or a memory.reclaim write).
    fn run_task(&mut self, when: u64, i: usize) {
        if i >= self.tasks.len() {
            self.run_proactive(when, i - self.tasks.len());
            return;
        }
        if !self.tasks[i].alive {
            return;
        }
        self.mm.now_ns = when;
        self.mm.writeback_complete_until(when);
        if self.tasks[i].stop_ns != 0 && when >= self.tasks[i].stop_ns {
            self.task_exit(i);
            return;
        }
        let Some((page, op)) = self.tasks[i].gen.next_access() else {
            self.task_exit(i);
            return;
        };
        self.mm.cost_ns = 0;
        let t = &self.tasks[i];
        let (memcg, node, mapping) = (t.memcg, t.node, t.mapping);
        self.mm.current.highest_zoneidx = t.highest_zoneidx;
        match self.mm.access(memcg, node, mapping, page, op) {
            Ok(out) => {
                let t = &mut self.tasks[i];
                t.accesses += 1;
                t.hits += u64::from(out.hit);
            }
            Err(fail) => self.out_of_memory(fail.memcg),
        }
        let t = &mut self.tasks[i];
        let cost = self.mm.cost_ns.max(1);
        let paced = t.start_ns + t.accesses.saturating_mul(t.interval_ns);
        t.next_ns = (when + cost).max(paced);
        if t.alive {
            self.queue.push(Reverse((t.next_ns, i as u32)));
        }
    }

    /// mem_cgroup_out_of_memory() / out_of_memory(): kill the task in the
    /// memcg's subtree with the highest badness (resident anon pages plus its
    /// swap entries; oom_badness), freeing its anonymous memory.
    fn out_of_memory(&mut self, memcg: MemcgId) {
        let mut victim: Option<(u64, usize)> = None;
        for (i, t) in self.tasks.iter().enumerate() {
            if !t.alive || !self.mm.mem_cgroup_is_descendant(t.memcg, memcg) {
                continue;
            }
            let a = &self.mm.mappings[t.mapping as usize];
            let badness = if a.kind == MappingKind::Anon { a.slots.iter().filter(|&&s| s != 0).count() as u64 } else { 0 };
            if victim.is_none_or(|(b, _)| badness > b) {
                victim = Some((badness, i));
            }
        }
        let Some((_, i)) = victim else {
            return;
        };
        self.tasks[i].alive = false;
        let freed = if self.mm.mappings[self.tasks[i].mapping as usize].kind == MappingKind::Anon {
            self.free_anon_mapping(self.tasks[i].mapping)
        } else {
            0
        };
        let tm = self.tasks[i].memcg;
        self.mm.memcgs[memcg as usize].events.oom_kill += 1;
        self.mm.count(tm, Item::OomKill, 1, true);
        let (path, name, now) = (self.mm.memcgs[memcg as usize].path.clone(), self.tasks[i].name.clone(), self.mm.now_ns);
        self.mm.events.push_rare(now, || crate::event::EventKind::Oom { memcg: path, victim: name, freed });
    }

    /// exit_mmap() of a killed task: every resident folio and swap entry of
    /// the anon mapping is released.
    fn free_anon_mapping(&mut self, m: MappingId) -> u64 {
        let mut freed = 0;
        for idx in 0..self.mm.mappings[m as usize].slots.len() as u32 {
            match self.mm.slot(m, idx) {
                Slot::Folio(f) => {
                    let lv = self.mm.folios.lruvec[f as usize];
                    let memcg = self.mm.lruvec_memcg(lv);
                    if self.mm.folios.test(f, pg::LRU) {
                        self.mm.lruvec_del_folio(f);
                    }
                    if self.mm.folios.test(f, pg::SWAPCACHE) {
                        self.mm.delete_from_swap_cache(f, false);
                    }
                    self.mm.uncharge(memcg, 1);
                    let node = self.mm.lruvec_node(lv);
                    self.mm.free_folio(f, node);
                    freed += 1;
                }
                Slot::Swap(slot) => {
                    let memcg = self.mm.mappings[m as usize].memcg;
                    self.mm.swap.free_slot(slot);
                    self.mm.swap_uncharge(memcg);
                }
                Slot::Empty | Slot::Shadow(_) => {}
            }
            self.mm.set_slot(m, idx, Slot::Empty);
        }
        freed
    }

    /// /proc/vmstat: gauges computed from the state, then the event counters.
    pub fn vmstat(&self) -> Vec<(String, u64)> {
        let mm = &self.mm;
        let mut out: Vec<(String, u64)> = Vec::new();
        let free: u64 = mm.nodes.iter().map(PgData::free_pages).sum();
        out.push(("nr_free_pages".into(), free));
        let mut lru = [0u64; 4];
        for lv in &mm.lruvecs {
            let sizes = lruvec_lru_sizes(lv, mm.knobs.lru_gen_enabled);
            for (a, b) in lru.iter_mut().zip(sizes) {
                *a += b;
            }
        }
        for (name, v) in ["nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file"].iter().zip(lru) {
            out.push((name.to_string(), v));
        }
        let (mut anon, mut file, mut mapped, mut dirty, mut swapcached) = (0, 0, 0, 0, 0);
        for &fl in &mm.folios.flags {
            if fl & pg::FREE != 0 {
                continue;
            }
            if fl & pg::ANON != 0 {
                anon += 1;
            } else {
                file += 1;
            }
            // NR_FILE_MAPPED: page-cache pages mapped into page tables.
            mapped += u64::from(fl & pg::MAPPED != 0 && fl & pg::ANON == 0);
            dirty += u64::from(fl & pg::DIRTY != 0 && fl & pg::ANON == 0);
            swapcached += u64::from(fl & pg::SWAPCACHE != 0);
        }
        out.push(("nr_anon_pages".into(), anon));
        out.push(("nr_mapped".into(), mapped));
        out.push(("nr_file_pages".into(), file + swapcached));
        out.push(("nr_dirty".into(), dirty));
        out.push(("nr_writeback".into(), mm.writeback.len() as u64));
        out.push(("nr_swapcached".into(), swapcached));
        out.push(("nr_swap_free".into(), mm.swap.nr_free()));
        out.extend(mm.vmstat.iter().map(|(n, v)| (n.to_string(), v)));
        out
    }

    /// memory.stat of a memcg: sizes (hierarchical) and its event counters.
    pub fn memory_stat(&self, memcg: MemcgId) -> Vec<(String, u64)> {
        let mm = &self.mm;
        let mut lru = [0u64; 4];
        for m in mm.memcg_subtree(memcg) {
            for n in 0..mm.nr_nodes() {
                let sizes = lruvec_lru_sizes(&mm.lruvecs[mm.lruvec_id(m, n) as usize], mm.knobs.lru_gen_enabled);
                for (a, b) in lru.iter_mut().zip(sizes) {
                    *a += b;
                }
            }
        }
        let cg = &mm.memcgs[memcg as usize];
        let mut out = vec![
            ("anon".to_string(), (lru[0] + lru[1]) * 4096),
            ("file".to_string(), (lru[2] + lru[3]) * 4096),
            ("inactive_anon".to_string(), lru[0] * 4096),
            ("active_anon".to_string(), lru[1] * 4096),
            ("inactive_file".to_string(), lru[2] * 4096),
            ("active_file".to_string(), lru[3] * 4096),
        ];
        let steal = cg.stat.get(Item::PgstealKswapd) + cg.stat.get(Item::PgstealDirect);
        let scan = cg.stat.get(Item::PgscanKswapd) + cg.stat.get(Item::PgscanDirect);
        out.push(("pgscan".into(), scan));
        out.push(("pgsteal".into(), steal));
        for (name, v) in cg.stat.iter() {
            if name.starts_with("pgskip") || name.starts_with("allocstall") || name.starts_with("kswapd_") || name == "pageoutrun" {
                continue;
            }
            out.push((name.to_string(), v));
        }
        out
    }

    /// The view model of the current state.
    pub fn frame(&self) -> Frame {
        let mm = &self.mm;
        let name = |lv: u16| {
            let m = mm.lruvec_memcg(lv);
            format!("{} node {}", mm.memcgs[m as usize].path, mm.lruvec_node(lv))
        };
        let events = mm
            .events
            .events
            .iter()
            .map(|e| {
                let (kind, function, reason) = e.describe(&name);
                EventView { step: self.step, time_ns: e.time_ns, kind: kind.into(), function: function.into(), reason, page: None }
            })
            .collect();
        // Show lruvecs of non-root memcgs that have ever held pages (the root
        // lruvec too when it is used).
        let shown: Vec<usize> = mm
            .lruvecs
            .iter()
            .enumerate()
            .filter(|(i, lv)| {
                let m = mm.lruvec_memcg(*i as u16);
                m != 0 || lv.lrugen.max_seq > 3 || lruvec_lru_sizes(lv, mm.knobs.lru_gen_enabled).iter().sum::<u64>() > 0
            })
            .map(|(i, _)| i)
            .collect();
        let lruvecs = shown.iter().map(|&i| self.lruvec_view(&mm.lruvecs[i])).collect();
        let tracked = self.tracked_compact(&shown);
        let full = tracked.cells.len() / 4 <= FULL_FOLIO_RECORDS;
        Frame {
            scenario: self.scenario.name.clone(),
            seed: self.scenario.seed,
            step: self.step,
            time_ns: mm.now_ns,
            counters: self.vmstat().into_iter().map(|(name, value)| Counter { name, value }).collect(),
            lruvecs,
            events,
            events_dropped: mm.events.dropped,
            folios: if full { self.tracked_folios() } else { Vec::new() },
            folio_events: mm.traces.iter().take(FOLIO_EVENTS_PER_FRAME).map(|t| self.trace_view(self.step, t)).collect(),
            tracked,
            nodes: self.node_views(),
            memcgs: self.memcg_views(),
            pgsteal_cv: self.pgsteal_cv(),
            reclaims: self.reclaim_log.iter().rev().take(64).rev().map(|r| reclaim_view(r, &mm.memcgs[r.memcg as usize].path)).collect(),
            shadow: Some(self.shadow_frame()),
        }
    }

    fn node_views(&self) -> Vec<NodeView> {
        let mm = &self.mm;
        // Transitions since the frame began (begin_frame), or during the last step.
        let step_start = self.frame_start_ns.unwrap_or(self.step.saturating_sub(1) * self.scenario.step_ns);
        mm.nodes
            .iter()
            .enumerate()
            .map(|(n, p)| {
                let k = &p.kswapd;
                let unset = mm.kswapd_zoneidx_unset();
                NodeView {
                    node: n as u32,
                    zones: p
                        .zones
                        .iter()
                        .filter(|z| z.managed > 0)
                        .map(|z| ZoneView {
                            name: z.zone_type.name().into(),
                            managed: z.managed,
                            free: z.free_pages(),
                            min: z.watermark[0],
                            low: z.watermark[1],
                            high: z.watermark[2],
                            lowmem_reserve: z.lowmem_reserve,
                        })
                        .collect(),
                    kswapd: KswapdView {
                        mode: mode_name(k.mode).into(),
                        transitions: k.timeline.iter().filter(|(t, _)| *t >= step_start && self.step > 0).map(|(t, m)| (*t, mode_name(*m).to_string())).collect(),
                        failures: k.failures,
                        pending_zoneidx: (k.highest_zoneidx != unset || !mm.knobs.kswapd_classzone_fix).then_some(k.highest_zoneidx.min(3) as u32),
                        sleeps: k.sleeps,
                        premature_sleeps: k.premature_sleeps,
                    },
                    memcg_lru: (mm.knobs.lru_gen_enabled && mm.knobs.memcg_lru).then(|| {
                        let l = &p.memcg_lru;
                        MemcgLruView {
                            seq: l.seq,
                            old_gen: (l.seq % 2) as u32,
                            nr_memcgs: l.nr_memcgs,
                            bins: l
                                .fifo
                                .iter()
                                .map(|bins| bins.iter().map(|b| b.iter().map(|&lv| mm.memcgs[mm.lruvec_memcg(lv) as usize].path.clone()).collect()).collect())
                                .collect(),
                        }
                    }),
                }
            })
            .collect()
    }

    fn memcg_views(&self) -> Vec<MemcgView> {
        let lim = |v: u64| (v != PAGE_COUNTER_MAX).then_some(v);
        self.mm
            .memcgs
            .iter()
            .map(|cg| MemcgView {
                path: cg.path.clone(),
                usage: cg.usage,
                max: lim(cg.memory_max),
                high: lim(cg.memory_high),
                low: cg.memory_low,
                min: cg.memory_min,
                swap_usage: cg.swap_usage,
                pgscan: cg.stat.get(Item::PgscanKswapd) + cg.stat.get(Item::PgscanDirect),
                pgsteal: cg.stat.get(Item::PgstealKswapd) + cg.stat.get(Item::PgstealDirect),
                events_low: cg.events.low,
                events_max: cg.events.max,
                events_oom: cg.events.oom,
                events_oom_kill: cg.events.oom_kill,
                leaf: cg.children.is_empty() && cg.id != 0,
            })
            .collect()
    }

    /// stddev(pgsteal) / mean(pgsteal) over the leaf memcgs (the fairness
    /// metric of patch 001).
    pub fn pgsteal_cv(&self) -> f64 {
        let v: Vec<f64> = self
            .mm
            .memcgs
            .iter()
            .filter(|cg| cg.children.is_empty() && cg.id != 0)
            .map(|cg| (cg.stat.get(Item::PgstealKswapd) + cg.stat.get(Item::PgstealDirect)) as f64)
            .collect();
        if v.len() < 2 {
            return 0.0;
        }
        crate::experiment::coefficient_of_variation(&v)
    }

    fn lruvec_view(&self, lv: &Lruvec) -> LruvecView {
        let g = &lv.lrugen;
        let lo = g.min_seq[0].min(g.min_seq[1]);
        let gens = (lo..=g.max_seq)
            .map(|seq| {
                let gen = lru_gen_from_seq(seq);
                GenView {
                    seq,
                    gen: gen as u32,
                    age_ns: self.mm.now_ns.saturating_sub(g.timestamps[gen]),
                    anon: if seq >= g.min_seq[0] { g.gen_size(gen, 0) } else { 0 },
                    file: if seq >= g.min_seq[1] { g.gen_size(gen, 1) } else { 0 },
                }
            })
            .collect();
        let cg = &self.mm.memcgs[lv.memcg as usize];
        let mut tiers = Vec::new();
        for (t, kind) in ["anon", "file"].iter().enumerate() {
            let hist = crate::mm::lruvec::lru_hist_from_seq(g.min_seq[t]);
            for tier in 0..crate::mm::lruvec::MAX_NR_TIERS {
                tiers.push(TierView {
                    kind: kind.to_string(),
                    tier: tier as u32,
                    avg_refaulted: g.avg_refaulted[t][tier],
                    avg_total: g.avg_total[t][tier],
                    refaulted: g.refaulted[hist][t][tier],
                    evicted: g.evicted[hist][t][tier],
                    protected: if tier > 0 { g.protected[hist][t][tier - 1] } else { 0 },
                });
            }
        }
        let lru_gen = self.mm.knobs.lru_gen_enabled;
        LruvecView {
            memcg: cg.path.clone(),
            node: lv.node as u32,
            max_seq: g.max_seq,
            min_seq: g.min_seq,
            gens,
            memory_current: cg.usage,
            memory_max: (cg.memory_max != PAGE_COUNTER_MAX).then_some(cg.memory_max),
            lru_gen,
            lists: lruvec_lru_sizes(lv, lru_gen),
            tiers,
        }
    }

    /// Checks the structural invariants of the whole state; returns the first
    /// violation. Used by tests after every step.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mm = &self.mm;
        let n = mm.folios.len();
        // Every folio on exactly one list (a free list or an LRU list).
        let mut seen = vec![0u8; n];
        let mut mark = |f: u32, what: &str| -> Result<(), String> {
            let s = &mut seen[f as usize];
            *s += 1;
            if *s > 1 {
                return Err(format!("folio {f} is on more than one list (again on {what})"));
            }
            Ok(())
        };
        for node in &mm.nodes {
            for z in &node.zones {
                for f in z.free_list.iter(&mm.folios) {
                    if !mm.folios.test(f, pg::FREE) {
                        return Err(format!("folio {f} on a free list without the free flag"));
                    }
                    mark(f, "a free list")?;
                }
            }
        }
        for (i, lv) in mm.lruvecs.iter().enumerate() {
            let g = &lv.lrugen;
            if !(g.min_seq[1] >= g.min_seq[0]) {
                return Err(format!("lruvec {i}: min_seq[anon] {} > min_seq[file] {}", g.min_seq[0], g.min_seq[1]));
            }
            for t in 0..2 {
                let nr = g.nr_gens(t);
                if !(2..=4).contains(&nr) {
                    return Err(format!("lruvec {i}: nr_gens[{t}] = {nr} outside 2..=4"));
                }
            }
            let mut by_bits = [[0i64; 2]; 4];
            for gen in 0..4 {
                for t in 0..2 {
                    for z in 0..MAX_NR_ZONES {
                        for f in g.folios[gen][t][z].iter(&mm.folios) {
                            mark(f, "an LRU list")?;
                            if mm.folios.lruvec[f as usize] as usize != i {
                                return Err(format!("folio {f} on lruvec {i}'s list but charged to lruvec {}", mm.folios.lruvec[f as usize]));
                            }
                            if mm.folios.type_of(f) != t || mm.folios.zone(f) != z || mm.folios.list_slot(f) != gen {
                                return Err(format!("folio {f} on the wrong list (gen {gen} type {t} zone {z})"));
                            }
                            let bits = mm.folios.lru_gen(f).ok_or_else(|| format!("folio {f} on a generation list without generation bits"))?;
                            by_bits[bits][t] += 1;
                        }
                    }
                }
            }
            for gen in 0..4 {
                for t in 0..2 {
                    let counted: i64 = g.nr_pages[gen][t].iter().sum();
                    if counted != by_bits[gen][t] {
                        return Err(format!("lruvec {i}: nr_pages[{gen}][{t}] = {counted} but {} folios carry that generation", by_bits[gen][t]));
                    }
                }
            }
        }
        for (i, lv) in mm.lruvecs.iter().enumerate() {
            for (lru, list) in lv.lists.iter().enumerate() {
                let mut per_zone = [0u64; MAX_NR_ZONES];
                for f in list.iter(&mm.folios) {
                    mark(f, "a classic LRU list")?;
                    if mm.folio_lru_list(f) != lru || mm.folios.lruvec[f as usize] as usize != i {
                        return Err(format!("folio {f} on classic list {lru} of lruvec {i} does not belong there"));
                    }
                    per_zone[mm.folios.zone(f)] += 1;
                }
                if per_zone != lv.lru_zone_size[lru] {
                    return Err(format!("lruvec {i}: zone sizes of classic list {lru} are {:?}, counted {per_zone:?}", lv.lru_zone_size[lru]));
                }
            }
        }
        if mm.knobs.lru_gen_enabled && mm.knobs.memcg_lru {
            for (n, node) in mm.nodes.iter().enumerate() {
                let lru = &node.memcg_lru;
                let mut members = vec![0u32; mm.memcgs.len()];
                for (gen, bins) in lru.fifo.iter().enumerate() {
                    let mut count = 0;
                    for list in bins {
                        for &lv in list {
                            count += 1;
                            members[mm.lruvec_memcg(lv) as usize] += 1;
                            if mm.lruvecs[lv as usize].lrugen.gen as usize != gen || mm.lruvec_node(lv) != n {
                                return Err(format!("node {n}: lruvec {lv} on memcg LRU generation {gen} but its gen says {}", mm.lruvecs[lv as usize].lrugen.gen));
                            }
                        }
                    }
                    if count != lru.nr_memcgs[gen] {
                        return Err(format!("node {n}: memcg LRU nr_memcgs[{gen}] = {} but {count} listed", lru.nr_memcgs[gen]));
                    }
                }
                if let Some(m) = members.iter().position(|&c| c != 1) {
                    return Err(format!("node {n}: memcg {m} is on the memcg LRU {} times", members[m]));
                }
            }
        }
        for (f, &c) in seen.iter().enumerate() {
            if c == 0 && mm.folios.flags[f] & (pg::FREE | pg::LRU) != 0 {
                return Err(format!("folio {f} is flagged free or LRU but on no list"));
            }
        }
        // Pages are conserved: free + on lists + isolated(= 0 between steps) == total.
        let listed = seen.iter().filter(|&&c| c == 1).count();
        if listed != n {
            return Err(format!("{} of {n} folios are on no list", n - listed));
        }
        // memcg usage equals the folios charged to its subtree.
        let mut charged = vec![0u64; mm.memcgs.len()];
        for f in 0..n as u32 {
            if !mm.folios.test(f, pg::FREE) {
                let mut m = Some(mm.lruvec_memcg(mm.folios.lruvec[f as usize]));
                while let Some(id) = m {
                    charged[id as usize] += 1;
                    m = mm.memcgs[id as usize].parent;
                }
            }
        }
        for (cg, &c) in mm.memcgs.iter().zip(&charged) {
            if cg.usage != c {
                return Err(format!("memcg {}: memory.current {} but {c} folios charged", cg.path, cg.usage));
            }
        }
        // Address spaces and folios agree.
        for (m, a) in mm.mappings.iter().enumerate() {
            for (idx, &v) in a.slots.iter().enumerate() {
                if let Slot::Folio(f) = Slot::decode(v) {
                    if mm.folios.mapping[f as usize] != m as u32 || mm.folios.index[f as usize] != idx as u32 {
                        return Err(format!("mapping {m} slot {idx} points at folio {f}, which caches something else"));
                    }
                }
            }
        }
        Ok(())
    }
}

fn mode_name(m: crate::mm::kswapd::KswapdMode) -> &'static str {
    match m {
        crate::mm::kswapd::KswapdMode::Asleep => "asleep",
        crate::mm::kswapd::KswapdMode::Napping => "napping",
        crate::mm::kswapd::KswapdMode::Running => "running",
    }
}

fn reclaim_view(r: &MemoryReclaim, path: &str) -> ReclaimView {
    ReclaimView {
        memcg: path.to_string(),
        requested: r.requested,
        reclaimed: r.reclaimed,
        overreclaim: r.reclaimed as i64 - r.requested as i64,
        ok: r.ok,
        start_ns: r.start_ns,
        duration_ns: r.duration_ns,
        rounds: r.rounds.iter().map(|b| ReclaimRoundView { batch: b.batch, reclaimed: b.reclaimed }).collect(),
    }
}

/// [inactive_anon, active_anon, inactive_file, active_file] of a lruvec. With
/// MGLRU the two youngest generations count as active (lru_gen_is_active).
pub fn lruvec_lru_sizes(lv: &Lruvec, lru_gen: bool) -> [u64; 4] {
    if !lru_gen {
        return [lv.lru_size(LRU_INACTIVE_ANON), lv.lru_size(LRU_ACTIVE_ANON), lv.lru_size(LRU_INACTIVE_FILE), lv.lru_size(LRU_ACTIVE_FILE)];
    }
    let g = &lv.lrugen;
    let mut out = [0u64; 4];
    for gen in 0..4 {
        for t in 0..2 {
            let n = g.gen_size(gen, t);
            let active = g.is_active(gen);
            out[t * 2 + usize::from(active)] += n;
        }
    }
    out
}
