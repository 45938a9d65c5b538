//! The `flywheel` command line, run as a user would run it.

use std::process::{Command, Output};

fn flywheel(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flywheel"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn list_names_every_preset_with_its_seed_group() {
    let o = flywheel(&["list"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for name in [
        "flywheel",
        "fixed",
        "idempotent-status",
        "seed-000-incident",
    ] {
        assert!(
            out.lines().any(|l| l.starts_with(name)),
            "{name} listed:\n{out}"
        );
    }
    assert!(out.contains("[seed-000]"));
}

#[test]
fn run_json_prints_one_object_with_the_documented_fields() {
    let o = flywheel(&[
        "run",
        "flywheel",
        "--duration",
        "30s",
        "--format",
        "json",
        "--seed",
        "7",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("stdout is JSON");
    for field in [
        "scenario",
        "profile",
        "seed",
        "sim_seconds",
        "wall_seconds",
        "events",
        "metrics",
        "series",
    ] {
        assert!(v.get(field).is_some(), "field {field} present");
    }
    assert_eq!(v["seed"], 7);
    assert_eq!(v["sim_seconds"], 30.0);
    let puts = &v["metrics"]["apiserver_request_total{code=\"200\",verb=\"PUT\"}"];
    assert!(
        puts.as_f64().is_some_and(|n| n > 50.0),
        "the loop writes: {puts}"
    );
    let series = v["series"]["workqueue_adds_total{name=\"flywheel\"}"]
        .as_array()
        .expect("a series");
    assert!(!series.is_empty() && series.len() <= 2000);
}

#[test]
fn the_same_seed_gives_the_same_trace_hash_and_another_seed_a_different_one() {
    let hash = |seed: &str| {
        let o = flywheel(&[
            "run",
            "flywheel",
            "--duration",
            "20s",
            "--format",
            "json",
            "--seed",
            seed,
        ]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
        v["trace_hash"].as_str().expect("hash").to_owned()
    };
    assert_eq!(hash("3"), hash("3"));
    assert_ne!(hash("3"), hash("4"));
}

#[test]
fn compare_shows_the_loop_next_to_its_absence() {
    let o = flywheel(&["compare", "flywheel", "fixed", "--duration", "2m"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("# flywheel") && out.contains("# fixed"),
        "{out}"
    );
    let row = out
        .lines()
        .find(|l| {
            l.starts_with(
                "controller_runtime_reconcile_total{controller=\"flywheel\",result=\"success\"}",
            )
        })
        .expect("reconcile row");
    let numbers: Vec<f64> = row
        .split_whitespace()
        .skip(1)
        .filter_map(|n| n.parse().ok())
        .collect();
    assert_eq!(numbers.len(), 4, "final and peak for each side: {row}");
    assert!(
        numbers[0] > 20.0 * numbers[2],
        "flywheel reconciles far more than fixed: {row}"
    );
}

#[test]
fn bad_input_exits_2_with_an_error_line_naming_it() {
    // found while loading the scenario: one line
    let loaded: [(&[&str], &str); 3] = [
        (
            &["run", "flywheeel"],
            "error: flywheeel: unknown preset 'flywheeel'",
        ),
        (
            &["run", "flywheel", "--set", "controller.workers=0"],
            "error: flywheel: controller.workers: must be a whole number from 1 to 1000",
        ),
        (
            &["run", "/no/such/file.toml"],
            "error: cannot read scenario file",
        ),
    ];
    for (args, expected) in loaded {
        let o = flywheel(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.starts_with(expected), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    }
    // found by the parser: clap's error line, then where to read more
    let parsed: [(&[&str], &str); 3] = [
        (
            &["run", "flywheel", "--duration", "soon"],
            "error: invalid value 'soon' for '--duration <D>'",
        ),
        (
            &["run", "flywheel", "--set", "controller.workrs=4"],
            "controller.workrs is not a setting (did you mean controller.workers?)",
        ),
        (&["explode"], "error: unrecognized subcommand 'explode'"),
    ];
    for (args, expected) in parsed {
        let o = flywheel(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        let first = err.lines().next().unwrap_or_default();
        assert!(first.contains(expected), "{args:?}: {err}");
        assert!(err.trim_end().ends_with("try '--help'."), "{err}");
    }
}

#[test]
fn help_names_a_commands_flags_and_completions_print_a_script() {
    let o = flywheel(&["help", "swarm"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("Usage: flywheel swarm [OPTIONS]"), "{out}");
    assert!(
        out.contains("--seeds <N>") && out.contains("[default: 200]"),
        "{out}"
    );
    let o = flywheel(&["why", "--help"]);
    assert!(stdout(&o).contains("--key <NS/NAME>"));
    let o = flywheel(&["completions", "bash"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("complete -F _flywheel"));
    let o = flywheel(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("[possible values: bash, elvish, fish, powershell, zsh]"));
}

#[test]
fn a_mistyped_command_gets_the_nearest_one_suggested() {
    let o = flywheel(&["lst"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("tip: a similar subcommand exists: 'list'"));
}

#[test]
fn code_prints_the_reconcilers_go_source() {
    let o = flywheel(&["code", "fixed"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("//+kubebuilder:subresource:status"));
    assert!(out.contains("predicate.GenerationChangedPredicate{}"));
    assert!(out.contains("r.Status().Patch(ctx, &obj, client.MergeFrom(orig))"));
}

#[test]
fn prom_csv_and_plot_outputs_are_written() {
    let dir = std::env::temp_dir().join(format!("flywheel-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let svg = dir.join("run.svg");
    let prom = dir.join("run.prom");
    let svg_arg = svg.to_string_lossy().into_owned();
    let prom_arg = prom.to_string_lossy().into_owned();
    let o = flywheel(&[
        "run",
        "flywheel",
        "--duration",
        "20s",
        "--format",
        "prom",
        "--out",
        &prom_arg,
        "--plot",
        &svg_arg,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&prom).expect("prom file");
    assert!(text.contains("go_goroutines{scenario=\"flywheel\"}"));
    let chart = std::fs::read_to_string(&svg).expect("svg file");
    assert!(chart.starts_with("<svg") && chart.contains("workqueue_depth"));
    let o = flywheel(&["run", "fixed", "--duration", "10s", "--format", "csv"]);
    assert!(stdout(&o).starts_with("scenario,metric,value\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_prints_the_engines_verdict_for_each_side() {
    let o = flywheel(&["compare", "flywheel", "fixed", "--duration", "1m"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("# flywheel: verdict looping (window 10s:"),
        "{out}"
    );
    assert!(
        out.contains("# fixed: verdict converged (window 10s:"),
        "{out}"
    );
    let o = flywheel(&["run", "fixed", "--duration", "1m", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["verdict"]["verdict"], "converged");
    assert_eq!(v["verdict"]["window_s"], 10);
    assert_eq!(v["verdict"]["figures"]["pod_state"], "Running");
}

#[test]
fn do_delete_of_a_named_object_at_3s_deletes_that_object_and_no_other() {
    let dir = std::env::temp_dir().join(format!("flywheel-named-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let trace = dir.join("trace.tsv");
    let trace_arg = trace.to_str().expect("utf-8 path");
    let o = flywheel(&[
        "run",
        "flywheel",
        "--duration",
        "20s",
        "--at",
        "3s",
        "--do",
        "delete:ns-0/demo-3",
        "--trace",
        trace_arg,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&trace).expect("trace written");
    let deleted: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("watch DELETED"))
        .collect();
    assert!(!deleted.is_empty(), "a DELETED watch event");
    assert!(
        deleted.iter().all(|l| l.contains("ns-0/demo-3")),
        "{deleted:?}"
    );
    assert!(text.contains("kubectl Delete"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn do_on_an_object_that_does_not_exist_is_refused_naming_it_and_one_that_does() {
    let o = flywheel(&[
        "run",
        "flywheel",
        "--duration",
        "20s",
        "--at",
        "3s",
        "--do",
        "label:ns-0/demo-99",
    ]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("ns-0/demo-99") && err.contains("ns-0/demo-0"),
        "{err}"
    );
}

#[test]
fn a_reader_that_closes_the_pipe_early_ends_the_program_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    // The JSON of a whole run is far larger than a pipe's buffer: the program is still writing
    // when the reader goes away, as under `flywheel run flywheel --format json | head -c 100`.
    let mut child = Command::new(env!("CARGO_BIN_EXE_flywheel"))
        .args(["run", "flywheel", "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut head = [0u8; 100];
    let mut pipe = child.stdout.take().expect("stdout is piped");
    pipe.read_exact(&mut head).expect("the run starts writing");
    drop(pipe);
    let o = child.wait_with_output().expect("the binary ends");
    assert!(head.starts_with(b"{"), "the output was the run's JSON");
    assert!(o.status.success(), "status {:?}", o.status);
    assert_eq!(stderr(&o), "", "no panic, no message");
}

#[test]
fn an_output_that_cannot_be_written_is_reported_with_status_1() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // only where the system has a device that is always full (Linux, the CI)
    };
    let o = Command::new(env!("CARGO_BIN_EXE_flywheel"))
        .arg("list")
        .stdout(full)
        .output()
        .expect("the binary runs");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: cannot write to standard output"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"));
}
