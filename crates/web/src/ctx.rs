//! What every component reads: the reducer's state and its dispatcher, plus the handles the
//! callbacks use to act on the runs (step, seek, pick an object on a pipeline) through the
//! engine's side ([`crate::host::EngineHost`]). Components read the runs' live numbers from
//! [`crate::live::LiveView`], never from the runs themselves.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::host::{HostEvent, Intervened};
use crate::host_link::HostLink;
use crate::host_msg::ToHost;
use crate::i18n::Lang;
use crate::live::LivePublisher;
use crate::pipe_view::PipeView;
use crate::pipeline_draw::{self, Hit};
use crate::runs::Side;
use crate::state::{Action, AppState};
use crate::stepping::StepTarget;
use crate::tour::TourAction;
use crate::web;
use crate::why_state::WhyAction;

/// How far a step moves the pipeline's animation (ms): the step's tokens show halfway along
/// their edges, and the tokens already there move on a little.
pub const STEP_ANIM_MS: f64 = 350.0;

/// Wall-clock ms a seek replays at once when asked, before the animation loop takes over.
pub const SEEK_FIRST_BUDGET_MS: f64 = 40.0;
/// Wall-clock ms a seek replays per animation frame (a frame stays well under 50 ms).
pub const SEEK_FRAME_BUDGET_MS: f64 = 30.0;

/// The animation loop's frame, run outside the loop when the page must show an instant before the
/// next frame (its argument is the time, as `performance.now()` gives it). Set while the loop
/// runs.
pub type FrameCell = Rc<RefCell<Option<Rc<dyn Fn(f64)>>>>;

/// What the animation loop reads of the page's state (copied at each render of the page), and
/// the pipeline animation's clock it keeps between frames.
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
    /// What the live view shows changed on the page's side (another side, object or panel, the
    /// language, the theme): the loop publishes a fresh live view once.
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
    /// The chain the why panel shows, lit on the side shown's pipeline (the page's own: the
    /// engine's side never reads it).
    pub lit: Option<Rc<crate::why_view::WhyView>>,
    /// Whether a tour is open (and no dialog over it): ← and → step the tour.
    pub touring: bool,
    /// Whether presenter mode is on.
    pub presenter: bool,
}

/// Who hears what became of an intervention.
type Reply = Box<dyn FnOnce(Intervened)>;

/// What the page waits to hear about its interventions: a callback for each number asked.
#[derive(Default)]
pub struct Replies {
    next: u64,
    waiting: Vec<(u64, Reply)>,
}

/// The context every component reads.
#[derive(Clone)]
pub struct Ctx {
    /// The reducer.
    pub state: UseReducerHandle<AppState>,
    /// The engine's side, in a Web Worker or in the page (see [`HostLink`]).
    pub link: Rc<HostLink>,
    /// The pipeline canvases (A, B).
    pub pipes: [NodeRef; 2],
    /// What each pipeline shows, as last answered (drawn every frame until the next).
    pub shown: Rc<RefCell<Vec<PipeView>>>,
    /// What the animation loop reads and keeps.
    pub looping: Rc<RefCell<LoopState>>,
    /// The animation loop's frame, to draw at once.
    pub frame_now: FrameCell,
    /// The interventions asked for and not answered yet.
    pub replies: Rc<RefCell<Replies>>,
    /// Where each new live view goes.
    pub publisher: LivePublisher,
}

/// Two contexts are equal when they hold the same state and the same link: the other handles
/// never change over the page's life.
impl PartialEq for Ctx {
    fn eq(&self, other: &Self) -> bool {
        self.state == other.state
            && Rc::ptr_eq(&self.link, &other.link)
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

    /// Sends `msg` to the engine's side, then follows what it answered so far (in the page, its
    /// answer to `msg`; from a worker, what arrived before).
    pub fn send(&self, msg: ToHost) {
        let side = self.looping.borrow().side;
        self.link.send(msg, side);
        self.receive();
    }

    /// Follows every answer waiting in the link: the events, and the newest frame's views (the
    /// pipelines kept for drawing, the live view published). Returns whether a frame came.
    pub fn receive(&self) -> bool {
        let mut framed = false;
        for answer in self.link.take() {
            for event in answer.events {
                self.follow_one(event);
            }
            if let Some(frame) = answer.frame {
                framed = true;
                *self.shown.borrow_mut() = frame.pipes;
                if let Some(view) = frame.live {
                    self.publish(view);
                }
            }
        }
        framed
    }

    fn publish(&self, view: crate::live::LiveView) {
        self.publisher.publish(view);
    }

    fn follow_one(&self, event: HostEvent) {
        let branches = || self.state.why.branches.clone();
        match event {
            HostEvent::Finished => self.dispatch(Action::Finished),
            HostEvent::Seeked(t_s) => {
                self.dispatch(Action::Seeked(t_s));
                // the loop's copy of the state pauses now, not at the next render: a frame
                // between the two must not play on from the instant
                self.looping.borrow_mut().playing = false;
            }
            HostEvent::SeekReached => self.draw_now(),
            HostEvent::OnBranch(current) => {
                // the tracks and the URL's `do` follow the branch a seek landed on
                if self.state.why.branches.len() >= 2 {
                    self.dispatch(Action::Why(WhyAction::Branches(branches(), current)));
                }
            }
            HostEvent::SwitchedTo(id) => {
                self.dispatch(Action::Why(WhyAction::Branches(branches(), id)));
            }
            HostEvent::Branches(items, current) => {
                self.dispatch(Action::Why(WhyAction::Branches(Rc::new(items), current)));
            }
            HostEvent::TourReached(r) => self.dispatch(Action::Tour(TourAction::Reached(r))),
            HostEvent::Stepped(report) => self.dispatch(Action::Stepped(report)),
            HostEvent::Paused => self.dispatch(Action::Pause),
            HostEvent::Why(view) => {
                self.dispatch(Action::Why(WhyAction::Show(view.map(Rc::new))));
            }
            HostEvent::Invalid(e) => {
                self.dispatch(Action::Notify(crate::state::Notice::Invalid(e)));
            }
            HostEvent::Intervened(asked, outcome) => {
                let reply = {
                    let mut r = self.replies.borrow_mut();
                    let i = r.waiting.iter().position(|(n, _)| *n == asked);
                    i.map(|i| r.waiting.remove(i).1)
                };
                if let Some(reply) = reply {
                    reply(outcome);
                }
            }
        }
    }

    /// Pauses and steps the run shown to `target` (one event, the next Reconcile, the next
    /// write); the step's tokens appear on the paused pipeline and a line says what it did.
    pub fn step(&self, target: StepTarget) {
        // the side as the page last rendered it (a keyboard handler holds an older state)
        let (side, anim_ms, motion) = {
            let l = self.looping.borrow();
            (l.side, l.anim_ms, l.motion)
        };
        self.send(ToHost::Step(side, target, anim_ms, motion));
        self.looping.borrow_mut().anim_ms += STEP_ANIM_MS;
    }

    /// Sends the runs to `t_s` (simulated seconds), paused: what the replay can do at once is
    /// done now, the rest over the next frames. A seek that reaches its instant at once is drawn
    /// at once, in the same task as the click or key that asked for it, not a frame later.
    pub fn seek(&self, t_s: f64) {
        self.send(ToHost::Seek(t_s));
    }

    /// Runs the animation loop's frame now: the pipelines drawn and the live view published
    /// from the runs as they stand (nothing when the loop is not running).
    pub fn draw_now(&self) {
        let frame = self.frame_now.borrow().clone();
        if let Some(frame) = frame {
            frame(web::now_ms());
        }
    }

    /// Stops the seek under way where its replay got.
    pub fn cancel_seek(&self) {
        self.send(ToHost::CancelSeek);
    }

    /// Goes back to the newest event before the clock on the side shown.
    pub fn step_back(&self) {
        let side = self.looping.borrow().side;
        self.send(ToHost::StepBack(side));
    }

    /// Asks for the intervention `text` (the engine's `--do` words) at the instant shown on
    /// every run; `then` hears what became of it.
    pub fn intervene(&self, text: &str, then: impl FnOnce(Intervened) + 'static) {
        let asked = {
            let mut r = self.replies.borrow_mut();
            r.next += 1;
            let asked = r.next;
            r.waiting.push((asked, Box::new(then)));
            asked
        };
        let side = self.looping.borrow().side;
        let known = self.state.why.branches.to_vec();
        self.send(ToHost::Intervene(asked, side, text.to_owned(), known));
    }

    /// Whether a seek is under way.
    pub fn seeking(&self) -> bool {
        self.link.known().seeking
    }

    /// The shared clock (simulated seconds), once the runs are built.
    pub fn now_s(&self) -> Option<f64> {
        self.link.known().now_s
    }

    /// The object drawn at (`x`, `y`) (pipeline coordinates) on `side`'s pipeline, if any.
    pub fn object_at(&self, side: Side, x: f64, y: f64) -> Option<String> {
        let anim_ms = self.looping.borrow().anim_ms;
        let shown = self.shown.borrow();
        match pipeline_draw::hit(shown.get(side.index())?, x, y, anim_ms)? {
            Hit::Token(key) | Hit::Store(key) => Some(key),
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
