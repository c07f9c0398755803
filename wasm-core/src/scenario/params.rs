//! Parameters of built-in scenarios: each has a default and an accepted
//! range; requests are checked against them.
use std::collections::BTreeMap;

use super::ScenarioError;
use crate::view::ParamInfo;

#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: f64,
    pub min: f64,
    pub max: f64,
    pub integer: bool,
    pub help: &'static str,
}

/// The parameters that pick one of a few options, and what each value
/// (from 0) means: the app offers them as a list, not a number field. Each
/// label fits the list at 1,280 px wide (at most 24 characters); the
/// parameter's help under it says more.
const CHOICES: &[(&str, &[&str])] = &[
    ("lru_gen", &["the classic LRU", "MGLRU"]),
    ("memcg_lru", &["walk every memcg (≤6.2)", "the memcg LRU (v6.3+)"]),
    ("refault_distance", &["mainline lru_gen_refault", "with patch 004"]),
    ("reader_pattern", &["zipf (zipf_s)", "uniform", "one sequential scan", "loop over the file"]),
    ("reader_op", &["read()", "write()", "mmap loads", "mmap loads, 50 % stores"]),
    ("batch", &["whole request (<= v6.5)", "32 pages (v6.6-6.8)", "remaining/4 (v6.9+)"]),
    ("target", &["the root (the memcg LRU)", "/uid_0 (walks children)"]),
    ("storage", &["an SSD", "a 7,200-rpm disk", "brd ramdisks"]),
];

/// The `lru_gen` parameter of the scenarios that run either LRU, with its
/// default (0 = the classic LRU, 1 = MGLRU).
pub const fn lru_gen_param(default: f64) -> ParamSpec {
    ParamSpec { name: "lru_gen", default, min: 0.0, max: 1.0, integer: true, help: "0 = the classic active/inactive LRU, 1 = MGLRU" }
}

impl ParamSpec {
    pub fn info(&self) -> ParamInfo {
        ParamInfo {
            name: self.name.to_string(),
            default: self.default,
            min: self.min,
            max: self.max,
            integer: self.integer,
            help: self.help.to_string(),
            choices: self.choices().iter().map(|c| c.to_string()).collect(),
        }
    }

    /// What each whole value from `min` to `max` means, for a parameter that
    /// picks an option (empty for a quantity).
    pub fn choices(&self) -> &'static [&'static str] {
        CHOICES.iter().find(|(name, labels)| *name == self.name && self.integer && self.min == 0.0 && labels.len() as f64 == self.max + 1.0).map_or(&[], |(_, labels)| labels)
    }

    pub fn range(&self) -> String {
        range_text(self.min, self.max)
    }

    fn check(&self, v: f64) -> Result<f64, ScenarioError> {
        let field = format!("param {}", self.name);
        if !v.is_finite() {
            return Err(ScenarioError::new(field, format!("{v} is not a number (accepted: {})", self.range())));
        }
        if self.integer && v.fract() != 0.0 {
            return Err(ScenarioError::new(field, format!("{v} is not a whole number (accepted: {})", self.range())));
        }
        if v < self.min || v > self.max {
            return Err(ScenarioError::new(field, format!("{v} is out of range: accepted {}", self.range())));
        }
        Ok(v)
    }
}

/// The error of a scenario that parameters, each in its range, built but
/// the engine cannot run (memcgs x pages_per_memcg past the pages a machine
/// may have): it names the parameters given, not the scenario field that
/// overflowed, which the reader never set.
pub fn not_together(e: ScenarioError, given: &BTreeMap<String, f64>) -> ScenarioError {
    if given.is_empty() {
        return e;
    }
    let list = given.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ");
    // Which way to move a value depends on the check that failed, which the
    // engine's message names: no advice beyond it.
    let what = if given.len() == 1 {
        "is in range, but the scenario it makes is one the engine cannot run"
    } else {
        "are each in range, but together they make a scenario the engine cannot run"
    };
    ScenarioError::new("params", format!("{list} {what} ({e})"))
}

/// An accepted range as the messages and `reclaim-sim list` write it, in
/// words ("from 256 to 262144"), as the app's messages do.
pub fn range_text(min: f64, max: f64) -> String {
    format!("from {min} to {max}")
}

/// Effective parameter values: defaults overridden by the request.
#[derive(Clone, Debug, PartialEq)]
pub struct Params(pub BTreeMap<String, f64>);

impl Params {
    pub fn resolve(specs: &[ParamSpec], given: &BTreeMap<String, f64>) -> Result<Params, ScenarioError> {
        for k in given.keys() {
            if !specs.iter().any(|s| s.name == k) {
                let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
                return Err(ScenarioError::new(format!("param {k}"), format!("unknown parameter (known: {})", known.join(", "))));
            }
        }
        let mut out = BTreeMap::new();
        for s in specs {
            let v = match given.get(s.name) {
                Some(&v) => s.check(v)?,
                None => s.default,
            };
            out.insert(s.name.to_string(), v);
        }
        Ok(Params(out))
    }

    pub fn get(&self, name: &str) -> f64 {
        self.0[name]
    }

    pub fn u64(&self, name: &str) -> u64 {
        self.get(name) as u64
    }

    pub fn u32(&self, name: &str) -> u32 {
        self.get(name) as u32
    }
}

#[cfg(test)]
mod tests {
    /// Every parameter whose help spells out codes ("1 = ...") is
    /// offered as a list with one label per value; no quantity is.
    #[test]
    fn option_parameters_have_a_label_per_value() {
        let list = crate::scenario::list();
        let params = list.scenarios.iter().flat_map(|s| s.params.iter()).chain(list.experiments.iter().flat_map(|e| e.params.iter()));
        let mut options = 0;
        for p in params {
            let coded = p.help.contains("1 = ");
            assert_eq!(!p.choices.is_empty(), coded, "{}: help {:?}, choices {:?}", p.name, p.help, p.choices);
            if coded {
                options += 1;
                assert!(p.integer && p.min == 0.0, "{}", p.name);
                assert_eq!(p.choices.len() as f64, p.max + 1.0, "{}", p.name);
                for c in &p.choices {
                    assert!(c.chars().count() <= 24, "{}: {c:?} is cut off in the list at 1,280 px", p.name);
                }
            }
        }
        assert!(options >= 6, "{options} option parameters");
    }
}
