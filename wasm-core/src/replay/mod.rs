//! Trace replay: real access streams through the engine.
//!
//! A trace is read as a stream of byte chunks ([`TraceDecoder`]: constant
//! memory whatever its length; the same code natively and in the browser),
//! in libCacheSim's `oracleGeneral` binary format ([`oracle`]) or a plain
//! CSV/text form ([`csv`]), either optionally zstd-compressed ([`zstd`]).
//! Each request reads 4 KiB page `obj_id` of one file through the page cache
//! of a memcg limited to N pages ([`Replayer`]): the engine's own path
//! (filemap_read, the memcg charge at memory.max, try_to_free_mem_cgroup_pages,
//! shadow entries), with MGLRU, the classic LRU or a textbook baseline
//! ([`crate::mm::policy`]) as the lruvec's policy. The replay runs lean: no
//! events, no tracked folios, no checkpoints.
use serde::{Deserialize, Serialize};
use std::fmt;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
mod decode;
mod engine;
pub mod csv;
pub mod gen;
pub mod oracle;
mod pages;
mod session;
pub mod zstd;

pub use decode::TraceDecoder;
pub use engine::{Replayer, MAX_CACHE_PAGES, MAX_DISTINCT_PAGES};
pub use engine::Sample;
pub use session::{PolicyResult, ReplayError, ReplayOptions, ReplayProgress, ReplayReport, Session, TraceSummary};

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

/// Bytes per page: a request reads page `obj_id` (and, with
/// `objectPages`, the ceil(size / PAGE_SIZE) pages of the object).
pub const PAGE_SIZE: u64 = 4096;

/// One request of a trace: what the replay needs of it (the time and the
/// operation are read and checked, then ignored: every request is a read,
/// and the engine's cost model keeps the simulated time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub obj_id: u64,
    /// Bytes; 0 when the trace does not give sizes (one page).
    pub size: u64,
}

/// The two trace formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub enum TraceFormat {
    /// libCacheSim's binary format: little-endian 24-byte records
    /// {u32 time, u64 obj_id, u32 obj_size, i64 next_access_vtime}.
    OracleGeneral,
    /// One request per line: `obj_id` or `time,obj_id[,size][,op]`; a header
    /// line, blank lines and `#` comments are allowed.
    Csv,
}

impl TraceFormat {
    pub fn name(self) -> &'static str {
        match self {
            TraceFormat::OracleGeneral => "oracleGeneral",
            TraceFormat::Csv => "csv",
        }
    }

    /// The format a file name suggests (after any .zst): names containing
    /// "oracleGeneral" or ending in .bin are binary, .csv and .txt are text;
    /// otherwise None (the decoder then looks at the first bytes).
    pub fn from_name(name: &str) -> Option<TraceFormat> {
        let lower = name.to_ascii_lowercase();
        let base = lower.strip_suffix(".zst").unwrap_or(&lower);
        if base.contains("oraclegeneral") || base.ends_with(".bin") {
            Some(TraceFormat::OracleGeneral)
        } else if base.ends_with(".csv") || base.ends_with(".txt") {
            Some(TraceFormat::Csv)
        } else {
            None
        }
    }
}

/// Where in a trace a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// A byte offset into the (decompressed) binary trace.
    Byte(u64),
    /// A line number (from 1) of a text trace.
    Line(u64),
    /// A byte offset into the compressed (zstd) stream.
    Compressed(u64),
}

/// A trace that cannot be read, with where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    pub at: Location,
    pub message: String,
}

impl TraceError {
    pub fn new(at: Location, message: impl Into<String>) -> Self {
        TraceError { at, message: message.into() }
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Location::Byte(o) => write!(f, "byte offset {o}: {}", self.message),
            Location::Line(l) => write!(f, "line {l}: {}", self.message),
            Location::Compressed(o) => write!(f, "zstd stream, compressed byte offset {o}: {}", self.message),
        }
    }
}

impl std::error::Error for TraceError {}

/// The lruvec policy a replay runs with: the kernel's two and the textbook
/// baselines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub enum Policy {
    /// The multi-gen LRU (v6.12), with the memcg LRU.
    Mglru,
    /// The classic active/inactive LRU (CONFIG_LRU_GEN off).
    Classic,
    /// Exact LRU (textbook).
    Lru,
    /// CLOCK, second chance (textbook).
    Clock,
    /// S3-FIFO (textbook, SOSP 2023).
    S3fifo,
}

impl Policy {
    pub const ALL: [Policy; 5] = [Policy::Mglru, Policy::Classic, Policy::Lru, Policy::Clock, Policy::S3fifo];

    pub fn name(self) -> &'static str {
        match self {
            Policy::Mglru => "mglru",
            Policy::Classic => "classic",
            Policy::Lru => "lru",
            Policy::Clock => "clock",
            Policy::S3fifo => "s3fifo",
        }
    }

    pub fn from_name(name: &str) -> Option<Policy> {
        Policy::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The engine switches that select it.
    pub fn knobs(self) -> crate::mm::Knobs {
        use crate::mm::policy::Baseline;
        let kernel = crate::mm::Knobs::default();
        let baseline = |b| crate::mm::Knobs { lru_gen_enabled: false, baseline: Some(b), ..kernel.clone() };
        match self {
            Policy::Mglru => kernel,
            Policy::Classic => crate::mm::Knobs { lru_gen_enabled: false, ..kernel },
            Policy::Lru => baseline(Baseline::Lru),
            Policy::Clock => baseline(Baseline::Clock),
            Policy::S3fifo => baseline(Baseline::S3fifo),
        }
    }
}
