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
}

impl LaneStats {
    /// Reads a lane.
    pub fn of(lane: &Lane) -> LaneStats {
        let s = &lane.snapshot;
        LaneStats {
            rps: lane.rate_matching("apiserver_request_total{", "", 3),
            reconciles: lane.rate_matching("controller_runtime_reconcile_total{", "", 3),
            loops: lane.loop_count,
            loop_rate: lane.rate("flywheel_self_triggered_enqueues_total", 10),
            revision: s.revision,
            pod: match s.restart_in_s {
                Some(r) => format!("{} {r:.0}s · {}×", s.pod_state, s.restarts),
                None => format!("{} · {}×", s.pod_state, s.restarts),
            },
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
                    lane.and_then(|l| pipeline_draw::hit(l, x, y, web::now_ms()))
                });
                if let Some(k) = key {
                    ctx.dispatch(Action::SetSide(i));
                    ctx.dispatch(Action::Select(k));
                }
            })
        };
        let st = lanes.get(i).cloned();
        let verdict = st.as_ref().map(|s| {
            if s.loop_rate > 0.0 { (Msg::Looping, "looping") } else { (Msg::Converged, "converged") }
        });
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
                        { stat(format!("stat-pod-{side}"), Msg::Pod.text(lang), s.pod.clone(), s.pod.clone()) }
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
