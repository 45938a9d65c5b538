//! The guided tour on the page: a menu to open one, the player card (the step's text, its
//! question and choices, then the answer the run shows and the explanation; Back, Next, Close),
//! the highlight on the part the step points at, and the boxes that give the pipeline's stages
//! a `data-part` over their canvas.

use flywheel_engine::tour::{Text, TOUR_IDS};
use wasm_bindgen::JsCast;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::use_ctx;
use crate::ctx::Ctx;
use crate::i18n::{Lang, Msg};
use crate::state::Action;
use crate::texts::{self, Kind, Status};
use crate::tour::{Phase, TourAction, TourAt};
use crate::tour_parts::{self, PIPELINE_BOXES};

/// The class of the element a step points at.
const HIGHLIGHT: &str = "tour-highlight";

/// A tour text: from `www/text/tours.<lang>.txt` once fetched, else the tour's own (empty in
/// the page, whose tours are built without their texts).
fn say(lang: Lang, key: &str, own: &Text) -> String {
    if let Status::Loaded(file) = texts::status(Kind::Tours, lang) {
        if let Some(t) = file.of(key) {
            return t.to_owned();
        }
    }
    match lang {
        Lang::En => own.en.clone(),
        Lang::Zh => own.zh.clone(),
    }
}

/// Fetches the tours' texts of the language in effect and redraws when they arrive.
#[hook]
fn use_tour_texts(lang: Lang) {
    let update = use_force_update();
    use_effect_with(lang, move |&lang| {
        texts::request(Kind::Tours, lang, move || update.force_update());
    });
}

/// The "Tours" menu: picking a tour opens it at its first step.
#[function_component(TourMenu)]
pub fn tour_menu() -> Html {
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    use_tour_texts(lang);
    let open = ctx.state.tour.as_ref().map(|t| t.tour.id.clone());
    let change = {
        let ctx = ctx.clone();
        Callback::from(move |e: Event| {
            let Some(sel) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
            else {
                return;
            };
            let action = match sel.value() {
                v if v.is_empty() => TourAction::Close,
                v => TourAction::Open(v, 1),
            };
            ctx.dispatch(Action::Tour(action));
        })
    };
    let options = TOUR_IDS.iter().map(|id| {
        let own = flywheel_engine::tour::load(id).map(|t| t.title).ok();
        let title = own.map_or_else(
            || (*id).to_owned(),
            |t| say(lang, &format!("{id}.title"), &t),
        );
        html! { <option value={*id} selected={open.as_deref() == Some(*id)}>{ title }</option> }
    });
    html! {
        <label class="tour-menu">
            <span class="visually-hidden">{ Msg::TourPick.text(lang) }</span>
            <select id="tour-menu" onchange={change}>
                <option value="" selected={open.is_none()}>{ Msg::Tours.text(lang) }</option>
                { for options }
            </select>
        </label>
    }
}

/// Boxes over pipeline A's canvas, one per stage a step may point at.
#[function_component(PipelineParts)]
pub fn pipeline_parts() -> Html {
    let boxes = PIPELINE_BOXES
        .iter()
        .map(|(part, _)| html! { <div class="part-box" data-part={*part}></div> });
    html! { <div class="part-boxes" aria-hidden="true">{ for boxes }</div> }
}

/// Gives each part's element its `data-part`, and the highlight to the one `point` names only.
fn mark_parts(point: Option<&str>) {
    let doc = gloo::utils::document();
    if let Ok(old) = doc.query_selector_all(&format!(".{HIGHLIGHT}")) {
        for i in 0..old.length() {
            if let Some(el) = old
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            {
                let _ = el.class_list().remove_1(HIGHLIGHT);
            }
        }
    }
    let parts = flywheel_engine::tour::PARTS.iter().map(|p| (*p).to_owned());
    for part in parts.chain(point.map(str::to_owned)) {
        let Some(sel) = tour_parts::selector(&part) else {
            continue;
        };
        let Ok(Some(el)) = doc.query_selector(&sel) else {
            continue;
        };
        if el.get_attribute("data-part").is_none() {
            let _ = el.set_attribute("data-part", &part);
        }
        if point == Some(part.as_str()) {
            let _ = el.class_list().add_1(HIGHLIGHT);
            let opts = web_sys::ScrollIntoViewOptions::new();
            opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
            el.scroll_into_view_with_scroll_into_view_options(&opts);
        }
    }
}

/// The tour player: the open step's card, or nothing.
#[function_component(TourPlayer)]
pub fn tour_player() -> Html {
    let ctx = use_ctx();
    let s = &ctx.state;
    use_tour_texts(s.lang);
    let point = s.tour.as_ref().map(|t| t.step().point.clone());
    // the counters and the verdict appear with the first live view of a run
    let live = crate::live::use_live();
    let shown = (live.seq > 0, live.lanes.len());
    let deps = (
        point.clone(),
        s.tab,
        s.presenter,
        s.redraws,
        s.url.compare,
        shown,
    );
    use_effect_with(deps, move |(point, ..)| mark_parts(point.as_deref()));
    let Some(at) = s.tour.clone() else {
        return Html::default();
    };
    card(&ctx, &at)
}

fn card(ctx: &Ctx, at: &TourAt) -> Html {
    let lang = ctx.state.lang;
    let id = &at.tour.id;
    let key = format!("{id}.{}", at.index);
    let on = |a: TourAction| {
        let ctx = ctx.clone();
        Callback::from(move |_: MouseEvent| ctx.dispatch(Action::Tour(a.clone())))
    };
    let counter = Msg::TourStepOf
        .text(lang)
        .replacen("{}", &(at.index + 1).to_string(), 1)
        .replacen("{}", &at.step_count().to_string(), 1);
    let side = if at.step().point.starts_with("control.") {
        "at-right"
    } else {
        "at-left"
    };
    html! {
        <aside id="tour" class={classes!("tour-player", side)} aria-label={Msg::Tours.text(lang)}
            data-step={(at.index + 1).to_string()} data-phase={phase_name(&at.phase)}>
            <header class="tour-head">
                <strong id="tour-title">{ say(lang, &format!("{id}.title"), &at.tour.title) }</strong>
                <span id="tour-counter">{ counter }</span>
            </header>
            { question(ctx, at, &key) }
            if at.phase != Phase::Asking {
                <p id="tour-text" class="tour-text">{ say(lang, &format!("{key}.text"), &at.step().text) }</p>
            }
            <nav class="tour-nav">
                <button id="tour-back" disabled={at.index == 0} aria-keyshortcuts="ArrowLeft PageUp"
                    onclick={on(TourAction::Back)}>{ Msg::TourBack.text(lang) }</button>
                <button id="tour-next" class="primary" disabled={at.index + 1 >= at.step_count()}
                    aria-keyshortcuts="ArrowRight PageDown" onclick={on(TourAction::Next)}>{ Msg::TourNext.text(lang) }</button>
                <button id="tour-close" aria-keyshortcuts="Escape" aria-label={Msg::TourClose.text(lang)}
                    onclick={on(TourAction::Close)}>{ "×" }</button>
            </nav>
        </aside>
    }
}

fn phase_name(p: &Phase) -> &'static str {
    match p {
        Phase::Asking => "asking",
        Phase::Running { .. } => "running",
        Phase::Shown { .. } => "shown",
    }
}

/// The question and its choices; after the run, the verdict and the explanation.
fn question(ctx: &Ctx, at: &TourAt, key: &str) -> Html {
    let lang = ctx.state.lang;
    let running = html! { <p id="tour-running" class="tour-running" role="status">{ Msg::TourRunning.text(lang) }</p> };
    let Some(q) = &at.step().question else {
        return if at.running() {
            running
        } else {
            reveal_reached(at, lang)
        };
    };
    let picked = match &at.phase {
        Phase::Running { picked } | Phase::Shown { picked, .. } => *picked,
        Phase::Asking => None,
    };
    let choices = q.choices.iter().enumerate().map(|(i, c)| {
        let own = Text { en: c.en.clone(), zh: c.zh.clone() };
        let pick = {
            let ctx = ctx.clone();
            Callback::from(move |_: MouseEvent| ctx.dispatch(Action::Tour(TourAction::Pick(i))))
        };
        let right = matches!(at.phase, Phase::Shown { .. }) && i == q.answer;
        html! {
            <li><button class={classes!("tour-choice", (picked == Some(i)).then_some("picked"), right.then_some("right"))}
                data-index={i.to_string()} disabled={at.phase != Phase::Asking} onclick={pick}>
                { say(lang, &format!("{key}.choice.{i}"), &own) }
            </button></li>
        }
    });
    let reveal = match &at.phase {
        Phase::Shown { picked, reached } => {
            let shown = reached.shown.and_then(|i| q.choices.get(i)).map(|c| {
                let own = Text {
                    en: c.en.clone(),
                    zh: c.zh.clone(),
                };
                let i = reached.shown.unwrap_or_default();
                Msg::TourRunShows
                    .text(lang)
                    .replace("{}", &say(lang, &format!("{key}.choice.{i}"), &own))
            });
            let right = *picked == reached.shown && picked.is_some();
            let verdict = if right {
                Msg::TourRight
            } else {
                Msg::TourWrong
            };
            html! {
                <div class="tour-reveal">
                    <p id="tour-verdict" class={classes!("tour-verdict", if right { "right" } else { "wrong" })}>{ verdict.text(lang) }</p>
                    if let Some(shown) = shown { <p id="tour-shown">{ shown }</p> }
                    <p id="tour-explain">{ say(lang, &format!("{key}.explain"), &q.explain) }</p>
                </div>
            }
        }
        Phase::Running { .. } => running,
        Phase::Asking => Html::default(),
    };
    html! {
        <>
            <p id="tour-question" class="tour-question">{ say(lang, &format!("{key}.question"), &q.text) }</p>
            <ol class="tour-choices">{ for choices }</ol>
            { reveal }
        </>
    }
}

/// A step without a question, once run: a word when its condition was never reached.
fn reveal_reached(at: &TourAt, lang: Lang) -> Html {
    match &at.phase {
        Phase::Shown { reached, .. } if reached.at_s.is_none() && at.step().until.is_some() => {
            html! { <p id="tour-not-reached" class="story-warning">{ Msg::TourNotReached.text(lang) }</p> }
        }
        _ => Html::default(),
    }
}
