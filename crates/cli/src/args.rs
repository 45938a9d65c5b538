//! Command-line arguments, parsed by hand so every error names the flag and what it accepts.

use std::path::PathBuf;
use std::time::Duration;

use flywheel_engine::cluster::intervention::Intervention;
use flywheel_engine::cluster::intervention::DO_HELP;
use flywheel_engine::scenario::units::format_duration;
use flywheel_engine::scenario::{split_set, units::parse_duration, Profile};

/// Output formats of `run` and `compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// What `run` and `compare` were asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct RunArgs {
    /// Presets or scenario files (one for run, two for compare).
    pub targets: Vec<String>,
    /// `--set key=value` overrides, in order.
    pub sets: Vec<(String, String)>,
    /// `--duration`.
    pub duration: Option<Duration>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--profile`.
    pub profile: Option<Profile>,
    /// `--format`.
    pub format: Format,
    /// `--out`.
    pub out: Option<PathBuf>,
    /// `--plot`.
    pub plot: Option<PathBuf>,
    /// `--trace`.
    pub trace: Option<PathBuf>,
    /// `--max-events`.
    pub max_events: Option<u64>,
    /// `--at T --do ACTION` pairs, in order.
    pub interventions: Vec<(Duration, Intervention)>,
}

/// What `swarm` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwarmArgs {
    /// First seed.
    pub from: u64,
    /// How many seeds.
    pub seeds: u64,
}

/// A parsed command line.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `flywheel help` or no arguments.
    Help,
    /// `flywheel version`.
    Version,
    /// `flywheel list`.
    List,
    /// `flywheel run <preset|file> …`.
    Run(RunArgs),
    /// `flywheel compare <a> <b> …`.
    Compare(RunArgs),
    /// `flywheel code <preset|file>`.
    Code(String),
    /// `flywheel bench [--format table|json]`: native benchmarks.
    Bench(Format),
    /// `flywheel swarm [--seeds N] [--from S] | --seed S`.
    Swarm(SwarmArgs),
    /// `flywheel why <preset|file> --at T [--key ns/name] [--seed N] [--set k=v]…`.
    Why(crate::why::WhyArgs),
}

/// The usage text.
pub const USAGE: &str = "\
flywheel: the Flywheel engine, headless

Usage:
  flywheel list
  flywheel run <preset|file.toml> [options]
  flywheel compare <a> <b> [options]
  flywheel code <preset|file.toml>
  flywheel bench [--format table|json]   native benchmarks (see BENCHMARKS.md)
  flywheel swarm [--seeds N] [--from S]   run N random scenarios with invariant checks
  flywheel swarm --seed S                 replay one swarm seed
  flywheel why <preset|file.toml> --at T [--key ns/name] [--seed N] [--set k=v]…
                                          why the reconcile running at T ran: its merged
                                          causes back to their origin, and whether it is
                                          self-triggered (a write loop)

Options (run, compare):
  --set key=value      override a scenario field (repeatable), e.g. --set controller.workers=4
  --duration D         simulated time to run, e.g. 90s, 10m, 1h (default: the scenario's)
  --seed N             seed of the random source (default: the scenario's)
  --profile P          seed | modern (default: the scenario's)
  --format F           table | json | csv | prom (default: table)
  --out FILE           write the output to FILE instead of stdout
  --plot FILE.svg      also draw the main series as an SVG chart
  --trace FILE         also stream every event to FILE as it happens, one a line:
                       <id> TAB <cause ids|-> TAB <note|-> TAB <trace line>
  --max-events N       stop after N engine events (default: 2000000000)
  --at T --do ACTION   intervene at simulated time T (repeatable pairs), e.g. --at 3m --do rollout:fixed
                       (ACTION values below)
";

/// Parses `args` (without the program name).
pub fn parse(args: &[String]) -> Result<Command, String> {
    let Some(cmd) = args.first() else {
        return Ok(Command::Help);
    };
    let rest = &args[1..];
    // `flywheel run --help` and the like ask for the usage, as with most command-line tools
    if rest.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(Command::Help);
    }
    match cmd.as_str() {
        "help" | "-h" | "--help" => Ok(Command::Help),
        "version" | "-V" | "--version" => Ok(Command::Version),
        "list" => no_more(rest, "list").map(|_| Command::List),
        "code" => match rest {
            [target] => Ok(Command::Code(target.clone())),
            _ => Err("'code' takes exactly one preset or file, e.g. flywheel code flywheel".into()),
        },
        "run" => parse_run(rest, 1).map(Command::Run),
        "bench" => match rest {
            [] => Ok(Command::Bench(Format::Table)),
            [f, v] if f == "--format" && v == "json" => Ok(Command::Bench(Format::Json)),
            [f, v] if f == "--format" && v == "table" => Ok(Command::Bench(Format::Table)),
            _ => Err("'bench' takes only --format table|json".into()),
        },
        "compare" => parse_run(rest, 2).map(Command::Compare),
        "swarm" => parse_swarm(rest).map(Command::Swarm),
        "why" => crate::why::parse(rest).map(Command::Why),
        other => Err(format!(
            "unknown command '{other}' (allowed: list, run, compare, code, bench, swarm, help, version)"
        )),
    }
}

fn parse_swarm(rest: &[String]) -> Result<SwarmArgs, String> {
    let mut a = SwarmArgs {
        from: 0,
        seeds: 200,
    };
    let mut it = rest.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f, Some(v.to_owned())),
            None => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or(format!("{flag} needs a value"))
        };
        let number = |v: String, max: u64| -> Result<u64, String> {
            v.parse().ok().filter(|n| *n <= max).ok_or(format!(
                "{flag} must be a whole number from 0 to {max} (got '{v}')"
            ))
        };
        match flag {
            "--seeds" => a.seeds = number(value()?, 100_000_000)?,
            "--from" => a.from = number(value()?, u64::MAX)?,
            "--seed" => {
                a.from = number(value()?, u64::MAX)?;
                a.seeds = 1;
            }
            other => {
                return Err(format!(
                    "unknown swarm option '{other}' (allowed: --seeds, --from, --seed)"
                ))
            }
        }
    }
    if a.from.checked_add(a.seeds).is_none() {
        return Err("--from + --seeds must stay below 2^64".into());
    }
    Ok(a)
}

fn no_more(rest: &[String], cmd: &str) -> Result<(), String> {
    match rest.first() {
        Some(extra) => Err(format!("'{cmd}' takes no arguments (got '{extra}')")),
        None => Ok(()),
    }
}

fn parse_run(rest: &[String], targets_wanted: usize) -> Result<RunArgs, String> {
    let mut a = RunArgs {
        targets: Vec::new(),
        sets: Vec::new(),
        duration: None,
        seed: None,
        profile: None,
        format: Format::Table,
        out: None,
        plot: None,
        trace: None,
        max_events: None,
        interventions: Vec::new(),
    };
    let mut at: Option<Duration> = None;
    let mut it = rest.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        if !flag.starts_with("--") {
            a.targets.push(arg.clone());
            continue;
        }
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or(format!("{flag} needs a value"))
        };
        if !apply_intervention_flag(&mut a, &mut at, flag, &mut value)? {
            apply_flag(&mut a, flag, &mut value)?;
        }
    }
    if let Some(t) = at {
        return Err(format!("--at {} needs a --do after it", format_duration(t)));
    }
    if a.targets.len() != targets_wanted {
        let what = if targets_wanted == 1 {
            "one preset or file"
        } else {
            "two presets or files"
        };
        return Err(format!(
            "expected {what} (got {}); see 'flywheel list'",
            a.targets.len()
        ));
    }
    Ok(a)
}

fn apply_flag(
    a: &mut RunArgs,
    flag: &str,
    value: &mut impl FnMut() -> Result<String, String>,
) -> Result<(), String> {
    match flag {
        "--set" => a.sets.push(split_set(&value()?).map_err(|e| format!("--set {}: {}", e.field, e.message))?),
        "--duration" => {
            let d = parse_duration(&value()?).map_err(|e| format!("--duration: {e}"))?;
            if d.is_zero() || d > Duration::from_secs(7 * 24 * 3600) {
                return Err("--duration must be more than 0 and at most 168h".into());
            }
            a.duration = Some(d);
        }
        "--seed" => {
            let v = value()?;
            a.seed = Some(v.parse().map_err(|_| format!("--seed must be a whole number from 0 to {} (got '{v}')", u64::MAX))?);
        }
        "--profile" => a.profile = Some(Profile::parse(&value()?).map_err(|e| format!("--profile: {e}"))?),
        "--format" => {
            a.format = match value()?.as_str() {
                "table" => Format::Table,
                "json" => Format::Json,
                "csv" => Format::Csv,
                "prom" => Format::Prom,
                other => return Err(format!("--format must be table, json, csv or prom (got '{other}')")),
            }
        }
        "--max-events" => {
            let v = value()?;
            a.max_events = Some(v.parse().ok().filter(|n| *n > 0).ok_or(format!(
                "--max-events must be a whole number from 1 to {} (got '{v}')",
                u64::MAX
            ))?);
        }
        "--out" => a.out = Some(PathBuf::from(value()?)),
        "--trace" => a.trace = Some(PathBuf::from(value()?)),
        "--plot" => {
            let p = PathBuf::from(value()?);
            if p.extension().and_then(|e| e.to_str()) != Some("svg") {
                return Err(format!("--plot must name an .svg file (got '{}')", p.display()));
            }
            a.plot = Some(p);
        }
        other => {
            return Err(format!(
                "unknown option '{other}' (allowed: --set, --duration, --seed, --profile, --format, --out, --plot, --trace, --max-events, --at, --do)"
            ))
        }
    }
    Ok(())
}

/// `--at T` and `--do ACTION`: each `--do` takes the `--at` before it. Returns whether `flag`
/// was one of them.
fn apply_intervention_flag(
    a: &mut RunArgs,
    at: &mut Option<Duration>,
    flag: &str,
    value: &mut impl FnMut() -> Result<String, String>,
) -> Result<bool, String> {
    match flag {
        "--at" => {
            if let Some(t) = at {
                return Err(format!(
                    "--at {} needs a --do before the next --at",
                    format_duration(*t)
                ));
            }
            let v = value()?;
            *at = Some(parse_duration(&v).map_err(|e| format!("--at: {e}"))?);
        }
        "--do" => {
            let v = value()?;
            let t = at.take().ok_or(format!(
                "--do {v} needs an --at before it, e.g. --at 3m --do {v}"
            ))?;
            let intervention = Intervention::parse(&v).map_err(|e| format!("--do: {e}"))?;
            a.interventions.push((t, intervention));
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// The usage text with the `--do` values.
pub fn usage() -> String {
    format!("{USAGE}\n--do values:\n{DO_HELP}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn run_takes_a_target_and_its_flags_in_any_order() {
        let Command::Run(a) = parse(&args(
            "run --seed 7 flywheel --format=json --set controller.workers=4",
        ))
        .expect("valid command line") else {
            panic!("expected run");
        };
        assert_eq!(a.targets, ["flywheel"]);
        assert_eq!(a.seed, Some(7));
        assert_eq!(a.format, Format::Json);
        assert_eq!(a.sets, [("controller.workers".to_owned(), "4".to_owned())]);
    }

    #[test]
    fn bad_flags_name_what_is_allowed() {
        let cases = [
            ("run flywheel --duration forever", "--duration"),
            ("run flywheel --seed -1", "--seed"),
            ("run flywheel --profile old", "allowed: seed, modern"),
            ("run flywheel --format xml", "table, json, csv or prom"),
            ("run flywheel --plot out.png", ".svg"),
            ("run flywheel --frobnicate", "unknown option '--frobnicate'"),
            ("run flywheel --set nokey", "key=value"),
            ("run", "expected one preset or file"),
            ("compare flywheel", "expected two presets"),
            ("launch", "unknown command 'launch'"),
            ("run flywheel --seed", "--seed needs a value"),
        ];
        for (line, expected) in cases {
            let err = parse(&args(line)).expect_err(line);
            assert!(err.contains(expected), "{line}: {err}");
        }
    }

    #[test]
    fn swarm_takes_seeds_from_or_one_seed() {
        assert_eq!(
            parse(&args("swarm --seeds 10000 --from 5")),
            Ok(Command::Swarm(SwarmArgs {
                from: 5,
                seeds: 10_000
            }))
        );
        assert_eq!(
            parse(&args("swarm --seed=42")),
            Ok(Command::Swarm(SwarmArgs { from: 42, seeds: 1 }))
        );
        let err = parse(&args("swarm --seeds many")).expect_err("bad count");
        assert!(err.contains("--seeds"), "{err}");
        let err =
            parse(&args("swarm --from 18446744073709551615 --seeds 2")).expect_err("overflow");
        assert!(err.contains("--from"), "{err}");
    }

    #[test]
    fn help_after_any_command_asks_for_the_usage() {
        for line in [
            "run --help",
            "run flywheel -h",
            "compare a b --help",
            "bench --help",
            "swarm -h",
        ] {
            assert_eq!(parse(&args(line)), Ok(Command::Help), "{line}");
        }
    }

    mod fuzz {
        use super::super::*;
        use proptest::prelude::*;

        const WORDS: &[&str] = &[
            "run",
            "compare",
            "list",
            "code",
            "swarm",
            "why",
            "--at",
            "--key",
            "help",
            "version",
            "flywheel",
            "fixed",
            "--set",
            "--duration",
            "--seed",
            "--seeds",
            "--from",
            "--profile",
            "--format",
            "--out",
            "--plot",
            "--trace",
            "--max-events",
            "=",
            "x=1",
            "controller.workers=4",
            "10m",
            "0",
            "-1",
            "json",
            "a.svg",
            "",
        ];

        /// Cases: `FLYWHEEL_FUZZ_CASES` (set by `tests/fuzz.sh`), else CI's quick 2000.
        fn cases() -> u32 {
            std::env::var("FLYWHEEL_FUZZ_CASES")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(2000)
        }

        fn word() -> impl Strategy<Value = String> {
            prop_oneof![
                3 => proptest::sample::select(WORDS).prop_map(str::to_owned),
                1 => proptest::sample::select(WORDS)
                    .prop_flat_map(|w| ".{0,6}".prop_map(move |t| format!("{w}={t}"))),
                1 => ".{0,12}",
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, .. ProptestConfig::default() })]

            /// Any command line parses or gives one line that names a flag, a command or what
            /// is expected — never a panic.
            #[test]
            fn any_command_line_parses_or_names_the_problem(argv in proptest::collection::vec(word(), 0..7)) {
                match parse(&argv) {
                    Ok(_) => {}
                    Err(e) => {
                        prop_assert!(!e.is_empty());
                        prop_assert!(!e.contains('\n'), "{e}");
                        let named = e.contains("--") || e.contains('\'') || e.contains("expected")
                            || e.contains("takes");
                        prop_assert!(named, "{e}");
                    }
                }
            }
        }
    }

    #[test]
    fn at_and_do_pairs_become_timed_interventions_in_order() {
        let Command::Run(a) = parse(&args(
            "run flywheel --at 3m --do rollout:fixed --at=90s --do=memory_limit:256Mi",
        ))
        .expect("valid command line") else {
            panic!("expected run");
        };
        let at: Vec<u64> = a.interventions.iter().map(|(t, _)| t.as_secs()).collect();
        assert_eq!(at, [180, 90]);
        assert_eq!(
            a.interventions[0].1,
            Intervention::parse("rollout:fixed").expect("valid")
        );
        let limit = Intervention::SetMemoryLimit {
            memory_limit: 256 * 1024 * 1024,
        };
        assert_eq!(a.interventions[1].1, limit);
    }

    #[test]
    fn bad_at_and_do_flags_name_what_is_allowed() {
        let cases = [
            ("run flywheel --do kill_operator", "needs an --at before it"),
            ("run flywheel --at 3m", "--at 3m needs a --do after it"),
            (
                "run flywheel --at 1m --at 2m --do kill_operator",
                "needs a --do before the next --at",
            ),
            ("run flywheel --at soon --do kill_operator", "--at:"),
            (
                "run flywheel --at 1m --do explode",
                "--do: must be one of edit_spec",
            ),
            (
                "run flywheel --at 1m --do rollout:nope",
                "must name a preset",
            ),
            (
                "run flywheel --at 1m --do rollout:predicate=maybe",
                "predicate must be on or off",
            ),
            (
                "run flywheel --at 1m --do limits:seats=0",
                "seats must be a whole number from",
            ),
            (
                "run flywheel --at 1m --do memory_limit:lots",
                "--do: memory_limit",
            ),
            ("run flywheel --at 1m --do edit_spec:many", "whole number"),
        ];
        for (line, expected) in cases {
            let err = parse(&args(line)).expect_err(line);
            assert!(err.contains(expected), "{line}: {err}");
        }
    }

    #[test]
    fn the_help_lists_every_do_value() {
        let help = usage();
        for value in [
            "--at T --do ACTION",
            "rollout:PRESET",
            "status_subresource:on|off",
            "limits:K=V",
        ] {
            assert!(help.contains(value), "{value}");
        }
    }
}
