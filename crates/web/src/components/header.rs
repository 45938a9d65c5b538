//! The header: title, language and theme switches, copy link, embed, help.

use yew::prelude::*;

use super::use_ctx;
use crate::config::Theme;
use crate::i18n::Msg;
use crate::state::Action;
use crate::texts::{self, Kind, Status};
use crate::web;

/// The page header.
#[function_component(Header)]
pub fn header() -> Html {
    crate::renders::count("Header");
    let ctx = use_ctx();
    let s = &ctx.state;
    let lang = s.lang;
    let link = web::permalink(&s.url.to_query());
    let on = |a: Action| {
        let st = ctx.state.clone();
        Callback::from(move |_: MouseEvent| st.dispatch(a.clone()))
    };
    let copy = {
        let (st, link) = (ctx.state.clone(), link.clone());
        Callback::from(move |_: MouseEvent| {
            let st2 = st.clone();
            st.dispatch(Action::Copied(true));
            web::copy(link.clone(), move |_| {
                gloo::timers::callback::Timeout::new(1500, move || {
                    st2.dispatch(Action::Copied(false))
                })
                .forget();
            });
        })
    };
    let tried = use_state(|| false);
    let switch = {
        let (st, tried) = (ctx.state.clone(), tried.clone());
        let other = lang.other();
        Callback::from(move |_: MouseEvent| {
            tried.set(true);
            let waiting = st.clone();
            texts::request(Kind::Labels, other, move || {
                if texts::is_loaded(Kind::Labels, other) {
                    waiting.dispatch(Action::SetLang(other));
                } else {
                    waiting.dispatch(Action::Redraw);
                }
            });
            if texts::is_loaded(Kind::Labels, other) {
                st.dispatch(Action::SetLang(other));
            }
        })
    };
    let switch_failed = match texts::status(Kind::Labels, lang.other()) {
        Status::Failed(why) if *tried => Some(Msg::LabelsFailed.text(lang).replace("{}", &why)),
        _ => None,
    };
    let theme = match s.url.theme {
        Theme::Auto => Msg::ThemeAuto,
        Theme::Light => Msg::ThemeLight,
        Theme::Dark => Msg::ThemeDark,
    };
    html! {
        <header class="header">
            <div class="brand">
                <h1><img src="./www/icon.svg" alt="" width="28" height="28" />{ "Flywheel" }</h1>
                <p class="tagline">{ Msg::Tagline.text(lang) }</p>
            </div>
            <nav class="actions" aria-label={Msg::PageActions.text(lang)}>
                <super::tour::TourMenu />
                { super::presenter::presenter_button(&ctx) }
                <button id="copy-link" data-href={link} onclick={copy}>
                    { if s.copied { Msg::Copied.text(lang) } else { Msg::CopyPermalink.text(lang) } }
                </button>
                <button id="embed-button" onclick={on(Action::ToggleEmbedDialog)}>{ Msg::Embed.text(lang) }</button>
                <button id="theme" onclick={on(Action::CycleTheme)} title={Msg::Theme.text(lang)}>
                    { format!("{}: {}", Msg::Theme.text(lang), theme.text(lang)) }
                </button>
                <button id="lang" lang={lang.other().code()} onclick={switch}>
                    { Msg::Language.text(lang) }
                </button>
                if let Some(why) = switch_failed {
                    <span id="lang-error" class="story-warning" role="alert">{ why }</span>
                }
                <button id="help-button" aria-keyshortcuts="?" onclick={on(Action::ToggleHelp)}
                    aria-label={Msg::Help.text(lang)}>{ "?" }</button>
            </nav>
        </header>
    }
}
