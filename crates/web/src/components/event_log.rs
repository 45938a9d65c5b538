//! The event log, in `kubectl get -w --output-watch-events` style, with reconcile results.

use flywheel_engine::float_text::Fixed;
use web_sys::Element;
use yew::prelude::*;

use super::use_ctx;
use crate::i18n::Msg;
use crate::live::use_live;
use crate::runs::LogLine;

/// Formats one log line in fixed columns.
pub fn format_line(l: &LogLine) -> String {
    let (ns, name) = l.key.split_once('/').unwrap_or(("", l.key.as_str()));
    let rv = l.rv.map_or("-".to_owned(), |v| v.to_string());
    let gen = l.generation.map_or("-".to_owned(), |v| v.to_string());
    format!(
        "{:<11} {:<9} {:<10} {:>7} {:>5} {:>8}s  {}",
        l.event,
        ns,
        name,
        rv,
        gen,
        Fixed(l.time_s, 1),
        l.detail
    )
}

/// The log header.
pub const HEADER: &str = "EVENT       NAMESPACE NAME            RV   GEN      TIME  DETAIL";

/// The event log panel.
#[function_component(EventLog)]
pub fn event_log() -> Html {
    crate::renders::count("EventLog");
    let ctx = use_ctx();
    let live = use_live();
    let pre = use_node_ref();
    // whether the log follows its newest line: until the user scrolls up, and again at the bottom
    let follow = use_mut_ref(|| true);
    {
        let (pre, follow) = (pre.clone(), follow.clone());
        use_effect(move || {
            if let Some(el) = pre.cast::<Element>() {
                if *follow.borrow() {
                    el.set_scroll_top(el.scroll_height());
                }
            }
        });
    }
    let on_scroll = {
        let (pre, follow) = (pre.clone(), follow.clone());
        Callback::from(move |_: Event| {
            if let Some(el) = pre.cast::<Element>() {
                let bottom = el.scroll_top() + el.client_height() >= el.scroll_height() - 4;
                *follow.borrow_mut() = bottom;
            }
        })
    };
    let lines: Vec<(String, u64)> = live
        .shown(ctx.state.side)
        .map(|lane| lane.log.iter().map(|l| (format_line(l), l.id)).collect())
        .unwrap_or_default();
    // one handler for every line: the clicked line's event opens the why panel
    let on_click = {
        let ctx = ctx.clone();
        Callback::from(move |e: MouseEvent| {
            let id = e
                .target_dyn_into::<Element>()
                .and_then(|t| t.closest("[data-event]").ok().flatten())
                .and_then(|t| t.get_attribute("data-event"))
                .and_then(|v| v.parse::<u64>().ok());
            if let Some(id) = id {
                ctx.show_why(id);
            }
        })
    };
    let why_now = {
        let ctx = ctx.clone();
        Callback::from(move |_: MouseEvent| ctx.show_why_now(ctx.state.side, None))
    };
    let command = {
        let ctx = ctx.clone();
        Callback::from(move |_: MouseEvent| {
            ctx.dispatch(crate::state::Action::Why(
                crate::why_state::WhyAction::Command(true),
            ))
        })
    };
    let lang = ctx.state.lang;
    html! {
        <div class="log">
            { super::side_picker::side_picker(&ctx) }
            <p class="cmd"><code>{ "$ kubectl get mycrd -A -w --output-watch-events" }</code></p>
            <p class="log-acts">
                <button id="why-now" onclick={why_now}>{ Msg::WhyButton.text(lang) }</button>
                <button id="command-open" onclick={command} aria-keyshortcuts=":">{ Msg::CommandOpen.text(lang) }</button>
                <span class="muted small">{ Msg::WhyLineHint.text(lang) }</span>
            </p>
            <pre id="event-log" tabindex="0" aria-label={Msg::EventLog.text(lang)} ref={pre} onscroll={on_scroll} onclick={on_click}><code>
                { format!("{HEADER}\n") }
                { for lines.iter().map(|(l, id)| html! { <span class={classes!("line", l.starts_with("RECONCILED").then_some("rec"))} data-event={id.to_string()}>{ format!("{l}\n") }</span> }) }
            </code></pre>
        </div>
    }
}
