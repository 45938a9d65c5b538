//! Line charts drawn on a `<canvas>` with plotters-canvas.
//!
//! Plotters lays out text by measuring a DOM `<span>` with an inline `style` attribute, which the
//! page's Content-Security-Policy (`style-src 'self'`) forbids, and which costs a layout per label.
//! So plotters draws the geometry (plot area, grid, series, limit lines, marks) and the labels are
//! written straight to the 2D context with `fillText`, at positions plotters' coordinate mapping
//! gives.

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
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
    pub color: &'static str,
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
    pub color: &'static str,
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

type Cartesian<'a> = ChartContext<'a, CanvasBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

fn color(hex: &str) -> RGBColor {
    let (r, g, b) = rgb(hex);
    RGBColor(r, g, b)
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
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
    let px = |v: f64| (v * k).round() as i32;
    let stroke = |w: f64| ((w * k).round() as u32).max(1);
    let ctx = context_2d(&canvas)?;
    let backend =
        CanvasBackend::with_canvas_object(canvas).ok_or("the canvas has no 2D context")?;
    let root = backend.into_drawing_area();
    root.fill(&color(palette.bg)).map_err(err)?;
    let (x0, x1) = nonempty(spec.x_range);
    let (y0, y1) = nonempty(spec.y_range);
    let right = if spec.y2_range.is_some() {
        Y_AXIS_PX
    } else {
        MARGIN_PX
    };
    let extra = LEGEND_LINE_PX * (legend_rows(&ctx, spec, k) - 1) as f64;
    let mut chart = ChartBuilder::on(&root)
        .margin(px(MARGIN_PX))
        .margin_top(px(MARGIN_PX + TITLE_PX + extra))
        .margin_right(px(right))
        .x_label_area_size(px(X_AXIS_PX))
        .y_label_area_size(px(Y_AXIS_PX))
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(err)?;
    draw_grid(&mut chart, (x0, x1), (y0, y1), palette, stroke(1.0))?;
    let scale2 = spec
        .y2_range
        .map(nonempty)
        .map(|(a, b)| (a, (y1 - y0) / (b - a)));
    for m in &spec.marks {
        let top = if m.tall { y1 } else { y0 + (y1 - y0) * 0.06 };
        let style = color(m.color).stroke_width(stroke(if m.tall { 2.0 } else { 1.0 }));
        chart
            .draw_series(LineSeries::new([(m.x, y0), (m.x, top)], style))
            .map_err(err)?;
    }
    for (y, c) in &spec.limits {
        let style = color(c).stroke_width(stroke(2.0));
        let (dash, gap) = (stroke(6.0), stroke(4.0));
        chart
            .draw_series(DashedLineSeries::new(
                [(x0, *y), (x1, *y)],
                dash,
                gap,
                style,
            ))
            .map_err(err)?;
    }
    for line in &spec.lines {
        draw_line(&mut chart, line, scale2, y0, k)?;
    }
    if let Some(c) = cursor {
        draw_cursor(
            &mut chart,
            c.clamp(x0, x1),
            (x1, (y0, y1)),
            palette,
            stroke(2.0),
        )?;
    }
    root.present().map_err(err)?;
    draw_labels(&ctx, &chart, spec, palette, ((x0, x1), (y0, y1)), k);
    let (left, _) = chart.backend_coord(&(x0, y0));
    let (rightpx, _) = chart.backend_coord(&(x1, y0));
    Ok(PlotArea {
        left: f64::from(left),
        right: f64::from(rightpx),
        x_range: (x0, x1),
    })
}

/// The instant shown on a run drawn further: what follows it veiled, and a line at it.
fn draw_cursor(
    chart: &mut Cartesian<'_>,
    at: f64,
    (x1, (y0, y1)): (f64, (f64, f64)),
    palette: &Palette,
    width: u32,
) -> Result<(), String> {
    let veil = color(palette.bg).mix(0.6).filled();
    chart
        .draw_series(std::iter::once(Rectangle::new([(at, y0), (x1, y1)], veil)))
        .map_err(err)?;
    let style = color(palette.fg).stroke_width(width);
    chart
        .draw_series(LineSeries::new([(at, y0), (at, y1)], style))
        .map_err(err)?;
    Ok(())
}

fn draw_line(
    chart: &mut Cartesian<'_>,
    line: &Line,
    scale2: Option<(f64, f64)>,
    y0: f64,
    k: f64,
) -> Result<(), String> {
    let stroke = |w: f64| ((w * k).round() as u32).max(1);
    let map = |(x, y): (f64, f64)| match (line.secondary, scale2) {
        (true, Some((base, k))) => (x, y0 + (y - base) * k),
        _ => (x, y),
    };
    let style = color(line.color).stroke_width(stroke(2.0));
    let pts: Vec<(f64, f64)> = line.points.iter().copied().map(map).collect();
    if line.dashed {
        chart
            .draw_series(DashedLineSeries::new(pts, stroke(7.0), stroke(5.0), style))
            .map_err(err)?;
    } else {
        chart
            .draw_series(LineSeries::new(pts, style))
            .map_err(err)?;
    }
    Ok(())
}

fn draw_grid(
    chart: &mut Cartesian<'_>,
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
    palette: &Palette,
    width: u32,
) -> Result<(), String> {
    let style = color(palette.grid).stroke_width(width);
    for i in 0..=GRID_LINES {
        let y = y0 + (y1 - y0) * i as f64 / GRID_LINES as f64;
        chart
            .draw_series(LineSeries::new([(x0, y), (x1, y)], style))
            .map_err(err)?;
    }
    let frame = color(palette.muted).stroke_width(width);
    chart
        .draw_series(LineSeries::new([(x0, y1), (x0, y0), (x1, y0)], frame))
        .map_err(err)?;
    Ok(())
}

fn font(weight: &str, size: f64, k: f64) -> String {
    format!("{weight} {:.1}px sans-serif", size * k)
}

fn draw_labels(
    ctx: &CanvasRenderingContext2d,
    chart: &Cartesian<'_>,
    spec: &ChartSpec,
    palette: &Palette,
    ((x0, x1), (y0, y1)): ((f64, f64), (f64, f64)),
    k: f64,
) {
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
        let (px, py) = chart.backend_coord(&(x0, y));
        ctx.set_text_align("right");
        let _ = ctx.fill_text(
            &(format_tick(y) + spec.units.0),
            f64::from(px) - gap,
            f64::from(py),
        );
        if let Some((a, b)) = spec.y2_range.map(nonempty) {
            let (qx, _) = chart.backend_coord(&(x1, y));
            ctx.set_text_align("left");
            let label = format_tick(a + (b - a) * f) + spec.units.1;
            let _ = ctx.fill_text(&label, f64::from(qx) + gap, f64::from(py));
        }
    }
    ctx.set_text_baseline("top");
    for x in [x0, x1] {
        let (px, py) = chart.backend_coord(&(x, y0));
        ctx.set_text_align(if x == x0 { "left" } else { "right" });
        let _ = ctx.fill_text(&format_tick(x), f64::from(px), f64::from(py) + gap);
    }
    ctx.set_text_align("center");
    let (mid, py) = chart.backend_coord(&((x0 + x1) / 2.0, y0));
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

/// A range with a non-zero width (plotters cannot map an empty one).
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
        format!("{:.1}G", v / 1e9)
    } else if a >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.1}k", v / 1e3)
    } else if a >= 10.0 || a == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// A "nice" upper bound for an axis showing values up to `max` (1, 2, 2.5 or 5 × 10ⁿ).
pub fn nice_max(max: f64) -> f64 {
    if !max.is_finite() || max <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(max.log10().floor());
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
    let p = 10f64.powf(max.log10().floor());
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
