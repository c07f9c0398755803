//! What the UI reads before a run: the built-in scenarios and experiments
//! with their parameters, variants, headlines and metrics, the request that
//! names a run, and the engine's constants. Generated into TypeScript like
//! the frames (see the parent module).
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

/// Which built-in scenario to build, with which seed and parameters. This is
/// what a URL or a `reclaim-sim run NAME --param k=v --seed N` names.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ScenarioRequest {
    pub name: String,
    pub seed: u64,
    #[serde(default)]
    pub params: BTreeMap<String, f64>,
    /// For an experiment: which variant to run ("before", "after", ...;
    /// default "after").
    #[serde(default)]
    pub variant: Option<String>,
}

/// One parameter of a built-in scenario with its default and accepted range.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ParamInfo {
    pub name: String,
    pub default: f64,
    pub min: f64,
    pub max: f64,
    pub integer: bool,
    pub help: String,
    /// For a parameter that picks one of a few options: what each whole value
    /// from `min` (0) to `max` means; empty for a quantity.
    pub choices: Vec<String>,
}

/// A built-in scenario as listed by `reclaim-sim list` and the app's picker.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ScenarioInfo {
    pub name: String,
    pub title: String,
    pub description: String,
    pub params: Vec<ParamInfo>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ScenarioList {
    pub default_scenario: String,
    pub scenarios: Vec<ScenarioInfo>,
    pub experiments: Vec<ExperimentInfo>,
}

/// One variant of an experiment (the kernel before or after the patch, ...).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct VariantInfo {
    pub name: String,
    pub description: String,
}

/// A metric the patch author reported, and which way it should move.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct HeadlineInfo {
    pub metric: String,
    /// "lower" or "higher" (after compared with `baseline`).
    pub direction: String,
    pub baseline: String,
    pub author_before: String,
    pub author_after: String,
}

/// A built-in experiment: one kernel patch, before and after.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ExperimentInfo {
    pub name: String,
    pub title: String,
    pub patch: String,
    pub description: String,
    pub params: Vec<ParamInfo>,
    pub variants: Vec<VariantInfo>,
    pub headlines: Vec<HeadlineInfo>,
    /// Every metric the comparison reports, in its order, with what it measures.
    pub metrics: Vec<MetricInfo>,
    /// Where a headline does not hold, and why (empty if it always does).
    pub limits: String,
    /// The parameter points `reclaim-sim sweep` checks the headlines at: the
    /// defaults, then each parameter at the low and the high end of its range.
    pub ranges: Vec<RangePoint>,
}

/// One of an experiment's metrics and what it measures (with its unit).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct MetricInfo {
    pub name: String,
    pub help: String,
}

/// One point of an experiment's range check: its name ("defaults" or
/// "name=value") and the parameters it sets (the others keep their defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct RangePoint {
    pub point: String,
    pub params: BTreeMap<String, f64>,
}

/// Constants of the engine that the UI needs before an engine runs (limits
/// of its controls, the memcg LRU's shape, the zones' names, the events a run
/// can stop at). The build writes them to pkg/engine-constants.json, so that
/// the UI reads the engine's values rather than copies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct EngineConstants {
    /// The furthest step a seek or a run may go to (timeline::MAX_STEP).
    pub max_seek_step: u64,
    /// MEMCG_NR_GENS and MEMCG_NR_BINS of the memcg LRU.
    pub memcg_nr_gens: u32,
    pub memcg_nr_bins: u32,
    /// SWAP_CLUSTER_MAX: the pages a memory.reclaim round asked for at most in v6.6-v6.8.
    pub swap_cluster_max: u64,
    /// The zones' names, by zone index (ZONE_DMA first).
    pub zone_names: Vec<String>,
    /// The events a run can stop at (runUntil's names), in the engine's order.
    pub run_kinds: Vec<String>,
    /// The events a step's log records (EVENTS_PER_STEP; the rare kinds have a few more places).
    pub events_per_step: u32,
}

impl EngineConstants {
    pub fn get() -> EngineConstants {
        use crate::mm::pgdat::ZoneType;
        EngineConstants {
            max_seek_step: crate::timeline::MAX_STEP,
            memcg_nr_gens: crate::mm::memcg_lru::MEMCG_NR_GENS as u32,
            memcg_nr_bins: crate::mm::memcg_lru::MEMCG_NR_BINS as u32,
            swap_cluster_max: crate::mm::SWAP_CLUSTER_MAX,
            zone_names: ZoneType::ALL.iter().map(|z| z.name().to_string()).collect(),
            run_kinds: crate::event::EventMatch::ALL.iter().map(|m| m.name().to_string()).collect(),
            events_per_step: crate::event::EVENTS_PER_STEP as u32,
        }
    }
}
