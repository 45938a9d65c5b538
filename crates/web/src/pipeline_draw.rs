//! Draws one lane's pipeline on a canvas: the stages with their live counts, the edges, the moving
//! tokens, the predicate gate, the loop edge, and the pod's state. Plain 2D-context drawing (no
//! DOM nodes per token), called once per animation frame.

use flywheel_engine::cluster::memory::PodState;
use flywheel_engine::float_text::{fixed, Fixed};
use flywheel_engine::process::TerminationReason;
use flywheel_engine::scenario::{FifoKind, QueueKind};
use web_sys::CanvasRenderingContext2d;

use crate::i18n::{Lang, Msg};
use crate::pipe_view::PipeView;
use crate::pipeline_words::{reconcile_result, reflector_state, Word};
use crate::theme::Palette;
use crate::tokens::{Carry, Edge, Token, Tokens};

/// Logical width of the drawing.
pub const WIDTH: f64 = 960.0;
/// Logical height of the drawing.
pub const HEIGHT: f64 = 300.0;

type Rect = (f64, f64, f64, f64);

/// Wall-clock ms the OOMKilled banner stays after each kill.
pub const OOM_BANNER_MS: f64 = 3000.0;

/// A count short enough for a stage box: `950`, `12.3k`, `150k`, `1.2M`.
pub fn compact(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=99_999 => format!("{}k", Fixed(n as f64 / 1e3, 1)),
        100_000..=999_999 => format!("{}k", n / 1000),
        _ => format!("{}M", Fixed(n as f64 / 1e6, 1)),
    }
}

const API: Rect = (16.0, 40.0, 120.0, 220.0);
const REFLECTOR: Rect = (220.0, 50.0, 120.0, 64.0);
const FIFO: Rect = (380.0, 50.0, 120.0, 64.0);
const INDEXER: Rect = (540.0, 50.0, 120.0, 64.0);
const HANDLERS: Rect = (700.0, 50.0, 140.0, 64.0);
const QUEUE: Rect = (700.0, 196.0, 140.0, 64.0);
const WORKERS: Rect = (540.0, 196.0, 120.0, 64.0);
const RECONCILE: Rect = (380.0, 196.0, 120.0, 64.0);
const POD: Rect = (204.0, 20.0, 700.0, 262.0);
const GATE_X: f64 = 880.0;
const TOP_Y: f64 = 82.0;
const BOTTOM_Y: f64 = 228.0;

/// The polyline an edge's tokens follow.
pub fn edge_path(edge: Edge) -> &'static [(f64, f64)] {
    match edge {
        Edge::Watch => &[
            (136.0, TOP_Y),
            (220.0, TOP_Y),
            (340.0, TOP_Y),
            (380.0, TOP_Y),
        ],
        Edge::List => &[(136.0, 66.0), (220.0, 66.0)],
        Edge::Pop => &[
            (500.0, TOP_Y),
            (540.0, TOP_Y),
            (660.0, TOP_Y),
            (700.0, TOP_Y),
        ],
        Edge::Enqueue => &[(770.0, 114.0), (770.0, 196.0)],
        Edge::Dropped => &[(840.0, TOP_Y), (GATE_X - 6.0, TOP_Y)],
        Edge::Work => &[
            (700.0, BOTTOM_Y),
            (660.0, BOTTOM_Y),
            (540.0, BOTTOM_Y),
            (500.0, BOTTOM_Y),
        ],
        Edge::Write => &[(380.0, BOTTOM_Y), (136.0, BOTTOM_Y)],
        Edge::Bounce => &[(380.0, 244.0), (140.0, 244.0), (290.0, 244.0)],
    }
}

/// A point at fraction `f` of a polyline's length.
pub fn point_at(path: &[(f64, f64)], f: f64) -> (f64, f64) {
    let seg = |a: (f64, f64), b: (f64, f64)| ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
    let total: f64 = path.windows(2).map(|w| seg(w[0], w[1])).sum();
    let mut left = f.clamp(0.0, 1.0) * total;
    for w in path.windows(2) {
        let l = seg(w[0], w[1]);
        if left <= l && l > 0.0 {
            let k = left / l;
            return (
                w[0].0 + (w[1].0 - w[0].0) * k,
                w[0].1 + (w[1].1 - w[0].1) * k,
            );
        }
        left -= l;
    }
    path.last().copied().unwrap_or((0.0, 0.0))
}

fn carry_color(c: Carry, p: &Palette) -> &'static str {
    match c {
        Carry::Added => p.green,
        Carry::Modified => p.blue,
        Carry::Deleted => p.vermillion,
        Carry::Key => p.fg,
        Carry::Write => p.orange,
        Carry::TooMany => p.purple,
        Carry::List => p.sky,
        Carry::Dropped => p.muted,
        Carry::OwnWrite => p.orange,
    }
}

/// What the drawing needs besides the lane's view.
pub struct DrawCtx<'a> {
    /// Colours.
    pub palette: &'a Palette,
    /// Language of the labels.
    pub lang: Lang,
    /// Wall-clock ms now.
    pub now_ms: f64,
    /// Draw moving tokens (off with prefers-reduced-motion).
    pub motion: bool,
    /// A caption above the drawing (`A`, `B`), if any.
    pub caption: Option<String>,
    /// The why panel's chain, lit on the edges it took.
    pub chain: Option<&'a crate::why_view::WhyView>,
}

/// Draws a lane's `view` on `ctx` (already scaled to logical units).
pub fn draw(ctx: &CanvasRenderingContext2d, view: &PipeView, d: &DrawCtx<'_>) {
    let _pass = crate::text_state::Pass::begin();
    let p = d.palette;
    ctx.set_fill_style_str(p.bg);
    ctx.fill_rect(0.0, 0.0, WIDTH, HEIGHT);
    draw_pod(ctx, view, d);
    draw_edges(ctx, view, d);
    // Tokens travel under the stage boxes, so a box's numbers and state stay readable while
    // tokens pass through it.
    if d.motion {
        for t in &view.tokens {
            draw_token(ctx, t, d);
        }
    }
    if let Some(chain) = d.chain {
        crate::chain_draw::draw_chain(ctx, chain, d);
    }
    draw_stages(ctx, view, d);
    draw_gate(ctx, view, d);
    draw_loop(ctx, view, d);
    if let Some(chain) = d.chain {
        crate::chain_draw::draw_chain_labels(ctx, chain, d);
    }
    if let Some(c) = &d.caption {
        text(ctx, c, 8.0, 16.0, "700 14px sans-serif", p.fg, "left");
    }
}

/// Like [`text`] (centred), squeezed to at most `max_w` wide.
fn fitted(
    ctx: &CanvasRenderingContext2d,
    s: &str,
    (x, y): (f64, f64),
    max_w: f64,
    font: &str,
    color: &str,
) {
    crate::text_state::set(ctx, font, "center", "middle");
    ctx.set_fill_style_str(color);
    let _ = ctx.fill_text_with_max_width(s, x, y, max_w);
}

fn text(
    ctx: &CanvasRenderingContext2d,
    s: &str,
    x: f64,
    y: f64,
    font: &str,
    color: &str,
    align: &str,
) {
    crate::text_state::set(ctx, font, align, "middle");
    ctx.set_fill_style_str(color);
    let _ = ctx.fill_text(s, x, y);
}

fn flash(now: f64, at: f64, ms: f64) -> f64 {
    let age = now - at;
    if (0.0..ms).contains(&age) {
        1.0 - age / ms
    } else {
        0.0
    }
}

fn draw_pod(ctx: &CanvasRenderingContext2d, view: &PipeView, d: &DrawCtx<'_>) {
    let p = d.palette;
    let s = &view.snapshot;
    let (x, y, w, h) = POD;
    let oom = flash(d.now_ms, view.flashes.oom_ms, OOM_BANNER_MS);
    let down = !s.pod_state.is_running();
    ctx.set_line_width(1.5);
    ctx.set_stroke_style_str(if down { p.vermillion } else { p.grid });
    ctx.set_line_dash(&js_sys::Array::of2(&6.0.into(), &4.0.into()))
        .ok();
    ctx.stroke_rect(x, y, w, h);
    ctx.set_line_dash(&js_sys::Array::new()).ok();
    if oom > 0.0 || down {
        ctx.set_global_alpha(if down { 0.10 } else { 0.35 * oom });
        ctx.set_fill_style_str(p.vermillion);
        ctx.fill_rect(x, y, w, h);
        ctx.set_global_alpha(1.0);
    }
    let state = match s.pod_state {
        PodState::Running => Msg::Running.text(d.lang).to_owned(),
        PodState::Terminated(TerminationReason::OomKilled) => {
            Msg::OomKilled.text(d.lang).to_owned()
        }
        other => match s.restart_in_s {
            Some(r) => format!("{other} {}s", Fixed(r, 0)),
            None => other.to_string(),
        },
    };
    let last = s
        .last_exit
        .map(TerminationReason::as_str)
        .filter(|w| !state.starts_with(w))
        .map(|w| format!(" ({w})"))
        .unwrap_or_default();
    let label = format!(
        "{} · {state}{last} · {} {} · {} {} / RSS {}{}",
        Word::OperatorPod.text(d.lang),
        s.restarts,
        Msg::Restarts.text(d.lang),
        Word::Heap.text(d.lang),
        mib(s.heap_bytes),
        mib(s.rss_bytes),
        s.memory_limit_bytes
            .map(|l| format!(" / {} {}", Word::Limit.text(d.lang), mib(l)))
            .unwrap_or_default()
    );
    // the kill stays readable: a banner for 3 s of wall time after each kill, and while backing off
    let killed = s.last_exit == Some(TerminationReason::OomKilled);
    if oom > 0.0 || (down && killed) {
        let banner = format!("OOMKilled × {}", s.counts.oom_kills);
        text(
            ctx,
            &banner,
            x + w / 2.0,
            y + h / 2.0,
            "800 26px sans-serif",
            p.vermillion,
            "center",
        );
    }
    let color = if down { p.vermillion } else { p.muted };
    text(
        ctx,
        &label,
        x + 8.0,
        y + 12.0,
        "600 12px sans-serif",
        color,
        "left",
    );
}

fn mib(b: u64) -> String {
    format!("{} MiB", Fixed(b as f64 / 1048576.0, 0))
}

fn stage(ctx: &CanvasRenderingContext2d, r: Rect, d: &DrawCtx<'_>, lines: [&str; 3], hot: bool) {
    let p = d.palette;
    let (x, y, w, h) = r;
    ctx.set_fill_style_str(p.panel);
    ctx.fill_rect(x, y, w, h);
    ctx.set_line_width(if hot { 2.5 } else { 1.0 });
    ctx.set_stroke_style_str(if hot { p.orange } else { p.muted });
    ctx.stroke_rect(x, y, w, h);
    let cx = x + w / 2.0;
    let inner = w - 8.0;
    fitted(
        ctx,
        lines[0],
        (cx, y + 14.0),
        inner,
        "600 13px sans-serif",
        p.fg,
    );
    fitted(
        ctx,
        lines[1],
        (cx, y + 32.0),
        inner,
        "11px sans-serif",
        p.muted,
    );
    fitted(
        ctx,
        lines[2],
        (cx, y + 50.0),
        inner,
        "700 15px sans-serif",
        p.fg,
    );
}

fn draw_stages(ctx: &CanvasRenderingContext2d, view: &PipeView, d: &DrawCtx<'_>) {
    let s = &view.snapshot;
    let op = s.operator.clone().unwrap_or_default();
    draw_api(ctx, view, d, view.rps);
    let reflector = if op.watching {
        Word::Watching.text(d.lang).to_owned()
    } else {
        let state = s
            .operator
            .as_ref()
            .map_or("down", |o| o.reflector_state.name());
        reflector_state(state, d.lang)
    };
    let rev = format!("{} {}", Word::Rev.text(d.lang), s.revision);
    stage(ctx, REFLECTOR, d, ["Reflector", &reflector, &rev], false);
    let fifo = match view.shape.fifo {
        FifoKind::DeltaFifo => "DeltaFIFO",
        FifoKind::RealFifo => "RealFIFO",
        FifoKind::AtomicFifo => "RealFIFO (atomic)",
    };
    let deltas = Word::KeysDeltas.with(d.lang, &[&compact(op.fifo_len), &compact(op.fifo_deltas)]);
    stage(
        ctx,
        FIFO,
        d,
        [fifo, &deltas, &op.fifo_len.to_string()],
        false,
    );
    let synced = if op.synced {
        Word::Synced
    } else {
        Word::Syncing
    }
    .text(d.lang);
    stage(
        ctx,
        INDEXER,
        d,
        ["Indexer", synced, &op.cache_objects.to_string()],
        false,
    );
    let preds = if view.shape.predicates == 0 {
        Word::NoPredicate.text(d.lang).to_owned()
    } else {
        Word::Predicates.with(d.lang, &[&view.shape.predicates])
    };
    let buffered = Word::Buffered.with(d.lang, &[&compact(op.handler_buffer)]);
    let handlers = Word::Handlers.text(d.lang);
    stage(ctx, HANDLERS, d, [handlers, &preds, &buffered], false);
    let queue = match view.shape.queue {
        QueueKind::Classic => "workqueue",
        QueueKind::Priority => Word::PriorityQueue.text(d.lang),
    };
    let qline = Word::QueuedWaiting.with(
        d.lang,
        &[&compact(op.queue_ready), &compact(op.queue_waiting)],
    );
    let qcount = Word::Processing.with(d.lang, &[&op.workers_busy]);
    stage(ctx, QUEUE, d, [queue, &qline, &qcount], false);
    let wl = format!("{}/{}", op.workers_busy, op.workers);
    let concurrency = if op.workers_started || op.incarnation == 0 {
        Word::Concurrency.text(d.lang)
    } else {
        Msg::WaitingForCacheSync.text(d.lang)
    };
    let workers = Word::Workers.text(d.lang);
    stage(ctx, WORKERS, d, [workers, concurrency, &wl], false);
    let recs = view.reconciles_ok_per_s;
    let last = if view.last_result.is_empty() {
        "—".to_owned()
    } else {
        reconcile_result(&view.last_result, d.lang)
    };
    let rl = format!("{}/s", Fixed(recs, 1));
    stage(ctx, RECONCILE, d, ["Reconcile", &last, &rl], false);
}

fn draw_api(ctx: &CanvasRenderingContext2d, view: &PipeView, d: &DrawCtx<'_>, rps: f64) {
    let p = d.palette;
    let s = &view.snapshot;
    let (x, y, w, h) = API;
    ctx.set_fill_style_str(p.panel);
    ctx.fill_rect(x, y, w, h);
    ctx.set_line_width(1.5);
    ctx.set_stroke_style_str(p.fg);
    ctx.stroke_rect(x, y, w, h);
    let cx = x + w / 2.0;
    text(
        ctx,
        "API server",
        cx,
        y + 16.0,
        "700 13px sans-serif",
        p.fg,
        "center",
    );
    text(
        ctx,
        Word::EtcdRevision.text(d.lang),
        cx,
        y + 64.0,
        "11px sans-serif",
        p.muted,
        "center",
    );
    text(
        ctx,
        &s.revision.to_string(),
        cx,
        y + 82.0,
        "700 16px sans-serif",
        p.fg,
        "center",
    );
    text(
        ctx,
        &Word::Objects.with(d.lang, &[&s.objects]),
        cx,
        y + 110.0,
        "11px sans-serif",
        p.muted,
        "center",
    );
    text(
        ctx,
        &format!("{} req/s", Fixed(rps, 1)),
        cx,
        y + 130.0,
        "700 13px sans-serif",
        p.fg,
        "center",
    );
    text(
        ctx,
        &Word::InFlight.with(d.lang, &[&s.requests_in_flight]),
        cx,
        y + 150.0,
        "11px sans-serif",
        p.muted,
        "center",
    );
    let retries_429 = view.snapshot.counts.retries_429;
    if retries_429 > 0 {
        let t = format!("{retries_429} × 429");
        text(
            ctx,
            &t,
            cx,
            y + 168.0,
            "700 12px sans-serif",
            p.purple,
            "center",
        );
    }
}

fn line(ctx: &CanvasRenderingContext2d, path: &[(f64, f64)], color: &str, width: f64) {
    ctx.begin_path();
    ctx.set_stroke_style_str(color);
    ctx.set_line_width(width);
    for (i, (x, y)) in path.iter().enumerate() {
        if i == 0 {
            ctx.move_to(*x, *y);
        } else {
            ctx.line_to(*x, *y);
        }
    }
    ctx.stroke();
}

fn draw_edges(ctx: &CanvasRenderingContext2d, view: &PipeView, d: &DrawCtx<'_>) {
    let p = d.palette;
    for e in [
        Edge::Watch,
        Edge::Pop,
        Edge::Enqueue,
        Edge::Work,
        Edge::Write,
    ] {
        line(ctx, edge_path(e), p.muted, 1.5);
        let path = edge_path(e);
        arrow(ctx, path[path.len() - 2], path[path.len() - 1], p.muted);
    }
    let relist = flash(d.now_ms, view.flashes.list_ms, 1500.0);
    if relist > 0.0 {
        ctx.set_global_alpha(relist);
        line(ctx, edge_path(Edge::List), p.sky, 6.0);
        text(
            ctx,
            Word::Relist.text(d.lang),
            178.0,
            56.0,
            "600 11px sans-serif",
            p.sky,
            "center",
        );
        ctx.set_global_alpha(1.0);
    }
    text(
        ctx,
        "watch",
        178.0,
        TOP_Y - 10.0,
        "11px sans-serif",
        p.muted,
        "center",
    );
    let write = match view.shape.write_verb {
        Some(w) => Word::Write.with(d.lang, &[&w.http_verb()]),
        None => Word::WriteBack.text(d.lang).to_owned(),
    };
    text(
        ctx,
        &write,
        258.0,
        BOTTOM_Y - 10.0,
        "11px sans-serif",
        p.muted,
        "center",
    );
}

/// An arrowhead at `to`, pointing away from `from`.
fn arrow(ctx: &CanvasRenderingContext2d, from: (f64, f64), to: (f64, f64), color: &str) {
    ctx.begin_path();
    ctx.set_fill_style_str(color);
    ctx.move_to(to.0, to.1);
    for (x, y) in barbs(from, to) {
        ctx.line_to(x, y);
    }
    ctx.close_path();
    ctx.fill();
}

/// The ends of an arrowhead's two barbs at `to`: [`BARB_PX`] long, each turned 0.4 rad off the
/// line back to `from`. The line's unit vector is turned by a rotation written out (its cosine
/// and sine are constants) and its length is a square root, so the module carries no
/// trigonometric functions (about 8 KB of them before optimization).
fn barbs(from: (f64, f64), to: (f64, f64)) -> [(f64, f64); 2] {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = if length > 0.0 {
        (dx / length, dy / length)
    } else {
        (1.0, 0.0)
    };
    [-BARB_SIN, BARB_SIN].map(|turn| {
        // (ux, uy) turned by the angle whose sine is `turn`
        let (bx, by) = (ux * BARB_COS - uy * turn, uy * BARB_COS + ux * turn);
        (to.0 - BARB_PX * bx, to.1 - BARB_PX * by)
    })
}

/// An arrowhead's barb length, in pixels.
const BARB_PX: f64 = 8.0;
/// cos(0.4): the barbs' angle off the line.
const BARB_COS: f64 = 0.921_060_994_002_885_1;
/// sin(0.4).
const BARB_SIN: f64 = 0.389_418_342_308_650_5;

fn draw_gate(ctx: &CanvasRenderingContext2d, view: &PipeView, d: &DrawCtx<'_>) {
    let p = d.palette;
    if view.shape.predicates == 0 {
        return;
    }
    line(ctx, &[(840.0, TOP_Y), (GATE_X, TOP_Y)], p.grid, 1.0);
    line(
        ctx,
        &[(GATE_X, TOP_Y - 18.0), (GATE_X, TOP_Y + 18.0)],
        p.vermillion,
        4.0,
    );
    text(
        ctx,
        "predicate",
        GATE_X + 4.0,
        TOP_Y - 26.0,
        "11px sans-serif",
        p.muted,
        "center",
    );
    let dropped = format!("✕ {}", view.snapshot.counts.predicate_drops);
    text(
        ctx,
        &dropped,
        GATE_X + 4.0,
        TOP_Y + 30.0,
        "700 12px sans-serif",
        p.vermillion,
        "center",
    );
}

fn draw_loop(ctx: &CanvasRenderingContext2d, view: &PipeView, d: &DrawCtx<'_>) {
    let p = d.palette;
    let glow = if d.motion {
        flash(d.now_ms, view.flashes.loop_ms, 900.0)
    } else if view.loop_count > 0 && d.now_ms - view.flashes.loop_ms < 2000.0 {
        1.0
    } else {
        0.0
    };
    ctx.begin_path();
    ctx.move_to(150.0, BOTTOM_Y - 8.0);
    ctx.bezier_curve_to(
        190.0,
        BOTTOM_Y - 40.0,
        190.0,
        TOP_Y + 40.0,
        150.0,
        TOP_Y + 8.0,
    );
    ctx.set_line_width(1.5 + 4.0 * glow);
    ctx.set_stroke_style_str(if glow > 0.0 { p.orange } else { p.grid });
    ctx.stroke();
    arrow(
        ctx,
        (160.0, TOP_Y + 20.0),
        (150.0, TOP_Y + 8.0),
        if glow > 0.0 { p.orange } else { p.grid },
    );
    let color = if view.loop_count > 0 {
        p.orange
    } else {
        p.muted
    };
    let cx = API.0 + API.2 / 2.0;
    text(
        ctx,
        &format!("↺ {}", view.loop_count),
        cx,
        222.0,
        "700 15px sans-serif",
        color,
        "center",
    );
    text(
        ctx,
        Word::OwnWriteOwnEvent.text(d.lang),
        cx,
        240.0,
        "10px sans-serif",
        p.muted,
        "center",
    );
    if let Some(period_s) = view.loop_period_s {
        let said = crate::i18n::Msg::LoopPeriod
            .text(d.lang)
            .replace("{}", &fixed(period_s, 3));
        text(
            ctx,
            &said,
            cx,
            254.0,
            "600 10px sans-serif",
            p.orange,
            "center",
        );
    }
}

fn draw_token(ctx: &CanvasRenderingContext2d, t: &Token, d: &DrawCtx<'_>) {
    let f = Tokens::progress(t, d.now_ms);
    let (x, y) = point_at(edge_path(t.edge), f);
    let color = carry_color(t.carry, d.palette);
    ctx.begin_path();
    ctx.set_fill_style_str(color);
    let r = if t.carry == Carry::List { 7.0 } else { 5.0 };
    let _ = ctx.arc(x, y, r, 0.0, std::f64::consts::TAU);
    ctx.fill();
    if t.carry == Carry::Dropped && f >= 0.95 {
        text(
            ctx,
            "✕",
            x,
            y - 10.0,
            "700 12px sans-serif",
            d.palette.vermillion,
            "center",
        );
    }
    if t.carry == Carry::OwnWrite {
        ctx.set_line_width(2.0);
        ctx.set_stroke_style_str(d.palette.fg);
        ctx.stroke();
    }
}

/// What a click at a logical point of the pipeline picks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hit {
    /// A moving token's object.
    Token(String),
    /// A stage that holds objects (the API server, the Reflector, the FIFO, the Indexer): the
    /// first object stored in that lane.
    Store(String),
}

/// What a click at logical point `(x, y)` of a lane's `view` picks: a token's object, or a stage
/// that holds objects (nothing when the lane holds none).
pub fn hit(view: &PipeView, x: f64, y: f64, now_ms: f64) -> Option<Hit> {
    let near = view.tokens.iter().rev().find(|t| {
        let (tx, ty) = point_at(edge_path(t.edge), Tokens::progress(t, now_ms));
        // a token passing under a stage box is hidden, so it cannot be clicked there
        t.key.is_some()
            && !under_a_stage(tx, ty)
            && (tx - x).powi(2) + (ty - y).powi(2) < 14.0f64.powi(2)
    });
    if let Some(key) = near.and_then(|t| t.key.clone()) {
        return Some(Hit::Token(key));
    }
    if [API, INDEXER, FIFO, REFLECTOR]
        .into_iter()
        .any(|r| inside(r, x, y))
    {
        return view.first_key.clone().map(Hit::Store);
    }
    None
}

/// Whether `(x, y)` lies in `rect` (edges included).
/// Whether (`x`, `y`) is on the workers or the Reconcile box (a click there asks why the
/// running Reconcile runs).
pub fn on_workers(x: f64, y: f64) -> bool {
    inside(WORKERS, x, y) || inside(RECONCILE, x, y)
}

fn inside((rx, ry, rw, rh): Rect, x: f64, y: f64) -> bool {
    x >= rx && x <= rx + rw && y >= ry && y <= ry + rh
}

/// Whether `(x, y)` lies under one of the stage boxes, which are drawn over the tokens.
fn under_a_stage(x: f64, y: f64) -> bool {
    [
        API, REFLECTOR, FIFO, INDEXER, HANDLERS, QUEUE, WORKERS, RECONCILE,
    ]
    .into_iter()
    .any(|r| inside(r, x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_inside_a_stage_box_is_hidden_and_one_between_boxes_is_not() {
        assert!(
            under_a_stage(280.0, 82.0),
            "the middle of the Reflector box"
        );
        assert!(
            !under_a_stage(360.0, 82.0),
            "between Reflector and DeltaFIFO"
        );
    }

    #[test]
    fn large_counts_are_short_enough_for_a_stage_box() {
        assert_eq!(compact(950), "950");
        assert_eq!(compact(12_345), "12.3k");
        assert_eq!(compact(150_000), "150k");
        assert_eq!(compact(1_234_567), "1.2M");
    }

    #[test]
    fn points_follow_the_polyline() {
        let path = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)];
        assert_eq!(point_at(&path, 0.0), (0.0, 0.0));
        assert_eq!(point_at(&path, 0.5), (10.0, 0.0));
        assert_eq!(point_at(&path, 0.75), (10.0, 5.0));
        assert_eq!(point_at(&path, 1.0), (10.0, 10.0));
    }

    #[test]
    fn an_arrowheads_barbs_are_where_the_angle_turned_by_its_sine_and_cosine_puts_them() {
        assert_eq!(BARB_COS, 0.4f64.cos());
        assert_eq!(BARB_SIN, 0.4f64.sin());
        let lines = [
            ((0.0, 0.0), (100.0, 0.0)),
            ((10.0, 50.0), (10.0, 5.0)),
            ((300.0, 20.0), (120.0, 140.0)),
            ((5.0, 5.0), (-40.0, -3.0)),
        ];
        for (from, to) in lines {
            let a = f64::atan2(to.1 - from.1, to.0 - from.0);
            let want = [a - 0.4, a + 0.4].map(|b| (to.0 - 8.0 * b.cos(), to.1 - 8.0 * b.sin()));
            for (got, want) in barbs(from, to).into_iter().zip(want) {
                let off = (got.0 - want.0).abs().max((got.1 - want.1).abs());
                assert!(off < 1e-9, "{from:?} → {to:?}: {got:?} against {want:?}");
            }
        }
        let [one, other] = barbs((7.0, 7.0), (7.0, 7.0));
        assert!(
            one.0.is_finite() && other.1.is_finite(),
            "a point has barbs too"
        );
    }
}
