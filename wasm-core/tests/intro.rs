//! The introductory scenarios show what their descriptions say: the classic
//! LRU's workingset detection lets a new working set that does not fit in the
//! inactive list replace the old one (`refaults`), and both LRUs keep a hot
//! file resident through a one-time scan many times larger than memory
//! (`scan-resistance`). Each over several seeds.
use std::collections::BTreeMap;

use reclaim_core::scenario;
use reclaim_core::sim::Simulation;
use reclaim_core::view::ScenarioRequest;

fn run(name: &str, seed: u64, params: &[(&str, f64)]) -> Simulation {
    let params: BTreeMap<String, f64> = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let req = ScenarioRequest { name: name.into(), seed, params, variant: None };
    let mut sim = Simulation::new(scenario::build(&req).unwrap()).unwrap();
    let end = sim.scenario.duration_ns;
    sim.run_until(end);
    sim
}

/// A /proc/vmstat counter as `reclaim-sim run` prints it.
fn stat(sim: &Simulation, name: &str) -> u64 {
    sim.vmstat().into_iter().find(|(n, _)| n == name).map(|(_, v)| v).unwrap_or_else(|| panic!("no counter {name}"))
}

#[test]
fn classic_workingset_detection_lets_the_new_working_set_in() {
    for seed in 1..=3 {
        let sim = run("refaults", seed, &[("lru_gen", 0.0)]);
        let refaults = stat(&sim, "workingset_refault_file");
        let activated = stat(&sim, "workingset_activate_file");
        // The loop (1,536 pages) is read about 40 times in 4 s: without activation every read would refault.
        assert!(refaults > 0 && refaults < 4 * 1536, "seed {seed}: {refaults} refaults");
        assert!(activated * 2 > refaults, "seed {seed}: most refaults activate ({activated} of {refaults})");
        // The new file ends up on the active list.
        let active = stat(&sim, "nr_active_file");
        assert!(active >= 1400, "seed {seed}: active file {active}");
    }
}

#[test]
fn a_loop_larger_than_memory_is_never_activated_by_the_classic_lru() {
    let sim = run("refaults", 1, &[("lru_gen", 0.0), ("new_percent", 150.0)]);
    let refaults = stat(&sim, "workingset_refault_file");
    // Its refault distance exceeds the workingset: it would not have stayed even with all memory inactive.
    assert!(refaults > 10 * 3072, "it thrashes: {refaults}");
    assert!(stat(&sim, "workingset_activate_file") < refaults / 10);
}

#[test]
fn patch_004_refault_distance_protects_the_loop_under_mglru() {
    for seed in 1..=3 {
        let plain = stat(&run("refaults", seed, &[("lru_gen", 1.0)]), "workingset_refault_file");
        let patched = stat(&run("refaults", seed, &[("lru_gen", 1.0), ("refault_distance", 1.0)]), "workingset_refault_file");
        assert!(patched * 4 < plain, "seed {seed}: refaults with patch 004 {patched}, without {plain}");
    }
}

#[test]
fn both_lrus_keep_the_hot_file_through_a_scan() {
    for seed in 1..=3 {
        for lru_gen in [0.0, 1.0] {
            let sim = run("scan-resistance", seed, &[("lru_gen", lru_gen)]);
            // The scan reads 16,384 pages once; the hot file is 1,024 pages.
            let refaults = stat(&sim, "workingset_refault_file");
            assert!(stat(&sim, "pgsteal_file") > 10_000, "seed {seed} lru_gen {lru_gen}: the scan was reclaimed");
            assert!(refaults < 4096, "seed {seed} lru_gen {lru_gen}: hot pages refaulted {refaults} times");
        }
    }
}
