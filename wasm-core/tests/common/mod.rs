//! Helpers shared by the integration tests.
use reclaim_core::scenario::Scenario;
use reclaim_core::sim::Simulation;

/// Runs a scenario file of tests/data for `steps` steps.
pub fn file_run(name: &str, steps: u64) -> Simulation {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    let mut sim = Simulation::new(Scenario::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()).unwrap();
    for _ in 0..steps {
        sim.step();
    }
    sim
}
