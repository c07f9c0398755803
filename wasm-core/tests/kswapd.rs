//! kswapd and the page allocator under global pressure.
mod common;
use common::file_run;
use std::collections::BTreeMap;

use reclaim_core::mm::kswapd::{KswapdMode, SleepRecord};
use reclaim_core::mm::vmstat::Item;
use reclaim_core::scenario;
use reclaim_core::sim::Simulation;
use reclaim_core::view::ScenarioRequest;

fn global_pressure(fix: bool, seed: u64) -> Simulation {
    let req = ScenarioRequest { name: "global-pressure".into(), seed, params: BTreeMap::new(), variant: None };
    let mut s = scenario::build(&req).unwrap();
    s.knobs.kswapd_classzone_fix = fix;
    Simulation::new(s).unwrap()
}

/// The same, with the streamer reading in bursts (1 s on, 1 s off) so that
/// kswapd balances the node and then decides whether to sleep.
fn bursty(fix: bool, seed: u64) -> Simulation {
    let req = ScenarioRequest { name: "global-pressure".into(), seed, params: BTreeMap::new(), variant: None };
    let mut s = scenario::build(&req).unwrap();
    s.knobs.kswapd_classzone_fix = fix;
    let streamer = s.workloads.pop().unwrap();
    for i in 0..4u64 {
        let mut w = streamer.clone();
        w.name = format!("burst{i}");
        w.start_ns = i * 2_000_000_000;
        w.stop_ns = w.start_ns + 1_000_000_000;
        s.workloads.push(w);
    }
    Simulation::new(s).unwrap()
}

/// pgdat_balanced recomputed from what kswapd saw: some managed zone up to
/// the checked index has free pages above high + lowmem_reserve[index].
fn balanced(r: &SleepRecord) -> bool {
    (0..=r.highest_zoneidx.min(3)).any(|z| r.managed[z] > 0 && r.free[z] > r.high[z] + r.reserve[z])
}

#[test]
fn kswapd_sleeps_only_when_balanced_for_the_zone_index_it_checks() {
    for fix in [true, false] {
        let mut s = bursty(fix, 3);
        for _ in 0..800 {
            s.step();
        }
        let k = &s.mm.nodes[0].kswapd;
        assert!(!k.sleep_log.is_empty(), "kswapd never slept (fix {fix})");
        for r in &k.sleep_log {
            assert!(balanced(r) || r.failures >= 16, "fix {fix}: slept while not balanced for zone index {}: {r:?}", r.highest_zoneidx);
        }
        if fix {
            // The check uses the zone the allocations need (Movable = 3: all zones with their reserves).
            assert!(k.sleep_log.iter().all(|r| r.highest_zoneidx == 3), "fix: {:?}", k.sleep_log.iter().map(|r| r.highest_zoneidx).collect::<Vec<_>>());
            assert_eq!(k.premature_sleeps, 0);
        } else {
            // Before patch 002 the index reads 0 with no recent wakeup: only ZONE_DMA is checked.
            assert!(k.sleep_log.iter().any(|r| r.highest_zoneidx == 0));
            assert!(k.premature_sleeps > 0, "the tiny DMA zone let kswapd sleep while Normal was low");
        }
        assert!(s.mm.vmstat.get(Item::PgstealKswapd) > 0);
        assert!(s.mm.vmstat.get(Item::Pageoutrun) > 0);
    }
}

/// The frames name each premature sleep once, at the time kswapd went to
/// sleep (for the timeline's marks): stepped one step at a time, their
/// `premature_at` add up to the sleeps the count and the sleep log have.
#[test]
fn frames_carry_each_premature_sleep_once_at_its_time() {
    let mut s = bursty(false, 3);
    let mut seen = Vec::new();
    for _ in 0..800 {
        s.begin_frame();
        s.step();
        seen.extend(s.frame().nodes[0].kswapd.premature_at.iter().copied());
    }
    let k = &s.mm.nodes[0].kswapd;
    assert!(k.premature_sleeps > 0);
    let logged: Vec<u64> = k.sleep_log.iter().filter(|r| r.premature).map(|r| r.time_ns).collect();
    assert_eq!(seen.len() as u64, k.premature_sleeps);
    assert_eq!(seen, logged);
    // Each one is where the timeline has kswapd fall asleep.
    for t in &seen {
        assert!(k.timeline.contains(&(*t, KswapdMode::Asleep)), "no Asleep at {t}");
    }
}

/// Patch 002 as merged (v4.12-v5.2) against its v5.3 fix ("prevent useless
/// kswapd loops"): when a nap ends with ZONE_NORMAL below its high watermark
/// and no wakeup is pending, the merged patch reads the zone index as 0,
/// runs balance_pgdat for ZONE_DMA and sleeps on ZONE_DMA's check one nap
/// later; with the fix kswapd keeps checking the zone it balanced for.
#[test]
fn patch_002_as_merged_still_sleeps_on_zone_dma_after_an_unbalanced_nap() {
    let run = |variant: &str| {
        let req = ScenarioRequest { name: "kswapd-classzone".into(), seed: 1, params: BTreeMap::new(), variant: Some(variant.into()) };
        let sc = scenario::build(&req).unwrap();
        let end = sc.duration_ns;
        let mut s = Simulation::new(sc).unwrap();
        s.run_until(end);
        s
    };
    let merged = run("merged-v4.12");
    let fixed = run("after");
    let (km, kf) = (&merged.mm.nodes[0].kswapd, &fixed.mm.nodes[0].kswapd);
    assert!(merged.mm.knobs.kswapd_classzone_fix && !merged.mm.knobs.kswapd_useless_loops_fix);
    // The merged patch: some sleeps checked ZONE_DMA alone, while ZONE_NORMAL was low.
    assert!(km.sleep_log.iter().any(|r| r.highest_zoneidx == 0), "{:?}", km.sleep_log.iter().map(|r| r.highest_zoneidx).collect::<Vec<_>>());
    assert!(km.premature_sleeps > 0);
    // Each of them came after a nap that ended unbalanced (kswapd_high_wmark_hit_quickly).
    assert!(merged.mm.vmstat.get(Item::KswapdHighWmarkHitQuickly) >= km.premature_sleeps);
    // With the fix: never ZONE_DMA's check, never premature.
    assert!(kf.sleep_log.iter().all(|r| r.highest_zoneidx != 0));
    assert_eq!(kf.premature_sleeps, 0);
    for r in km.sleep_log.iter().chain(&kf.sleep_log) {
        assert!(balanced(r), "slept while not balanced for the zone index checked: {r:?}");
    }
}

#[test]
fn kswapd_keeps_free_memory_near_the_watermarks_and_allocations_succeed() {
    let mut s = global_pressure(true, 5);
    let mut modes = std::collections::BTreeSet::new();
    for step in 0..800 {
        s.step();
        if let Err(e) = s.check_invariants() {
            panic!("step {step}: {e}");
        }
        modes.insert(format!("{:?}", s.mm.nodes[0].kswapd.mode));
        let node = &s.mm.nodes[0];
        let free: u64 = node.zones.iter().map(|z| z.free_pages()).sum();
        let min: u64 = node.zones.iter().map(|z| z.watermark[0]).sum();
        assert!(free * 2 >= min, "step {step}: free {free} far below the min watermarks {min}");
    }
    assert!(s.tasks.iter().all(|t| t.alive), "no OOM kill");
    assert!(s.mm.nodes[0].kswapd.timeline.iter().any(|(_, m)| *m == KswapdMode::Napping));
    assert!(s.mm.nodes[0].kswapd.timeline.iter().any(|(_, m)| *m == KswapdMode::Running));
}

/// An allocation that cannot be satisfied even after direct reclaim ends in
/// the OOM killer, which kills the task with the most anonymous memory.
#[test]
fn global_oom_kills_the_biggest_anon_user() {
    let mut params = BTreeMap::new();
    params.insert("anon_pages".to_string(), 40_000.0);
    params.insert("anon_rate".to_string(), 10_000_000.0);
    let req = ScenarioRequest { name: "global-pressure".into(), seed: 1, params, variant: None };
    let mut s = scenario::build(&req).unwrap();
    s.swap_pages = 0;
    let mut s = Simulation::new(s).unwrap();
    for _ in 0..400 {
        s.step();
    }
    assert!(s.mm.vmstat.get(Item::OomKill) >= 1);
    let heap = s.tasks.iter().find(|t| t.name == "heap").unwrap();
    assert!(!heap.alive, "the heap task was the victim");
    assert!(s.tasks.iter().find(|t| t.name == "streamer").unwrap().alive);
    s.check_invariants().unwrap();
}

/// kswapd-classzone's allocation latency is simoop's: one allocator's whole
/// allocation (every page of it faulted in), direct reclaim stalls included,
/// not the latency of single pages, whose percentiles sit on the fast path.
#[test]
fn an_allocation_latency_is_a_whole_allocation_with_its_stalls() {
    use reclaim_core::cost::{MINOR_FAULT_NS, PAGE_ALLOC_NS};
    use reclaim_core::experiment;
    let compare = |params: &[(&str, f64)]| {
        let params: BTreeMap<String, f64> = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        experiment::find("kswapd-classzone").unwrap().compare(&params, 1).unwrap()
    };
    // 20 ms bursts never reach a watermark: every allocation is its 2,048
    // minor faults and page allocations, nothing else.
    let quiet = compare(&[("burst_ms", 20.0)]);
    let stall_free = 2048.0 * (MINOR_FAULT_NS + PAGE_ALLOC_NS) as f64 / 1e6;
    for variant in ["before", "after"] {
        assert_eq!(quiet.metric(variant, "pgscan_direct"), Some(0.0));
        assert_eq!(quiet.metric(variant, "alloc_latency_p95"), Some(stall_free), "{variant}");
        assert_eq!(quiet.metric(variant, "alloc_latency_p99"), Some(stall_free), "{variant}");
    }
    // At the defaults the first allocations of a burst reclaim directly, and
    // the tail allocations take that much longer.
    let busy = compare(&[]);
    for variant in ["before", "after"] {
        assert!(busy.metric(variant, "pgscan_direct").unwrap() > 1000.0, "{variant}");
        let p99 = busy.metric(variant, "alloc_latency_p99").unwrap();
        assert!(p99 > 1.1 * stall_free, "{variant}: p99 {p99} ms against {stall_free} ms without reclaim");
        assert!(p99 >= busy.metric(variant, "alloc_latency_p95").unwrap());
    }
}

/// __alloc_pages_may_oom(): "The OOM killer does not needlessly kill tasks
/// for lowmem". A task whose allocations may only use ZONE_DMA32 exhausts
/// it: it reclaims directly and its allocations fail, but nobody is killed
/// while ZONE_NORMAL has thousands of pages free.
#[test]
fn a_lowmem_allocation_that_fails_kills_nobody() {
    let s = file_run("lowmem-exhausted.json", 50);
    assert!(s.mm.vmstat.get(Item::AllocstallDma32) > 0, "the DMA32 allocations reclaimed directly");
    assert_eq!(s.mm.vmstat.get(Item::OomKill), 0);
    assert!(s.mm.memcgs.iter().all(|m| m.events.oom_kill == 0));
    assert!(s.mm.nodes[0].zones.iter().map(|z| z.free_pages()).sum::<u64>() > 4096);
}

/// __alloc_pages_slowpath(): with no zone the allocation may use on any
/// node ("if (!ac->preferred_zoneref->zone) goto nopage") it fails at once:
/// no kswapd wake-up, no direct reclaim, no OOM kill.
#[test]
fn an_allocation_with_no_eligible_zone_fails_without_reclaim() {
    let s = file_run("gfp-dma-without-dma.json", 50);
    for item in [Item::AllocstallDma, Item::AllocstallNormal, Item::OomKill, Item::PgscanDirect] {
        assert_eq!(s.mm.vmstat.get(item), 0, "{item:?}");
    }
}

/// Classic LRU: kswapd's scans are file-only in cache_trim_mode, and here all
/// the file is protected (memory.min) while the anon is not. The priority
/// loop reclaims nothing; kswapd runs it again without cache_trim_mode
/// (v6.10+, "mm, vmscan: retry kswapd's priority loop with cache_trim_mode
/// off on failure") and swaps the anon out itself, so the allocators never
/// stall in direct reclaim.
#[test]
fn kswapd_retries_without_cache_trim_mode_when_file_only_scans_fail() {
    let sim = file_run("cache-trim-fail.json", 300);
    let v = &sim.mm.vmstat;
    assert!(v.get(Item::PgstealKswapd) > 1_000, "kswapd reclaimed {}", v.get(Item::PgstealKswapd));
    assert_eq!(v.get(Item::PgstealFile), 0, "the file is protected");
    assert_eq!(v.get(Item::PgstealDirect), 0, "no allocation had to reclaim");
}

/// init_per_zone_wmark_min(): min_free_kbytes is the machine's, shared out
/// over the zones of every node by size, so a second node halves each
/// node's share instead of each node taking the whole default reserve.
#[test]
fn nodes_share_the_machines_watermarks() {
    use reclaim_core::mm::pgdat::ZoneType;
    use reclaim_core::scenario::{NodeSpec, ZoneSpec};
    let req = ScenarioRequest { name: "global-pressure".into(), seed: 1, params: BTreeMap::new(), variant: None };
    let base = scenario::build(&req).unwrap();
    let node = || NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: 262_144 }] };
    let mins = |nodes: Vec<NodeSpec>| -> Vec<u64> {
        let s = Simulation::new(scenario::Scenario { nodes, ..base.clone() }).unwrap();
        s.mm.nodes.iter().map(|n| n.zones[ZoneType::Normal as usize].watermark[0]).collect()
    };
    // One 1 GiB node: min_free_kbytes 4096 -> 1,024 pages. Two: 5,792 kB
    // for 2 GiB -> 1,448 pages, 724 per node.
    assert_eq!(mins(vec![node()]), vec![1024]);
    assert_eq!(mins(vec![node(), node()]), vec![724, 724]);
}

/// WORKINGSET_ACTIVATE is a per-lruvec count (mod_lruvec_state), so the
/// refaults that prepare_scan_control() and snapshot_refaults() compare
/// are the reclaimed node's: activations on one node leave another node's
/// deactivation and cache_trim_mode decisions alone.
#[test]
fn workingset_activations_are_counted_per_node() {
    use reclaim_core::mm::pgdat::ZoneType;
    use reclaim_core::mm::vmscan::ROOT_MEMCG;
    use reclaim_core::scenario::{NodeSpec, ZoneSpec};
    let req = ScenarioRequest { name: "global-pressure".into(), seed: 1, params: BTreeMap::new(), variant: None };
    let base = scenario::build(&req).unwrap();
    let node = || NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: 4096 }] };
    let mut s = Simulation::new(scenario::Scenario { nodes: vec![node(), node()], ..base }).unwrap();
    let leaf = s.mm.memcgs.len() as u16 - 1;
    let before = |s: &Simulation, n: usize| s.mm.lruvecs[s.mm.lruvec_id(ROOT_MEMCG, n) as usize].workingset_activate;
    let (n0, n1) = (before(&s, 0), before(&s, 1));
    s.mm.count_workingset_activate(leaf, 1, 1);
    // Node 1's lruvecs of the memcg and of the root count it; node 0's do not.
    assert_eq!(before(&s, 1), [n1[0], n1[1] + 1]);
    assert_eq!(before(&s, 0), n0);
    assert_eq!(s.mm.lruvecs[s.mm.lruvec_id(leaf, 1) as usize].workingset_activate[1], 1);
}
