//! Moving tokens: each trace event the page samples becomes a token travelling along one edge of
//! the pipeline in wall-clock time, coloured by what it carries. Counters never come from tokens:
//! at high rates only a sample of events is drawn.

use flywheel_engine::apiserver::{Verb, WatchEventType};
use flywheel_engine::sim::{EventKind, TraceEvent};

/// An edge of the pipeline drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Edge {
    /// API server → watch → Reflector → FIFO.
    Watch,
    /// FIFO → Indexer → handlers (a `Pop`).
    Pop,
    /// Handlers → workqueue (an enqueue that passed the predicates).
    Enqueue,
    /// Handlers → the predicate gate, where it stops (dropped).
    Dropped,
    /// Workqueue → workers → Reconcile.
    Work,
    /// Reconcile → API server (a write).
    Write,
    /// A write answered 429: bounces back.
    Bounce,
    /// API server → Reflector: a LIST (relist).
    List,
}

impl Edge {
    /// Every edge.
    pub const ALL: [Edge; 8] = [
        Edge::Watch,
        Edge::Pop,
        Edge::Enqueue,
        Edge::Dropped,
        Edge::Work,
        Edge::Write,
        Edge::Bounce,
        Edge::List,
    ];
}

/// What a token carries (decides its colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carry {
    /// A watch `ADDED`.
    Added,
    /// A watch `MODIFIED`.
    Modified,
    /// A watch `DELETED`.
    Deleted,
    /// A key on its way to a worker.
    Key,
    /// A write request.
    Write,
    /// A 429 answer.
    TooMany,
    /// A LIST.
    List,
    /// An event dropped by a predicate.
    Dropped,
    /// The operator's own write, coming back.
    OwnWrite,
}

/// One moving token.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The edge it travels.
    pub edge: Edge,
    /// What it carries.
    pub carry: Carry,
    /// The object key, when there is one (clicking the token inspects it).
    pub key: Option<String>,
    /// Wall-clock ms when it started.
    pub born_ms: f64,
}

/// How long a token takes to travel its edge (wall-clock ms).
pub const TRAVEL_MS: f64 = 700.0;
/// Most tokens spawned per edge per frame (sampling).
pub const MAX_SPAWN_PER_EDGE: usize = 1;
/// Least wall-clock gap between two tokens on one edge (sampling at high rates), ms.
pub const MIN_GAP_MS: f64 = 110.0;
/// Most tokens alive.
pub const MAX_ALIVE: usize = 240;

/// The token an event becomes, if any: `(edge, carry)`.
pub fn token_for(ev: &TraceEvent) -> Option<(Edge, Carry)> {
    Some(match ev.kind {
        EventKind::WatchEvent { event_type, .. } => match event_type {
            WatchEventType::Added => (Edge::Watch, Carry::Added),
            WatchEventType::Modified => (Edge::Watch, Carry::Modified),
            WatchEventType::Deleted => (Edge::Watch, Carry::Deleted),
            WatchEventType::Bookmark | WatchEventType::Error => return None,
        },
        EventKind::InformerPop { .. } => (Edge::Pop, Carry::Key),
        EventKind::HandlerEnqueue { own_write: true } => (Edge::Enqueue, Carry::OwnWrite),
        EventKind::HandlerEnqueue { own_write: false } => (Edge::Enqueue, Carry::Key),
        EventKind::PredicateDropped => (Edge::Dropped, Carry::Dropped),
        EventKind::Reconcile { .. } => (Edge::Work, Carry::Key),
        EventKind::ApiRequest { verb, code: 429 } if verb.is_mutating() => {
            (Edge::Bounce, Carry::TooMany)
        }
        EventKind::ApiRequest { verb, .. } if verb.is_mutating() && ev.key.is_some() => {
            (Edge::Write, Carry::Write)
        }
        EventKind::Retry429 { .. } => (Edge::Bounce, Carry::TooMany),
        EventKind::ApiRequest {
            verb: Verb::List, ..
        } => (Edge::List, Carry::List),
        _ => return None,
    })
}

/// The tokens in flight on one pipeline.
#[derive(Clone, Debug, Default)]
pub struct Tokens {
    /// Alive tokens, oldest first.
    pub alive: Vec<Token>,
    spawned: [usize; 8],
    last: [f64; 8],
}

impl Tokens {
    /// Starts a new frame: resets the per-frame sampling quotas and drops finished tokens.
    pub fn begin_frame(&mut self, now_ms: f64) {
        self.spawned = [0; 8];
        self.alive.retain(|t| now_ms - t.born_ms < TRAVEL_MS);
    }

    /// Offers an event; it becomes a token unless its edge's quota for this frame is used up.
    pub fn offer(&mut self, ev: &TraceEvent, now_ms: f64) {
        let Some((edge, carry)) = token_for(ev) else {
            return;
        };
        let i = Edge::ALL.iter().position(|e| *e == edge).unwrap_or(0);
        if self.spawned[i] >= MAX_SPAWN_PER_EDGE
            || now_ms - self.last[i] < MIN_GAP_MS && self.last[i] > 0.0
        {
            return;
        }
        self.spawned[i] += 1;
        self.last[i] = now_ms;
        if self.alive.len() >= MAX_ALIVE {
            self.alive.remove(0);
        }
        self.alive.push(Token {
            edge,
            carry,
            key: ev.key.as_deref().map(str::to_owned),
            born_ms: now_ms,
        });
    }

    /// Progress of a token along its edge, 0..=1.
    pub fn progress(t: &Token, now_ms: f64) -> f64 {
        ((now_ms - t.born_ms) / TRAVEL_MS).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flywheel_engine::SimTime;

    fn ev(kind: EventKind) -> TraceEvent {
        TraceEvent {
            time: SimTime::ZERO,
            key: Some("ns-0/demo-0".into()),
            resource_version: Some(3),
            kind,
        }
    }

    fn put(code: u16) -> EventKind {
        EventKind::ApiRequest {
            verb: Verb::Update,
            code,
        }
    }

    #[test]
    fn events_map_to_edges() {
        assert_eq!(
            token_for(&ev(EventKind::HandlerEnqueue { own_write: true })),
            Some((Edge::Enqueue, Carry::OwnWrite))
        );
        assert_eq!(
            token_for(&ev(put(429))),
            Some((Edge::Bounce, Carry::TooMany))
        );
        assert_eq!(token_for(&ev(put(200))), Some((Edge::Write, Carry::Write)));
        assert_eq!(
            token_for(&ev(EventKind::Reconciled { result: "success" })),
            None
        );
    }

    #[test]
    fn spawning_is_sampled_per_edge_and_frame() {
        let mut t = Tokens::default();
        t.begin_frame(0.0);
        for _ in 0..100 {
            let modified = EventKind::WatchEvent {
                event_type: WatchEventType::Modified,
                generation: 1,
            };
            t.offer(&ev(modified), 1.0);
        }
        assert_eq!(t.alive.len(), MAX_SPAWN_PER_EDGE);
        t.begin_frame(TRAVEL_MS + 1.0);
        assert!(t.alive.is_empty(), "finished tokens are dropped");
    }
}
