//! The embed builder's choices: scenario, A's fixes, instant, tour and step, width, height, panel,
//! autoplay and language. Each control hands the changed [`EmbedChoice`] up; a refused field is
//! marked on its control with what it accepts.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::tabs::label as tab_label;
use crate::embed_choice::EmbedChoice;
use crate::embed_size::EMBED_WIDTHS;
use crate::i18n::{preset_title, Lang, Msg};
use crate::state::Tab;

/// What the embed builder's controls show, and where a changed choice goes.
pub struct EmbedOptions {
    /// The current choices.
    pub choice: EmbedChoice,
    /// The field refused, if any (`variant`, `instant`).
    pub refused: Option<&'static str>,
    /// Receives the changed choices.
    pub on_change: Callback<EmbedChoice>,
    /// The page's language.
    pub lang: Lang,
}

/// A callback that applies `set` to a copy of the choices with a control's value. `set` is a
/// function, not a closure type of its own: every control shares one copy of this callback.
fn on_value<E: AsRef<web_sys::Event> + 'static>(
    p: &EmbedOptions,
    set: fn(&mut EmbedChoice, String),
) -> Callback<E> {
    let (choice, emit) = (p.choice.clone(), p.on_change.clone());
    Callback::from(move |e: E| {
        let value = e
            .as_ref()
            .target_dyn_into::<HtmlInputElement>()
            .map(|i| {
                if i.type_() == "checkbox" {
                    i.checked().to_string()
                } else {
                    i.value()
                }
            })
            .or_else(|| {
                e.as_ref()
                    .target_dyn_into::<HtmlSelectElement>()
                    .map(|s| s.value())
            })
            .unwrap_or_default();
        let mut c = choice.clone();
        set(&mut c, value);
        emit.emit(c);
    })
}

/// The embed builder's controls.
pub fn embed_options(p: &EmbedOptions) -> Html {
    let lang = p.lang;
    let c = &p.choice;
    let invalid = |field: &str| (p.refused == Some(field)).then_some("true");
    html! {
        <div class="embed-options">
            <label class="select" for="embed-preset">
                <span>{ Msg::EmbedScenario.text(lang) }</span>
                <select id="embed-preset" onchange={on_value::<Event>(p, |c, v| { c.preset = v; c.variant.clear(); })}>
                    { for crate::components::scenario::preset_groups().iter().flat_map(|(_, items)| items.iter()).map(|name| html! {
                        <option value={*name} selected={*name == c.preset}>{ preset_title(name, lang) }</option>
                    }) }
                </select>
            </label>
            <label for="embed-variant">
                <span>{ Msg::EmbedFixes.text(lang) }</span>
                <input id="embed-variant" type="text" value={c.variant.clone()} aria-invalid={invalid("variant")}
                    placeholder="sub.status-patch.pred" onchange={on_value::<Event>(p, |c, v| c.variant = v)} />
                if invalid("variant").is_some() { <small class="refused" role="alert">{ Msg::EmbedFixesRefused.text(lang) }</small> }
            </label>
            <label for="embed-instant">
                <span>{ Msg::EmbedInstant.text(lang) }</span>
                <input id="embed-instant" type="text" inputmode="decimal" value={c.instant.clone()} aria-invalid={invalid("instant")}
                    onchange={on_value::<Event>(p, |c, v| c.instant = v)} />
                if invalid("instant").is_some() { <small class="refused" role="alert">{ Msg::EmbedInstantRefused.text(lang) }</small> }
            </label>
            { tour_controls(p) }
            { size_controls(p) }
            <label class="select" for="embed-tab">
                <span>{ Msg::EmbedPanel.text(lang) }</span>
                <select id="embed-tab" onchange={on_value::<Event>(p, |c, v| c.panel = Tab::parse(&v))}>
                    <option value="" selected={c.panel.is_none()}>{ Msg::EmbedNoPanel.text(lang) }</option>
                    { for Tab::ALL.iter().map(|t| html! {
                        <option value={t.as_str()} selected={c.panel == Some(*t)}>{ tab_label(*t).text(lang) }</option>
                    }) }
                </select>
            </label>
            <label class="select" for="embed-lang">
                <span>{ Msg::EmbedLanguage.text(lang) }</span>
                <select id="embed-lang" onchange={on_value::<Event>(p, |c, v| c.lang = Lang::parse(&v))}>
                    <option value="" selected={c.lang.is_none()}>{ Msg::EmbedReaderLanguage.text(lang) }</option>
                    <option value="en" lang="en" selected={c.lang == Some(Lang::En)}>{ "English" }</option>
                    <option value="zh" lang="zh-CN" selected={c.lang == Some(Lang::Zh)}>{ "简体中文" }</option>
                </select>
            </label>
            <label class="check" for="embed-autoplay">
                <input id="embed-autoplay" type="checkbox" checked={c.autoplay}
                    onchange={on_value::<Event>(p, |c, v| c.autoplay = v == "true")} />
                <span>{ Msg::EmbedAutoplay.text(lang) }</span>
            </label>
        </div>
    }
}

/// The tour (none, or one of the engine's) and its step.
fn tour_controls(p: &EmbedOptions) -> Html {
    let (lang, c) = (p.lang, &p.choice);
    html! {
        <>
            <label class="select" for="embed-tour">
                <span>{ Msg::EmbedTour.text(lang) }</span>
                <select id="embed-tour" onchange={on_value::<Event>(p, |c, v| c.tour = v)}>
                    <option value="" selected={c.tour.is_empty()}>{ Msg::EmbedNoPanel.text(lang) }</option>
                    { for flywheel_engine::tour::TOUR_IDS.iter().map(|id| html! {
                        <option value={*id} translate="no" selected={c.tour == *id}>{ *id }</option>
                    }) }
                </select>
            </label>
            <label for="embed-step">
                <span>{ Msg::EmbedStep.text(lang) }</span>
                <input id="embed-step" type="number" min="1" max="99" value={c.step.to_string()} disabled={c.tour.is_empty()}
                    onchange={on_value::<Event>(p, |c, v| c.step = v.parse().unwrap_or(1).clamp(1, 99))} />
            </label>
        </>
    }
}

/// The width (the widths the embed's height is known for) and the height.
fn size_controls(p: &EmbedOptions) -> Html {
    let (lang, c) = (p.lang, &p.choice);
    html! {
        <>
            <label class="select" for="embed-width">
                <span>{ Msg::EmbedWidth.text(lang) }</span>
                <select id="embed-width" onchange={on_value::<Event>(p, |c, v| c.width = v.parse().unwrap_or(800))}>
                    { for EMBED_WIDTHS.iter().map(|w| html! {
                        <option value={w.to_string()} selected={*w == c.width}>{ format!("{w} px") }</option>
                    }) }
                </select>
            </label>
            <label for="embed-height">
                <span>{ Msg::EmbedHeight.text(lang) }</span>
                <input id="embed-height" type="number" min="200" max="4000"
                    value={c.height.map(|h| h.to_string()).unwrap_or_default()}
                    onchange={on_value::<Event>(p, |c, v| c.height = v.parse::<u32>().ok().map(|h| h.clamp(200, 4000)))} />
            </label>
        </>
    }
}
