//! The five built-in experiments, one per kernel patch: a parametric
//! scenario run once per variant (the kernel before and after the patch, on
//! the same seed), and the metrics the patch author reported.
//!
//! Variants only flip switches (`Knobs`); the workload and machine are the
//! same. `compare` runs every variant and returns their metrics.
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::scenario::{ParamSpec, Params, Scenario, ScenarioError};
use crate::sim::Simulation;

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

mod kswapd_classzone;
mod memcg_lru_fairness;
mod multi_memcg_kswapd;
mod proactive_batching;
mod refault_distance;

/// Which way a metric should move from `before` to `after`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub enum Direction {
    Lower,
    Higher,
}

/// A metric the patch author reported, with their before/after figures.
#[derive(Clone, Copy, Debug)]
pub struct Headline {
    pub metric: &'static str,
    pub direction: Direction,
    /// The author's figures, as they reported them ("75 %", "425 %").
    pub author_before: &'static str,
    pub author_after: &'static str,
    /// The variant `after` is compared with ("before" for most metrics).
    pub baseline: &'static str,
}

impl Headline {
    /// Whether the effect went the expected way from `baseline` to `after`
    /// (strictly: no change does not count).
    pub fn held(&self, baseline: f64, after: f64) -> bool {
        match self.direction {
            Direction::Lower => after < baseline,
            Direction::Higher => after > baseline,
        }
    }
}

/// What one of an experiment's metrics measures, and in what unit: the
/// tables' legend (the app's comparison, docs/experiments.md).
#[derive(Clone, Copy, Debug)]
pub struct MetricDoc {
    pub name: &'static str,
    pub help: &'static str,
}

/// Metrics more than one experiment reports, read from /proc/vmstat at the
/// end of the run, or from the memory.reclaim writes.
pub(crate) mod common {
    use super::MetricDoc;
    pub const PSWPOUT: MetricDoc = MetricDoc { name: "pswpout", help: "pages written out to swap (/proc/vmstat)" };
    pub const REFAULT_ANON: MetricDoc = MetricDoc {
        name: "workingset_refault_anon",
        help: "swapped-out anon pages faulted back in that the workingset code counted as refaults (/proc/vmstat)",
    };
    pub const PGSTEAL_KSWAPD: MetricDoc = MetricDoc { name: "pgsteal_kswapd", help: "pages kswapd reclaimed (/proc/vmstat)" };
    pub const PGSTEAL_DIRECT: MetricDoc = MetricDoc { name: "pgsteal_direct", help: "pages direct reclaim of the node reclaimed, in allocating tasks (/proc/vmstat)" };
    pub const EAGAIN_WRITES: MetricDoc = MetricDoc {
        name: "eagain_writes",
        help: "memory.reclaim writes that failed with -EAGAIN: they gave up short of the request once MAX_RECLAIM_RETRIES + 1 of their rounds had reclaimed nothing",
    };
}

#[derive(Clone, Copy, Debug)]
pub struct Variant {
    pub name: &'static str,
    pub description: &'static str,
}

pub struct Experiment {
    pub name: &'static str,
    pub title: &'static str,
    /// The seed file and patch it reproduces.
    pub patch: &'static str,
    pub description: &'static str,
    pub params: &'static [ParamSpec],
    /// `before` and `after` first.
    pub variants: &'static [Variant],
    pub headlines: &'static [Headline],
    /// Where a headline does not hold (at the defaults or across the
    /// ranges, see crate::sweep) and why; empty if it always does.
    pub limits: &'static str,
    pub build: fn(&Params, u64, &str) -> Scenario,
    /// Metrics of a finished run, in display order; NaN for one that is not
    /// defined in this run (a ratio of nothing): "n/a" in tables, null in
    /// JSON, left out of medians, never held; n/a on both sides is a tie.
    pub metrics: fn(&Simulation, &Params) -> Vec<(&'static str, f64)>,
    /// What each of `metrics` measures, in the same order.
    pub metric_docs: &'static [MetricDoc],
}

pub static ALL: &[&Experiment] = &[
    &memcg_lru_fairness::EXPERIMENT,
    &multi_memcg_kswapd::EXPERIMENT, &proactive_batching::EXPERIMENT, &kswapd_classzone::EXPERIMENT, &refault_distance::EXPERIMENT];

pub fn find(name: &str) -> Option<&'static Experiment> {
    ALL.iter().copied().find(|e| e.name == name)
}

/// One variant's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct VariantResult {
    pub variant: String,
    pub metrics: Vec<(String, f64)>,
    /// What the run cost, in work the engine did ([`Simulation::work`]:
    /// accesses, folios scanned and refilled, a share per step).
    /// Deterministic, unlike a wall-clock time, and within a few times of
    /// proportional to it across parameter points, where times differ by
    /// thousands: what the app's range check weighs the points by when it
    /// estimates the time left. Not part of the metrics or of `--json`.
    #[serde(skip)]
    pub work: u64,
}

/// `reclaim-sim compare`'s result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct Comparison {
    pub experiment: String,
    pub params: BTreeMap<String, f64>,
    pub seed: u64,
    pub variants: Vec<VariantResult>,
}

impl Experiment {
    pub fn variant(&self, name: &str) -> Result<&Variant, ScenarioError> {
        self.variants.iter().find(|v| v.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.variants.iter().map(|v| v.name).collect();
            ScenarioError::new("variant", format!("unknown variant {} of {} (known: {})", crate::scenario::quoted(name), self.name, names.join(", ")))
        })
    }

    /// The scenario of one variant.
    pub fn scenario(&self, params: &BTreeMap<String, f64>, seed: u64, variant: &str) -> Result<Scenario, ScenarioError> {
        self.variant(variant)?;
        let p = Params::resolve(self.params, params)?;
        let s = (self.build)(&p, seed, variant);
        s.validate().map_err(|e| crate::scenario::not_together(e, params))?;
        Ok(s)
    }

    /// Runs one variant to the end of its scenario and returns its metrics.
    pub fn run(&self, params: &BTreeMap<String, f64>, seed: u64, variant: &str) -> Result<VariantResult, ScenarioError> {
        let s = self.scenario(params, seed, variant)?;
        let p = Params::resolve(self.params, params)?;
        let end = s.duration_ns;
        let mut sim = Simulation::new(s)?;
        sim.run_until(end);
        let metrics = (self.metrics)(&sim, &p).into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        Ok(VariantResult { variant: variant.to_string(), metrics, work: sim.work() })
    }

    /// Every variant on the same seed.
    pub fn compare(&self, params: &BTreeMap<String, f64>, seed: u64) -> Result<Comparison, ScenarioError> {
        self.compare_variants(params, seed, |_| true)
    }

    /// The variants a headline is judged on: `after` and each headline's
    /// baseline, in the experiment's order.
    pub fn headline_variants(&self) -> Vec<&'static str> {
        self.variants.iter().map(|v| v.name).filter(|&n| n == "after" || self.headlines.iter().any(|h| h.baseline == n)).collect()
    }

    /// Only the variants the headlines compare, on the same seed: what the
    /// range checks need (`held` and `tied` read nothing else), without the
    /// cost of the others.
    pub fn compare_headlines(&self, params: &BTreeMap<String, f64>, seed: u64) -> Result<Comparison, ScenarioError> {
        let wanted = self.headline_variants();
        self.compare_variants(params, seed, |n| wanted.contains(&n))
    }

    fn compare_variants(&self, params: &BTreeMap<String, f64>, seed: u64, wanted: impl Fn(&str) -> bool) -> Result<Comparison, ScenarioError> {
        let p = Params::resolve(self.params, params)?;
        let variants = self.variants.iter().filter(|v| wanted(v.name)).map(|v| self.run(params, seed, v.name)).collect::<Result<Vec<_>, _>>()?;
        Ok(Comparison { experiment: self.name.to_string(), params: p.0, seed, variants })
    }
}

impl Comparison {
    /// The value of `metric` in `variant` (None if either is unknown).
    pub fn metric(&self, variant: &str, metric: &str) -> Option<f64> {
        let v = self.variants.iter().find(|v| v.variant == variant)?;
        v.metrics.iter().find(|(k, _)| k == metric).map(|(_, x)| *x)
    }

    /// Whether `h` held in this comparison.
    pub fn held(&self, h: &Headline) -> bool {
        match (self.metric(h.baseline, h.metric), self.metric("after", h.metric)) {
            (Some(b), Some(a)) => h.held(b, a),
            _ => false,
        }
    }

    /// Whether the headline's metric came out equal in the baseline and
    /// `after`, or undefined in both (no allocation to time, nothing
    /// reclaimed): the patch made no difference either way.
    pub fn tied(&self, h: &Headline) -> bool {
        matches!((self.metric(h.baseline, h.metric), self.metric("after", h.metric)), (Some(b), Some(a)) if b == a || (b.is_nan() && a.is_nan()))
    }
}

/// stddev / mean of a set of values (0 for an empty or all-zero set).
pub fn coefficient_of_variation(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    if mean == 0.0 {
        return 0.0;
    }
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / v.len() as f64;
    var.sqrt() / mean
}

/// The p-th percentile (0..=100) of a sample, nearest-rank; NaN (n/a) for
/// an empty sample.
pub fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    f64::from(sorted[rank.clamp(1, sorted.len()) - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comparison(before: f64, after: f64) -> Comparison {
        let v = |name: &str, x: f64| VariantResult { variant: name.into(), metrics: vec![("m".into(), x)], work: 0 };
        Comparison { experiment: "e".into(), params: BTreeMap::new(), seed: 1, variants: vec![v("before", before), v("after", after)] }
    }

    /// n/a on both sides (nothing to measure in either run) is no effect
    /// either way, like equal values; n/a on one side is neither.
    #[test]
    fn a_headline_undefined_in_both_variants_ties() {
        let h = Headline { metric: "m", direction: Direction::Lower, author_before: "", author_after: "", baseline: "before" };
        for (before, after, held, tied) in [(2.0, 1.0, true, false), (1.0, 1.0, false, true), (f64::NAN, f64::NAN, false, true), (1.0, f64::NAN, false, false)] {
            let c = comparison(before, after);
            assert_eq!((c.held(&h), c.tied(&h)), (held, tied), "{before} -> {after}");
        }
    }

    /// pgsteal_cv's statistic (the app draws the engine's value; it has no
    /// copy): the population standard deviation over the mean, 0 without a
    /// spread or with a mean of 0.
    #[test]
    fn coefficient_of_variation_is_the_population_stddev_over_the_mean() {
        use super::coefficient_of_variation as cv;
        assert_eq!(cv(&[]), 0.0);
        assert_eq!(cv(&[5.0]), 0.0);
        assert_eq!(cv(&[0.0, 0.0]), 0.0);
        assert_eq!(cv(&[4.0, 4.0, 4.0]), 0.0);
        assert_eq!(cv(&[100.0, 300.0]), 0.5);
        // One of four took everything: stddev sqrt(3) times the mean.
        assert!((cv(&[256.0, 0.0, 0.0, 0.0]) - 3f64.sqrt()).abs() < 1e-12);
    }
}
