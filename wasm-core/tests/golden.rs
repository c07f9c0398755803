//! Golden counters: one file per workload kind in tests/golden/, holding the
//! /proc/vmstat counters of a short run. A change in engine behaviour shows
//! up as a reviewable diff. On mismatch the test writes NAME-changed.json
//! next to the golden file; set UPDATE_GOLDEN=1 to rewrite the golden files.
use std::path::PathBuf;

use reclaim_core::mm::pgdat::ZoneType;
use reclaim_core::mm::Knobs;
use reclaim_core::scenario::{MemcgSpec, NodeSpec, Scenario, ZoneSpec, SCENARIO_VERSION};
use reclaim_core::sim::Simulation;
use reclaim_core::workload::{FileOp, Pattern, Target, WorkloadSpec};

fn scenario(name: &str, pattern: Pattern, target: Target, lru_gen: bool) -> Scenario {
    Scenario {
        version: SCENARIO_VERSION,
        name: name.into(),
        title: String::new(),
        description: String::new(),
        seed: 42,
        step_ns: 10_000_000,
        duration_ns: 10_000_000,
        nodes: vec![NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: 8192 }] }],
        min_free_kbytes: None,
        watermark_scale_factor: 10,
        swap_pages: 2048,
        machine: Default::default(),
        memcgs: vec![MemcgSpec { path: "/job".into(), memory_max: Some(1024), ..Default::default() }],
        workloads: vec![WorkloadSpec::new("w", "/job", pattern, target)],
        proactive: Vec::new(),
        knobs: Knobs { lru_gen_enabled: lru_gen, ..Knobs::default() },
    }
}

fn cases() -> Vec<Scenario> {
    let file = |op| Target::File { pages: 2048, op, file: None, write_percent: 50 };
    let anon = Target::Anon { pages: 1536, write_percent: 30 };
    let mut out = Vec::new();
    for lru_gen in [true, false] {
        let sfx = if lru_gen { "mglru" } else { "classic" };
        out.push(scenario(&format!("uniform-read-{sfx}"), Pattern::Uniform {}, file(FileOp::Read), lru_gen));
        out.push(scenario(&format!("zipf-read-{sfx}"), Pattern::Zipf { s: 1.0 }, file(FileOp::Read), lru_gen));
        out.push(scenario(&format!("sequential-scan-{sfx}"), Pattern::Sequential {}, file(FileOp::Read), lru_gen));
        out.push(scenario(&format!("loop-{sfx}"), Pattern::Loop {}, file(FileOp::Read), lru_gen));
        out.push(scenario(&format!("kv-anon-{sfx}"), Pattern::Zipf { s: 0.9 }, anon.clone(), lru_gen));
        out.push(scenario(&format!("mmap-rw-{sfx}"), Pattern::Uniform {}, file(FileOp::MmapWrite), lru_gen));
    }
    out
}

#[test]
fn golden_counters() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    for s in cases() {
        let name = s.name.clone();
        let mut sim = Simulation::new(s).unwrap();
        for _ in 0..100 {
            sim.step();
        }
        let counters: serde_json::Map<String, serde_json::Value> =
            sim.vmstat().into_iter().filter(|(_, v)| *v != 0).map(|(k, v)| (k, v.into())).collect();
        let text = serde_json::to_string_pretty(&counters).unwrap() + "\n";
        let path = dir.join(format!("{name}.json"));
        let changed = dir.join(format!("{name}-changed.json"));
        if update {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == text => {
                let _ = std::fs::remove_file(&changed);
            }
            Ok(_) => {
                std::fs::write(&changed, &text).unwrap();
                failures.push(format!("{name}: counters differ from {} (see {})", path.display(), changed.display()));
            }
            Err(_) => {
                std::fs::write(&changed, &text).unwrap();
                failures.push(format!("{name}: no golden file {} (UPDATE_GOLDEN=1 writes it)", path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
