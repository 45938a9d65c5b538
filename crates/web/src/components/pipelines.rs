//! The animated pipelines (A, and B when comparing), drawn by the animation loop on canvases, and
//! their live counters in the DOM (exact, readable, and announced to assistive technology).

use flywheel_engine::float_text::fixed;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::use_ctx;
use crate::i18n::Msg;
use crate::live::use_live;
use crate::outcome::Departure;
use crate::pipeline_draw::{HEIGHT, WIDTH};
use crate::runs::Side;
use crate::state::Action;
use crate::story;
use crate::web;

use crate::verdict::VerdictWords;

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
    let live = use_live();
    let preset = &ctx.state.url.config.preset;
    let ratio = web::pixel_ratio();
    let compare = ctx.state.url.compare.is_some();
    let sides = if compare {
        &Side::BOTH[..]
    } else {
        &Side::BOTH[..1]
    };
    let views = sides.iter().map(|&side| {
        let click = {
            let ctx = ctx.clone();
            Callback::from(move |e: MouseEvent| {
                let Some(canvas) = ctx.pipe(side).cast::<HtmlCanvasElement>() else { return };
                let rect = canvas.get_bounding_client_rect();
                let k = WIDTH / rect.width().max(1.0);
                let (x, y) = ((f64::from(e.client_x()) - rect.left()) * k, (f64::from(e.client_y()) - rect.top()) * k);
                if let Some(key) = ctx.object_at(side, x, y) {
                    ctx.dispatch(Action::SetSide(side));
                    ctx.dispatch(Action::Select(key.clone()));
                    ctx.show_why_now(side, Some(&key));
                } else if crate::pipeline_draw::on_workers(x, y) {
                    ctx.show_why_now(side, None);
                }
            })
        };
        let lane = live.lane(side);
        let st = lane.map(|l| &l.stats);
        let departure = lane.and_then(|l| Departure::of(preset, &l.stats, l.memory_limit_bytes));
        let verdict = st.map(|s| {
            let v = s.verdict();
            (v.text(s, lang), v.class())
        });
        let caption = lane.filter(|_| compare).map(|l| {
            format!("{}: {}", side.letter(), story::caption(l.variant, lang))
        });
        let side_id = side.id();
        html! {
            <figure class="pipeline">
                if let Some(c) = caption {
                    <figcaption id={format!("caption-{side_id}")} class="caption">{ c }</figcaption>
                }
                <div class="pipe-wrap">
                <canvas id={format!("pipeline-{side_id}")} ref={ctx.pipe(side).clone()}
                    width={((WIDTH * ratio) as u32).to_string()} height={((HEIGHT * ratio) as u32).to_string()}
                    role="img" aria-label={Msg::PipelineLabel.text(lang)} onclick={click}></canvas>
                if side == Side::A { <super::tour::PipelineParts /> }
                </div>
                if let Some(s) = st {
                    <div class="stats" aria-live="off">
                        { stat(format!("stat-rps-{side_id}"), Msg::RequestsPerSecond.text(lang), fixed(s.rps, 1), fixed(s.rps, 3)) }
                        { stat(format!("stat-reconciles-{side_id}"), Msg::ReconcilesPerSecond.text(lang), fixed(s.reconciles, 1), fixed(s.reconciles, 3)) }
                        { stat(format!("stat-loop-{side_id}"), Msg::LoopClosures.text(lang), s.verdict.figures.loops.to_string(), s.verdict.figures.loops.to_string()) }
                        { stat(format!("stat-rev-{side_id}"), Msg::Revision.text(lang), s.revision.to_string(), s.revision.to_string()) }
                        { stat(format!("stat-pod-{side_id}"), Msg::Pod.text(lang), s.pod.replacen("Running", Msg::Running.text(lang), 1), s.pod.clone()) }
                        if let Some((text, cls)) = verdict {
                            <p id={format!("verdict-{side_id}")} class={classes!("verdict", cls)} data-state={cls}>{ text }</p>
                        }
                        if let Some(d) = &departure {
                            <p id={format!("outcome-{side_id}")} class="outcome">{ d.text(lang) }</p>
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
