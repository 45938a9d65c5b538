use super::*;
use flywheel_engine::cluster::intervention::Intervention;

/// Parses `flywheel <line>`.
fn parse_line(line: &str) -> Result<Option<Command>, clap::Error> {
    parse(std::iter::once("flywheel").chain(line.split_whitespace()))
}

/// The error of `flywheel <line>` as clap writes it.
fn error(line: &str) -> String {
    parse_line(line).expect_err(line).to_string()
}

fn run_flags(line: &str) -> RunFlags {
    match parse_line(line) {
        Ok(Some(Command::Run(a))) => a.flags,
        other => panic!("expected run: {other:?}"),
    }
}

#[test]
fn run_takes_a_target_and_its_flags_in_any_order() {
    let Ok(Some(Command::Run(a))) =
        parse_line("run --seed 7 flywheel --format=json --set controller.workers=4")
    else {
        panic!("expected run");
    };
    assert_eq!(a.target, "flywheel");
    assert_eq!(a.flags.seed, Some(7));
    assert_eq!(a.flags.format, Format::Json);
    assert_eq!(
        a.flags.sets,
        [("controller.workers".to_owned(), "4".to_owned())]
    );
}

#[test]
fn bad_flags_name_the_flag_and_what_is_allowed() {
    let cases = [
        ("run flywheel --duration forever", "'--duration <D>'"),
        ("run flywheel --duration 0s", "more than 0 and at most 168h"),
        (
            "run flywheel --seed -1",
            "'--seed <N>': must be a whole number from 0",
        ),
        ("run flywheel --profile old", "allowed: seed, modern"),
        (
            "run flywheel --format xml",
            "[possible values: table, json, csv, prom]",
        ),
        (
            "run flywheel --plot out.png",
            "'--plot <FILE.svg>': must name an .svg file",
        ),
        (
            "run flywheel --frobnicate",
            "unexpected argument '--frobnicate'",
        ),
        ("run flywheel --set nokey", "expected key=value"),
        (
            "run flywheel --set controller.workrs=4",
            "did you mean controller.workers?",
        ),
        ("run", "<PRESET|FILE>"),
        ("compare flywheel", "<B>"),
        ("launch", "unrecognized subcommand 'launch'"),
        (
            "run flywheel --seed",
            "a value is required for '--seed <N>'",
        ),
        ("bench --format csv", "[possible values: table, json]"),
        ("list extra", "unexpected argument 'extra'"),
    ];
    for (line, expected) in cases {
        let err = error(line);
        assert!(err.starts_with("error: "), "{line}: {err}");
        assert!(err.contains(expected), "{line}: {err}");
    }
}

#[test]
fn a_mistyped_command_or_flag_gets_a_suggestion() {
    let err = error("compar flywheel fixed");
    assert!(
        err.contains("a similar subcommand exists: 'compare'"),
        "{err}"
    );
    let err = error("run flywheel --durration 1m");
    assert!(
        err.contains("a similar argument exists: '--duration'"),
        "{err}"
    );
}

#[test]
fn swarm_takes_seeds_from_or_one_seed() {
    let Ok(Some(Command::Swarm(a))) = parse_line("swarm --seeds 10000 --from 5") else {
        panic!("expected swarm");
    };
    assert_eq!(a.range(), 5..10_005);
    let Ok(Some(Command::Swarm(a))) = parse_line("swarm --seed=42") else {
        panic!("expected swarm");
    };
    assert_eq!(a.range(), 42..43);
    assert!(error("swarm --seeds many").contains("'--seeds <N>'"));
    assert!(error("swarm --seed 1 --seeds 2").contains("cannot be used with"));
    let err = error("swarm --from 18446744073709551615 --seeds 2");
    assert!(err.contains("--from + --seeds"), "{err}");
    assert!(err.contains("Usage: flywheel swarm"), "{err}");
}

#[test]
fn help_after_any_command_prints_that_commands_usage() {
    for (line, usage) in [
        ("run --help", "Usage: flywheel run [OPTIONS] <PRESET|FILE>"),
        ("run flywheel -h", "Usage: flywheel run"),
        (
            "compare a b --help",
            "Usage: flywheel compare [OPTIONS] <A> <B>",
        ),
        ("bench --help", "Usage: flywheel bench"),
        ("swarm -h", "Usage: flywheel swarm"),
        (
            "help why",
            "Usage: flywheel why [OPTIONS] --at <T> <PRESET|FILE>",
        ),
        ("help completions", "Usage: flywheel completions <SHELL>"),
    ] {
        let e = parse_line(line).expect_err(line);
        assert_eq!(e.kind(), ErrorKind::DisplayHelp, "{line}");
        assert!(e.to_string().contains(usage), "{line}: {e}");
    }
}

#[test]
fn no_command_and_the_version_parse_to_what_main_prints() {
    assert_eq!(parse_line("").ok(), Some(None));
    assert_eq!(parse_line("version").ok(), Some(Some(Command::Version)));
    let e = parse_line("--version").expect_err("clap prints the version");
    assert_eq!(e.kind(), ErrorKind::DisplayVersion);
}

#[test]
fn the_run_help_lists_every_do_value_and_every_setting() {
    let e = parse_line("help run").expect_err("help");
    let help = e.to_string();
    for value in [
        "--at <T>",
        "--do <ACTION>",
        "rollout:PRESET",
        "status_subresource:on|off",
        "limits:K=V",
    ] {
        assert!(help.contains(value), "{value}");
    }
    for s in SETTINGS {
        let line = format!("  {}: {};", s.path, s.kind.accepts());
        assert!(help.contains(&line), "{line}");
    }
}

#[test]
fn completions_are_written_for_bash_zsh_and_fish() {
    for (shell, marker) in [
        (clap_complete::Shell::Bash, "complete -F _flywheel"),
        (clap_complete::Shell::Zsh, "#compdef flywheel"),
        (clap_complete::Shell::Fish, "complete -c flywheel"),
    ] {
        let mut out = Vec::new();
        completions(shell, &mut out);
        let script = String::from_utf8(out).expect("UTF-8");
        assert!(script.contains(marker), "{shell}: {marker}");
        assert!(
            script.contains("compare") && script.contains("max-events"),
            "{shell}"
        );
    }
}

#[test]
fn at_and_do_pairs_become_timed_interventions_in_order() {
    let a = run_flags("run flywheel --at 3m --do rollout:fixed --at=90s --do=memory_limit:256Mi");
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
        (
            "run flywheel --do kill_operator",
            "--do kill_operator needs an --at before it, e.g. --at 3m --do kill_operator",
        ),
        ("run flywheel --at 3m", "--at 3m needs a --do after it"),
        (
            "run flywheel --at 1m --at 2m --do kill_operator",
            "needs a --do before the next --at",
        ),
        ("run flywheel --at soon --do kill_operator", "'--at <T>'"),
        (
            "run flywheel --at 1m --do explode",
            "'--do <ACTION>': must be one of edit_spec",
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
            "'--do <ACTION>': memory_limit",
        ),
        ("run flywheel --at 1m --do edit_spec:many", "whole number"),
    ];
    assert!(error("compare a b --at 3m").contains("Usage: flywheel compare"));
    for (line, expected) in cases {
        let err = error(line);
        assert!(err.contains(expected), "{line}: {err}");
    }
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    const WORDS: &[&str] = &[
        "run",
        "compare",
        "list",
        "code",
        "swarm",
        "why",
        "completions",
        "bash",
        "--at",
        "--do",
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
        "kill_operator",
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

        /// Any command line parses, asks for help or the version, or gives an error whose first
        /// line starts with `error:` — never a panic.
        #[test]
        fn any_command_line_parses_or_names_the_problem(argv in proptest::collection::vec(word(), 0..7)) {
            if let Err(e) = parse(std::iter::once("flywheel".to_owned()).chain(argv)) {
                let text = e.to_string();
                let asked = matches!(
                    e.kind(),
                    ErrorKind::DisplayHelp
                        | ErrorKind::DisplayVersion
                );
                prop_assert!(asked || text.starts_with("error: "), "{text}");
                prop_assert_eq!(e.exit_code(), if asked { 0 } else { 2 }, "{}", text);
            }
        }
    }
}
