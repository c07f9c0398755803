//! serde reads a struct from a JSON array of its fields' values in order as
//! well as from an object (`"knobs": [false]` sets the first switch), so a
//! list where an object belongs would run a scenario nobody wrote. This
//! check finds one before serde reads the file.
use super::ScenarioError;
use serde_json::Value;

/// The scenario file's lists: each holds objects, one an entry.
const LISTS: [&str; 4] = ["nodes", "memcgs", "workloads", "proactive"];

/// The objects a scenario file holds, by the path of their parent and
/// their key; what a list item holds is checked item by item.
const OBJECTS: [&str; 2] = ["knobs", "machine"];
const ITEM_OBJECTS: [&str; 2] = ["target", "pattern"];

/// The first object of the file written as a list (a JSON array), as a
/// problem at its path; None when every object is an object (or the file is
/// no JSON at all, which serde then reports).
pub(super) fn list_for_an_object(text: &str) -> Option<ScenarioError> {
    let doc: Value = serde_json::from_str(text).ok()?;
    let top = doc.as_object()?;
    let list = |path: String, value: &Value| value.is_array().then(|| not_a_list(&path));
    for key in OBJECTS {
        if let Some(e) = top.get(key).and_then(|v| list(key.to_string(), v)) {
            return Some(e);
        }
    }
    for key in LISTS {
        let Some(items) = top.get(key).and_then(Value::as_array) else { continue };
        for (i, item) in items.iter().enumerate() {
            let at = format!("{key}[{i}]");
            if let Some(e) = list(at.clone(), item) {
                return Some(e);
            }
            let Some(fields) = item.as_object() else { continue };
            for inner in ITEM_OBJECTS {
                if let Some(e) = fields.get(inner).and_then(|v| list(format!("{at}.{inner}"), v)) {
                    return Some(e);
                }
            }
            // A node's zones: a list of objects in a list item.
            if let Some(zones) = fields.get("zones").and_then(Value::as_array) {
                if let Some(e) = zones.iter().enumerate().find_map(|(j, z)| list(format!("{at}.zones[{j}]"), z)) {
                    return Some(e);
                }
            }
        }
    }
    None
}

fn not_a_list(path: &str) -> ScenarioError {
    ScenarioError::new(path, "a list ([...]) where an object ({...}) belongs: give its fields by name (reclaim-sim scenario NAME prints an example)")
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"{"version": 1, "nodes": [{"zones": [{"zone": "Normal", "pages": 4096}]}], "memcgs": [{"path": "/a"}],
        "workloads": [{"name": "w", "memcg": "/a", "pattern": {"kind": "uniform"}, "target": {"kind": "anon", "pages": 100}}],
        "knobs": {"swappiness": 60}, "machine": {"storage": "ssd"}}"#;

    fn at(doc: &str) -> Option<String> {
        list_for_an_object(doc).map(|e| e.field)
    }

    #[test]
    fn finds_an_object_written_as_a_list_wherever_it_is() {
        assert_eq!(at(DOC), None);
        assert_eq!(at(&DOC.replace(r#"{"swappiness": 60}"#, "[false]")).as_deref(), Some("knobs"));
        assert_eq!(at(&DOC.replace(r#"{"storage": "ssd"}"#, r#"["hdd"]"#)).as_deref(), Some("machine"));
        assert_eq!(at(&DOC.replace(r#"{"zone": "Normal", "pages": 4096}"#, r#"["Normal", 4096]"#)).as_deref(), Some("nodes[0].zones[0]"));
        assert_eq!(at(&DOC.replace(r#"{"zone": "Normal", "pages": 4096}"#, "[]")).as_deref(), Some("nodes[0].zones[0]"));
        assert_eq!(at(&DOC.replace(r#"{"path": "/a"}"#, r#"["/a", 2048]"#)).as_deref(), Some("memcgs[0]"));
        assert_eq!(at(&DOC.replace(r#"{"kind": "anon", "pages": 100}"#, "[1, 2]")).as_deref(), Some("workloads[0].target"));
        assert_eq!(at(&DOC.replace(r#"{"kind": "uniform"}"#, r#"["uniform"]"#)).as_deref(), Some("workloads[0].pattern"));
        // Not JSON, or not an object: serde says what is wrong.
        assert_eq!(at("{ nope"), None);
        assert_eq!(at("[1]"), None);
    }
}
