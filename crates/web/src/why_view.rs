//! What the "why did this run?" panel shows, read once from a run's causal ring when the user
//! clicks: for a Reconcile, every add the workqueue merged into it traced back to its origin
//! (`Run::why`) and the fixes that would cut its loop (`Run::loop_of`); for any other event, what
//! it caused forward (`Run::effects_of`) as far as the next Reconciles.
//!
//! ```text
//!  click #60 Reconcile ──▶ WhyView { chains: [[#31 Reconcile, #41 own write, #45 MODIFIED, …]],
//!                                    self_triggered: true, fixes: [[StatusSubresource, …]] }
//!  click #41 PUT       ──▶ WhyView { chains: [[#41 PUT, #45 MODIFIED, #47 Pop, #48 Enqueue, #60 Reconcile]] }
//! ```

use flywheel_engine::cluster::loop_report::LoopCut;
use flywheel_engine::cluster::run::Run;
use flywheel_engine::cluster::why::Link;
use flywheel_engine::sim::{EventId, EventKind};

/// Most hops followed forward from an event.
pub const EFFECT_HOPS: usize = 24;

/// Whether the panel goes back to causes or forward to effects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Why a Reconcile ran.
    Causes,
    /// What an event caused.
    Effects,
}

/// One hop of a chain: the event, when it happened, and what it was.
#[derive(Clone, Debug, PartialEq)]
pub struct Hop {
    /// The event's id.
    pub id: u64,
    /// When (simulated seconds), if the ring still keeps it.
    pub at_s: Option<f64>,
    /// What it was, typed.
    pub link: Link,
    /// Its key (`namespace/name`), or empty.
    pub key: String,
}

/// The panel's content.
#[derive(Clone, Debug, PartialEq)]
pub struct WhyView {
    /// The event clicked.
    pub id: u64,
    /// Its key.
    pub key: String,
    /// When it happened (simulated seconds).
    pub at_s: f64,
    /// Back to causes or forward to effects.
    pub direction: Direction,
    /// The chains: one per add merged into the Reconcile (origin first), or the one forward.
    pub chains: Vec<Vec<Hop>>,
    /// A delayed add (`RequeueAfter`, a retry) came due for it.
    pub delayed: bool,
    /// Every add descends from the same key's previous Reconcile.
    pub self_triggered: bool,
    /// The smallest sets of changes that would cut its loop.
    pub fixes: Vec<Vec<LoopCut>>,
    /// The loop's period (simulated seconds), when it closes one.
    pub period_s: Option<f64>,
}

impl WhyView {
    /// The view of event `id` of `run`: its causes when it is a Reconcile, else its effects.
    /// `None` when the ring no longer keeps it.
    pub fn of(run: &Run, id: u64) -> Option<WhyView> {
        let id = reconcile_of(run, id);
        let rec = run.causal().get(EventId(id))?;
        let key = rec.event.key_str().to_owned();
        let at_s = rec.event.time.as_secs_f64();
        if matches!(rec.event.kind, EventKind::Reconcile { .. }) {
            let why = run.why(EventId(id))?;
            let round = run.loop_of(EventId(id));
            let chains = why
                .adds
                .iter()
                .map(|add| add.links.iter().map(|l| hop(run, l.clone())).collect())
                .collect();
            return Some(WhyView {
                id,
                key,
                at_s,
                direction: Direction::Causes,
                chains,
                delayed: why.delayed,
                self_triggered: why.self_triggered(),
                fixes: round
                    .as_ref()
                    .map(|r| r.fixes.iter().map(|f| f.changes.clone()).collect())
                    .unwrap_or_default(),
                period_s: round.map(|r| r.period.as_secs_f64()),
            });
        }
        Some(WhyView {
            id,
            key,
            at_s,
            direction: Direction::Effects,
            chains: vec![effects(run, id)],
            delayed: false,
            self_triggered: false,
            fixes: Vec::new(),
            period_s: None,
        })
    }

    /// Whether a chain holds a write of the operator's own.
    pub fn names_own_write(&self) -> bool {
        self.chains
            .iter()
            .flatten()
            .any(|h| matches!(h.link, Link::Write { own: true, .. }))
    }
}

/// The Reconcile a `Reconciled` event ends (a log line is the end), else `id` itself.
fn reconcile_of(run: &Run, id: u64) -> u64 {
    let Some(rec) = run.causal().get(EventId(id)) else {
        return id;
    };
    if !matches!(rec.event.kind, EventKind::Reconciled { .. }) {
        return id;
    }
    rec.causes
        .iter()
        .find(|c| {
            run.causal()
                .get(**c)
                .is_some_and(|r| matches!(r.event.kind, EventKind::Reconcile { .. }))
        })
        .map_or(id, |c| c.0)
}

fn link_id(link: &Link) -> EventId {
    match *link {
        Link::Reconcile { id, .. }
        | Link::Write { id, .. }
        | Link::Watch { id, .. }
        | Link::Pop { id, .. }
        | Link::Enqueue { id, .. }
        | Link::Requeue { id, .. }
        | Link::UserAction { id, .. }
        | Link::Created { id }
        | Link::List { id }
        | Link::Other { id, .. }
        | Link::FellOut { id } => id,
    }
}

fn hop(run: &Run, link: Link) -> Hop {
    let id = link_id(&link);
    let rec = run.causal().get(id);
    Hop {
        id: id.0,
        at_s: rec.as_ref().map(|r| r.event.time.as_secs_f64()),
        key: rec
            .map(|r| r.event.key_str().to_owned())
            .unwrap_or_default(),
        link,
    }
}

/// The events `id` caused, breadth first, as far as the Reconciles they lead to.
fn effects(run: &Run, id: u64) -> Vec<Hop> {
    let mut hops = Vec::new();
    let mut frontier = vec![EventId(id)];
    while let Some(next) = frontier.first().copied() {
        frontier.remove(0);
        let Some(rec) = run.causal().get(next) else {
            continue;
        };
        let what = (rec.event.component(), rec.event.event());
        let reconcile = matches!(rec.event.kind, EventKind::Reconcile { .. });
        hops.push(hop(run, Link::Other { id: next, what }));
        if hops.len() >= EFFECT_HOPS {
            break;
        }
        if !reconcile {
            frontier.extend(run.effects_of(next));
        }
    }
    hops
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RunConfig;
    use crate::runs::Runs;
    use flywheel_engine::SimTime;

    fn flywheel_at(t_s: f64) -> Runs {
        let mut runs = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        runs.a.run.advance_to(SimTime::from_secs_f64(t_s), u64::MAX);
        runs
    }

    #[test]
    fn a_flywheel_reconcile_names_its_own_write_and_is_self_triggered() {
        let runs = flywheel_at(20.0);
        let run = &runs.a.run;
        let id = run
            .reconcile_at(SimTime::from_secs_f64(19.0), None)
            .expect("the flywheel run has it");
        let view = WhyView::of(run, id.0).expect("the flywheel run has it");
        assert_eq!(view.direction, Direction::Causes);
        assert!(view.names_own_write(), "{view:?}");
        assert!(view.self_triggered);
        assert!(!view.fixes.is_empty());
    }

    #[test]
    fn a_write_leads_forward_to_a_reconcile() {
        let runs = flywheel_at(20.0);
        let run = &runs.a.run;
        let id = run
            .reconcile_at(SimTime::from_secs_f64(15.0), None)
            .expect("the flywheel run has it");
        let view = WhyView::of(run, id.0).expect("the flywheel run has it");
        let write = view
            .chains
            .iter()
            .flatten()
            .find(|h| matches!(h.link, Link::Write { .. }))
            .expect("the flywheel run has it");
        let forward = WhyView::of(run, write.id).expect("the flywheel run has it");
        assert_eq!(forward.direction, Direction::Effects);
        assert!(forward.chains[0].iter().any(|h| matches!(
            h.link,
            Link::Other {
                what: (_, "Reconcile"),
                ..
            }
        )));
    }
}
