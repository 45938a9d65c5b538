//! What every component reads: the reducer's state and its dispatcher, plus the handles the
//! callbacks use to act on the runs (step, pick an object on a pipeline). Components read the runs'
//! live numbers from [`crate::live::LiveView`], never from the runs themselves.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::i18n::Lang;
use crate::pace::Pace;
use crate::pipe_view::PipeView;
use crate::pipeline_draw::{self, Hit};
use crate::runs::{Runs, Side};
use crate::seeking::SeekJob;
use crate::state::{Action, AppState};
use crate::stepping::StepTarget;
use crate::web;
use flywheel_engine::SimTime;

/// How far a step moves the pipeline's animation (ms): the step's tokens show halfway along
/// their edges, and the tokens already there move on a little.
pub const STEP_ANIM_MS: f64 = 350.0;
/// Wall-clock ms one step may spend looking for its target before it reports where it got.
pub const STEP_BUDGET_MS: f64 = 400.0;

/// Wall-clock ms a seek replays at once when asked, before the animation loop takes over.
pub const SEEK_FIRST_BUDGET_MS: f64 = 40.0;
/// Wall-clock ms a seek replays per animation frame (a frame stays well under 50 ms).
pub const SEEK_FRAME_BUDGET_MS: f64 = 30.0;

/// The least of [`SEEK_FIRST_BUDGET_MS`] left after the restore for which a seek replays at once.
const SEEK_FIRST_MIN_MS: f64 = 10.0;

/// The runs, shared by the animation loop and the callbacks, outside the components.
pub type RunsCell = Rc<RefCell<Option<Runs>>>;

/// The animation loop's frame, run outside the loop when the page must show an instant before the
/// next frame (its argument is the time, as `performance.now()` gives it). Set while the loop
/// runs.
pub type FrameCell = Rc<RefCell<Option<Rc<dyn Fn(f64)>>>>;

/// What the animation loop reads of the state (copied at each render of the page) and what it
/// keeps between frames.
#[derive(Clone, Debug, Default)]
pub struct LoopState {
    /// Whether the clock runs.
    pub playing: bool,
    /// Simulated seconds per wall second asked for.
    pub speed: f64,
    /// Whether the theme in effect is dark.
    pub dark: bool,
    /// The language in effect.
    pub lang: Lang,
    /// Whether tokens move (no reduced-motion preference).
    pub motion: bool,
    /// The runs changed outside the loop (built, stepped, another side or object shown): the
    /// loop publishes a fresh live view once.
    pub dirty: bool,
    /// The side the panels show.
    pub side: Side,
    /// The object the inspect panel shows, if one was picked.
    pub selected: Option<String>,
    /// Whether the page is an embed (two charts instead of four).
    pub embed: bool,
    /// Whether the inspect panel is open (only then does the live view read an object).
    pub inspecting: bool,
    /// The pipeline animation's clock (ms): it runs with the simulation and stands still while
    /// paused, so a paused pipeline keeps its tokens and its loop edge as they were.
    pub anim_ms: f64,
    /// The speed the loop achieves.
    pub pace: Pace,
    /// The seek under way, if any.
    pub seeking: Option<SeekJob>,
    /// An instant to seek to once the runs are built (the URL's `t`).
    pub pending_seek_s: Option<f64>,
    /// The furthest instant the runs reached (simulated seconds).
    pub reached_s: f64,
    /// The charts at the furthest instant reached, shown with a cursor after a seek back.
    pub horizon: Option<crate::horizon::Horizon>,
    /// The chain the why panel shows, lit on the side shown's pipeline.
    pub lit: Option<Rc<crate::why_view::WhyView>>,
    /// The URL's interventions the loop is still replaying, if any (before any other seek).
    pub do_job: Option<crate::do_steps::DoReplay>,
    /// The tour step the loop runs, if any.
    pub tour_job: Option<crate::tour_run::TourJob>,
    /// Whether a tour is open (and no dialog over it): ← and → step the tour.
    pub touring: bool,
    /// Whether presenter mode is on.
    pub presenter: bool,
}

/// The context every component reads.
#[derive(Clone)]
pub struct Ctx {
    /// The reducer.
    pub state: UseReducerHandle<AppState>,
    /// The runs (read by callbacks and the animation loop only).
    pub runs: RunsCell,
    /// The pipeline canvases (A, B).
    pub pipes: [NodeRef; 2],
    /// What the animation loop reads and keeps.
    pub looping: Rc<RefCell<LoopState>>,
    /// The animation loop's frame, to draw at once.
    pub frame_now: FrameCell,
}

/// Two contexts are equal when they hold the same state and the same runs: the other handles
/// never change over the page's life.
impl PartialEq for Ctx {
    fn eq(&self, other: &Self) -> bool {
        self.state == other.state
            && Rc::ptr_eq(&self.runs, &other.runs)
            && Rc::ptr_eq(&self.looping, &other.looping)
    }
}

impl Ctx {
    /// Dispatches an action.
    pub fn dispatch(&self, a: Action) {
        self.state.dispatch(a);
    }

    /// The canvas of `side`'s pipeline.
    pub fn pipe(&self, side: Side) -> &NodeRef {
        &self.pipes[side.index()]
    }

    /// Pauses and steps the run shown to `target` (one event, the next Reconcile, the next
    /// write); the step's tokens appear on the paused pipeline and a line says what it did.
    pub fn step(&self, target: StepTarget) {
        // the side as the page last rendered it (a keyboard handler holds an older state)
        let side = self.looping.borrow().side;
        let report = self.runs.borrow_mut().as_mut().map(|r| {
            let start = web::now_ms();
            let report = r.step_to(side, target, &mut || web::now_ms() - start > STEP_BUDGET_MS);
            let mut l = self.looping.borrow_mut();
            r.ingest(l.anim_ms, l.motion);
            l.anim_ms += STEP_ANIM_MS;
            l.dirty = true;
            report
        });
        match report {
            Some(r) => self.dispatch(Action::Stepped(r)),
            None => self.dispatch(Action::Pause),
        }
    }

    /// Sends the runs to `t_s` (simulated seconds), paused: what the replay can do at once is
    /// done now, the rest over the next frames ([`Ctx::seek_frame`]). A seek that reaches its
    /// instant at once is drawn at once, in the same task as the click or key that asked for it,
    /// not a frame later.
    pub fn seek(&self, t_s: f64) {
        if self.start_seek(t_s) {
            self.draw_now();
        }
    }

    /// Begins a seek to `t_s` and replays what it can at once; returns whether it reached the
    /// instant (the animation loop's own seeks draw in the frame they run in).
    pub fn start_seek(&self, t_s: f64) -> bool {
        // the URL's interventions are still being replayed: the runs are not yet on their branch
        if self.looping.borrow().do_job.is_some() {
            return false;
        }
        let start = web::now_ms();
        let job = self
            .runs
            .borrow_mut()
            .as_mut()
            .and_then(|r| r.begin_seek(SimTime::from_secs_f64(t_s.max(0.0))));
        let Some(job) = job else { return false };
        self.seeked(job.to.as_secs_f64());
        self.follow_branch();
        self.looping.borrow_mut().seeking = Some(job);
        // restoring a large run's checkpoint may have used this task's time already; the
        // replay (which first frees the state replaced) then starts in the next frame
        let left_ms = SEEK_FIRST_BUDGET_MS - (web::now_ms() - start);
        left_ms > SEEK_FIRST_MIN_MS && !self.seek_frame(left_ms)
    }

    /// Runs the animation loop's frame now: the pipelines drawn and the live view published
    /// from the runs as they stand (nothing when the loop is not running).
    pub fn draw_now(&self) {
        let frame = self.frame_now.borrow().clone();
        if let Some(frame) = frame {
            frame(web::now_ms());
        }
    }

    /// Replays the seek under way for at most `budget_ms`; returns whether one is still under way.
    pub fn seek_frame(&self, budget_ms: f64) -> bool {
        let Some(job) = self.looping.borrow().seeking else {
            return false;
        };
        let done = self.runs.borrow_mut().as_mut().is_none_or(|r| {
            let start = web::now_ms();
            let done = r.continue_seek(&job, &mut || web::now_ms() - start > budget_ms);
            if done {
                r.finish_seek();
            }
            done
        });
        if done {
            let mut l = self.looping.borrow_mut();
            l.seeking = None;
            l.dirty = true;
            drop(l);
            self.follow_branch();
        }
        !done
    }

    /// Tells the page the runs stand paused at `t_s`. The loop's copy of the state pauses now, not
    /// at the next render: a frame between the two must not play on from the instant.
    pub fn seeked(&self, t_s: f64) {
        self.dispatch(Action::Seeked(t_s));
        self.looping.borrow_mut().playing = false;
    }

    /// Stops the seek under way where its replay got.
    pub fn cancel_seek(&self) {
        let job = self.looping.borrow_mut().seeking.take();
        if job.is_some() {
            if let Some(r) = self.runs.borrow_mut().as_mut() {
                r.finish_seek();
                let now_s = r.now().as_secs_f64();
                self.seeked(now_s);
            }
            self.looping.borrow_mut().dirty = true;
            self.follow_branch();
        }
    }

    /// Goes back to the newest event before the clock on the side shown.
    pub fn step_back(&self) {
        let side = self.looping.borrow().side;
        let at = self
            .runs
            .borrow()
            .as_ref()
            .and_then(|r| r.previous_event_s(side));
        if let Some(at) = at {
            self.seek(at);
        }
    }

    /// Whether a seek is under way.
    pub fn seeking(&self) -> bool {
        self.looping.borrow().seeking.is_some()
    }

    /// The object drawn at (`x`, `y`) (pipeline coordinates) on `side`'s pipeline, if any.
    pub fn object_at(&self, side: Side, x: f64, y: f64) -> Option<String> {
        let anim_ms = self.looping.borrow().anim_ms;
        let runs = self.runs.borrow();
        let lane = runs.as_ref()?.side(side)?;
        match pipeline_draw::hit(&PipeView::read(lane), x, y, anim_ms)? {
            Hit::Token(key) => Some(key),
            Hit::Store => lane.run.object_keys(1).into_iter().next(),
        }
    }

    /// Whether the theme in effect is dark.
    pub fn dark(&self) -> bool {
        self.state
            .dark(web::prefers("(prefers-color-scheme: dark)"))
    }
}

/// The context every component reads.
#[hook]
pub fn use_ctx() -> Ctx {
    use_context::<Ctx>().expect("components are rendered inside the App's context provider")
}
