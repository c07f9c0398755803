//! Reclaim on a slow disk: page cache written faster than a 7,200-rpm disk
//! takes it, and a task that needs memory back while that page cache is
//! still under writeback. Shows v6.12's reclaim throttling
//! (mm/throttle.rs): PGDAT_WRITEBACK, nr_immediate, the congested tags and
//! reclaim_throttle().
use super::builtin::Builtin;
use super::{lru_gen_param, MemcgSpec, NodeSpec, ParamSpec, Params, Scenario, ZoneSpec, SCENARIO_VERSION};
use crate::mm::machine::{Machine, Storage};
use crate::mm::pgdat::ZoneType;
use crate::mm::Knobs;
use crate::workload::{FileOp, Pattern, Target, WorkloadSpec};

/// When /app's second task starts allocating: after the writer has filled
/// the page cache up to the dirty limits.
const GROW_START_NS: u64 = 3_000_000_000;

pub const SLOW_DISK: Builtin = Builtin {
    name: "slow-disk",
    title: "Reclaim on a slow disk: writeback throttling",
    description: "/batch writes a large file through the page cache (write()) on a 7,200-rpm disk that takes about 200 page-sized writes a second; the flusher starts writeback of the dirty pages once they pass the background limit, and balance_dirty_pages holds the writer at the dirty limit. There is no swap, so only page cache can be reclaimed. After 3 s a task of /app allocates memory page after page, and reclaim has to take it from a page cache that is more and more under writeback. With the classic LRU (v6.12) shrink_folio_list marks each folio it meets under writeback (PG_reclaim, nr_writeback); once everything kswapd took in a pass was under writeback it flags the node PGDAT_WRITEBACK, and when it meets its marked folios again (nr_immediate) it sleeps in reclaim_throttle(VMSCAN_THROTTLE_WRITEBACK) until more than 32 of the node's writes have ended or 100 ms have passed (the System tab paints it throttled). When every dirty folio met was under writeback and marked, the node is tagged congested, and the allocating tasks' direct reclaim sleeps a jiffy at a time (VMSCAN_THROTTLE_CONGESTED). Watch the reclaim events, kswapd on the System tab (its sleeps painted throttled) and how slowly /app grows (its memory.current); set storage to 0 (an SSD, whose writes end before reclaim comes back to them) and nobody throttles; MGLRU (lru_gen = 1) does not throttle on writeback (its evict_folios keeps its own reclaim_stat), only on no progress.",
    params: &[
        ParamSpec { name: "storage", default: 1.0, min: 0.0, max: 2.0, integer: true, help: "where the file and swap live: 0 = an SSD, 1 = a 7,200-rpm disk, 2 = brd ramdisks" },
        lru_gen_param(0.0),
        ParamSpec { name: "grow_pages", default: 14_000.0, min: 0.0, max: 1_048_576.0, integer: true, help: "pages /app's second task allocates, one after another, from 3 s on (0 = no such task)" },
        ParamSpec { name: "write_rate", default: 1_000_000.0, min: 10.0, max: 10_000_000.0, integer: true, help: "pages per simulated second /batch tries to write (the 7,200-rpm disk writes about 200 a second; above its pace the dirty limits hold the writer to it; below the background limit the flusher writes pages once they have been dirty 30 s)" },
        ParamSpec { name: "swap_pages", default: 0.0, min: 0.0, max: 4_194_304.0, integer: true, help: "swap space, in pages (0 = no swap: only page cache can be reclaimed)" },
    ],
    build: slow_disk,
};

fn slow_disk(p: &Params, seed: u64) -> Scenario {
    let storage = match p.u32("storage") {
        0 => Storage::Ssd,
        2 => Storage::Ramdisk,
        _ => Storage::Hdd,
    };
    let heap = WorkloadSpec { rate: 200_000, ..WorkloadSpec::new("heap", "/app", Pattern::Zipf { s: 0.8 }, Target::Anon { pages: 4096, write_percent: 30 }) };
    let writer = WorkloadSpec {
        rate: p.u64("write_rate"),
        ..WorkloadSpec::new("writer", "/batch", Pattern::Sequential {}, Target::File { pages: 262_144, op: FileOp::Write, file: None, write_percent: 0 })
    };
    let grow = p.u32("grow_pages");
    let grower = (grow > 0).then(|| WorkloadSpec {
        rate: 20_000,
        start_ns: GROW_START_NS,
        ..WorkloadSpec::new("grower", "/app", Pattern::Sequential {}, Target::Anon { pages: grow, write_percent: 100 })
    });
    Scenario {
        version: SCENARIO_VERSION,
        name: "slow-disk".into(),
        title: SLOW_DISK.title.into(),
        description: String::new(),
        seed,
        step_ns: 10_000_000,
        duration_ns: 20_000_000_000,
        nodes: vec![NodeSpec {
            zones: vec![
                ZoneSpec { zone: ZoneType::Dma, pages: 1024 },
                ZoneSpec { zone: ZoneType::Dma32, pages: 4096 },
                ZoneSpec { zone: ZoneType::Normal, pages: 16_384 },
            ],
        }],
        min_free_kbytes: None,
        watermark_scale_factor: 10,
        swap_pages: p.u64("swap_pages"),
        machine: Machine { storage, cpus: None },
        memcgs: vec![MemcgSpec { path: "/app".into(), ..Default::default() }, MemcgSpec { path: "/batch".into(), ..Default::default() }],
        workloads: [heap, writer].into_iter().chain(grower).collect(),
        proactive: Vec::new(),
        knobs: Knobs { lru_gen_enabled: p.u32("lru_gen") == 1, ..Knobs::default() },
    }
}
