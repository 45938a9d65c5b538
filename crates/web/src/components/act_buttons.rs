//! Buttons under the inspector's YAML for people who don't type kubectl: the same actions as
//! the command bar on the object shown (a new spec, a label, a delete) and on the operator and
//! the API server. Each says what it did, or why not, under the buttons.

use yew::prelude::*;

use super::command_bar::{run_command, run_line, Outcome};
use super::use_ctx;
use crate::i18n::Msg;
use crate::kubectl;

/// Props of [`ActButtons`].
#[derive(Properties, PartialEq)]
pub struct ActProps {
    /// The object shown (`namespace/name`).
    pub object: String,
}

/// The buttons.
#[function_component(ActButtons)]
pub fn act_buttons(p: &ActProps) -> Html {
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    let said = use_state(|| None::<Outcome>);
    let name = p.object.rsplit('/').next().unwrap_or(&p.object).to_owned();
    // a button on the object shown: the engine's action on its key
    let on_object = |action: &'static str, line: String| {
        let (ctx, said, key) = (ctx.clone(), said.clone(), p.object.clone());
        Callback::from(move |_: MouseEvent| {
            let command = kubectl::on_object(action, &key);
            let said = said.clone();
            run_command(&ctx, Ok(command), &line, lang, move |o| said.set(Some(o)));
        })
    };
    let typed = |line: String| {
        let (ctx, said) = (ctx.clone(), said.clone());
        Callback::from(move |_: MouseEvent| {
            let said = said.clone();
            run_line(&ctx, &line, lang, move |o| said.set(Some(o)));
        })
    };
    let button = |id: &str, m: Msg, cb: Callback<MouseEvent>| {
        html! { <button id={id.to_owned()} class="act" onclick={cb}>{ m.text(lang) }</button> }
    };
    html! {
        <div class="acts">
            <p class="small">{ Msg::ActTitle.text(lang) }</p>
            <div class="act-row">
                { button("act-edit", Msg::ActEdit, on_object("edit_spec", format!("kubectl apply mycrd {name}"))) }
                { button("act-label", Msg::ActLabel, on_object("label", format!("kubectl label mycrd {name} touched=yes"))) }
                { button("act-delete", Msg::ActDelete, on_object("delete", format!("kubectl delete mycrd {name}"))) }
            </div>
            <p class="small">{ Msg::ActOperator.text(lang) }</p>
            <div class="act-row">
                { button("act-kill", Msg::ActKill, typed("kubectl exec deploy/operator -- kill 1".into())) }
                { button("act-memory", Msg::ActMemory, typed("kubectl set resources deploy/operator --limits=memory=128Mi".into())) }
                { button("act-status-on", Msg::ActStatusOn, typed("kubectl patch crd mycrd --status=on".into())) }
                { button("act-status-off", Msg::ActStatusOff, typed("kubectl patch crd mycrd --status=off".into())) }
                { button("act-rollout", Msg::ActRollout, typed("kubectl rollout restart deploy/operator".into())) }
                { button("act-seats", Msg::ActSeats, typed("kubectl set limits apiserver seats=2".into())) }
            </div>
            <p id="act-said" role="status" class={classes!("cmd-said", said.as_ref().map(|s| if s.0 { "ok" } else { "refused" }))}>
                { said.as_ref().map(|s| s.1.clone()).unwrap_or_default() }
            </p>
        </div>
    }
}
