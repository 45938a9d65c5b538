//! Notices: URL parameters that were ignored, settings the scenario rejected.

use yew::prelude::*;

use crate::ctx::Ctx;
use crate::i18n::Msg;
use crate::state::{Action, Notice};

/// The notice bar (absent when there is nothing to say).
pub fn notices(ctx: &Ctx) -> Html {
    let lang = ctx.state.lang;
    if ctx.state.notices.is_empty() {
        return html! {};
    }
    let items = ctx.state.notices.iter().enumerate().map(|(i, n)| {
        // The engine's own message names a scenario field: it is shown as code, untranslated.
        let text = match n {
            Notice::Ignored(ig) => html! { <>{ format!("{}: ", Msg::NoticeIgnored.text(lang)) }<code>{ &ig.key }</code>{ format!(" — {}", ig.reason.text(lang)) }</> },
            Notice::Invalid(e) => html! { <>{ format!("{}: ", Msg::NoticeInvalid.text(lang)) }<code lang="en">{ e }</code></> },
            Notice::StoredSetAside(e) => html! { { format!("{}: {}", Msg::NoticeStored.text(lang), e.text(lang)) } },
            Notice::ImportFailed(e) => html! { { format!("{}: {}", Msg::NoticeImport.text(lang), e.text(lang)) } },
        };
        let key = match n {
            Notice::Ignored(ig) => ig.key.clone(),
            Notice::Invalid(_) => String::new(),
            Notice::StoredSetAside(_) => "stored".to_owned(),
            Notice::ImportFailed(_) => "import".to_owned(),
        };
        let state = ctx.state.clone();
        let dismiss = Callback::from(move |_| state.dispatch(Action::Dismiss(i)));
        html! {
            <li class="notice" data-param={key}>
                <span>{ text }</span>
                <button class="link" onclick={dismiss} aria-label={Msg::Dismiss.text(lang)}>{ "×" }</button>
            </li>
        }
    });
    html! { <ul class="notices" id="notices" role="status">{ for items }</ul> }
}
