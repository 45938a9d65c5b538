//! When comparing, which run (A or B) the inspect panel and the event log show.

use yew::prelude::*;

use super::use_ctx;
use crate::i18n::Msg;
use crate::runs::Side;
use crate::state::Action;

/// The A / B switch; nothing when only one run is shown.
#[function_component(SidePicker)]
pub fn side_picker() -> Html {
    crate::renders::count("SidePicker");
    let ctx = use_ctx();
    let s = &ctx.state;
    if s.url.compare.is_none() {
        return html! {};
    }
    let button = |side: Side| {
        let st = ctx.state.clone();
        let pressed = s.side == side;
        html! {
            <button id={format!("side-{}", side.id())} class={classes!("side", pressed.then_some("active"))}
                aria-pressed={pressed.to_string()}
                onclick={Callback::from(move |_: MouseEvent| st.dispatch(Action::SetSide(side)))}>
                { side.letter() }
            </button>
        }
    };
    html! {
        <div class="side-picker" role="group" aria-label={Msg::ShowRun.text(s.lang)}>
            <span class="muted">{ Msg::ShowRun.text(s.lang) }</span>
            { for Side::BOTH.into_iter().map(button) }
        </div>
    }
}
