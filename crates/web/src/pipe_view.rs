//! What one lane's pipeline drawing reads in a frame, as one plain value: read from the lane where
//! the run lives ([`PipeView::read`]) and drawn by [`crate::pipeline_draw`], which never reaches
//! the run itself. The drawing therefore does not care where the engine runs.
//!
//! ```text
//!  Lane (run, tokens, notes, stats) ──PipeView::read──▶ PipeView ──pipeline_draw::draw──▶ canvas
//! ```

use flywheel_engine::cluster::snapshot::Snapshot;
use flywheel_engine::controller::program::WriteVerb;
use flywheel_engine::metrics::names;
use flywheel_engine::scenario::{FifoKind, QueueKind};

use crate::runs::Lane;
use crate::tokens::Token;

/// The flashes of a lane's drawing: when (animation ms) each last happened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flashes {
    /// The last own-write enqueue (the loop edge glows after it).
    pub loop_ms: f64,
    /// The last OOMKilled (the banner).
    pub oom_ms: f64,
    /// The last LIST (the relist edge).
    pub list_ms: f64,
}

/// The scenario's parts the drawing names: they change only when the run is built again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PipeShape {
    /// The informer's queue.
    pub fifo: FifoKind,
    /// The controller's workqueue.
    pub queue: QueueKind,
    /// How many predicates guard the handlers (none: no gate is drawn).
    pub predicates: usize,
    /// The Reconcile's write, when it writes.
    pub write_verb: Option<WriteVerb>,
}

/// What one lane's pipeline shows in a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct PipeView {
    /// The cluster now.
    pub snapshot: Snapshot,
    /// The flashes.
    pub flashes: Flashes,
    /// The last Reconcile result seen (empty before the first).
    pub last_result: String,
    /// The moving tokens.
    pub tokens: Vec<Token>,
    /// API requests per second, as the stats bar shows it.
    pub rps: f64,
    /// Successful Reconciles per second over the last 3 s of samples.
    pub reconciles_ok_per_s: f64,
    /// Self-triggered enqueues so far.
    pub loop_count: u64,
    /// The write loop's period (simulated seconds), when the engine finds one.
    pub loop_period_s: Option<f64>,
    /// The scenario's parts the drawing names.
    pub shape: PipeShape,
    /// The lane's first custom resource's key, in key order (what a click on a store stage
    /// inspects).
    pub first_key: Option<String>,
}

impl PipeView {
    /// Reads what `lane`'s pipeline shows now.
    pub fn read(lane: &Lane) -> PipeView {
        let sc = lane.run.scenario();
        PipeView {
            snapshot: lane.snapshot.clone(),
            flashes: Flashes {
                loop_ms: lane.notes.loop_flash_ms,
                oom_ms: lane.notes.oom_flash_ms,
                list_ms: lane.notes.list_flash_ms,
            },
            last_result: lane.notes.last_result.clone(),
            tokens: lane.tokens.alive.clone(),
            rps: lane.stats.rps,
            reconciles_ok_per_s: lane.labeled_rate(names::RECONCILE_TOTAL, "result=\"success\"", 3),
            loop_count: lane.loop_count,
            loop_period_s: lane.loop_period_s,
            shape: PipeShape {
                fifo: sc.fifo_kind(),
                queue: sc.queue_kind(),
                predicates: sc.controller.predicates.len(),
                write_verb: sc.reconcile.writes(),
            },
            first_key: lane.run.object_keys(1).pop(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RunConfig;
    use crate::pipeline_draw::{hit, Hit};
    use crate::runs::Runs;
    use crate::tokens::Tokens;
    use flywheel_engine::controller::program::WriteVerb;
    use flywheel_engine::SimTime;

    fn played(config: &RunConfig, to_s: f64) -> Runs {
        let mut runs = Runs::new(config, None).expect("engine");
        // frames of 100 ms, animated, so tokens are alive at the end
        for i in 1..=(to_s * 10.0) as u32 {
            let t = f64::from(i) / 10.0;
            runs.advance(SimTime::from_secs_f64(t), &mut || false);
            runs.ingest(t * 1000.0, true);
        }
        runs
    }

    #[test]
    fn the_view_holds_what_the_lane_shows_and_the_scenario_parts_the_drawing_names() {
        let runs = played(&RunConfig::preset("flywheel"), 5.0);
        let (lane, view) = (&runs.a, PipeView::read(&runs.a));
        assert_eq!(view.snapshot, lane.snapshot);
        assert_eq!(view.tokens, lane.tokens.alive);
        assert!(!view.tokens.is_empty(), "tokens move after 5 s of the loop");
        assert_eq!(view.loop_count, lane.loop_count);
        assert_eq!(view.last_result, lane.notes.last_result);
        assert_eq!(
            view.shape.predicates, 0,
            "the broken flywheel has no predicate"
        );
        assert_eq!(
            view.shape.write_verb,
            Some(WriteVerb::Update),
            "a full Update"
        );

        let mut fixed = RunConfig::preset("flywheel");
        fixed.variant.generation_predicate = true;
        fixed.variant.status_subresource = true;
        fixed.variant.write = WriteVerb::StatusPatch;
        let view = PipeView::read(&played(&fixed, 1.0).a);
        assert_eq!(view.shape.predicates, 1, "GenerationChangedPredicate");
        assert_eq!(view.shape.write_verb, Some(WriteVerb::StatusPatch));
    }

    #[test]
    fn a_click_picks_the_token_under_it_else_a_store_stage_else_nothing() {
        let runs = played(&RunConfig::preset("flywheel"), 5.0);
        let mut view = PipeView::read(&runs.a);
        let now_ms = 5000.0;
        let token = view
            .tokens
            .iter()
            .find(|t| {
                let (x, y) = crate::pipeline_draw::point_at(
                    crate::pipeline_draw::edge_path(t.edge),
                    Tokens::progress(t, now_ms),
                );
                t.key.is_some() && hit(&view, x, y, now_ms) == t.key.clone().map(Hit::Token)
            })
            .cloned();
        assert!(token.is_some(), "some visible token can be clicked");
        view.tokens.clear();
        assert_eq!(
            hit(&view, 76.0, 150.0, now_ms),
            Some(Hit::Store(view.first_key.clone().expect("a key"))),
            "the API server"
        );
        assert_eq!(
            view.first_key.as_deref(),
            Some("ns-0/demo-0"),
            "the first in key order"
        );
        view.first_key = None;
        assert_eq!(
            hit(&view, 76.0, 150.0, now_ms),
            None,
            "a store stage of a lane without objects"
        );
        assert_eq!(
            hit(&view, 950.0, 295.0, now_ms),
            None,
            "a corner holds nothing"
        );
    }
}
