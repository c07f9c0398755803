//! The small machine of the mechanism tests (mechanisms.rs, mechanisms_reclaim.rs),
//! and the base scenario pacing.rs and memcg.rs change.
#![allow(dead_code)]
use reclaim_core::mm::filemap::Slot;
use reclaim_core::mm::pgdat::ZoneType;
use reclaim_core::mm::Knobs;
use reclaim_core::scenario::{MemcgSpec, NodeSpec, Scenario, ZoneSpec, SCENARIO_VERSION};
use reclaim_core::sim::Simulation;
use reclaim_core::workload::{FileOp, Pattern, Target, WorkloadSpec};

/// One node of 8192 pages, memcg /a (memory.max `max`), a 4096-page file
/// (mapping 0) and a 1024-page anon region (mapping 1); the workloads exist
/// only to create the mappings: tests drive accesses directly.
pub fn machine(lru_gen: bool, max: Option<u64>) -> Simulation {
    Simulation::new(scenario(lru_gen, max)).unwrap()
}

/// machine()'s scenario, for tests that change its nodes or workloads.
pub fn scenario(lru_gen: bool, max: Option<u64>) -> Scenario {
    let w = |name: &str, target| WorkloadSpec::new(name, "/a", Pattern::Uniform {}, target);
    Scenario {
        version: SCENARIO_VERSION,
        name: "test".into(),
        title: String::new(),
        description: String::new(),
        seed: 1,
        step_ns: 1_000_000,
        duration_ns: 1_000_000,
        nodes: vec![NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: 8192 }] }],
        min_free_kbytes: None,
        watermark_scale_factor: 10,
        swap_pages: 4096,
        machine: Default::default(),
        memcgs: vec![MemcgSpec { path: "/a".into(), memory_max: max, ..Default::default() }],
        workloads: vec![
            w("file", Target::File { pages: 4096, op: FileOp::Read, file: None, write_percent: 0 }),
            w("anon", Target::Anon { pages: 1024, write_percent: 0 }),
        ],
        proactive: Vec::new(),
        knobs: Knobs { lru_gen_enabled: lru_gen, ..Knobs::default() },
    }
}

pub const A: u16 = 1; // memcg /a
pub const FILE: u32 = 0;
pub const ANON: u32 = 1;

pub fn folio_at(s: &Simulation, m: u32, idx: u32) -> u32 {
    match s.mm.slot(m, idx) {
        Slot::Folio(f) => f,
        other => panic!("page {idx} of mapping {m} is not resident: {other:?}"),
    }
}

