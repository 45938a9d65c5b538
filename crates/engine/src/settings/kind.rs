//! What a setting holds: a switch, one of named values, or a number with its unit, range, step
//! and scale (a duration and a byte size are numbers with a unit that the file writes as text).

use crate::float_text::shortest;

/// How a control moves between a number's ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Evenly.
    Linear,
    /// By factors (for a range that spans orders of magnitude).
    Log,
}

/// A number's unit, as the settings file and `--set` write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A count or a plain number.
    Plain,
    /// A number of milliseconds written as a number (`get_ms = 2.0`).
    Millis,
    /// A number of seconds written as a number (`event_fresh_duration_s = 75.0`).
    Seconds,
    /// Per second (`qps = 20.0`).
    PerSecond,
    /// Percent (`gogc = 100`).
    Percent,
    /// A fraction from 0 to 1.
    Fraction,
    /// A duration written with its unit (`200ms`, `5m`); the range is in milliseconds.
    Duration,
    /// A byte size written with its unit (`4Ki`, `2Gi`); the range is in bytes.
    Bytes,
}

/// A number's range, step and scale, in its unit (milliseconds for a duration, bytes for a size).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number {
    /// The unit.
    pub unit: Unit,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// What one press of an arrow key adds.
    pub step: f64,
    /// How a slider spreads the range.
    pub scale: Scale,
}

/// One named value of a choice: its name in the file, and what it means in each language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The name as written in the file (`field_index`).
    pub name: &'static str,
    /// What it means, in English.
    pub en: &'static str,
    /// What it means, in Chinese.
    pub zh: &'static str,
}

/// What a setting holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// `true` or `false`.
    Bool,
    /// One of named values.
    Choice(&'static [Choice]),
    /// A list of named values, each at most once (`predicates = ["generation_changed"]`).
    ChoiceList(&'static [Choice]),
    /// A number.
    Number(Number),
}

impl Kind {
    /// What the setting accepts, in words: `true or false`, `one of a, b`, `a number from 1 to
    /// 1000`, `a duration from 0s to 1s`.
    pub fn accepts(&self) -> String {
        match self {
            Kind::Bool => "true or false".to_owned(),
            Kind::Choice(choices) => format!("one of {}", names(choices)),
            Kind::ChoiceList(choices) => format!("a list of {}", names(choices)),
            Kind::Number(n) => n.accepts(),
        }
    }
}

fn names(choices: &[Choice]) -> String {
    choices
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Number {
    /// Whether the number is whole (its step is).
    pub fn is_whole(&self) -> bool {
        self.step.fract() == 0.0 && !matches!(self.unit, Unit::Duration | Unit::Bytes)
    }

    /// Whether `v` (in the number's unit) lies in the range.
    pub fn contains(&self, v: f64) -> bool {
        v >= self.min && v <= self.max
    }

    /// `v` as the file writes it: `200ms`, `4Ki`, `20`.
    pub fn show(&self, v: f64) -> String {
        use crate::scenario::units::{format_bytes, format_duration};
        match self.unit {
            Unit::Duration => format_duration(std::time::Duration::from_secs_f64(v.max(0.0) / 1e3)),
            Unit::Bytes => format_bytes(v.max(0.0) as u64),
            _ => crate::scenario::messages::show_number(v),
        }
    }

    /// Reads `text` as the file writes it (`200ms`, `4Ki`, `20`) into the number's unit
    /// (milliseconds for a duration, bytes for a size); `None` when it is not such a value.
    pub fn parse(&self, text: &str) -> Option<f64> {
        use crate::scenario::units::{parse_bytes, parse_duration};
        let text = text.trim().trim_matches('"');
        let v = match self.unit {
            Unit::Duration => parse_duration(text).ok()?.as_secs_f64() * 1e3,
            Unit::Bytes => parse_bytes(text).ok()? as f64,
            _ => text.parse::<f64>().ok()?,
        };
        v.is_finite().then_some(v)
    }

    /// `v` as `--set` takes it: a size exactly (`1700Mi`), a duration or a size quoted as text
    /// bare (`200ms`), a whole number without a fraction.
    pub fn write(&self, v: f64) -> String {
        if self.unit == Unit::Bytes {
            return crate::scenario::units::exact_bytes(v.max(0.0).round() as u64);
        }
        if self.is_whole() {
            return shortest(v.round());
        }
        let shown = self.show(v);
        // a zero duration is shown bare (`0`), which the file reads as a number, not a duration
        if self.unit == Unit::Duration && shown.chars().all(|c| c.is_ascii_digit() || c == '.') {
            format!("{shown}s")
        } else {
            shown
        }
    }

    /// The range in words.
    pub fn accepts(&self) -> String {
        let what = match self.unit {
            Unit::Duration => "a duration such as 200ms or 5m",
            Unit::Bytes => "a size such as 64Ki or 2Gi",
            _ if self.is_whole() => "a whole number",
            _ => "a number",
        };
        format!(
            "{what}, from {} to {}",
            self.show(self.min),
            self.show(self.max)
        )
    }
}
