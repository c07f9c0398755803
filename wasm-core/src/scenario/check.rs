//! Reading a scenario file and checking it, for `reclaim-sim run FILE.json`,
//! the app's scenario editor (`validateScenario` in wasm) and scenarios given
//! inline in a request: every problem names the field at fault, as
//! `Scenario::validate` does ("workloads[1].pattern.s"), also when the JSON
//! does not deserialize ("workloads[0].target: missing field `pages`").
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

use super::{MemcgSpec, NodeSpec, ProactiveSpec, Scenario, ScenarioError, ZoneSpec};
use crate::mm::Knobs;
use crate::view::ScenarioRequest;
use crate::workload::{Pattern, Target, WorkloadSpec};

/// The field for problems that are not about one field (the file is not JSON).
pub const FILE_FIELD: &str = "scenario file";

/// What checking a scenario file found.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ScenarioCheck {
    /// Whether the text is a scenario document at all (JSON of the right
    /// shape); when false, `problems` says why and nothing was validated.
    pub readable: bool,
    /// Every problem found, each naming its field; empty when it can run.
    pub problems: Vec<ScenarioProblem>,
}

/// One problem: the field's path ("nodes[0].zones[1].pages", "knobs.swappiness",
/// "scenario file") and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(target_arch = "wasm32", derive(Tsify))]
pub struct ScenarioProblem {
    pub field: String,
    pub message: String,
}

impl From<ScenarioError> for ScenarioProblem {
    fn from(e: ScenarioError) -> Self {
        ScenarioProblem { field: e.field, message: e.message }
    }
}

/// "unknown field `x`, expected ..." / "missing field `x`" -> "x".
fn named_field(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("unknown field `").or_else(|| message.strip_prefix("missing field `"))?;
    rest.split('`').next().filter(|f| !f.is_empty())
}

fn located(path: &str, e: serde_json::Error) -> ScenarioError {
    let message = e.to_string();
    let field = match named_field(&message) {
        Some(f) if path.is_empty() => f.to_string(),
        Some(f) => format!("{path}.{f}"),
        None if path.is_empty() => FILE_FIELD.to_string(),
        None => path.to_string(),
    };
    ScenarioError::new(field, message)
}

/// The first element of the array `key` that does not deserialize as a `T`
/// (its path starts with `prefix`, "nodes[0]." for a node's zones).
fn bad_item<T: DeserializeOwned>(doc: &serde_json::Map<String, Value>, key: &str, prefix: &str) -> Option<ScenarioError> {
    let items = doc.get(key)?.as_array()?;
    items.iter().enumerate().find_map(|(i, item)| {
        let path = format!("{prefix}{key}[{i}]");
        // A node's zones: name the zone at fault.
        if let (Some(obj), "nodes") = (item.as_object(), key) {
            if let Some(e) = bad_item::<ZoneSpec>(obj, "zones", &format!("{path}.")) {
                return Some(e);
            }
        }
        // A workload's pattern and target are tagged enums: name them when they are at fault.
        if let (Some(obj), "workloads") = (item.as_object(), key) {
            if let Some(e) = obj.get("pattern").and_then(|v| serde_json::from_value::<Pattern>(v.clone()).err()) {
                return Some(located(&format!("{path}.pattern"), e));
            }
            if let Some(e) = obj.get("target").and_then(|v| serde_json::from_value::<Target>(v.clone()).err()) {
                return Some(located(&format!("{path}.target"), e));
            }
        }
        serde_json::from_value::<T>(item.clone()).err().map(|e| located(&path, e))
    })
}

/// Names the part of a document that does not deserialize (`error` is what
/// deserializing the whole of it said).
fn locate(doc: &Value, error: serde_json::Error) -> ScenarioError {
    let Some(obj) = doc.as_object() else {
        return ScenarioError::new(FILE_FIELD, "a scenario file is a JSON object");
    };
    bad_item::<NodeSpec>(obj, "nodes", "")
        .or_else(|| bad_item::<MemcgSpec>(obj, "memcgs", ""))
        .or_else(|| bad_item::<WorkloadSpec>(obj, "workloads", ""))
        .or_else(|| bad_item::<ProactiveSpec>(obj, "proactive", ""))
        .or_else(|| obj.get("knobs").and_then(|k| serde_json::from_value::<Knobs>(k.clone()).err()).map(|e| located("knobs", e)))
        .unwrap_or_else(|| {
            let message = error.to_string();
            // A top-level field of the wrong type: serde does not say which; try each.
            let field = named_field(&message).map(str::to_string).or_else(|| top_level_culprit(obj));
            ScenarioError::new(field.unwrap_or_else(|| FILE_FIELD.to_string()), message)
        })
}

/// The top-level field whose value alone breaks deserializing (tried by
/// putting each one into a document that otherwise deserializes).
fn top_level_culprit(obj: &serde_json::Map<String, Value>) -> Option<String> {
    let base = serde_json::to_value(Scenario::minimal()).ok()?;
    let base = base.as_object()?;
    obj.iter().find_map(|(k, v)| {
        let mut probe = base.clone();
        probe.insert(k.clone(), v.clone());
        serde_json::from_value::<Scenario>(Value::Object(probe)).is_err().then(|| k.clone())
    })
}

/// Reads a scenario document; a problem names the field that does not deserialize.
pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    let doc: Value = serde_json::from_str(text).map_err(|e| ScenarioError::new(FILE_FIELD, e.to_string()))?;
    match serde_json::from_value::<Scenario>(doc.clone()) {
        Ok(s) => Ok(s),
        Err(e) => Err(locate(&doc, e)),
    }
}

/// Everything wrong with a scenario file: why it cannot be read, or every
/// validation problem (none: it runs).
pub fn check(text: &str) -> ScenarioCheck {
    match parse(text) {
        Err(e) => ScenarioCheck { readable: false, problems: vec![e.into()] },
        Ok(s) => ScenarioCheck { readable: true, problems: s.problems().into_iter().map(Into::into).collect() },
    }
}

/// Whether a request's `name` is a whole scenario document rather than the
/// name of a built-in scenario (names never start with "{").
pub fn is_inline(name: &str) -> bool {
    name.trim_start().starts_with('{')
}

/// A scenario given inline: the request's `name` is the scenario's JSON and
/// its `seed` the run's seed (it replaces the document's). It takes no
/// parameters and no variant.
pub fn inline(req: &ScenarioRequest) -> Result<Scenario, ScenarioError> {
    if let Some(k) = req.params.keys().next() {
        return Err(ScenarioError::new(format!("param {k}"), "a scenario given as JSON takes no parameters"));
    }
    if let Some(v) = &req.variant {
        return Err(ScenarioError::new("variant", format!("a scenario given as JSON has no variant \"{v}\"")));
    }
    let mut s = parse(&req.name)?;
    s.seed = req.seed;
    s.validate()?;
    Ok(s)
}

impl Scenario {
    /// The smallest scenario that deserializes (for locating a bad field).
    fn minimal() -> Scenario {
        Scenario {
            version: super::SCENARIO_VERSION,
            name: String::new(),
            title: String::new(),
            description: String::new(),
            seed: 0,
            step_ns: 0,
            duration_ns: 0,
            nodes: Vec::new(),
            min_free_kbytes: None,
            watermark_scale_factor: 10,
            swap_pages: 0,
            machine: Default::default(),
            memcgs: Vec::new(),
            workloads: Vec::new(),
            proactive: Vec::new(),
            knobs: Knobs::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"version": 1, "name": "x", "seed": 1, "stepNs": 1000000, "durationNs": 10000000,
        "nodes": [{"zones": [{"zone": "Normal", "pages": 4096}]}],
        "memcgs": [{"path": "/a", "memoryMax": 1024}],
        "workloads": [{"name": "w", "memcg": "/a", "pattern": {"kind": "uniform"}, "target": {"kind": "anon", "pages": 100}}]}"#;

    fn fields(c: &ScenarioCheck) -> Vec<&str> {
        c.problems.iter().map(|p| p.field.as_str()).collect()
    }

    #[test]
    fn a_good_file_has_no_problems() {
        assert_eq!(check(GOOD), ScenarioCheck { readable: true, problems: vec![] });
    }

    #[test]
    fn every_validation_problem_is_listed_in_order() {
        let bad = GOOD
            .replace("\"pages\": 4096", "\"pages\": 10")
            .replace("\"/a\", \"memoryMax\"", "\"a\", \"memoryMax\"")
            .replace("{\"kind\": \"uniform\"}", "{\"kind\": \"zipf\", \"s\": 9}");
        let c = check(&bad);
        assert!(c.readable);
        assert_eq!(fields(&c), ["nodes[0].zones[0].pages", "memcgs[0].path", "workloads[0].memcg", "workloads[0].pattern.s"]);
        // validate() reports the first of them.
        let s: Scenario = serde_json::from_str(&bad).unwrap();
        assert_eq!(s.validate().unwrap_err().field, "nodes[0].zones[0].pages");
    }

    #[test]
    fn shape_problems_name_the_part() {
        let c = check("{ not json");
        assert!(!c.readable);
        assert_eq!(fields(&c), [FILE_FIELD]);
        let missing = GOOD.replace("\"kind\": \"anon\", \"pages\": 100", "\"kind\": \"anon\"");
        assert_eq!(fields(&check(&missing)), ["workloads[0].target.pages"]);
        let zone = GOOD.replace("\"zone\": \"Normal\", \"pages\": 4096", "\"zone\": \"Normal\"");
        assert_eq!(fields(&check(&zone)), ["nodes[0].zones[0].pages"]);
        let zone_name = GOOD.replace("\"Normal\"", "\"HighMem\"");
        assert_eq!(fields(&check(&zone_name)), ["nodes[0].zones[0]"]);
        let typo = GOOD.replace("\"memoryMax\"", "\"memoryMaxx\"");
        assert_eq!(fields(&check(&typo)), ["memcgs[0].memoryMaxx"]);
        let knob = GOOD.replace("\"memcgs\"", "\"knobs\": {\"memcgLRU\": false}, \"memcgs\"");
        assert_eq!(fields(&check(&knob)), ["knobs.memcgLRU"]);
        let seed = GOOD.replace("\"seed\": 1", "\"seed\": \"one\"");
        assert_eq!(fields(&check(&seed)), ["seed"]);
        let no_nodes = GOOD.replace("\"nodes\"", "\"nodez\"");
        assert!(!check(&no_nodes).readable);
        assert_eq!(fields(&check("[1, 2]")), [FILE_FIELD]);
    }

    #[test]
    fn an_inline_request_runs_its_document_with_the_request_seed() {
        let req = ScenarioRequest { name: GOOD.to_string(), seed: 7, params: Default::default(), variant: None };
        assert!(is_inline(&req.name));
        let s = super::super::build(&req).unwrap();
        assert_eq!((s.name.as_str(), s.seed), ("x", 7));
        let with_param = ScenarioRequest { params: [("memory_max".to_string(), 1.0)].into(), ..req.clone() };
        assert_eq!(super::super::build(&with_param).unwrap_err().field, "param memory_max");
        let with_variant = ScenarioRequest { variant: Some("before".into()), ..req.clone() };
        assert_eq!(super::super::build(&with_variant).unwrap_err().field, "variant");
        let bad = ScenarioRequest { name: GOOD.replace("\"pages\": 4096", "\"pages\": 10"), ..req };
        assert_eq!(super::super::build(&bad).unwrap_err().field, "nodes[0].zones[0].pages");
    }
}
