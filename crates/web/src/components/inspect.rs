//! An object as `kubectl get -o yaml` prints it, with what changed since the previous event.

use yew::prelude::*;

use super::use_ctx;
use crate::i18n::Msg;
use crate::state::Action;

/// The inspect panel.
#[function_component(Inspect)]
pub fn inspect() -> Html {
    crate::renders::count("Inspect");
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    let engine = ctx.engine.borrow();
    let Some(run) = engine.as_ref().map(|e| &e.lane(ctx.state.side).run) else {
        return html! {};
    };
    let mut keys = run.object_keys(60);
    let chosen = ctx.state.selected.clone();
    let inspected = chosen.as_deref().and_then(|k| run.inspect(k));
    let (selected, inspected) = match (chosen, inspected) {
        (Some(k), Some(i)) => (k, Some(i)),
        _ => match keys.first() {
            Some(k) => (k.clone(), run.inspect(k)),
            None => return html! { <p class="muted">{ Msg::InspectNothing.text(lang) }</p> },
        },
    };
    if !keys.contains(&selected) {
        keys.push(selected.clone());
    }
    let deleted = inspected.as_ref().is_some_and(|i| i.deleted);
    let yaml = inspected.as_ref().map(crate::objects::yaml);
    let resource = run.resource_name();
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
            <super::side_picker::SidePicker />
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
        </div>
    }
}
