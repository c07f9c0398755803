//! A scenario file's names (`"storage": "hdd"`, a pattern's `"kind"`, a
//! target's `"op"`) in the words of the other problems: serde's "unknown
//! variant `floppy`, expected one of `ssd`, `ramdisk`, `hdd`" becomes
//! "\"floppy\" is not one of \"ssd\", \"ramdisk\", \"hdd\"", and a number or an
//! object where a name belongs, which serde_json reports as broken JSON
//! ("expected value at line 31 column 16"), becomes the same at its field.
use super::Scenario;

/// The names serde listed in an "unknown variant" message, in order; None
/// for any other message (or an enum with no variants).
fn known_names(message: &str) -> Option<Vec<&str>> {
    let rest = message.strip_prefix("unknown variant `")?;
    let (_, tail) = rest.split_once('`')?;
    let tail = tail.strip_prefix(", expected ")?;
    let names: Vec<&str> = tail.split('`').skip(1).step_by(2).collect();
    (!names.is_empty()).then_some(names)
}

/// "X is not one of "a", "b"" (or "is not "a"" for an enum of one name).
fn not_one_of(value: &str, names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| serde_json::Value::from(*n).to_string()).collect();
    match quoted.as_slice() {
        [one] => format!("{value} is not {one}"),
        _ => format!("{value} is not one of {}", quoted.join(", ")),
    }
}

/// serde's "unknown variant `x`, expected ..." in words; None for other messages.
pub(super) fn unknown_name_message(message: &str) -> Option<String> {
    let names = known_names(message)?;
    let (name, _) = message.strip_prefix("unknown variant `")?.split_once('`')?;
    Some(not_one_of(&serde_json::Value::from(name).to_string(), &names))
}

/// serde_json reads an enum of names only from a string (or a one-member
/// object) and answers anything else, a number say, with "expected value"
/// at the value, a syntax error although the JSON is sound. When `text` is
/// sound JSON and its value at `line`:`column` (serde_json's 1-based
/// position of the error) is not a string, what it is and the names the
/// field takes: found by putting an unknown name in its place and reading
/// serde's list.
pub(super) fn not_a_name_message(text: &str, line: usize, column: usize) -> Option<String> {
    serde_json::from_str::<serde::de::IgnoredAny>(text).ok()?;
    let start = text.split_inclusive('\n').take(line - 1).map(str::len).sum::<usize>() + column.checked_sub(1)?;
    let rest = text.get(start..)?;
    let mut values = serde_json::Deserializer::from_str(rest).into_iter::<serde::de::IgnoredAny>();
    values.next()?.ok()?;
    let end = start + values.byte_offset();
    let value = text[start..end].trim();
    if value.starts_with('"') {
        return None;
    }
    // One line, however the file spreads the value out.
    let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
    let probe = format!("{}\"\\u0000\"{}", &text[..start], &text[end..]);
    let mut de = serde_json::Deserializer::from_str(&probe);
    let err = serde_path_to_error::deserialize::<_, Scenario>(&mut de).err()?;
    let names_message = err.into_inner().to_string();
    let names = known_names(&names_message)?;
    let shown: String = if value.chars().count() > 40 { format!("{}…", value.chars().take(40).collect::<String>()) } else { value };
    Some(not_one_of(&shown, &names))
}

/// serde's "invalid type: string \"hdd\", expected struct Machine" (a
/// value where an object of fields belongs) in words, with the value as
/// [`bad_value`](super::check) found it; None for other messages.
pub(super) fn not_an_object_message(message: &str, value: Option<&str>) -> Option<String> {
    let (what, expected) = message.rsplit_once(", expected ")?;
    if !expected.starts_with("struct ") || !what.starts_with("invalid type: ") {
        return None;
    }
    let shown = value.map_or_else(|| what.trim_start_matches("invalid type: ").to_string(), str::to_string);
    Some(format!("{shown} is not an object: this field is an object of its own fields (docs/scenario-files.md lists them)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_lists_become_words() {
        assert_eq!(
            unknown_name_message("unknown variant `floppy`, expected one of `ssd`, `ramdisk`, `hdd`").as_deref(),
            Some(r#""floppy" is not one of "ssd", "ramdisk", "hdd""#)
        );
        assert_eq!(unknown_name_message("unknown variant `x`, expected `a` or `b`").as_deref(), Some(r#""x" is not one of "a", "b""#));
        assert_eq!(unknown_name_message("unknown variant `x`, expected `a`").as_deref(), Some(r#""x" is not "a""#));
        assert_eq!(unknown_name_message("unknown variant `x`, there are no variants"), None);
        assert_eq!(unknown_name_message("missing field `pages`"), None);
    }
}
