//! The flags `run` and `compare` share, and the `--at T --do ACTION` pairs among them.
//!
//! ```text
//!  --at 3m --do rollout:fixed --at 90s --do kill_operator
//!   │        │                 │         │
//!   └─ pair ─┘                 └─ pair ──┘   each --do takes the --at just before it
//! ```

use std::path::PathBuf;
use std::time::Duration;

use clap::{ArgMatches, Args, ValueEnum};
use flywheel_engine::cluster::intervention::Intervention;
use flywheel_engine::scenario::units::format_duration;
use flywheel_engine::scenario::Profile;

use super::values;

/// Output formats of `run` and `compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned text for people.
    Table,
    /// One JSON object.
    Json,
    /// `metric,value` lines (or the series, one point a line).
    Csv,
    /// Prometheus text exposition format.
    Prom,
}

/// Flags of `run` and `compare`.
#[derive(Clone, Debug, PartialEq, Args)]
pub struct RunFlags {
    /// Override a setting (repeatable), e.g. --set controller.workers=4
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = values::set)]
    pub sets: Vec<(String, String)>,
    /// Simulated time to run, e.g. 90s, 10m, 1h [default: the scenario's]
    #[arg(long, value_name = "D", value_parser = values::run_duration)]
    pub duration: Option<Duration>,
    /// Seed of the random source [default: the scenario's]
    #[arg(long, value_name = "N", value_parser = values::seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// seed | modern [default: the scenario's]
    #[arg(long, value_name = "P", value_parser = values::profile)]
    pub profile: Option<Profile>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write the output to FILE instead of stdout
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also draw the main series as an SVG chart
    #[arg(long, value_name = "FILE.svg", value_parser = values::svg_path)]
    pub plot: Option<PathBuf>,
    /// Also stream every event to FILE as it happens, one a line:
    /// <id> TAB <cause ids|-> TAB <note|-> TAB <trace line>
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Stop after N engine events [default: 2000000000]
    #[arg(long, value_name = "N", value_parser = values::max_events, allow_negative_numbers = true)]
    pub max_events: Option<u64>,
    /// Intervene at simulated time T with the --do after it (repeatable pairs), e.g. --at 3m --do rollout:fixed
    #[arg(long = "at", id = "at", value_name = "T", value_parser = values::instant)]
    pub at: Vec<Duration>,
    /// The action of the --at before it (values below)
    #[arg(long = "do", id = "do", value_name = "ACTION", value_parser = values::action)]
    pub actions: Vec<Intervention>,
    /// The `--at`/`--do` pairs, in the order given (filled by [`RunFlags::pair`]).
    #[arg(skip)]
    pub interventions: Vec<(Duration, Intervention)>,
}

/// `flywheel run`.
#[derive(Clone, Debug, PartialEq, Args)]
pub struct RunArgs {
    /// A preset (see 'flywheel list') or a scenario file
    #[arg(value_name = "PRESET|FILE")]
    pub target: String,
    /// The flags shared with `compare`.
    #[command(flatten)]
    pub flags: RunFlags,
}

/// `flywheel compare`.
#[derive(Clone, Debug, PartialEq, Args)]
pub struct CompareArgs {
    /// The first preset or scenario file
    #[arg(value_name = "A")]
    pub a: String,
    /// The second preset or scenario file
    #[arg(value_name = "B")]
    pub b: String,
    /// The flags shared with `run`.
    #[command(flatten)]
    pub flags: RunFlags,
}

/// One `--at` or `--do`, where it stood on the command line.
enum Word<'a> {
    At(&'a Duration),
    /// The action and its text as written.
    Do(&'a Intervention, String),
}

impl RunFlags {
    /// Pairs each `--do` with the `--at` just before it, using where they stood in `matches`.
    pub fn pair(&mut self, matches: &ArgMatches) -> Result<(), String> {
        let indices = |id: &str| -> Vec<usize> {
            matches
                .indices_of(id)
                .map(Iterator::collect)
                .unwrap_or_default()
        };
        let mut words: Vec<(usize, Word)> = indices("at")
            .into_iter()
            .zip(self.at.iter().map(Word::At))
            .chain(
                indices("do")
                    .into_iter()
                    .zip(self.actions.iter().zip(written(matches, "do")))
                    .map(|(i, (action, text))| (i, Word::Do(action, text))),
            )
            .collect();
        words.sort_by_key(|(i, _)| *i);
        let mut pairs = Vec::new();
        let mut at: Option<Duration> = None;
        for (_, word) in words {
            match (word, at) {
                (Word::At(t), Some(open)) => {
                    return Err(format!(
                        "--at {} needs a --do before the next --at (got --at {})",
                        format_duration(open),
                        format_duration(*t)
                    ))
                }
                (Word::At(t), None) => at = Some(*t),
                (Word::Do(action, _), Some(t)) => {
                    pairs.push((t, action.clone()));
                    at = None;
                }
                (Word::Do(_, v), None) => {
                    return Err(format!(
                        "--do {v} needs an --at before it, e.g. --at 3m --do {v}"
                    ))
                }
            }
        }
        if let Some(t) = at {
            return Err(format!("--at {} needs a --do after it", format_duration(t)));
        }
        self.interventions = pairs;
        Ok(())
    }
}

/// The values of `id` as written on the command line, in order.
fn written(matches: &ArgMatches, id: &str) -> Vec<String> {
    matches
        .get_raw(id)
        .map(|values| values.map(|v| v.to_string_lossy().into_owned()).collect())
        .unwrap_or_default()
}
