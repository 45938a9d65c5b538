//! The fixes as independent toggles, for the A side or the B side of a comparison.

use flywheel_engine::controller::program::WriteVerb;
use flywheel_engine::scenario::variant::Variant;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::setting_list::use_settings_view;
use super::use_ctx;
use crate::config::WRITE_VERBS;
use crate::i18n::Msg;
use crate::state::Action;

/// Which side the toggles edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The main run.
    A,
    /// The comparison.
    B,
}

/// Props of [`Fixes`].
#[derive(Properties, PartialEq)]
pub struct FixesProps {
    /// The side edited.
    pub side: Side,
}

/// A variant with one switch flipped.
pub fn toggled(v: Variant, which: &str, on: bool) -> Variant {
    let mut v = v;
    match which {
        "sub" => v.status_subresource = on,
        "pred" => v.generation_predicate = on,
        "guard" => v.observed_generation_guard = on,
        "ts" => v.timestamp = on,
        _ => {}
    }
    v
}

/// The toggles.
#[function_component(Fixes)]
pub fn fixes(props: &FixesProps) -> Html {
    crate::renders::count("Fixes");
    let ctx = use_ctx();
    let s = &ctx.state;
    let lang = s.lang;
    let side = props.side;
    let variant = match side {
        Side::A => s.url.config.variant,
        Side::B => s.url.compare.unwrap_or(s.url.config.variant),
    };
    let prefix = if side == Side::A { "fix" } else { "b-fix" };
    let set = {
        let st = ctx.state.clone();
        Callback::from(move |v: Variant| {
            st.dispatch(match side {
                Side::A => Action::SetVariant(v),
                Side::B => Action::SetCompare(Some(v)),
            })
        })
    };
    let check = |which: &'static str, label: Msg, on: bool| {
        let set = set.clone();
        let id = format!("{prefix}-{which}");
        let change = Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            set.emit(toggled(variant, which, input.checked()));
        });
        html! {
            <label class="toggle" for={id.clone()}>
                <input type="checkbox" id={id} checked={on} onchange={change} />
                <span>{ label.text(lang) }</span>
            </label>
        }
    };
    let on_write = {
        let set = set.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            let verb = WRITE_VERBS
                .iter()
                .find(|(_, n, _)| *n == sel.value())
                .map_or(WriteVerb::Update, |(w, _, _)| *w);
            set.emit(Variant {
                write: verb,
                ..variant
            });
        })
    };
    let write_id = format!("{prefix}-write");
    let view = use_settings_view();
    let config = s.url.config.clone();
    let base = use_memo((config.preset.clone(), config.profile), |_| config.base());
    let incident = crate::incident_params::fixes_of(&base);
    if side == Side::A && !incident.is_empty() {
        // the seed-001/004 presets' fixes, drawn from the registry
        return html! {
            <fieldset class="fixes">
                <legend>{ Msg::Fixes.text(lang) }</legend>
                { for incident.into_iter().filter_map(flywheel_engine::settings::find).map(|st| view.control(st)) }
            </fieldset>
        };
    }
    html! {
        <fieldset class="fixes">
            <legend>{ if side == Side::A { Msg::Fixes.text(lang) } else { Msg::VariantB.text(lang) } }</legend>
            { check("sub", Msg::StatusSubresource, variant.status_subresource) }
            <label class="select" for={write_id.clone()}>
                <span>{ Msg::WriteVerb.text(lang) }</span>
                <select id={write_id} onchange={on_write}>
                    { for WRITE_VERBS.iter().map(|(w, name, go)| html! {
                        <option value={*name} selected={*w == variant.write}>{ *go }</option>
                    }) }
                </select>
            </label>
            { check("pred", Msg::GenerationPredicate, variant.generation_predicate) }
            { check("guard", Msg::ObservedGenerationGuard, variant.observed_generation_guard) }
            { check("ts", Msg::Timestamp, variant.timestamp) }
        </fieldset>
    }
}
