//! reclaim-sim: the engine's command line.
//!
//!     reclaim-sim list [--params]
//!     reclaim-sim compare EXPERIMENT [--param k=v]... [--seed N] [--json]
//!     reclaim-sim sweep EXPERIMENT [--seeds N] [--threads N] [--json]
//!     reclaim-sim scenario NAME [--param k=v]... [--seed N] [--variant V]
//!     reclaim-sim run NAME|FILE.json [--param k=v]... [--seed N] [--steps N] [--json] [--lru-gen] [--events KINDS]
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

use clap::Parser;
use reclaim_core::experiment;
use reclaim_core::report;
use reclaim_core::scenario;
use reclaim_core::sim::Simulation;

#[path = "replay_cmd/mod.rs"]
mod replay_cmd;
#[path = "cli_args/mod.rs"]
mod cli_args;
use cli_args::*;

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
        Cmd::Run { name, params, seed, steps, json, lru_gen, events, variant } => {
            let (s, given) = load(&name, &params, seed, variant.clone())?;
            for note in s.notes() {
                eprintln!("reclaim-sim: note: {}: {}", note.field, note.message);
            }
            let steps = match steps {
                Some(n) => n,
                None => {
                    // Whole steps, as the app steps: a duration that ends
                    // within a step runs to the end of that step.
                    let n = s.duration_ns.div_ceil(s.step_ns);
                    if n == 0 || n > MAX_STEPS {
                        return Err(UsageError(format!(
                            "{name}: durationNs / stepNs ({} / {}) is {n} steps, not from 1 to {MAX_STEPS}; give --steps (a whole number from 1 to {MAX_STEPS}), or a longer stepNs",
                            s.duration_ns,
                            s.step_ns
                        )));
                    }
                    if s.duration_ns % s.step_ns != 0 {
                        eprintln!(
                            "reclaim-sim: note: durationNs ({} ns) is not a whole number of steps of {} ns: running {n} steps ({} ns)",
                            s.duration_ns,
                            s.step_ns,
                            n * s.step_ns
                        );
                    }
                    n
                }
            };
            let mut sim = Simulation::new(s).map_err(|e| UsageError(e.to_string()))?;
            sim.set_event_log(events.is_some());
            for _ in 0..steps {
                sim.step();
                if let Some(filter) = &events {
                    for line in report::step_events(&sim, filter) {
                        out.push_str(&line);
                        out.push('\n');
                    }
                }
            }
            if events.is_some() {
                out.push('\n');
            }
            let label = run_label(&name, &given, variant.as_deref(), &sim);
            out += &if json {
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
            "\n{} memory.current {} bytes ({} pages), memory.swap.current {} bytes ({} pages), memory.events low {} high {} max {} oom {} oom_kill {}",
            cg.path,
            cg.usage * 4096,
            cg.usage,
            cg.swap_usage * 4096,
            cg.swap_usage,
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
