//! What `reclaim-sim replay` and `gen-trace` print and write (the binary
//! only parses arguments and times the runs).
use std::io::Read;

use super::{PolicyResult, ReplayError, ReplayReport, Session};

/// Chunk size for reading trace files.
pub const READ_CHUNK: usize = 1 << 20;

/// Feeds a whole trace from `input` to `session` in READ_CHUNK pieces and
/// finishes it.
pub fn feed(mut input: impl Read, session: &mut Session) -> Result<ReplayReport, ReplayError> {
    let mut buf = vec![0u8; READ_CHUNK];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReplayError::Replay(format!("read error: {e}"))),
        };
        session.push(&buf[..n])?;
    }
    session.finish()
}

/// One policy's run as the command line reports it: the engine's figures
/// and the wall-clock time the whole replay (read, decode, engine) took.
pub struct Timed {
    pub result: PolicyResult,
    pub wall_seconds: f64,
}

impl Timed {
    pub fn rate(&self) -> f64 {
        self.result.accesses as f64 / self.wall_seconds.max(1e-9)
    }
}

fn counter(r: &PolicyResult, name: &str) -> u64 {
    r.counters.get(name).copied().unwrap_or(0)
}

/// Bytes with a binary unit, as the app writes sizes (formatPages): one
/// decimal below 100 unless whole. 4096 -> "4 KiB", 8192000 -> "7.8 MiB".
fn size(bytes: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < units.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    let digits = if value >= 100.0 || value.fract() == 0.0 { 0 } else { 1 };
    format!("{value:.digits$} {}", units[unit])
}

/// The text report: the trace, then one row per policy.
pub fn text(path: &str, report: &ReplayReport, runs: &[Timed]) -> String {
    let t = &report.trace;
    let mut out = format!(
        "trace {path}: {}{}, {} requests{}, {} distinct pages; cache {} pages ({})\n\n",
        t.format.map_or("unknown format", |f| f.name()),
        if t.compressed == Some(true) { ", zstd" } else { "" },
        t.requests,
        if t.skipped > 0 { format!(" ({} records of size 0 skipped)", t.skipped) } else { String::new() },
        t.pages,
        report.cache_pages,
        size(report.cache_pages * 4096),
    );
    out += &format!(
        "{:<8} {:>12} {:>12} {:>10} {:>13} {:>14} {:>13} {:>12} {:>10} {:>11}\n",
        "policy", "accesses", "misses", "miss ratio", "pgscan_direct", "pgsteal_direct", "refault_file", "activate_file", "wall s", "M access/s"
    );
    for run in runs {
        let r = &run.result;
        out += &format!(
            "{:<8} {:>12} {:>12} {:>10.4} {:>13} {:>14} {:>13} {:>12} {:>10.3} {:>11.2}\n",
            r.policy.name(),
            r.accesses,
            r.misses,
            r.miss_ratio,
            counter(r, "pgscan_direct"),
            counter(r, "pgsteal_direct"),
            counter(r, "workingset_refault_file"),
            counter(r, "workingset_activate_file"),
            run.wall_seconds,
            run.rate() / 1e6,
        );
    }
    if let [run] = runs {
        out += "\nengine counters (non-zero)\n";
        for (k, v) in &run.result.counters {
            if *v != 0 {
                out += &format!("  {k:<32} {v}\n");
            }
        }
        out += &format!("  {:<32} {}\n", "memory.events max", run.result.memory_events_max);
    }
    out
}

/// The JSON report: the trace summary and one object per policy, with the
/// wall-clock figures added (`wallSeconds`, `accessesPerSecond`).
pub fn json(report: &ReplayReport, runs: &[Timed], samples: bool) -> serde_json::Value {
    let results: Vec<serde_json::Value> = runs
        .iter()
        .map(|run| {
            let mut r = run.result.clone();
            if !samples {
                r.samples.clear();
            }
            let mut v = serde_json::to_value(&r).expect("serialisable");
            v["wallSeconds"] = serde_json::json!(run.wall_seconds);
            v["accessesPerSecond"] = serde_json::json!(run.rate().round());
            v
        })
        .collect();
    serde_json::json!({
        "cachePages": report.cache_pages,
        "trace": report.trace,
        "results": results,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_read_as_the_app_writes_them() {
        assert_eq!(super::size(4096), "4 KiB");
        assert_eq!(super::size(2000 * 4096), "7.8 MiB");
        assert_eq!(super::size(262_144 * 4096), "1 GiB");
    }
}

