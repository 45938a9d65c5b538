//! The sidebar: preset (grouped by seed), fixes, parameters with units, profile, comparison.

use std::sync::OnceLock;

use flywheel_engine::scenario::{presets, Profile};
use flywheel_engine::settings::{Setting, SETTINGS};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::fixes::{Fixes, Side};
use super::setting_list::{use_settings_view, SettingsView};
use super::use_ctx;
use crate::config::RunConfig;
use crate::i18n::Msg;
use crate::params::HEAVY_LOGIC;
use crate::state::Action;

/// A group of presets: `(group, [name])`.
pub type PresetGroup = (String, Vec<&'static str>);

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
                s.group
            };
            match groups.iter_mut().find(|(g, _)| *g == group) {
                Some((_, v)) => v.push(name),
                None => groups.push((group, vec![name])),
            }
        }
        groups
    })
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
                                { for items.iter().map(|n| html! {
                                    <option value={*n} selected={*n == s.url.config.preset}>
                                        { format!("{n} — {}", crate::i18n::preset_title(n, lang)) }
                                    </option>
                                }) }
                            </optgroup>
                        }) }
                    </select>
                </label>
                <p id="preset-title" class="preset-title">{ crate::i18n::preset_title(&s.url.config.preset, lang) }</p>
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
                { super::settings_file::settings_file(&ctx) }
            </section>
        </>
    }
}

/// The groups of the Parameters panel: the engine's setting sections
/// (`flywheel_engine::settings::sections`) in the order of use, the most used first, less `crd`
/// (its one setting is a fix), plus `run` for the top-level `duration`; the first
/// [`OPEN_GROUPS`] start open.
const GROUPS: &[&str] = &[
    "objects",
    "controller",
    "client",
    "apiserver",
    "process",
    "code",
    "cache",
    "pods",
    "nodes",
    "run",
];

/// How many of [`GROUPS`] start open.
const OPEN_GROUPS: usize = 3;

/// Settings with a control of their own elsewhere: `seed` and `profile` (their own keys), and
/// what the seed-000 fixes set (the `/status` subresource, the predicates).
const ELSEWHERE: &[&str] = &[
    "seed",
    "profile",
    "crd.status_subresource",
    "controller.predicates",
];

/// The group a setting is listed under.
pub fn group_of(path: &str) -> &str {
    match path.split_once('.') {
        Some((head, _)) => head,
        None => "run",
    }
}

/// The heading of the Parameters panel's `group`.
fn group_label(group: &str) -> Msg {
    match group {
        "objects" => Msg::GroupObjects,
        "controller" => Msg::GroupController,
        "client" => Msg::GroupClient,
        "apiserver" => Msg::GroupApiserver,
        "process" => Msg::GroupProcess,
        "code" => Msg::GroupCode,
        "cache" => Msg::GroupCache,
        "pods" => Msg::GroupPods,
        "nodes" => Msg::GroupNodes,
        _ => Msg::GroupRun,
    }
}

/// The settings the Parameters panel lists under `group`: every one not shown elsewhere and not
/// among the Fixes panel's `fixes`; the heavy-logic time under `controller` when the Reconcile has it.
pub fn group_settings(group: &str, fixes: &[&str], logic: bool) -> Vec<&'static Setting> {
    let mut list: Vec<&'static Setting> = SETTINGS
        .iter()
        .filter(|s| group_of(s.path) == group)
        .filter(|s| !ELSEWHERE.contains(&s.path) && !fixes.contains(&s.path))
        .collect();
    if group == "controller" && logic {
        list.insert(0, &HEAVY_LOGIC);
    }
    list
}

/// The settings, grouped.
#[function_component(Params)]
fn params() -> Html {
    crate::renders::count("Params");
    let ctx = use_ctx();
    let s = &ctx.state;
    let lang = s.lang;
    let view: SettingsView = use_settings_view();
    let config = s.url.config.clone();
    let base = use_memo((config.preset.clone(), config.profile), |_| config.base());
    let fixes = crate::incident_params::fixes_of(&base);
    let logic = crate::params::heavy_logic_ms(&base).is_some();
    // the closed groups' controls (more than half of the page's elements) come a task later
    let all_drawn = super::later::use_after_first_render();
    let groups = GROUPS.iter().enumerate().map(|(i, g)| {
        let list = group_settings(g, &fixes, logic);
        let drawn = all_drawn || i < OPEN_GROUPS;
        html! {
            <details class="setting-group" open={i < OPEN_GROUPS} data-group={*g}>
                <summary>{ group_label(g).text(lang) }</summary>
                if drawn {
                    { for list.into_iter().map(|st| view.control(st)) }
                }
            </details>
        }
    });
    let reset = {
        let st = ctx.state.clone();
        Callback::from(move |_: MouseEvent| st.dispatch(Action::ResetParams))
    };
    let paths = {
        let st = ctx.state.clone();
        Callback::from(move |e: Event| {
            let el: HtmlInputElement = e.target_unchecked_into();
            st.dispatch(Action::ShowPaths(el.checked()));
        })
    };
    html! {
        <fieldset class="params" aria-busy={(!all_drawn).then_some("true")}>
            <legend>{ Msg::Parameters.text(lang) }</legend>
            <label class="toggle" for="show-paths">
                <input type="checkbox" id="show-paths" checked={s.url.paths} onchange={paths} />
                <span>{ Msg::ShowPaths.text(lang) }</span>
            </label>
            { for groups }
            if !s.url.config.params.is_empty() || s.rejected.is_some() {
                <button class="link" id="reset-params" onclick={reset}>{ Msg::Reset.text(lang) }</button>
            }
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_groups_are_the_engines_setting_sections_in_another_order() {
        let mut groups: Vec<&str> = GROUPS.iter().copied().filter(|g| *g != "run").collect();
        let mut sections: Vec<&str> = flywheel_engine::settings::sections()
            .into_iter()
            .filter(|s| *s != "crd")
            .collect();
        groups.sort_unstable();
        sections.sort_unstable();
        assert_eq!(groups, sections);
    }

    #[test]
    fn every_setting_is_listed_once_in_the_sidebar() {
        let fixes = crate::incident_params::FIXES;
        for s in SETTINGS {
            let listed = GROUPS
                .iter()
                .filter(|g| group_settings(g, &[], false).contains(&s))
                .count();
            let elsewhere = usize::from(ELSEWHERE.contains(&s.path));
            assert_eq!(listed + elsewhere, 1, "{}", s.path);
            if fixes.contains(&s.path) {
                let in_params = GROUPS
                    .iter()
                    .any(|g| group_settings(g, fixes, false).contains(&s));
                assert!(!in_params, "{} is in Fixes only", s.path);
            }
        }
    }
}
