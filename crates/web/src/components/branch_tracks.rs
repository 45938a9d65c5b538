//! The timeline's branches, drawn as tracks under the main one once an intervention forked the
//! run: each from where it starts to the end, labelled with the intervention that made it; a
//! click or Enter puts the runs on it, ↑/↓ move between them, and the one the runs are on is
//! highlighted.

use flywheel_engine::float_text::fixed;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};
use yew::prelude::*;

use super::timeline::percent;
use super::use_ctx;
use crate::i18n::{Lang, Msg};
use crate::live::use_live;
use crate::why_state::BranchItem;

/// A branch's name: the run as it was, or its last intervention and when.
pub fn branch_label(b: &BranchItem, lang: Lang) -> String {
    match b.dos.last() {
        None => Msg::BranchMain.text(lang).to_owned(),
        Some(d) => Msg::BranchOf
            .text(lang)
            .replace("{what}", &d.text)
            .replace("{at}", &crate::config::trim_float(d.at_s)),
    }
}

fn focus_sibling(e: &KeyboardEvent, down: bool) {
    let Some(me) = e.target_dyn_into::<HtmlElement>() else {
        return;
    };
    let next = if down {
        me.next_element_sibling()
    } else {
        me.previous_element_sibling()
    };
    if let Some(el) = next.and_then(|n| n.dyn_into::<HtmlElement>().ok()) {
        let _ = el.focus();
        el.click();
    }
    e.prevent_default();
}

/// The tracks (nothing until a fork).
#[function_component(BranchTracks)]
pub fn branch_tracks() -> Html {
    let ctx = use_ctx();
    let live = use_live();
    let lang = ctx.state.lang;
    let branches = ctx.state.why.branches.clone();
    if branches.len() < 2 {
        return html! {};
    }
    let end_s = live.end_s.max(live.reached_s);
    let tracks = branches.iter().map(|b| {
        let current = b.id == live.branch;
        let (ctx, id) = (ctx.clone(), b.id);
        let go = Callback::from(move |_: MouseEvent| ctx.switch_branch(id));
        let keys = Callback::from(|e: KeyboardEvent| match e.key().as_str() {
            "ArrowDown" | "Down" => focus_sibling(&e, true),
            "ArrowUp" | "Up" => focus_sibling(&e, false),
            _ => {}
        });
        let x = percent(b.base_s, end_s) * 10.0;
        html! {
            <button class={classes!("tl-branch", current.then_some("current"))}
                data-branch={b.id.to_string()} aria-pressed={current.to_string()}
                onclick={go} onkeydown={keys}>
                <svg class="tl-branch-svg" viewBox="0 0 1000 8" preserveAspectRatio="none" aria-hidden="true">
                    <rect class="tl-branch-line" x={fixed(x, 2)} y="2" height="4"
                        width={fixed((1000.0 - x).max(0.0), 2)} />
                    <rect class="tl-branch-fork" x={fixed((x - 2.0).max(0.0), 2)} y="0" width="4" height="8" />
                </svg>
                <span class="tl-branch-label">{ branch_label(b, lang) }</span>
            </button>
        }
    });
    html! {
        <div id="branches" class="tl-branches" role="group" aria-label={Msg::Branches.text(lang)}>
            { for tracks }
        </div>
    }
}
