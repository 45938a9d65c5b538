//! The panel under the charts: narration, Go code, object YAML, event log.

use yew::prelude::*;

use super::code::CodePanel;
use super::event_log::EventLog;
use super::explain::Explain;
use super::inspect::Inspect;
use super::myths::Myths;
use super::use_ctx;
use crate::i18n::Msg;
use crate::state::{Action, Tab};

/// The tabbed panel.
#[function_component(Tabs)]
pub fn tabs() -> Html {
    let ctx = use_ctx();
    let s = &ctx.state;
    let lang = s.lang;
    let tab = |t: Tab, id: &str, label: Msg| {
        let st = ctx.state.clone();
        let selected = s.tab == t;
        html! {
            <button role="tab" id={format!("tab-{id}")} aria-selected={selected.to_string()}
                aria-controls="tabpanel" tabindex={if selected { "0" } else { "-1" }}
                onclick={Callback::from(move |_: MouseEvent| st.dispatch(Action::SetTab(t)))}>
                { label.text(lang) }
            </button>
        }
    };
    html! {
        <section class="tabs">
            <div role="tablist" aria-label="panels">
                { tab(Tab::Explain, "explain", Msg::Explain) }
                { tab(Tab::Code, "code", Msg::Code) }
                { tab(Tab::Inspect, "inspect", Msg::Inspect) }
                { tab(Tab::Log, "log", Msg::EventLog) }
                { tab(Tab::Myths, "myths", Msg::Myths) }
            </div>
            <div role="tabpanel" id="tabpanel" class="tabpanel">
                { match s.tab {
                    Tab::Explain => html! { <Explain /> },
                    Tab::Code => html! { <CodePanel /> },
                    Tab::Inspect => html! { <Inspect /> },
                    Tab::Log => html! { <EventLog /> },
                    Tab::Myths => html! { <Myths /> },
                } }
            </div>
        </section>
    }
}
