//! The animated pipelines (A, and B when comparing), drawn by the animation loop on canvases, and
//! their live counters in the DOM (exact, readable, and announced to assistive technology).

use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::use_ctx;
use crate::i18n::Msg;
use crate::pipeline_draw::{self, HEIGHT, WIDTH};
use crate::sim::Lane;
use crate::state::Action;
use crate::web;

/// Live numbers of one lane.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneStats {
    /// API requests per second (last 3 s).
    pub rps: f64,
    /// Reconciles per second (last 3 s).
    pub reconciles: f64,
    /// Self-triggered enqueues so far.
    pub loops: u64,
    /// Self-triggered enqueues per second (last 10 s): the loop is turning when > 0.
    pub loop_rate: f64,
    /// etcd revision.
    pub revision: u64,
    /// Pod state and restarts.
    pub pod: String,
    /// Simulated seconds so far.
    pub time_s: f64,
    /// Whether the operator runs and has nothing queued or in progress (`None`: it does not run).
    pub operator_idle: Option<bool>,
}

/// How many simulated seconds without a self-triggered enqueue it takes to call a run converged.
pub const LOOP_WINDOW_S: usize = 10;

/// What the counters say about the write loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Self-triggered enqueues in the last window: each write re-triggers Reconcile.
    Looping,
    /// Less than one window has run and no loop showed yet.
    Watching,
    /// No self-triggered enqueue in a whole window and nothing queued or in progress.
    Converged,
    /// No self-triggered enqueue in a whole window, but the workqueue is still busy.
    Busy,
    /// The operator's container is not running (killed, or waiting out its back-off).
    Down,
}

impl Verdict {
    /// The verdict for a lane's counters.
    pub fn of(s: &LaneStats) -> Verdict {
        if s.loop_rate > 0.0 {
            return Verdict::Looping;
        }
        match s.operator_idle {
            None if s.time_s > 0.0 => Verdict::Down,
            _ if s.time_s < LOOP_WINDOW_S as f64 => Verdict::Watching,
            None => Verdict::Down,
            Some(true) => Verdict::Converged,
            Some(false) => Verdict::Busy,
        }
    }

    /// Its text and its CSS class (also its `data-state`).
    pub fn message(self) -> (Msg, &'static str) {
        match self {
            Verdict::Looping => (Msg::Looping, "looping"),
            Verdict::Watching => (Msg::Watching, "watching"),
            Verdict::Converged => (Msg::Converged, "converged"),
            Verdict::Busy => (Msg::BusyNoLoop, "busy"),
            Verdict::Down => (Msg::OperatorDown, "down"),
        }
    }
}

impl LaneStats {
    /// Reads a lane.
    pub fn of(lane: &Lane) -> LaneStats {
        let s = &lane.snapshot;
        LaneStats {
            rps: lane.rate_matching("apiserver_request_total{", "", 3),
            reconciles: lane.rate_matching("controller_runtime_reconcile_total{", "", 3),
            loops: lane.loop_count,
            loop_rate: lane.rate("flywheel_self_triggered_enqueues_total", LOOP_WINDOW_S),
            revision: s.revision,
            pod: match s.restart_in_s {
                Some(r) => format!("{} {r:.0}s · {}×", s.pod_state, s.restarts),
                None => format!("{} · {}×", s.pod_state, s.restarts),
            },
            time_s: s.time_s,
            operator_idle: s
                .operator
                .as_ref()
                .map(|o| o.queue_ready + o.queue_waiting + o.workers_busy == 0),
        }
    }
}

fn stat(id: String, label: &str, value: String, raw: String) -> Html {
    html! {
        <div class="stat">
            <span class="label">{ label.to_owned() }</span>
            <output id={id} data-value={raw}>{ value }</output>
        </div>
    }
}

/// The pipelines and their counters.
#[function_component(Pipelines)]
pub fn pipelines() -> Html {
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    let engine = ctx.engine.borrow();
    let lanes: Vec<LaneStats> = engine
        .as_ref()
        .map(|e| e.lanes().map(LaneStats::of).collect())
        .unwrap_or_default();
    drop(engine);
    let ratio = web::pixel_ratio();
    let compare = ctx.state.url.compare.is_some();
    let views = (0..if compare { 2 } else { 1 }).map(|i| {
        let side = ["a", "b"][i];
        let click = {
            let ctx = ctx.clone();
            Callback::from(move |e: MouseEvent| {
                let Some(canvas) = ctx.pipes[i].cast::<HtmlCanvasElement>() else { return };
                let rect = canvas.get_bounding_client_rect();
                let k = WIDTH / rect.width().max(1.0);
                let (x, y) = ((f64::from(e.client_x()) - rect.left()) * k, (f64::from(e.client_y()) - rect.top()) * k);
                let key = ctx.engine.borrow().as_ref().and_then(|en| {
                    let lane = if i == 0 { Some(&en.a) } else { en.b.as_ref() };
                    lane.and_then(|l| pipeline_draw::hit(l, x, y, ctx.live.borrow().anim_ms))
                });
                if let Some(k) = key {
                    ctx.dispatch(Action::SetSide(i));
                    ctx.dispatch(Action::Select(k));
                }
            })
        };
        let st = lanes.get(i).cloned();
        let verdict = st.as_ref().map(|s| Verdict::of(s).message());
        html! {
            <figure class="pipeline">
                <canvas id={format!("pipeline-{side}")} ref={ctx.pipes[i].clone()}
                    width={((WIDTH * ratio) as u32).to_string()} height={((HEIGHT * ratio) as u32).to_string()}
                    role="img" aria-label={Msg::PipelineLabel.text(lang)} onclick={click}></canvas>
                if let Some(s) = st {
                    <div class="stats" aria-live="off">
                        { stat(format!("stat-rps-{side}"), Msg::RequestsPerSecond.text(lang), format!("{:.1}", s.rps), format!("{:.3}", s.rps)) }
                        { stat(format!("stat-reconciles-{side}"), Msg::ReconcilesPerSecond.text(lang), format!("{:.1}", s.reconciles), format!("{:.3}", s.reconciles)) }
                        { stat(format!("stat-loop-{side}"), Msg::LoopClosures.text(lang), s.loops.to_string(), s.loops.to_string()) }
                        { stat(format!("stat-rev-{side}"), Msg::Revision.text(lang), s.revision.to_string(), s.revision.to_string()) }
                        { stat(format!("stat-pod-{side}"), Msg::Pod.text(lang), s.pod.replacen("Running", Msg::Running.text(lang), 1), s.pod.clone()) }
                        if let Some((m, cls)) = verdict {
                            <p id={format!("verdict-{side}")} class={classes!("verdict", cls)} data-state={cls}>{ m.text(lang) }</p>
                        }
                    </div>
                }
            </figure>
        }
    });
    html! {
        <section id="pipelines" class={classes!("pipelines", compare.then_some("ab"))} aria-label={Msg::Pipeline.text(lang)}>
            { for views }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(loop_rate: f64, time_s: f64, operator_idle: Option<bool>) -> LaneStats {
        LaneStats {
            rps: 0.0,
            reconciles: 0.0,
            loops: 0,
            loop_rate,
            revision: 1,
            pod: String::new(),
            time_s,
            operator_idle,
        }
    }

    #[test]
    fn a_run_is_not_called_converged_before_a_whole_window_has_passed() {
        assert_eq!(
            Verdict::of(&stats(0.0, 1.3, Some(false))),
            Verdict::Watching
        );
        assert_eq!(Verdict::of(&stats(0.0, 1.3, Some(true))), Verdict::Watching);
        assert_eq!(
            Verdict::of(&stats(0.0, 10.0, Some(true))),
            Verdict::Converged
        );
    }

    #[test]
    fn a_loop_shows_as_soon_as_it_turns_and_a_busy_queue_is_not_converged() {
        assert_eq!(Verdict::of(&stats(4.0, 2.0, Some(false))), Verdict::Looping);
        assert_eq!(Verdict::of(&stats(0.0, 30.0, Some(false))), Verdict::Busy);
    }

    #[test]
    fn a_stopped_operator_is_down_not_converged() {
        assert_eq!(Verdict::of(&stats(0.0, 300.0, None)), Verdict::Down);
        // before the clock starts the container has not started either
        assert_eq!(Verdict::of(&stats(0.0, 0.0, None)), Verdict::Watching);
    }
}
