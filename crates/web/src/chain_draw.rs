//! The chain of the why panel drawn on the pipeline: each hop's edge lit (the write back to the
//! API server, the watch event, the deltas popped, the add, the work handed to a worker) and
//! labelled with its event, so the path a Reconcile's cause took is seen where it ran.

use flywheel_engine::cluster::why::Link;
use web_sys::CanvasRenderingContext2d;

use crate::pipeline_draw::{edge_path, point_at, DrawCtx};
use crate::tokens::Edge;
use crate::why_view::{Hop, WhyView};

/// The edge a hop travelled on the pipeline, and its short label.
pub fn edge_of(hop: &Hop) -> Option<(Edge, String)> {
    match &hop.link {
        Link::Write { rv, verb, .. } => Some((Edge::Write, format!("{} rv={rv}", verb.as_str()))),
        Link::Watch { event_type, .. } => Some((Edge::Watch, event_type.as_str().to_owned())),
        Link::Pop { deltas, .. } => Some((Edge::Pop, format!("Pop ×{deltas}"))),
        Link::Enqueue { .. } => Some((Edge::Enqueue, "Add".to_owned())),
        Link::Reconcile { key, .. } => Some((Edge::Work, format!("Reconcile {key}"))),
        Link::Other { what, .. } => match what.1 {
            "Reconcile" => Some((Edge::Work, "Reconcile".to_owned())),
            "Enqueue" => Some((Edge::Enqueue, "Add".to_owned())),
            "Pop" => Some((Edge::Pop, "Pop".to_owned())),
            "ADDED" | "MODIFIED" | "DELETED" => Some((Edge::Watch, what.1.to_owned())),
            "PUT" | "PATCH" | "POST" | "DELETE" => Some((Edge::Write, what.1.to_owned())),
            _ => None,
        },
        _ => None,
    }
}

/// Where an edge's label goes: in the space between the rows of boxes, beside its edge, so it
/// never covers a box's numbers.
fn label_at(edge: Edge) -> (f64, f64) {
    match edge {
        Edge::Watch => (300.0, 128.0),
        Edge::Pop => (600.0, 128.0),
        Edge::Enqueue => (812.0, 150.0),
        Edge::Work => (600.0, 272.0),
        Edge::Write => (258.0, 241.0),
        other => point_at(edge_path(other), 0.5),
    }
}

/// The chain drawn: the one with the operator's own write, if any, else the first.
fn drawn(view: &WhyView) -> Option<&Vec<Hop>> {
    let own = |c: &&Vec<Hop>| {
        c.iter()
            .any(|h| matches!(h.link, Link::Write { own: true, .. }))
    };
    view.chains.iter().find(own).or(view.chains.first())
}

/// Lights the edges of the drawn chain of `view` (under the stage boxes, as tokens are).
pub fn draw_chain(ctx: &CanvasRenderingContext2d, view: &WhyView, d: &DrawCtx<'_>) {
    let Some(chain) = drawn(view) else { return };
    ctx.set_global_alpha(0.85);
    ctx.set_line_width(5.0);
    ctx.set_stroke_style_str(d.palette.orange);
    for (edge, _) in chain.iter().filter_map(edge_of) {
        ctx.begin_path();
        for (i, (x, y)) in edge_path(edge).iter().enumerate() {
            if i == 0 {
                ctx.move_to(*x, *y);
            } else {
                ctx.line_to(*x, *y);
            }
        }
        ctx.stroke();
    }
    ctx.set_global_alpha(1.0);
}

/// Labels each lit edge with its hop's event (over the stage boxes, so every label reads).
pub fn draw_chain_labels(ctx: &CanvasRenderingContext2d, view: &WhyView, d: &DrawCtx<'_>) {
    let Some(chain) = drawn(view) else { return };
    let mut labelled = Vec::new();
    for (edge, label) in chain.iter().filter_map(edge_of) {
        if labelled.contains(&edge) {
            continue;
        }
        labelled.push(edge);
        let (x, y) = label_at(edge);
        crate::text_state::set(ctx, "700 11px sans-serif", "center", "middle");
        let w = ctx.measure_text(&label).map_or(60.0, |m| m.width()) + 8.0;
        ctx.set_fill_style_str(d.palette.bg);
        ctx.fill_rect(x - w / 2.0, y - 7.0, w, 14.0);
        ctx.set_fill_style_str(d.palette.orange);
        let _ = ctx.fill_text(&label, x, y);
    }
}
