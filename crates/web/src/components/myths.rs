//! The "myth vs upstream" cards: each claim of seeds 000 and 004 that upstream contradicts, what
//! the engine does instead, a button that loads and plays the scenario that shows it, and the
//! upstream files. The cards are written in the engine (`flywheel_engine::scenario::myths`) and
//! fetched per language as data (`www/text/myths.<lang>.txt`, see [`crate::myth_cards`]).

use yew::prelude::*;

use super::use_ctx;
use crate::i18n::{Lang, Msg};
use crate::myth_cards::{self, Card};
use crate::state::Action;
use crate::texts::{self, Kind, Status};

/// One card.
fn card(card: &Card<'_>, ctx: &crate::ctx::Ctx, lang: Lang) -> Html {
    let st = ctx.state.clone();
    let playing = ctx.state.playing;
    let preset = card.preset.to_owned();
    let run = Callback::from(move |_: MouseEvent| {
        st.dispatch(Action::SetPreset(preset.clone()));
        if !playing {
            st.dispatch(Action::TogglePlay);
        }
    });
    html! {
        <article class="myth" id={format!("myth-{}", card.id)}>
            <p class="myth-claim"><strong>{ Msg::MythClaim.text(lang) }{ ": " }</strong>{ card.claim }</p>
            <p class="myth-upstream"><strong>{ Msg::MythUpstream.text(lang) }{ ": " }</strong>{ card.upstream }</p>
            <p class="myth-files muted">
                { Msg::MythFiles.text(lang) }{ ": " }
                { for card.files.iter().map(|f| html! { <code>{ *f }</code> }) }
            </p>
            <button class="myth-run" onclick={run}>{ format!("{} {}", Msg::MythRun.text(lang), card.preset) }</button>
        </article>
    }
}

/// The cards.
#[function_component(Myths)]
pub fn myths() -> Html {
    crate::renders::count("Myths");
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    let update = use_force_update();
    use_effect_with(lang, move |&lang| {
        texts::request(Kind::Myths, lang, move || update.force_update());
    });
    let body = match texts::status(Kind::Myths, lang) {
        Status::Loaded(file) => html! {
            { for myth_cards::cards(&file).iter().map(|c| card(c, &ctx, lang)) }
        },
        Status::Loading => {
            html! { <p class="muted" aria-busy="true">{ Msg::MythsLoading.text(lang) }</p> }
        }
        Status::Failed(why) => html! {
            <p id="myths-error" class="story-warning" role="alert">
                { Msg::MythsFailed.text(lang).replace("{}", &why) }
            </p>
        },
    };
    html! {
        <section class="myths" lang={lang.code()}>
            <p class="muted">{ Msg::MythsHint.text(lang) }</p>
            { body }
        </section>
    }
}
