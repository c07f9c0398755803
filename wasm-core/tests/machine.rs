//! The machine under the mm (mm/machine.rs): the storage device (an SSD
//! with one queue, or brd ramdisks whose I/O is the submitter's CPU time)
//! and CPUs shared by the actors.
use reclaim_core::mm::machine::{Machine, Storage};
use reclaim_core::mm::pgdat::ZoneType;
use reclaim_core::mm::Knobs;
use reclaim_core::scenario::{MemcgSpec, NodeSpec, Scenario, ZoneSpec, SCENARIO_VERSION};
use reclaim_core::sim::Simulation;
use reclaim_core::workload::{FileOp, Pattern, Target, WorkloadSpec};

/// `readers` tasks reading a file 64 times larger than memory (nearly
/// every read misses), for 0.2 s.
fn scenario(machine: Machine, readers: u32) -> Scenario {
    let workloads = (0..readers)
        .map(|j| WorkloadSpec::new(format!("r{j}"), "/a", Pattern::Uniform {}, Target::File { pages: 8192 * 64, op: FileOp::Read, file: Some("f".into()), write_percent: 0 }))
        .collect();
    Scenario {
        version: SCENARIO_VERSION,
        name: "machine".into(),
        title: String::new(),
        description: String::new(),
        seed: 1,
        step_ns: 10_000_000,
        duration_ns: 200_000_000,
        nodes: vec![NodeSpec { zones: vec![ZoneSpec { zone: ZoneType::Normal, pages: 8192 }] }],
        min_free_kbytes: None,
        watermark_scale_factor: 10,
        swap_pages: 0,
        machine,
        memcgs: vec![MemcgSpec { path: "/a".into(), ..Default::default() }],
        workloads,
        proactive: Vec::new(),
        knobs: Knobs::default(),
    }
}

/// The readers' reads in total over the 0.2 s.
fn reads(machine: Machine, readers: u32) -> u64 {
    let mut s = Simulation::new(scenario(machine, readers)).unwrap();
    s.run_until(200_000_000);
    s.tasks.iter().map(|t| t.accesses).sum()
}

#[test]
fn readers_queue_on_the_ssd_but_not_on_a_ramdisk() {
    let ssd = Machine::default();
    let brd = Machine { storage: Storage::Ramdisk, cpus: None };
    let (ssd1, ssd16) = (reads(ssd, 1), reads(ssd, 16));
    let (brd1, brd8) = (reads(brd, 1), reads(brd, 8));
    println!("reads in 0.2 s: ssd 1 reader {ssd1}, 16 readers {ssd16}; brd 1 reader {brd1}, 8 readers {brd8}");
    // One SSD at IO_SERVICE_NS per I/O caps the total (about 100k IOPS, 20k in 0.2 s).
    assert!(ssd16 * 10 < 16 * ssd1 * 7, "16 readers share one SSD queue: {ssd16} vs 16 x {ssd1}");
    assert!(ssd16 <= 21_000, "the SSD serves at most ~100k IOPS: {ssd16}");
    // On brd each reader copies its own pages: 8 readers read about 8 times as much.
    assert!(brd8 * 10 >= brd1 * 8 * 9, "brd has no shared queue: {brd8} vs 8 x {brd1}");
    // And a brd read is CPU time, far shorter than the SSD's latency.
    assert!(brd1 > 10 * ssd1, "a brd read is a memcpy: {brd1} vs {ssd1}");
}

#[test]
fn runnable_actors_share_the_cpus() {
    let brd = |cpus| Machine { storage: Storage::Ramdisk, cpus };
    let free = reads(brd(None), 8);
    let two = reads(brd(Some(2)), 8);
    let eight = reads(brd(Some(8)), 8);
    println!("8 brd readers in 0.2 s: own CPUs {free}, 8 CPUs {eight}, 2 CPUs {two}");
    // As many CPUs as readers (kswapd also runs, briefly): about no loss.
    assert!(eight * 10 >= free * 8, "8 readers on 8 CPUs: {eight} vs {free}");
    // 8 always-runnable readers on 2 CPUs get about a quarter each.
    assert!(two * 10 >= free * 2 && two * 10 <= free * 3, "8 readers on 2 CPUs: {two} vs {free}");
}

#[test]
fn a_bad_cpu_count_is_named() {
    let e = scenario(Machine { storage: Storage::Ramdisk, cpus: Some(0) }, 1).validate().unwrap_err();
    assert_eq!(e.field, "machine.cpus");
}
