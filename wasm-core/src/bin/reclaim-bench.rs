//! Benchmarks that print figures (not timed tests): simulated page accesses
//! per second of wall-clock time with MGLRU under steady reclaim, and engine
//! bytes per folio, and trace replay rates per policy. `npm run bench` runs
//! this natively and the same workloads in wasm under Node
//! (scripts/bench-wasm.mjs); `reclaim-bench trace` runs the replay only.
use std::collections::BTreeMap;
use std::time::Instant;

use reclaim_core::mm::vmstat::Item;
use reclaim_core::scenario;
use reclaim_core::sim::Simulation;
use reclaim_core::view::ScenarioRequest;

/// The benchmark workloads (shared with scripts/bench-wasm.mjs through the
/// same names and parameters): (label, scenario, params).
/// (label, scenario, params, warm-up steps, measured steps).
type Workload = (&'static str, &'static str, Vec<(&'static str, f64)>, u32, u32);

pub fn workloads() -> Vec<Workload> {
    vec![
        (
            "hit-heavy: zipf reads + kv heap",
            "mglru-basic",
            vec![("memory_max", 65_536.0), ("file_pages", 262_144.0), ("anon_pages", 32_768.0), ("anon_rate", 10_000_000.0)],
            200,
            300,
        ),
        (
            "miss-heavy: near-uniform reads, 4x memory, swapping kv heap",
            "mglru-basic",
            vec![("memory_max", 16_384.0), ("file_pages", 65_536.0), ("anon_pages", 16_384.0), ("zipf_s", 0.1), ("anon_rate", 2_000_000.0)],
            300,
            1000,
        ),
    ]
}

/// 128 memcgs touching 295k pages (2304 each, 2000 accesses/s each) on a
/// 262,144-page node: global pressure (kswapd swaps) plus a 4096-page root
/// memory.reclaim every second; one simulated minute, timed.
fn many_memcgs() {
    let params: BTreeMap<String, f64> = [
        ("memcgs", 128.0),
        ("pages_per_memcg", 2304.0),
        ("node_pages", 262_144.0),
        ("rate", 2000.0),
        ("request", 4096.0),
        ("interval", 1000.0),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let req = ScenarioRequest { name: "proactive-root".into(), seed: 1, params, variant: None };
    // Three runs: wall-clock time on a shared VM varies run to run; the
    // median is the figure.
    let mut times = Vec::new();
    let mut summary = String::new();
    for _ in 0..3 {
        let mut sim = Simulation::new(scenario::build(&req).expect("valid")).expect("valid");
        let t0 = Instant::now();
        sim.run_until(60_000_000_000);
        times.push(t0.elapsed().as_secs_f64());
        let accesses = sim.accesses();
        let v = &sim.mm.vmstat;
        summary = format!(
            "{accesses} accesses; pgsteal_kswapd {}, pgsteal_direct {}, {} memory.reclaim writes",
            v.get(Item::PgstealKswapd),
            v.get(Item::PgstealDirect),
            sim.reclaim_log.len()
        );
    }
    let runs: Vec<String> = times.iter().map(|t| format!("{t:.2}")).collect();
    times.sort_by(|a, b| a.total_cmp(b));
    println!(
        "native [128 memcgs, 262144 pages, 1 simulated minute]: median {:.2} s wall (runs: {} s; {summary})",
        times[1],
        runs.join(", ")
    );
}

/// Trace replay (docs/trace-replay.md): a seeded 20-million-request zipf
/// trace (s = 1.0) over 1,000,000 pages, replayed into 262,144 cache pages
/// under each policy. The trace is generated once and encoded into
/// oracleGeneral records chunk by chunk as it is pushed, so the figure
/// covers decoding and the engine, not the zipf sampler or a disk.
fn trace_replay() {
    use reclaim_core::replay::{gen, oracle, Policy, ReplayOptions, Session};
    const REQUESTS: u64 = 20_000_000;
    let t0 = Instant::now();
    let ids = gen::zipf_ids(REQUESTS, 1_000_000, 1.0, 1);
    println!("trace replay: {REQUESTS} zipf(1.0) requests over 1,000,000 pages (generated in {:.1} s), 262,144 cache pages", t0.elapsed().as_secs_f64());
    let mut chunk = Vec::with_capacity(1 << 20);
    for p in Policy::ALL {
        let opts = ReplayOptions { policies: vec![p], cache_pages: 262_144, format: Some(reclaim_core::replay::TraceFormat::OracleGeneral), name: String::new(), object_pages: false };
        let mut session = Session::new(&opts).expect("valid options");
        let t0 = Instant::now();
        for block in ids.chunks((1 << 20) / oracle::RECORD_BYTES) {
            chunk.clear();
            for (i, &id) in block.iter().enumerate() {
                chunk.extend_from_slice(&oracle::encode(i as u32, u64::from(id), 4096, -1));
            }
            session.push(&chunk).expect("a valid trace");
        }
        let report = session.finish().expect("a valid trace");
        let secs = t0.elapsed().as_secs_f64();
        let r = &report.results[0];
        println!(
            "native [trace replay, {}]: {:.2} M accesses/s ({} accesses, miss ratio {:.4}, {} pages reclaimed, in {secs:.3} s wall)",
            p.name(),
            r.accesses as f64 / secs / 1e6,
            r.accesses,
            r.miss_ratio,
            r.counters["pgsteal_direct"],
        );
    }
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("trace") {
        trace_replay();
        return;
    }
    trace_replay();
    many_memcgs();
    for (label, name, params, warmup, measured) in workloads() {
        let params: BTreeMap<String, f64> = params.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        let req = ScenarioRequest { name: name.into(), seed: 1, params, variant: None };
        let mut sim = Simulation::new(scenario::build(&req).expect("valid")).expect("valid");
        // Warm up until the memcg is at its limit and reclaim is steady.
        for _ in 0..warmup {
            sim.step();
        }
        let acc0 = sim.accesses();
        let steal0 = sim.mm.memcgs[1].stat.get(Item::PgstealDirect);
        let t0 = Instant::now();
        for _ in 0..measured {
            sim.step();
        }
        let secs = t0.elapsed().as_secs_f64();
        let accesses = sim.accesses() - acc0;
        let reclaimed = sim.mm.memcgs[1].stat.get(Item::PgstealDirect) - steal0;
        println!(
            "native [{label}]: {:.2} M simulated accesses/s ({accesses} accesses, {reclaimed} folios reclaimed, in {secs:.3} s wall)",
            accesses as f64 / secs / 1e6
        );
        let (folios, slots, other) = sim.mm.memory_bytes();
        let n = sim.mm.folios.len() as f64;
        println!(
            "  memory: folio table {:.1} B/folio, address-space slots {:.1} B/folio, other {:.1} B/folio, total {:.1} B/folio ({} folios)",
            folios as f64 / n,
            slots as f64 / n,
            other as f64 / n,
            (folios + slots + other) as f64 / n,
            sim.mm.folios.len()
        );
    }
}
