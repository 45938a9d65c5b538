//! `flywheel`: the Flywheel engine, headless. Runs, compares and prints scenarios.

mod args;
mod bench;
mod out;
mod output;
mod plot;
mod size;
mod stream;
mod tour;
mod why;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use args::{BenchFormat, BenchGroup, Command, Format, RunFlags};
use flywheel_engine::cluster::code::go_code;
use flywheel_engine::cluster::intervention::Intervention;
use flywheel_engine::cluster::report::RunReport;
use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::scenario::units::format_duration;
use flywheel_engine::scenario::{self, presets, Scenario};
use flywheel_engine::SimTime;
use out::{out, outln};

fn main() -> ExitCode {
    let command = match args::parse(std::env::args_os()) {
        Ok(c) => c,
        Err(e) => {
            // help and version requests print to stdout and exit 0; errors to stderr with 2
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    match execute(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(e)) => usage_error(&e),
        Err(Failure::Io(e) | Failure::Found(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

enum Failure {
    /// Bad input: exit 2.
    Usage(String),
    /// A file could not be written: exit 1.
    Io(String),
    /// The swarm found a failing seed: exit 1.
    Found(String),
}

/// Bad input found after parsing (an unknown preset, a rejected setting value): one line in
/// clap's form, exit status 2.
fn usage_error(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

fn execute(command: Option<Command>) -> Result<(), Failure> {
    let Some(command) = command else {
        out!("{}", args::help());
        return Ok(());
    };
    match command {
        Command::Version => outln!("flywheel {}", env!("CARGO_PKG_VERSION")),
        Command::List => list(),
        Command::Code { target } => code(&target)?,
        Command::Run(a) => run(&[a.target], &a.flags)?,
        Command::Compare(a) => run(&[a.a, a.b], &a.flags)?,
        Command::Bench { format, only } => print_bench(format, &only),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            args::completions(shell, &mut script);
            out::write_bytes(&script);
        }
        Command::Swarm(a) => swarm(&a)?,
        Command::Why(a) => why::why(&a).map_err(Failure::Usage)?,
        Command::Tour(a) => tour::tour(&a).map_err(Failure::Usage)?,
        Command::Size(a) => out!("{}", size::run(&a).map_err(Failure::Usage)?),
    }
    Ok(())
}

fn print_bench(format: BenchFormat, only: &[BenchGroup]) {
    let rows = bench::native_rows(only);
    if format == BenchFormat::Json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&rows).unwrap_or_default()
        );
        return;
    }
    outln!(
        "{:<78} {:>14} {:>9} {:>14} {:>8}  target",
        "figure",
        "value",
        "unit",
        "peer",
        "ratio"
    );
    let mut notes = Vec::new();
    for r in &rows {
        let peer = r.peer.map_or("—".to_owned(), output::human);
        let ratio = r.ratio.map_or("—".to_owned(), |x| format!("{x:.4}"));
        let mut verdict = match r.pass {
            Some(true) => "pass".to_owned(),
            Some(false) => "FAIL".to_owned(),
            None => String::new(),
        };
        if let Some(why) = &r.why_not {
            notes.push(why);
            verdict.push_str(&format!(" [{}]", notes.len()));
        }
        outln!(
            "{:<78} {:>14} {:>9} {:>14} {:>8}  {} {verdict}",
            r.figure,
            output::human(r.value),
            r.unit,
            peer,
            ratio,
            r.target
        );
    }
    for (i, why) in notes.iter().enumerate() {
        outln!("\n[{}] {why}", i + 1);
    }
}

fn list() {
    for name in presets::names() {
        if let Ok(s) = presets::load(name, &[]) {
            outln!("{name:<34} [{}] {}", s.group, s.title);
        }
    }
}

/// Loads a preset by name, or a scenario file by path.
fn load(target: &str, sets: &[(String, String)]) -> Result<Scenario, Failure> {
    let is_file =
        target.ends_with(".toml") || target.contains('/') || std::path::Path::new(target).is_file();
    let loaded = if is_file {
        let text = std::fs::read_to_string(target)
            .map_err(|e| Failure::Usage(format!("cannot read scenario file '{target}': {e}")))?;
        scenario::parse(&text, sets)
    } else {
        presets::load(target, sets)
    };
    loaded.map_err(|e| Failure::Usage(format!("{target}: {e}")))
}

fn code(target: &str) -> Result<(), Failure> {
    let s = load(target, &[])?;
    outln!("// {}: {}", s.name, s.title);
    for line in go_code(&s) {
        outln!("{line}");
    }
    Ok(())
}

fn run(targets: &[String], a: &RunFlags) -> Result<(), Failure> {
    let mut results = Vec::new();
    for (i, target) in targets.iter().enumerate() {
        let scenario = load(target, &a.sets)?;
        check_interventions(a, &scenario)?;
        let options = RunOptions {
            duration: a.duration,
            seed: a.seed,
            profile: a.profile,
            max_events: a.max_events,
            causal_capacity: a.trace.as_ref().map(|_| stream::STREAM_CAUSAL_CAPACITY),
            trace_hash: None,
        };
        let trace = match &a.trace {
            Some(path) if targets.len() > 1 => {
                let path = path.with_extension(format!("{}.txt", scenario.name));
                Some(stream::TraceStream::create(&path).map_err(Failure::Io)?)
            }
            Some(path) => Some(stream::TraceStream::create(path).map_err(Failure::Io)?),
            None => None,
        };
        let started = Instant::now();
        let last = i + 1 == targets.len();
        let report = simulate(scenario, &options, &a.interventions, trace, last)?;
        results.push((report, started.elapsed().as_secs_f64()));
    }
    let text = render(a.format, &results);
    match &a.out {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| Failure::Io(format!("cannot write '{}': {e}", path.display())))?,
        None => {
            out::write_bytes(text.as_bytes());
        }
    }
    if let Some(path) = &a.plot {
        let reports: Vec<&RunReport> = results.iter().map(|(r, _)| r).collect();
        plot::write_svg(path, &reports)
            .map_err(|e| Failure::Io(format!("cannot write plot '{}': {e}", path.display())))?;
    }
    Ok(())
}

fn render(format: Format, results: &[(RunReport, f64)]) -> String {
    let reports: Vec<&RunReport> = results.iter().map(|(r, _)| r).collect();
    match format {
        Format::Table => output::table(&results.iter().map(|(r, w)| (r, *w)).collect::<Vec<_>>()),
        Format::Json if results.len() == 1 => output::json(&results[0].0, results[0].1),
        Format::Json => {
            let items: Vec<String> = results.iter().map(|(r, w)| output::json(r, *w)).collect();
            format!("[\n{}]\n", items.join(",\n"))
        }
        Format::Csv => output::csv(&reports),
        Format::Prom => output::prom(&reports),
    }
}

/// `--at` times beyond the run's duration are a usage error.
fn check_interventions(a: &RunFlags, scenario: &Scenario) -> Result<(), Failure> {
    let duration = a.duration.unwrap_or(scenario.duration);
    for (at, _) in &a.interventions {
        if *at > duration {
            return Err(Failure::Usage(format!(
                "--at {} is beyond the run's duration ({}); use --duration or an earlier --at",
                format_duration(*at),
                format_duration(duration)
            )));
        }
    }
    Ok(())
}

/// Runs to `at` and refuses `intervention` when the object it names is not there then.
fn check_named(
    run: &mut Run,
    at: Duration,
    intervention: &Intervention,
    trace: Option<&mut stream::TraceStream>,
) -> Result<(), Failure> {
    run.advance_to(SimTime::ZERO + at, u64::MAX);
    if let Some(t) = trace {
        t.write_new(run).map_err(Failure::Io)?;
    }
    run.check(intervention)
        .map_err(|e| Failure::Usage(format!("--at {} --do: {e}", format_duration(at))))
}

/// Runs a scenario to its end and reports it, with a progress bar on stderr when that is a
/// terminal and the run takes longer than a second, streaming every event to `trace` when given.
/// The run of the `last` target is not freed: the process ends after printing, and freeing every
/// object of a large run one by one took about a second at 150 000 objects.
fn simulate(
    scenario: Scenario,
    options: &RunOptions,
    interventions: &[(Duration, Intervention)],
    mut trace: Option<stream::TraceStream>,
    last: bool,
) -> Result<RunReport, Failure> {
    let name = scenario.name.clone();
    let mut run =
        Run::new(scenario, options).map_err(|e| Failure::Usage(format!("{name}: {e}")))?;
    for (at, intervention) in interventions {
        if intervention.target().and_then(|t| t.key()).is_some() {
            check_named(&mut run, *at, intervention, trace.as_mut())?;
        }
        run.intervene_at(SimTime::ZERO + *at, intervention.clone());
    }
    let started = Instant::now();
    let show = std::io::stderr().is_terminal();
    let mut shown = false;
    loop {
        let done = run.advance(stream::STREAM_STEP_EVENTS);
        if let Some(t) = trace.as_mut() {
            t.write_new(&run).map_err(Failure::Io)?;
        }
        if done {
            break;
        }
        if show && started.elapsed().as_secs_f64() > 1.0 {
            shown = true;
            progress(&name, run.fraction_done());
        }
    }
    if shown {
        eprintln!();
    }
    if run.budget_exhausted() {
        eprintln!(
            "warning: {name}: stopped at the event budget ({} events) at {} of {}; raise it with --max-events",
            run.events(),
            run.now(),
            run.end()
        );
    }
    for v in run.invariant_violations() {
        eprintln!("warning: {name}: invariant violated: {v}");
    }
    if let Some(t) = trace {
        t.finish().map_err(Failure::Io)?;
    }
    let report = run.report();
    if last {
        std::mem::forget(run);
    }
    Ok(report)
}

/// Runs swarm seeds with invariant checks; a failed seed prints its replay command.
fn swarm(a: &args::SwarmArgs) -> Result<(), Failure> {
    let started = Instant::now();
    let (mut failed, mut events) = (0u64, 0u64);
    let show = std::io::stderr().is_terminal();
    let seeds = a.range();
    let count = seeds.end - seeds.start;
    for (i, seed) in seeds.clone().enumerate() {
        let outcome = flywheel_engine::swarm::run_seed(seed);
        events += outcome.events;
        if count == 1 {
            outln!(
                "seed {seed} ({}): {} events, {} checks, trace hash {:016x}",
                outcome.scenario,
                outcome.events,
                outcome.checks,
                outcome.trace_hash
            );
        }
        if !outcome.passed() {
            failed += 1;
            outln!("{}", outcome.failure_report());
        }
        if show && i % 100 == 99 {
            progress("swarm", (i + 1) as f64 / count as f64);
        }
    }
    if show && count >= 100 {
        eprintln!();
    }
    outln!(
        "swarm: {} seeds from {}, {failed} failed, {events} events in {:.1}s",
        count,
        seeds.start,
        started.elapsed().as_secs_f64()
    );
    if failed > 0 {
        return Err(Failure::Found(format!("{failed} swarm seeds failed")));
    }
    Ok(())
}

fn progress(name: &str, fraction: f64) {
    let width = 30;
    let filled = ((fraction.clamp(0.0, 1.0)) * width as f64) as usize;
    eprint!(
        "\r{name} [{}{}] {:>3.0}%",
        "#".repeat(filled),
        " ".repeat(width - filled),
        fraction * 100.0
    );
    let _ = std::io::stderr().flush();
}
