//! The event log, in `kubectl get -w --output-watch-events` style, with reconcile results.

use web_sys::Element;
use yew::prelude::*;

use super::use_ctx;
use crate::live::use_live;
use crate::runs::LogLine;

/// Formats one log line in fixed columns.
pub fn format_line(l: &LogLine) -> String {
    let (ns, name) = l.key.split_once('/').unwrap_or(("", l.key.as_str()));
    let rv = l.rv.map_or("-".to_owned(), |v| v.to_string());
    let gen = l.generation.map_or("-".to_owned(), |v| v.to_string());
    format!(
        "{:<11} {:<9} {:<10} {:>7} {:>5} {:>8.1}s  {}",
        l.event, ns, name, rv, gen, l.time_s, l.detail
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
    let lines: Vec<String> = live
        .shown(ctx.state.side)
        .map(|lane| lane.log.iter().map(format_line).collect())
        .unwrap_or_default();
    html! {
        <div class="log">
            <super::side_picker::SidePicker />
            <p class="cmd"><code>{ "$ kubectl get mycrd -A -w --output-watch-events" }</code></p>
            <pre id="event-log" tabindex="0" aria-label={crate::i18n::Msg::EventLog.text(ctx.state.lang)} ref={pre} onscroll={on_scroll}><code>
                { format!("{HEADER}\n") }
                { for lines.iter().map(|l| html! { <span class={classes!("line", l.starts_with("RECONCILED").then_some("rec"))}>{ format!("{l}\n") }</span> }) }
            </code></pre>
        </div>
    }
}
