//! Access-pattern generators: the tasks that drive the simulation.
//!
//! A workload is attached to a memcg, touches one target (a file through
//! read()/write() or mmap, or anonymous memory) with one pattern (uniform,
//! zipf, a sequential scan, a loop), at a rate, between a start and a stop.
use serde::{Deserialize, Serialize};

use crate::mm::filemap::Op;
use crate::rng::Rng;

mod zipf;
pub use zipf::{Zipf, ZipfTables};

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

/// Which pages, in which order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
// The variants without parameters are empty struct variants, not unit
// variants, so that deny_unknown_fields reaches them: {"kind": "uniform",
// "s": 3} is refused, its `s` named, rather than read as uniform.
pub enum Pattern {
    /// Every page equally likely.
    Uniform {},
    /// Zipf-distributed popularity with exponent `s` (keys hashed to pages).
    Zipf { s: f64 },
    /// One pass over the pages in order, then the workload ends.
    Sequential {},
    /// Passes over the pages in order, forever.
    Loop {},
}

/// How a file is touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub enum FileOp {
    Read,
    Write,
    MmapRead,
    MmapWrite,
}

/// What a workload touches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub enum Target {
    /// A file of `pages` pages; workloads naming the same `file` share it.
    #[serde(rename_all = "camelCase")]
    File {
        pages: u32,
        op: FileOp,
        #[serde(default)]
        file: Option<String>,
        /// For mmapWrite: the percentage of accesses that are stores.
        #[serde(default = "all_writes")]
        write_percent: u32,
    },
    /// Anonymous memory of `pages` pages (a heap: key-value store, JVM, ...).
    #[serde(rename_all = "camelCase")]
    Anon {
        pages: u32,
        #[serde(default)]
        write_percent: u32,
    },
}

fn all_writes() -> u32 {
    100
}

impl Target {
    pub fn pages(&self) -> u32 {
        match self {
            Target::File { pages, .. } | Target::Anon { pages, .. } => *pages,
        }
    }
}

/// One workload of a scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct WorkloadSpec {
    pub name: String,
    /// The memcg path the task runs in ("/a/b").
    pub memcg: String,
    #[serde(default)]
    pub node: u32,
    pub pattern: Pattern,
    pub target: Target,
    /// Accesses per simulated second; 0 = as fast as its costs allow.
    #[serde(default)]
    pub rate: u64,
    /// How `rate` paces it. false (the default): an open loop, an offered
    /// rate: accesses that fell due while the task was stalled (a major
    /// fault, direct reclaim) are made back to back afterwards, so a stall
    /// delays accesses but loses none. true: a closed loop, a client that
    /// sends its next request only once the last reply is back
    /// (memtier_benchmark): each access starts 1/rate after the previous one
    /// completed, so time spent stalled is throughput lost.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub closed_loop: bool,
    #[serde(default)]
    pub start_ns: u64,
    /// 0 = never stops.
    #[serde(default)]
    pub stop_ns: u64,
    /// The zones its page allocations may use.
    #[serde(default)]
    pub gfp: crate::mm::page_alloc::Gfp,
    /// When the task ends (stopNs, or the end of a sequential pass), its
    /// anonymous memory is freed, as at exit.
    #[serde(default)]
    pub free_on_exit: bool,
    /// How many pages of its address space the views track (spread evenly
    /// over it, at most its size and MAX_TRACKED_PAGES); none = the engine's
    /// automatic sample (up to 48 pages per address space, about 512 in all).
    /// Not part of the model: tracking changes no decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tracked_pages: Option<u32>,
}

impl WorkloadSpec {
    /// A task in `memcg` touching `target` with `pattern`, on node 0, as fast
    /// as its costs allow, from the start to the end of the run, with the
    /// default gfp and keeping its memory when it ends: the serde defaults.
    /// Set other fields with struct update syntax.
    pub fn new(name: impl Into<String>, memcg: impl Into<String>, pattern: Pattern, target: Target) -> Self {
        WorkloadSpec { name: name.into(), memcg: memcg.into(), node: 0, pattern, target, rate: 0, closed_loop: false, start_ns: 0, stop_ns: 0, gfp: Default::default(), free_on_exit: false, tracked_pages: None }
    }

    /// The address space it touches: "file:NAME" (its `file`, or its own
    /// name; workloads naming the same file share it) or "anon:NAME" (its own).
    pub fn mapping_name(&self) -> String {
        match &self.target {
            Target::File { file, .. } => format!("file:{}", file.as_deref().unwrap_or(&self.name)),
            Target::Anon { .. } => format!("anon:{}", self.name),
        }
    }
}

/// A workload's generator state.
#[derive(Clone, Debug)]
pub struct Generator {
    pages: u32,
    pattern: GenPattern,
    write_percent: u32,
    read_op: Op,
    write_op: Op,
    rng: Rng,
}

#[derive(Clone, Debug)]
enum GenPattern {
    Uniform,
    Zipf { zipf: Zipf, mult: u64 },
    Sequential { pos: u32 },
    Loop { pos: u32 },
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Generator {
    /// The size of the region it accesses.
    pub fn pages(&self) -> u32 {
        self.pages
    }

    /// `tables` holds the Zipf tables other workloads of the simulation built.
    pub fn new(spec: &WorkloadSpec, rng: Rng, tables: &mut ZipfTables) -> Self {
        let pages = spec.target.pages();
        let pattern = match spec.pattern {
            Pattern::Uniform {} => GenPattern::Uniform,
            Pattern::Zipf { s } => {
                // Popularity rank r maps to page (r * mult) % pages, a fixed
                // permutation, so hot keys are spread over the file.
                let mut mult = 2_654_435_761u64 % u64::from(pages).max(1);
                while pages > 1 && gcd(mult, u64::from(pages)) != 1 {
                    mult += 1;
                }
                GenPattern::Zipf { zipf: tables.get(pages, s), mult: mult.max(1) }
            }
            Pattern::Sequential {} => GenPattern::Sequential { pos: 0 },
            Pattern::Loop {} => GenPattern::Loop { pos: 0 },
        };
        let (read_op, write_op, write_percent) = match spec.target {
            Target::File { op: FileOp::Read, .. } => (Op::Read, Op::Read, 0),
            Target::File { op: FileOp::Write, .. } => (Op::Write, Op::Write, 100),
            Target::File { op: FileOp::MmapRead, .. } => (Op::Load, Op::Load, 0),
            Target::File { op: FileOp::MmapWrite, write_percent, .. } => (Op::Load, Op::Store, write_percent),
            Target::Anon { write_percent, .. } => (Op::Load, Op::Store, write_percent),
        };
        Generator { pages, pattern, write_percent, read_op, write_op, rng }
    }

    /// The next (page offset, operation), or None when a scan has finished.
    pub fn next_access(&mut self) -> Option<(u32, Op)> {
        let page = match &mut self.pattern {
            GenPattern::Uniform => self.rng.below(u64::from(self.pages)) as u32,
            GenPattern::Zipf { zipf, mult } => {
                let rank = zipf.sample(&mut self.rng);
                ((u64::from(rank) * *mult) % u64::from(self.pages)) as u32
            }
            GenPattern::Sequential { pos } => {
                if *pos >= self.pages {
                    return None;
                }
                *pos += 1;
                *pos - 1
            }
            GenPattern::Loop { pos } => {
                let p = *pos;
                *pos = (*pos + 1) % self.pages;
                p
            }
        };
        let op = if self.write_percent > 0 && self.rng.below(100) < u64::from(self.write_percent) {
            self.write_op
        } else {
            self.read_op
        };
        Some((page, op))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(pattern: Pattern, pages: u32) -> WorkloadSpec {
        WorkloadSpec::new("w", "/", pattern, Target::Anon { pages, write_percent: 0 })
    }

    #[test]
    fn sequential_ends_loop_wraps() {
        let mut g = Generator::new(&spec(Pattern::Sequential {}, 3), Rng::new(1, 0), &mut ZipfTables::default());
        let v: Vec<_> = std::iter::from_fn(|| g.next_access().map(|a| a.0)).collect();
        assert_eq!(v, vec![0, 1, 2]);
        let mut g = Generator::new(&spec(Pattern::Loop {}, 3), Rng::new(1, 0), &mut ZipfTables::default());
        let v: Vec<_> = (0..7).map(|_| g.next_access().unwrap().0).collect();
        assert_eq!(v, vec![0, 1, 2, 0, 1, 2, 0]);
    }

    #[test]
    fn zipf_pages_stay_in_range_and_are_skewed() {
        let mut g = Generator::new(&spec(Pattern::Zipf { s: 1.0 }, 1000), Rng::new(3, 0), &mut ZipfTables::default());
        let mut hits = vec![0u32; 1000];
        for _ in 0..100_000 {
            let (p, _) = g.next_access().unwrap();
            hits[p as usize] += 1;
        }
        hits.sort_unstable_by(|a, b| b.cmp(a));
        let top10: u32 = hits[..10].iter().sum();
        // With s = 1 over 1000 ranks the top 10 get about 39 % of accesses.
        assert!(top10 > 30_000 && top10 < 48_000, "top10 = {top10}");
    }
}
