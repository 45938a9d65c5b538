//! "Why did this reconcile run?": the merged causes of a Reconcile, typed, in words an operator
//! author knows.
//!
//! ```text
//!  Why { reconcile #60 of ns/a, adds: [
//!    AddChain [ Reconcile #31 ns/a ─▶ Write rv=42 ─▶ Watch MODIFIED ─▶ Pop ─▶ Enqueue #48 ],
//!    AddChain [ Reconcile #31 ns/a ─▶ Requeue #55 (requeue_after) ] ],
//!    self_triggered: true }
//! ```
//!
//! Each [`AddChain`] is one add the workqueue merged into the key, traced back to where it
//! started: a Reconcile (whose write or requeue it is), a user action, the creation of the
//! objects, a relist, a resync, or an event that fell out of the causal ring. The data is typed;
//! `Display` gives the English wording (a front end may word it in another language).

use std::fmt;

use crate::apiserver::{Verb, WatchEventType};
use crate::key::Key;
use crate::scenario::ActionKind;
use crate::sim::{CauseNote, EventId};
use crate::time::SimTime;

/// One step of a causal chain.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Link {
    /// A Reconcile: where a chain of its key's own write or requeue starts.
    Reconcile {
        /// Its event.
        id: EventId,
        /// The key it reconciled.
        key: Key,
        /// When it started.
        at: SimTime,
    },
    /// A write committed by the API server.
    Write {
        /// Its event.
        id: EventId,
        /// The request's verb.
        verb: Verb,
        /// The resourceVersion it committed.
        rv: u64,
        /// Whether a Reconcile of the operator issued it.
        own: bool,
        /// `metadata.generation` before and after it, when both were seen.
        generation: Option<(i64, i64)>,
    },
    /// A watch event delivered to the informer.
    Watch {
        /// Its event.
        id: EventId,
        /// `ADDED`, `MODIFIED`, `DELETED`.
        event_type: WatchEventType,
        /// Its resourceVersion.
        rv: u64,
    },
    /// The informer popped the key's deltas.
    Pop {
        /// Its event.
        id: EventId,
        /// How many deltas.
        deltas: u32,
        /// A sync or a relist, when that is what the delta came from.
        note: CauseNote,
    },
    /// The event handler added the key to the workqueue.
    Enqueue {
        /// Its event.
        id: EventId,
        /// Whether it came from the operator's own write.
        own_write: bool,
        /// The predicates that admitted it (Go type names; empty: none is set).
        #[serde(deserialize_with = "crate::static_text::list")]
        predicates: Vec<&'static str>,
    },
    /// A finished reconcile asked for its key again (`Requeue`, `RequeueAfter`, an error).
    Requeue {
        /// The `Reconciled` event.
        id: EventId,
        /// Its `result` label.
        #[serde(deserialize_with = "crate::static_text::one")]
        result: crate::static_text::StaticStr,
    },
    /// A user (kubectl) did something.
    UserAction {
        /// Its event.
        id: EventId,
        /// What.
        action: ActionKind,
    },
    /// The scenario's objects were created.
    Created {
        /// Its event.
        id: EventId,
    },
    /// The reflector's LIST (a relist).
    List {
        /// Its event.
        id: EventId,
    },
    /// Another event, named as the trace names it.
    Other {
        /// Its event.
        id: EventId,
        /// The component and event words of its trace line.
        #[serde(deserialize_with = "crate::static_text::pair")]
        what: (&'static str, &'static str),
    },
    /// The chain goes on before the oldest event the causal ring keeps.
    FellOut {
        /// The event no longer kept.
        id: EventId,
    },
}

/// One add merged into the reconciled key, from where it started to the add.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddChain {
    /// Origin first, the add last.
    pub links: Vec<Link>,
}

impl AddChain {
    /// The Reconcile this add descends from, if it starts at one.
    pub fn from_reconcile(&self) -> Option<(EventId, &Key)> {
        match self.links.first()? {
            Link::Reconcile { id, key, .. } => Some((*id, key)),
            _ => None,
        }
    }
}

/// Why a Reconcile ran: every add merged into its key since the key was last handed out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    /// The Reconcile.
    pub reconcile: EventId,
    /// Its key.
    pub key: Key,
    /// When it started.
    pub at: SimTime,
    /// The adds the workqueue merged into it.
    pub adds: Vec<AddChain>,
    /// A delayed add (`RequeueAfter`, a rate-limited retry) came due for it.
    pub delayed: bool,
}

impl Why {
    /// Whether it is self-triggered: every add descends from the same key's previous Reconcile.
    pub fn self_triggered(&self) -> bool {
        !self.adds.is_empty()
            && self
                .adds
                .iter()
                .all(|a| a.from_reconcile().is_some_and(|(_, k)| *k == self.key))
    }

    /// The previous Reconcile of the same key it descends from (the newest, if several).
    pub fn previous_reconcile(&self) -> Option<EventId> {
        self.adds
            .iter()
            .filter_map(AddChain::from_reconcile)
            .filter(|(_, k)| **k == self.key)
            .map(|(id, _)| id)
            .max()
    }
}

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Link::Reconcile { id, key, at } => write!(f, "Reconcile {key} {id} at {at}"),
            Link::Write {
                verb,
                rv,
                own,
                generation,
                ..
            } => {
                let who = if *own { "own write" } else { "write" };
                write!(f, "{who} rv={rv} ({}", verb.as_str())?;
                if let Some((before, after)) = generation {
                    write!(f, ", generation {before}→{after}")?;
                }
                write!(f, ")")
            }
            Link::Watch { event_type, .. } => write!(f, "{}", event_type.as_str()),
            Link::Pop { deltas, note, .. } => match note {
                CauseNote::Sync => write!(f, "sync delta (resync or unchanged in a relist)"),
                CauseNote::Relist => write!(f, "Replaced delta (relist)"),
                _ if *deltas == 1 => write!(f, "delta"),
                _ => write!(f, "{deltas} deltas popped together"),
            },
            Link::Enqueue { predicates, .. } if predicates.is_empty() => {
                write!(f, "not filtered: no predicate → add")
            }
            Link::Enqueue { predicates, .. } => {
                write!(f, "admitted by {} → add", predicates.join(", "))
            }
            Link::Requeue { result, .. } => write!(f, "requeue (result={result})"),
            Link::UserAction { action, .. } => write!(f, "kubectl {action:?}"),
            Link::Created { .. } => write!(f, "objects created"),
            Link::List { .. } => write!(f, "relist (LIST)"),
            Link::Other { what, .. } => write!(f, "{} {}", what.0, what.1),
            Link::FellOut { id } => write!(f, "… {id} (no longer kept)"),
        }
    }
}

impl fmt::Display for AddChain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, link) in self.links.iter().enumerate() {
            if i > 0 {
                write!(f, " → ")?;
            }
            write!(f, "{link}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Reconcile {} {} at {}: ",
            self.key, self.reconcile, self.at
        )?;
        match self.adds.len() {
            0 => writeln!(f, "no add recorded")?,
            1 => writeln!(f, "1 add")?,
            n => writeln!(f, "{n} adds merged by the workqueue")?,
        }
        for add in &self.adds {
            writeln!(f, "  {add}")?;
        }
        if self.self_triggered() {
            write!(
                f,
                "self-triggered: every add descends from this key's previous Reconcile"
            )
        } else {
            write!(f, "not self-triggered")
        }
    }
}
