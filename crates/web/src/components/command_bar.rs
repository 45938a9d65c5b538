//! The command bar: a kubectl line (opened with `:` or the kubectl… buttons) that acts on the
//! cluster at the instant shown, with Tab completion, the list of what it knows, and a clear
//! message in the page's language for what it does not.

use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement, KeyboardEvent};
use yew::prelude::*;

use super::use_ctx;
use crate::ctx::Ctx;
use crate::host::Intervened;
use crate::i18n::{Lang, Msg};
use crate::kubectl::{self, Command, Refusal};
use crate::state::{Action, Tab};
use crate::why_state::WhyAction;

/// What running a line said: done (`true`) or refused, in words.
pub type Outcome = (bool, String);

fn refusal_text(r: &Refusal, lang: Lang) -> String {
    match r {
        Refusal::UnknownVerb(v) if v.is_empty() || v == "kubectl" => {
            Msg::CommandNotKubectl.text(lang).to_owned()
        }
        Refusal::UnknownVerb(v) => Msg::CommandUnknown.text(lang).replace("{}", v),
        Refusal::Usage(u) => Msg::CommandUsage.text(lang).replace("{}", u),
        Refusal::NoSuchObject(key, Some(one)) => Msg::CommandNoObjectOne
            .text(lang)
            .replace("{key}", key)
            .replace("{one}", one),
        Refusal::NoSuchObject(key, None) => Msg::CommandNoObject.text(lang).replace("{}", key),
    }
}

fn focus_log() {
    gloo::timers::callback::Timeout::new(0, || {
        let el = gloo::utils::document().get_element_by_id("event-log");
        if let Some(el) = el.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
            let _ = el.focus();
        }
    })
    .forget();
}

/// Runs `line`; `said` hears what it did or why not, in `lang` (at once, or when the engine's
/// side answers an intervention).
pub fn run_line(ctx: &Ctx, line: &str, lang: Lang, said: impl Fn(Outcome) + 'static) {
    let parsed = kubectl::parse(line, &ctx.object_keys(), &ctx.rollout_text());
    run_command(ctx, parsed, line, lang, said);
}

/// Carries out a command read from `line` (or a button that names it); `said` hears what it
/// did or why not, in `lang`.
pub fn run_command(
    ctx: &Ctx,
    parsed: Result<Command, Refusal>,
    line: &str,
    lang: Lang,
    said: impl Fn(Outcome) + 'static,
) {
    match parsed {
        Ok(Command::Watch) => {
            ctx.dispatch(Action::SetTab(Tab::Log));
            ctx.dispatch(Action::Why(WhyAction::Command(false)));
            focus_log();
            said((true, String::new()));
        }
        Ok(Command::Edit(key)) => {
            ctx.dispatch(Action::Select(key.clone()));
            said((true, Msg::CommandEditing.text(lang).replace("{}", &key)));
        }
        Ok(Command::Do(text)) => {
            let line = line.trim().to_owned();
            ctx.intervene(&text, move |outcome| {
                said(intervened(&outcome, &line, lang))
            });
        }
        Err(r) => said((false, refusal_text(&r, lang))),
    }
}

/// What an intervention asked for by `line` came to, in `lang`.
fn intervened(outcome: &Intervened, line: &str, lang: Lang) -> Outcome {
    match outcome {
        Intervened::Done(at) => {
            let done = Msg::CommandDone
                .text(lang)
                .replace("{at}", &crate::config::trim_float(*at))
                .replace("{what}", line);
            (true, done)
        }
        Intervened::NoSuchObject(key, one) => (
            false,
            refusal_text(&Refusal::NoSuchObject(key.clone(), one.clone()), lang),
        ),
        Intervened::Refused(e) => (false, Msg::CommandRefused.text(lang).replace("{}", e)),
    }
}

/// The command bar (shown while open).
#[function_component(CommandBar)]
pub fn command_bar() -> Html {
    crate::renders::count("CommandBar");
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    let line = use_state(String::new);
    let said = use_state(|| None::<Outcome>);
    // outcomes shown so far: an intervention's arrives after the engine's side made it
    let outcomes = use_mut_ref(|| 0_u64);
    let input = use_node_ref();
    {
        let input = input.clone();
        let open = ctx.state.why.command;
        use_effect_with(open, move |open| {
            if *open {
                if let Some(el) = input.cast::<HtmlInputElement>() {
                    let _ = el.focus();
                }
            }
        });
    }
    if !ctx.state.why.command {
        return html! {};
    }
    let objects = ctx.object_keys();
    let on_input = {
        let line = line.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(el) = e.target_dyn_into::<HtmlInputElement>() {
                line.set(el.value());
            }
        })
    };
    let on_key = {
        let (ctx, line, said, objects) = (ctx.clone(), line.clone(), said.clone(), objects.clone());
        let outcomes = outcomes.clone();
        Callback::from(move |e: KeyboardEvent| {
            match e.key().as_str() {
                "Tab" => line.set(kubectl::complete(&line, &objects)),
                "Enter" => {
                    let (line_set, said, outcomes) = (line.clone(), said.clone(), outcomes.clone());
                    run_line(&ctx, &line, lang, move |outcome| {
                        if outcome.0 {
                            line_set.set(String::new());
                        }
                        *outcomes.borrow_mut() += 1;
                        said.set(Some(outcome));
                    });
                }
                "Escape" => ctx.dispatch(Action::Why(WhyAction::Command(false))),
                _ => return,
            }
            e.prevent_default();
            e.stop_propagation();
        })
    };
    let found = kubectl::matches(&line, &objects);
    let pick = |l: &String| {
        let (line, input) = (line.clone(), input.clone());
        let l = l.clone();
        Callback::from(move |_: MouseEvent| {
            line.set(l.clone());
            if let Some(el) = input.cast::<HtmlInputElement>() {
                let _ = el.focus();
            }
        })
    };
    let close = {
        let ctx = ctx.clone();
        Callback::from(move |_: MouseEvent| ctx.dispatch(Action::Why(WhyAction::Command(false))))
    };
    html! {
        <div id="command-bar" class="command-bar" role="dialog" aria-label={Msg::CommandLabel.text(lang)}>
            <label class="cmd-row">
                <span class="prompt" aria-hidden="true">{ "$" }</span>
                <input id="command-input" ref={input.clone()} type="text" spellcheck="false" autocomplete="off"
                    aria-label={Msg::CommandLabel.text(lang)} aria-describedby="command-said"
                    aria-controls="command-list"
                    value={(*line).clone()} oninput={on_input} onkeydown={on_key} />
                <button id="command-close" onclick={close}>{ Msg::WhyClose.text(lang) }</button>
            </label>
            <p class="muted small">{ Msg::CommandHint.text(lang) }</p>
            <p id="command-said" role="status" data-said={outcomes.borrow().to_string()} class={classes!("cmd-said", said.as_ref().map(|s| if s.0 { "ok" } else { "refused" }))}>
                { said.as_ref().map(|s| s.1.clone()).unwrap_or_default() }
            </p>
            <ul id="command-list" class="cmd-list" aria-label={Msg::CommandKnown.text(lang)}>
                { for found.iter().take(8).map(|l| html! {
                    <li><button class="cmd-known" onclick={pick(l)}><code>{ l.clone() }</code></button></li>
                }) }
            </ul>
        </div>
    }
}
