//! The handles the why panel, the command bar, the inspector and the branch tracks use to act:
//! open the panel on an event, intervene at the instant shown (which forks when the instant is
//! in the past), switch branches.

use flywheel_engine::scenario::variant::Variant;
use flywheel_engine::sim::{EventId, EventKind};

use crate::ctx::Ctx;
use crate::do_steps::DoStep;
use crate::host_msg::ToHost;
use crate::runs::{Runs, Side};
use crate::why_state::BranchItem;

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
        self.send(ToHost::Why(side, id));
    }

    /// Opens the why panel on the Reconcile of `side` running at the clock (of `key` only, when
    /// given), or else the latest one before it.
    pub fn show_why_now(&self, side: Side, key: Option<&str>) {
        self.send(ToHost::WhyNow(side, key.map(str::to_owned)));
    }

    /// Puts every run on branch `id` where it left it.
    pub fn switch_branch(&self, id: u32) {
        self.send(ToHost::SwitchBranch(id));
    }

    /// The custom resources' keys of the side shown, in key order (at most 64), as last told.
    pub fn object_keys(&self) -> Vec<String> {
        self.link.keys()
    }

    /// What a bare `kubectl rollout restart deploy/operator` rolls out: the B side's fixes when
    /// comparing (chosen in its Fixes panel), else the `fixed` preset's operator.
    pub fn rollout_text(&self) -> String {
        self.state
            .url
            .compare
            .map_or_else(|| "rollout:fixed".to_owned(), |b| rollout_of(&b))
    }

    /// The branch A's run is on, as last told.
    pub fn current_branch(&self) -> u32 {
        self.link.known().branch
    }
}

/// The newest kept Reconcile started at or before the clock (of `key` only, when given).
pub(crate) fn latest_reconcile(
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
    use flywheel_engine::cluster::intervention::Intervention;

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
