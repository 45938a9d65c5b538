//! What the page asks of the engine's side between frames: step, seek, step back, pick the
//! object under a click, open the why panel, intervene, switch branches. Each answers with
//! [`HostEvent`]s (taken by the page after the call) or a plain value.

use flywheel_engine::cluster::intervention::Intervention;
use flywheel_engine::cluster::timeline::BranchId;
use flywheel_engine::SimTime;

use crate::acting::{branch_items, intervention_instant_s, latest_reconcile};
use crate::ctx::SEEK_FIRST_BUDGET_MS;
use crate::do_steps::DoStep;
use crate::host::{EngineHost, HostEvent};
use crate::runs::Side;
use crate::stepping::StepTarget;
use crate::web;
use crate::why_state::BranchItem;
use crate::why_view::WhyView;

/// How many object keys an answer tells the page (the command bar completes from them).
pub const KEYS_TOLD: usize = 64;

/// Wall-clock ms one step may spend looking for its target before it reports where it got.
pub const STEP_BUDGET_MS: f64 = 400.0;

/// The least of [`SEEK_FIRST_BUDGET_MS`] left after the restore for which a seek replays at once.
const SEEK_FIRST_MIN_MS: f64 = 10.0;

impl EngineHost {
    /// Steps the run on `side` to `target` (one event, the next Reconcile, the next write) and
    /// reads its new events at animation time `anim_ms` (tokens when `motion`): a
    /// [`HostEvent::Stepped`], or [`HostEvent::Paused`] when no run is built.
    pub fn step(&mut self, side: Side, target: StepTarget, anim_ms: f64, motion: bool) {
        let report = self.runs_mut().map(|r| {
            let start = web::now_ms();
            let report = r.step_to(side, target, &mut || web::now_ms() - start > STEP_BUDGET_MS);
            r.ingest(anim_ms, motion);
            report
        });
        self.mark_dirty();
        self.emit(report.map_or(HostEvent::Paused, HostEvent::Stepped));
    }

    /// Begins a seek to `t_s` and replays what it can at once; returns whether it reached the
    /// instant. Says [`HostEvent::Seeked`] (and where the branch is) when it begins.
    pub fn start_seek(&mut self, t_s: f64) -> bool {
        // the URL's interventions are still being replayed: the runs are not yet on their branch
        if self.replaying() {
            return false;
        }
        let start = web::now_ms();
        let job = self
            .runs_mut()
            .and_then(|r| r.begin_seek(SimTime::from_secs_f64(t_s.max(0.0))));
        let Some(job) = job else { return false };
        self.emit(HostEvent::Seeked(job.to.as_secs_f64()));
        self.say_branch();
        self.set_seeking(Some(job));
        // restoring a large run's checkpoint may have used this task's time already; the
        // replay (which first frees the state replaced) then starts in the next frame
        let left_ms = SEEK_FIRST_BUDGET_MS - (web::now_ms() - start);
        left_ms > SEEK_FIRST_MIN_MS && !self.seek_frame(left_ms)
    }

    /// Replays the seek under way for at most `budget_ms`; returns whether one is still under way.
    pub fn seek_frame(&mut self, budget_ms: f64) -> bool {
        let Some(job) = self.seek_job() else {
            return false;
        };
        let done = self.runs_mut().is_none_or(|r| {
            let start = web::now_ms();
            let done = r.continue_seek(&job, &mut || web::now_ms() - start > budget_ms);
            if done {
                r.finish_seek();
            }
            done
        });
        if done {
            self.set_seeking(None);
            self.mark_dirty();
            self.say_branch();
        }
        !done
    }

    /// Stops the seek under way where its replay got.
    pub fn cancel_seek(&mut self) {
        if self.seek_job().is_none() {
            return;
        }
        self.set_seeking(None);
        if let Some(r) = self.runs_mut() {
            r.finish_seek();
            let now_s = r.now().as_secs_f64();
            self.emit(HostEvent::Seeked(now_s));
        }
        self.mark_dirty();
        self.say_branch();
    }

    /// When the newest event before the clock happened on `side`'s run (simulated seconds).
    pub fn previous_event_s(&self, side: Side) -> Option<f64> {
        self.runs()?.previous_event_s(side)
    }

    /// The why panel on event `id` of `side`: its causes for a Reconcile, its effects otherwise.
    pub fn why(&mut self, side: Side, id: u64) {
        let view = self.runs().and_then(|r| WhyView::of(&r.lane(side).run, id));
        self.emit(HostEvent::Why(view));
    }

    /// The why panel on the Reconcile of `side` running at the clock (of `key` only, when given),
    /// or else the latest one before it.
    pub fn why_now(&mut self, side: Side, key: Option<&str>) {
        let view = self.runs().and_then(|r| {
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
        self.emit(HostEvent::Why(view));
    }

    /// Applies the intervention `text` (the engine's `--do` words) at the instant shown on every
    /// run, `known` being the branches the page knows: the instant it was made at (simulated
    /// seconds), or the engine's error, in English.
    pub fn intervene(&mut self, text: &str, known: &[BranchItem]) -> Result<f64, String> {
        let intervention = Intervention::parse(text)?;
        let runs = self.runs_mut().ok_or_else(String::new)?;
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
        let at_s = step.at_s;
        let items = branch_items(runs, known, Some(step));
        self.mark_dirty();
        let current = self.current_branch();
        self.emit(HostEvent::Branches(items, current));
        Ok(at_s)
    }

    /// The key `text` (the engine's `--do` words) names when no such object is stored on
    /// `side`, with one that is.
    pub fn missing_object(&self, side: Side, text: &str) -> Option<(String, Option<String>)> {
        let intervention = Intervention::parse(text).ok()?;
        let key = intervention.target()?.key()?.to_owned();
        let run = &self.runs()?.lane(side).run;
        run.check(&intervention)
            .is_err()
            .then(|| (key, run.object_keys(1).pop()))
    }

    /// Puts every run on branch `id` where it left it.
    pub fn switch_branch(&mut self, id: u32) {
        if let Some(runs) = self.runs_mut() {
            for lane in runs.lanes_mut() {
                if lane.run.switch_branch(BranchId(id)).is_ok() {
                    lane.reread();
                }
            }
        }
        self.mark_dirty();
        self.emit(HostEvent::SwitchedTo(id));
        if let Some(now_s) = self.now_s() {
            self.emit(HostEvent::Seeked(now_s));
        }
    }

    /// The custom resources' keys of `side`, in key order (at most [`KEYS_TOLD`]).
    pub fn object_keys(&self, side: Side) -> Vec<String> {
        self.runs()
            .map(|r| r.lane(side).run.object_keys(KEYS_TOLD))
            .unwrap_or_default()
    }

    /// Whether `side`'s keys ([`EngineHost::object_keys`]) are `told`, read without copying
    /// them: an answer carries the keys only when they changed.
    pub fn object_keys_are(&self, side: Side, told: &[String]) -> bool {
        match self.runs() {
            Some(r) => r
                .lane(side)
                .run
                .object_keys_borrowed(KEYS_TOLD)
                .eq(told.iter().map(String::as_str)),
            None => told.is_empty(),
        }
    }

    /// The branch A's run is on.
    pub fn current_branch(&self) -> u32 {
        self.runs()
            .and_then(|r| r.a.run.current_branch())
            .map_or(0, |b| b.0)
    }

    /// Says which branch the runs are on (after a seek, which lands on a parent when it goes to
    /// before a branch's start).
    fn say_branch(&mut self) {
        let current = self.current_branch();
        self.emit(HostEvent::OnBranch(current));
    }
}
