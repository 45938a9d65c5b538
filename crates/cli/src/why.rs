//! `flywheel why <scenario> --at 90s [--key ns/name] [--seed N] [--set k=v]…`: the causal chain
//! of the reconcile running at (or next after) an instant, back to its origin, and whether it is
//! self-triggered.
//!
//! ```text
//!  run to --at ──▶ the Reconcile running then (or the next one) ──▶ Why (its merged adds)
//!                                                               └─▶ chain back: one loop round
//!                                                                   in full, then the origin
//! ```

use std::time::Duration;

use crate::out::out;
use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::sim::EventKind;
use flywheel_engine::SimTime;

/// Events whose causes `why` keeps (about 96 MB at most): the whole of a 10-minute `flywheel`
/// run, the newest million events of a longer or larger one.
pub const WHY_CAUSAL_CAPACITY: usize = 1_000_000;

/// Engine events handled between two looks for the reconcile.
const STEP_EVENTS: u64 = 20_000;

/// What `why` was asked.
#[derive(Clone, Debug, PartialEq, clap::Args)]
pub struct WhyArgs {
    /// A preset (see 'flywheel list') or a scenario file
    #[arg(value_name = "PRESET|FILE")]
    pub target: String,
    /// The instant, e.g. 90s: the reconcile running then (or the next one) is explained
    #[arg(long, value_name = "T", value_parser = crate::args::values::instant)]
    pub at: Duration,
    /// Only this object's reconciles (namespace/name)
    #[arg(long, value_name = "NS/NAME", value_parser = crate::args::values::object_key)]
    pub key: Option<String>,
    /// Seed of the random source [default: the scenario's]
    #[arg(long, value_name = "N", value_parser = crate::args::values::seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Override a setting (repeatable), e.g. --set controller.workers=4
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = crate::args::values::set)]
    pub sets: Vec<(String, String)>,
}

/// Runs the scenario to `--at` and prints why the reconcile then ran.
pub fn why(a: &WhyArgs) -> Result<(), String> {
    let scenario = crate::load(&a.target, &a.sets).map_err(|e| match e {
        crate::Failure::Usage(m) | crate::Failure::Io(m) | crate::Failure::Found(m) => m,
    })?;
    if a.at > scenario.duration {
        return Err(format!(
            "--at must be within the scenario's duration ({}s; got {}s)",
            scenario.duration.as_secs_f64(),
            a.at.as_secs_f64()
        ));
    }
    let options = RunOptions {
        seed: a.seed,
        causal_capacity: Some(WHY_CAUSAL_CAPACITY),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options).map_err(|e| format!("{}: {e}", a.target))?;
    let at = SimTime::ZERO + a.at;
    run.advance_to(at, u64::MAX);
    let key = a.key.as_deref();
    let reconcile = loop {
        if let Some(id) = run.reconcile_at(at, key) {
            break id;
        }
        if run.advance(STEP_EVENTS) {
            return Err(format!(
                "no reconcile{} runs at or after {at} in this run",
                key.map(|k| format!(" of {k}")).unwrap_or_default()
            ));
        }
    };
    out!("{}", report(&run, reconcile));
    Ok(())
}

/// The text `why` prints for `reconcile`.
fn report(run: &Run, reconcile: flywheel_engine::sim::EventId) -> String {
    let mut out = String::new();
    if let Some(why) = run.why(reconcile) {
        out.push_str(&format!("{why}\n"));
    }
    out.push_str("\nchain back to the origin (newest first):\n");
    let chain = run.chain_back(reconcile);
    let ring = run.causal();
    let key = ring.get(reconcile).and_then(|r| r.event.key.clone());
    let same_key_reconcile = |id| {
        ring.get(id).is_some_and(|r| {
            matches!(r.event.kind, EventKind::Reconcile { .. }) && r.event.key == key
        })
    };
    let round_end = chain
        .iter()
        .skip(1)
        .position(|&id| same_key_reconcile(id))
        .map_or(chain.len(), |i| i + 2);
    for &id in &chain[..round_end] {
        out.push_str(&line_of(run, id));
    }
    if round_end < chain.len() {
        let rounds = chain[round_end..]
            .iter()
            .filter(|&&id| same_key_reconcile(id))
            .count();
        out.push_str(&format!(
            "  … {} earlier events ({rounds} more reconciles of this key) …\n",
            chain.len() - round_end - 1
        ));
        if let Some(&origin) = chain.last() {
            out.push_str(&line_of(run, origin));
        }
    }
    match run.loop_of(reconcile) {
        Some(report) => out.push_str(&format!("\nself-triggered: {report}\n")),
        None => out.push_str("\nnot self-triggered\n"),
    }
    out
}

/// One chain line: the id and the trace line, or a note that the ring no longer keeps it.
fn line_of(run: &Run, id: flywheel_engine::sim::EventId) -> String {
    match run.causal().get(id) {
        Some(r) if r.causes.is_empty() => format!("  {id:>9}  {}   ← origin\n", r.event),
        Some(r) => format!("  {id:>9}  {}\n", r.event),
        None => format!("  {id:>9}  (no longer kept)\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses `flywheel why <line>`; an error as clap writes it.
    fn parse(line: &str) -> Result<WhyArgs, String> {
        let argv = ["flywheel", "why"]
            .into_iter()
            .chain(line.split_whitespace());
        match crate::args::parse(argv) {
            Ok(Some(crate::args::Command::Why(a))) => Ok(a),
            Ok(other) => Err(format!("not why: {other:?}")),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn why_takes_a_target_an_instant_and_optional_key_seed_and_sets() {
        let a = parse("flywheel --at 90s --key ns-0/demo-1 --seed 3 --set controller.workers=2")
            .expect("parses");
        assert_eq!(a.target, "flywheel");
        assert_eq!(a.at, Duration::from_secs(90));
        assert_eq!(a.key.as_deref(), Some("ns-0/demo-1"));
        assert_eq!(a.seed, Some(3));
        assert_eq!(a.sets.len(), 1);
    }

    #[test]
    fn bad_why_arguments_name_the_flag_and_what_is_allowed() {
        for (line, wanted) in [
            ("flywheel", "--at"),
            ("--at 90s", "<PRESET|FILE>"),
            ("flywheel --at soon", "--at"),
            (
                "flywheel --at 9s --key demo",
                "'--key <NS/NAME>': must be namespace/name",
            ),
            ("flywheel --at 9s --seed x", "--seed"),
            (
                "flywheel --at 9s --frobnicate 1",
                "unexpected argument '--frobnicate'",
            ),
            ("flywheel --at", "a value is required for '--at <T>'"),
        ] {
            let err = parse(line).expect_err(line);
            assert!(err.contains(wanted), "{line}: {err}");
        }
    }

    #[test]
    fn the_flywheel_reconcile_at_an_instant_is_self_triggered_and_its_chain_reaches_the_origin() {
        let a = parse("flywheel --at 40s").expect("parses");
        let scenario = crate::load(&a.target, &a.sets).ok().expect("loads");
        let options = RunOptions {
            duration: Some(Duration::from_secs(45)),
            causal_capacity: Some(WHY_CAUSAL_CAPACITY),
            ..RunOptions::default()
        };
        let mut run = Run::new(scenario, &options).expect("runs");
        let at = SimTime::ZERO + a.at;
        run.advance_to(at, u64::MAX);
        while run.reconcile_at(at, None).is_none() && !run.advance(STEP_EVENTS) {}
        let id = run.reconcile_at(at, None).expect("a reconcile");
        let text = report(&run, id);
        assert!(text.contains("self-triggered: write loop on"), "{text}");
        assert!(text.contains("← origin"), "{text}");
    }
}
