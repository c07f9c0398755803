//! reclaim-sim: the engine's command line.
//!
//!     reclaim-sim list [--params]
//!     reclaim-sim compare EXPERIMENT [--param k=v]... [--seed N] [--json]
//!     reclaim-sim sweep EXPERIMENT [--seeds N] [--threads N] [--json]
//!     reclaim-sim scenario NAME [--param k=v]... [--seed N] [--variant V]
//!     reclaim-sim run NAME|FILE.json [--param k=v]... [--seed N] [--steps N] [--json] [--lru-gen]
//!     reclaim-sim replay TRACE --cache-pages N [--policy P|all] [--format F] [--json]
//!     reclaim-sim gen-trace OUT [--requests N] [--pages N] [--zipf S] [--seed N] [--format F]
//!
//! Errors (unknown scenario or parameter, out-of-range value, bad file):
//! one line on stderr naming the problem and the accepted range, exit
//! status 2, nothing on stdout.
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{IsTerminal as _, Write as _};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use reclaim_core::experiment;
use reclaim_core::report;
use reclaim_core::scenario::{self, Scenario};
use reclaim_core::sim::Simulation;
use reclaim_core::view::{ParamInfo, ScenarioRequest};

#[derive(Parser)]
#[command(name = "reclaim-sim", version, about = "Simulate Linux memory reclaim (MGLRU, classic LRU, memcgs, kswapd)")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
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

#[path = "replay_cmd/mod.rs"]
mod replay_cmd;

/// A usage error: printed as one line, exit status 2.
struct UsageError(String);

/// The most steps `run` takes.
const MAX_STEPS: u64 = 10_000_000;

/// `--seed`: any u64, with a message that states the range.
fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim().parse().map_err(|_| format!("not a seed: a whole number from 0 to {}", u64::MAX))
}

/// The parameters and the seed of an experiment's or a scenario's run
/// (`compare`, `scenario`).
#[derive(clap::Args)]
struct Choice {
    /// A parameter, k=v (repeatable; see `reclaim-sim list --params`).
    #[arg(long = "param", value_name = "K=V")]
    params: Vec<String>,
    /// The seed (a whole number, 0 or more).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = parse_seed)]
    seed: u64,
}

/// A whole-number option from MIN to MAX; anything else (a word, a
/// negative number, one out of range) is refused with the range.
fn whole<const MIN: u64, const MAX: u64>(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if (MIN..=MAX).contains(&n) => Ok(n),
        _ => Err(format!("not a whole number from {MIN} to {MAX}")),
    }
}

/// `--steps`: 1..=MAX_STEPS.
fn parse_steps(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if (1..=MAX_STEPS).contains(&n) => Ok(n),
        _ => Err(format!("not a number of steps: a whole number from 1 to {MAX_STEPS}")),
    }
}

/// The parameters of the experiment or built-in scenario `name`, as
/// `list --params` shows them (None: no such name).
fn param_infos(name: &str) -> Option<Vec<ParamInfo>> {
    let list = scenario::list();
    let experiments = list.experiments.into_iter().map(|e| (e.name, e.params));
    experiments.chain(list.scenarios.into_iter().map(|s| (s.name, s.params))).find(|(n, _)| n == name).map(|(_, p)| p)
}

/// The accepted range of parameter `key` of `name`, written as the engine writes it.
fn param_range(name: &str, key: &str) -> Option<String> {
    param_infos(name)?.into_iter().find(|p| p.name == key).map(|p| scenario::range_text(p.min, p.max))
}

/// The names of `name`'s parameters, comma-separated.
fn param_names(name: &str) -> Option<String> {
    Some(param_infos(name)?.into_iter().map(|p| p.name).collect::<Vec<_>>().join(", "))
}

/// The `--param k=v` list of scenario or experiment `name`: each key once,
/// each value a number (the engine checks names and ranges).
fn parse_params(name: &str, raw: &[String]) -> Result<BTreeMap<String, f64>, UsageError> {
    let mut out = BTreeMap::new();
    for p in raw {
        let known = || param_names(name).map(|n| format!(" ({name}'s parameters: {n})")).unwrap_or_default();
        let (k, v) = p.split_once('=').ok_or_else(|| UsageError(format!("--param {p}: expected K=V, a parameter and its value{}", known())))?;
        let k = k.trim();
        if k.is_empty() {
            return Err(UsageError(format!("--param {p}: the parameter's name is missing before '='{}", known())));
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

/// The scenario `run` and `scenario` use: a scenario file (its own seed
/// unless `--seed` is given) or a built-in scenario or experiment, with the
/// parameters given (none for a file).
fn load(name: &str, params: &[String], seed: Option<u64>, variant: Option<String>) -> Result<(Scenario, BTreeMap<String, f64>), UsageError> {
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
        let text = std::fs::read_to_string(name).map_err(|e| UsageError(format!("{name}: {e}")))?;
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

fn find_experiment(name: &str) -> Result<&'static experiment::Experiment, UsageError> {
    experiment::find(name).ok_or_else(|| {
        let names: Vec<&str> = experiment::ALL.iter().map(|e| e.name).collect();
        UsageError(format!("unknown experiment \"{name}\" (known: {})", names.join(", ")))
    })
}

/// Runs the command and returns what it prints on stdout.
fn run(cli: Cli) -> Result<String, UsageError> {
    let mut out = String::new();
    match cli.cmd {
        Cmd::Replay(args) => out = replay_cmd::replay(&args).map_err(UsageError)?,
        Cmd::Scenario { name, choice: Choice { params, seed }, variant } => {
            if name.ends_with(".json") {
                return Err(UsageError(format!("{name}: already a scenario file; `scenario` prints a built-in scenario or experiment as one")));
            }
            let (s, _) = load(&name, &params, Some(seed), variant)?;
            out = serde_json::to_string_pretty(&s).expect("serialisable") + "\n";
        }
        Cmd::GenTrace(args) => replay_cmd::gen_trace(&args).map_err(UsageError)?,
        Cmd::Compare { name, choice: Choice { params, seed }, json } => {
            let exp = find_experiment(&name)?;
            let params = parse_params(&name, &params)?;
            let cmp = exp.compare(&params, seed).map_err(|e| UsageError(e.to_string()))?;
            out = if json { pretty_json(report::compare_json(exp, &cmp)) } else { report::compare_text(exp, &cmp) };
        }
        Cmd::Sweep { name, seeds, threads, json } => {
            let exp = find_experiment(&name)?;
            let seeds: Vec<u64> = (1..=seeds).collect();
            // On a terminal, how far the sweep has got (stderr: stdout stays the table).
            let tty = std::io::stderr().is_terminal();
            let progress = |done: usize, total: usize| {
                if tty {
                    eprint!("\r{name}: {done}/{total} comparisons");
                }
            };
            let s = reclaim_core::sweep::sweep_with_progress(exp, &seeds, threads as usize, &progress).map_err(|e| UsageError(e.to_string()))?;
            if tty {
                eprintln!();
            }
            out = if json {
                pretty_json(reclaim_core::sweep::json(exp, &s))
            } else {
                format!(
                    "{name}: each parameter at the low and the high end of its range, the others at their defaults, seeds 1-{}; a cell counts the seeds on which the headline held (Markdown)\n\n{}",
                    seeds.len(),
                    reclaim_core::sweep::markdown(exp, &s)
                )
            };
        }
        Cmd::ExperimentsDoc { ranges_json } => {
            // Open the ranges file first, without emptying it: a path that cannot be written fails
            // now, not after minutes of work, and a run that fails leaves the old tables.
            let open = |path: &std::path::PathBuf| std::fs::OpenOptions::new().write(true).create(true).truncate(false).open(path);
            let file = match &ranges_json {
                Some(path) => Some(open(path).map_err(|e| UsageError(format!("{}: {e}", path.display())))?),
                None => None,
            };
            let (doc, recorded) = report::experiments_doc().map_err(|e| UsageError(e.to_string()))?;
            if let (Some(mut file), Some(path)) = (file, &ranges_json) {
                let text = serde_json::to_string_pretty(&recorded).expect("serialisable") + "\n";
                let written = file.set_len(0).and_then(|()| std::io::Write::write_all(&mut file, text.as_bytes()));
                written.map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
            }
            out = doc;
        }
        Cmd::List { params } => {
            for e in experiment::ALL {
                let _ = writeln!(out, "{:<28} experiment: {}", e.name, e.title);
                if params {
                    for p in e.params {
                        let _ = writeln!(out, "    --param {}={} ({}) {}", p.name, p.default, scenario::range_text(p.min, p.max), p.help);
                    }
                }
            }
            let list = scenario::list();
            for s in &list.scenarios {
                let _ = writeln!(out, "{:<28} {}", s.name, s.title);
                if params {
                    for p in &s.params {
                        let _ = writeln!(out, "    --param {}={} ({}) {}", p.name, p.default, scenario::range_text(p.min, p.max), p.help);
                    }
                }
            }
        }
        Cmd::Run { name, params, seed, steps, json, lru_gen, variant } => {
            let (s, given) = load(&name, &params, seed, variant.clone())?;
            let steps = match steps {
                Some(n) => n,
                None => {
                    let n = s.duration_ns / s.step_ns;
                    if n == 0 || n > MAX_STEPS {
                        return Err(UsageError(format!(
                            "{name}: its duration is {n} steps, more than {MAX_STEPS}; give --steps (a whole number from 1 to {MAX_STEPS})"
                        )));
                    }
                    n
                }
            };
            let mut sim = Simulation::new(s).map_err(|e| UsageError(e.to_string()))?;
            for _ in 0..steps {
                sim.step();
            }
            let label = run_label(&name, &given, variant.as_deref(), &sim);
            out = if json {
                pretty_json(report::run_json(&sim, &label))
            } else if lru_gen {
                if !sim.mm.knobs.lru_gen_enabled {
                    // As debugfs does, the format has the (empty) generations; the note goes to stderr.
                    eprintln!("reclaim-sim: note: MGLRU is off in this run (the classic LRU), so its generations are empty");
                }
                report::lru_gen(&sim)
            } else {
                run_text(&sim, &label)
            };
        }
    }
    Ok(out)
}

/// JSON as the command line prints it: pretty, whole numbers as integers.
fn pretty_json(v: serde_json::Value) -> String {
    serde_json::to_string_pretty(&report::whole_numbers(v)).expect("serialisable") + "\n"
}

/// What `run` reports its run was of: an experiment's variant (given, or
/// after), the parameters in effect (defaults filled in) and the
/// experiment's metrics as `compare` computes them; a built-in scenario's
/// parameters; nothing more for a scenario file.
fn run_label(name: &str, given: &BTreeMap<String, f64>, variant: Option<&str>, sim: &Simulation) -> report::RunLabel {
    if let Some(e) = experiment::find(name) {
        let Ok(p) = scenario::Params::resolve(e.params, given) else { return report::RunLabel::default() };
        return report::RunLabel {
            variant: Some(variant.unwrap_or("after").to_string()),
            experiment_metrics: Some((e.metrics)(sim, &p)),
            params: Some(p.0),
        };
    }
    match param_infos(name) {
        Some(infos) => {
            let mut p: BTreeMap<String, f64> = infos.into_iter().map(|i| (i.name, i.default)).collect();
            p.extend(given.iter().map(|(k, v)| (k.clone(), *v)));
            report::RunLabel { params: Some(p), ..Default::default() }
        }
        None => report::RunLabel::default(),
    }
}

/// `run`'s text report: what ran, an experiment's metrics, the run's
/// metrics, /proc/vmstat and each memcg's memory.stat (non-zero).
fn run_text(sim: &Simulation, label: &report::RunLabel) -> String {
    let mut out = String::new();
    let variant = label.variant.as_ref().map(|v| format!(" (variant {v})")).unwrap_or_default();
    let _ = writeln!(out, "scenario {}{variant} seed {}: {} steps, {:.3} s simulated", sim.scenario.name, sim.scenario.seed, sim.step_count(), sim.time() as f64 / 1e9);
    if let Some(p) = &label.params {
        let list: Vec<String> = p.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = writeln!(out, "params: {}", list.join(" "));
    }
    if let Some(m) = &label.experiment_metrics {
        let _ = writeln!(out, "\nexperiment metrics (as compare reports them; of the steps run)");
        for (k, v) in m {
            let _ = writeln!(out, "  {k:<32} {}", report::fmt_named(k, *v));
        }
    }
    let _ = writeln!(out, "\nmetrics");
    for (k, v) in report::metrics(sim) {
        // As compare writes metrics: shares in percent, units, grouped digits.
        let v = v.as_f64().map_or_else(|| v.to_string(), |x| report::fmt_named(&k, x));
        let _ = writeln!(out, "  {k:<32} {v}");
    }
    let _ = writeln!(out, "\n/proc/vmstat (non-zero)");
    for (k, v) in sim.vmstat() {
        if v != 0 {
            let _ = writeln!(out, "  {k:<32} {v}");
        }
    }
    for cg in &sim.mm.memcgs {
        if cg.id == 0 {
            continue;
        }
        let _ = writeln!(
            out,
            "\n{} memory.current {} bytes ({} pages), memory.events low {} high {} max {} oom {} oom_kill {}",
            cg.path,
            cg.usage * 4096,
            cg.usage,
            cg.events.low,
            cg.events.high,
            cg.events.max,
            cg.events.oom,
            cg.events.oom_kill
        );
        for (k, v) in sim.memory_stat(cg.id) {
            if v != 0 {
                let _ = writeln!(out, "  {k:<32} {v}");
            }
        }
    }
    out
}

/// Writes the output; a reader that stopped reading (`| head`) ends the
/// command quietly, as with any Unix filter, instead of a panic.
fn emit(out: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("reclaim-sim: writing the output: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The arguments, with `help --help` (or `-h`) read as `--help`: clap's
/// `help` subcommand takes only subcommand names, so it refused the flag
/// with exit status 2 where `git help --help` shows the help.
fn args() -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.len() > 2 && args[1] == "help" && args[2..].iter().all(|a| a == "--help" || a == "-h") {
        args.truncate(1);
        args.push("--help".into());
    }
    args
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(args()) {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                // No subcommand: the help goes to stderr and the status says it was not run.
                let _ = e.print();
                return ExitCode::from(2);
            }
            let msg = e.to_string();
            let mut lines = msg.lines().map(str::trim).filter(|l| !l.is_empty());
            let first = lines.next().unwrap_or("invalid arguments").trim_start_matches("error: ");
            // "the following required arguments were not provided:" names them on the next line.
            let line = if first.ends_with(':') { format!("{first} {}", lines.next().unwrap_or("")) } else { first.to_string() };
            eprintln!("reclaim-sim: {line}");
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(out) => emit(&out),
        Err(UsageError(m)) => {
            eprintln!("reclaim-sim: {m}");
            ExitCode::from(2)
        }
    }
}
