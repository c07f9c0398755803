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

impl ParamSpec {
    pub fn info(&self) -> ParamInfo {
        ParamInfo {
            name: self.name.to_string(),
            default: self.default,
            min: self.min,
            max: self.max,
            integer: self.integer,
            help: self.help.to_string(),
        }
    }

    pub fn range(&self) -> String {
        range_text(self.min, self.max)
    }

    fn check(&self, v: f64) -> Result<f64, ScenarioError> {
        let field = format!("param {}", self.name);
        if !v.is_finite() {
            return Err(ScenarioError::new(field, format!("{v} is not a number (accepted range {})", self.range())));
        }
        if self.integer && v.fract() != 0.0 {
            return Err(ScenarioError::new(field, format!("{v} is not a whole number (accepted range {})", self.range())));
        }
        if v < self.min || v > self.max {
            return Err(ScenarioError::new(field, format!("{v} is out of range {}", self.range())));
        }
        Ok(v)
    }
}

/// An accepted range as the messages and `reclaim-sim list` write it ("256..=262144").
pub fn range_text(min: f64, max: f64) -> String {
    format!("{min}..={max}")
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
