//! kswapd and the page allocator under global pressure.
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
