//! What each numeric setting accepts, in one table: validation checks a value against it, and a
//! value of the wrong type (`-1` for a count, `1.5` workers, `1e30` bytes) is answered with the
//! same words, in the units a scenario file uses.

use super::units::format_bytes;
use super::workload::MAX_PODS;
use super::{ScenarioError, MAX_OBJECTS, MAX_WORKERS};

/// What a setting accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accepts {
    /// A whole number in `lo..=hi`.
    Whole(u64, u64),
    /// A byte size in `lo..=hi`, written as a number or with a unit (`64Ki`, `2Gi`).
    Size(u64, u64),
    /// A number described in words (the validator checks it).
    Number(&'static str),
}

const MI: u64 = 1024 * 1024;
const GI: u64 = 1024 * MI;

/// Every setting whose range does not depend on another setting, by field path (list indices
/// left out: `actions.count` is every action's `count`).
pub static FIELDS: &[(&str, Accepts)] = &[
    ("seed", Accepts::Whole(0, u64::MAX)),
    ("objects.count", Accepts::Whole(0, MAX_OBJECTS as u64)),
    ("objects.namespaces", Accepts::Whole(1, 10_000)),
    ("objects.size_bytes", Accepts::Size(256, 16 * MI)),
    ("controller.workers", Accepts::Whole(1, MAX_WORKERS as u64)),
    ("client.qps", Accepts::Number(QPS)),
    ("client.burst", Accepts::Whole(1, 10_000_000)),
    ("apiserver.seats", Accepts::Whole(1, 100_000)),
    ("apiserver.queue_capacity", Accepts::Whole(0, 1_000_000)),
    (
        "apiserver.max_requests_in_flight",
        Accepts::Whole(1, 100_000),
    ),
    (
        "apiserver.max_mutating_requests_in_flight",
        Accepts::Whole(1, 100_000),
    ),
    ("apiserver.etcd_writes_per_second", Accepts::Number(ETCD)),
    ("process.gogc", Accepts::Whole(0, 10_000)),
    ("process.memory_limit", Accepts::Size(16 * MI, 1024 * GI)),
    ("process.gomemlimit", Accepts::Size(MI, 1024 * GI)),
    ("process.baseline", Accepts::Size(0, 4 * GI)),
    ("actions.count", Accepts::Whole(0, MAX_OBJECTS as u64)),
    ("actions.memory_limit", Accepts::Size(16 * MI, 1024 * GI)),
    ("pods.count", Accepts::Whole(0, MAX_PODS as u64)),
    ("pods.namespaces", Accepts::Whole(1, 10_000)),
    ("pods.per_object", Accepts::Whole(0, 100)),
    ("pods.size_bytes", Accepts::Size(256, 2 * MI)),
    ("nodes.count", Accepts::Whole(0, 1_000)),
    ("nodes.memory_capacity", Accepts::Size(256 * MI, 4096 * GI)),
];

/// What `client.qps` accepts.
pub const QPS: &str =
    "a number from 0.001 to 1000000 (0: the default 5; negative turns the limiter off)";
/// What `apiserver.etcd_writes_per_second` accepts: one write in 1000 s is the slowest etcd the
/// engine models (a longer wait than a week-long run is no limit worth stating).
pub const ETCD: &str = "0 (unlimited) or a number from 0.001 to 10000000";

impl Accepts {
    /// The words after "must be", e.g. `a whole number from 1 to 1000`.
    pub fn words(self) -> String {
        match self {
            Accepts::Whole(lo, u64::MAX) => format!("a whole number of at least {lo}"),
            Accepts::Whole(lo, hi) => format!("a whole number from {lo} to {hi}"),
            Accepts::Size(0, hi) => {
                format!("a size such as 64Ki or 2Gi, at most {}", format_bytes(hi))
            }
            Accepts::Size(lo, hi) => format!(
                "a size such as 64Ki or 2Gi, from {} to {}",
                format_bytes(lo),
                format_bytes(hi)
            ),
            Accepts::Number(words) => words.to_owned(),
        }
    }

    /// Whether the whole number or size `v` is in range.
    fn contains(self, v: u64) -> bool {
        match self {
            Accepts::Whole(lo, hi) | Accepts::Size(lo, hi) => (lo..=hi).contains(&v),
            Accepts::Number(_) => true,
        }
    }
}

/// `field` without list indices (`actions[2].count` → `actions.count`).
fn table_key(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut in_index = false;
    for c in field.chars() {
        match c {
            '[' => in_index = true,
            ']' => in_index = false,
            c if !in_index => out.push(c),
            _ => {}
        }
    }
    out
}

/// What `field` accepts, when the table has it.
pub fn accepts(field: &str) -> Option<Accepts> {
    let key = table_key(field);
    FIELDS.iter().find(|(f, _)| *f == key).map(|(_, a)| *a)
}

/// The error for `field` with the value `got` (as the user would write it).
pub fn out_of_range(field: &str, got: impl std::fmt::Display) -> ScenarioError {
    let words = accepts(field).map_or_else(|| "in range".to_owned(), Accepts::words);
    ScenarioError {
        field: field.to_owned(),
        message: format!("must be {words} (got {got})"),
    }
}

/// Checks a whole number against the table.
pub fn check_whole(field: &str, v: u64) -> Result<(), ScenarioError> {
    match accepts(field) {
        Some(a) if !a.contains(v) => Err(out_of_range(field, v)),
        _ => Ok(()),
    }
}

/// Checks a byte size against the table; the error shows it with a unit (`32Gi`).
pub fn check_size(field: &str, v: u64) -> Result<(), ScenarioError> {
    match accepts(field) {
        Some(a) if !a.contains(v) => Err(out_of_range(field, format_bytes(v))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_indices_do_not_change_what_a_field_accepts() {
        assert_eq!(accepts("actions[3].count"), accepts("actions.count"));
        assert_eq!(accepts("controller.workers"), Some(Accepts::Whole(1, 1000)));
        assert_eq!(accepts("controller.nope"), None);
    }

    #[test]
    fn a_size_out_of_range_is_shown_with_its_unit() {
        let e = check_size("objects.size_bytes", 32 * GI).expect_err("too big");
        assert_eq!(
            e.message,
            "must be a size such as 64Ki or 2Gi, from 256 to 16Mi (got 32Gi)"
        );
        assert!(check_size("objects.size_bytes", 4096).is_ok());
    }
}
