//! `reclaim-sim replay` and `reclaim-sim gen-trace`.
use std::io::{BufWriter, Write};
use std::time::Instant;

use clap::{Args, ValueEnum};
use reclaim_core::replay::cli::{self, Timed};
use reclaim_core::replay::{gen, Policy, ReplayOptions, Session, TraceFormat, MAX_CACHE_PAGES};

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    #[value(name = "oracleGeneral")]
    OracleGeneral,
    Csv,
}

impl From<FormatArg> for TraceFormat {
    fn from(f: FormatArg) -> Self {
        match f {
            FormatArg::OracleGeneral => TraceFormat::OracleGeneral,
            FormatArg::Csv => TraceFormat::Csv,
        }
    }
}

#[derive(Args)]
pub struct ReplayArgs {
    /// The trace file (.zst is decompressed on the fly).
    trace: String,
    /// The trace format (default: from the file name, else from its first bytes).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// mglru, classic, lru, clock, s3fifo, a comma-separated list, or all.
    #[arg(long, default_value = "mglru")]
    policy: String,
    /// memory.max of the memcg the trace runs in, in 4 KiB pages, 1 to 8388608.
    #[arg(long = "cache-pages", allow_negative_numbers = true, value_parser = super::whole::<1, MAX_CACHE_PAGES>)]
    cache_pages: u64,
    /// A request of SIZE bytes reads ceil(SIZE / 4096) pages of its object.
    #[arg(long = "object-pages")]
    object_pages: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// With --json: include each policy's miss-count samples.
    #[arg(long, requires = "json")]
    samples: bool,
}

fn policies(arg: &str) -> Result<Vec<Policy>, String> {
    if arg == "all" {
        return Ok(Policy::ALL.to_vec());
    }
    let mut out: Vec<Policy> = Vec::new();
    for name in arg.split(',').map(str::trim) {
        let p = Policy::from_name(name).ok_or_else(|| {
            let known: Vec<&str> = Policy::ALL.iter().map(|p| p.name()).collect();
            format!("--policy: unknown policy \"{name}\" (known: {}, or all)", known.join(", "))
        })?;
        if !out.contains(&p) {
            out.push(p);
        }
    }
    Ok(out)
}

/// Runs each policy over the whole trace in turn (reading the file again
/// each time, so that each figure times one policy alone) and returns the
/// report to print. Nothing is printed on failure.
pub fn replay(a: &ReplayArgs) -> Result<String, String> {
    let policies = policies(&a.policy)?;
    let mut runs = Vec::new();
    let mut report = None;
    for p in policies {
        let opts = ReplayOptions { policies: vec![p], cache_pages: a.cache_pages, format: a.format.map(Into::into), name: a.trace.clone(), object_pages: a.object_pages };
        let file = std::fs::File::open(&a.trace).map_err(|e| format!("{}: {e}", a.trace))?;
        let t0 = Instant::now();
        let mut session = Session::new(&opts).map_err(|e| e.to_string())?;
        let r = cli::feed(file, &mut session).map_err(|e| format!("{}: {e}", a.trace))?;
        let wall_seconds = t0.elapsed().as_secs_f64();
        runs.push(Timed { result: r.results[0].clone(), wall_seconds });
        report = Some(r);
    }
    let report = report.expect("at least one policy");
    Ok(if a.json {
        format!("{}\n", serde_json::to_string_pretty(&reclaim_core::report::whole_numbers(cli::json(&report, &runs, a.samples))).expect("serialisable"))
    } else {
        cli::text(&a.trace, &report, &runs)
    })
}

#[derive(Args)]
pub struct GenTraceArgs {
    /// Where to write the trace.
    out: String,
    /// Requests in the trace, 1 to 1000000000.
    #[arg(long, default_value_t = 20_000_000, allow_negative_numbers = true, value_parser = super::whole::<1, 1_000_000_000>)]
    requests: u64,
    /// Distinct pages the ids are drawn from, 1..=67108864.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u32).range(1..=(1 << 26)))]
    pages: u32,
    /// The zipf exponent s, 0..=5 (popularity of rank k ~ 1 / k^s; 0 is uniform).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    zipf: f64,
    /// The generator's seed (a whole number, 0 or more).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = super::parse_seed)]
    seed: u64,
    /// The trace format. The file name decides it where it says one, as
    /// `replay` reads it (.csv or .txt: CSV; .bin or "oracleGeneral" in the
    /// name: oracleGeneral), and --format must then agree; other names
    /// (replay tells them by their content) take --format, default oracleGeneral.
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Scramble the ids into 64-bit values (as libCacheSim's traces hash theirs).
    #[arg(long)]
    scramble: bool,
}

/// The format gen-trace writes to `out`: the one `replay` will read it as
/// (TraceFormat::from_name); a --format that disagrees with the name, or a
/// .zst name (gen-trace does not compress), is refused.
fn out_format(out: &str, given: Option<FormatArg>) -> Result<TraceFormat, String> {
    if out.to_ascii_lowercase().ends_with(".zst") {
        return Err(format!("{out}: gen-trace writes an uncompressed trace; name it without .zst and compress it with zstd afterwards"));
    }
    let named = TraceFormat::from_name(out);
    match (given.map(TraceFormat::from), named) {
        (Some(g), Some(n)) if g != n => Err(format!(
            "--format {}: the name {out} says {} (replay reads a file by its name); rename the file or drop --format",
            g.name(),
            n.name()
        )),
        (Some(g), _) => Ok(g),
        (None, Some(n)) => Ok(n),
        (None, None) => Ok(TraceFormat::OracleGeneral),
    }
}

pub fn gen_trace(a: &GenTraceArgs) -> Result<(), String> {
    if !(a.zipf.is_finite() && (0.0..=5.0).contains(&a.zipf)) {
        return Err(format!("--zipf {} is out of range: accepted from 0 to 5", a.zipf));
    }
    let format = out_format(&a.out, a.format)?;
    let ids = gen::zipf_ids(a.requests, a.pages, a.zipf, a.seed);
    let file = std::fs::File::create(&a.out).map_err(|e| format!("{}: {e}", a.out))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    match format {
        TraceFormat::OracleGeneral => gen::write_oracle_general(&mut w, &ids, a.scramble),
        TraceFormat::Csv => gen::write_csv(&mut w, &ids, a.scramble),
    }
    .and_then(|()| w.flush())
    .map_err(|e| format!("{}: {e}", a.out))
}
