//! Introductory scenarios that each show one mechanism: scan resistance of
//! the classic LRU and of MGLRU, and refaults judged by their shadow entries.
use super::builtin::Builtin;
use super::{lru_gen_param, MemcgSpec, NodeSpec, ParamSpec, Params, Scenario, ZoneSpec, SCENARIO_VERSION};
use crate::mm::pgdat::ZoneType;
use crate::mm::Knobs;
use crate::workload::{FileOp, Pattern, Target, WorkloadSpec};

/// When the scan of `scan-resistance` starts: after the hot set has settled.
const SCAN_START_NS: u64 = 1_000_000_000;
/// When the working set of `refaults` changes.
const SHIFT_NS: u64 = 1_000_000_000;

pub const SCAN_RESISTANCE: Builtin = Builtin {
    name: "scan-resistance",
    title: "Classic LRU vs MGLRU on a scan",
    description: "A service reads a hot file (zipf popularity) that fits in its memcg's memory.max; after one second a backup job reads a file many times larger than the limit once, from start to end. Each page of the scan is used once: the question is whether it pushes the hot pages out. Flip lru_gen between 1 (MGLRU) and 0 (the classic LRU) and watch the hot file's tracked folios and workingset_refault_file. The classic LRU adds new pages to the inactive list and promotes only pages touched twice (folio_mark_accessed), so the scan streams through the inactive list while the active list keeps the hot set; shrink_active_list still deactivates some of it whenever the inactive list is low (inactive_is_low). MGLRU adds the scan's pages to the oldest generations (lru_gen_add_folio) and evicts them first; the hot pages are in younger generations or in higher tiers that the PID controller protects.",
    params: &[
        lru_gen_param(1.0),
        ParamSpec { name: "memory_max", default: 2048.0, min: 256.0, max: 262_144.0, integer: true, help: "memory.max of /service, in 4 KiB pages" },
        ParamSpec { name: "hot_percent", default: 50.0, min: 5.0, max: 90.0, integer: true, help: "the hot file's size, in percent of memory.max" },
        ParamSpec { name: "scan_ratio", default: 8.0, min: 1.0, max: 64.0, integer: false, help: "the scanned file's size, in multiples of memory.max" },
        ParamSpec { name: "hot_rate", default: 20_000.0, min: 100.0, max: 1_000_000.0, integer: true, help: "reads of the hot file per simulated second" },
        ParamSpec { name: "scan_rate", default: 20_000.0, min: 100.0, max: 1_000_000.0, integer: true, help: "pages the scan reads per simulated second" },
    ],
    build: scan_resistance,
};

pub const REFAULTS: Builtin = Builtin {
    name: "refaults",
    title: "Refaults and shadow entries",
    description: "A memcg's working set changes: for the first second a reader keeps half of memory.max busy (its pages are read again and again, so they end up active); then a new job loops over a file of three quarters of memory.max. The new file does not fit in what the inactive list holds, so under plain LRU each of its pages would be evicted just before the loop came back to it, forever. When a page is evicted the page cache keeps a shadow entry in its slot (workingset_eviction: the lruvec's eviction clock nonresident_age, or MGLRU's generation); when the page is read again, the shadow tells how long it was gone: its refault distance. The classic LRU (lru_gen = 0) activates a refaulting page whose distance fits in the active list (workingset_refault, workingset_test_recent), so the new working set takes the old one's place and the refaults stop. MGLRU (lru_gen = 1) judges a refault by the generation its shadow names and feeds the tiers' PID controller (lru_gen_refault); with patch 004 (refault_distance = 1) by the distance too (lru_test_refault). Watch workingset_refault_file, workingset_activate_file and the evicted folios.",
    params: &[
        lru_gen_param(0.0),
        ParamSpec { name: "refault_distance", default: 0.0, min: 0.0, max: 1.0, integer: true, help: "with MGLRU: 1 = patch 004's refault distance (lru_test_refault)" },
        ParamSpec { name: "memory_max", default: 2048.0, min: 256.0, max: 262_144.0, integer: true, help: "memory.max of /job, in 4 KiB pages" },
        ParamSpec { name: "old_percent", default: 50.0, min: 10.0, max: 90.0, integer: true, help: "the first working set, in percent of memory.max" },
        ParamSpec { name: "new_percent", default: 75.0, min: 10.0, max: 400.0, integer: true, help: "the looped file (the new working set), in percent of memory.max; above 100 it cannot fit, and no LRU can keep it" },
        ParamSpec { name: "rate", default: 50_000.0, min: 100.0, max: 1_000_000.0, integer: true, help: "reads per simulated second of each reader" },
    ],
    build: refaults,
};

/// One node four times the limit (no global pressure) and one limited memcg.
fn limited(name: &str, title: &str, memcg: &str, memory_max: u64, seed: u64, workloads: Vec<WorkloadSpec>, knobs: Knobs) -> Scenario {
    Scenario {
        version: SCENARIO_VERSION,
        name: name.into(),
        title: title.into(),
        description: String::new(),
        seed,
        step_ns: 10_000_000,
        duration_ns: 5_000_000_000,
        nodes: vec![NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: (memory_max * 4).max(16_384) as u32 }] }],
        min_free_kbytes: None,
        watermark_scale_factor: 10,
        swap_pages: 0,
        machine: Default::default(),
        memcgs: vec![MemcgSpec { path: memcg.into(), memory_max: Some(memory_max), ..Default::default() }],
        workloads,
        proactive: Vec::new(),
        knobs,
    }
}

fn file(pages: u64, name: &str) -> Target {
    Target::File { pages: pages.max(1) as u32, op: FileOp::Read, file: Some(name.into()), write_percent: 0 }
}

fn scan_resistance(p: &Params, seed: u64) -> Scenario {
    let max = p.u64("memory_max");
    let hot = max * p.u64("hot_percent") / 100;
    let scan = (max as f64 * p.get("scan_ratio")) as u64;
    let workloads = vec![
        WorkloadSpec { rate: p.u64("hot_rate"), ..WorkloadSpec::new("service", "/service", Pattern::Zipf { s: 0.9 }, file(hot, "hot")) },
        WorkloadSpec {
            rate: p.u64("scan_rate"),
            start_ns: SCAN_START_NS,
            ..WorkloadSpec::new("backup", "/service", Pattern::Sequential {}, file(scan, "backup"))
        },
    ];
    let knobs = Knobs { lru_gen_enabled: p.u32("lru_gen") == 1, ..Knobs::default() };
    limited("scan-resistance", SCAN_RESISTANCE.title, "/service", max, seed, workloads, knobs)
}

fn refaults(p: &Params, seed: u64) -> Scenario {
    let max = p.u64("memory_max");
    let rate = p.u64("rate");
    let workloads = vec![
        WorkloadSpec { rate, stop_ns: SHIFT_NS, ..WorkloadSpec::new("old", "/job", Pattern::Uniform {}, file(max * p.u64("old_percent") / 100, "old")) },
        WorkloadSpec { rate, start_ns: SHIFT_NS, ..WorkloadSpec::new("new", "/job", Pattern::Loop {}, file(max * p.u64("new_percent") / 100, "new")) },
    ];
    let knobs = Knobs { lru_gen_enabled: p.u32("lru_gen") == 1, refault_distance_mglru: p.u32("refault_distance") == 1, ..Knobs::default() };
    limited("refaults", REFAULTS.title, "/job", max, seed, workloads, knobs)
}
