//! Line charts drawn on a `<canvas>` with plotters-canvas.
//!
//! Plotters lays out text by measuring a DOM `<span>` with an inline `style` attribute, which the
//! page's Content-Security-Policy (`style-src 'self'`) forbids, and which costs a layout per label.
//! So plotters draws the geometry (plot area, grid, series) and the labels are written straight to
//! the 2D context with `fillText`, at positions plotters' coordinate mapping gives.

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// Colours of the charts (Okabe–Ito, safe for colour-blind readers).
pub mod palette {
    use plotters::style::RGBColor;

    /// Blue: the main series.
    pub const SERIES: RGBColor = RGBColor(0, 114, 178);
    /// Vermillion: limits and goals.
    pub const LIMIT: RGBColor = RGBColor(213, 94, 0);
    /// Light grey: grid lines.
    pub const GRID: RGBColor = RGBColor(225, 228, 233);
    /// Dark grey: text and axes.
    pub const TEXT: RGBColor = RGBColor(70, 76, 88);
}

/// One line of a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Line<'a> {
    /// `(x, y)` points in data units.
    pub points: &'a [(f64, f64)],
    /// Stroke colour.
    pub color: RGBColor,
    /// Stroke width in pixels.
    pub width_px: u32,
}

/// Everything one chart shows.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartSpec<'a> {
    /// Title drawn above the plot (an upstream metric name, with its unit).
    pub title: &'a str,
    /// Label of the x axis.
    pub x_label: &'a str,
    /// Data range on x.
    pub x_range: (f64, f64),
    /// Data range on y.
    pub y_range: (f64, f64),
    /// The lines, drawn in order.
    pub lines: Vec<Line<'a>>,
    /// Horizontal reference lines (limits, goals) at these y values.
    pub limits: Vec<(f64, RGBColor)>,
}

const MARGIN_PX: i32 = 10;
const TITLE_PX: i32 = 24;
const X_AXIS_PX: i32 = 28;
const Y_AXIS_PX: i32 = 48;
const GRID_LINES: usize = 4;

/// Draws `spec` on `canvas`, replacing what was there.
pub fn draw(canvas: HtmlCanvasElement, spec: &ChartSpec<'_>) -> Result<(), String> {
    let ctx = context_2d(&canvas)?;
    let backend =
        CanvasBackend::with_canvas_object(canvas).ok_or("the canvas has no 2D context")?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (x0, x1) = nonempty(spec.x_range);
    let (y0, y1) = nonempty(spec.y_range);
    let mut chart = ChartBuilder::on(&root)
        .margin(MARGIN_PX)
        .margin_top(MARGIN_PX + TITLE_PX)
        .x_label_area_size(X_AXIS_PX)
        .y_label_area_size(Y_AXIS_PX)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| e.to_string())?;
    draw_grid(&mut chart, (x0, x1), (y0, y1))?;
    for (y, color) in &spec.limits {
        let style = color.stroke_width(1);
        chart
            .draw_series(LineSeries::new([(x0, *y), (x1, *y)], style))
            .map_err(|e| e.to_string())?;
    }
    for line in &spec.lines {
        let style = line.color.stroke_width(line.width_px);
        chart
            .draw_series(LineSeries::new(line.points.iter().copied(), style))
            .map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| e.to_string())?;
    draw_labels(&ctx, &chart, spec, (x0, x1), (y0, y1));
    Ok(())
}

type Cartesian<'a, 'b> =
    ChartContext<'a, CanvasBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

fn draw_grid(
    chart: &mut Cartesian<'_, '_>,
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
) -> Result<(), String> {
    let style = palette::GRID.stroke_width(1);
    for i in 0..=GRID_LINES {
        let y = y0 + (y1 - y0) * i as f64 / GRID_LINES as f64;
        chart
            .draw_series(LineSeries::new([(x0, y), (x1, y)], style))
            .map_err(|e| e.to_string())?;
    }
    let frame = palette::TEXT.stroke_width(1);
    chart
        .draw_series(LineSeries::new([(x0, y1), (x0, y0), (x1, y0)], frame))
        .map_err(|e| e.to_string())?;
    Ok(())
}

fn draw_labels(
    ctx: &CanvasRenderingContext2d,
    chart: &Cartesian<'_, '_>,
    spec: &ChartSpec<'_>,
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
) {
    let text = format!(
        "rgb({},{},{})",
        palette::TEXT.0,
        palette::TEXT.1,
        palette::TEXT.2
    );
    ctx.set_fill_style_str(&text);
    ctx.set_font("600 14px sans-serif");
    ctx.set_text_align("left");
    ctx.set_text_baseline("top");
    let _ = ctx.fill_text(spec.title, f64::from(MARGIN_PX), f64::from(MARGIN_PX));
    ctx.set_font("12px sans-serif");
    ctx.set_text_align("right");
    ctx.set_text_baseline("middle");
    for i in 0..=GRID_LINES {
        let y = y0 + (y1 - y0) * i as f64 / GRID_LINES as f64;
        let (px, py) = chart.backend_coord(&(x0, y));
        let _ = ctx.fill_text(&format_tick(y), f64::from(px - 6), f64::from(py));
    }
    ctx.set_text_baseline("top");
    for x in [x0, x1] {
        let (px, py) = chart.backend_coord(&(x, y0));
        ctx.set_text_align(if x == x0 { "left" } else { "right" });
        let _ = ctx.fill_text(&format_tick(x), f64::from(px), f64::from(py + 6));
    }
    ctx.set_text_align("center");
    let (mid, py) = chart.backend_coord(&((x0 + x1) / 2.0, y0));
    let _ = ctx.fill_text(spec.x_label, f64::from(mid), f64::from(py + 6));
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
fn nonempty((a, b): (f64, f64)) -> (f64, f64) {
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

/// Draws a heap-over-time line with its GC goal on `canvas`.
pub fn draw_heap_chart(
    canvas: HtmlCanvasElement,
    series: &[(f64, f64)],
    goal_mib: f64,
) -> Result<(), String> {
    let x_end = series.last().map_or(1.0, |p| p.0);
    let x_start = series.first().map_or(0.0, |p| p.0);
    let spec = ChartSpec {
        title: "go_memstats_heap_alloc_bytes (MiB)",
        x_label: "tick",
        x_range: (x_start, x_end),
        y_range: (0.0, (goal_mib * 1.2).max(1.0)),
        lines: vec![Line {
            points: series,
            color: palette::SERIES,
            width_px: 2,
        }],
        limits: vec![(goal_mib, palette::LIMIT)],
    };
    draw(canvas, &spec)
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
}
