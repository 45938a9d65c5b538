//! An object as `kubectl get -o yaml` prints it, with what changed since the previous event.

use yew::prelude::*;

use super::use_ctx;
use crate::i18n::Msg;
use crate::live::use_live;
use crate::state::Action;

/// The inspect panel.
#[function_component(Inspect)]
pub fn inspect() -> Html {
    crate::renders::count("Inspect");
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    let live = use_live();
    let Some(view) = live.inspect.as_ref() else {
        return html! {};
    };
    let Some(selected) = view.selected.clone() else {
        return html! { <p class="muted">{ Msg::InspectNothing.text(lang) }</p> };
    };
    let mut keys = view.keys.clone();
    if !keys.contains(&selected) {
        keys.push(selected.clone());
    }
    let deleted = view.deleted;
    let yaml = view.yaml.clone();
    let resource = &view.resource;
    let buttons = keys.iter().map(|k| {
        let st = ctx.state.clone();
        let key = k.clone();
        html! {
            <li><button class={classes!("obj", (*k == selected).then_some("active"))}
                aria-pressed={(*k == selected).to_string()}
                onclick={Callback::from(move |_: MouseEvent| st.dispatch(Action::Select(key.clone())))}>
                { k.split('/').nth(1).unwrap_or(k) }
            </button></li>
        }
    });
    html! {
        <div class="inspect">
            { super::side_picker::side_picker(&ctx) }
            <p class="muted">{ Msg::InspectHint.text(lang) }</p>
            <ul class="objects">{ for buttons }</ul>
            <p class="cmd"><code>{ format!("$ kubectl get {resource} {} -n {} -o yaml", selected.split('/').nth(1).unwrap_or(""), selected.split('/').next().unwrap_or("")) }</code></p>
            if deleted {
                <p class="muted small">{ Msg::InspectDeleted.text(lang) }</p>
            }
            if let Some((lines, changed)) = yaml {
                <pre id="yaml"><code>
                    { for lines.iter().zip(changed.iter()).map(|(l, c)| html! {
                        <span class={classes!("line", c.then_some("changed"))}>{ format!("{l}\n") }</span>
                    }) }
                </code></pre>
            }
            <p class="muted small">{ Msg::InspectDerived.text(lang) }</p>
            <super::act_buttons::ActButtons object={selected.clone()} />
        </div>
    }
}
