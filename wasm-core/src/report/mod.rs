//! Reports of a finished run in kernel formats: the `run --json` object
//! (/proc/vmstat, memory.stat, memory.events names) and the
//! /sys/kernel/debug/lru_gen text.
use serde_json::{json, Map, Value};

use crate::sim::Simulation;

mod events;
mod format;
pub use events::{step_events, EventFilter};
pub use format::{fmt_named, group};
use format::change_text;

fn obj(pairs: Vec<(String, u64)>) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k, Value::from(v))).collect::<Map<String, Value>>())
}

/// Run-level metrics computed from the tasks and the simulated clock.
pub fn metrics(sim: &Simulation) -> Map<String, Value> {
    let secs = sim.time() as f64 / 1e9;
    let mut m = Map::new();
    let (acc, hits): (u64, u64) = sim.tasks.iter().fold((0, 0), |(a, h), t| (a + t.accesses, h + t.hits));
    m.insert("sim_time_s".into(), json!(secs));
    m.insert("accesses".into(), json!(acc));
    m.insert("hit_ratio".into(), json!(if acc > 0 { hits as f64 / acc as f64 } else { 0.0 }));
    if !sim.reclaim_log.is_empty() {
        let req: u64 = sim.reclaim_log.iter().map(|r| r.requested).sum();
        let got: u64 = sim.reclaim_log.iter().map(|r| r.reclaimed).sum();
        m.insert("memory_reclaim_writes".into(), json!(sim.reclaim_log.len()));
        m.insert("memory_reclaim_requested".into(), json!(req));
        m.insert("memory_reclaim_reclaimed".into(), json!(got));
        m.insert("memory_reclaim_eagain".into(), json!(sim.reclaim_log.iter().filter(|r| !r.ok).count()));
        m.insert("memory_reclaim_rounds".into(), json!(sim.reclaim_log.iter().map(|r| r.rounds.len()).sum::<usize>()));
    }
    m.insert("pgsteal_cv".into(), json!(sim.pgsteal_cv()));
    for t in &sim.tasks {
        // Over the task's own time: from its start until it ended (its pass
        // done, its stop reached, OOM-killed) or its stop, or until now.
        let mut end = if t.stop_ns > 0 { t.stop_ns.min(sim.time()) } else { sim.time() };
        if !t.alive && t.ended_ns > 0 {
            end = end.min(t.ended_ns);
        }
        let active = end.saturating_sub(t.start_ns) as f64 / 1e9;
        m.insert(format!("{}_ops_per_sec", t.name), json!(if active > 0.0 { t.accesses as f64 / active } else { 0.0 }));
        m.insert(format!("{}_hit_ratio", t.name), json!(if t.accesses > 0 { t.hits as f64 / t.accesses as f64 } else { 0.0 }));
    }
    m
}

/// What a run was of, for its report: the variant (of an experiment), the
/// parameters in effect (defaults filled in; none for a scenario file) and,
/// for an experiment, its metrics as `compare` reports them.
#[derive(Default)]
pub struct RunLabel {
    pub variant: Option<String>,
    pub params: Option<std::collections::BTreeMap<String, f64>>,
    pub experiment_metrics: Option<Vec<(&'static str, f64)>>,
}

/// `run --json`: {"scenario", "seed", ["variant", "params",] "steps",
/// "time_ns", "vmstat": {...}, "memcgs": [{"path", "memory_current",
/// "memory_swap_current", "memory_stat", "memory_events"}], "metrics":
/// {...}[, "experiment_metrics": {...}]}. memory.current and
/// memory.swap.current are in bytes and memory.stat in the kernel's
/// units (bytes for sizes, counts for events).
pub fn run_json(sim: &Simulation, label: &RunLabel) -> Value {
    let memcgs: Vec<Value> = sim
        .mm
        .memcgs
        .iter()
        .map(|cg| {
            let ev = &cg.events;
            json!({
                "path": cg.path,
                "memory_current": cg.usage * 4096,
                // memory.swap.current: swap slots charged to it and its descendants, in bytes.
                "memory_swap_current": cg.swap_usage * 4096,
                "memory_stat": obj(sim.memory_stat(cg.id)),
                "memory_events": {"low": ev.low, "high": ev.high, "max": ev.max, "oom": ev.oom, "oom_kill": ev.oom_kill},
            })
        })
        .collect();
    let mut doc = Map::new();
    doc.insert("scenario".into(), json!(sim.scenario.name));
    doc.insert("seed".into(), json!(sim.scenario.seed));
    if let Some(v) = &label.variant {
        doc.insert("variant".into(), json!(v));
    }
    if let Some(p) = &label.params {
        doc.insert("params".into(), json!(p));
    }
    doc.insert("steps".into(), json!(sim.step_count()));
    doc.insert("time_ns".into(), json!(sim.time()));
    doc.insert("vmstat".into(), obj(sim.vmstat()));
    doc.insert("memcgs".into(), Value::Array(memcgs));
    doc.insert("metrics".into(), Value::Object(metrics(sim)));
    if let Some(m) = &label.experiment_metrics {
        doc.insert("experiment_metrics".into(), Value::Object(m.iter().map(|(k, x)| (k.to_string(), json!(x))).collect()));
    }
    Value::Object(doc)
}

/// The lruvecs in the format of /sys/kernel/debug/lru_gen (the verbose
/// variant with per-tier counters is `lru_gen_full`, see docs):
///
/// ```text
/// memcg  ID  PATH
///  node  NID
///    SEQ  AGE_MS  NR_ANON_PAGES  NR_FILE_PAGES
/// ```
pub fn lru_gen(sim: &Simulation) -> String {
    let mm = &sim.mm;
    let mut out = String::new();
    for cg in &mm.memcgs {
        // mem_cgroup_id(): the root memcg's ID is 1 (mem_cgroup_idr starts there).
        out.push_str(&format!("memcg {:>5} {}\n", cg.id + 1, cg.path));
        for n in 0..mm.nr_nodes() {
            out.push_str(&format!(" node {:>5}\n", n));
            let g = &mm.lruvecs[mm.lruvec_id(cg.id, n) as usize].lrugen;
            let lo = g.min_seq[0].min(g.min_seq[1]);
            for seq in lo..=g.max_seq {
                let gen = crate::mm::lruvec::lru_gen_from_seq(seq);
                let age_ms = mm.now_ns.saturating_sub(g.timestamps[gen]) / 1_000_000;
                let anon = if seq >= g.min_seq[0] { g.gen_size(gen, 0).to_string() } else { "-0".into() };
                let file = if seq >= g.min_seq[1] { g.gen_size(gen, 1).to_string() } else { "-0".into() };
                out.push_str(&format!(" {:>10} {:>10} {:>10} {:>10}\n", seq, age_ms, anon, file));
            }
        }
    }
    out
}

/// The engine keeps its metrics as f64, so a counter such as pgscan_direct
/// would print as 29961.0. For the command line's JSON, every whole number
/// below 2^53 (exact in a double) is written as an integer, as the browser's
/// JSON.stringify writes it; fractions are left as they are.
pub fn whole_numbers(v: Value) -> Value {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(x) if n.is_f64() && x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 => json!(x as i64),
            _ => Value::Number(n),
        },
        Value::Array(a) => Value::Array(a.into_iter().map(whole_numbers).collect()),
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, x)| (k, whole_numbers(x))).collect()),
        other => other,
    }
}

/// `compare --json`: {"experiment", "params", "seed", "variants": {"before": {"metrics": {...}}, ...},
/// "headlines": [{"metric", "expected", "baseline", "baseline_value", "after_value", "held", "tied", ...}]}.
pub fn compare_json(e: &crate::experiment::Experiment, c: &crate::experiment::Comparison) -> Value {
    let variants: Map<String, Value> = c
        .variants
        .iter()
        .map(|v| {
            let metrics: Map<String, Value> = v.metrics.iter().map(|(k, x)| (k.clone(), json!(x))).collect();
            (v.variant.clone(), json!({ "metrics": metrics }))
        })
        .collect();
    let headlines: Vec<Value> = e
        .headlines
        .iter()
        .map(|h| {
            // The two values the verdict compares (null where the run does
            // not define the metric), so a script need not look them up.
            let (b, a) = (c.metric(h.baseline, h.metric), c.metric("after", h.metric));
            json!({
                "metric": h.metric,
                "expected": expected(h),
                "baseline": h.baseline,
                "baseline_value": b,
                "after_value": a,
                "held": c.held(h),
                "tied": c.tied(h),
                "author_before": h.author_before,
                "author_after": h.author_after,
            })
        })
        .collect();
    json!({ "experiment": c.experiment, "params": c.params, "seed": c.seed, "variants": variants, "headlines": headlines })
}

/// "after lower than before": what a headline expects.
fn expected(h: &crate::experiment::Headline) -> String {
    let way = match h.direction {
        crate::experiment::Direction::Lower => "lower",
        crate::experiment::Direction::Higher => "higher",
    };
    format!("after {way} than {}", h.baseline)
}

/// The variant a row's change is against, unless it is a headline with its own.
const CHANGE_BASELINE: &str = "before";

/// `compare` as a table: one row per metric, one column per variant, and
/// the change of after against before (a headline's row: against its own
/// baseline, named in the row); then each headline: whether it held on
/// this seed (against its baseline variant) and the patch author's figures.
pub fn compare_text(e: &crate::experiment::Experiment, c: &crate::experiment::Comparison) -> String {
    let mut out = format!("{} (seed {})\n{}\n\n", e.name, c.seed, e.patch);
    let params: Vec<String> = c.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    out.push_str(&format!("params: {}\n\n", params.join(" ")));
    out.push_str(&format!("{:<26}", "metric"));
    for v in &c.variants {
        out.push_str(&format!(" {:>20}", v.variant));
    }
    out.push_str(&format!(" {:>18}\n", "change"));
    let names: Vec<&String> = c.variants[0].metrics.iter().map(|(k, _)| k).collect();
    let mut other_baseline = false;
    for (i, name) in names.iter().enumerate() {
        out.push_str(&format!("{name:<26}"));
        for v in &c.variants {
            out.push_str(&format!(" {:>20}", fmt_named(name, v.metrics[i].1)));
        }
        // A headline's change is against its own baseline (as on the app's
        // table and in the headline lines below); any other row's against before.
        let baseline = e.headlines.iter().find(|h| h.metric == name.as_str()).map_or(CHANGE_BASELINE, |h| h.baseline);
        let b = c.metric(baseline, name).unwrap_or(f64::NAN);
        let a = c.metric("after", name).unwrap_or(f64::NAN);
        // From nothing there is no relative change: "from 0", as the app's table says.
        let mut change = change_text(name, b, a).unwrap_or_else(|| if b == 0.0 && a.is_finite() { "from 0".into() } else { "-".into() });
        if baseline != CHANGE_BASELINE {
            other_baseline = true;
            change.push_str(&format!(" vs {baseline}"));
        }
        out.push_str(&format!(" {change:>18}\n"));
    }
    out.push_str(&format!(
        "change: after against {CHANGE_BASELINE}{}: relative, or in percentage points (pp) for a share\n",
        if other_baseline { " (or the variant named)" } else { "" }
    ));
    out.push_str("\nheadlines (this seed; the patch author's figures)\n");
    for h in e.headlines {
        let (b, a) = (c.metric(h.baseline, h.metric).unwrap_or(0.0), c.metric("after", h.metric).unwrap_or(0.0));
        let verdict = if c.held(h) {
            "held"
        } else if c.tied(h) {
            "tied"
        } else {
            "NOT held"
        };
        let change = change_text(h.metric, b, a).map_or_else(String::new, |c| format!(", {c}"));
        let author = if h.author_before.starts_with("(not reported)") && h.author_after.starts_with("(not reported)") {
            "not reported".to_string()
        } else {
            format!("{} -> {}", h.author_before, h.author_after)
        };
        out.push_str(&format!(
            "  {:<26} {:<8} expected {}: {} {} -> after {}{change}\n  {:<26} author: {author}\n",
            h.metric,
            verdict,
            expected(h),
            h.baseline,
            fmt_named(h.metric, b),
            fmt_named(h.metric, a),
            "",
        ));
    }
    out
}

/// The median of the defined values (NaN, "n/a", when none is).
fn median(v: &[f64]) -> f64 {
    let mut v: Vec<f64> = v.iter().copied().filter(|x| !x.is_nan()).collect();
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// docs/experiments.md: every experiment at its default parameters for
/// seeds 1 to 5, the median of each metric per variant, the patch author's
/// figures, whether the headline direction held for every seed, and the
/// sweep over each parameter's range (crate::sweep); and the same sweeps
/// as a record for the app.
pub fn experiments_doc() -> Result<(String, crate::sweep::RecordedRanges), crate::scenario::ScenarioError> {
    use crate::experiment::{Direction, ALL};
    use std::collections::BTreeMap;
    const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];
    let mut recorded = crate::sweep::RecordedRanges { generated_by: "npm run experiments (reclaim-sim experiments-doc)".to_string(), sweeps: Vec::new() };
    let mut out = String::from(
        "# Experiments: the five patches, reproduced\n\n\
         Generated by `npm run experiments` (`reclaim-sim experiments-doc`): every\n\
         experiment at its default parameters, seeds 1 to 5, the median of each\n\
         metric, next to the figures the patch author reported. The simulator is\n\
         scaled down (tens of thousands of pages, not hundreds of GiB), so absolute\n\
         numbers differ; what must match is the direction and rough size of each\n\
         effect. \"held\" says whether the headline moved the expected way for every\n\
         seed. Below each table, the same check across the parameter ranges (each\n\
         parameter at the low and the high end of its range), and where a headline\n\
         does not hold, why. Run one yourself with\n\
         `npm run sim -- compare NAME [--param k=v]... [--seed N]` or\n\
         `npm run sim -- sweep NAME`, or on the experiment's page in the app\n\
         with *Check seeds 1–5* and *Check the ranges*.\n\n",
    );
    for e in ALL {
        let params = BTreeMap::new();
        let runs: Vec<_> = SEEDS.iter().map(|&seed| e.compare(&params, seed)).collect::<Result<_, _>>()?;
        out.push_str(&format!("## {}\n\n{}\n\nPatch: `{}`\n\n{}\n\n", e.name, e.title, e.patch, e.description));
        let p: Vec<String> = runs[0].params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out.push_str(&format!("Defaults: `{}`\n\n", p.join(" ")));
        let variants: Vec<&str> = e.variants.iter().map(|v| v.name).collect();
        out.push_str("| metric |");
        for v in &variants {
            out.push_str(&format!(" {v} (median) |"));
        }
        out.push_str(" author before | author after | expected | held for seeds 1-5 |\n|---|");
        for _ in &variants {
            out.push_str("---:|");
        }
        out.push_str("---|---|---|---|\n");
        let names: Vec<String> = runs[0].variants[0].metrics.iter().map(|(k, _)| k.clone()).collect();
        for (i, name) in names.iter().enumerate() {
            out.push_str(&format!("| {name} |"));
            for vi in 0..variants.len() {
                let xs: Vec<f64> = runs.iter().map(|r| r.variants[vi].metrics[i].1).collect();
                out.push_str(&format!(" {} |", fmt_named(name, median(&xs))));
            }
            match e.headlines.iter().find(|h| h.metric == name.as_str()) {
                Some(h) => {
                    let held = runs.iter().all(|r| r.held(h));
                    let expected = match h.direction {
                        Direction::Lower => format!("after lower than {}", h.baseline),
                        Direction::Higher => format!("after higher than {}", h.baseline),
                    };
                    out.push_str(&format!(" {} | {} | {expected} | {} |\n", h.author_before, h.author_after, if held { "yes" } else { "**no**" }));
                }
                None => out.push_str(" | | | |\n"),
            }
        }
        out.push_str("\nVariants: ");
        let vs: Vec<String> = e.variants.iter().map(|v| format!("`{}`: {}", v.name, v.description)).collect();
        out.push_str(&vs.join("; "));
        out.push_str(".\n\nMetrics: ");
        let ms: Vec<String> = e.metric_docs.iter().map(|d| format!("`{}`: {}", d.name, d.help)).collect();
        out.push_str(&ms.join("; "));
        out.push_str(".\n\n");
        let sweep = crate::sweep::sweep(e, &SEEDS, 2)?;
        out.push_str(&format!(
            "Across the parameter ranges (`reclaim-sim sweep {}`): each parameter at the low and the high end of its range, the others at their defaults; a cell counts the seeds (of 1-5) on which the headline moved the expected way, and where it did not on every seed, on how many before and after came out equal (tied: no effect either way, rather than the opposite one).\n\n",
            e.name
        ));
        out.push_str(&crate::sweep::markdown(e, &sweep));
        out.push('\n');
        recorded.sweeps.push(crate::sweep::record(e, &sweep));
        if !e.limits.is_empty() {
            out.push_str(&format!("Where it does not hold, and why: {}\n\n", e.limits));
        }
    }
    Ok((out, recorded))
}
