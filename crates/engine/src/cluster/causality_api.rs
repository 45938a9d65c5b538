//! Queries on a run's causal ring: causes, effects, chains back to an origin, why a Reconcile
//! ran, and the write loop it may close.
//!
//! ```text
//!  causes_of(#48) = [#47]        effects_of(#47) = [#48]
//!  chain_back(#60) = [#60 Reconcile, #48 Enqueue, #47 Pop, #45 MODIFIED, #41 PUT, #31 Reconcile, …]
//!  why(#60) ─▶ Why { adds: [AddChain …] }      loop_report() ─▶ LoopReport { period, fixes }
//! ```
//!
//! Every query reads only the events the ring still keeps ([`crate::sim::CausalRing`]); a chain
//! that goes further back ends in [`Link::FellOut`].
//!
//! ```
//! use std::time::Duration;
//! use flywheel_engine::cluster::run::{Run, RunOptions};
//! use flywheel_engine::{scenario::presets, SimTime};
//!
//! let scenario = presets::load("flywheel", &[]).unwrap();
//! let options = RunOptions { duration: Some(Duration::from_secs(60)), ..RunOptions::default() };
//! let mut run = Run::new(scenario, &options).unwrap();
//! while !run.advance(100_000) {}
//!
//! let reconcile = run.reconcile_at(SimTime::from_secs_f64(50.0), None).unwrap();
//! let why = run.why(reconcile).unwrap();
//! assert!(why.self_triggered());
//! assert!(why.to_string().contains("own write rv="));
//! let round = run.loop_of(reconcile).unwrap();
//! assert!(round.period > Duration::ZERO);
//! assert!(run.chain_back(reconcile).len() > round.period_events as usize / 20);
//! ```

use crate::scenario::variant::Variant;
use crate::sim::{CausalRecord, CausalRing, EventId, EventKind};
use crate::time::SimTime;

use super::loop_report::{write_loop_fixes, LoopCut, LoopFix, LoopReport};
use super::run::Run;
use super::why::{AddChain, Link, Why};

/// Most Reconciles [`Run::loop_report`] examines, newest first.
pub const LOOP_SEARCH_RECONCILES: usize = 64;

impl Run {
    /// The causal ring: the newest events with their causes.
    pub fn causal(&self) -> &CausalRing {
        self.trace().causal()
    }

    /// The events that caused `id`, or `None` when `id` is not kept (any more, or yet).
    pub fn causes_of(&self, id: EventId) -> Option<Vec<EventId>> {
        self.causal().get(id).map(|r| r.causes.to_vec())
    }

    /// The kept events that `id` caused, oldest first.
    pub fn effects_of(&self, id: EventId) -> Vec<EventId> {
        self.causal()
            .records_from(EventId(id.0 + 1))
            .filter(|r| r.causes.contains(&id))
            .map(|r| r.id)
            .collect()
    }

    /// The chain from `id` back to its origin (a user action, a start, a relist, a resync),
    /// newest first, following at each step the cause that carried the same resourceVersion, or
    /// else the newest cause; it stops where the ring no longer keeps the cause.
    pub fn chain_back(&self, id: EventId) -> Vec<EventId> {
        let ring = self.causal();
        let mut chain = Vec::new();
        let mut next = Some(id);
        while let Some(id) = next {
            chain.push(id);
            next = ring.get(id).and_then(|r| preferred_cause(ring, &r));
        }
        chain
    }

    /// Why the Reconcile `reconcile` ran: each add merged into its key, traced back to where it
    /// started. `None` when `reconcile` is not a kept Reconcile.
    pub fn why(&self, reconcile: EventId) -> Option<Why> {
        let ring = self.causal();
        let r = ring.get(reconcile)?;
        if !matches!(r.event.kind, EventKind::Reconcile { .. }) {
            return None;
        }
        let predicates: Vec<&'static str> = self
            .scenario()
            .controller
            .predicates
            .iter()
            .map(|p| p.go_name())
            .collect();
        let adds = r
            .causes
            .iter()
            .map(|&add| add_chain(ring, add, &predicates))
            .collect();
        Some(Why {
            reconcile,
            key: r.event.key.clone()?,
            at: r.event.time,
            adds,
            delayed: r.note == crate::sim::CauseNote::Delayed,
        })
    }

    /// The Reconcile running at `at` (started at or before it, not finished before it), or else
    /// the first starting after it; of `key` only, when given.
    pub fn reconcile_at(&self, at: SimTime, key: Option<&str>) -> Option<EventId> {
        let ring = self.causal();
        let matches = |r: &CausalRecord<'_>| key.is_none_or(|k| r.event.key_str() == k);
        let mut running = None;
        for r in ring.records().filter(matches) {
            match r.event.kind {
                EventKind::Reconcile { .. } if r.event.time <= at => running = Some(r.id),
                EventKind::Reconcile { .. } => return running.or(Some(r.id)),
                EventKind::Reconciled { .. } | EventKind::Panic
                    if r.event.time < at && running.is_some_and(|id| r.causes.contains(&id)) =>
                {
                    running = None;
                }
                _ => {}
            }
        }
        running
    }

    /// The loop the Reconcile `reconcile` closes, if it is self-triggered.
    pub fn loop_of(&self, reconcile: EventId) -> Option<LoopReport> {
        let variant = Variant::of(self.scenario());
        self.why(reconcile)
            .and_then(|why| loop_of(self.causal(), &why, variant))
    }

    /// The newest self-triggered Reconcile among the last [`LOOP_SEARCH_RECONCILES`] kept, as a
    /// loop: its period and the links a fix would cut. `None` when none of them is.
    pub fn loop_report(&self) -> Option<LoopReport> {
        let ring = self.causal();
        ring.records()
            .rev()
            .filter(|r| matches!(r.event.kind, EventKind::Reconcile { .. }))
            .take(LOOP_SEARCH_RECONCILES)
            .find_map(|r| self.loop_of(r.id))
    }
}

/// The cause of `r` a chain follows: the one with `r`'s resourceVersion, else the newest.
fn preferred_cause(ring: &CausalRing, r: &CausalRecord<'_>) -> Option<EventId> {
    let rv = r.event.resource_version;
    let same_rv = r
        .causes
        .iter()
        .copied()
        .find(|&c| rv.is_some() && ring.get(c).is_some_and(|c| c.event.resource_version == rv));
    same_rv.or_else(|| r.causes.iter().copied().max())
}

/// One add traced back to where it started: a Reconcile, or an event with no cause.
fn add_chain(ring: &CausalRing, add: EventId, predicates: &[&'static str]) -> AddChain {
    let mut links = Vec::new();
    let mut next = Some(add);
    let mut generation_after = None;
    while let Some(id) = next {
        let Some(r) = ring.get(id) else {
            links.push(Link::FellOut { id });
            break;
        };
        let link = link_of(ring, &r, predicates, generation_after);
        if let EventKind::WatchEvent { generation, .. } = r.event.kind {
            generation_after = Some(generation);
        }
        let ends = matches!(link, Link::Reconcile { .. });
        links.push(link);
        next = if ends {
            None
        } else {
            preferred_cause(ring, &r)
        };
    }
    links.reverse();
    AddChain { links }
}

/// The chain link an event is.
fn link_of(
    ring: &CausalRing,
    r: &CausalRecord<'_>,
    predicates: &[&'static str],
    generation_after: Option<i64>,
) -> Link {
    let id = r.id;
    let rv = r.event.resource_version.unwrap_or(0);
    match r.event.kind {
        EventKind::Reconcile { .. } => Link::Reconcile {
            id,
            key: r.event.key.clone().unwrap_or_else(|| "".into()),
            at: r.event.time,
        },
        EventKind::ApiRequest { verb, .. } if r.event.key.is_some() => Link::Write {
            id,
            verb,
            rv,
            own: r
                .causes
                .iter()
                .any(|&c| ring.get(c).is_some_and(|c| is_reconcile(&c))),
            generation: generation_before(ring, r).zip(generation_after),
        },
        EventKind::ApiRequest {
            verb: crate::apiserver::Verb::List,
            ..
        } => Link::List { id },
        EventKind::WatchEvent { event_type, .. } => Link::Watch { id, event_type, rv },
        EventKind::InformerPop { deltas } => Link::Pop {
            id,
            deltas,
            note: r.note,
        },
        EventKind::HandlerEnqueue { own_write } => Link::Enqueue {
            id,
            own_write,
            predicates: predicates.to_vec(),
        },
        EventKind::Reconciled { result } => Link::Requeue { id, result },
        EventKind::UserAction { action } => Link::UserAction { id, action },
        EventKind::Created { .. } => Link::Created { id },
        _ => Link::Other {
            id,
            what: (r.event.component(), r.event.event()),
        },
    }
}

fn is_reconcile(r: &CausalRecord<'_>) -> bool {
    matches!(r.event.kind, EventKind::Reconcile { .. })
}

/// The generation of `write`'s object as the informer last saw it before the write.
fn generation_before(ring: &CausalRing, write: &CausalRecord<'_>) -> Option<i64> {
    let key = write.event.key.as_ref()?;
    ring.records()
        .rev()
        .skip_while(|r| r.id >= write.id)
        .find_map(|r| match r.event.kind {
            EventKind::WatchEvent { generation, .. } if r.event.key.as_ref() == Some(key) => {
                Some(generation)
            }
            _ => None,
        })
}

/// The loop `why` closes, if its Reconcile is self-triggered.
fn loop_of(ring: &CausalRing, why: &Why, variant: Variant) -> Option<LoopReport> {
    if !why.self_triggered() {
        return None;
    }
    let previous = why.previous_reconcile()?;
    let before = ring.get(previous)?.event.time;
    Some(LoopReport {
        key: why.key.clone(),
        reconcile: why.reconcile,
        previous,
        period: why.at.saturating_since(before),
        period_events: why.reconcile.0 - previous.0,
        fixes: fixes_of(why, variant),
    })
}

/// The fixes that would stop the loop: a write loop's come from the switch matrix for the
/// operator now running; a loop of requeues is cut by not asking for them.
fn fixes_of(why: &Why, variant: Variant) -> Vec<LoopFix> {
    let links = || why.adds.iter().flat_map(|a| &a.links);
    let mut fixes = Vec::new();
    if links().any(|l| matches!(l, Link::Write { .. })) {
        fixes = write_loop_fixes(variant);
    }
    if links().any(|l| matches!(l, Link::Requeue { .. })) {
        fixes.push(LoopFix {
            changes: vec![LoopCut::NoRequeue],
        });
    }
    fixes
}
