//! reclaim-sim's command line: its grammar (clap) and how it reads names,
//! parameters, seeds and step counts, each refused with the one-line message
//! the CLI contract asks for (docs: experiments.md).
use std::collections::BTreeMap;

use clap::{Parser, Subcommand};
use reclaim_core::experiment;
use reclaim_core::report;
use reclaim_core::scenario::{self, Scenario};
use reclaim_core::view::{ParamInfo, ScenarioRequest};

use super::replay_cmd;

#[derive(Parser)]
#[command(name = "reclaim-sim", version, about = "Simulate Linux memory reclaim (MGLRU, classic LRU, memcgs, kswapd)")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) cmd: Cmd,
}

#[derive(Subcommand)]
pub(crate) enum Cmd {
    /// Lists the experiments and the built-in scenarios, one a line.
    List {
        /// Also list each scenario's parameters with defaults and ranges.
        #[arg(long)]
        params: bool,
    },
    /// Runs every variant of an experiment on the same seed and prints their metrics.
    Compare {
        /// An experiment name (see `reclaim-sim list`).
        name: String,
        #[command(flatten)]
        choice: Choice,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Checks an experiment's headline effects across its parameter ranges:
    /// each parameter at the low and high end of its range, every seed.
    Sweep {
        /// An experiment name (see `reclaim-sim list`).
        name: String,
        /// Seeds 1 to N, N from 1 to 50.
        #[arg(long, default_value_t = 5, allow_negative_numbers = true, value_parser = whole::<1, 50>)]
        seeds: u64,
        /// Comparisons run at a time, 1 to 64.
        #[arg(long, default_value_t = 2, allow_negative_numbers = true, value_parser = whole::<1, 64>)]
        threads: u64,
        /// Print one JSON object: the headlines and, per point, the seeds held and tied.
        #[arg(long)]
        json: bool,
    },
    /// Runs every experiment at its defaults for seeds 1-5 and prints
    /// docs/experiments.md (medians next to the patch authors' figures).
    ExperimentsDoc {
        /// Also write every experiment's sweep as JSON to this file (the
        /// app's recorded range tables).
        #[arg(long = "ranges-json", value_name = "FILE")]
        ranges_json: Option<std::path::PathBuf>,
    },
    /// Runs one scenario and prints its final counters.
    Run {
        /// A built-in scenario name, or a scenario file (.json).
        name: String,
        /// A parameter of a built-in scenario, k=v (repeatable).
        #[arg(long = "param", value_name = "K=V")]
        params: Vec<String>,
        /// The run's seed (a whole number, 0 or more; default: the file's
        /// seed for a scenario file, else 1).
        #[arg(long, allow_negative_numbers = true, value_parser = parse_seed)]
        seed: Option<u64>,
        /// Steps to run, from 1 to 10000000 (default: the scenario's duration).
        #[arg(long, allow_negative_numbers = true, value_parser = parse_steps)]
        steps: Option<u64>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Print the lruvecs in the format of /sys/kernel/debug/lru_gen.
        #[arg(long = "lru-gen", conflicts_with = "json")]
        lru_gen: bool,
        /// Print the engine's events as they happen, one a line (time, step,
        /// kind, kernel function, what and why), before the counters: `all`,
        /// or kinds separated by commas: aging, kswapd-wake, kswapd-sleep,
        /// refault, eviction, reclaim, oom, throttle.
        #[arg(long, value_name = "KINDS", value_parser = report::EventFilter::parse, conflicts_with = "json")]
        events: Option<report::EventFilter>,
        /// For an experiment: the variant to run (default: after; see
        /// `reclaim-sim compare NAME` for an experiment's variants).
        #[arg(long)]
        variant: Option<String>,
    },
    /// Prints a built-in scenario, or one variant of an experiment, as a
    /// scenario file: the format `run FILE.json` and the app's editor read
    /// (docs/scenario-files.md). A starting point for your own.
    Scenario {
        /// A built-in scenario or experiment name (see `reclaim-sim list`).
        name: String,
        #[command(flatten)]
        choice: Choice,
        /// For an experiment: the variant (default: after).
        #[arg(long)]
        variant: Option<String>,
    },
    /// Replays a trace (libCacheSim oracleGeneral or CSV, optionally .zst)
    /// into a memcg limited to --cache-pages and prints the miss ratio, the
    /// engine counters and the replay rate (docs/trace-replay.md).
    Replay(replay_cmd::ReplayArgs),
    /// Writes a seeded synthetic trace: zipf-popular page ids.
    GenTrace(replay_cmd::GenTraceArgs),
}

/// A usage error: printed as one line, exit status 2.
pub(crate) struct UsageError(pub(crate) String);

/// The most steps `run` takes.
pub(crate) const MAX_STEPS: u64 = 10_000_000;

/// `--seed`: any u64, with a message that states the range.
pub(crate) fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim().parse().map_err(|_| format!("not a seed: a whole number from 0 to {}", u64::MAX))
}

/// The parameters and the seed of an experiment's or a scenario's run
/// (`compare`, `scenario`).
#[derive(clap::Args)]
pub(crate) struct Choice {
    /// A parameter, k=v (repeatable; see `reclaim-sim list --params`).
    #[arg(long = "param", value_name = "K=V")]
    pub(crate) params: Vec<String>,
    /// The seed (a whole number, 0 or more).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = parse_seed)]
    pub(crate) seed: u64,
}

/// A whole-number option from MIN to MAX; anything else (a word, a
/// negative number, one out of range) is refused with the range.
pub(crate) fn whole<const MIN: u64, const MAX: u64>(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if (MIN..=MAX).contains(&n) => Ok(n),
        _ => Err(format!("not a whole number from {MIN} to {MAX}")),
    }
}

/// `--steps`: 1..=MAX_STEPS.
pub(crate) fn parse_steps(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if (1..=MAX_STEPS).contains(&n) => Ok(n),
        _ => Err(format!("not a number of steps: a whole number from 1 to {MAX_STEPS}")),
    }
}

/// The parameters of the experiment or built-in scenario `name`, as
/// `list --params` shows them (None: no such name).
pub(crate) fn param_infos(name: &str) -> Option<Vec<ParamInfo>> {
    let list = scenario::list();
    let experiments = list.experiments.into_iter().map(|e| (e.name, e.params));
    experiments.chain(list.scenarios.into_iter().map(|s| (s.name, s.params))).find(|(n, _)| n == name).map(|(_, p)| p)
}

/// The accepted range of parameter `key` of `name`, written as the engine writes it.
pub(crate) fn param_range(name: &str, key: &str) -> Option<String> {
    param_infos(name)?.into_iter().find(|p| p.name == key).map(|p| scenario::range_text(p.min, p.max))
}

/// The names of `name`'s parameters, comma-separated.
pub(crate) fn param_names(name: &str) -> Option<String> {
    Some(param_infos(name)?.into_iter().map(|p| p.name).collect::<Vec<_>>().join(", "))
}

/// The `--param k=v` list of scenario or experiment `name`: each key once,
/// each value a number (the engine checks names and ranges).
pub(crate) fn parse_params(name: &str, raw: &[String]) -> Result<BTreeMap<String, f64>, UsageError> {
    let mut out = BTreeMap::new();
    for p in raw {
        let known = || param_names(name).map(|n| format!(" ({name}'s parameters: {n})")).unwrap_or_default();
        let (k, v) = p.split_once('=').ok_or_else(|| UsageError(format!("param {p}: no value: expected K=V, a parameter and its value{}", known())))?;
        let k = k.trim();
        if k.is_empty() {
            return Err(UsageError(format!("param \"{p}\": the parameter's name is missing before '='{}", known())));
        }
        let range = || param_range(name, k).map(|r| format!(" (accepted: {r})")).unwrap_or_default();
        // "inf", "NaN" and "1e999" parse as f64 but are no value a parameter takes: named as written.
        let val: f64 = v.trim().parse().ok().filter(|x: &f64| x.is_finite()).ok_or_else(|| UsageError(format!("param {k}: \"{v}\" is not a number{}", range())))?;
        if let Some(first) = out.insert(k.to_string(), val) {
            return Err(UsageError(format!("param {k}: given twice ({k}={first} and {k}={val}); give each parameter once")));
        }
    }
    Ok(out)
}

/// The largest scenario file read: far more than the engine's limits let a
/// scenario hold (4,095 memcgs and 4,096 workloads take about 2 MB), so a
/// device or a wrong file (`/dev/zero`, a trace) is refused, not read for good.
const MAX_SCENARIO_BYTES: u64 = 8 << 20;

/// A scenario file's text, at most MAX_SCENARIO_BYTES of it.
fn read_scenario_file(name: &str) -> Result<String, UsageError> {
    use std::io::Read;
    let file = std::fs::File::open(name).map_err(|e| UsageError(format!("{name}: {e}")))?;
    let mut bytes = Vec::new();
    file.take(MAX_SCENARIO_BYTES + 1).read_to_end(&mut bytes).map_err(|e| UsageError(format!("{name}: {e}")))?;
    if bytes.len() as u64 > MAX_SCENARIO_BYTES {
        return Err(UsageError(format!("{name}: larger than {} MB: not a scenario file (they take a few KB)", MAX_SCENARIO_BYTES >> 20)));
    }
    String::from_utf8(bytes).map_err(|e| UsageError(format!("{name}: not text (byte {} is not UTF-8): a scenario file is JSON", e.utf8_error().valid_up_to())))
}

/// The scenario `run` and `scenario` use: a scenario file (its own seed
/// unless `--seed` is given) or a built-in scenario or experiment, with the
/// parameters given (none for a file).
pub(crate) fn load(name: &str, params: &[String], seed: Option<u64>, variant: Option<String>) -> Result<(Scenario, BTreeMap<String, f64>), UsageError> {
    if name.ends_with(".json") {
        if !params.is_empty() {
            return Err(UsageError("--param applies to built-in scenarios, not to scenario files".into()));
        }
        if variant.is_some() {
            return Err(UsageError("--variant applies to experiments, not to scenario files".into()));
        }
        if std::path::Path::new(name).is_dir() {
            return Err(UsageError(format!("{name}: a directory; give a scenario file ending in .json, or a built-in scenario's name (reclaim-sim list)")));
        }
        let text = read_scenario_file(name)?;
        let mut s = Scenario::from_json(&text).map_err(|e| UsageError(format!("{name}: {e}")))?;
        if let Some(seed) = seed {
            s.seed = seed;
        }
        return Ok((s, BTreeMap::new()));
    }
    // A path that is not a .json file (a directory, a file named otherwise) is named as one, not as an unknown built-in name.
    let path = std::path::Path::new(name);
    if !scenario::is_builtin(name) && (name.contains('/') || path.exists()) {
        let what = if path.is_dir() { "a directory" } else if path.exists() { "not a .json file" } else { "no such file" };
        return Err(UsageError(format!("{name}: {what}; give a scenario file ending in .json, or a built-in scenario's name (reclaim-sim list)")));
    }
    let req = ScenarioRequest { name: name.to_string(), seed: seed.unwrap_or(1), params: parse_params(name, params)?, variant };
    let s = scenario::build(&req).map_err(|e| UsageError(e.to_string()))?;
    Ok((s, req.params))
}

pub(crate) fn find_experiment(name: &str) -> Result<&'static experiment::Experiment, UsageError> {
    experiment::find(name).ok_or_else(|| {
        let names: Vec<&str> = experiment::ALL.iter().map(|e| e.name).collect();
        UsageError(format!("unknown experiment \"{name}\" (known: {})", names.join(", ")))
    })
}

