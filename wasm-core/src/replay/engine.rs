//! One policy's replay: a lean engine run that reads each request's pages
//! through the page cache of a memcg limited to the cache size.
use serde::{Deserialize, Serialize};

use super::pages::PageMap;
use super::{Policy, Request, PAGE_SIZE};
use crate::mm::filemap::{Op, Slot};
use crate::mm::pgdat::ZoneType;
use crate::mm::{MappingId, MemcgId};
use crate::scenario::{MemcgSpec, NodeSpec, Scenario, ZoneSpec, SCENARIO_VERSION};
use crate::sim::Simulation;
use crate::workload::{FileOp, Pattern, Target, WorkloadSpec};

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

/// The largest cache: 8 Mi pages (32 GiB).
pub const MAX_CACHE_PAGES: u64 = 8 << 20;
/// The most distinct pages a trace may touch: 64 Mi (the file's page-cache
/// slots take 8 bytes each, 512 MiB at this limit).
pub const MAX_DISTINCT_PAGES: u32 = 1 << 26;
/// Miss-ratio samples kept per policy; when full, every other one goes and
/// the spacing doubles.
pub const MAX_SAMPLES: usize = 1024;
/// Requests between looking up a page's slot and reading it: the replay
/// prefetches the slot this far ahead (the page cache's slots are one
/// random memory access per request, the bulk of a hit's cost).
pub const PIPELINE: usize = 16;
/// The memcg the trace runs in.
pub const MEMCG: &str = "/trace";

/// Misses after `accesses` page accesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct Sample {
    pub accesses: u64,
    pub misses: u64,
}

/// Evenly spaced samples of the miss count, at most MAX_SAMPLES of them.
#[derive(Clone, Debug)]
struct Samples {
    every: u64,
    countdown: u64,
    points: Vec<Sample>,
}

impl Samples {
    fn new() -> Self {
        Samples { every: 1, countdown: 1, points: Vec::new() }
    }

    #[inline]
    fn tick(&mut self, accesses: u64, misses: u64) {
        self.countdown -= 1;
        if self.countdown > 0 {
            return;
        }
        self.points.push(Sample { accesses, misses });
        if self.points.len() > MAX_SAMPLES {
            self.every *= 2;
            let every = self.every;
            self.points.retain(|p| p.accesses % every == 0);
        }
        self.countdown = self.every - accesses % self.every;
    }

    /// The samples, ending at the last access.
    fn with_end(&self, accesses: u64, misses: u64) -> Vec<Sample> {
        let mut v = self.points.clone();
        if accesses > 0 && v.last().is_none_or(|p| p.accesses != accesses) {
            v.push(Sample { accesses, misses });
        }
        v
    }
}

/// A replay of one trace under one policy.
pub struct Replayer {
    pub policy: Policy,
    pub cache_pages: u64,
    sim: Simulation,
    memcg: MemcgId,
    mapping: MappingId,
    pages: PageMap,
    object_pages: bool,
    pub requests: u64,
    pub accesses: u64,
    pub hits: u64,
    /// Misses on pages never read before (compulsory misses).
    pub cold_misses: u64,
    samples: Samples,
    error: Option<String>,
    /// Pages looked up but not yet read (oldest first), at most PIPELINE.
    pending: [u32; PIPELINE],
    pending_head: usize,
    pending_len: usize,
}

/// Asks the CPU to bring `p`'s cache line in (no effect on the result).
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; it never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

impl Replayer {
    /// The machine: one node with room for the cache and then some (so the
    /// node never runs short and kswapd never wakes: the memcg's limit is
    /// the only reclaim), a memcg /trace with memory.max = `cache_pages`,
    /// one file. With `object_pages`, a request of `size` bytes reads the
    /// object's ceil(size / 4096) pages; otherwise one page.
    pub fn new(policy: Policy, cache_pages: u64, object_pages: bool) -> Result<Self, String> {
        if !(1..=MAX_CACHE_PAGES).contains(&cache_pages) {
            return Err(format!("cache size {cache_pages} pages is out of range: accepted from 1 to {MAX_CACHE_PAGES}"));
        }
        let node_pages = cache_pages + cache_pages / 4 + 16_384;
        let workload = WorkloadSpec::new("trace", MEMCG, Pattern::Sequential {}, Target::File { pages: 1, op: FileOp::Read, file: Some("trace".into()), write_percent: 0 });
        let scenario = Scenario {
            version: SCENARIO_VERSION,
            name: "trace-replay".into(),
            title: format!("trace replay, {} policy, {cache_pages} cache pages", policy.name()),
            description: "A trace's requests read one file through the page cache of /trace; the replay drives them, not the workload's generator.".into(),
            seed: 1,
            step_ns: 1_000_000,
            duration_ns: 1_000_000,
            nodes: vec![NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: node_pages as u32 }] }],
            min_free_kbytes: None,
            watermark_scale_factor: 10,
            swap_pages: 0,
            machine: Default::default(),
            memcgs: vec![MemcgSpec { path: MEMCG.into(), memory_max: Some(cache_pages), ..Default::default() }],
            workloads: vec![workload],
            proactive: Vec::new(),
            knobs: policy.knobs(),
        };
        let mut sim = Simulation::new(scenario).map_err(|e| e.to_string())?;
        sim.set_event_log(false);
        let memcg = sim.mm.memcgs.iter().position(|m| m.path == MEMCG).expect("memcg built") as MemcgId;
        let mapping = sim.tasks[0].mapping;
        let a = &mut sim.mm.mappings[mapping as usize];
        a.tracked_count = 0;
        a.slots.clear();
        Ok(Replayer {
            policy,
            cache_pages,
            sim,
            memcg,
            mapping,
            pages: PageMap::new(object_pages),
            object_pages,
            requests: 0,
            accesses: 0,
            hits: 0,
            cold_misses: 0,
            samples: Samples::new(),
            error: None,
            pending: [0; PIPELINE],
            pending_head: 0,
            pending_len: 0,
        })
    }

    /// One request: its page (or, with object pages, each of its pages),
    /// read PIPELINE requests later, in order.
    #[inline]
    pub fn request(&mut self, r: Request) {
        if self.error.is_some() {
            return;
        }
        self.requests += 1;
        if self.pages.switches(r.obj_id) {
            // The switch reads which pages were used: read the pending ones first.
            self.flush();
        }
        let mapping = self.mapping as usize;
        let slots = &self.sim.mm.mappings[mapping].slots;
        let Some(first) = self.pages.page(r.obj_id, MAX_DISTINCT_PAGES, |i| slots.get(i as usize).is_some_and(|&s| s != 0)) else {
            return self.too_many_pages();
        };
        self.enqueue(first);
        if self.object_pages && r.size > PAGE_SIZE {
            let n = r.size.div_ceil(PAGE_SIZE).min(u64::from(MAX_DISTINCT_PAGES)) as u32;
            for j in 1..n {
                let Some(idx) = self.pages.extra_page(r.obj_id, j, MAX_DISTINCT_PAGES) else {
                    return self.too_many_pages();
                };
                self.enqueue(idx);
            }
        }
    }

    /// Queues page `idx`, prefetching its slot; reads the oldest queued
    /// page when the queue is full.
    #[inline]
    fn enqueue(&mut self, idx: u32) {
        let slots = &mut self.sim.mm.mappings[self.mapping as usize].slots;
        if idx as usize >= slots.len() {
            let len = (idx as usize + 1).max(slots.len() * 2).min(MAX_DISTINCT_PAGES as usize);
            slots.resize(len, 0);
        }
        prefetch(&slots[idx as usize]);
        if self.pending_len == PIPELINE {
            let oldest = self.pending[self.pending_head];
            self.pending[self.pending_head] = idx;
            self.pending_head = (self.pending_head + 1) % PIPELINE;
            self.access(oldest);
        } else {
            self.pending[(self.pending_head + self.pending_len) % PIPELINE] = idx;
            self.pending_len += 1;
        }
    }

    /// Reads every queued page (the session does so after each chunk, so
    /// that progress and results count every request pushed).
    pub fn flush(&mut self) {
        while self.pending_len > 0 {
            let idx = self.pending[self.pending_head];
            self.pending_head = (self.pending_head + 1) % PIPELINE;
            self.pending_len -= 1;
            self.access(idx);
        }
    }

    fn too_many_pages(&mut self) {
        self.error = Some(format!("the trace touches more than {MAX_DISTINCT_PAGES} distinct pages, the most a replay keeps"));
    }

    /// filemap_read() of page `idx` by a task in /trace: the engine's path,
    /// then the simulated clock advances by what it cost.
    #[inline]
    fn access(&mut self, idx: u32) {
        if self.error.is_some() {
            return;
        }
        let mm = &mut self.sim.mm;
        let cold = mm.mappings[self.mapping as usize].slots[idx as usize] == 0;
        mm.cost_ns = 0;
        mm.io_wait_ns = 0;
        match mm.access(self.memcg, 0, self.mapping, idx, Op::Read) {
            Ok(out) => {
                self.hits += u64::from(out.hit);
                self.cold_misses += u64::from(cold);
            }
            Err(_) => {
                self.error = Some(format!(
                    "{}: the memcg could not reclaim below its limit of {} pages (out of memory at access {})",
                    self.policy.name(),
                    self.cache_pages,
                    self.accesses + 1
                ));
            }
        }
        mm.now_ns += mm.cost_ns.max(1);
        self.accesses += 1;
        self.samples.tick(self.accesses, self.accesses - self.hits);
    }

    /// Why the replay stopped early, if it did.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    pub fn misses(&self) -> u64 {
        self.accesses - self.hits
    }

    /// Misses over accesses (0 before any access).
    pub fn miss_ratio(&self) -> f64 {
        if self.accesses == 0 {
            0.0
        } else {
            self.misses() as f64 / self.accesses as f64
        }
    }

    /// The samples so far, ending at the last access.
    pub fn samples(&self) -> Vec<Sample> {
        self.samples.with_end(self.accesses, self.misses())
    }

    /// Distinct pages the trace touched.
    pub fn distinct_pages(&self) -> u64 {
        self.cold_misses
    }

    /// Page indices in use (the replayed file's size in pages).
    pub fn file_pages(&self) -> u32 {
        self.pages.file_pages()
    }

    /// The engine state (for counters and invariant checks).
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// Pages resident in the page cache now.
    pub fn resident(&self) -> u64 {
        self.sim.mm.memcgs[self.memcg as usize].usage
    }

    /// Whether page `idx` of the replayed file is resident now.
    pub fn is_resident(&self, idx: u32) -> bool {
        self.sim.mm.mappings[self.mapping as usize].slots.get(idx as usize).is_some_and(|&s| matches!(Slot::decode(s), Slot::Folio(_)))
    }

    /// The memcg's memory.stat event counters, by name: only those the
    /// kernel's memory.stat has (crate::sim::in_memory_stat).
    pub fn memory_stat_events(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        let stat = &self.sim.mm.memcgs[self.memcg as usize].stat;
        crate::mm::vmstat::Item::ALL.iter().filter(|&&i| crate::sim::in_memory_stat(i)).map(move |&i| (i.name(), stat.get(i)))
    }

    /// The memcg's memory.events max count (charges that hit memory.max).
    pub fn events_max(&self) -> u64 {
        self.sim.mm.memcgs[self.memcg as usize].events.max
    }
}
