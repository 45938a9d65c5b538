//! The "myth vs upstream" cards: each claim of seeds 000 and 004 that upstream contradicts, what
//! the engine does instead, a button that loads and plays the scenario that shows it, and the
//! upstream files.
//! The cards' text lives in the engine (`flywheel_engine::scenario::myths`).

use flywheel_engine::scenario::myths::MYTHS;
use yew::prelude::*;

use super::use_ctx;
use crate::i18n::{Lang, Msg};
use crate::state::Action;

/// The cards.
#[function_component(Myths)]
pub fn myths() -> Html {
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    let playing = ctx.state.playing;
    let cards = MYTHS.iter().map(|m| {
        let (claim, upstream) = match lang {
            Lang::En => (m.claim_en, m.upstream_en),
            Lang::Zh => (m.claim_zh, m.upstream_zh),
        };
        let st = ctx.state.clone();
        let preset = m.preset;
        let run = Callback::from(move |_: MouseEvent| {
            st.dispatch(Action::SetPreset(preset.to_owned()));
            if !playing {
                st.dispatch(Action::TogglePlay);
            }
        });
        html! {
            <article class="myth" id={format!("myth-{}", m.id)}>
                <p class="myth-claim"><strong>{ Msg::MythClaim.text(lang) }{ ": " }</strong>{ claim }</p>
                <p class="myth-upstream"><strong>{ Msg::MythUpstream.text(lang) }{ ": " }</strong>{ upstream }</p>
                <p class="myth-files muted">
                    { Msg::MythFiles.text(lang) }{ ": " }
                    { for m.files.iter().map(|f| html! { <code>{ *f }</code> }) }
                </p>
                <button class="myth-run" onclick={run}>{ format!("{} {}", Msg::MythRun.text(lang), m.preset) }</button>
            </article>
        }
    });
    html! {
        <section class="myths" lang={lang.code()}>
            <p class="muted">{ Msg::MythsHint.text(lang) }</p>
            { for cards }
        </section>
    }
}
