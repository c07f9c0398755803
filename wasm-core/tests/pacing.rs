//! How a workload's rate paces it (WorkloadSpec::closed_loop): an open loop
//! makes up after a stall the accesses that fell due during it; a closed
//! loop, like memtier_benchmark's clients, loses the stalled time.
#[path = "common/lab.rs"]
mod lab;
use reclaim_core::mm::page_alloc::Gfp;
use reclaim_core::scenario::Scenario;
use reclaim_core::sim::Simulation;
use reclaim_core::workload::{FileOp, Pattern, Target, WorkloadSpec};

const RATE: u64 = 5_000;
const RUN_NS: u64 = 200_000_000;

/// One task at RATE accesses a second for 0.2 s, over `target`.
fn accesses(target: Target, closed_loop: bool) -> u64 {
    run(WorkloadSpec { rate: RATE, closed_loop, ..WorkloadSpec::new("t", "/a", Pattern::Uniform {}, target) }, RUN_NS).tasks[0].accesses
}

/// `spec` alone in memcg /a on lab's 8192-page node, without swap, run for
/// `duration_ns`.
fn run(spec: WorkloadSpec, duration_ns: u64) -> Simulation {
    let scenario = Scenario { name: "pacing".into(), step_ns: 10_000_000, duration_ns, swap_pages: 0, workloads: vec![spec], ..lab::scenario(true, None) };
    let mut s = Simulation::new(scenario).unwrap();
    s.run_until(duration_ns);
    s
}

#[test]
fn a_closed_loop_loses_the_time_it_stalls_and_an_open_loop_does_not() {
    let paced = RATE * RUN_NS / 1_000_000_000;
    // Reads of a file 64 times larger than memory: nearly every one waits
    // for the SSD, about 80 us a read here, well within the 200 us interval.
    let misses = || Target::File { pages: 8192 * 64, op: FileOp::Read, file: None, write_percent: 0 };
    let (open, closed) = (accesses(misses(), false), accesses(misses(), true));
    println!("0.2 s at {RATE}/s of misses: open loop {open}, closed loop {closed} (paced {paced})");
    assert!(open * 100 >= paced * 98 && open <= paced + 1, "the open loop keeps its rate: {open} of {paced}");
    // The closed loop waits 200 us after each ~80 us read: about 1 s / 280 us.
    assert!(closed * 4 <= paced * 3, "each stall costs the closed loop its time: {closed} of {paced}");
    // A heap that fits: after its first touches nothing stalls and the two agree.
    let heap = || Target::Anon { pages: 1024, write_percent: 0 };
    let (open, closed) = (accesses(heap(), false), accesses(heap(), true));
    println!("0.2 s at {RATE}/s of a resident heap: open loop {open}, closed loop {closed}");
    assert!(closed * 100 >= open * 90 && closed <= open, "without stalls a closed loop nearly keeps the rate: {closed} vs {open}");
}

/// A task's ops/s is over its own life: a sequential pass of 200 pages at
/// 1,000/s takes 0.2 s and reports 1,000/s, not 200 over the 1 s run.
#[test]
fn a_task_that_ended_reports_its_rate_over_its_own_life() {
    let pass = WorkloadSpec { rate: 1000, ..WorkloadSpec::new("t", "/a", Pattern::Sequential {}, Target::Anon { pages: 200, write_percent: 0 }) };
    // Run for 1 s, so that the task sits idle for most of the run.
    let s = run(pass, 1_000_000_000);
    assert!(!s.tasks[0].alive, "the pass is done");
    let ops = reclaim_core::report::metrics(&s)["t_ops_per_sec"].as_f64().unwrap();
    assert!((995.0..=1000.0).contains(&ops), "{ops}");
}

/// A lowmem allocation that fails is an access not made, but it takes its
/// turn in the task's pace: at 1,000/s, about 1,000 tries in 1 s, not one
/// every few nanoseconds.
#[test]
fn a_task_whose_allocations_fail_keeps_its_pace() {
    // gfp dma with no ZONE_DMA on the node: every allocation fails at once.
    let dma = WorkloadSpec { rate: 1000, gfp: Gfp::Dma, ..WorkloadSpec::new("t", "/a", Pattern::Uniform {}, Target::Anon { pages: 100, write_percent: 0 }) };
    let s = run(dma, 1_000_000_000);
    let t = &s.tasks[0];
    assert_eq!(t.accesses, 0);
    assert!((990..=1001).contains(&t.failed), "tries: {}", t.failed);
}
