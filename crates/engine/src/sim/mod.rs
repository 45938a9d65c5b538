//! The discrete-event kernel.
//!
//! ```text
//!   schedule(at, event) ──▶ EventQueue ordered by (time, seq) ──▶ step() ──▶ Model::handle(ctx, event)
//!                                   ▲                                              │
//!                                   └──────────── ctx.schedule / ctx.rng / ctx.trace ◀┘
//! ```
//!
//! A [`Model`] owns all simulated state; [`Simulation`] owns the clock, the queue, the one seeded
//! [`Rng`] and the [`Trace`], and hands them to the model through a [`Context`] for each event.
//! Nothing here reads a wall clock or does I/O.

mod causal;
pub(crate) mod chunked;
pub(crate) mod cow;
mod hold_loop;
pub(crate) mod id_map;
pub(crate) mod large;
mod queue;
mod record;
mod rng;
pub(crate) mod seq_index;
pub mod shared;
mod trace;
pub(crate) mod wide;

use std::time::Duration;

pub use causal::{CausalRecord, CausalRing, CauseNote, EventId, DEFAULT_CAUSAL_CAPACITY};
pub use hold_loop::HoldLoop;
pub use queue::EventQueue;
pub use record::{Detail, EventKind, TerminatedReason, TraceEvent, TRACE_EVENT_MAX_BYTES};
pub use rng::Rng;
pub use trace::{Trace, DEFAULT_TRACE_CAPACITY};

use crate::key::Key;
use crate::time::SimTime;

/// What a model sees while it handles one event.
pub struct Context<'a, E> {
    now: SimTime,
    queue: &'a mut EventQueue<E>,
    /// The simulation's one random source.
    pub rng: &'a mut Rng,
    /// The simulation's trace.
    pub trace: &'a mut Trace,
    continuations: Vec<E>,
}

impl<E> Context<'_, E> {
    /// The current virtual time.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Schedules `event` after `delay` from now.
    pub fn schedule_in(&mut self, delay: Duration, event: E) {
        self.queue.schedule(self.now + delay, event);
    }

    /// Schedules `event` at `at` (an instant in the past is treated as now).
    pub fn schedule_at(&mut self, at: SimTime, event: E) {
        self.queue.schedule(at.max(self.now), event);
    }

    /// Continues the current event in `event`, handled before anything else pending (after the
    /// continuations asked for earlier): one long piece of work split into parts so that a front
    /// end can draw between them ([`Simulation::step_until_yield`] stops after each part). The
    /// parts run at the same instant and in the same order relative to every other event as one
    /// event would; only the event count differs.
    pub fn continue_with(&mut self, event: E) {
        self.continuations.push(event);
    }

    /// Records what happened, stamped with the current time, about the object `key` (if any)
    /// at resourceVersion `rv` (if any).
    pub fn trace(&mut self, key: Option<Key>, rv: Option<u64>, kind: EventKind) {
        self.trace.record(TraceEvent {
            time: self.now,
            key,
            resource_version: rv,
            kind,
        });
    }

    /// Records what happened, as [`Context::trace`] does, caused by the events `causes` (and
    /// `note`); returns the event's id.
    pub fn trace_caused(
        &mut self,
        key: Option<Key>,
        rv: Option<u64>,
        kind: EventKind,
        causes: &[EventId],
        note: CauseNote,
    ) -> EventId {
        let event = TraceEvent {
            time: self.now,
            key,
            resource_version: rv,
            kind,
        };
        self.trace.record_caused(event, causes, note)
    }

    /// The id the next traced event gets.
    pub fn next_event_id(&self) -> EventId {
        self.trace.next_id()
    }
}

/// Simulated state that reacts to events.
pub trait Model {
    /// The events this model schedules and handles.
    type Event;

    /// Handles one event at `ctx.now()`.
    fn handle(&mut self, ctx: &mut Context<'_, Self::Event>, event: Self::Event);
}

/// A model together with its clock, event queue, random source and trace.
#[derive(Clone)]
pub struct Simulation<M: Model> {
    model: M,
    now: SimTime,
    queue: EventQueue<M::Event>,
    rng: Rng,
    trace: Trace,
    steps: u64,
    continued: bool,
}

impl<M: Model> Simulation<M> {
    /// A simulation at time zero whose randomness is fully determined by `seed`.
    pub fn new(model: M, seed: u64) -> Self {
        Simulation {
            model,
            now: SimTime::ZERO,
            queue: EventQueue::new(),
            rng: Rng::seeded(seed),
            trace: Trace::default(),
            steps: 0,
            continued: false,
        }
    }

    /// Replaces the trace (e.g. with a different capacity).
    pub fn with_trace(mut self, trace: Trace) -> Self {
        self.trace = trace;
        self
    }

    /// The current virtual time.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Schedules an event from outside the model (initial events, user actions).
    pub fn schedule(&mut self, at: SimTime, event: M::Event) {
        self.queue.schedule(at.max(self.now), event);
    }

    /// Handles the earliest pending event; returns `false` when none is pending.
    pub fn step(&mut self) -> bool {
        let Some((at, seq, event)) = self.queue.pop_entry() else {
            return false;
        };
        self.now = at;
        self.steps += 1;
        let mut ctx = Context {
            now: at,
            queue: &mut self.queue,
            rng: &mut self.rng,
            trace: &mut self.trace,
            continuations: Vec::new(),
        };
        self.model.handle(&mut ctx, event);
        let continuations = std::mem::take(&mut ctx.continuations);
        self.continued = !continuations.is_empty();
        if self.continued {
            // (most events continue nothing: no iterator to set up and drop for them)
            for next in continuations {
                self.queue.schedule_continuation(at, seq, next);
            }
        }
        true
    }

    /// Handles every event due at or before `deadline`, then sets the clock to `deadline`.
    /// Returns the number of events handled.
    pub fn step_until(&mut self, deadline: SimTime) -> u64 {
        self.step_until_bounded(deadline, u64::MAX)
    }

    /// Like [`Simulation::step_until`] but handles at most `max_events`; the clock only moves to
    /// `deadline` if every due event was handled. This is how a front end keeps a frame budget.
    pub fn step_until_bounded(&mut self, deadline: SimTime, max_events: u64) -> u64 {
        self.step_until_inner(deadline, max_events, false)
    }

    /// Like [`Simulation::step_until_bounded`], but also stops right after an event that
    /// continued its work in another ([`Context::continue_with`]), so a front end can draw
    /// between the parts. Returns the number of events handled.
    pub fn step_until_yield(&mut self, deadline: SimTime, max_events: u64) -> u64 {
        self.step_until_inner(deadline, max_events, true)
    }

    fn step_until_inner(&mut self, deadline: SimTime, max_events: u64, yielding: bool) -> u64 {
        let mut handled = 0;
        while handled < max_events {
            match self.queue.peek_time() {
                Some(at) if at <= deadline => {
                    self.step();
                    handled += 1;
                    if yielding && self.continued {
                        return handled;
                    }
                }
                _ => {
                    self.now = self.now.max(deadline);
                    return handled;
                }
            }
        }
        if self.queue.peek_time().is_none_or(|at| at > deadline) {
            self.now = self.now.max(deadline);
        }
        handled
    }

    /// Runs for `d` of virtual time from now.
    pub fn run_for(&mut self, d: Duration) -> u64 {
        let deadline = self.now + d;
        self.step_until(deadline)
    }

    /// The model.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The model, mutably (for user actions between steps).
    pub fn model_mut(&mut self) -> &mut M {
        &mut self.model
    }

    /// The trace so far.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// The random source's current state (serializable, for checkpoints).
    pub fn rng(&self) -> &Rng {
        &self.rng
    }

    /// Number of events handled so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// When the earliest pending event is due, if any is pending.
    pub fn next_event_time(&self) -> Option<SimTime> {
        self.queue.peek_time()
    }

    /// Number of events still pending.
    pub fn pending(&self) -> usize {
        self.queue.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy model: each "tick" reschedules itself after a random delay and spawns a "tock".
    struct Ticker;

    enum Ev {
        Tick(u32),
        Tock(u32),
    }

    impl Model for Ticker {
        type Event = Ev;

        fn handle(&mut self, ctx: &mut Context<'_, Ev>, event: Ev) {
            match event {
                Ev::Tick(n) => {
                    let delay = Duration::from_millis(1 + ctx.rng.below(100));
                    ctx.trace(None, Some(u64::from(n)), EventKind::Mark { name: "tick" });
                    ctx.schedule_in(delay, Ev::Tick(n + 1));
                    ctx.schedule_in(Duration::ZERO, Ev::Tock(n));
                }
                Ev::Tock(n) => {
                    ctx.trace(None, Some(u64::from(n)), EventKind::Mark { name: "tock" })
                }
            }
        }
    }

    fn run(seed: u64) -> Simulation<Ticker> {
        let mut sim = Simulation::new(Ticker, seed);
        sim.schedule(SimTime::ZERO, Ev::Tick(0));
        sim.run_for(Duration::from_secs(10));
        sim
    }

    #[test]
    fn the_same_seed_gives_a_byte_identical_trace_twice() {
        let (a, b) = (run(2026), run(2026));
        assert!(a.trace().total() > 100);
        assert_eq!(a.trace().to_text(), b.trace().to_text());
        assert_eq!(a.trace().hash(), b.trace().hash());
    }

    #[test]
    fn a_different_seed_gives_a_different_trace() {
        assert_ne!(run(1).trace().hash(), run(2).trace().hash());
    }

    #[test]
    fn run_for_stops_at_the_deadline_and_sets_the_clock_to_it() {
        let sim = run(5);
        assert_eq!(sim.now(), SimTime::from_millis(10_000));
        assert!(sim
            .trace()
            .events()
            .all(|e| e.time <= SimTime::from_millis(10_000)));
        assert!(
            sim.pending() > 0,
            "the next tick is still pending after the deadline"
        );
    }

    #[test]
    fn an_event_scheduled_with_zero_delay_runs_after_the_current_one_at_the_same_time() {
        let sim = run(3);
        let lines: Vec<String> = sim
            .trace()
            .events()
            .take(2)
            .map(|e| e.to_string())
            .collect();
        assert!(
            lines[0].contains("tick") && lines[1].contains("tock"),
            "{lines:?}"
        );
        assert!(lines[1].starts_with("0.000s"));
    }

    #[test]
    fn a_bounded_step_leaves_the_clock_before_unhandled_events() {
        let mut sim = Simulation::new(Ticker, 1);
        sim.schedule(SimTime::ZERO, Ev::Tick(0));
        let handled = sim.step_until_bounded(SimTime::from_millis(10_000), 3);
        assert_eq!(handled, 3);
        assert!(sim.now() < SimTime::from_millis(10_000));
    }

    /// A model whose "work" event does its items three at a time, continuing itself.
    struct Splitter;

    enum Job {
        Work { from: u32, to: u32 },
        Other(&'static str),
    }

    impl Model for Splitter {
        type Event = Job;

        fn handle(&mut self, ctx: &mut Context<'_, Job>, event: Job) {
            match event {
                Job::Work { from, to } => {
                    let end = (from + 3).min(to);
                    ctx.trace(
                        None,
                        Some(u64::from(from)),
                        EventKind::Mark { name: "part" },
                    );
                    ctx.schedule_in(Duration::ZERO, Job::Other("scheduled-by-work"));
                    if end < to {
                        ctx.continue_with(Job::Work { from: end, to });
                    }
                }
                Job::Other(name) => ctx.trace(None, None, EventKind::Mark { name }),
            }
        }
    }

    #[test]
    fn a_continued_event_runs_its_parts_before_anything_else_at_that_instant() {
        let mut sim = Simulation::new(Splitter, 1);
        sim.schedule(SimTime::ZERO, Job::Work { from: 0, to: 9 });
        sim.schedule(SimTime::ZERO, Job::Other("scheduled-before"));
        sim.step_until(SimTime::from_millis(1));
        let order: Vec<String> = sim
            .trace()
            .events()
            .map(|e| {
                format!(
                    "{}{}",
                    e.event(),
                    e.resource_version.map_or(String::new(), |v| v.to_string())
                )
            })
            .collect();
        assert_eq!(
            order,
            [
                "part0",
                "part3",
                "part6",
                "scheduled-before",
                "scheduled-by-work",
                "scheduled-by-work",
                "scheduled-by-work"
            ]
        );
    }

    #[test]
    fn continuations_run_in_the_order_they_were_asked_for() {
        struct Two;
        impl Model for Two {
            type Event = u32;
            fn handle(&mut self, ctx: &mut Context<'_, u32>, n: u32) {
                ctx.trace(None, Some(u64::from(n)), EventKind::Mark { name: "ran" });
                if n == 0 {
                    ctx.continue_with(1);
                    ctx.continue_with(2);
                } else if n == 1 {
                    ctx.continue_with(3);
                }
            }
        }
        let mut sim = Simulation::new(Two, 1);
        sim.schedule(SimTime::ZERO, 0);
        sim.schedule(SimTime::ZERO, 9);
        sim.step_until(SimTime::ZERO);
        let order: Vec<u64> = sim
            .trace()
            .events()
            .filter_map(|e| e.resource_version)
            .collect();
        assert_eq!(order, [0, 1, 2, 3, 9]);
    }

    #[test]
    fn stepping_until_a_yield_stops_after_each_part_and_bounded_stepping_does_not() {
        let mut yielding = Simulation::new(Splitter, 1);
        yielding.schedule(SimTime::ZERO, Job::Work { from: 0, to: 9 });
        let deadline = SimTime::from_millis(1);
        assert_eq!(yielding.step_until_yield(deadline, 100), 1);
        assert_eq!(
            yielding.now(),
            SimTime::ZERO,
            "the clock waits for the remaining parts"
        );
        assert_eq!(yielding.step_until_yield(deadline, 100), 1);
        assert_eq!(
            yielding.step_until_yield(deadline, 100),
            4,
            "the last part, then the rest"
        );
        assert_eq!(yielding.now(), deadline);
        let mut bounded = Simulation::new(Splitter, 1);
        bounded.schedule(SimTime::ZERO, Job::Work { from: 0, to: 9 });
        assert_eq!(bounded.step_until_bounded(deadline, 100), 6);
        assert_eq!(bounded.trace().hash(), yielding.trace().hash());
    }
}
