//! Seeking a run to any instant and forking it into branches, over its [`Timeline`].
//!
//! ```text
//!  seek(t):  restore the newest checkpoint at or before t ──▶ replay every event due by t
//!  fork:     the current instant ──▶ intervention ──▶ base of a new branch (the old one is kept)
//!  switch:   the newest checkpoint of a branch before its head ──▶ replay to the head
//! ```
//!
//! ```
//! use std::time::Duration;
//! use flywheel_engine::cluster::run::{Run, RunOptions};
//! use flywheel_engine::cluster::timeline::TimelineOptions;
//! use flywheel_engine::{scenario::presets, SimTime};
//!
//! let scenario = presets::load("flywheel", &[]).unwrap();
//! let options = RunOptions { duration: Some(Duration::from_secs(60)), ..RunOptions::default() };
//! let mut run = Run::new(scenario, &options).unwrap();
//! run.keep_timeline(TimelineOptions::default());
//! while !run.advance(100_000) {}
//! let end = (run.trace().hash(), run.events());
//!
//! let minute_half = SimTime::ZERO + Duration::from_secs(30);
//! assert_eq!(run.seek(minute_half), Ok(minute_half));
//! let main = run.current_branch().unwrap();
//! let what_if = run.fork("what if").unwrap();
//! run.switch_branch(main).unwrap();
//! run.seek(run.end()).unwrap();
//! assert_eq!((run.trace().hash(), run.events()), end);
//! assert_eq!(run.branches().len(), 2);
//! # let _ = what_if;
//! ```

use std::fmt;

use crate::time::SimTime;

use super::run::Run;
use super::timeline::{BranchId, BranchInfo, Timeline, TimelineOptions};

/// Why a seek or a branch operation could not be done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeekError {
    /// Going back needs a timeline ([`Run::keep_timeline`]).
    NoTimeline,
    /// No kept branch has this id.
    NoSuchBranch(BranchId),
}

impl fmt::Display for SeekError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeekError::NoTimeline => write!(f, "the run keeps no timeline"),
            SeekError::NoSuchBranch(id) => write!(f, "no branch {}", id.0),
        }
    }
}

impl std::error::Error for SeekError {}

impl Run {
    /// Keeps a timeline from now on: a checkpoint of the current state as its base, and
    /// automatic checkpoints as the run advances, within `options`' memory budget.
    pub fn keep_timeline(&mut self, options: TimelineOptions) {
        let base = self.checkpoint();
        self.timeline = Some(Box::new(Timeline::new(options, base)));
        self.checkpoint_fn = Some(Run::checkpoint_in_parts);
    }

    /// The timeline, when kept.
    pub fn timeline(&self) -> Option<&Timeline<super::checkpoint::Checkpoint>> {
        self.timeline.as_deref()
    }

    /// The branch the run is on (`None` without a timeline).
    pub fn current_branch(&self) -> Option<BranchId> {
        self.timeline.as_ref().map(|t| t.current())
    }

    /// Every branch kept, oldest first.
    pub fn branches(&self) -> Vec<BranchInfo> {
        self.timeline
            .as_ref()
            .map_or_else(Vec::new, |t| t.branches())
    }

    /// Goes to simulated time `t` (capped at the end), forward or backward: every event due by
    /// `t` handled, none after. Restores the newest checkpoint at or before `t` unless going on
    /// from the current state is shorter, then replays. Before the current branch's base it
    /// lands on the ancestor that holds `t`. Returns the time reached.
    pub fn seek(&mut self, t: SimTime) -> Result<SimTime, SeekError> {
        let t = self.begin_seek(t)?;
        self.replay_to(t);
        Ok(self.now())
    }

    /// The first half of [`Run::seek`], for a caller that must not block (the page): restores
    /// the checkpoint a seek to `t` starts from and returns the instant to reach (`t` capped at
    /// the end) without replaying. The caller then calls [`Run::continue_seek`] with a few
    /// events at a time until it says the instant is reached; the state is then exactly the one
    /// [`Run::seek`] reaches.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use flywheel_engine::cluster::run::{Run, RunOptions};
    /// # use flywheel_engine::cluster::timeline::TimelineOptions;
    /// # use flywheel_engine::{scenario::presets, SimTime};
    /// # let scenario = presets::load("flywheel", &[]).unwrap();
    /// # let options = RunOptions { duration: Some(Duration::from_secs(20)), ..RunOptions::default() };
    /// # let mut run = Run::new(scenario, &options).unwrap();
    /// run.keep_timeline(TimelineOptions::default());
    /// while !run.advance(100_000) {}
    /// let to = run.begin_seek(SimTime::from_secs_f64(5.0)).unwrap();
    /// while !run.continue_seek(to, 500) {}
    /// assert_eq!(run.now(), to);
    /// ```
    pub fn begin_seek(&mut self, t: SimTime) -> Result<SimTime, SeekError> {
        let t = t.min(self.end());
        let (events, now) = (self.events(), self.now());
        let Some(mut timeline) = self.timeline.take() else {
            return if now > t {
                Err(SeekError::NoTimeline)
            } else {
                Ok(t)
            };
        };
        // restored from the timeline taken out of the run, the state is copied once (not the
        // checkpoint, then the state from that copy)
        let found = timeline.nearest_at(t).map(|(branch, mark)| {
            let go_on = branch == timeline.current() && now <= t && mark.events() <= events;
            if !go_on {
                self.restore(mark);
            }
            (branch, go_on)
        });
        if let Some((branch, false)) = found {
            timeline.switch(branch, (events, now));
        }
        self.timeline = Some(timeline);
        found.map(|_| t).ok_or(SeekError::NoTimeline)
    }

    /// Handles at most `max_events` more of the events a seek to `t` replays (after
    /// [`Run::begin_seek`]); returns whether `t` is reached (or the event budget ran out).
    pub fn continue_seek(&mut self, t: SimTime, max_events: u64) -> bool {
        self.advance_to(t, max_events);
        let pending = self.state.sim.next_event_time().is_some_and(|at| at <= t);
        !pending || self.budget_exhausted()
    }

    /// Starts a new branch at the current instant and moves onto it; the branch left is kept
    /// and can be returned to ([`Run::switch_branch`]). Returns the new branch.
    pub fn fork(&mut self, label: &str) -> Result<BranchId, SeekError> {
        self.fork_with(label, |_| {})
    }

    /// Like [`Run::fork`], with `intervene` changing the state at this instant before the
    /// branch's base is taken, so every replay on the branch starts from the changed state.
    /// `intervene` must not advance the run.
    pub fn fork_with(
        &mut self,
        label: &str,
        intervene: impl FnOnce(&mut Run),
    ) -> Result<BranchId, SeekError> {
        let mut timeline = self.timeline.take().ok_or(SeekError::NoTimeline)?;
        let head = (self.events(), self.now());
        intervene(self);
        let base = self.checkpoint();
        let id = timeline.fork(label, head, base);
        self.timeline = Some(timeline);
        Ok(id)
    }

    /// Returns to `branch` where the run left it (or to its newest checkpoint if it never
    /// left it), keeping the current branch.
    pub fn switch_branch(&mut self, branch: BranchId) -> Result<(), SeekError> {
        let left = (self.events(), self.now());
        // taken out of the run while it restores, so the checkpoint's state is copied once
        let mut timeline = self.timeline.take().ok_or(SeekError::NoTimeline)?;
        let head = if branch == timeline.current() {
            Ok(None)
        } else {
            let head = timeline.head(branch);
            if timeline.switch(branch, left) {
                let events = head.map_or(u64::MAX, |(events, _)| events);
                if let Some(mark) = timeline.nearest_events(branch, events) {
                    self.restore(mark);
                }
                Ok(head)
            } else {
                Err(SeekError::NoSuchBranch(branch))
            }
        };
        self.timeline = Some(timeline);
        if let Some((events, at)) = head? {
            self.replay_events(events);
            self.advance_to(at, 0);
        }
        Ok(())
    }

    /// Handles every event due by `t`; the clock then reads `t` (unless the event budget ran out).
    fn replay_to(&mut self, t: SimTime) {
        loop {
            self.advance_to(t, u64::MAX);
            let pending = self.state.sim.next_event_time().is_some_and(|at| at <= t);
            if !pending || self.budget_exhausted() {
                return;
            }
        }
    }

    /// Handles events until `events` have been handled (or the run ends).
    fn replay_events(&mut self, events: u64) {
        while self.events() < events {
            if self.advance(events - self.events()) {
                return;
            }
        }
    }
}
