//! `flywheel tour <id>`: runs every step of a guided tour headless and prints, for each, the
//! state it sets up, what it reached and when, and its prediction's answer — for tour authors.
//!
//! ```text
//!  tours/<id>.toml ──tour::load──▶ steps ──tour::run_step──▶ "step 2 · predicate-only · seek 30s
//!                                                              reached 30.000s · verdict looping
//!                                                              asks … → No (right: looping) ✓"
//! ```

use std::fmt::Write as _;

use crate::out::{out, outln};
use flywheel_engine::tour::{self, Step, StepOutcome};

/// What `tour` was asked.
#[derive(Clone, Debug, PartialEq, clap::Args)]
pub struct TourArgs {
    /// The tour's id (flywheel, incident, list-vs-index, informer-myths)
    #[arg(value_name = "ID")]
    pub id: String,
}

/// Runs the tour and prints each step; an unknown tour or a failing step is an error.
pub fn tour(args: &TourArgs) -> Result<(), String> {
    let t = tour::load(&args.id).map_err(|e| format!("tour '{}': {e}", args.id))?;
    outln!("{} — {}", t.title.en, t.title.zh);
    for (i, step) in t.steps.iter().enumerate() {
        let (_, outcome) = tour::run_step(step).map_err(|e| format!("step {i}: {e}"))?;
        out!("{}", describe(i, step, &outcome));
    }
    Ok(())
}

/// One step's lines.
fn describe(i: usize, step: &Step, outcome: &StepOutcome) -> String {
    let mut out = String::new();
    let sets: Vec<String> = step.set.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let goal = match (&step.seek, &step.until) {
        (Some(t), _) => format!("seek {t}"),
        (None, Some(u)) => format!(
            "until {} (limit {})",
            until_text(u),
            step.limit.as_deref().unwrap_or("")
        ),
        (None, None) => String::new(),
    };
    let _ = writeln!(
        out,
        "step {i} · {} {} · {goal} · point {}",
        step.preset,
        sets.join(" "),
        step.point
    );
    let reached = outcome
        .reached_at
        .map_or_else(|| "never reached".to_owned(), |t| format!("reached at {t}"));
    let _ = writeln!(out, "  {reached} · verdict {}", outcome.verdict);
    if let Some(q) = &step.question {
        let right = &q.choices[q.answer];
        let holds = if outcome.shows(&right.shows) {
            "shown"
        } else {
            "NOT shown"
        };
        let _ = writeln!(out, "  asks: {}", q.text.en);
        let _ = writeln!(out, "  answer: {} ({}: {holds})", right.en, right.shows);
    }
    out
}

fn until_text(u: &flywheel_engine::tour::Until) -> String {
    if let Some(m) = &u.marker {
        format!("marker {m}")
    } else if let Some(n) = u.self_triggered_reconciles {
        format!("{n} self-triggered reconciles")
    } else {
        "converged".to_owned()
    }
}
