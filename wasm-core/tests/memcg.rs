//! Memcg limits: usage ends at or below memory.max once reclaim settles, or
//! the memcg OOM killer acts.
mod common;
use common::file_run;
#[path = "common/lab.rs"]
mod lab;
use std::collections::BTreeMap;

use reclaim_core::mm::vmstat::Item;
use reclaim_core::scenario;
use reclaim_core::sim::Simulation;
use reclaim_core::view::ScenarioRequest;

fn basic(params: &[(&str, f64)], swap: bool) -> Simulation {
    let params: BTreeMap<String, f64> = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let mut s = scenario::build(&ScenarioRequest { name: "mglru-basic".into(), seed: 1, params, variant: None }).unwrap();
    if !swap {
        s.swap_pages = 0;
    }
    Simulation::new(s).unwrap()
}

#[test]
fn usage_stays_within_memory_max_or_oom_is_recorded() {
    for (params, swap) in [
        (vec![("memory_max", 1024.0), ("anon_pages", 800.0)], true),
        // 2000 anon pages fit in memory.max 1024 plus 2048 swap slots.
        (vec![("memory_max", 1024.0), ("anon_pages", 2000.0)], true),
        // 3000 do not fit in 1024 without swap.
        (vec![("memory_max", 1024.0), ("anon_pages", 3000.0)], false),
    ] {
        for lru_gen in [true, false] {
            let mut s = basic(&params, swap);
            s.mm.knobs.lru_gen_enabled = lru_gen;
            for step in 0..300 {
                s.step();
                let cg = &s.mm.memcgs[1];
                assert!(cg.usage <= cg.memory_max, "{params:?} swap {swap} lru_gen {lru_gen} step {step}: usage {} > max {}", cg.usage, cg.memory_max);
            }
            let cg = &s.mm.memcgs[1];
            if !swap {
                // 3000 anon pages cannot fit in 1024 without swap: OOM.
                assert!(cg.events.oom_kill >= 1, "{params:?} lru_gen {lru_gen}: no OOM recorded");
                assert!(cg.events.oom >= 1);
            } else {
                assert_eq!(cg.events.oom_kill, 0, "{params:?} lru_gen {lru_gen}: unexpected OOM");
            }
            assert!(cg.events.max > 0, "the limit was hit");
            s.check_invariants().unwrap();
        }
    }
}

/// memory.high: going above it reclaims (MEMCG_HIGH events) and keeps usage
/// near the limit without OOM kills, even with no memory.max.
#[test]
fn memory_high_reclaims_and_throttles() {
    let mut s = scenario::build(&ScenarioRequest { name: "mglru-basic".into(), seed: 2, params: BTreeMap::new(), variant: None }).unwrap();
    s.memcgs[0].memory_max = None;
    s.memcgs[0].memory_high = Some(1500);
    for lru_gen in [true, false] {
        let mut sc = s.clone();
        sc.knobs.lru_gen_enabled = lru_gen;
        let mut sim = Simulation::new(sc).unwrap();
        for _ in 0..200 {
            sim.step();
        }
        let cg = &sim.mm.memcgs[1];
        assert!(cg.events.high > 0, "lru_gen {lru_gen}");
        assert!(cg.usage <= 1500 + 64, "lru_gen {lru_gen}: usage {} well above memory.high", cg.usage);
        assert_eq!(cg.events.oom_kill, 0);
        sim.check_invariants().unwrap();
    }
}

/// memcg_memory_event(): memory.events counts an event in the memcg and in
/// each ancestor below the root (which has no memory.events).
#[test]
fn memory_events_are_hierarchical() {
    let sim = file_run("memory-events-nested.json", 100);
    let events = |path: &str| sim.mm.memcgs.iter().find(|m| m.path == path).unwrap().events.clone();
    let (parent, child) = (events("/p"), events("/p/c"));
    assert!(child.max > 0 && child.high > 0 && child.oom_kill > 0, "{child:?}");
    assert_eq!(parent, child, "/p has one child: its memory.events are the child's");
    assert_eq!(events("/"), Default::default());
    // The Memcgs view carries each of them, high included.
    let view = sim.frame().memcgs.into_iter().find(|m| m.path == "/p/c").unwrap();
    assert_eq!(
        (view.events_low, view.events_high, view.events_max, view.events_oom, view.events_oom_kill),
        (child.low, child.high, child.max, child.oom, child.oom_kill)
    );
}

/// A global OOM kill counts oom_kill in the victim's memcg
/// (memcg_memory_event_mm in __oom_kill_process), not the root's.
#[test]
fn a_global_oom_kill_is_counted_in_the_victims_memcg() {
    let sim = file_run("global-oom-child.json", 50);
    let events = |path: &str| sim.mm.memcgs.iter().find(|m| m.path == path).unwrap().events.clone();
    assert_eq!(events("/a").oom_kill, 1);
    assert_eq!(events("/a").oom, 0, "a global OOM is no memcg OOM");
    assert_eq!(events("/"), Default::default());
}

/// The frame's pgsteal CV is NaN where it is not defined (the views show a
/// dash and the trend a gap): before any leaf has given back a page, and with
/// a single leaf however much it gave back; then the CV of the leaves.
#[test]
fn the_frames_pgsteal_cv_is_nan_where_it_is_not_defined() {
    let one_leaf = file_run("memory-events-nested.json", 100);
    let leaf = one_leaf.mm.memcgs.iter().find(|m| m.path == "/p/c").unwrap();
    assert!(leaf.stat.get(Item::PgstealKswapd) + leaf.stat.get(Item::PgstealDirect) > 0, "the only leaf gave back pages");
    assert!(one_leaf.frame().pgsteal_cv.is_nan(), "one leaf has no spread");

    let params = [("memcgs", 2.0), ("pages_per_memcg", 256.0)].iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let req = ScenarioRequest { name: "memcg-lru-fairness".into(), seed: 1, params, variant: None };
    let mut two = Simulation::new(scenario::build(&req).unwrap()).unwrap();
    assert!(two.frame().pgsteal_cv.is_nan(), "nothing reclaimed yet: the mean is 0");
    while two.frame().memcgs.iter().all(|m| m.pgsteal == 0) {
        two.step();
        assert!(two.step_count() < 2_000, "the first memory.reclaim write comes");
    }
    let cv = two.frame().pgsteal_cv;
    assert!(cv.is_finite() && cv >= 0.0, "{cv}");
    assert_eq!(cv, two.pgsteal_cv(), "defined: the leaves' CV");
}

/// mem_cgroup_calculate_protection(): a child of the reclaim target has its
/// own memory.min/low; deeper down a memcg is protected only as far as its
/// parent is, shared out over siblings that claim more than that in
/// proportion to what each claims (effective_protection).
#[test]
fn protection_is_effective_protection() {
    use reclaim_core::scenario::MemcgSpec;
    let mut sc = scenario::build(&ScenarioRequest { name: "mglru-basic".into(), seed: 1, params: BTreeMap::new(), variant: None }).unwrap();
    let spec = |path: &str, min: u64, low: u64| MemcgSpec { path: path.into(), memory_min: min, memory_low: low, ..Default::default() };
    sc.memcgs.extend([spec("/a", 0, 0), spec("/a/b", 500, 500), spec("/p", 300, 0), spec("/p/x", 400, 0), spec("/p/y", 200, 0)]);
    let mut s = Simulation::new(sc).unwrap();
    let id = |s: &Simulation, path: &str| s.mm.memcgs.iter().position(|m| m.path == path).unwrap() as u16;
    let (a, b, p, x, y) = (id(&s, "/a"), id(&s, "/a/b"), id(&s, "/p"), id(&s, "/p/x"), id(&s, "/p/y"));
    // Usage as charged (hierarchical): /a/b 1,000; /p/x 400, /p/y 200.
    for (m, usage) in [(b, 1000), (a, 1000), (x, 400), (y, 200), (p, 600)] {
        s.mm.memcgs[m as usize].usage = usage;
    }
    // Global (root) reclaim: /a has no protection, so /a/b has none either.
    assert_eq!(s.mm.mem_cgroup_protection(None, b), (0, 0));
    assert!(!s.mm.mem_cgroup_below_min(None, b));
    // Reclaim of /a: /a/b is the target's child, with its own settings.
    assert_eq!(s.mm.mem_cgroup_protection(Some(a), b), (500, 500));
    // /p affords 300; /p/x and /p/y claim min(usage, min) = 400 + 200 = 600:
    // each gets its claim times 300 / 600.
    assert_eq!(s.mm.mem_cgroup_protection(None, p), (300, 0));
    assert_eq!(s.mm.mem_cgroup_protection(None, x), (200, 0));
    assert_eq!(s.mm.mem_cgroup_protection(None, y), (100, 0));
    // /p/y's 200 pages are above its effective 100: not below min.
    assert!(!s.mm.mem_cgroup_below_min(None, y));
    // Once /p/x uses nothing, /p/y's 200 fit in /p's 300: all protected.
    s.mm.memcgs[x as usize].usage = 0;
    assert_eq!(s.mm.mem_cgroup_protection(None, y), (200, 0));
    assert!(s.mm.mem_cgroup_below_min(None, y));
    // The target itself and the root are never protected.
    assert_eq!(s.mm.mem_cgroup_protection(Some(p), p), (0, 0));
    assert!(!s.mm.mem_cgroup_below_min(Some(p), p));
}

/// mem_cgroup_handle_over_high(): a task whose memcg is well above
/// memory.high with nothing reclaimable (anon, no swap) is throttled, a
/// sleep per batch of 64 pages charged that grows with the square of the
/// overage (none for the first page over a high of 500; at 565 pages,
/// about 1 s; from 629, the 2 s cap). A memcg about 1 % above it is reclaimed from but
/// never slept on (a penalty of HZ / 100 or less).
#[test]
fn memory_high_throttles_by_the_overage() {
    use reclaim_core::mm::pgdat::ZoneType;
    use reclaim_core::scenario::{MemcgSpec, NodeSpec, Scenario, ZoneSpec};
    use reclaim_core::workload::{Pattern, Target, WorkloadSpec};
    let run = |high: u64| {
        let scenario = Scenario {
            name: "high".into(),
            step_ns: 10_000_000,
            duration_ns: 2_000_000_000,
            nodes: vec![NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: 16_384 }] }],
            swap_pages: 0,
            memcgs: vec![MemcgSpec { path: "/a".into(), memory_high: Some(high), ..Default::default() }],
            // A heap of 1,000 pages touched in order, then over and over: 1,000 charges.
            workloads: vec![WorkloadSpec { rate: 100_000, ..WorkloadSpec::new("heap", "/a", Pattern::Loop {}, Target::Anon { pages: 1000, write_percent: 0 }) }],
            ..lab::scenario(true, None)
        };
        let mut s = Simulation::new(scenario).unwrap();
        s.run_until(2_000_000_000);
        let cg = &s.mm.memcgs[1];
        (cg.usage, cg.events.high, s.tasks[0].accesses)
    };
    // High 500: the heap charges 565 pages, sleeps about 1 s, charges 64
    // more and sleeps the 2 s cap: it ends far short of its 1,000 pages and
    // of the 200,000 accesses its rate allows in 2 s.
    let (usage, high_events, accesses) = run(500);
    assert!((564..=700).contains(&usage), "usage {usage}");
    assert!(high_events > 0);
    assert!(accesses < 2_000, "throttled: {accesses} accesses");
    // High 990: the last 10 pages are 1 % over; no sleep, the rate holds.
    let (usage, high_events, accesses) = run(990);
    assert_eq!(usage, 1000);
    assert!(high_events > 0, "reclaim_high ran");
    assert!(accesses > 190_000, "not throttled: {accesses} accesses");
}
