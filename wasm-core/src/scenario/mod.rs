//! The versioned scenario format, its validation, and the built-in
//! scenarios that a name plus parameters expand into.
//!
//! A scenario is everything that determines a run: topology, memcgs,
//! workloads, switches and the seed. Same scenario + same seed = the same
//! counters, natively and in the browser.
use serde::{Deserialize, Serialize};
use std::fmt;

use crate::mm::pgdat::ZoneType;
use crate::mm::machine::Machine;
use crate::mm::Knobs;
use crate::view::{ScenarioInfo, ScenarioList, ScenarioRequest};
use crate::workload::{Pattern, Target, WorkloadSpec};

mod builtin;
mod intro;
mod slow_disk;
pub use builtin::fio_siblings;
mod check;
mod names;
mod shape;
pub use check::{check as check_json, ScenarioCheck, ScenarioProblem};
mod params;

pub use params::{lru_gen_param, not_together, range_text, ParamSpec, Params};

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

/// The current scenario format version.
pub const SCENARIO_VERSION: u32 = 1;

/// A validation failure, naming the field at fault and the accepted range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Path of the offending field ("workloads[1].pattern.s", "param memory_max").
    pub field: String,
    pub message: String,
}

impl ScenarioError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError { field: field.into(), message: message.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ScenarioError {}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ZoneSpec {
    pub zone: ZoneType,
    pub pages: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct NodeSpec {
    pub zones: Vec<ZoneSpec>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct MemcgSpec {
    /// "/a" or "/a/b"; parents must be listed first. The root "/" is implicit.
    pub path: String,
    /// memory.max in pages (None = max).
    #[serde(default)]
    pub memory_max: Option<u64>,
    #[serde(default)]
    pub memory_high: Option<u64>,
    #[serde(default)]
    pub memory_low: u64,
    #[serde(default)]
    pub memory_min: u64,
    #[serde(default)]
    pub swap_max: Option<u64>,
    /// cgroup v1's memory.swappiness (null: vm.swappiness). cgroup v2, which
    /// the rest of the memcg model follows, has no such file: leave it null
    /// for a v2 machine (mem_cgroup_swappiness).
    #[serde(default)]
    pub swappiness: Option<u32>,
}

/// Writes to a memcg's memory.reclaim, as a userspace agent would make them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ProactiveSpec {
    /// The memcg whose memory.reclaim is written ("/" for the root).
    pub memcg: String,
    /// Pages per write; 0 = everything (the memcg's memory.current at the time).
    #[serde(default)]
    pub pages: u64,
    /// Or bytes per write ("echo 256M > memory.reclaim"), rounded down to
    /// pages as memory_reclaim() does (memparse / PAGE_SIZE) (under 4096 asks for nothing).
    #[serde(default)]
    pub bytes: Option<u64>,
    pub start_ns: u64,
    /// Time between writes (0 = a single write).
    #[serde(default)]
    pub interval_ns: u64,
    /// How many writes (with an interval); at least 1.
    #[serde(default = "one")]
    pub count: u64,
}

fn one() -> u64 {
    1
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct Scenario {
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub description: String,
    pub seed: u64,
    /// Simulated nanoseconds per step.
    pub step_ns: u64,
    /// How long `reclaim-sim run` simulates, in ns.
    pub duration_ns: u64,
    pub nodes: Vec<NodeSpec>,
    /// vm.min_free_kbytes for the whole machine, shared out over every
    /// node's zones by size (None = the kernel's default for its memory).
    #[serde(default)]
    pub min_free_kbytes: Option<u64>,
    #[serde(default = "default_wsf")]
    pub watermark_scale_factor: u64,
    #[serde(default)]
    pub swap_pages: u64,
    /// The storage device (file pages and swap) and the CPU count.
    #[serde(default)]
    pub machine: Machine,
    #[serde(default)]
    pub memcgs: Vec<MemcgSpec>,
    pub workloads: Vec<WorkloadSpec>,
    /// Scheduled writes to memory.reclaim.
    #[serde(default)]
    pub proactive: Vec<ProactiveSpec>,
    #[serde(default)]
    pub knobs: Knobs,
}

/// A name with a control character (a newline would break the one-line
/// output that prints it): its problem at `field`.
fn control_characters(field: &str, name: &str) -> Option<ScenarioError> {
    name.chars().any(char::is_control).then(|| ScenarioError::new(field, format!("{name:?} has a control character (a newline, a tab, ...): names are printed on one line")))
}

fn default_wsf() -> u64 {
    10
}

/// Limits that keep every id within its bit field.
pub const MAX_NODES: usize = 16;
pub const MAX_MEMCGS: usize = 4096;
pub const MAX_TOTAL_PAGES: u64 = 1 << 24;
pub const MAX_MAPPING_PAGES: u32 = 1 << 24;
/// The most pages the views may track over all workloads (`trackedPages`).
pub const MAX_TRACKED_PAGES: u32 = 65_536;
/// The most workloads a scenario may run (as many as it may have memcgs).
pub const MAX_WORKLOADS: usize = MAX_MEMCGS;
/// The most pages all workloads' targets may cover together: each page of
/// a target costs the engine a slot (and a zipf weight), so this keeps a
/// scenario, however it was written, within the memory a browser tab has.
pub const MAX_WORKLOAD_PAGES: u64 = 1 << 25;
/// The latest time (ns, about 11.6 days) a start, stop or interval may
/// name: far past any run (durationNs is at most an hour), and far from
/// the end of the u64 clock, so schedules never overflow.
pub const MAX_TIME_NS: u64 = 1_000_000_000_000_000;

/// "{v} is out of range: accepted {accepted}", worded as a parameter's
/// message is (params.rs): `accepted` says what the field takes, in words
/// ("from 0 to 200", "from 1000000 (1 ms) to ... when count > 1"), never in
/// Rust's range syntax.
fn range_err<T: fmt::Display>(field: impl Into<String>, v: T, accepted: &str) -> ScenarioError {
    ScenarioError::new(field, format!("{v} is out of range: accepted {accepted}"))
}

impl Scenario {
    /// Checks everything the engine relies on; the first problem is reported.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        match self.problems().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Settings the kernel takes but that are likely slips, to point out
    /// without refusing them, each at its field (as a problem names its
    /// field, for the editor to show beside it): a memcg's memory.low or
    /// memory.min above its memory.max (the protection then covers all it
    /// can hold), memory.min above memory.low, memory.high above memory.max
    /// (never reached).
    pub fn notes(&self) -> Vec<ScenarioError> {
        let mut out = Vec::new();
        for (i, m) in self.memcgs.iter().enumerate() {
            let field = |name: &str| format!("memcgs[{i}].{name}");
            let path = &m.path;
            if let Some(max) = m.memory_max {
                for (name, protection) in [("memoryLow", m.memory_low), ("memoryMin", m.memory_min)] {
                    if protection > max {
                        out.push(ScenarioError::new(field(name), format!("{protection} is above memoryMax ({max}): it protects everything \"{path}\" can hold")));
                    }
                }
                if let Some(high) = m.memory_high.filter(|&h| h > max) {
                    out.push(ScenarioError::new(field("memoryHigh"), format!("{high} is above memoryMax ({max}): \"{path}\" reaches memory.max first, so memory.high never throttles it")));
                }
            }
            if m.memory_min > m.memory_low {
                out.push(ScenarioError::new(field("memoryMin"), format!("{} is above memoryLow ({}): the best-effort protection of \"{path}\" is below its hard one, so memoryLow adds nothing", m.memory_min, m.memory_low)));
            }
        }
        out
    }

    /// Every problem `validate` would report, in the same order (the first
    /// is the one `validate` returns); empty when the scenario can run.
    /// A problem with one field does not hide problems with others.
    pub fn problems(&self) -> Vec<ScenarioError> {
        let mut errs = Vec::new();
        if self.version != SCENARIO_VERSION {
            errs.push(ScenarioError::new("version", format!("version {} is not supported (expected {SCENARIO_VERSION})", self.version)));
        }
        // A name is printed on one line (the CLI's output, the page's title).
        if let Some(e) = control_characters("name", &self.name) {
            errs.push(e);
        }
        if !(1_000..=10_000_000_000).contains(&self.step_ns) {
            errs.push(range_err("stepNs", self.step_ns, "from 1000 to 10000000000"));
        }
        if self.duration_ns < self.step_ns || self.duration_ns > 3_600_000_000_000 {
            errs.push(range_err("durationNs", self.duration_ns, &format!("from stepNs ({}) to 3600000000000 (one hour)", self.step_ns)));
        }
        if self.nodes.is_empty() || self.nodes.len() > MAX_NODES {
            errs.push(range_err("nodes", self.nodes.len(), &format!("from 1 to {MAX_NODES} nodes")));
        }
        let mut total = 0u64;
        for (i, n) in self.nodes.iter().enumerate() {
            if n.zones.is_empty() {
                errs.push(ScenarioError::new(format!("nodes[{i}].zones"), "a node needs at least one zone"));
            }
            for (j, z) in n.zones.iter().enumerate() {
                if n.zones[..j].iter().any(|o| o.zone >= z.zone) {
                    errs.push(ScenarioError::new(format!("nodes[{i}].zones[{j}].zone"), "zones must be listed once each, lowest first"));
                }
                if z.pages < 64 {
                    errs.push(range_err(format!("nodes[{i}].zones[{j}].pages"), z.pages, &format!("from 64 to {MAX_TOTAL_PAGES}")));
                }
                total += u64::from(z.pages);
            }
        }
        if total > MAX_TOTAL_PAGES {
            errs.push(range_err("nodes", total, &format!("from 1 to {MAX_TOTAL_PAGES} pages in all")));
        }
        if self.swap_pages > MAX_TOTAL_PAGES {
            errs.push(range_err("swapPages", self.swap_pages, &format!("from 0 to {MAX_TOTAL_PAGES}")));
        }
        if let Some(c) = self.machine.cpus {
            if !(1..=4096).contains(&c) {
                errs.push(range_err("machine.cpus", c, "from 1 to 4096"));
            }
        }
        if let Some(k) = self.min_free_kbytes.filter(|&k| k > i32::MAX as u64) {
            errs.push(range_err("minFreeKbytes", k, "from 0 to 2147483647 (the sysctl is an int)"));
        }
        if !(1..=3000).contains(&self.watermark_scale_factor) {
            errs.push(range_err("watermarkScaleFactor", self.watermark_scale_factor, "from 1 to 3000"));
        }
        if self.knobs.baseline.is_some() && self.knobs.lru_gen_enabled {
            errs.push(ScenarioError::new("knobs.baseline", "a baseline policy replaces the kernel's LRU: it needs lruGenEnabled false"));
        }
        if self.knobs.swappiness > 200 {
            errs.push(range_err("knobs.swappiness", self.knobs.swappiness, "from 0 to 200"));
        }
        if self.memcgs.len() + 1 > MAX_MEMCGS {
            errs.push(range_err("memcgs", self.memcgs.len(), &format!("from 0 to {} memcgs", MAX_MEMCGS - 1)));
        }
        let mut paths: Vec<&str> = vec!["/"];
        for (i, m) in self.memcgs.iter().enumerate() {
            let field = format!("memcgs[{i}].path");
            if !m.path.starts_with('/') || m.path.len() < 2 || m.path.ends_with('/') || m.path.contains("//") {
                errs.push(ScenarioError::new(field, format!("\"{}\" is not a cgroup path like /a or /a/b", m.path)));
            } else if let Some(bad) = m.path.split('/').skip(1).find(|c| *c == "." || *c == ".." || c.chars().any(char::is_control)) {
                // cgroup_mkdir() refuses these names (and kernfs "." and "..").
                errs.push(ScenarioError::new(field, format!("{:?} in {:?} is not a cgroup name (no \".\", \"..\" or control characters)", bad, m.path)));
            } else if paths.contains(&m.path.as_str()) {
                errs.push(ScenarioError::new(field, format!("\"{}\" is listed twice", m.path)));
            } else {
                let parent = parent_path(&m.path);
                if !paths.contains(&parent) {
                    // Listed later, or not at all: the message says which (a cgroup is made after its parent).
                    let later = self.memcgs.iter().skip(i + 1).any(|c| c.path == parent);
                    let why = if later { "is listed after it: list a parent before its children" } else { "is not defined: list it before its children" };
                    errs.push(ScenarioError::new(field, format!("parent \"{parent}\" of \"{}\" {why}", m.path)));
                }
                // Listed even with its parent missing, so that its workloads are not reported too.
                paths.push(&m.path);
            }
            if let Some(s) = m.swappiness {
                if s > 200 {
                    errs.push(range_err(format!("memcgs[{i}].swappiness"), s, "from 0 to 200"));
                }
            }
        }
        if self.workloads.is_empty() {
            errs.push(ScenarioError::new("workloads", "a scenario needs at least one workload"));
        }
        if self.workloads.len() > MAX_WORKLOADS {
            errs.push(range_err("workloads", self.workloads.len(), &format!("from 1 to {MAX_WORKLOADS} workloads")));
        }
        let (mapped, zipf) = self.workload_footprint();
        if mapped > MAX_WORKLOAD_PAGES {
            errs.push(ScenarioError::new(
                "workloads",
                format!("the workloads' targets cover {mapped} pages in all (target.pages; a file shared by workloads counts once); at most {MAX_WORKLOAD_PAGES}"),
            ));
        }
        if zipf > MAX_WORKLOAD_PAGES {
            errs.push(ScenarioError::new(
                "workloads",
                format!("the workloads' zipf patterns need tables over {zipf} pages in all (one per pair of target.pages and pattern.s); at most {MAX_WORKLOAD_PAGES}"),
            ));
        }
        let mut names: Vec<&str> = Vec::new();
        for (i, w) in self.workloads.iter().enumerate() {
            let f = |s: &str| format!("workloads[{i}].{s}");
            // Tasks are told apart by name: their pages (file:NAME#index) and their figures (NAME_ops_per_sec).
            if w.name.trim().is_empty() {
                errs.push(ScenarioError::new(f("name"), "required: a workload's pages (file:NAME#120) and figures (NAME_ops_per_sec) are named after it"));
            } else if let Some(e) = control_characters(&f("name"), &w.name) {
                errs.push(e);
            } else if names.contains(&w.name.as_str()) {
                errs.push(ScenarioError::new(f("name"), format!("\"{}\" is used twice: give each workload a name of its own", w.name)));
            } else {
                names.push(&w.name);
            }
            if !paths.contains(&w.memcg.as_str()) {
                errs.push(ScenarioError::new(f("memcg"), format!("memcg \"{}\" is not defined", w.memcg)));
            }
            // With no nodes at all, "nodes" has said so.
            if !self.nodes.is_empty() && w.node as usize >= self.nodes.len() {
                errs.push(range_err(f("node"), w.node, &format!("from 0 to {}", self.nodes.len() - 1)));
            }
            let pages = w.target.pages();
            if pages == 0 || pages > MAX_MAPPING_PAGES {
                errs.push(range_err(f("target.pages"), pages, &format!("from 1 to {MAX_MAPPING_PAGES}")));
            }
            if let Target::File { file: Some(name), .. } = &w.target {
                if let Some(e) = control_characters(&f("target.file"), name) {
                    errs.push(e);
                } else if let Some((j, other)) = self.workloads[..i].iter().enumerate().find_map(|(j, o)| match &o.target {
                    Target::File { file: Some(n), pages: p, .. } if n == name && *p != pages => Some((j, *p)),
                    _ => None,
                }) {
                    // One file, one size: the page cache holds one mapping per file.
                    errs.push(ScenarioError::new(
                        f("target.pages"),
                        format!("file \"{name}\" is {other} pages in workloads[{j}]: workloads that share a file give it the same size, not {pages}"),
                    ));
                }
            }
            let (Target::File { write_percent, .. } | Target::Anon { write_percent, .. }) = &w.target;
            if *write_percent > 100 {
                errs.push(range_err(f("target.writePercent"), write_percent, "from 0 to 100"));
            }
            if let Pattern::Zipf { s } = w.pattern {
                if !(s.is_finite() && s > 0.0 && s <= 5.0) {
                    errs.push(range_err(f("pattern.s"), s, "from 0 to 5 (0 excluded)"));
                }
            }
            if w.rate > 1_000_000_000 {
                errs.push(range_err(f("rate"), w.rate, "from 0 to 1000000000 accesses per second"));
            }
            if w.start_ns > MAX_TIME_NS {
                errs.push(range_err(f("startNs"), w.start_ns, &format!("from 0 to {MAX_TIME_NS}")));
            }
            if w.stop_ns > MAX_TIME_NS {
                errs.push(range_err(f("stopNs"), w.stop_ns, &format!("from 0 to {MAX_TIME_NS}")));
            }
            if w.stop_ns != 0 && w.stop_ns <= w.start_ns {
                errs.push(ScenarioError::new(f("stopNs"), format!("{} is neither 0 (never) nor after startNs, which is {}", w.stop_ns, w.start_ns)));
            }
            if let Some(t) = w.tracked_pages {
                let most = pages.clamp(1, MAX_TRACKED_PAGES);
                if t == 0 || t > most {
                    errs.push(range_err(f("trackedPages"), t, &format!("from 1 to {most} (at most target.pages and {MAX_TRACKED_PAGES})")));
                }
            }
        }
        let tracked: u64 = self.workloads.iter().filter_map(|w| w.tracked_pages).map(u64::from).sum();
        if tracked > u64::from(MAX_TRACKED_PAGES) {
            errs.push(ScenarioError::new("workloads", format!("the workloads track {tracked} pages in all (trackedPages); at most {MAX_TRACKED_PAGES}")));
        }
        for (i, p) in self.proactive.iter().enumerate() {
            let f = |s: &str| format!("proactive[{i}].{s}");
            if !paths.contains(&p.memcg.as_str()) {
                errs.push(ScenarioError::new(f("memcg"), format!("memcg \"{}\" is not defined", p.memcg)));
            }
            if !(1..=1_000_000).contains(&p.count) {
                errs.push(range_err(f("count"), p.count, "from 1 to 1000000"));
            }
            if p.start_ns > MAX_TIME_NS {
                errs.push(range_err(f("startNs"), p.start_ns, &format!("from 0 to {MAX_TIME_NS}")));
            }
            if p.count > 1 && !(1_000_000..=MAX_TIME_NS).contains(&p.interval_ns) {
                errs.push(range_err(f("intervalNs"), p.interval_ns, &format!("from 1000000 (1 ms) to {MAX_TIME_NS} when count > 1")));
            }
            if p.bytes.is_some() && p.pages != 0 {
                errs.push(ScenarioError::new(f("bytes"), "give pages or bytes, not both"));
            } else if p.bytes.is_some_and(|b| b == 0 || b > MAX_TOTAL_PAGES * 4096) {
                errs.push(range_err(f("bytes"), p.bytes.unwrap_or(0), &format!("from 1 to {}", MAX_TOTAL_PAGES * 4096)));
            }
            if p.pages > MAX_TOTAL_PAGES {
                errs.push(range_err(f("pages"), p.pages, &format!("from 0 to {MAX_TOTAL_PAGES}")));
            }
        }
        errs
    }

    /// What the workloads' pages cost the engine before they run: the pages
    /// of their address spaces (a file shared by several workloads once, at
    /// its largest target) and of their zipf tables (one per pair of size
    /// and exponent), as Simulation::new builds them.
    fn workload_footprint(&self) -> (u64, u64) {
        let mut mappings: Vec<(String, u64)> = Vec::new();
        let mut tables: Vec<(u32, u64)> = Vec::new();
        for w in &self.workloads {
            let pages = w.target.pages();
            let key = w.mapping_name();
            match mappings.iter_mut().find(|(k, _)| *k == key) {
                Some((_, most)) => *most = (*most).max(u64::from(pages)),
                None => mappings.push((key, u64::from(pages))),
            }
            if let Pattern::Zipf { s } = w.pattern {
                if !tables.contains(&(pages, s.to_bits())) {
                    tables.push((pages, s.to_bits()));
                }
            }
        }
        (mappings.iter().map(|(_, p)| p).sum(), tables.iter().map(|&(p, _)| u64::from(p)).sum())
    }

    /// Parses and validates a scenario file (JSON).
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let s = check::parse(text)?;
        s.validate()?;
        Ok(s)
    }
}

/// "/a/b" -> "/a", "/a" -> "/".
pub fn parent_path(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &path[..i],
    }
}

/// The built-in scenarios and experiments with their parameters.
pub fn list() -> ScenarioList {
    use crate::experiment::{Direction, ALL as EXPERIMENTS};
    use crate::view::{ExperimentInfo, HeadlineInfo, MetricInfo, VariantInfo};
    ScenarioList {
        default_scenario: builtin::DEFAULT.to_string(),
        scenarios: builtin::ALL
            .iter()
            .map(|b| ScenarioInfo {
                name: b.name.to_string(),
                title: b.title.to_string(),
                description: b.description.to_string(),
                params: b.params.iter().map(ParamSpec::info).collect(),
            })
            .collect(),
        experiments: EXPERIMENTS
            .iter()
            .map(|e| ExperimentInfo {
                name: e.name.to_string(),
                title: e.title.to_string(),
                patch: e.patch.to_string(),
                description: e.description.to_string(),
                limits: e.limits.to_string(),
                ranges: crate::sweep::points(e),
                metrics: e.metric_docs.iter().map(|d| MetricInfo { name: d.name.to_string(), help: d.help.to_string() }).collect(),
                params: e.params.iter().map(ParamSpec::info).collect(),
                variants: e.variants.iter().map(|v| VariantInfo { name: v.name.to_string(), description: v.description.to_string() }).collect(),
                headlines: e
                    .headlines
                    .iter()
                    .map(|h| HeadlineInfo {
                        metric: h.metric.to_string(),
                        direction: match h.direction {
                            Direction::Lower => "lower".into(),
                            Direction::Higher => "higher".into(),
                        },
                        baseline: h.baseline.to_string(),
                        author_before: h.author_before.to_string(),
                        author_after: h.author_after.to_string(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Whether `name` is a built-in scenario's or an experiment's.
pub fn is_builtin(name: &str) -> bool {
    builtin::ALL.iter().any(|b| b.name == name) || crate::experiment::find(name).is_some()
}

/// Expands a request (built-in scenario or experiment name, seed,
/// parameters, variant) into a validated scenario. A `name` that is a
/// scenario document (JSON, starting with "{") is that scenario, run with
/// the request's seed (the app's scenario editor sends these).
///
/// An unknown name is quoted with [`quoted`].
pub fn build(req: &ScenarioRequest) -> Result<Scenario, ScenarioError> {
    if check::is_inline(&req.name) {
        return check::inline(req);
    }
    if let Some(e) = crate::experiment::find(&req.name) {
        return e.scenario(&req.params, req.seed, req.variant.as_deref().unwrap_or("after"));
    }
    // An unknown name is named as such first, variant or not.
    let b = builtin::ALL.iter().find(|b| b.name == req.name).ok_or_else(|| {
        let mut names: Vec<&str> = builtin::ALL.iter().map(|b| b.name).collect();
        names.extend(crate::experiment::ALL.iter().map(|e| e.name));
        ScenarioError::new("scenario", format!("unknown scenario {} (known: {})", quoted(&req.name), names.join(", ")))
    })?;
    if let Some(v) = &req.variant {
        return Err(ScenarioError::new("variant", format!("\"{}\" is a scenario, not an experiment: it has no variant {}", req.name, quoted(v))));
    }
    let params = Params::resolve(b.params, &req.params)?;
    let s = (b.build)(&params, req.seed);
    s.validate().map_err(|e| params::not_together(e, &req.params))?;
    Ok(s)
}

/// The most characters of a name a message echoes.
const MAX_QUOTED: usize = 60;

/// A name from a request, quoted for a message: cut to its first
/// MAX_QUOTED characters when longer, with how long it was (a link can hold
/// a name of hundreds of kilobytes; the app's `quoted` does the same).
pub fn quoted(name: &str) -> String {
    let n = name.chars().count();
    if n <= MAX_QUOTED {
        format!("\"{name}\"")
    } else {
        let head: String = name.chars().take(MAX_QUOTED).collect();
        format!("\"{head}\"… ({} characters)", crate::report::group(n as u64))
    }
}
