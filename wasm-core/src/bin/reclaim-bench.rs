//! Benchmarks that print figures (not timed tests): simulated page accesses
//! per second of wall-clock time with MGLRU under steady reclaim, and engine
//! bytes per folio. `npm run bench` runs this natively and the same workload
//! in wasm under Node (scripts/bench-wasm.mjs).
use std::time::Instant;

use reclaim_core::mm::folio::Folios;
use reclaim_core::scenario;
use reclaim_core::sim::Simulation;
use reclaim_core::view::ScenarioRequest;

fn main() {
    let mut params = std::collections::BTreeMap::new();
    params.insert("memory_max".to_string(), 65_536.0);
    params.insert("file_pages".to_string(), 262_144.0);
    params.insert("anon_pages".to_string(), 32_768.0);
    params.insert("anon_rate".to_string(), 10_000_000.0);
    let req = ScenarioRequest { name: "mglru-basic".into(), seed: 1, params };
    let mut sim = Simulation::new(scenario::build(&req).expect("valid")).expect("valid");
    // Warm up until the memcg is at its limit and reclaim is steady.
    for _ in 0..200 {
        sim.step();
    }
    let before: u64 = sim.tasks.iter().map(|t| t.accesses).sum();
    let t0 = Instant::now();
    for _ in 0..300 {
        sim.step();
    }
    let secs = t0.elapsed().as_secs_f64();
    let accesses: u64 = sim.tasks.iter().map(|t| t.accesses).sum::<u64>() - before;
    let scanned = sim.mm.vmstat.get(reclaim_core::mm::vmstat::Item::PgscanDirect)
        + sim.memory_stat(1).iter().find(|(k, _)| k == "pgscan").map_or(0, |(_, v)| *v);
    println!("native: {:.2} M simulated accesses/s ({accesses} accesses in {secs:.3} s wall; {scanned} folios scanned by reclaim)", accesses as f64 / secs / 1e6);
    println!("folio table: {} bytes per folio", Folios::BYTES_PER_FOLIO);
}
