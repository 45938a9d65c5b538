//! Line charts drawn on a `<canvas>` through its 2D context: the plot area, grid, series, limit
//! lines and marks as paths, the labels with `fillText`. The layout and the data-to-pixel
//! mapping follow plotters' `ChartBuilder` and `Cartesian2d` ([`Frame`]) without the library:
//! its text layout measures each label in a DOM `<span>` with an inline `style`, which the
//! page's Content-Security-Policy forbids, and a chart needs only these few paths.

use flywheel_engine::float_text::{fixed, Fixed};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::theme::{rgb, Palette};

/// One line of a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Legend name (an upstream metric name or a short label).
    pub name: String,
    /// `(x, y)` points in data units.
    pub points: Vec<(f64, f64)>,
    /// Stroke colour (`#rrggbb`).
    pub color: flywheel_engine::static_text::StaticStr,
    /// Dashed (the B side of a comparison).
    pub dashed: bool,
    /// Plotted against the secondary (right) axis.
    pub secondary: bool,
}

/// A vertical mark (a GC, an OOM kill).
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// Where, in x units.
    pub x: f64,
    /// Colour.
    pub color: flywheel_engine::static_text::StaticStr,
    /// Full height (OOM) or a short tick at the bottom (GC).
    pub tall: bool,
}

/// Everything one chart shows.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartSpec {
    /// Title drawn above the plot.
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Data range on x.
    pub x_range: (f64, f64),
    /// Data range on the primary y axis.
    pub y_range: (f64, f64),
    /// Data range on the secondary y axis (lines with `secondary`), if any.
    pub y2_range: Option<(f64, f64)>,
    /// Unit suffix of the primary / secondary axis labels.
    pub units: (&'static str, &'static str),
    /// The lines, drawn in order.
    pub lines: Vec<Line>,
    /// Horizontal reference lines (limits) at these y values.
    pub limits: Vec<(f64, &'static str)>,
    /// Vertical marks.
    pub marks: Vec<Mark>,
}

/// Where the plot area ended up on the canvas, to map a hover back to data.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlotArea {
    /// Left edge (canvas px).
    pub left: f64,
    /// Right edge (canvas px).
    pub right: f64,
    /// The x range drawn.
    pub x_range: (f64, f64),
}

impl PlotArea {
    /// The data x at canvas pixel `px` (clamped to the plot).
    pub fn x_at(&self, px: f64) -> f64 {
        let f = ((px - self.left) / (self.right - self.left).max(1.0)).clamp(0.0, 1.0);
        self.x_range.0 + f * (self.x_range.1 - self.x_range.0)
    }
}

const MARGIN_PX: f64 = 8.0;
const TITLE_PX: f64 = 46.0;
const X_AXIS_PX: f64 = 24.0;
const Y_AXIS_PX: f64 = 52.0;
const GRID_LINES: usize = 4;
/// Text sizes in CSS px, chosen to stay readable on a projector at 1280 × 720.
const TITLE_FONT: f64 = 15.0;
const LABEL_FONT: f64 = 13.0;
const LEGEND_LINE_PX: f64 = 15.0;

/// The plot area on the canvas and the mapping of data to its pixels, with the layout and the
/// rounding of plotters' `ChartBuilder` and `Cartesian2d`: the margins, then the label areas
/// below and to the left; a value lands on `first + ⌊span × fraction + 0.001⌋`, the y axis
/// running up from the bottom row.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Frame {
    /// First and last pixel column of the plot.
    columns: (i32, i32),
    /// Bottom and top pixel row of the plot.
    rows: (i32, i32),
    /// The data ranges mapped onto them.
    x: (f64, f64),
    y: (f64, f64),
}

impl Frame {
    /// The plot of a `size` canvas less the margins (top, right, bottom, left) and the label
    /// areas under it (`x_axis`) and left of it (`y_axis`), all in canvas pixels.
    fn new(
        size: (i32, i32),
        (top, right, bottom, left): (i32, i32, i32, i32),
        (x_axis, y_axis): (i32, i32),
        x: (f64, f64),
        y: (f64, f64),
    ) -> Frame {
        let (first_column, end_column) = (left + y_axis, size.0 - right);
        let (top_row, end_row) = (top, size.1 - bottom - x_axis);
        Frame {
            columns: (first_column, end_column - 1),
            rows: (end_row - 1, top_row),
            x,
            y,
        }
    }

    /// The pixel of data point `(x, y)`.
    fn at(&self, (x, y): (f64, f64)) -> (i32, i32) {
        (map(x, self.x, self.columns), map(y, self.y, self.rows))
    }
}

/// `v` of `range` on the pixels from `limit.0` to `limit.1`, as plotters maps an `f64` axis.
fn map(v: f64, (lo, hi): (f64, f64), limit: (i32, i32)) -> i32 {
    #[allow(clippy::float_cmp, reason = "plotters' own test: one value, one point")]
    if lo == hi {
        return (limit.1 - limit.0) / 2;
    }
    let fraction = (v - lo) / (hi - lo);
    let span = limit.1 - limit.0;
    if span == 0 {
        return limit.1;
    }
    if fraction.is_infinite() {
        return if fraction > 0.0 { limit.1 } else { limit.0 };
    }
    if span > 0 {
        limit.0 + (f64::from(span) * fraction + 1e-3).floor() as i32
    } else {
        limit.0 + (f64::from(span) * fraction - 1e-3).ceil() as i32
    }
}

/// A line `w` CSS pixels wide in canvas pixels (`k` per CSS pixel), at least one.
fn stroke_px(w: f64, k: f64) -> u32 {
    ((w * k).round() as u32).max(1)
}

/// Strokes the polyline through `points` (canvas pixels) `width` wide, dashed by `dash`
/// (drawn, skipped) when given.
fn stroke_path(
    ctx: &CanvasRenderingContext2d,
    points: impl IntoIterator<Item = (i32, i32)>,
    color: &str,
    width: u32,
    dash: Option<(u32, u32)>,
) {
    if let Some((on, off)) = dash {
        let _ = ctx.set_line_dash(&js_sys::Array::of2(&on.into(), &off.into()));
    }
    ctx.set_stroke_style_str(color);
    ctx.set_line_width(f64::from(width));
    ctx.begin_path();
    let mut points = points.into_iter();
    if let Some((x, y)) = points.next() {
        ctx.move_to(f64::from(x), f64::from(y));
        for (x, y) in points {
            ctx.line_to(f64::from(x), f64::from(y));
        }
    }
    ctx.stroke();
    if dash.is_some() {
        let _ = ctx.set_line_dash(&js_sys::Array::new());
    }
}

/// Draws `spec` on `canvas` in `palette`'s colours, replacing what was there. `k` is the canvas
/// pixels per CSS pixel (the device pixel ratio when the canvas matches its box), so text, lines
/// and margins keep their CSS size and stay sharp on high-density screens. `cursor` is the instant
/// shown when it lies before the end of the run drawn: a vertical line there, and what comes after
/// it dimmed.
pub fn draw(
    canvas: HtmlCanvasElement,
    spec: &ChartSpec,
    palette: &Palette,
    k: f64,
    cursor: Option<f64>,
) -> Result<PlotArea, String> {
    let px = |v: f64| ((v * k).round() as i32).max(0);
    let stroke = |w: f64| stroke_px(w, k);
    let ctx = context_2d(&canvas)?;
    let size = (
        i32::try_from(canvas.width()).unwrap_or(i32::MAX),
        i32::try_from(canvas.height()).unwrap_or(i32::MAX),
    );
    ctx.set_fill_style_str(palette.bg);
    ctx.fill_rect(0.0, 0.0, f64::from(size.0), f64::from(size.1));
    let (x0, x1) = nonempty(spec.x_range);
    let (y0, y1) = nonempty(spec.y_range);
    let right = if spec.y2_range.is_some() {
        Y_AXIS_PX
    } else {
        MARGIN_PX
    };
    let extra = LEGEND_LINE_PX * (legend_rows(&ctx, spec, k) - 1) as f64;
    let margins = (
        px(MARGIN_PX + TITLE_PX + extra),
        px(right),
        px(MARGIN_PX),
        px(MARGIN_PX),
    );
    let frame = Frame::new(
        size,
        margins,
        (px(X_AXIS_PX), px(Y_AXIS_PX)),
        (x0, x1),
        (y0, y1),
    );
    draw_grid(&ctx, &frame, palette, stroke(1.0));
    let scale2 = spec
        .y2_range
        .map(nonempty)
        .map(|(a, b)| (a, (y1 - y0) / (b - a)));
    for m in &spec.marks {
        let top = if m.tall { y1 } else { y0 + (y1 - y0) * 0.06 };
        let width = stroke(if m.tall { 2.0 } else { 1.0 });
        let ends = [frame.at((m.x, y0)), frame.at((m.x, top))];
        stroke_path(&ctx, ends, m.color, width, None);
    }
    for (y, c) in &spec.limits {
        let ends = [frame.at((x0, *y)), frame.at((x1, *y))];
        stroke_path(&ctx, ends, c, stroke(2.0), Some((stroke(6.0), stroke(4.0))));
    }
    for line in &spec.lines {
        draw_line(&ctx, &frame, line, scale2, k);
    }
    if let Some(c) = cursor {
        draw_cursor(
            &ctx,
            &frame,
            crate::clamp::clamp(c, x0, x1),
            palette,
            stroke(2.0),
        );
    }
    draw_labels(&ctx, &frame, spec, palette, k);
    let (left, _) = frame.at((x0, y0));
    let (rightpx, _) = frame.at((x1, y0));
    Ok(PlotArea {
        left: f64::from(left),
        right: f64::from(rightpx),
        x_range: (x0, x1),
    })
}

/// The instant shown on a run drawn further: what follows it veiled, and a line at it.
fn draw_cursor(
    ctx: &CanvasRenderingContext2d,
    frame: &Frame,
    at: f64,
    palette: &Palette,
    width: u32,
) {
    let ((_, x1), (y0, y1)) = (frame.x, frame.y);
    let (a, b) = (frame.at((at, y0)), frame.at((x1, y1)));
    let (r, g, bl) = rgb(palette.bg);
    ctx.set_fill_style_str(&format!("rgba({r},{g},{bl},0.6)"));
    let (left, top) = (a.0.min(b.0), a.1.min(b.1));
    let (w, h) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    ctx.fill_rect(f64::from(left), f64::from(top), f64::from(w), f64::from(h));
    stroke_path(ctx, [a, frame.at((at, y1))], palette.fg, width, None);
}

fn draw_line(
    ctx: &CanvasRenderingContext2d,
    frame: &Frame,
    line: &Line,
    scale2: Option<(f64, f64)>,
    k: f64,
) {
    let y0 = frame.y.0;
    let map = |(x, y): (f64, f64)| match (line.secondary, scale2) {
        (true, Some((base, k))) => (x, y0 + (y - base) * k),
        _ => (x, y),
    };
    let points = line.points.iter().map(|&p| frame.at(map(p)));
    let dash = line.dashed.then(|| (stroke_px(7.0, k), stroke_px(5.0, k)));
    stroke_path(ctx, points, line.color, stroke_px(2.0, k), dash);
}

fn draw_grid(ctx: &CanvasRenderingContext2d, frame: &Frame, palette: &Palette, width: u32) {
    let ((x0, x1), (y0, y1)) = (frame.x, frame.y);
    for i in 0..=GRID_LINES {
        let y = y0 + (y1 - y0) * i as f64 / GRID_LINES as f64;
        let ends = [frame.at((x0, y)), frame.at((x1, y))];
        stroke_path(ctx, ends, palette.grid, width, None);
    }
    let frame_line = [(x0, y1), (x0, y0), (x1, y0)].map(|p| frame.at(p));
    stroke_path(ctx, frame_line, palette.muted, width, None);
}

fn font(weight: &str, size: f64, k: f64) -> String {
    format!("{weight} {}px sans-serif", Fixed(size * k, 1))
}

fn draw_labels(
    ctx: &CanvasRenderingContext2d,
    frame: &Frame,
    spec: &ChartSpec,
    palette: &Palette,
    k: f64,
) {
    let ((x0, x1), (y0, y1)) = (frame.x, frame.y);
    let gap = 5.0 * k;
    ctx.set_fill_style_str(palette.fg);
    ctx.set_font(&font("600", TITLE_FONT, k));
    ctx.set_text_align("left");
    ctx.set_text_baseline("top");
    let _ = ctx.fill_text(&spec.title, MARGIN_PX * k, 4.0 * k);
    draw_legend(ctx, spec, palette, k);
    ctx.set_fill_style_str(palette.muted);
    ctx.set_font(&font("400", LABEL_FONT, k));
    ctx.set_text_baseline("middle");
    for i in 0..=GRID_LINES {
        let f = i as f64 / GRID_LINES as f64;
        let y = y0 + (y1 - y0) * f;
        let (px, py) = frame.at((x0, y));
        ctx.set_text_align("right");
        let _ = ctx.fill_text(
            &(format_tick(y) + spec.units.0),
            f64::from(px) - gap,
            f64::from(py),
        );
        if let Some((a, b)) = spec.y2_range.map(nonempty) {
            let (qx, _) = frame.at((x1, y));
            ctx.set_text_align("left");
            let label = format_tick(a + (b - a) * f) + spec.units.1;
            let _ = ctx.fill_text(&label, f64::from(qx) + gap, f64::from(py));
        }
    }
    ctx.set_text_baseline("top");
    for x in [x0, x1] {
        let (px, py) = frame.at((x, y0));
        ctx.set_text_align(if x == x0 { "left" } else { "right" });
        let _ = ctx.fill_text(&format_tick(x), f64::from(px), f64::from(py) + gap);
    }
    ctx.set_text_align("center");
    let (mid, py) = frame.at(((x0 + x1) / 2.0, y0));
    let _ = ctx.fill_text(&spec.x_label, f64::from(mid), f64::from(py) + gap);
}

/// Where each legend entry goes: `(x, y, name width)`, wrapping to a new row rather than cutting.
fn legend_layout(ctx: &CanvasRenderingContext2d, spec: &ChartSpec, k: f64) -> Vec<(f64, f64, f64)> {
    ctx.set_font(&font("400", LABEL_FONT - 1.0, k));
    let right = f64::from(ctx.canvas().map_or(0, |c| c.width()));
    let (mut x, mut y) = (MARGIN_PX * k, 32.0 * k);
    let mut out = Vec::new();
    for l in spec.lines.iter().filter(|l| !l.name.is_empty()) {
        let w = ctx.measure_text(&l.name).map(|m| m.width()).unwrap_or(60.0);
        if x > MARGIN_PX * k && x + 18.0 * k + w > right {
            x = MARGIN_PX * k;
            y += LEGEND_LINE_PX * k;
        }
        out.push((x, y, w));
        x += 30.0 * k + w;
    }
    out
}

fn legend_rows(ctx: &CanvasRenderingContext2d, spec: &ChartSpec, k: f64) -> usize {
    let layout = legend_layout(ctx, spec, k);
    let mut ys: Vec<i64> = layout.iter().map(|e| e.1 as i64).collect();
    ys.dedup();
    ys.len().max(1)
}

fn draw_legend(ctx: &CanvasRenderingContext2d, spec: &ChartSpec, palette: &Palette, k: f64) {
    let layout = legend_layout(ctx, spec, k);
    ctx.set_text_baseline("middle");
    ctx.set_text_align("left");
    let named = spec.lines.iter().filter(|l| !l.name.is_empty());
    for (l, &(x, y, _)) in named.zip(&layout) {
        ctx.set_fill_style_str(l.color);
        ctx.fill_rect(x, y - 1.5 * k, 14.0 * k, 3.0 * k);
        if l.dashed {
            ctx.set_fill_style_str(palette.bg);
            ctx.fill_rect(x + 5.0 * k, y - 2.0 * k, 4.0 * k, 4.0 * k);
        }
        ctx.set_fill_style_str(palette.muted);
        let _ = ctx.fill_text(&l.name, x + 18.0 * k, y);
    }
}

fn context_2d(canvas: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, String> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        .ok_or_else(|| "the canvas has no 2D context".to_owned())
}

/// A range with a non-zero width (an empty one maps nowhere).
pub fn nonempty((a, b): (f64, f64)) -> (f64, f64) {
    let (a, b) = if a.is_finite() && b.is_finite() {
        (a.min(b), a.max(b))
    } else {
        (0.0, 1.0)
    };
    if (b - a).abs() < f64::EPSILON {
        (a, a + 1.0)
    } else {
        (a, b)
    }
}

/// A short tick label: `1.5k`, `20`, `0.25`.
pub fn format_tick(v: f64) -> String {
    let a = v.abs();
    if a >= 1e9 {
        format!("{}G", Fixed(v / 1e9, 1))
    } else if a >= 1e6 {
        format!("{}M", Fixed(v / 1e6, 1))
    } else if a >= 1e4 {
        format!("{}k", Fixed(v / 1e3, 1))
    } else if a >= 10.0 || a == 0.0 {
        fixed(v, 0)
    } else {
        fixed(v, 2)
    }
}

/// A "nice" upper bound for an axis showing values up to `max` (1, 2, 2.5 or 5 × 10ⁿ).
pub fn nice_max(max: f64) -> f64 {
    if !max.is_finite() || max <= 0.0 {
        return 1.0;
    }
    let p = crate::pow10::pow10(crate::pow10::decade(max));
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|v| *v >= max)
        .unwrap_or(10.0 * p)
}

/// A snug upper bound for an axis showing values up to `max` (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6
/// or 8 × 10ⁿ): at most a fifth of the plot stays empty above the highest value.
pub fn snug_max(max: f64) -> f64 {
    if !max.is_finite() || max <= 0.0 {
        return 1.0;
    }
    let p = crate::pow10::pow10(crate::pow10::decade(max));
    [1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|v| *v >= max * (1.0 - 1e-12))
        .unwrap_or(10.0 * p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(format_tick(0.0), "0");
        assert_eq!(format_tick(0.25), "0.25");
        assert_eq!(format_tick(1500.0), "1500");
        assert_eq!(format_tick(25_000.0), "25.0k");
        assert_eq!(format_tick(3_500_000.0), "3.5M");
    }

    #[test]
    fn an_empty_or_inverted_range_is_widened_to_something_drawable() {
        assert_eq!(nonempty((5.0, 5.0)), (5.0, 6.0));
        assert_eq!(nonempty((3.0, 1.0)), (1.0, 3.0));
        assert_eq!(nonempty((f64::NAN, 1.0)), (0.0, 1.0));
    }

    #[test]
    fn a_frame_maps_its_ranges_onto_the_plot_left_of_the_margins_and_above_the_axis() {
        // a 400 × 200 canvas, margins 54 (top), 8, 8, 8, label areas 24 (below) and 52 (left)
        let f = Frame::new(
            (400, 200),
            (54, 8, 8, 8),
            (24, 52),
            (0.0, 10.0),
            (0.0, 100.0),
        );
        assert_eq!((f.columns, f.rows), ((60, 391), (167, 54)));
        assert_eq!(f.at((0.0, 0.0)), (60, 167), "the origin at the bottom left");
        assert_eq!(f.at((10.0, 100.0)), (391, 54), "the ends at the top right");
        // 331 columns × 0.5 = 165.5 → 165; 113 rows up × 0.5 = 56.5 → 56
        assert_eq!(f.at((5.0, 50.0)), (225, 111));
        assert_eq!(map(1.0, (1.0, 1.0), (0, 10)), 5, "one value: the middle");
        assert_eq!(map(f64::INFINITY, (0.0, 1.0), (0, 10)), 10);
    }

    #[test]
    fn axes_end_on_nice_numbers() {
        assert_eq!(nice_max(7.0), 10.0);
        assert_eq!(nice_max(180.0), 200.0);
        assert_eq!(nice_max(0.0), 1.0);
        assert_eq!(nice_max(2.2), 2.5);
        assert_eq!(snug_max(269.0), 300.0);
        assert_eq!(snug_max(1785.0), 2000.0);
        assert_eq!(snug_max(110.0), 120.0);
    }
}
