//! memcg-lru-fairness (seed 001, "mm: multi-gen LRU: memcg LRU", Yu Zhao,
//! 2022): many sibling memcgs, no global pressure, periodic writes to the
//! root's memory.reclaim. Before: MGLRU off, the classic LRU with
//! shrink_node_memcgs visiting every memcg on every pass (the 6.1-era walk).
//! After: MGLRU with the memcg LRU (shrink_many over generations and bins).
use super::{Direction, Experiment, Headline, Variant, MetricDoc};
use crate::mm::pgdat::ZoneType;
use crate::mm::vmstat::Item;
use crate::mm::memcontrol::ProactiveBatch;
use crate::mm::Knobs;
use crate::scenario::{fio_siblings, NodeSpec, ParamSpec, Params, ProactiveSpec, Scenario, ZoneSpec, SCENARIO_VERSION};
use crate::sim::Simulation;

pub static EXPERIMENT: Experiment = Experiment {
    name: "memcg-lru-fairness",
    title: "memcg LRU: fair proactive reclaim over many memcgs",
    patch: "001_cbca71238df087d5.txt: mm: multi-gen LRU: memcg LRU (Yu Zhao, 2022)",
    description: "Sibling memcgs each read and write their own region at random (fio mmap randrw on /dev/zero: shared anonymous memory); nothing else presses on memory; every `interval` ms a userspace agent writes `request` pages to the root's memory.reclaim. Before the patch every reclaim pass visits every memcg at the current priority, and only between passes does do_try_to_free_pages check whether the request is met: one write takes a share from everybody at each priority until a whole pass has made up the request, so the total overshoots it, the more the smaller the request is next to one pass. With the memcg LRU, each pass starts at a random bin of the old generation, stops as soon as the request is met, and moves the memcgs it had to age to the young generation, so the total matches the request, and, as the patch says, every memcg gives back about the same over time (eventual fairness). In the model the total matches, but the old walk is the more even of the two (see where it does not hold).",
    params: &[
        ParamSpec { name: "memcgs", default: 128.0, min: 2.0, max: 512.0, integer: true, help: "sibling memcgs under the root" },
        ParamSpec { name: "pages_per_memcg", default: 1024.0, min: 256.0, max: 8192.0, integer: true, help: "pages each memcg's job reads and writes at random" },
        ParamSpec { name: "request", default: 512.0, min: 32.0, max: 65_536.0, integer: true, help: "pages per write to the root's memory.reclaim" },
        ParamSpec { name: "interval", default: 100.0, min: 10.0, max: 2000.0, integer: true, help: "time between writes, in ms" },
        ParamSpec { name: "writes", default: 60.0, min: 5.0, max: 600.0, integer: true, help: "number of writes" },
        ParamSpec { name: "rate", default: 2000.0, min: 100.0, max: 20_000.0, integer: true, help: "each job's accesses per simulated second" },
    ],
    variants: &[
        Variant { name: "before", description: "MGLRU off: the classic LRU; shrink_node_memcgs visits every memcg on every pass (v6.1/6.2)" },
        Variant { name: "after", description: "MGLRU with the memcg LRU (v6.3+; the model runs it as in v6.12, with its later fixes)" },
        Variant { name: "mglru-no-memcg-lru", description: "MGLRU without the memcg LRU: every memcg on every pass (v6.1/6.2)" },
        Variant { name: "classic-incremental", description: "MGLRU off on v6.11+: the classic LRU with incremental memcg iteration (\"mm: vmscan: restore incremental cgroup iteration\"): each walk starts where the last one stopped (a shared cursor) and stops once the request is met; memory.reclaim asks in decaying rounds (v6.9+)" },
    ],
    headlines: &[
        Headline { metric: "pgsteal_cv", direction: Direction::Lower, author_before: "75 %", author_after: "20 %", baseline: "before" },
        Headline { metric: "reclaim_ratio", direction: Direction::Lower, author_before: "425 %", author_after: "95 %", baseline: "before" },
    ],
    limits: LIMITS,
    build,
    metrics,
    metric_docs: &[
        MetricDoc { name: "pgsteal_cv", help: "how unevenly the memcgs gave back pages: the standard deviation of their pgsteal (memory.stat) over its mean, at the end of the run; 0 % when every memcg gave back the same" },
        MetricDoc { name: "reclaim_ratio", help: "pages reclaimed from the memcgs over pages asked for through memory.reclaim (sum of pgsteal / sum of requests); 100 % is exactly what was asked" },
        MetricDoc { name: "pgsteal_total", help: "pages reclaimed from all the memcgs (the sum of their pgsteal)" },
        MetricDoc { name: "requested_total", help: "pages asked for by all the memory.reclaim writes" },
        super::common::EAGAIN_WRITES,
    ],
};

/// Where the headlines do not hold, and why (docs/experiments.md).
const LIMITS: &str = "pgsteal_cv does not reproduce: here the memcg LRU is less even than the walk it replaced. Its 5/5 at request=65536 is the degenerate point the next paragraph describes, where every write but the first fails; its 2/5 at memcgs=2 (seeds 1 and 3) is noise: the two memcgs give back nearly the same in every variant (CV under 3 % on seeds 1-5), and 54 to 57 of the 60 writes fail. The v6.1 walk visits every memcg at every priority and scans each in proportion to its size (get_scan_count: size >> priority), so identical jobs give back nearly identical shares (CV under 3 % for before and mglru-no-memcg-lru on seeds 1-5). The memcg LRU stops as soon as a request is met and evens out only over many writes (eventual fairness): its CV falls as writes accumulate and lands near the author's 20 % at the defaults.\n\nreclaim_ratio holds everywhere but at request=65536, where no variant can serve the writes at all: half of every job's pages every 100 ms. The first two writes swap out nearly all the jobs' pages (the second already fails), the jobs fault their pages back from swap, and every later write meets memcgs holding a few pages each and ends in -EAGAIN (59 of 60 writes in all four variants, seeds 1-5), so the ratio (8 to 9 % in each variant) counts failed writes, not overshoot. Empty memcgs count as protected there, as in the kernel (mem_cgroup_below_min: emin >= usage), so a failing write skips them and fails sooner.\n\nmglru-no-memcg-lru overshoots the most but has no -EAGAIN writes at the defaults (0 of 60 on seeds 1-5). Its largest write, the first, takes 8,192 pages, 6 % of the jobs' pages, and the median write about 3,000. The reclaimer does not wait for its swap writes, only for a free tag when the device's queue is full, so it goes at the device's pace, about one write per 10 us, and its writes last 19 to 86 ms (about 32 ms in the median), within the 100 ms between writes. The jobs fault their pages back between writes, and every write finds its request.\n\nThe author's 75 % for the old walk must come from what a deterministic model of identical jobs leaves out (128 fio processes started one after another, scheduled and faulting concurrently on a NUMA machine, with per-CPU LRU batches); we did not find a mechanism in the old walk that would make it uneven.\n\nOne candidate was tested and ruled out: swap readahead (shmem_swapin -> swap_cluster_readahead, with slots handed out in clusters so a reclaim batch's pages sit together). Under random faults the kernel's window (__swapin_nr_pages) stays at one slot, and a forced 8-slot window, tried while the model's reclaimer still waited for every swap write, left the old walk's CV at 1.4-1.5 % against 1.3 % without it (seeds 1-2): each job touches all its pages about every 0.5 s, so 79 % of the pages read ahead were faulted before the next write and are not the cheap, unused pages such a feedback needs.\n\nAn uneven walk without the memcg LRU does exist, in later kernels: the classic-incremental column runs the classic LRU as v6.11+ does (\"mm: vmscan: restore incremental cgroup iteration\", 6be5e186fd65), where reclaim walks share a cursor and stop once a round's request is met. Its CV is about 90 % (88-92 % on seeds 1-5), with no overshoot (reclaim ratio 101.3-101.5 %). The cursor does not go round in effect: at the first priorities a 1,024-page memcg has nothing to scan (size >> priority is 0), so every round's walk reaches the end of the tree, which resets the cursor, and the first priority that finds pages starts again at the first memcg in tree order. On seed 1 /memcg0 gave 1,558 pages and /memcg127 87; the first 32 memcgs gave 16,475, the last 32 gave 3,578. Chen Ridong's MGLRU walk with mem_cgroup_iter's shared cursor (below) came out uneven too (75.7 %), though it overshot; neither is the v6.1 walk the patch replaced.\n\nHow even this test comes out depends on the machine as much as on the walk: Chen Ridong ran the author's test on a 1 TB machine with four NUMA nodes in December 2025 ([RFC PATCH -next 1/2] mm/mglru: use mem_cgroup_iter for global reclaim) and measured a CV of 91.2 % for the memcg LRU (reclaim ratio 216.4 %) and 75.7 % for a walk with mem_cgroup_iter's shared cursor (230.5 %), where the author had 20 % and 95 % for the memcg LRU on his. Running it again for v2 of that series ([PATCH -next v2 0/7], 24 December 2025, on a later linux-next) he measured 106.0 % for the memcg LRU and 93.2 % for the revised walk (reclaim ratios 98.1 % and 99.3 %): the memcg LRU's CV alone moved by 15 points between his two runs.";

fn build(p: &Params, seed: u64, variant: &str) -> Scenario {
    let n = p.u32("memcgs");
    let pages = p.u32("pages_per_memcg");
    let warmup: u64 = 1_000_000_000;
    let interval = p.u64("interval") * 1_000_000;
    let writes = p.u64("writes");
    // The kernel of the patch (v6.2-rc, December 2022): memory.reclaim asked
    // for the whole remaining request each round, and shrink_node_memcgs
    // visited every memcg on every pass. Only MGLRU and the memcg LRU differ.
    let era = Knobs { proactive_batch: ProactiveBatch::Whole, memcg_full_walk: true, mglru_underprotection_fix: false, mglru_workingset_accounting_fix: false, ..Knobs::default() };
    let (memcgs, workloads) = fio_siblings(n, pages, p.u64("rate"));
    let knobs = match variant {
        "before" => Knobs { lru_gen_enabled: false, ..era },
        "mglru-no-memcg-lru" => Knobs { memcg_lru: false, ..era },
        // Today's kernel with MGLRU off.
        "classic-incremental" => Knobs { lru_gen_enabled: false, ..Knobs::default() },
        _ => era,
    };
    Scenario {
        version: SCENARIO_VERSION,
        name: "memcg-lru-fairness".into(),
        title: EXPERIMENT.title.into(),
        description: String::new(),
        seed,
        step_ns: 10_000_000,
        duration_ns: warmup + writes * interval,
        // No global memory pressure: twice what the jobs touch.
        nodes: vec![NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: (n * pages * 2).max(16_384) }] }],
        min_free_kbytes: None,
        watermark_scale_factor: 10,
        swap_pages: u64::from(n * pages),
        machine: Default::default(),
        memcgs,
        workloads,
        proactive: vec![ProactiveSpec { memcg: "/".into(), pages: p.u64("request"), bytes: None, start_ns: warmup, interval_ns: interval, count: writes }],
        knobs,
    }
}

fn metrics(sim: &Simulation, _p: &Params) -> Vec<(&'static str, f64)> {
    let steal: Vec<f64> = sim
        .mm
        .memcgs
        .iter()
        .filter(|cg| cg.id != 0)
        .map(|cg| (cg.stat.get(Item::PgstealKswapd) + cg.stat.get(Item::PgstealDirect)) as f64)
        .collect();
    let requested: u64 = sim.reclaim_log.iter().map(|r| r.requested).sum();
    let total: f64 = steal.iter().sum();
    vec![
        // Undefined (n/a) before anything is reclaimed or requested: not an even 0 % or no overshoot.
        ("pgsteal_cv", if total > 0.0 { super::coefficient_of_variation(&steal) } else { f64::NAN }),
        ("reclaim_ratio", if requested > 0 { total / requested as f64 } else { f64::NAN }),
        ("pgsteal_total", total),
        ("requested_total", requested as f64),
        ("eagain_writes", sim.reclaim_log.iter().filter(|r| !r.ok).count() as f64),
    ]
}
