//! Notices: URL parameters that were ignored, settings the scenario rejected.

use yew::prelude::*;

use super::use_ctx;
use crate::i18n::Msg;
use crate::state::{Action, Notice};

/// The notice bar (absent when there is nothing to say).
#[function_component(Notices)]
pub fn notices() -> Html {
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    if ctx.state.notices.is_empty() {
        return html! {};
    }
    let items = ctx.state.notices.iter().enumerate().map(|(i, n)| {
        let text = match n {
            Notice::Ignored(ig) => format!("{}: {} — {}", Msg::NoticeIgnored.text(lang), ig.key, ig.reason),
            Notice::Invalid(e) => format!("{}: {e}", Msg::NoticeInvalid.text(lang)),
            Notice::StoredSetAside(e) => format!("{}: {e}", Msg::NoticeStored.text(lang)),
            Notice::ImportFailed(e) => format!("{}: {e}", Msg::NoticeImport.text(lang)),
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
