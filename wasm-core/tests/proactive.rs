//! memory.reclaim: each write reclaims at least its request or fails with
//! -EAGAIN, under every batch policy.
use reclaim_core::mm::memcontrol::ProactiveBatch;
use reclaim_core::mm::pgdat::ZoneType;
use reclaim_core::mm::Knobs;
use reclaim_core::scenario::{MemcgSpec, NodeSpec, ProactiveSpec, Scenario, ZoneSpec, SCENARIO_VERSION};
use reclaim_core::sim::Simulation;
use reclaim_core::workload::{FileOp, Pattern, Target, WorkloadSpec};
#[path = "common/lab.rs"]
mod lab;

fn scenario(batch: ProactiveBatch, target: &str, pages: u64, lru_gen: bool) -> Scenario {
    let reader = |i: usize| WorkloadSpec::new(format!("reader{i}"), format!("/p/c{i}"), Pattern::Loop {}, Target::File { pages: 3000, op: FileOp::Read, file: None, write_percent: 0 });
    Scenario {
        version: SCENARIO_VERSION,
        name: "proactive".into(),
        title: String::new(),
        description: String::new(),
        seed: 1,
        step_ns: 10_000_000,
        duration_ns: 10_000_000,
        nodes: vec![NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: 32_768 }] }],
        min_free_kbytes: None,
        watermark_scale_factor: 10,
        swap_pages: 4096,
        machine: Default::default(),
        memcgs: vec![
            MemcgSpec { path: "/p".into(), ..Default::default() },
            MemcgSpec { path: "/p/c0".into(), ..Default::default() },
            MemcgSpec { path: "/p/c1".into(), ..Default::default() },
            MemcgSpec { path: "/p/c2".into(), ..Default::default() },
        ],
        workloads: (0..3).map(reader).collect(),
        proactive: vec![ProactiveSpec { memcg: target.into(), pages, bytes: None, start_ns: 500_000_000, interval_ns: 100_000_000, count: 3 }],
        knobs: Knobs { lru_gen_enabled: lru_gen, proactive_batch: batch, ..Knobs::default() },
    }
}

#[test]
fn memory_reclaim_meets_its_request_or_fails_with_eagain() {
    for batch in [ProactiveBatch::Whole, ProactiveBatch::SwapClusterMax, ProactiveBatch::Decaying] {
        for lru_gen in [true, false] {
            for (target, pages) in [("/p", 1000), ("/", 1000), ("/p/c1", 500), ("/p/c1", 50_000)] {
                let mut s = Simulation::new(scenario(batch, target, pages, lru_gen)).unwrap();
                for _ in 0..90 {
                    s.step();
                }
                assert_eq!(s.reclaim_log.len(), 3, "{batch:?} {lru_gen} {target}: three writes");
                for r in &s.reclaim_log {
                    let what = format!("{batch:?} lru_gen {lru_gen} {target} {pages}: {r:?}");
                    if r.ok {
                        assert!(r.reclaimed >= r.requested, "{what}");
                    } else {
                        assert!(r.reclaimed < r.requested, "{what}");
                        let zero_rounds = r.rounds.iter().filter(|b| b.reclaimed == 0).count();
                        assert_eq!(zero_rounds, 17, "-EAGAIN after MAX_RECLAIM_RETRIES + 1 empty rounds: {what}");
                    }
                    match batch {
                        ProactiveBatch::SwapClusterMax => assert!(r.rounds.iter().all(|b| b.batch == 32), "{what}"),
                        ProactiveBatch::Whole => assert_eq!(r.rounds[0].batch, r.requested, "{what}"),
                        ProactiveBatch::Decaying => assert_eq!(r.rounds[0].batch, (r.requested / 4).max(32), "{what}"),
                    }
                    // A round asks for at least SWAP_CLUSTER_MAX (try_to_free_mem_cgroup_pages), never the 0 of a remainder under 4.
                    assert!(r.rounds.iter().all(|b| b.batch >= 32), "{what}");
                }
                // 50,000 pages is more than /p/c1 will ever hold: -EAGAIN.
                if pages == 50_000 {
                    assert!(s.reclaim_log.iter().any(|r| !r.ok), "{batch:?} {lru_gen}: expected -EAGAIN");
                } else {
                    assert!(s.reclaim_log.iter().all(|r| r.ok), "{batch:?} {lru_gen} {target}: {:?}", s.reclaim_log);
                }
                s.check_invariants().unwrap();
            }
        }
    }
}

/// 32-page rounds pay the round restart cost many more times than a
/// decaying batch: the same request takes far longer (patch 003).
#[test]
fn small_batches_take_longer_than_decaying_ones() {
    let time = |batch| {
        let mut s = Simulation::new(scenario(batch, "/p", 6000, true)).unwrap();
        for _ in 0..60 {
            s.step();
        }
        let r = &s.reclaim_log[0];
        assert!(r.ok);
        (r.duration_ns, r.rounds.len())
    };
    let (t32, n32) = time(ProactiveBatch::SwapClusterMax);
    let (tdec, ndec) = time(ProactiveBatch::Decaying);
    assert!(n32 > 4 * ndec, "rounds: {n32} vs {ndec}");
    assert!(t32 * 2 > tdec * 3, "time: {t32} vs {tdec}: 32-page rounds should take at least 1.5x as long");
}

/// memory_reclaim(): page_counter_memparse() turns the bytes written into
/// pages rounding down, so 4097 bytes ask for one page, and 100 bytes for
/// none: the write returns at once, with no round.
#[test]
fn bytes_written_round_down_to_pages() {
    for (bytes, pages) in [(4097, 1), (100, 0), (256 * 4096 + 4095, 256)] {
        let mut sc = scenario(ProactiveBatch::Decaying, "/p", 0, true);
        sc.proactive[0].bytes = Some(bytes);
        sc.proactive[0].count = 1;
        let mut s = Simulation::new(sc).unwrap();
        for _ in 0..60 {
            s.step();
        }
        let r = s.reclaim_log.front().expect("the write happened");
        assert_eq!(r.requested, pages, "{bytes} bytes");
        assert!(r.ok, "{bytes} bytes: {r:?}");
        if pages == 0 {
            assert!(r.rounds.is_empty() && r.reclaimed == 0, "{r:?}");
        }
    }
}

/// A memcg reclaim round pays a statistics flush per memcg in the target's
/// subtree with the classic LRU only (prepare_scan_control flushes before it
/// computes the scan balance); MGLRU returns from prepare_scan_control first
/// and flushes nothing. With nothing to reclaim, eight more children under
/// the target cost the classic round eight flushes more than the MGLRU round.
#[test]
fn only_the_classic_lru_flushes_memcg_statistics_in_a_round() {
    let round_cost = |lru_gen: bool, children: usize| {
        let mut sc = lab::scenario(lru_gen, None);
        for i in 0..children {
            sc.memcgs.push(MemcgSpec { path: format!("/a/c{i}"), ..Default::default() });
        }
        let mut s = Simulation::new(sc).unwrap();
        let before = s.mm.cost_ns;
        s.mm.try_to_free_mem_cgroup_pages(lab::A, 32, true, true);
        s.mm.cost_ns - before
    };
    let extra = |lru_gen: bool| round_cost(lru_gen, 8) as i64 - round_cost(lru_gen, 0) as i64;
    let (classic, mglru) = (extra(false), extra(true));
    eprintln!("eight more children: classic +{classic} ns, MGLRU +{mglru} ns");
    assert_eq!(classic - mglru, 8 * reclaim_core::cost::ROUND_PER_MEMCG_NS as i64, "classic +{classic} ns, MGLRU +{mglru} ns");
}
