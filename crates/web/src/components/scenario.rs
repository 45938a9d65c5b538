//! The sidebar: preset (grouped by seed), fixes, parameters with units, profile, comparison.

use std::sync::OnceLock;

use flywheel_engine::scenario::{presets, Profile};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::fixes::{Fixes, Side};
use super::use_ctx;
use crate::config::RunConfig;
use crate::i18n::Msg;
use crate::params::PARAMS;
use crate::state::Action;

/// A group of presets: `(group, [(name, title)])`.
pub type PresetGroup = (String, Vec<(String, String)>);

/// Every preset group, in order of first appearance.
pub fn preset_groups() -> &'static [PresetGroup] {
    static GROUPS: OnceLock<Vec<PresetGroup>> = OnceLock::new();
    GROUPS.get_or_init(|| {
        let mut groups: Vec<PresetGroup> = Vec::new();
        for name in presets::names() {
            let Ok(s) = presets::load(name, &[]) else {
                continue;
            };
            let group = if s.group.is_empty() {
                "other".to_owned()
            } else {
                s.group.clone()
            };
            match groups.iter_mut().find(|(g, _)| *g == group) {
                Some((_, v)) => v.push((s.name.clone(), s.title.clone())),
                None => groups.push((group, vec![(s.name.clone(), s.title.clone())])),
            }
        }
        groups
    })
}

/// A preset's full title in `lang` (shown whole under the list, which cuts long ones).
fn title_of(name: &str, lang: crate::i18n::Lang) -> String {
    preset_groups()
        .iter()
        .flat_map(|(_, items)| items.iter())
        .find(|(n, _)| n == name)
        .map(|(n, t)| crate::i18n::preset_title(n, t, lang))
        .unwrap_or_default()
}

/// The sidebar.
#[function_component(ScenarioPanel)]
pub fn scenario_panel() -> Html {
    crate::renders::count("ScenarioPanel");
    let ctx = use_ctx();
    let s = &ctx.state;
    let lang = s.lang;
    let on_preset = {
        let st = ctx.state.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            st.dispatch(Action::SetPreset(sel.value()));
        })
    };
    let on_profile = {
        let st = ctx.state.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(p) = Profile::parse(&sel.value()) {
                st.dispatch(Action::SetProfile(p));
            }
        })
    };
    let compare = {
        let st = ctx.state.clone();
        let (current, comparing) = (s.url.config.variant, s.url.compare.is_some());
        Callback::from(move |_: MouseEvent| {
            let fixed = RunConfig::preset("fixed").variant;
            let other = if current == fixed {
                RunConfig::preset("flywheel").variant
            } else {
                fixed
            };
            st.dispatch(Action::SetCompare((!comparing).then_some(other)));
        })
    };
    let profile = s.url.config.profile;
    html! {
        <>
            <section class="panel">
                <label class="select" for="preset">
                    <span class="h">{ Msg::Scenario.text(lang) }</span>
                    <select id="preset" onchange={on_preset}>
                        { for preset_groups().iter().map(|(g, items)| html! {
                            <optgroup label={g.clone()}>
                                { for items.iter().map(|(n, t)| html! {
                                    <option value={n.clone()} selected={*n == s.url.config.preset}>
                                        { format!("{n} — {}", crate::i18n::preset_title(n, t, lang)) }
                                    </option>
                                }) }
                            </optgroup>
                        }) }
                    </select>
                </label>
                <p id="preset-title" class="preset-title">{ title_of(&s.url.config.preset, lang) }</p>
            </section>
            <section class="panel"><Fixes side={Side::A} /></section>
            <section class="panel">
                <button id="compare" class={classes!(s.url.compare.is_some().then_some("active"))}
                    aria-pressed={s.url.compare.is_some().to_string()} onclick={compare}>
                    { if s.url.compare.is_some() { Msg::CompareOff.text(lang) } else { Msg::Compare.text(lang) } }
                </button>
                if s.url.compare.is_some() { <Fixes side={Side::B} /> }
            </section>
            <section class="panel">
                <Params />
                <label class="select" for="profile">
                    <span>{ Msg::Profile.text(lang) }</span>
                    <select id="profile" onchange={on_profile}>
                        <option value="seed" selected={profile == Profile::Seed}>{ Msg::ProfileSeed.text(lang) }</option>
                        <option value="modern" selected={profile == Profile::Modern}>{ Msg::ProfileModern.text(lang) }</option>
                    </select>
                </label>
                <super::settings_file::SettingsFile />
            </section>
        </>
    }
}

/// The parameter sliders.
#[function_component(Params)]
fn params() -> Html {
    crate::renders::count("Params");
    let ctx = use_ctx();
    let s = &ctx.state;
    let lang = s.lang;
    let config = s.url.config.clone();
    let base = use_memo((config.preset.clone(), config.profile), |_| config.base());
    // A slider being dragged keeps its position across the page's per-frame re-renders until released.
    let dragging = use_state(|| None::<(&'static str, String)>);
    let sliders = PARAMS.iter().map(|p| {
        let value = config.params.get(p.key).copied().or_else(|| (p.get)(&base));
        let disabled = value.is_none();
        if disabled && crate::params::is_incident_switch(p) {
            // the seed-001/004 switches show only where their step exists
            return html! {};
        }
        let v = value.unwrap_or(p.min);
        let id = format!("param-{}", p.key);
        let (st, key, drag) = (ctx.state.clone(), p.key, dragging.clone());
        let change = Callback::from(move |e: Event| {
            let el: HtmlInputElement = e.target_unchecked_into();
            if let Ok(pos) = el.value().parse::<f64>() {
                let spec = crate::params::spec(key).expect("slider keys come from PARAMS");
                st.dispatch(Action::SetParam(key.to_owned(), spec.from_position(pos)));
            }
            drag.set(None);
        });
        let drag = dragging.clone();
        let input = Callback::from(move |e: InputEvent| {
            let el: HtmlInputElement = e.target_unchecked_into();
            drag.set(Some((key, el.value())));
        });
        let draft = dragging
            .as_ref()
            .filter(|(k, _)| *k == p.key)
            .map(|(_, pos)| pos.clone());
        let v = match draft.as_deref().map(str::parse::<f64>) {
            Some(Ok(pos)) => p.from_position(pos),
            _ => v,
        };
        let position = draft.unwrap_or_else(|| p.to_position(v).to_string());
        let shown = p.format(v, Msg::Off.text(lang), Msg::NoLimit.text(lang));
        html! {
            <div class="param">
                <label for={id.clone()}>
                    <span>{ p.label.text(lang) }</span>
                    <output for={id.clone()} id={format!("{id}-value")}>{ shown.clone() }</output>
                </label>
                <input type="range" id={id} min="0" max="1000" step="1" disabled={disabled}
                    value={position} oninput={input} onchange={change} aria-valuetext={shown} />
            </div>
        }
    });
    let reset = {
        let st = ctx.state.clone();
        Callback::from(move |_: MouseEvent| st.dispatch(Action::ResetParams))
    };
    html! {
        <fieldset class="params">
            <legend>{ Msg::Parameters.text(lang) }</legend>
            { for sliders }
            if !s.url.config.params.is_empty() {
                <button class="link" id="reset-params" onclick={reset}>{ Msg::Reset.text(lang) }</button>
            }
        </fieldset>
    }
}
