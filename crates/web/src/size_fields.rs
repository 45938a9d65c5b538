//! The "size it" panel's fields as typed, and the engine's [`SizeInput`] read from them: an empty
//! field keeps the family's value; a field that is not a number is refused here, a number the
//! engine refuses is refused by its validation, each on its own field.

use flywheel_engine::scenario::units::parse_bytes;
use flywheel_engine::sizing::{Family, KindCount, SizeError, SizeInput};
use flywheel_engine::vec_map::VecMap;

use crate::i18n::Msg;

/// A field of the panel: its id, its label, and the settings path it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The input's id.
    pub id: &'static str,
    /// Its label.
    pub label: Msg,
    /// The settings path whose value it changes (the placeholder shows the family's).
    pub path: &'static str,
    /// What it holds.
    pub holds: Holds,
}

/// What a field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holds {
    /// A whole number.
    Whole,
    /// A size (`16Ki`, `2Gi`, bytes).
    Size,
    /// A number.
    Number,
}

/// The panel's fields, in order.
pub const FIELDS: [Field; 8] = [
    field(
        "size-custom-count",
        Msg::SizeCustomCount,
        "objects.count",
        Holds::Whole,
    ),
    field(
        "size-custom-size",
        Msg::SizeCustomSize,
        "objects.size_bytes",
        Holds::Size,
    ),
    field(
        "size-pod-count",
        Msg::SizePodCount,
        "pods.count",
        Holds::Whole,
    ),
    field(
        "size-pod-size",
        Msg::SizePodSize,
        "pods.size_bytes",
        Holds::Size,
    ),
    field(
        "size-namespaces",
        Msg::SizeNamespaces,
        "objects.namespaces",
        Holds::Whole,
    ),
    field(
        "size-workers",
        Msg::SizeWorkers,
        "controller.workers",
        Holds::Whole,
    ),
    field("size-qps", Msg::SizeQps, "client.qps", Holds::Number),
    field(
        "size-limit",
        Msg::SizeLimit,
        "process.memory_limit",
        Holds::Size,
    ),
];

const fn field(id: &'static str, label: Msg, path: &'static str, holds: Holds) -> Field {
    Field {
        id,
        label,
        path,
        holds,
    }
}

/// A field refused: its id and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The field's id.
    pub id: &'static str,
    /// Why, in the page's words.
    pub why: Option<Msg>,
    /// Why, in the engine's words (its validation message).
    pub engine: Option<String>,
}

/// A typed value: `None` when empty.
fn read(text: &str, holds: Holds) -> Result<Option<f64>, Msg> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match holds {
        Holds::Whole => text
            .parse::<u32>()
            .map(f64::from)
            .map_err(|_| Msg::SizeNotWhole),
        Holds::Size => parse_bytes(text)
            .map(|b| b as f64)
            .map_err(|_| Msg::SizeNotSize),
        Holds::Number => text.parse::<f64>().map_err(|_| Msg::SizeNotNumber),
    }
    .map(Some)
}

/// The family's value of a field's `path`, from the preset's settings as `--set` writes them.
pub fn preset_value(settings: &VecMap<&'static str, String>, path: &str) -> f64 {
    let holds = FIELDS
        .iter()
        .find(|f| f.path == path)
        .map_or(Holds::Number, |f| f.holds);
    settings
        .get(path)
        .and_then(|raw| read(raw, holds).ok().flatten())
        .unwrap_or(0.0)
}

/// Reads the fields (`typed[i]` for `FIELDS[i]`) into the engine's input; `family` gives the
/// value of an empty half of a kind (`count` or `size`).
pub fn input_of(
    family: Family,
    typed: &[String],
    defaults: &dyn Fn(&str) -> f64,
) -> Result<SizeInput, FieldError> {
    let mut v = [None; 8];
    for (i, f) in FIELDS.iter().enumerate() {
        let text = typed.get(i).map_or("", String::as_str);
        v[i] = read(text, f.holds).map_err(|why| FieldError {
            id: f.id,
            why: Some(why),
            engine: None,
        })?;
    }
    let kind = |count: Option<f64>, size: Option<f64>, at: usize| {
        (count.is_some() || size.is_some()).then(|| KindCount {
            objects: count.unwrap_or_else(|| defaults(FIELDS[at].path)) as u32,
            size_bytes: size.unwrap_or_else(|| defaults(FIELDS[at + 1].path)) as u64,
        })
    };
    let mut input = SizeInput::new(family);
    input.custom = kind(v[0], v[1], 0);
    input.pods = kind(v[2], v[3], 2);
    input.namespaces = v[4].map(|n| n as u32);
    input.workers = v[5].map(|n| n as u32);
    input.qps = v[6];
    input.memory_limit_bytes = v[7].map(|b| b as u64);
    Ok(input)
}

/// The field the engine's refusal belongs to: the one writing its path, else the input's first.
pub fn field_of(e: &SizeError) -> FieldError {
    let by_path = FIELDS.iter().find(|f| f.path == e.error.field);
    let by_input = FIELDS.iter().find(|f| match e.input {
        "objects" => f.path.starts_with("objects.count"),
        "namespaces" => f.path == "objects.namespaces",
        "workers" => f.path == "controller.workers",
        "qps" => f.path == "client.qps",
        "limit" => f.path == "process.memory_limit",
        _ => false,
    });
    FieldError {
        id: by_path.or(by_input).map_or("size-custom-count", |f| f.id),
        why: None,
        engine: Some(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(pairs: &[(usize, &str)]) -> Vec<String> {
        let mut t = vec![String::new(); FIELDS.len()];
        for (i, s) in pairs {
            t[*i] = (*s).to_owned();
        }
        t
    }

    #[test]
    fn empty_fields_keep_the_familys_values_and_a_half_kind_takes_the_other_half_from_it() {
        let defaults = |path: &str| {
            if path == "pods.size_bytes" {
                8192.0
            } else {
                0.0
            }
        };
        let input = input_of(
            Family::Incident,
            &typed(&[(2, "20000"), (7, "2Gi")]),
            &defaults,
        )
        .expect("reads");
        assert_eq!(input.custom, None);
        assert_eq!(
            input.pods,
            Some(KindCount {
                objects: 20000,
                size_bytes: 8192
            })
        );
        assert_eq!(input.memory_limit_bytes, Some(2 << 30));
        assert_eq!(input.workers, None);
    }

    #[test]
    fn a_field_that_is_not_a_number_is_refused_on_that_field() {
        let e = input_of(Family::Incident, &typed(&[(3, "lots")]), &|_| 0.0).expect_err("refused");
        assert_eq!(e.id, "size-pod-size");
        assert_eq!(e.why, Some(Msg::SizeNotSize));
    }

    #[test]
    fn the_engines_refusal_lands_on_the_field_that_wrote_the_path() {
        let mut input = SizeInput::new(Family::ListFullScan);
        input.workers = Some(0);
        let e = flywheel_engine::sizing::build(&input).expect_err("the engine refuses 0 workers");
        let f = field_of(&e);
        assert_eq!(f.id, "size-workers");
        assert!(f.engine.is_some_and(|m| m.contains("controller.workers")));
    }
}
