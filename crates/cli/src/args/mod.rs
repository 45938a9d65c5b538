//! The command line, declared with clap's derive: `flywheel help <command>`, `--help` per
//! command, suggestions for a mistyped command or flag, and shell completions come from it.
//!
//! ```text
//!  argv ──▶ clap (Cli) ──▶ values.rs checks each flag's value (--set keys by the settings registry)
//!                │
//!                └─▶ run.rs pairs --at/--do ──▶ Command
//! ```
//!
//! Every error is clap's: `error: …` naming the flag and what it accepts, exit status 2.

mod run;
pub(crate) mod size;
pub(crate) mod values;

#[cfg(test)]
mod tests;

use clap::error::ErrorKind;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use flywheel_engine::cluster::intervention::DO_HELP;
use flywheel_engine::settings::SETTINGS;

pub use run::{CompareArgs, Format, RunArgs, RunFlags};
pub use size::SizeArgs;

/// `flywheel`: the Flywheel engine, headless.
#[derive(Debug, Parser)]
#[command(
    name = "flywheel",
    version,
    about = "The Flywheel engine, headless: run, compare and inspect scenarios"
)]
pub struct Cli {
    /// What to do; none prints this help.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// A command.
#[derive(Clone, Debug, PartialEq, Subcommand)]
pub enum Command {
    /// List the presets with their seed group and title
    List,
    /// Run one scenario and print its metrics
    #[command(after_long_help = run_notes())]
    Run(RunArgs),
    /// Run two scenarios and print their metrics side by side
    #[command(after_long_help = run_notes())]
    Compare(CompareArgs),
    /// Print the reconciler's Go source for a scenario
    Code {
        /// A preset (see 'flywheel list') or a scenario file
        #[arg(value_name = "PRESET|FILE")]
        target: String,
    },
    /// Native benchmarks (see BENCHMARKS.md)
    Bench {
        /// Output format
        #[arg(long, value_enum, default_value_t = BenchFormat::Table)]
        format: BenchFormat,
        /// Only these groups of rows (all when absent)
        #[arg(long, value_enum, value_delimiter = ',', value_name = "GROUP")]
        only: Vec<BenchGroup>,
    },
    /// Run random scenarios with invariant checks, or replay one seed
    Swarm(SwarmArgs),
    /// Explain why the reconcile running at an instant ran
    ///
    /// Runs the scenario to --at T and prints the reconcile running then (or the next one): its
    /// merged causes back to their origin, and whether it is self-triggered (a write loop).
    #[command(after_long_help = set_notes())]
    Why(crate::why::WhyArgs),
    /// Run every step of a guided tour headless and print what each reached
    ///
    /// For tour authors: each step's state, what it reached and when, and whether the run shows
    /// its prediction's declared answer.
    Tour(crate::tour::TourArgs),
    /// Run your cluster's numbers in a preset family and print what they cost
    ///
    /// First LIST size and time, informer cache bytes by owner, the relist spike, steady QPS,
    /// peak memory and whether the memory limit is crossed (OOMKilled), measured by running the
    /// engine for a bounded window (incident: 60 s, list-full-scan: 90 s, relist by restart).
    Size(SizeArgs),
    /// Print a shell completion script
    ///
    /// e.g. flywheel completions bash > ~/.local/share/bash-completion/completions/flywheel
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
    /// Print the version
    Version,
}

/// Output formats of `bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchFormat {
    /// Aligned text for people.
    Table,
    /// One JSON array.
    Json,
}

/// Groups of rows `bench --only` can run alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchGroup {
    /// Bytes per cached object and per pending delta.
    Memory,
    /// Checkpoint size and copy time, and the longest seek.
    Checkpoints,
    /// Resident memory growth over a simulated day.
    LongRun,
    /// Events per second of each scenario against the bare heap loop.
    EventRate,
    /// The incident's cost per event with causality on against off.
    Causality,
    /// The longest single engine event of the incident, and the longest piece of a checkpoint's
    /// copy or free taken in steps.
    LongestEvent,
}

/// What `swarm` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq, Args)]
pub struct SwarmArgs {
    /// First seed
    #[arg(long, value_name = "S", default_value_t = 0, value_parser = values::seed)]
    pub from: u64,
    /// How many seeds
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = values::seed_count)]
    pub seeds: u64,
    /// Replay this one seed (instead of --from and --seeds)
    #[arg(long, value_name = "S", value_parser = values::seed, conflicts_with_all = ["from", "seeds"])]
    pub seed: Option<u64>,
}

impl SwarmArgs {
    /// The seeds to run: `--seed` alone, else `--seeds` from `--from`.
    pub fn range(&self) -> std::ops::Range<u64> {
        match self.seed {
            Some(s) => s..s + 1,
            None => self.from..self.from + self.seeds,
        }
    }
}

/// The text after `flywheel help run` and `help compare`: the `--do` values and the settings.
fn run_notes() -> String {
    format!("--do values:\n{DO_HELP}\n{}", set_notes())
}

/// The settings `--set` accepts, from the registry: path, what it accepts, what it does.
fn set_notes() -> String {
    let mut text = String::from("--set settings (KEY: what it accepts; default):\n");
    for s in SETTINGS {
        let default = if s.default.is_empty() {
            "none"
        } else {
            s.default
        };
        text.push_str(&format!(
            "  {}: {}; {default}\n      {}\n",
            s.path,
            s.kind.accepts(),
            s.words().map_or("", |w| w.help.en)
        ));
    }
    text
}

/// Parses `argv` (with the program name first). Help and version requests come back as errors
/// of their kinds, as clap gives them; [`clap::Error::exit`] prints either and exits.
pub fn parse<I, T>(argv: I) -> Result<Option<Command>, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let matches = Cli::command().try_get_matches_from(argv)?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    pair_interventions(&mut cli, &matches)?;
    if let Some(Command::Swarm(a)) = &cli.command {
        if a.seed.is_none() && a.from.checked_add(a.seeds).is_none() {
            return Err(usage_error(
                "swarm",
                "--from + --seeds must stay below 2^64",
            ));
        }
    }
    if let Some(Command::Size(a)) = &cli.command {
        size::check(a).map_err(|e| usage_error("size", &e))?;
    }
    Ok(cli.command)
}

/// Pairs `--at`/`--do` of `run` and `compare`.
fn pair_interventions(cli: &mut Cli, matches: &ArgMatches) -> Result<(), clap::Error> {
    let Some((name, sub)) = matches.subcommand() else {
        return Ok(());
    };
    let flags = match &mut cli.command {
        Some(Command::Run(a)) => &mut a.flags,
        Some(Command::Compare(a)) => &mut a.flags,
        _ => return Ok(()),
    };
    flags.pair(sub).map_err(|e| usage_error(name, &e))
}

/// An error of `flywheel <command>` as clap writes it (`error: …`, that command's usage, exit
/// status 2).
fn usage_error(command: &str, message: &str) -> clap::Error {
    let mut cli = Cli::command();
    cli.build();
    match cli.find_subcommand_mut(command) {
        Some(sub) => sub.error(ErrorKind::ValueValidation, message),
        None => cli.error(ErrorKind::ValueValidation, message),
    }
}

/// The help of the whole command line.
pub fn help() -> String {
    Cli::command().render_long_help().to_string()
}

/// Writes the completion script for `shell` to `out`.
pub fn completions(shell: clap_complete::Shell, out: &mut dyn std::io::Write) {
    clap_complete::generate(shell, &mut Cli::command(), "flywheel", out);
}
