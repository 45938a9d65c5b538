//! Errors in the user's words. The parser's messages about a value of the wrong type ("invalid
//! type: floating point `1.5`, expected u32") are rewritten to say what the field accepts, in
//! the units a scenario file uses, and to show the value as the user wrote it:
//! `must be a whole number from 1 to 1000 (got 1.5)`.

use super::bounds;
use crate::float_text::{shortest, Sci};

/// What the parser calls a type, in the words of a scenario file.
fn expected_words(expected: &str) -> String {
    let words = match expected {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number of at least 0",
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        "a boolean" => "true or false",
        "a string" | "a borrowed string" => "text in quotes",
        "a sequence" => "a list",
        "a map" => "a table",
        e if e.starts_with("struct ") => "a table",
        e if e.starts_with("enum ") || e.starts_with("variant identifier") => "one of its names",
        e if e.starts_with("tuple") => "a list",
        e if e.starts_with("option") || e.starts_with("an option") => "a value",
        other => return strip_quotes(other),
    };
    words.to_owned()
}

/// The parser's description of the value it got, as the value itself where it names one.
fn unexpected_words(unexpected: &str) -> String {
    for prefix in [
        "integer ",
        "floating point ",
        "boolean ",
        "string ",
        "character ",
    ] {
        if let Some(v) = unexpected.strip_prefix(prefix) {
            return strip_quotes(v);
        }
    }
    match unexpected {
        "sequence" => "a list".to_owned(),
        "map" => "a table".to_owned(),
        other => strip_quotes(other),
    }
}

fn strip_quotes(text: &str) -> String {
    let t = text.trim();
    let inner = t
        .strip_prefix('`')
        .and_then(|t| t.strip_suffix('`'))
        .or_else(|| t.strip_prefix('"').and_then(|t| t.strip_suffix('"')));
    inner.unwrap_or(t).replace('`', "")
}

/// Splits "invalid type: X, expected Y" / "invalid value: X, expected Y" into `(X, Y)`.
fn type_error(message: &str) -> Option<(&str, &str)> {
    let rest = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))?;
    rest.rsplit_once(", expected ")
}

/// "unknown variant `x`, expected one of `a`, `b`" as `must be one of a, b (got x)`.
fn unknown_variant(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown variant ")?;
    let (got, allowed) = rest.rsplit_once(", expected ")?;
    let allowed = allowed.strip_prefix("one of ").unwrap_or(allowed);
    Some(format!(
        "must be one of {} (got {})",
        strip_quotes(allowed),
        strip_quotes(got)
    ))
}

/// The parser's `message` about `field` in the user's words; `got` is the value as the user
/// wrote it, when known.
pub fn in_user_words(field: &str, message: &str, got: Option<String>) -> String {
    let accepts = bounds::accepts(field).map(bounds::Accepts::words);
    if let Some((unexpected, expected)) = type_error(message) {
        let what = accepts.unwrap_or_else(|| expected_words(expected));
        let got = got.unwrap_or_else(|| unexpected_words(unexpected));
        return format!("must be {what} (got {got})");
    }
    if message.starts_with("data did not match any variant") {
        let what = accepts.unwrap_or_else(|| "one of the forms this setting takes".to_owned());
        let got = got.map_or_else(String::new, |g| format!(" (got {g})"));
        return format!("must be {what}{got}");
    }
    if let Some(m) = unknown_variant(message) {
        return m;
    }
    message.to_owned()
}

/// `text` with its control characters escaped (`\n`), so a message that shows what the user
/// wrote stays one line.
pub fn escaped(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A number as a user writes it: `1e-300`, `1e30`, `0.5`, `NaN`.
pub fn show_number(v: f64) -> String {
    if v.is_nan() {
        "NaN".to_owned()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else if v != 0.0 && (v.abs() >= 1e15 || v.abs() < 1e-4) {
        Sci(v).to_string()
    } else {
        shortest(v)
    }
}

/// The value at `field` (`actions[0].at`) in a parsed document, as the user would write it.
#[cfg(feature = "toml")]
pub fn value_at(doc: &toml::Table, field: &str) -> Option<String> {
    let mut value: Option<&toml::Value> = None;
    for part in field.split('.') {
        let (name, indices) = part.split_once('[').unwrap_or((part, ""));
        value = Some(match value {
            None => doc.get(name)?,
            Some(v) => v.get(name)?,
        });
        for index in indices.split('[') {
            let i: usize = index.trim_end_matches(']').parse().ok()?;
            value = value?.get(i);
        }
    }
    Some(match value? {
        toml::Value::String(s) => s.clone(),
        toml::Value::Float(f) => show_number(*f),
        toml::Value::Array(_) => "a list".to_owned(),
        toml::Value::Table(_) => "a table".to_owned(),
        other => other.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_type_is_answered_with_what_the_field_accepts() {
        let m = "invalid type: floating point `1.5`, expected u32";
        assert_eq!(
            in_user_words("controller.workers", m, None),
            "must be a whole number from 1 to 1000 (got 1.5)"
        );
        let m = "invalid type: string \"NaN\", expected f64";
        assert_eq!(
            in_user_words("apiserver.latency.get_ms", m, None),
            "must be a number (got NaN)"
        );
    }

    #[test]
    fn an_unknown_name_lists_the_allowed_ones() {
        let m = "unknown variant `fast`, expected `seed` or `modern`";
        assert_eq!(
            in_user_words("profile", m, None),
            "must be one of seed or modern (got fast)"
        );
    }

    #[test]
    fn a_line_break_the_user_wrote_is_shown_escaped() {
        assert_eq!(escaped("a\nb\tc"), "a\\nb\\tc");
    }

    #[test]
    fn numbers_are_shown_as_a_user_writes_them() {
        assert_eq!(show_number(1e-300), "1e-300");
        assert_eq!(show_number(1e30), "1e30");
        assert_eq!(show_number(0.5), "0.5");
        assert_eq!(show_number(f64::NAN), "NaN");
    }
}
