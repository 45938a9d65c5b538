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

mod queue;
mod rng;
mod trace;

use std::borrow::Cow;
use std::time::Duration;

pub use queue::EventQueue;
pub use rng::Rng;
pub use trace::{Trace, TraceEvent, DEFAULT_TRACE_CAPACITY};

use crate::time::SimTime;

/// What a model sees while it handles one event.
pub struct Context<'a, E> {
    now: SimTime,
    queue: &'a mut EventQueue<E>,
    /// The simulation's one random source.
    pub rng: &'a mut Rng,
    /// The simulation's trace.
    pub trace: &'a mut Trace,
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

    /// Records a trace line stamped with the current time.
    pub fn trace(
        &mut self,
        component: &'static str,
        event: impl Into<Cow<'static, str>>,
        key: Option<&str>,
        rv: Option<u64>,
        detail: String,
    ) {
        self.trace.record(TraceEvent {
            time: self.now,
            component: Cow::Borrowed(component),
            event: event.into(),
            key: key.map(str::to_owned),
            resource_version: rv,
            detail,
        });
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
pub struct Simulation<M: Model> {
    model: M,
    now: SimTime,
    queue: EventQueue<M::Event>,
    rng: Rng,
    trace: Trace,
    steps: u64,
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
        let Some((at, event)) = self.queue.pop() else {
            return false;
        };
        self.now = at;
        self.steps += 1;
        let mut ctx = Context {
            now: at,
            queue: &mut self.queue,
            rng: &mut self.rng,
            trace: &mut self.trace,
        };
        self.model.handle(&mut ctx, event);
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
        let mut handled = 0;
        while handled < max_events {
            match self.queue.peek_time() {
                Some(at) if at <= deadline => {
                    self.step();
                    handled += 1;
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
                    ctx.trace(
                        "ticker",
                        "tick",
                        None,
                        Some(u64::from(n)),
                        format!("next_ms={}", delay.as_millis()),
                    );
                    ctx.schedule_in(delay, Ev::Tick(n + 1));
                    ctx.schedule_in(Duration::ZERO, Ev::Tock(n));
                }
                Ev::Tock(n) => ctx.trace("ticker", "tock", None, Some(u64::from(n)), String::new()),
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
}
