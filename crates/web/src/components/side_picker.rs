//! When comparing, which run (A or B) the inspect panel and the event log show.

use yew::prelude::*;

use crate::ctx::Ctx;
use crate::i18n::Msg;
use crate::runs::Side;
use crate::state::Action;

/// The A / B switch; nothing when only one run is shown.
pub fn side_picker(ctx: &Ctx) -> Html {
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
