//! Robustness of the experiments: each headline effect checked across each
//! documented parameter range, not only at the defaults.
//!
//! One parameter at a time moves to the low and the high end of its range
//! (the others stay at their defaults), and the variants the headlines
//! compare (`after` and the baselines) run on each seed.
//! A cell counts the seeds on which the headline went the expected way.
//! `reclaim-sim sweep NAME` prints one experiment's table; `npm run
//! experiments` puts every table in docs/experiments.md.
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

use crate::experiment::{Comparison, Experiment};
use crate::scenario::ScenarioError;
use crate::view::RangePoint;

/// One parameter point of a sweep and, per headline, on how many seeds it
/// held and on how many the variants tied (a tie is no effect either way).
#[derive(Clone, Debug, PartialEq)]
pub struct SweepRow {
    /// "defaults", or "name=value".
    pub point: String,
    pub held: Vec<usize>,
    pub tied: Vec<usize>,
    /// The work of its runs (every seed, each variant run), as
    /// `VariantResult::work` counts it.
    pub work: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub seeds: Vec<u64>,
    pub rows: Vec<SweepRow>,
}

/// The points of a sweep: the defaults, then each parameter at the low and
/// the high end of its range. The app lists the same (`ExperimentInfo::ranges`).
pub fn points(e: &Experiment) -> Vec<RangePoint> {
    let mut out = vec![RangePoint { point: "defaults".to_string(), params: BTreeMap::new() }];
    for p in e.params {
        for v in [p.min, p.max] {
            if v != p.default {
                out.push(RangePoint { point: format!("{}={}", p.name, v), params: BTreeMap::from([(p.name.to_string(), v)]) });
            }
        }
    }
    out
}

/// Runs every point of `e` on every seed, `threads` comparisons at a time.
pub fn sweep(e: &Experiment, seeds: &[u64], threads: usize) -> Result<Sweep, ScenarioError> {
    sweep_with_progress(e, seeds, threads, &|_, _| {})
}

/// [`sweep`], calling `progress(done, total)` as each comparison finishes
/// (from the worker threads, in the order they finish).
pub fn sweep_with_progress(e: &Experiment, seeds: &[u64], threads: usize, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<Sweep, ScenarioError> {
    let pts = points(e);
    let jobs: Vec<(usize, u64)> = (0..pts.len()).flat_map(|i| seeds.iter().map(move |&s| (i, s))).collect();
    let next = Mutex::new(0usize);
    let finished = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Comparison, ScenarioError>>>> = Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let j = {
                    let mut n = next.lock().unwrap_or_else(|p| p.into_inner());
                    let j = *n;
                    *n += 1;
                    j
                };
                let Some(&(i, seed)) = jobs.get(j) else { break };
                let r = e.compare_headlines(&pts[i].params, seed);
                results.lock().unwrap_or_else(|p| p.into_inner())[j] = Some(r);
                progress(finished.fetch_add(1, Ordering::Relaxed) + 1, jobs.len());
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    let mut rows: Vec<SweepRow> = pts.iter().map(|p| SweepRow { point: p.point.clone(), held: vec![0; e.headlines.len()], tied: vec![0; e.headlines.len()], work: 0 }).collect();
    for (&(i, _), r) in jobs.iter().zip(results) {
        let c = r.expect("every job ran")?;
        let row = &mut rows[i];
        row.work += c.variants.iter().map(|v| v.work).sum::<u64>();
        for (k, h) in e.headlines.iter().enumerate() {
            row.held[k] += usize::from(c.held(h));
            row.tied[k] += usize::from(c.tied(h));
        }
    }
    Ok(Sweep { seeds: seeds.to_vec(), rows })
}

/// The sweep as a Markdown table: a row per point, a column per headline,
/// "5/5" where the effect held on every seed and bold where it did not,
/// with the seeds on which before and after were equal ("3 tied").
pub fn markdown(e: &Experiment, s: &Sweep) -> String {
    let n = s.seeds.len();
    let mut out = String::from("| parameter point |");
    for h in e.headlines {
        out.push_str(&format!(" {} |", h.metric));
    }
    out.push_str("\n|---|");
    for _ in e.headlines {
        out.push_str("---:|");
    }
    out.push('\n');
    for r in &s.rows {
        out.push_str(&format!("| {} |", r.point));
        for (&k, &t) in r.held.iter().zip(&r.tied) {
            if k == n {
                out.push_str(&format!(" {k}/{n} |"));
            } else if t > 0 {
                out.push_str(&format!(" **{k}/{n}** ({t} tied) |"));
            } else {
                out.push_str(&format!(" **{k}/{n}** |"));
            }
        }
        out.push('\n');
    }
    out
}

/// A sweep as `sweep --json` prints it and the app shows it recorded: a
/// count per headline for each point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct SweepRecord {
    pub experiment: String,
    pub seeds: Vec<u64>,
    /// The headline metrics, in the experiment's order (the counts' order).
    pub headlines: Vec<String>,
    pub rows: Vec<SweepRecordRow>,
}

/// One point of a [`SweepRecord`]: per headline, the seeds on which it held
/// and the seeds on which before and after tied.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct SweepRecordRow {
    pub point: String,
    pub held: Vec<u32>,
    pub tied: Vec<u32>,
    /// What its runs cost (SweepRow::work): the app's range check weighs
    /// the points by it to estimate the time left. 0 in a record that
    /// predates it.
    #[serde(default)]
    pub work: u64,
}

/// Every experiment's sweep on seeds 1 to 5, as `npm run experiments`
/// records it for the app (web/src/views/comparison/recorded-ranges.json),
/// so an experiment's page shows the range table without running it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct RecordedRanges {
    /// The command that wrote the file.
    pub generated_by: String,
    pub sweeps: Vec<SweepRecord>,
}

/// The sweep as a record (what `json` prints).
pub fn record(e: &Experiment, s: &Sweep) -> SweepRecord {
    let count = |v: &[usize]| v.iter().map(|&n| u32::try_from(n).unwrap_or(u32::MAX)).collect();
    SweepRecord {
        experiment: e.name.to_string(),
        seeds: s.seeds.clone(),
        headlines: e.headlines.iter().map(|h| h.metric.to_string()).collect(),
        rows: s.rows.iter().map(|r| SweepRecordRow { point: r.point.clone(), held: count(&r.held), tied: count(&r.tied), work: r.work }).collect(),
    }
}

/// The sweep as JSON: `{"experiment", "seeds", "headlines": [metric...],
/// "rows": [{"point", "held": [...], "tied": [...]}]}`, a count per headline.
pub fn json(e: &Experiment, s: &Sweep) -> serde_json::Value {
    serde_json::to_value(record(e, s)).unwrap_or(serde_json::Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_cover_each_range_end_once() {
        let e = crate::experiment::find("proactive-reclaim-batching").expect("experiment");
        let pts = points(e);
        assert_eq!(pts[0].point, "defaults");
        for p in e.params {
            let ends = pts.iter().filter(|r| r.params.contains_key(p.name)).count();
            assert_eq!(ends, usize::from(p.min != p.default) + usize::from(p.max != p.default), "{}", p.name);
        }
    }

    #[test]
    fn a_cell_names_ties_only_where_the_effect_did_not_hold_everywhere() {
        let e = crate::experiment::find("proactive-reclaim-batching").expect("experiment");
        let n = e.headlines.len();
        let row = |point: &str, held: usize, tied: usize| SweepRow { point: point.into(), held: vec![held; n], tied: vec![tied; n], work: 7 };
        let s = Sweep { seeds: vec![1, 2, 3, 4, 5], rows: vec![row("defaults", 5, 0), row("a=1", 0, 5), row("b=2", 2, 1), row("c=3", 3, 0)] };
        let md = markdown(e, &s);
        let lines: Vec<&str> = md.lines().collect();
        assert!(lines[2].ends_with("| 5/5 |"), "{md}");
        assert!(lines[3].ends_with("| **0/5** (5 tied) |"), "{md}");
        assert!(lines[4].ends_with("| **2/5** (1 tied) |"), "{md}");
        assert!(lines[5].ends_with("| **3/5** |"), "{md}");
        let j = json(e, &s);
        assert_eq!(j["headlines"].as_array().map(Vec::len), Some(n));
        assert_eq!(j["rows"][2]["point"], "b=2");
        assert_eq!(j["rows"][2]["held"][0], 2);
        assert_eq!(j["rows"][2]["tied"][0], 1);
        assert_eq!(j["rows"][2]["work"], 7);
    }

    #[test]
    fn the_app_gets_the_same_points() {
        let list = crate::scenario::list();
        for e in crate::experiment::ALL {
            let info = list.experiments.iter().find(|i| i.name == e.name).expect("listed");
            assert_eq!(info.ranges, points(e), "{}", e.name);
        }
    }
}
