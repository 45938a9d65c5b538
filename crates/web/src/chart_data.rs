//! The four live charts' contents, built from the runs' sampled metric series (upstream metric
//! names), A solid and B dashed.

use flywheel_engine::float_text::Fixed;
use flywheel_engine::metrics::names;

use crate::chart::{nice_max, snug_max, ChartSpec, Line, Mark};
use crate::i18n::{Lang, Msg};
use crate::runs::{Lane, Runs};
use crate::theme::Palette;

/// Which chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    /// Heap, RSS, the limit, GC and OOM marks.
    Memory,
    /// API requests/s by verb, with 429s.
    Requests,
    /// Workqueue depth and adds/s.
    Queue,
    /// Reconciles/s and p99 reconcile time.
    Reconcile,
}

impl ChartKind {
    /// Every chart, in page order.
    pub const ALL: [ChartKind; 4] = [
        ChartKind::Memory,
        ChartKind::Requests,
        ChartKind::Queue,
        ChartKind::Reconcile,
    ];

    /// The canvas id.
    pub fn id(self) -> &'static str {
        match self {
            ChartKind::Memory => "chart-memory",
            ChartKind::Requests => "chart-requests",
            ChartKind::Queue => "chart-queue",
            ChartKind::Reconcile => "chart-reconcile",
        }
    }

    /// The chart's label (for its `aria-label`).
    pub fn label(self) -> Msg {
        match self {
            ChartKind::Memory => Msg::ChartMemory,
            ChartKind::Requests => Msg::ChartRequests,
            ChartKind::Queue => Msg::ChartQueue,
            ChartKind::Reconcile => Msg::ChartReconcile,
        }
    }
}

const MIB: f64 = 1024.0 * 1024.0;
/// Samples (seconds) a rate is averaged over on the charts.
pub const SMOOTH: usize = 5;

/// Per-second rates of a cumulative counter series.
pub fn rates(s: &[(f64, f64)]) -> Vec<(f64, f64)> {
    rates_over(s, 1)
}

/// Per-second rates over `span` samples (smoother than [`rates`] for noisy counters).
pub fn rates_over(s: &[(f64, f64)], span: usize) -> Vec<(f64, f64)> {
    let span = span.max(1);
    (1..s.len())
        .map(|i| (s[i.saturating_sub(span)], s[i]))
        .filter(|(a, b)| b.0 > a.0)
        .map(|(a, b)| (b.0, ((b.1 - a.1) / (b.0 - a.0)).max(0.0)))
        .collect()
}

/// Times at which a cumulative counter went up (at most `max`, newest kept).
pub fn increments(s: &[(f64, f64)], max: usize) -> Vec<f64> {
    let all: Vec<f64> = s
        .windows(2)
        .filter(|w| w[1].1 > w[0].1)
        .map(|w| w[1].0)
        .collect();
    all[all.len().saturating_sub(max)..].to_vec()
}

fn series(lane: &Lane, key: &str) -> Vec<(f64, f64)> {
    lane.run.series(key).map(<[_]>::to_vec).unwrap_or_default()
}

fn scaled(s: Vec<(f64, f64)>, k: f64) -> Vec<(f64, f64)> {
    s.into_iter().map(|(x, y)| (x, y * k)).collect()
}

/// The point-by-point sum of the series `keys`, on the times of the one that starts first: a
/// series that starts later (a label value first seen later) counts from its first sample.
fn sum_series(lane: &Lane, keys: &[String]) -> Vec<(f64, f64)> {
    let all: Vec<Vec<(f64, f64)>> = keys.iter().map(|k| series(lane, k)).collect();
    let base = all
        .iter()
        .filter(|s| !s.is_empty())
        .min_by(|a, b| a[0].0.total_cmp(&b[0].0).then(b.len().cmp(&a.len())));
    let Some(base) = base else {
        return Vec::new();
    };
    base.iter()
        .map(|&(t, _)| (t, all.iter().map(|s| value_at(s, t)).sum()))
        .collect()
}

/// The last value of `s` at or before `t` (0 before its first point).
fn value_at(s: &[(f64, f64)], t: f64) -> f64 {
    match s.partition_point(|p| p.0 <= t + 1e-9) {
        0 => 0.0,
        i => s[i - 1].1,
    }
}

fn max_y(lines: &[Line], secondary: bool) -> f64 {
    lines
        .iter()
        .filter(|l| l.secondary == secondary)
        .flat_map(|l| l.points.iter().map(|p| p.1))
        .fold(0.0, f64::max)
}

struct Builder<'a> {
    lines: Vec<Line>,
    marks: Vec<Mark>,
    limits: Vec<(f64, &'static str)>,
    p: &'a Palette,
}

impl Builder<'_> {
    fn line(
        &mut self,
        name: &str,
        points: Vec<(f64, f64)>,
        color: &'static str,
        b: bool,
        secondary: bool,
    ) {
        self.lines.push(Line {
            name: if b { String::new() } else { name.to_owned() },
            points,
            color,
            dashed: b,
            secondary,
        });
    }
}

fn memory(bl: &mut Builder<'_>, lane: &Lane, b: bool) {
    let heap = scaled(series(lane, names::GO_HEAP_ALLOC_BYTES), 1.0 / MIB);
    let mut rss = scaled(
        series(lane, names::PROCESS_RESIDENT_MEMORY_BYTES),
        1.0 / MIB,
    );
    if let Some(limit) = lane.snapshot.memory_limit_bytes {
        // the kernel kills the container when RSS crosses the limit, often between two samples:
        // each kill is drawn where it happened, at the limit
        with_kills(&mut rss, &lane.notes.oom_times, limit as f64 / MIB);
    }
    let (blue, green) = (bl.p.blue, bl.p.green);
    bl.line(names::GO_HEAP_ALLOC_BYTES, heap, blue, b, false);
    bl.line(names::PROCESS_RESIDENT_MEMORY_BYTES, rss, green, b, false);
    if let Some(limit) = lane.snapshot.memory_limit_bytes {
        bl.limits.push((limit as f64 / MIB, bl.p.vermillion));
    }
    if !b {
        for x in increments(&series(lane, names::GO_GC_COUNT), 150) {
            bl.marks.push(Mark {
                x,
                color: bl.p.muted,
                tall: false,
            });
        }
    }
    for x in increments(&series(lane, names::POD_RESTARTS_TOTAL), 50) {
        bl.marks.push(Mark {
            x,
            color: bl.p.vermillion,
            tall: true,
        });
    }
}

/// Inserts a point `(t, at)` for each kill time `t` into the time-ordered `points`.
pub fn with_kills<'a>(
    points: &mut Vec<(f64, f64)>,
    kills: impl IntoIterator<Item = &'a f64>,
    at: f64,
) {
    for &t in kills {
        let i = points.partition_point(|p| p.0 <= t);
        points.insert(i, (t, at));
    }
}

fn verb_color(verb: &str, p: &Palette) -> &'static str {
    match verb {
        "PUT" => p.orange,
        "PATCH" => p.blue,
        "LIST" => p.sky,
        "POST" => p.green,
        "DELETE" => p.vermillion,
        _ => p.muted,
    }
}

fn requests(bl: &mut Builder<'_>, lane: &Lane, b: bool) {
    let prefix = names::labeled_prefix(names::APISERVER_REQUEST_TOTAL);
    let keys: Vec<String> = lane
        .run
        .series_keys()
        .filter(|k| k.starts_with(&prefix))
        .cloned()
        .collect();
    let mut verbs: Vec<String> = keys.iter().filter_map(|k| label(k, "verb")).collect();
    flywheel_engine::small_sort::sort_few(&mut verbs);
    verbs.dedup();
    for verb in verbs {
        let ok: Vec<String> = keys
            .iter()
            .filter(|k| {
                label(k, "verb").as_deref() == Some(verb.as_str())
                    && label(k, "code").as_deref() != Some("429")
            })
            .cloned()
            .collect();
        let pts = rates_over(&sum_series(lane, &ok), SMOOTH);
        let c = verb_color(&verb, bl.p);
        bl.line(&verb, pts, c, b, false);
    }
    let too_many: Vec<String> = keys
        .iter()
        .filter(|k| label(k, "code").as_deref() == Some("429"))
        .cloned()
        .collect();
    if !too_many.is_empty() {
        let pts = rates_over(&sum_series(lane, &too_many), SMOOTH);
        let c = bl.p.purple;
        bl.line("429", pts, c, b, false);
    }
}

/// The value of label `name` in a series key `metric{a="x",b="y"}`.
pub fn label(key: &str, name: &str) -> Option<String> {
    let inner = key.split_once('{')?.1.trim_end_matches('}');
    inner.split(',').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == name).then(|| v.trim_matches('"').to_owned())
    })
}

/// The keys of every series of `metric` (any labels).
fn keys_of(lane: &Lane, metric: &str) -> Vec<String> {
    let prefix = format!("{metric}{{");
    lane.run
        .series_keys()
        .filter(|k| k.starts_with(&prefix))
        .cloned()
        .collect()
}

fn queue(bl: &mut Builder<'_>, lane: &Lane, b: bool) {
    // The depth is split by priority with controller-runtime's priority queue.
    let depth = sum_series(lane, &keys_of(lane, names::WORKQUEUE_DEPTH));
    let adds = rates_over(
        &sum_series(lane, &keys_of(lane, names::WORKQUEUE_ADDS_TOTAL)),
        SMOOTH,
    );
    let (blue, orange) = (bl.p.blue, bl.p.orange);
    bl.line(names::WORKQUEUE_DEPTH, depth, blue, b, false);
    bl.line("workqueue_adds_total /s", adds, orange, b, true);
}

fn reconcile(bl: &mut Builder<'_>, lane: &Lane, b: bool) {
    let prefix = names::labeled_prefix(names::RECONCILE_TOTAL);
    let keys: Vec<String> = lane
        .run
        .series_keys()
        .filter(|k| k.starts_with(&prefix))
        .cloned()
        .collect();
    let recs = rates_over(&sum_series(lane, &keys), SMOOTH);
    let p99 = series(
        lane,
        &format!(
            "{}{{controller=\"{}\",quantile=\"0.99\"}}",
            names::RECONCILE_TIME_SECONDS,
            names::CONTROLLER_NAME
        ),
    );
    let (green, purple) = (bl.p.green, bl.p.purple);
    bl.line(
        "controller_runtime_reconcile_total /s",
        recs,
        green,
        b,
        false,
    );
    bl.line("reconcile_time_seconds p99", p99, purple, b, true);
}

/// The chart `kind` for the engine's lanes.
pub fn build(kind: ChartKind, engine: &Runs, lang: Lang, p: &Palette) -> ChartSpec {
    let mut bl = Builder {
        lines: Vec::new(),
        marks: Vec::new(),
        limits: Vec::new(),
        p,
    };
    for (i, lane) in engine.lanes().enumerate() {
        let b = i == 1;
        match kind {
            ChartKind::Memory => memory(&mut bl, lane, b),
            ChartKind::Requests => requests(&mut bl, lane, b),
            ChartKind::Queue => queue(&mut bl, lane, b),
            ChartKind::Reconcile => reconcile(&mut bl, lane, b),
        }
    }
    let now = engine.now().as_secs_f64().max(1.0);
    let limit_max = bl.limits.iter().map(|l| l.0).fold(0.0, f64::max);
    let top = max_y(&bl.lines, false).max(limit_max);
    let y1 = match kind {
        // memory is scaled to what it shows, the limit line included
        ChartKind::Memory => snug_max(top * 1.05),
        _ => nice_max(top * 1.05),
    };
    let y2 = nice_max(max_y(&bl.lines, true) * 1.05);
    let has2 = bl.lines.iter().any(|l| l.secondary);
    let zh = lang == Lang::Zh;
    let (title, units) = match kind {
        ChartKind::Memory => ("MiB", ("", "")),
        ChartKind::Requests => ("req/s", ("", "")),
        ChartKind::Queue if zh => ("项 · adds/s →", ("", "/s")),
        ChartKind::Queue => ("items · adds/s →", ("", "/s")),
        ChartKind::Reconcile if zh => ("Reconcile/s · p99 →", ("", "s")),
        ChartKind::Reconcile => ("reconciles/s · p99 →", ("", "s")),
    };
    let ab = match (engine.b.is_some(), zh) {
        (false, _) => "",
        (true, true) => " — A 实线，B 虚线",
        (true, false) => " — A solid, B dashed",
    };
    ChartSpec {
        title: format!("{} ({title}){ab}", kind.label().text(lang)),
        x_label: Msg::Seconds.text(lang).to_owned(),
        x_range: (0.0, now),
        y_range: (0.0, y1),
        y2_range: has2.then_some((0.0, y2)),
        units,
        lines: bl.lines,
        limits: bl.limits,
        marks: bl.marks,
    }
}

/// The hover read-out at time `x`: `t=12 s · PUT 4.1 · 429 0`.
pub fn readout(spec: &ChartSpec, x: f64) -> String {
    let mut parts = vec![format!("t={} s", Fixed(x, 0))];
    for l in &spec.lines {
        let near = l
            .points
            .iter()
            .min_by(|a, b| (a.0 - x).abs().total_cmp(&(b.0 - x).abs()));
        if let Some((_, y)) = near {
            let name = if l.name.is_empty() {
                "B".to_owned()
            } else {
                short(&l.name)
            };
            parts.push(format!("{name} {}", crate::chart::format_tick(*y)));
        }
    }
    parts.join(" · ")
}

fn short(name: &str) -> String {
    match name {
        names::GO_HEAP_ALLOC_BYTES => "heap MiB".into(),
        names::PROCESS_RESIDENT_MEMORY_BYTES => "RSS MiB".into(),
        other => other.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_read_from_series_keys() {
        let k = "apiserver_request_total{code=\"429\",verb=\"PUT\"}";
        assert_eq!(label(k, "verb").as_deref(), Some("PUT"));
        assert_eq!(label(k, "code").as_deref(), Some("429"));
        assert_eq!(label("workqueue_depth", "verb"), None);
    }

    #[test]
    fn each_kill_is_drawn_at_the_limit_where_it_happened() {
        let mut rss = vec![(0.0, 10.0), (1.0, 12.0), (2.0, 11.0)];
        with_kills(&mut rss, &[1.4], 256.0);
        assert_eq!(
            rss,
            vec![(0.0, 10.0), (1.0, 12.0), (1.4, 256.0), (2.0, 11.0)]
        );
    }

    #[test]
    fn counters_become_rates_and_marks() {
        let s = [(0.0, 0.0), (1.0, 2.0), (2.0, 2.0), (3.0, 5.0)];
        assert_eq!(rates(&s), vec![(1.0, 2.0), (2.0, 0.0), (3.0, 3.0)]);
        assert_eq!(increments(&s, 10), vec![1.0, 3.0]);
        assert_eq!(increments(&s, 1), vec![3.0]);
    }
}
