//! The handles the why panel, the command bar, the inspector and the branch tracks use to act:
//! open the panel on an event, intervene at the instant shown (which forks when the instant is
//! in the past), switch branches.

use std::rc::Rc;

use flywheel_engine::cluster::intervention::Intervention;
use flywheel_engine::cluster::timeline::BranchId;
use flywheel_engine::scenario::variant::Variant;
use flywheel_engine::sim::{EventId, EventKind};
use flywheel_engine::SimTime;

use crate::ctx::Ctx;
use crate::do_steps::DoStep;
use crate::runs::{Runs, Side};
use crate::state::Action;
use crate::why_state::{BranchItem, WhyAction};
use crate::why_view::WhyView;

/// The instant an intervention is recorded at: the clock rounded up to the millisecond the URL
/// keeps, so a reload that seeks there intervenes on the same state.
pub fn intervention_instant_s(now_s: f64) -> f64 {
    (now_s * 1000.0 - 1e-6).ceil().max(0.0) / 1000.0
}

impl Ctx {
    /// Opens the why panel on event `id` of the side shown: its causes for a Reconcile, its
    /// effects otherwise.
    pub fn show_why(&self, id: u64) {
        let side = self.looping.borrow().side;
        let view = self
            .runs
            .borrow()
            .as_ref()
            .and_then(|r| WhyView::of(&r.lane(side).run, id));
        self.dispatch(Action::Why(WhyAction::Show(view.map(Rc::new))));
    }

    /// Opens the why panel on the Reconcile of `side` running at the clock (of `key` only, when
    /// given), or else the latest one before it.
    pub fn show_why_now(&self, side: Side, key: Option<&str>) {
        let view = self.runs.borrow().as_ref().and_then(|r| {
            let run = &r.lane(side).run;
            let id = run
                .reconcile_at(run.now(), key)
                .filter(|id| {
                    run.causal()
                        .get(*id)
                        .is_some_and(|r| r.event.time <= run.now())
                })
                .or_else(|| latest_reconcile(run, key))?;
            WhyView::of(run, id.0)
        });
        self.dispatch(Action::Why(WhyAction::Show(view.map(Rc::new))));
    }

    /// Applies the intervention `text` (the engine's `--do` words) at the instant shown on
    /// every run; the error is the engine's, in English.
    pub fn intervene(&self, text: &str) -> Result<(), String> {
        let intervention = Intervention::parse(text)?;
        let branches = {
            let mut guard = self.runs.borrow_mut();
            let runs = guard.as_mut().ok_or_else(String::new)?;
            let step = DoStep {
                at_s: intervention_instant_s(runs.now().as_secs_f64()),
                text: text.to_owned(),
            };
            for lane in runs.lanes_mut() {
                let _ = lane.run.seek(SimTime::from_secs_f64(step.at_s));
                lane.run.check(&intervention)?;
                lane.run.intervene(intervention.clone());
                lane.reread();
            }
            branch_items(runs, &self.state.why.branches, Some(step))
        };
        self.looping.borrow_mut().dirty = true;
        let current = self.current_branch();
        self.dispatch(Action::Why(WhyAction::Branches(Rc::new(branches), current)));
        Ok(())
    }

    /// The key `text` (the engine's `--do` words) names when no such object is stored on the
    /// side shown, with one that is.
    pub fn missing_object(&self, text: &str) -> Option<(String, Option<String>)> {
        let intervention = Intervention::parse(text).ok()?;
        let key = intervention.target()?.key()?.to_owned();
        let side = self.looping.borrow().side;
        let guard = self.runs.borrow();
        let run = &guard.as_ref()?.lane(side).run;
        run.check(&intervention)
            .is_err()
            .then(|| (key, run.object_keys(1).pop()))
    }

    /// Puts every run on branch `id` where it left it.
    pub fn switch_branch(&self, id: u32) {
        if let Some(runs) = self.runs.borrow_mut().as_mut() {
            for lane in runs.lanes_mut() {
                if lane.run.switch_branch(BranchId(id)).is_ok() {
                    lane.reread();
                }
            }
        }
        self.looping.borrow_mut().dirty = true;
        let branches = self.state.why.branches.clone();
        self.dispatch(Action::Why(WhyAction::Branches(branches, id)));
        let now_s = self.runs.borrow().as_ref().map(|r| r.now().as_secs_f64());
        if let Some(now_s) = now_s {
            self.seeked(now_s);
        }
    }

    /// Tells the page which branch the runs are on after a seek (one to before a branch's start
    /// lands on its parent), so the tracks and the URL's `do` follow it.
    pub fn follow_branch(&self) {
        let branches = self.state.why.branches.clone();
        if branches.len() < 2 {
            return;
        }
        let current = self.current_branch();
        self.dispatch(Action::Why(WhyAction::Branches(branches, current)));
    }

    /// The custom resources' keys of the side shown, in key order (at most 64).
    pub fn object_keys(&self) -> Vec<String> {
        let side = self.looping.borrow().side;
        self.runs
            .borrow()
            .as_ref()
            .map(|r| r.lane(side).run.object_keys(64))
            .unwrap_or_default()
    }

    /// What a bare `kubectl rollout restart deploy/operator` rolls out: the B side's fixes when
    /// comparing (chosen in its Fixes panel), else the `fixed` preset's operator.
    pub fn rollout_text(&self) -> String {
        self.state
            .url
            .compare
            .map_or_else(|| "rollout:fixed".to_owned(), |b| rollout_of(&b))
    }

    /// The branch A's run is on.
    pub fn current_branch(&self) -> u32 {
        self.runs
            .borrow()
            .as_ref()
            .and_then(|r| r.a.run.current_branch())
            .map_or(0, |b| b.0)
    }
}

/// The newest kept Reconcile started at or before the clock (of `key` only, when given).
fn latest_reconcile(
    run: &flywheel_engine::cluster::run::Run,
    key: Option<&str>,
) -> Option<EventId> {
    let now = run.now();
    run.causal()
        .records()
        .rev()
        .filter(|r| r.event.time <= now && key.is_none_or(|k| r.event.key_str() == k))
        .find(|r| matches!(r.event.kind, EventKind::Reconcile { .. }))
        .map(|r| r.id)
}

/// The `--do` words of a rollout to fixes `v`.
pub fn rollout_of(v: &Variant) -> String {
    let on = |b: bool| if b { "on" } else { "off" };
    format!(
        "rollout:predicate={},guard={},timestamp={},subresource={},write={}",
        on(v.generation_predicate),
        on(v.observed_generation_guard),
        on(v.timestamp),
        on(v.status_subresource),
        crate::config::verb_name(v.write).replace('-', "_")
    )
}

/// A's branches with the interventions of each: those `known` already has, and for the one
/// `step` just started (the current one) its parent's up to `step`'s instant and `step`.
pub fn branch_items(runs: &Runs, known: &[BranchItem], step: Option<DoStep>) -> Vec<BranchItem> {
    let mut items: Vec<BranchItem> = Vec::new();
    let current = runs.a.run.current_branch();
    for info in runs.a.run.branches() {
        let step = step.as_ref().filter(|_| Some(info.id) == current);
        let dos = match known.iter().find(|b| b.id == info.id.0) {
            Some(b) => b.dos.clone(),
            None => {
                let parent = info.parent.map(|p| p.0);
                let mut dos: Vec<DoStep> = items
                    .iter()
                    .chain(known)
                    .find(|b| Some(b.id) == parent)
                    .map(|b| b.dos.clone())
                    .unwrap_or_default();
                if let Some(step) = step {
                    dos.retain(|d| d.at_s <= step.at_s);
                    dos.push(step.clone());
                }
                dos
            }
        };
        items.push(BranchItem {
            id: info.id.0,
            base_s: info.base_at.as_secs_f64(),
            dos,
        });
    }
    items
}

/// Tells the page which branches there are once the URL's interventions were replayed on
/// freshly built `runs` ([`crate::do_steps::DoReplay`]).
pub fn show_replayed_branches(
    runs: &Runs,
    steps: &[DoStep],
    state: &yew::UseReducerHandle<crate::state::AppState>,
) {
    let items = replayed_items(runs, steps);
    let current = runs.a.run.current_branch().map_or(0, |b| b.0);
    state.dispatch(Action::Why(WhyAction::Branches(Rc::new(items), current)));
}

/// The branches after the URL's interventions were replayed: the k-th new one carries the first
/// k of them.
pub fn replayed_items(runs: &Runs, steps: &[DoStep]) -> Vec<BranchItem> {
    runs.a
        .run
        .branches()
        .iter()
        .enumerate()
        .map(|(k, info)| BranchItem {
            id: info.id.0,
            base_s: info.base_at.as_secs_f64(),
            dos: steps[..k.min(steps.len())].to_vec(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instant_of_an_intervention_is_the_clock_rounded_up_to_the_millisecond() {
        assert_eq!(intervention_instant_s(12.4371), 12.438);
        assert_eq!(intervention_instant_s(12.4), 12.4);
        assert_eq!(intervention_instant_s(0.0), 0.0);
    }

    #[test]
    fn a_fork_carries_its_intervention_and_the_run_as_it_was_none() {
        let mut runs =
            Runs::new(&crate::config::RunConfig::preset("flywheel"), None).expect("engine");
        let step = DoStep {
            at_s: 0.0,
            text: "delete".into(),
        };
        runs.a
            .run
            .intervene(Intervention::parse("delete").expect("a valid intervention"));
        let items = branch_items(&runs, &[], Some(step.clone()));
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].dos, vec![]);
        assert_eq!(items[1].dos, vec![step]);
    }

    #[test]
    fn a_rollout_to_the_fixed_presets_switches_is_one_the_engine_reads() {
        let fixed = crate::config::RunConfig::preset("fixed").variant;
        assert!(
            Intervention::parse(&rollout_of(&fixed)).is_ok(),
            "{}",
            rollout_of(&fixed)
        );
    }
}
