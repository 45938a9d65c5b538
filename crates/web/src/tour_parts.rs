//! Where each page part a tour step may point at ([`flywheel_engine::tour::PARTS`], and
//! `control.<setting path>`) is on the page: a CSS selector, and the panel that shows it.
//! The pipeline's stages are drawn on a canvas, so the page lays a box with `data-part` over
//! each ([`PIPELINE_BOXES`], in the canvas's 960 × 300 units).

use crate::state::Tab;

/// A box over the canvas: x, y, width, height (canvas units).
pub type CanvasBox = (f64, f64, f64, f64);

/// The pipeline parts and their boxes over the canvas.
pub const PIPELINE_BOXES: &[(&str, CanvasBox)] = &[
    ("pipeline.apiserver", (16.0, 40.0, 120.0, 220.0)),
    ("pipeline.reflector", (220.0, 50.0, 120.0, 64.0)),
    ("pipeline.deltafifo", (380.0, 50.0, 120.0, 64.0)),
    ("pipeline.indexer", (540.0, 50.0, 120.0, 64.0)),
    ("pipeline.handler", (700.0, 50.0, 140.0, 64.0)),
    ("pipeline.workqueue", (700.0, 196.0, 140.0, 64.0)),
    ("pipeline.workers", (540.0, 196.0, 120.0, 64.0)),
    ("pipeline.loop", (140.0, 130.0, 370.0, 140.0)),
    ("pod", (204.0, 20.0, 700.0, 262.0)),
];

/// The selector of the element that shows `part`; `None` for a name that is no part.
pub fn selector(part: &str) -> Option<String> {
    // the seed-000 fixes have their own checkboxes in the "Fixes" box, not a setting control
    match part {
        "control.crd.status_subresource" => return Some("label[for=\"fix-sub\"]".to_owned()),
        "control.controller.predicates" => return Some("label[for=\"fix-pred\"]".to_owned()),
        _ => {}
    }
    if let Some(path) = part.strip_prefix("control.") {
        return flywheel_engine::settings::find(path).map(|_| format!("[data-path=\"{path}\"]"));
    }
    if PIPELINE_BOXES.iter().any(|(p, _)| *p == part) {
        return Some(format!("[data-part=\"{part}\"]"));
    }
    let id = match part {
        "chart.qps" => "#chart-requests",
        "chart.memory" => "#chart-memory",
        "chart.workqueue" | "chart.fifo" => "#chart-queue",
        "chart.reconciles" => "#chart-reconcile",
        "timeline" => "#timeline",
        "verdict" => "#verdict-a",
        "event-log" => "#event-log",
        "inspector" | "myths" => "#tabpanel",
        "why" => "#narration",
        _ => return None,
    };
    Some(id.to_owned())
}

/// The panel that must be open for `part` to show.
pub fn tab_of(part: &str) -> Option<Tab> {
    match part {
        "event-log" => Some(Tab::Log),
        "inspector" => Some(Tab::Inspect),
        "myths" => Some(Tab::Myths),
        "why" => Some(Tab::Explain),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_the_engine_knows_has_a_place_on_the_page() {
        for part in flywheel_engine::tour::PARTS {
            assert!(selector(part).is_some(), "{part}");
        }
        for s in flywheel_engine::settings::SETTINGS {
            assert!(selector(&format!("control.{}", s.path)).is_some());
        }
        assert!(selector("chart.nothing").is_none());
    }

    /// The page's policy allows no inline style: each box is placed by a rule in the stylesheet.
    #[test]
    fn the_stylesheet_places_every_pipeline_box_where_the_canvas_draws_it() {
        let css = include_str!("../../../www/style.css");
        let w = crate::pipeline_draw::WIDTH;
        let h = crate::pipeline_draw::HEIGHT;
        for (part, (x, y, bw, bh)) in PIPELINE_BOXES {
            let rule = format!(
                ".part-box[data-part=\"{part}\"] {{ left: {:.2}%; top: {:.2}%; width: {:.2}%; height: {:.2}%; }}",
                x / w * 100.0,
                y / h * 100.0,
                bw / w * 100.0,
                bh / h * 100.0
            );
            assert!(css.contains(&rule), "www/style.css lacks: {rule}");
        }
    }
}
