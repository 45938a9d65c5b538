//! `--plot FILE.svg`: the run's headline series as an SVG chart (plotters' SVG backend).

use std::path::Path;

use flywheel_engine::cluster::report::RunReport;
use flywheel_engine::metrics::names;
use plotters::prelude::*;

/// The panels: a series key, its title, and whether to plot its per-second rate.
const PANELS: [(&str, &str, bool); 4] = [
    (
        names::PROCESS_RESIDENT_MEMORY_BYTES,
        "process_resident_memory_bytes (MiB)",
        false,
    ),
    (
        names::APISERVER_REQUEST_TOTAL,
        "apiserver_request_total rate (req/s)",
        true,
    ),
    (names::WORKQUEUE_DEPTH, "workqueue_depth", false),
    (
        names::RECONCILE_TOTAL,
        "controller_runtime_reconcile_total rate (/s)",
        true,
    ),
];

const COLORS: [RGBColor; 2] = [RGBColor(0, 114, 178), RGBColor(213, 94, 0)];

/// Sums every series whose key starts with `prefix`, point by point (they share sample times).
fn summed(r: &RunReport, prefix: &str) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (k, s) in &r.series {
        if names::is_metric(k, prefix) {
            if out.is_empty() {
                out = s.clone();
            } else {
                for (p, q) in out.iter_mut().zip(s) {
                    p.1 += q.1;
                }
            }
        }
    }
    out
}

fn rate(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    points
        .windows(2)
        .filter(|w| w[1].0 > w[0].0)
        .map(|w| (w[1].0, (w[1].1 - w[0].1).max(0.0) / (w[1].0 - w[0].0)))
        .collect()
}

/// Draws the four panels, one line per report (first solid blue, second orange).
pub fn write_svg(path: &Path, reports: &[&RunReport]) -> Result<(), String> {
    let root = SVGBackend::new(path, (1000, 760)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let panels = root.split_evenly((2, 2));
    for (area, (key, title, as_rate)) in panels.iter().zip(PANELS) {
        let lines: Vec<Vec<(f64, f64)>> = reports
            .iter()
            .map(|r| {
                let s = summed(r, key);
                let s = if as_rate { rate(&s) } else { s };
                if key.ends_with("bytes") {
                    s.into_iter().map(|(t, v)| (t, v / 1048576.0)).collect()
                } else {
                    s
                }
            })
            .collect();
        let x_max = lines.iter().flatten().map(|p| p.0).fold(1.0, f64::max);
        let y_max = lines.iter().flatten().map(|p| p.1).fold(1.0, f64::max) * 1.1;
        let mut chart = ChartBuilder::on(area)
            .caption(title, ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..x_max, 0.0..y_max)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("seconds")
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, (line, r)) in lines.iter().zip(reports).enumerate() {
            let color = COLORS[i % COLORS.len()];
            chart
                .draw_series(LineSeries::new(line.iter().copied(), color.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(r.scenario.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| e.to_string())
}
