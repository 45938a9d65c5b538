//! The cluster's side of the reflector's streaming watch-list (client-go `tools/cache/reflector.go`
//! `watchList`; apiserver `pkg/storage/cacher/cacher.go`, which sends the current state as ADDED
//! events and then the `k8s.io/initial-events-end` BOOKMARK).

use crate::apiserver::WatchEvent;
use crate::informer::reflector::{ReflectorState, WatchError};
use crate::sim::Context;

use super::request::Reply;
use super::{Cluster, Ev};

impl Cluster {
    /// Whether the reflector waits for a watch-list answer (rather than a LIST).
    pub(super) fn awaiting_watch_list(&self) -> bool {
        self.operator.running.as_ref().is_some_and(|op| {
            matches!(
                op.informer.reflector.state(),
                ReflectorState::WatchListing { .. }
            )
        })
    }

    /// The watch-list request was answered: open its stream, or report the error.
    pub(super) fn watch_list_answered(&mut self, ctx: &mut Context<'_, Ev>, reply: Reply) {
        let err = match reply {
            Reply::WatchStream(events) => return self.open_watch_list_stream(ctx, events),
            Reply::Error { code: 410, .. } => WatchError::Expired,
            Reply::Error { code: 429, .. } => WatchError::TooManyRequests,
            Reply::Error { code: 504, .. } => WatchError::TooLargeResourceVersion,
            _ => WatchError::Other,
        };
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        let actions = op
            .informer
            .reflector
            .on_watch_error(err, ctx.now(), ctx.rng);
        self.reflector_actions(ctx, actions);
    }

    /// Registers the stream as the informer's open watch and delivers its initial events; events
    /// committed later follow on the same watch. The stream ends at the reflector's timeout.
    fn open_watch_list_stream(&mut self, ctx: &mut Context<'_, Ev>, events: Vec<WatchEvent>) {
        let Some(op) = self.operator.running.as_mut() else {
            return;
        };
        let ReflectorState::WatchListing { timeout, .. } = *op.informer.reflector.state() else {
            return;
        };
        let delay = self.scenario.apiserver.watch_latency;
        self.open_stream(ctx, events, delay, Some(timeout));
    }
}
