//! The engine's side of the page: the runs, and what the animation loop keeps of them between
//! frames (the pace reached, a seek or replay under way, the furthest instant reached, the charts
//! kept there). The page's side — the reducer, the components, the canvases, the keyboard — calls
//! it with what the page shows ([`LoopState`]: the side, the language, playing or not, …) and
//! takes values back: each frame's pipeline views and live view ([`FrameOut`]), and the events
//! its state follows ([`HostEvent`]). Nothing here reads the reducer's state or touches the DOM.
//!
//! ```text
//!  page: reducer, canvases ──LoopState + frame times, commands──▶ EngineHost { Runs, pace, … }
//!        ◀──FrameOut { pipes, live } ─ take_events: Seeked, Finished, Stepped, Why, … ─┘
//! ```

use flywheel_engine::scenario::variant::Variant;
use flywheel_engine::SimTime;

use crate::config::RunConfig;
use crate::ctx::{LoopState, SEEK_FRAME_BUDGET_MS};
use crate::do_steps::{DoReplay, DoStep};
use crate::horizon::Horizon;
use crate::live::{LiveView, Progress};
use crate::pace::{Pace, FRAME_BUDGET_MS};
use crate::pipe_view::PipeView;
use crate::runs::Runs;
use crate::seeking::SeekJob;
use crate::stepping::StepReport;
use crate::tour_run::{Reached, TourJob};
use crate::web;
use crate::why_state::BranchItem;
use crate::why_view::WhyView;

/// Longest wall-clock step the clock takes after a stall (a hidden tab), in ms.
pub const MAX_FRAME_MS: f64 = 100.0;
/// The live view refreshes at most this often (ms).
pub const REFRESH_MS: f64 = 100.0;

/// What happened on the engine's side that the page's state follows.
#[derive(Clone, Debug, PartialEq)]
pub enum HostEvent {
    /// Every run reached its end.
    Finished,
    /// The runs stand paused at this instant (simulated seconds) after a seek.
    Seeked(f64),
    /// The runs are on this branch of A's timeline (after a seek, which may land on a parent).
    OnBranch(u32),
    /// The runs were put on this branch by a switch.
    SwitchedTo(u32),
    /// A's branches and the one the runs are on (after an intervention or the URL's replay).
    Branches(Vec<BranchItem>, u32),
    /// The tour's step reached its condition or its end.
    TourReached(Reached),
    /// A step moved the run shown, as reported.
    Stepped(StepReport),
    /// A step found no run to move: the page pauses.
    Paused,
    /// The why panel's view (none when the event is no longer kept).
    Why(Option<WhyView>),
    /// A configuration the engine refuses (its words): the last accepted runs stay.
    Invalid(String),
    /// What became of the intervention the page asked for with this number.
    Intervened(u64, Intervened),
    /// A seek reached its instant in the call that asked for it (the page draws at once).
    SeekReached,
}

/// What became of an intervention.
#[derive(Clone, Debug, PartialEq)]
pub enum Intervened {
    /// Made at this instant (simulated seconds).
    Done(f64),
    /// The object it names is not stored on the side shown; one that is, if any.
    NoSuchObject(String, Option<String>),
    /// Refused by the engine (its words, in English).
    Refused(String),
}

/// The wall-clock times of one animation frame, as the page's loop measured them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameTimes {
    /// The frame's timestamp (ms, `performance.now()`'s clock).
    pub ts: f64,
    /// Wall ms since the last frame.
    pub wall_ms: f64,
    /// The same, at most [`MAX_FRAME_MS`] (a stall is not played through).
    pub dt: f64,
    /// The pipeline animation's clock (ms).
    pub anim_ms: f64,
}

/// What one frame shows.
#[derive(Clone, Debug, Default)]
pub struct FrameOut {
    /// Each lane's pipeline (A, and B when comparing); none before the runs are built.
    pub pipes: Vec<PipeView>,
    /// A fresh live view, when this frame refreshed it.
    pub live: Option<LiveView>,
}

/// The runs and what the loop keeps of them (see the module docs).
#[derive(Default)]
pub struct EngineHost {
    runs: Option<Runs>,
    /// The speed the loop achieves.
    pace: Pace,
    /// The seek under way, if any.
    seeking: Option<SeekJob>,
    /// An instant to seek to once the runs are built (the URL's `t`).
    pending_seek_s: Option<f64>,
    /// The furthest instant the runs reached (simulated seconds).
    reached_s: f64,
    /// The charts at the furthest instant reached, shown with a cursor after a seek back.
    horizon: Option<Horizon>,
    /// The URL's interventions still being replayed, if any (before any other seek).
    do_job: Option<DoReplay>,
    /// The tour step the loop runs, if any.
    tour_job: Option<TourJob>,
    /// The runs changed outside the loop: the next frame publishes a live view.
    dirty: bool,
    /// When the live view was last refreshed (frame ms).
    refreshed_ms: f64,
    /// How many live views were published.
    published: u64,
    /// Paused by a seek or a step until a frame says the page paused too (a frame the page sent
    /// before it heard of the pause still says playing).
    held: bool,
    /// The engine runs apart from the page (in a worker): a frame only reads the runs, and
    /// [`EngineHost::pump`] moves them on between frames.
    pumped: bool,
    /// Where the pump moves the runs to while playing: the last frame's deadline.
    pump_to: Option<SimTime>,
    /// The clock at the last frame (simulated seconds), for the pace.
    last_frame_s: f64,
    /// The last frame's animation time (ms): what the pump's reads of new events are dated.
    last_anim_ms: f64,
    events: Vec<HostEvent>,
    /// The object keys the last answer told the page ([`EngineHost::known`] sends them again
    /// only when they change).
    pub(crate) keys_told: Vec<String>,
}

/// What a fresh set of runs is built from.
#[derive(Clone, Debug)]
pub struct Build {
    /// What A runs.
    pub config: RunConfig,
    /// B's fixes, when comparing.
    pub compare: Option<Variant>,
    /// The URL's interventions, replayed by the loop.
    pub dos: Vec<DoStep>,
    /// The URL's instant, sought once built.
    pub t_s: Option<f64>,
    /// The tour's id and step (counted from 0), when a step runs.
    pub tour: Option<(String, usize)>,
}

impl EngineHost {
    /// An engine's side that runs apart from the page (in a worker): frames read the runs and
    /// set where they are to go, [`EngineHost::pump`] moves them there between frames.
    pub fn pumped() -> EngineHost {
        EngineHost {
            pumped: true,
            ..EngineHost::default()
        }
    }

    /// The runs, once built.
    pub fn runs(&self) -> Option<&Runs> {
        self.runs.as_ref()
    }

    /// The runs, once built, to change.
    pub fn runs_mut(&mut self) -> Option<&mut Runs> {
        self.runs.as_mut()
    }

    /// Takes the events since the last call, oldest first.
    pub fn take_events(&mut self) -> Vec<HostEvent> {
        std::mem::take(&mut self.events)
    }

    /// Marks the runs as changed outside the loop: the next frame publishes a live view.
    pub fn mark_dirty(&mut self) {
        self.dirty = true;
    }

    pub(crate) fn emit(&mut self, event: HostEvent) {
        // the page pauses on these: frames it sent before it heard do not play on
        if matches!(
            event,
            HostEvent::Seeked(_) | HostEvent::Stepped(_) | HostEvent::Paused
        ) {
            self.held = true;
            self.pump_to = None;
        }
        self.events.push(event);
    }

    /// Whether a seek is under way.
    pub fn seeking(&self) -> bool {
        self.seeking.is_some()
    }

    pub(crate) fn seek_job(&self) -> Option<SeekJob> {
        self.seeking
    }

    pub(crate) fn set_seeking(&mut self, job: Option<SeekJob>) {
        self.seeking = job;
    }

    /// Whether the URL's interventions are still being replayed.
    pub fn replaying(&self) -> bool {
        self.do_job.is_some()
    }

    /// The shared clock (simulated seconds), once built.
    pub fn now_s(&self) -> Option<f64> {
        self.runs.as_ref().map(|r| r.now().as_secs_f64())
    }

    /// Builds the runs anew; a configuration the engine refuses never replaces the runs (an
    /// [`HostEvent::Invalid`] says why).
    pub fn build(&mut self, b: Build) {
        match Runs::new(&b.config, b.compare) {
            Ok(built) => {
                // the URL's interventions are replayed by the loop, a frame's budget at a time
                let do_job = DoReplay::new(&b.dos);
                let branched = do_job.as_ref().map(DoReplay::last_s);
                self.runs = Some(built);
                self.seeking = None;
                self.do_job = do_job;
                self.reached_s = 0.0;
                // an instant before the branch's last intervention would leave the branch
                self.pending_seek_s = b.t_s.filter(|t| branched.is_none_or(|l| *t >= l));
                self.horizon = None;
                self.tour_job = b.tour.and_then(|(id, i)| TourJob::of_tour(&id, i));
                self.pump_to = None;
                self.last_frame_s = 0.0;
            }
            Err(e) => self.emit(HostEvent::Invalid(e.to_string())),
        }
        self.dirty = true;
    }

    /// One animation frame: replays the URL's interventions, a seek or a tour step within the
    /// frame's budget, else plays on at the speed asked for; reads the new trace events; reads
    /// each lane's pipeline, and the live view at most every [`REFRESH_MS`] (at once when
    /// something changed outside the loop, or the runs just finished).
    pub fn frame(&mut self, ui: &LoopState, t: FrameTimes) -> FrameOut {
        let replaying = self.do_frame();
        let pending = (!replaying).then(|| self.pending_seek_s.take()).flatten();
        if let Some(at) = pending {
            self.start_seek(at);
        }
        // a frame that replayed or sought does not also play on
        let seeking = replaying
            || pending.is_some()
            || self.seek_frame(SEEK_FRAME_BUDGET_MS)
            || self.tour_frame();
        if !ui.playing {
            self.held = false;
        }
        let mut finished = false;
        let mut pipes = Vec::new();
        if self.runs.is_some() {
            let playing = ui.playing && !seeking && !self.held;
            let done = self.runs.as_ref().is_some_and(Runs::is_finished);
            if playing && self.pumped {
                finished = self.set_pump(ui, t);
            } else if playing && !done {
                finished = self.advance(ui, t);
            } else {
                self.pace.reset();
                self.pump_to = None;
            }
            self.last_anim_ms = t.anim_ms;
            if let Some(runs) = self.runs.as_mut() {
                runs.ingest(t.anim_ms, ui.motion && !seeking);
                self.last_frame_s = runs.now().as_secs_f64();
                self.reached_s = self.reached_s.max(self.last_frame_s);
                pipes = runs.lanes().map(PipeView::read).collect();
            }
        }
        let due = (ui.playing || seeking) && t.ts - self.refreshed_ms >= REFRESH_MS;
        let refreshed = due || ui.dirty || self.dirty || finished;
        let live = if refreshed {
            self.refreshed_ms = t.ts;
            self.published += 1;
            self.dirty = false;
            self.live_view(ui)
        } else {
            None
        };
        if finished {
            self.emit(HostEvent::Finished);
        }
        FrameOut { pipes, live }
    }

    /// Reads the runs' stats and the live view numbered with the next refresh.
    fn live_view(&mut self, ui: &LoopState) -> Option<LiveView> {
        let runs = self.runs.as_mut()?;
        runs.refresh_stats();
        let now_s = runs.now().as_secs_f64();
        let progress = Progress {
            reached_s: self.reached_s.max(now_s),
            seek_progress: self.seeking.map(|j| j.progress(now_s)),
            achieved_speed: self.pace.short_of_requested(),
        };
        Some(LiveView::read(
            runs,
            ui,
            &mut self.horizon,
            progress,
            self.published,
        ))
    }

    /// Replays the URL's interventions within the frame budget; once done, says which branches
    /// there are. Returns whether it replayed this frame.
    fn do_frame(&mut self) -> bool {
        let Some(mut job) = self.do_job.take() else {
            return false;
        };
        let start = web::now_ms();
        let Some(runs) = self.runs.as_mut() else {
            return true;
        };
        if job.drive(runs, &mut || web::now_ms() - start > SEEK_FRAME_BUDGET_MS) {
            let items = crate::acting::replayed_items(runs, job.steps());
            let current = runs.a.run.current_branch().map_or(0, |b| b.0);
            self.reached_s = self.reached_s.max(job.last_s());
            self.dirty = true;
            self.emit(HostEvent::Branches(items, current));
        } else {
            self.do_job = Some(job);
        }
        true
    }

    /// Runs the tour's step within the frame budget; says when it is done. Returns whether a
    /// step runs.
    fn tour_frame(&mut self) -> bool {
        let Some(mut job) = self.tour_job.take() else {
            return false;
        };
        let start = web::now_ms();
        let reached = self
            .runs
            .as_mut()
            .and_then(|runs| job.drive(runs, &mut || web::now_ms() - start > SEEK_FRAME_BUDGET_MS));
        match reached {
            Some(r) => {
                self.dirty = true;
                self.emit(HostEvent::TourReached(r));
                false
            }
            None => {
                self.tour_job = Some(job);
                true
            }
        }
    }

    /// In a worker: records the pace the pump reached since the last frame and sets where it
    /// goes next (the frame's wall ms on at the speed asked for); returns whether every run is
    /// finished.
    fn set_pump(&mut self, ui: &LoopState, t: FrameTimes) -> bool {
        let Some(runs) = self.runs.as_ref() else {
            return false;
        };
        let now_s = runs.now().as_secs_f64();
        // a stall (a hidden tab) is not the runs' pace: the clock skipped it
        if t.wall_ms <= MAX_FRAME_MS {
            self.pace
                .record(ui.speed, now_s - self.last_frame_s, t.wall_ms);
        }
        let finished = runs.is_finished();
        self.pump_to =
            (!finished).then(|| SimTime::from_secs_f64(now_s + t.dt / 1000.0 * ui.speed));
        finished
    }

    /// Whether the pump has runs to move on (playing, short of the last frame's deadline, no
    /// seek, replay or tour step under way).
    pub fn wants_pump(&self) -> bool {
        self.pump_to.is_some()
            && self.seeking.is_none()
            && self.do_job.is_none()
            && self.tour_job.is_none()
    }

    /// Moves the runs toward the last frame's deadline for at most `budget_ms` (a checkpoint's
    /// piece first, when one is due); returns whether there is more to do.
    pub fn pump(&mut self, budget_ms: f64) -> bool {
        if !self.wants_pump() {
            return false;
        }
        let (Some(to), Some(runs)) = (self.pump_to, self.runs.as_mut()) else {
            return false;
        };
        let start = web::now_ms();
        let reached =
            runs.advance_frame(to, &mut || web::now_ms() - start > budget_ms, &mut || {
                web::now_ms() - start > budget_ms
            });
        // the events are read after each slice, while the trace ring still holds them all (the
        // log, the notes and the marks miss none); tokens are drawn from the frame's own read
        runs.ingest(self.last_anim_ms, false);
        if reached || runs.is_finished() {
            self.pump_to = None;
        }
        self.pump_to.is_some()
    }

    /// Moves the runs on by the frame's wall ms at the speed asked for, within the frame's
    /// budget (the pace's: larger after a frame that fell behind); records the pace reached and
    /// returns whether every run is finished.
    fn advance(&mut self, ui: &LoopState, t: FrameTimes) -> bool {
        let Some(runs) = self.runs.as_mut() else {
            return false;
        };
        let before = runs.now().as_secs_f64();
        let deadline = SimTime::from_secs_f64(before + t.dt / 1000.0 * ui.speed);
        self.pace.begin_frame(t.wall_ms);
        let budget_ms = self.pace.budget_ms(ui.embed);
        let start = web::now_ms();
        // a piece of a checkpoint's copy or release starts only within the 60 Hz budget, so a
        // catch-up frame does not lengthen the longest task
        let reached = runs.advance_frame(
            deadline,
            &mut || web::now_ms() - start > budget_ms,
            &mut || web::now_ms() - start > FRAME_BUDGET_MS,
        );
        // a stall (a hidden tab) is not the runs' pace: the clock skipped it
        if t.wall_ms <= MAX_FRAME_MS {
            let advanced = runs.now().as_secs_f64() - before;
            self.pace.record(ui.speed, advanced, t.wall_ms);
        }
        self.pace
            .record_reached(reached || runs.is_finished(), web::now_ms() - start);
        runs.is_finished()
    }
}
