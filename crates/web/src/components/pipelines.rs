//! The animated pipelines (A, and B when comparing), drawn by the animation loop on canvases, and
//! their live counters in the DOM (exact, readable, and announced to assistive technology).

use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::use_ctx;
use crate::i18n::Msg;
use crate::outcome::Departure;
use crate::pipeline_draw::{self, HEIGHT, WIDTH};
use crate::state::Action;
use crate::story;
use crate::web;
use flywheel_engine::scenario::variant::Variant;

pub use crate::verdict::{LaneStats, VerdictWords};

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
    crate::renders::count("Pipelines");
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    let engine = ctx.engine.borrow();
    let preset = ctx.state.url.config.preset.clone();
    let lanes: Vec<(LaneStats, Variant, Option<Departure>)> = engine
        .as_ref()
        .map(|e| {
            e.lanes()
                .map(|l| {
                    let d = Departure::of(&preset, &l.stats, l.snapshot.memory_limit_bytes);
                    (l.stats.clone(), l.variant, d)
                })
                .collect()
        })
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
        let (st, variant, departure) = match lanes.get(i).cloned() {
            Some((st, v, d)) => (Some(st), Some(v), d),
            None => (None, None, None),
        };
        let verdict = st.as_ref().map(|s| {
            let v = s.verdict();
            (v.text(s, lang), v.class())
        });
        let caption = variant.filter(|_| compare).map(|v| {
            format!("{}: {}", ["A", "B"][i], story::caption(v, lang))
        });
        html! {
            <figure class="pipeline">
                if let Some(c) = caption {
                    <figcaption id={format!("caption-{side}")} class="caption">{ c }</figcaption>
                }
                <canvas id={format!("pipeline-{side}")} ref={ctx.pipes[i].clone()}
                    width={((WIDTH * ratio) as u32).to_string()} height={((HEIGHT * ratio) as u32).to_string()}
                    role="img" aria-label={Msg::PipelineLabel.text(lang)} onclick={click}></canvas>
                if let Some(s) = st {
                    <div class="stats" aria-live="off">
                        { stat(format!("stat-rps-{side}"), Msg::RequestsPerSecond.text(lang), format!("{:.1}", s.rps), format!("{:.3}", s.rps)) }
                        { stat(format!("stat-reconciles-{side}"), Msg::ReconcilesPerSecond.text(lang), format!("{:.1}", s.reconciles), format!("{:.3}", s.reconciles)) }
                        { stat(format!("stat-loop-{side}"), Msg::LoopClosures.text(lang), s.verdict.figures.loops.to_string(), s.verdict.figures.loops.to_string()) }
                        { stat(format!("stat-rev-{side}"), Msg::Revision.text(lang), s.revision.to_string(), s.revision.to_string()) }
                        { stat(format!("stat-pod-{side}"), Msg::Pod.text(lang), s.pod.replacen("Running", Msg::Running.text(lang), 1), s.pod.clone()) }
                        if let Some((text, cls)) = verdict {
                            <p id={format!("verdict-{side}")} class={classes!("verdict", cls)} data-state={cls}>{ text }</p>
                        }
                        if let Some(d) = &departure {
                            <p id={format!("outcome-{side}")} class="outcome">{ d.text(lang) }</p>
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
