//! Reading a scenario file and checking it, for `reclaim-sim run FILE.json`,
//! the app's scenario editor (`validateScenario` in wasm) and scenarios given
//! inline in a request: every problem names the field at fault, as
//! `Scenario::validate` does ("workloads[1].pattern.s"), also when the JSON
//! does not deserialize ("workloads[0].target.pages: missing field `pages`", found with
//! serde_path_to_error).
use serde::Serialize;

#[cfg(target_arch = "wasm32")]
use tsify::Tsify;

use super::{Scenario, ScenarioError};
use crate::view::ScenarioRequest;

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
    /// Settings that run but are likely slips (Scenario::notes), each naming
    /// its field: shown, never refused.
    pub notes: Vec<ScenarioProblem>,
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

/// Reads a scenario document; a problem names the field that does not
/// deserialize (the path serde_path_to_error tracked while reading it).
pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    parse_with(text, true)
}

/// [`parse`]; `ranges`: look up the accepted range of a number serde
/// rejected (off when parse looks it up itself, so it does not recurse).
fn parse_with(text: &str, ranges: bool) -> Result<Scenario, ScenarioError> {
    if text.trim().is_empty() {
        return Err(ScenarioError::new(FILE_FIELD, "the file is empty: a scenario file is a JSON object".to_string()));
    }
    // serde would also read a struct from an array of its fields' values.
    if !text.trim_start().starts_with('{') {
        let message = match serde_json::from_str::<serde::de::IgnoredAny>(text) {
            Err(e) => e.to_string(),
            Ok(_) => "a scenario file is a JSON object".to_string(),
        };
        return Err(ScenarioError::new(FILE_FIELD, message));
    }
    if let Some(e) = super::shape::list_for_an_object(text) {
        return Err(e);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let scenario = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().clone();
        let inner = e.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            // Sound JSON, but not a name where a name belongs ("storage": 3).
            let at = path.to_string();
            if at != "." {
                if let Some(message) = super::names::not_a_name_message(text, inner.line(), inner.column()) {
                    return ScenarioError::new(at, message);
                }
            }
            return ScenarioError::new(FILE_FIELD, inner.to_string());
        }
        // The path says where; serde_json's " at line L column C" is left out.
        let message = inner.to_string();
        let message = message.strip_suffix(&format!(" at line {} column {}", inner.line(), inner.column())).unwrap_or(&message);
        // A bad value inside a tagged enum is reported at the enum: name its member.
        let member = member_with_bad_value(text, &path, message);
        let path = path.to_string();
        let plain = plain_number_message(message);
        // A member of a pattern that takes none (Pattern's empty struct variants), in words.
        let plain = match plain.strip_suffix(", there are no fields") {
            Some(head) if path.ends_with(".pattern") => format!("{head}: this pattern takes no parameters (only zipf has one, `s`)"),
            _ => plain,
        };
        // A missing field: the path ends at the object that lacks it ("." for the document).
        let field = match (named_field(&plain).or(member.as_deref()), path.as_str()) {
            (Some(f), ".") => f.to_string(),
            (None, ".") => FILE_FIELD.to_string(),
            (Some(f), p) if p != f && !p.ends_with(&format!(".{f}")) => format!("{p}.{f}"),
            _ => path,
        };
        // A name that is none of the field's, or a value where an object belongs, in words.
        let plain = super::names::unknown_name_message(&plain).unwrap_or(plain);
        let plain = super::names::not_an_object_message(message, bad_value(message).as_deref()).unwrap_or(plain);
        // A number of the wrong type or size (plain_number_message put it in
        // words): the range the field accepts, not only the one its type holds.
        let message = match (ranges && plain != message, bad_value(message)) {
            // The format's version is one number, not a range.
            (_, Some(value)) if field == "version" => {
                format!("{value} is not a version of the format: this build reads version {}", super::SCENARIO_VERSION)
            }
            (true, Some(value)) => match accepted_range(text, &field) {
                Some(range) => {
                    let kind = if message.ends_with(", expected f64") { "a number" } else { "a whole number" };
                    format!("{value} is not {kind} from {range}")
                }
                None => plain,
            },
            _ => plain,
        };
        ScenarioError::new(field, message)
    })?;
    // Trailing characters after the document.
    de.end().map_err(|e| ScenarioError::new(FILE_FIELD, e.to_string()))?;
    Ok(scenario)
}

/// The JSON text of the value serde rejected: "invalid value: integer `-5`,
/// expected u32" -> "-5", "invalid type: string \"x\", expected u32" -> "\"x\"".
/// "unknown variant `x`, expected one of ..." -> "\"x\"".
fn bad_value(message: &str) -> Option<String> {
    if let Some(rest) = message.strip_prefix("unknown variant `") {
        return rest.split_once('`').map(|(name, _)| serde_json::Value::from(name).to_string());
    }
    let (what, _) = message.rsplit_once(", expected ")?;
    let what = what.strip_prefix("invalid value: ").or_else(|| what.strip_prefix("invalid type: "))?;
    if let Some(s) = what.strip_prefix("string ") {
        return Some(s.to_string());
    }
    if what == "null" {
        return Some("null".to_string());
    }
    let (a, b) = (what.find('`')?, what.rfind('`')?);
    (a < b).then(|| what[a + 1..b].to_string())
}

/// serde reads an internally tagged enum ({"kind": "anon", "pages": -5}) as a
/// whole, so a bad value in it is reported at the enum ("workloads[0].target"),
/// not at its member: the member of that object holding the rejected value
/// ("pages"), when exactly one does.
fn member_with_bad_value(text: &str, path: &serde_path_to_error::Path, message: &str) -> Option<String> {
    use serde_path_to_error::Segment;
    let bad = bad_value(message)?;
    let doc: serde_json::Value = serde_json::from_str(text).ok()?;
    let mut node = &doc;
    for segment in path {
        node = match segment {
            Segment::Seq { index } => node.get(*index)?,
            Segment::Map { key } => node.get(key)?,
            _ => return None,
        };
    }
    let mut members = node.as_object()?.iter().filter(|(_, v)| v.to_string() == bad).map(|(k, _)| k);
    let member = members.next()?;
    members.next().is_none().then(|| member.clone())
}

/// What `field` (a path such as "nodes[0].zones[0].pages") accepts, in the
/// validation's words ("64 to 16777216", "0 to 5 (0 excluded)"): found by
/// putting 0, then large numbers, in its place and reading what the
/// validation says of it; None when none is refused with a range.
///
/// Native only: writing the probed document back out as JSON costs the
/// wasm 3.1 KB gzipped (docs/performance.md), for a message the app's
/// editor rarely shows (it checks a field's type before the engine does).
/// In the browser a wrongly typed number is answered with its type's range.
#[cfg(target_arch = "wasm32")]
fn accepted_range(_text: &str, _field: &str) -> Option<String> {
    None
}

#[cfg(not(target_arch = "wasm32"))]
fn accepted_range(text: &str, field: &str) -> Option<String> {
    let doc: serde_json::Value = serde_json::from_str(text).ok()?;
    // 0 finds a lower bound; u32::MAX an upper one in a 32-bit field (2^53 does
    // not fit one), 2^53 in a 64-bit field whose bound is higher still.
    for probe in [serde_json::json!(0), serde_json::json!(u32::MAX), serde_json::json!(1u64 << 53)] {
        let mut doc = doc.clone();
        *value_at(&mut doc, field)? = probe;
        let Ok(s) = parse_with(&doc.to_string(), false) else { continue };
        let Some(problem) = s.problems().into_iter().find(|p| p.field == field) else { continue };
        if let Some((_, range)) = problem.message.split_once("accepted from ") {
            return Some(range.to_string());
        }
    }
    None
}

/// The value at a field path ("workloads[0].target.pages") of a document.
#[cfg(not(target_arch = "wasm32"))]
fn value_at<'a>(doc: &'a mut serde_json::Value, field: &str) -> Option<&'a mut serde_json::Value> {
    let mut node = doc;
    for part in field.split('.') {
        let (key, indices) = part.split_once('[').map_or((part, ""), |(k, rest)| (k, rest));
        if !key.is_empty() {
            node = node.get_mut(key)?;
        }
        for index in indices.split('[').filter(|i| !i.is_empty()) {
            node = node.get_mut(index.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    Some(node)
}

/// serde's "invalid value: integer `-5`, expected u64" in the words of the
/// other messages: "-5 is not a whole number from 0 to 18446744073709551615".
/// Other messages are kept as they are.
fn plain_number_message(message: &str) -> String {
    let Some((what, expected)) = message.rsplit_once(", expected ") else { return message.to_string() };
    let range = match expected {
        "u64" => format!("a whole number from 0 to {}", u64::MAX),
        "u32" => format!("a whole number from 0 to {}", u32::MAX),
        "u16" => format!("a whole number from 0 to {}", u16::MAX),
        "u8" => format!("a whole number from 0 to {}", u8::MAX),
        "f64" => "a number".to_string(),
        _ => return message.to_string(),
    };
    let value = if let (Some(a), Some(b)) = (what.find('`'), what.rfind('`')) {
        if a < b { &what[a + 1..b] } else { return message.to_string() }
    } else if let Some(v) = what.strip_prefix("invalid type: string ") {
        return format!("{v} (a string) is not {range}");
    } else if what == "invalid type: null" {
        return format!("null is not {range}");
    } else {
        return message.to_string();
    };
    format!("{value} is not {range}")
}

/// Everything wrong with a scenario file: why it cannot be read, or every
/// validation problem (none: it runs).
pub fn check(text: &str) -> ScenarioCheck {
    match parse(text) {
        Err(e) => ScenarioCheck { readable: false, problems: vec![e.into()], notes: Vec::new() },
        Ok(s) => ScenarioCheck { readable: true, problems: s.problems().into_iter().map(Into::into).collect(), notes: s.notes().into_iter().map(Into::into).collect() },
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
        assert_eq!(check(GOOD), ScenarioCheck { readable: true, problems: vec![], notes: vec![] });
    }

    /// Likely slips run (no problem) and come back as notes at their fields;
    /// a document that cannot be read has none.
    #[test]
    fn likely_slips_are_notes_at_their_fields_not_problems() {
        let doc = GOOD.replace(r#""memoryMax": 1024}"#, r#""memoryMax": 1024, "memoryLow": 2048, "memoryHigh": 4096}"#);
        let c = check(&doc);
        assert!(c.readable && c.problems.is_empty(), "{c:?}");
        let notes: Vec<(&str, &str)> = c.notes.iter().map(|n| (n.field.as_str(), n.message.as_str())).collect();
        assert_eq!(
            notes,
            [
                ("memcgs[0].memoryLow", r#"2048 is above memoryMax (1024): it protects everything "/a" can hold"#),
                ("memcgs[0].memoryHigh", r#"4096 is above memoryMax (1024): "/a" reaches memory.max first, so memory.high never throttles it"#),
            ]
        );
        assert!(check("{").notes.is_empty());
    }

    /// An unknown member of a pattern or target is named as anywhere else,
    /// also where the pattern takes no parameters; a workload needs a name.
    #[test]
    fn unknown_members_of_patterns_and_targets_and_empty_names_are_named() {
        let problem = |from: &str, to: &str| {
            let c = check(&GOOD.replace(from, to));
            c.problems.into_iter().map(|p| (p.field, p.message)).next().expect("a problem")
        };
        let (field, message) = problem(r#""kind": "uniform""#, r#""kind": "uniform", "s": 3"#);
        assert_eq!(field, "workloads[0].pattern.s");
        assert_eq!(message, "unknown field `s`: this pattern takes no parameters (only zipf has one, `s`)");
        // So for every pattern without parameters.
        for kind in ["sequential", "loop"] {
            let (field, _) = problem(r#""kind": "uniform""#, &format!(r#""kind": "{kind}", "pages": 3"#));
            assert_eq!(field, "workloads[0].pattern.pages", "{kind}");
        }
        let (field, message) = problem(r#""pages": 100}"#, r#""pages": 100, "op": "read"}"#);
        assert_eq!(field, "workloads[0].target.op");
        assert!(message.starts_with("unknown field `op`"), "{message}");
        let (field, message) = problem(r#""name": "w""#, r#""name": " ""#);
        assert_eq!(field, "workloads[0].name");
        assert!(message.starts_with("required"), "{message}");
        // zipf's one parameter is fine.
        assert_eq!(check(&GOOD.replace(r#""kind": "uniform""#, r#""kind": "zipf", "s": 1.1"#)).problems, vec![]);
    }

    /// A value naming no variant inside a tagged enum is reported at its member, not at the enum.
    #[test]
    fn an_unknown_variant_is_named_at_its_member() {
        let bad = GOOD.replace(r#""target": {"kind": "anon", "pages": 100}"#, r#""target": {"kind": "file", "pages": 100, "op": "bogus"}"#);
        let c = check(&bad);
        assert_eq!(fields(&c), ["workloads[0].target.op"], "{:?}", c.problems);
        assert_eq!(c.problems[0].message, r#""bogus" is not one of "read", "write", "mmapRead", "mmapWrite""#, "{:?}", c.problems);
    }

    /// The machine's storage: a name that is not one, or a number where the name belongs, is named at its field with the names it takes.
    #[test]
    fn a_storage_that_is_not_a_name_lists_the_names() {
        let with = |storage: &str| GOOD.replacen('{', &format!(r#"{{"machine": {{"storage": {storage}}}, "#), 1);
        assert_eq!(check(&with(r#""hdd""#)).problems, vec![]);
        for storage in [r#""floppy""#, "3", "[]"] {
            let c = check(&with(storage));
            assert_eq!(fields(&c), ["machine.storage"], "{storage}: {:?}", c.problems);
            assert_eq!(c.problems[0].message, format!(r#"{storage} is not one of "ssd", "ramdisk", "hdd""#), "{storage}");
        }
        // serde reads a one-member object as a name and its value: the member's name is the one refused.
        let c = check(&with(r#"{"kind": "hdd"}"#));
        assert_eq!(fields(&c), ["machine.storage"], "{:?}", c.problems);
        assert_eq!(c.problems[0].message, r#""kind" is not one of "ssd", "ramdisk", "hdd""#);
        // null is the default, as for the other optional fields.
        let c = check(&with("null"));
        assert_eq!(c, ScenarioCheck { readable: true, problems: vec![], notes: vec![] });
        assert_eq!(parse(&with("null")).unwrap().machine.storage, crate::mm::machine::Storage::Ssd);
        // A value spread over lines is shown on one.
        let c = check(&with("[\n  1,\n  2\n]"));
        assert_eq!(c.problems[0].message, r#"[ 1, 2 ] is not one of "ssd", "ramdisk", "hdd""#);
        // A name where the machine's object belongs.
        let c = check(&GOOD.replacen('{', r#"{"machine": "hdd", "#, 1));
        assert_eq!(fields(&c), ["machine"], "{:?}", c.problems);
        assert_eq!(c.problems[0].message, r#""hdd" is not an object: this field is an object of its own fields (docs/scenario-files.md lists them)"#);
        // Broken JSON is still broken JSON.
        let c = check(&with("3,,"));
        assert_eq!(fields(&c), [FILE_FIELD], "{:?}", c.problems);
    }

    /// A memcg whose parent is missing is told whether the parent comes later or is not there at all.
    #[test]
    fn a_missing_parent_is_named_as_missing_or_late() {
        let message = |memcgs: &str| {
            let c = check(&GOOD.replace(r#"[{"path": "/a", "memoryMax": 1024}]"#, memcgs));
            c.problems.iter().map(|p| format!("{}: {}", p.field, p.message)).collect::<Vec<_>>()
        };
        assert_eq!(
            message(r#"[{"path": "/a"}, {"path": "/nope/b"}]"#),
            [r#"memcgs[1].path: parent "/nope" of "/nope/b" is not defined: list it before its children"#]
        );
        assert_eq!(
            message(r#"[{"path": "/a/b"}, {"path": "/a"}]"#),
            [r#"memcgs[0].path: parent "/a" of "/a/b" is listed after it: list a parent before its children"#]
        );
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
    fn messages_give_the_accepted_values_in_words() {
        let bad = GOOD
            .replace("\"memcgs\"", "\"knobs\": {\"swappiness\": 300}, \"memcgs\"")
            .replace("\"memcg\": \"/a\",", "\"memcg\": \"/a\", \"startNs\": 3000, \"stopNs\": 1000,");
        let c = check(&bad);
        let messages: Vec<(&str, &str)> = c.problems.iter().map(|p| (p.field.as_str(), p.message.as_str())).collect();
        assert_eq!(
            messages,
            [("knobs.swappiness", "300 is out of range: accepted from 0 to 200"), ("workloads[0].stopNs", "1000 is neither 0 (never) nor after startNs, which is 3000")]
        );
    }

    /// A file that would take more memory than a tab has (many large
    /// targets), or times that would overflow the schedule, is refused with
    /// its field named, before anything is allocated or scheduled.
    #[test]
    fn targets_past_the_total_and_times_past_the_clock_are_refused() {
        let w = |i: usize| format!(r#"{{"name": "w{i}", "memcg": "/a", "pattern": {{"kind": "uniform"}}, "target": {{"kind": "anon", "pages": 16777216}}}}"#);
        let many = (0..3).map(w).collect::<Vec<_>>().join(", ");
        let huge = GOOD.replace(r#"{"name": "w", "memcg": "/a", "pattern": {"kind": "uniform"}, "target": {"kind": "anon", "pages": 100}}"#, &many);
        let c = check(&huge);
        assert_eq!(
            c.problems.iter().map(|p| (p.field.as_str(), p.message.as_str())).collect::<Vec<_>>(),
            [("workloads", "the workloads' targets cover 50331648 pages in all (target.pages; a file shared by workloads counts once); at most 33554432")]
        );
        // Workloads sharing a file share its pages, but each exponent needs a table of its own.
        let z = |i: usize| format!(r#"{{"name": "z{i}", "memcg": "/a", "pattern": {{"kind": "zipf", "s": 0.{}}}, "target": {{"kind": "file", "pages": 16777216, "op": "read", "file": "f"}}}}"#, i + 5);
        let shared = |n: usize| GOOD.replace(r#"{"name": "w", "memcg": "/a", "pattern": {"kind": "uniform"}, "target": {"kind": "anon", "pages": 100}}"#, &(0..n).map(z).collect::<Vec<_>>().join(", "));
        assert_eq!(check(&shared(2)).problems, vec![]);
        assert_eq!(
            check(&shared(3)).problems.iter().map(|p| p.message.as_str()).collect::<Vec<_>>(),
            ["the workloads' zipf patterns need tables over 50331648 pages in all (one per pair of target.pages and pattern.s); at most 33554432"]
        );
        let late = GOOD
            .replace("\"memcg\": \"/a\",", "\"memcg\": \"/a\", \"startNs\": 18446744073709551615,")
            .replace("\"workloads\"", r#""proactive": [{"memcg": "/", "pages": 1, "startNs": 0, "intervalNs": 18446744073709551615, "count": 3}], "workloads""#);
        let c = check(&late);
        assert_eq!(fields(&c), ["workloads[0].startNs", "proactive[0].intervalNs"], "{:?}", c.problems);
        assert!(c.problems[0].message.starts_with("18446744073709551615 is out of range: accepted from 0 to 1000000000000000"), "{:?}", c.problems);
    }

    #[test]
    fn names_the_kernel_refuses_and_a_min_free_kbytes_past_int_are_refused() {
        for (path, bad) in [("/..", "\"..\""), ("/a/.", "\".\""), ("/a\\nb", "\"a\\nb\"")] {
            let c = check(&GOOD.replace("\"/a\", \"memoryMax\"", &format!("\"{path}\", \"memoryMax\"")));
            let problem = c.problems.iter().find(|p| p.field == "memcgs[0].path").unwrap_or_else(|| panic!("{path}: {c:?}"));
            assert!(problem.message.starts_with(&format!("{bad} in ")), "{path}: {}", problem.message);
        }
        let c = check(&GOOD.replace("\"memcgs\"", "\"minFreeKbytes\": 18446744073709551615, \"memcgs\""));
        assert_eq!(
            c.problems.iter().map(|p| (p.field.as_str(), p.message.as_str())).collect::<Vec<_>>(),
            [("minFreeKbytes", "18446744073709551615 is out of range: accepted from 0 to 2147483647 (the sysctl is an int)")]
        );
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
        assert_eq!(fields(&check(&zone_name)), ["nodes[0].zones[0].zone"]);
        let typo = GOOD.replace("\"memoryMax\"", "\"memoryMaxx\"");
        assert_eq!(fields(&check(&typo)), ["memcgs[0].memoryMaxx"]);
        let knob = GOOD.replace("\"memcgs\"", "\"knobs\": {\"memcgLRU\": false}, \"memcgs\"");
        assert_eq!(fields(&check(&knob)), ["knobs.memcgLRU"]);
        // A value of the wrong type names its own field, however deep.
        let rate = GOOD.replace("\"memcg\": \"/a\",", "\"memcg\": \"/a\", \"rate\": \"fast\",");
        assert_eq!(fields(&check(&rate)), ["workloads[0].rate"]);
        let closed = GOOD.replace("\"memcg\": \"/a\",", "\"memcg\": \"/a\", \"closedLoop\": \"yes\",");
        assert_eq!(fields(&check(&closed)), ["workloads[0].closedLoop"]);
        // Inside a tagged enum too (serde reports it at the enum).
        let negative = GOOD.replace("\"kind\": \"anon\", \"pages\": 100", "\"kind\": \"anon\", \"pages\": -5");
        let c = check(&negative);
        assert_eq!(fields(&c), ["workloads[0].target.pages"]);
        // With the range the field accepts, not the one its type holds.
        assert_eq!(c.problems[0].message, "-5 is not a whole number from 1 to 16777216");
        let huge = GOOD.replace("\"zone\": \"Normal\", \"pages\": 4096", "\"zone\": \"Normal\", \"pages\": 4294967296");
        assert_eq!(check(&huge).problems[0].message, "4294967296 is not a whole number from 64 to 16777216");
        let quoted = GOOD.replace("\"zone\": \"Normal\", \"pages\": 4096", "\"zone\": \"Normal\", \"pages\": \"4096\"");
        assert_eq!(check(&quoted).problems[0].message, "\"4096\" is not a whole number from 64 to 16777216");
        // null is no number either, and the message gives the range the field accepts.
        let null_rate = GOOD.replace("\"memcg\": \"/a\",", "\"memcg\": \"/a\", \"rate\": null,");
        assert_eq!(check(&null_rate).problems[0].message, "null is not a whole number from 0 to 1000000000 accesses per second");
        // A field that accepts 0 has its upper bound found all the same, in a 32-bit field too.
        for (from, to, field, message) in [
            ("\"memcgs\"", "\"knobs\": {\"swappiness\": -1}, \"memcgs\"", "knobs.swappiness", "-1 is not a whole number from 0 to 200"),
            ("\"kind\": \"anon\", \"pages\": 100", "\"kind\": \"anon\", \"pages\": 100, \"writePercent\": 0.5", "workloads[0].target.writePercent", "0.5 is not a whole number from 0 to 100"),
            ("\"memcgs\"", "\"swapPages\": -1, \"memcgs\"", "swapPages", "-1 is not a whole number from 0 to 16777216"),
        ] {
            let c = check(&GOOD.replace(from, to));
            assert_eq!((fields(&c), c.problems[0].message.as_str()), (vec![field], message));
        }
        assert_eq!(check("  ").problems[0].message, "the file is empty: a scenario file is a JSON object");
        // A fraction's field is "a number", not "a whole number".
        let zipf = GOOD.replace("{\"kind\": \"uniform\"}", "{\"kind\": \"zipf\", \"s\": \"x\"}");
        assert_eq!(check(&zipf).problems[0].message, "\"x\" is not a number from 0 to 5 (0 excluded)");
        let fraction = GOOD.replace("\"kind\": \"anon\", \"pages\": 100", "\"kind\": \"anon\", \"pages\": 1.5");
        assert_eq!(fields(&check(&fraction)), ["workloads[0].target.pages"]);
        let text = GOOD.replace("\"kind\": \"anon\", \"pages\": 100", "\"kind\": \"anon\", \"pages\": \"many\"");
        assert_eq!(fields(&check(&text)), ["workloads[0].target.pages"]);
        assert_eq!(fields(&check(&format!("{GOOD} trailing"))), [FILE_FIELD]);
        // The version: the one this build reads, not a range.
        for bad in ["1.0", "true", "-1"] {
            let c = check(&GOOD.replace("\"version\": 1", &format!("\"version\": {bad}")));
            assert_eq!((fields(&c), c.problems[0].message.as_str()), (vec!["version"], format!("{bad} is not a version of the format: this build reads version 1").as_str()));
        }
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
