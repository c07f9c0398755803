//! Built-in scenarios, one function each, expanded from parameters.
use super::{lru_gen_param, MemcgSpec, NodeSpec, ParamSpec, Params, Scenario, ZoneSpec, SCENARIO_VERSION};
use crate::mm::pgdat::ZoneType;
use crate::mm::Knobs;
use crate::workload::{FileOp, Pattern, Target, WorkloadSpec};

pub struct Builtin {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub params: &'static [ParamSpec],
    pub build: fn(&Params, u64) -> Scenario,
}

pub const DEFAULT: &str = "mglru-basic";

const BASIC_PARAMS: &[ParamSpec] = &[
    ParamSpec { name: "memory_max", default: 2048.0, min: 256.0, max: 262_144.0, integer: true, help: "memory.max of /job, in 4 KiB pages" },
    ParamSpec { name: "file_pages", default: 4096.0, min: 16.0, max: 1_048_576.0, integer: true, help: "size of the file the reader reads, in pages" },
    ParamSpec { name: "anon_pages", default: 1024.0, min: 0.0, max: 1_048_576.0, integer: true, help: "size of the key-value task's anonymous heap, in pages (0 = no such task)" },
    ParamSpec { name: "zipf_s", default: 0.9, min: 0.1, max: 3.0, integer: false, help: "zipf exponent of the reader's and the key-value task's popularity" },
    ParamSpec { name: "anon_rate", default: 200_000.0, min: 1_000.0, max: 10_000_000.0, integer: true, help: "key-value accesses per simulated second" },
    ParamSpec { name: "reader_pattern", default: 0.0, min: 0.0, max: 3.0, integer: true, help: "the reader's pattern: 0 = zipf (zipf_s), 1 = uniform, 2 = one sequential scan, 3 = loop over the file" },
    ParamSpec { name: "reader_op", default: 0.0, min: 0.0, max: 3.0, integer: true, help: "how the reader touches the file: 0 = read(), 1 = write(), 2 = mmap loads, 3 = mmap loads and stores (50 %)" },
    ParamSpec { name: "tracked_pages", default: 0.0, min: 0.0, max: 65_536.0, integer: true, help: "pages the LRU view tracks and draws, shared by the file and the heap in proportion to their sizes (at most their sizes); 0 = automatic (48 of each)" },
];

pub static ALL: &[Builtin] = &[Builtin {
    name: "mglru-basic",
    title: "MGLRU aging and eviction",
    description: "One memcg with a memory.max limit holds one multi-gen LRU lruvec. A reader streams a file larger than the limit through the page cache (zipf popularity) while a key-value task touches its anonymous heap. Watch new generations being created (inc_max_seq), the oldest ones drained by evict_folios, and refaults of recently evicted pages.",
    params: BASIC_PARAMS,
    build: mglru_basic,
},
Builtin {
    name: "classic-basic",
    title: "Classic LRU: active and inactive lists",
    description: "The same memcg and tasks as \"MGLRU aging and eviction\", on the classic active/inactive LRU (MGLRU off). A page read twice moves to the active list (folio_mark_accessed); shrink_active_list deactivates when the inactive list is low (inactive_is_low); shrink_inactive_list evicts from the tail; a refault whose distance fits in the workingset starts active (workingset_refault).",
    params: BASIC_PARAMS,
    build: classic_basic,
},
super::intro::SCAN_RESISTANCE,
super::intro::REFAULTS,
Builtin {
    name: "global-pressure",
    title: "kswapd and the zone watermarks",
    description: "No memcg limits: a heap in /app and a file streamer in /batch fill a node with DMA, DMA32 and Normal zones. Allocations below the low watermark wake kswapd (wakeup_kswapd), which reclaims until a zone is above its high watermark (balance_pgdat, pgdat_balanced), naps 0.1 s and sleeps (kswapd_try_to_sleep); allocations that reach the min watermark reclaim directly (try_to_free_pages).",
    params: &[
        ParamSpec { name: "normal_pages", default: 16_384.0, min: 2048.0, max: 1_048_576.0, integer: true, help: "pages of ZONE_NORMAL" },
        ParamSpec { name: "dma32_pages", default: 4096.0, min: 1024.0, max: 1_048_576.0, integer: true, help: "pages of ZONE_DMA32" },
        ParamSpec { name: "anon_pages", default: 8192.0, min: 0.0, max: 4_194_304.0, integer: true, help: "size of /app's heap, in pages (0 = no heap)" },
        ParamSpec { name: "file_pages", default: 65_536.0, min: 16.0, max: 4_194_304.0, integer: true, help: "size of the file /batch streams, in pages" },
        ParamSpec { name: "anon_rate", default: 200_000.0, min: 1_000.0, max: 10_000_000.0, integer: true, help: "heap accesses per simulated second" },
        ParamSpec { name: "watermark_scale_factor", default: 10.0, min: 1.0, max: 3000.0, integer: true, help: "vm.watermark_scale_factor: the gap between min, low and high watermarks, in 1/10000 of a zone" },
    ],
    build: global_pressure,
},
super::slow_disk::SLOW_DISK,
Builtin {
    name: "proactive-root",
    title: "memory.reclaim on the root of many memcgs",
    description: "Sibling memcgs each read and write their own region at random, with no memory pressure; a userspace agent writes to the root's memory.reclaim at intervals. With MGLRU and the memcg LRU, each write is served by shrink_many walking the memcg LRU from a random bin (lru_gen_rotate_memcg moves a memcg that had to be aged to the young generation), so every memcg gives back a similar share over time. Watch pgsteal per memcg, its coefficient of variation, and each write's rounds and overreclaim.",
    params: &[
        ParamSpec { name: "memcgs", default: 16.0, min: 2.0, max: 512.0, integer: true, help: "sibling memcgs under the root" },
        ParamSpec { name: "pages_per_memcg", default: 512.0, min: 64.0, max: 65_536.0, integer: true, help: "pages each memcg's job touches" },
        ParamSpec { name: "request", default: 256.0, min: 1.0, max: 1_048_576.0, integer: true, help: "pages per memory.reclaim write" },
        ParamSpec { name: "interval", default: 200.0, min: 10.0, max: 60_000.0, integer: true, help: "time between memory.reclaim writes, in ms" },
        ParamSpec { name: "rate", default: 20_000.0, min: 100.0, max: 10_000_000.0, integer: true, help: "each job's accesses per simulated second" },
        lru_gen_param(1.0),
        ParamSpec { name: "memcg_lru", default: 1.0, min: 0.0, max: 1.0, integer: true, help: "with MGLRU: 0 = walk every memcg (v6.1/6.2), 1 = the memcg LRU (v6.3+)" },
        ParamSpec { name: "batch", default: 2.0, min: 0.0, max: 2.0, integer: true, help: "memory.reclaim batches: 0 = whole request (<= v6.5), 1 = 32 pages (v6.6-6.8), 2 = remaining/4 (v6.9+)" },
        ParamSpec { name: "node_pages", default: 0.0, min: 0.0, max: 4_194_304.0, integer: true, help: "pages of the node: 0 = twice what the jobs touch (no global pressure), else at least 64 (the smallest zone the engine takes)" },
    ],
    build: proactive_root,
}];

fn global_pressure(p: &Params, seed: u64) -> Scenario {
    let anon_rate = p.u64("anon_rate");
    Scenario {
        version: SCENARIO_VERSION,
        name: "global-pressure".into(),
        title: "kswapd and the zone watermarks".into(),
        description: String::new(),
        seed,
        step_ns: 10_000_000,
        duration_ns: 10_000_000_000,
        nodes: vec![NodeSpec {
            zones: vec![
                ZoneSpec { zone: ZoneType::Dma, pages: 1024 },
                ZoneSpec { zone: ZoneType::Dma32, pages: p.u32("dma32_pages") },
                ZoneSpec { zone: ZoneType::Normal, pages: p.u32("normal_pages") },
            ],
        }],
        min_free_kbytes: None,
        watermark_scale_factor: p.u64("watermark_scale_factor"),
        swap_pages: 16_384,
        machine: Default::default(),
        memcgs: vec![MemcgSpec { path: "/app".into(), ..Default::default() }, MemcgSpec { path: "/batch".into(), ..Default::default() }],
        // anon_pages=0: no heap, the streamer alone.
        workloads: (p.u32("anon_pages") > 0)
            .then(|| WorkloadSpec {
                rate: anon_rate,
                ..WorkloadSpec::new("heap", "/app", Pattern::Zipf { s: 0.8 }, Target::Anon { pages: p.u32("anon_pages"), write_percent: 30 })
            })
            .into_iter()
            .chain([WorkloadSpec::new("streamer", "/batch", Pattern::Uniform {}, Target::File { pages: p.u32("file_pages"), op: FileOp::Read, file: None, write_percent: 0 })])
            .collect(),
        proactive: Vec::new(),
        knobs: Knobs::default(),
    }
}

/// `n` sibling memcgs /memcg0.. under the root, each running one fio-like
/// job that reads and writes its own region of `pages` at random, `rate`
/// accesses per second (fio --ioengine=mmap on /dev/zero: shared anonymous
/// memory, swap-backed). Used by proactive-root and memcg-lru-fairness.
pub fn fio_siblings(n: u32, pages: u32, rate: u64) -> (Vec<MemcgSpec>, Vec<WorkloadSpec>) {
    let memcgs = (0..n).map(|i| MemcgSpec { path: format!("/memcg{i}"), ..Default::default() }).collect();
    let workloads = (0..n)
        .map(|i| WorkloadSpec {
            rate,
            ..WorkloadSpec::new(format!("fio{i}"), format!("/memcg{i}"), Pattern::Uniform {}, Target::Anon { pages, write_percent: 50 })
        })
        .collect();
    (memcgs, workloads)
}

fn proactive_root(p: &Params, seed: u64) -> Scenario {
    let n = p.u32("memcgs");
    let pages = p.u32("pages_per_memcg");
    let (memcgs, workloads) = fio_siblings(n, pages, p.u64("rate"));
    let mut knobs = Knobs { lru_gen_enabled: p.u32("lru_gen") == 1, memcg_lru: p.u32("memcg_lru") == 1, ..Knobs::default() };
    knobs.proactive_batch = match p.u32("batch") {
        0 => crate::mm::memcontrol::ProactiveBatch::Whole,
        1 => crate::mm::memcontrol::ProactiveBatch::SwapClusterMax,
        _ => crate::mm::memcontrol::ProactiveBatch::Decaying,
    };
    let interval = p.u64("interval") * 1_000_000;
    Scenario {
        version: SCENARIO_VERSION,
        name: "proactive-root".into(),
        title: "memory.reclaim on the root of many memcgs".into(),
        description: String::new(),
        seed,
        step_ns: 10_000_000,
        duration_ns: 10_000_000_000,
        nodes: vec![NodeSpec {
            zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: if p.u32("node_pages") == 0 { (n * pages * 2).max(16_384) } else { p.u32("node_pages") } }],
        }],
        min_free_kbytes: None,
        watermark_scale_factor: 10,
        swap_pages: u64::from(n * pages) * 2,
        machine: Default::default(),
        memcgs,
        workloads,
        proactive: vec![crate::scenario::ProactiveSpec {
            memcg: "/".into(),
            pages: p.u64("request"),
            bytes: None,
            start_ns: interval,
            interval_ns: interval,
            count: 1_000_000,
        }],
        knobs,
    }
}

fn classic_basic(p: &Params, seed: u64) -> Scenario {
    let mut s = mglru_basic(p, seed);
    s.name = "classic-basic".into();
    s.title = "Classic LRU: active and inactive lists".into();
    s.knobs.lru_gen_enabled = false;
    s
}

/// The tracked sample of `tracked` pages (0 = automatic: None) shared by a
/// file of `file` pages and a heap of `anon` pages in proportion to their
/// sizes, each at least one page and at most its size.
fn split_tracked(tracked: u32, file: u32, anon: u32) -> (Option<u32>, Option<u32>) {
    if tracked == 0 {
        return (None, None);
    }
    let tracked = tracked.min(file + anon);
    let of_file = (u64::from(tracked) * u64::from(file) + u64::from(file + anon) / 2) / u64::from(file + anon);
    let of_file = (of_file as u32).clamp(1, file);
    let of_anon = tracked.saturating_sub(of_file).clamp(1, anon.max(1));
    (Some(of_file), (anon > 0).then_some(of_anon))
}

fn mglru_basic(p: &Params, seed: u64) -> Scenario {
    let memory_max = p.u64("memory_max");
    let node_pages = (memory_max * 4).max(16_384) as u32;
    let pattern = match p.u32("reader_pattern") {
        0 => Pattern::Zipf { s: p.get("zipf_s") },
        1 => Pattern::Uniform {},
        2 => Pattern::Sequential {},
        _ => Pattern::Loop {},
    };
    let (op, write_percent) = match p.u32("reader_op") {
        0 => (FileOp::Read, 0),
        1 => (FileOp::Write, 100),
        2 => (FileOp::MmapRead, 0),
        _ => (FileOp::MmapWrite, 50),
    };
    let (tracked_file, tracked_anon) = split_tracked(p.u32("tracked_pages"), p.u32("file_pages"), p.u32("anon_pages"));
    let reader = WorkloadSpec::new("reader", "/job", pattern, Target::File { pages: p.u32("file_pages"), op, file: None, write_percent });
    let mut workloads = vec![WorkloadSpec { tracked_pages: tracked_file, ..reader }];
    if p.u32("anon_pages") > 0 {
        workloads.push(WorkloadSpec {
            rate: p.u64("anon_rate"),
            tracked_pages: tracked_anon,
            ..WorkloadSpec::new("kv", "/job", Pattern::Zipf { s: p.get("zipf_s") }, Target::Anon { pages: p.u32("anon_pages"), write_percent: 30 })
        });
    }
    Scenario {
        version: SCENARIO_VERSION,
        name: "mglru-basic".into(),
        title: "MGLRU aging and eviction".into(),
        description: String::new(),
        seed,
        step_ns: 10_000_000,
        duration_ns: 5_000_000_000,
        nodes: vec![NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: node_pages }] }],
        min_free_kbytes: None,
        watermark_scale_factor: 10,
        swap_pages: memory_max * 2,
        machine: Default::default(),
        memcgs: vec![MemcgSpec { path: "/job".into(), memory_max: Some(memory_max), ..Default::default() }],
        workloads,
        proactive: Vec::new(),
        knobs: Knobs::default(),
    }
}
