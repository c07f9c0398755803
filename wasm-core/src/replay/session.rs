//! A replay session: one trace decoded once, fed to one replayer per
//! policy in lockstep (the browser runs the chosen policies side by side
//! this way), and what it reports.
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::engine::{Replayer, Sample};
use super::{Policy, TraceDecoder, TraceError, TraceFormat};

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

/// What to replay and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ReplayOptions {
    /// The policies to run, side by side (at least one, each once).
    pub policies: Vec<Policy>,
    /// memory.max of the memcg the trace runs in, in 4 KiB pages.
    pub cache_pages: u64,
    /// The trace format; None = from the file name, else from the content.
    #[serde(default)]
    pub format: Option<TraceFormat>,
    /// The file name (its extension may tell the format).
    #[serde(default)]
    pub name: String,
    /// A request of `size` bytes reads ceil(size / 4096) pages of its
    /// object (default: one page per request).
    #[serde(default)]
    pub object_pages: bool,
}

/// One policy's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify), tsify(hashmap_as_object))]
pub struct PolicyResult {
    pub policy: Policy,
    /// Page accesses (requests, or their pages with objectPages).
    pub accesses: u64,
    pub hits: u64,
    pub misses: u64,
    /// Misses on pages read for the first time.
    pub cold_misses: u64,
    pub miss_ratio: f64,
    /// The memcg's memory.stat event counters after the replay
    /// (pgscan_direct, pgsteal_direct, workingset_refault_file, ...: memcg
    /// limit reclaim counts there, not in /proc/vmstat's pgscan/pgsteal).
    pub counters: BTreeMap<String, u64>,
    /// memory.events max of the memcg: charges that hit memory.max.
    pub memory_events_max: u64,
    /// Misses after so many accesses, evenly spaced, at most 1024 points
    /// plus the last access.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<Sample>,
}

/// What was read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct TraceSummary {
    pub format: Option<TraceFormat>,
    pub compressed: Option<bool>,
    /// Bytes of input (compressed, if it is).
    pub bytes: u64,
    pub requests: u64,
    /// oracleGeneral records skipped for obj_size 0 (as libCacheSim does).
    pub skipped: u64,
    /// Distinct pages touched.
    pub pages: u64,
}

/// Progress while a session runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify), tsify(hashmap_as_object))]
pub struct ReplayProgress {
    pub trace: TraceSummary,
    pub results: Vec<PolicyResult>,
}

/// The outcome of a whole replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify), tsify(hashmap_as_object))]
pub struct ReplayReport {
    pub cache_pages: u64,
    pub trace: TraceSummary,
    pub results: Vec<PolicyResult>,
}

/// A replay that failed: the trace is malformed (with where), or the engine
/// could not go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    Trace(TraceError),
    Replay(String),
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Trace(e) => e.fmt(f),
            ReplayError::Replay(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ReplayError {}

impl From<TraceError> for ReplayError {
    fn from(e: TraceError) -> Self {
        ReplayError::Trace(e)
    }
}

pub struct Session {
    decoder: TraceDecoder,
    replayers: Vec<Replayer>,
    cache_pages: u64,
    requests: u64,
}

impl Session {
    pub fn new(opts: &ReplayOptions) -> Result<Session, ReplayError> {
        if opts.policies.is_empty() {
            return Err(ReplayError::Replay("no policy chosen".into()));
        }
        for (i, p) in opts.policies.iter().enumerate() {
            if opts.policies[..i].contains(p) {
                return Err(ReplayError::Replay(format!("policy {} is listed twice", p.name())));
            }
        }
        let replayers = opts.policies.iter().map(|&p| Replayer::new(p, opts.cache_pages, opts.object_pages)).collect::<Result<Vec<_>, _>>().map_err(ReplayError::Replay)?;
        Ok(Session { decoder: TraceDecoder::new(opts.format, &opts.name), replayers, cache_pages: opts.cache_pages, requests: 0 })
    }

    fn check(&mut self) -> Result<(), ReplayError> {
        for r in &mut self.replayers {
            r.flush();
        }
        match self.replayers.iter().find_map(|r| r.error()) {
            Some(e) => Err(ReplayError::Replay(e.to_string())),
            None => Ok(()),
        }
    }

    /// Decodes a chunk of the trace and replays its requests.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), ReplayError> {
        let Session { decoder, replayers, requests, .. } = self;
        decoder.push(chunk, &mut |r| {
            *requests += 1;
            for rp in replayers.iter_mut() {
                rp.request(r);
            }
        })?;
        self.check()
    }

    /// The end of the trace.
    pub fn finish(&mut self) -> Result<ReplayReport, ReplayError> {
        let Session { decoder, replayers, requests, .. } = self;
        decoder.finish(&mut |r| {
            *requests += 1;
            for rp in replayers.iter_mut() {
                rp.request(r);
            }
        })?;
        self.check()?;
        if self.requests == 0 {
            return Err(ReplayError::Replay("the trace holds no requests".into()));
        }
        Ok(ReplayReport { cache_pages: self.cache_pages, trace: self.summary(), results: self.results() })
    }

    pub fn summary(&self) -> TraceSummary {
        TraceSummary {
            format: self.decoder.format(),
            compressed: self.decoder.compressed(),
            bytes: self.decoder.bytes_in(),
            requests: self.requests,
            skipped: self.decoder.skipped(),
            pages: self.replayers.first().map_or(0, |r| r.distinct_pages()),
        }
    }

    /// Each policy's figures so far.
    pub fn results(&self) -> Vec<PolicyResult> {
        self.replayers.iter().map(result).collect()
    }

    pub fn progress(&self) -> ReplayProgress {
        ReplayProgress { trace: self.summary(), results: self.results() }
    }

    pub fn replayers(&self) -> &[Replayer] {
        &self.replayers
    }
}

fn result(r: &Replayer) -> PolicyResult {
    PolicyResult {
        policy: r.policy,
        accesses: r.accesses,
        hits: r.hits,
        misses: r.misses(),
        cold_misses: r.cold_misses,
        miss_ratio: r.miss_ratio(),
        counters: r.memory_stat_events().map(|(k, v)| (k.to_string(), v)).collect(),
        memory_events_max: r.events_max(),
        samples: r.samples(),
    }
}
