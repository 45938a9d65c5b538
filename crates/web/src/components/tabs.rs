//! The panel under the charts: narration, Go code, object YAML, event log. The tab bar follows
//! the WAI-ARIA tabs pattern: one Tab stop (the selected tab), ←/→ move between tabs (wrapping),
//! Home and End go to the first and last; a tab is shown as soon as it has focus.

use web_sys::HtmlElement;
use yew::prelude::*;

use super::code::CodePanel;
use super::event_log::EventLog;
use super::explain::Explain;
use super::inspect::Inspect;
use super::myths::Myths;
use crate::ctx::Ctx;
use crate::i18n::Msg;
use crate::state::{Action, Tab};

/// A tab's label.
pub fn label(t: Tab) -> Msg {
    match t {
        Tab::Explain => Msg::Explain,
        Tab::Code => Msg::Code,
        Tab::Inspect => Msg::Inspect,
        Tab::Log => Msg::EventLog,
        Tab::Myths => Msg::Myths,
    }
}

/// The tab a key moves to from `current` (`None`: the key is not the tab bar's).
pub fn tab_for_key(current: Tab, key: &str) -> Option<Tab> {
    let i = Tab::ALL.iter().position(|t| *t == current).unwrap_or(0);
    let n = Tab::ALL.len();
    let j = match key {
        "ArrowRight" | "Right" => (i + 1) % n,
        "ArrowLeft" | "Left" => (i + n - 1) % n,
        "Home" => 0,
        "End" => n - 1,
        _ => return None,
    };
    Some(Tab::ALL[j])
}

/// What a tab button's id starts with, before the tab's name.
const TAB_ID_PREFIX: &str = "tab-";

/// The tab whose button the key event reached, read from its id ([`tab_id`]).
fn tab_of_target(e: &KeyboardEvent) -> Option<Tab> {
    let el: web_sys::Element = wasm_bindgen::JsCast::dyn_into(e.target()?).ok()?;
    Tab::parse(el.id().strip_prefix(TAB_ID_PREFIX)?)
}

/// The id of tab `t`'s button.
fn tab_id(t: Tab) -> String {
    format!("{TAB_ID_PREFIX}{}", t.as_str())
}

/// The tabbed panel.
pub fn tabs(ctx: &Ctx) -> Html {
    let s = &ctx.state;
    let lang = s.lang;
    let on_key = {
        let st = ctx.state.clone();
        let current = s.tab;
        Callback::from(move |e: KeyboardEvent| {
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            // the tab the key was pressed on: a second key before the page rendered the first
            // one's move starts from where the first one moved the focus
            let current = tab_of_target(&e).unwrap_or(current);
            let Some(next) = tab_for_key(current, &e.key()) else {
                return;
            };
            // handled here: the page's own shortcuts (→ steps the run) leave it alone
            e.prevent_default();
            st.dispatch(Action::SetTab(next));
            if let Some(el) = gloo::utils::document().get_element_by_id(&tab_id(next)) {
                if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<HtmlElement>(el) {
                    let _ = el.focus();
                }
            }
        })
    };
    let tab = |t: Tab, label: Msg| {
        let st = ctx.state.clone();
        let selected = s.tab == t;
        html! {
            <button role="tab" id={tab_id(t)} aria-selected={selected.to_string()}
                aria-controls="tabpanel" tabindex={if selected { "0" } else { "-1" }}
                onclick={Callback::from(move |_: MouseEvent| st.dispatch(Action::SetTab(t)))}>
                { label.text(lang) }
            </button>
        }
    };
    html! {
        <section class="tabs">
            <div role="tablist" aria-label={Msg::Panels.text(lang)} onkeydown={on_key}>
                { for Tab::ALL.iter().map(|t| tab(*t, label(*t))) }
            </div>
            <div role="tabpanel" id="tabpanel" class="tabpanel" tabindex="0"
                aria-labelledby={tab_id(s.tab)}>
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_wrap_and_home_end_jump() {
        assert_eq!(tab_for_key(Tab::Explain, "ArrowRight"), Some(Tab::Code));
        assert_eq!(tab_for_key(Tab::Explain, "ArrowLeft"), Some(Tab::Myths));
        assert_eq!(tab_for_key(Tab::Myths, "ArrowRight"), Some(Tab::Explain));
        assert_eq!(tab_for_key(Tab::Log, "Home"), Some(Tab::Explain));
        assert_eq!(tab_for_key(Tab::Code, "End"), Some(Tab::Myths));
        assert_eq!(tab_for_key(Tab::Code, "r"), None);
    }
}
