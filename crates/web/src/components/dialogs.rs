//! The keyboard help overlay and the embed dialog.

use web_sys::HtmlElement;
use yew::prelude::*;

use super::use_ctx;
use crate::i18n::Msg;
use crate::state::Action;
use crate::web;

/// Focuses the element behind `node` once mounted.
#[hook]
fn use_focus(node: &NodeRef) {
    let node = node.clone();
    use_effect_with((), move |_| {
        if let Some(el) = node.cast::<HtmlElement>() {
            let _ = el.focus();
        }
    });
}

/// The keyboard shortcuts.
#[function_component(HelpOverlay)]
pub fn help_overlay() -> Html {
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    let close_ref = use_node_ref();
    use_focus(&close_ref);
    let close = {
        let st = ctx.state.clone();
        Callback::from(move |_: MouseEvent| st.dispatch(Action::CloseDialogs))
    };
    let keys = [
        ("Space", Msg::KeySpace),
        ("→", Msg::KeyRight),
        ("n", Msg::KeyN),
        ("w", Msg::KeyW),
        ("← → Home End", Msg::KeyTabs),
        ("+ / −", Msg::KeyPlusMinus),
        ("r", Msg::KeyR),
        ("?", Msg::KeyQuestion),
        ("Esc", Msg::KeyEscape),
    ];
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="help-title" id="help">
            <div class="dialog">
                <h2 id="help-title">{ Msg::Help.text(lang) }</h2>
                <dl class="keys">
                    { for keys.iter().map(|(k, m)| html! { <><dt><kbd>{ *k }</kbd></dt><dd>{ m.text(lang) }</dd></> }) }
                </dl>
                <button ref={close_ref} id="help-close" onclick={close}>{ Msg::Close.text(lang) }</button>
            </div>
        </div>
    }
}

/// The `<iframe>` snippet for documentation pages.
pub fn iframe_snippet(url: &str) -> String {
    format!("<iframe src=\"{url}\" width=\"100%\" height=\"720\" title=\"Flywheel\" loading=\"lazy\" style=\"border:0\"></iframe>")
}

/// The embed dialog.
#[function_component(EmbedDialog)]
pub fn embed_dialog() -> Html {
    let ctx = use_ctx();
    let s = &ctx.state;
    let lang = s.lang;
    let close_ref = use_node_ref();
    use_focus(&close_ref);
    let mut u = s.url.clone();
    u.embed = true;
    u.autoplay = true;
    let snippet = iframe_snippet(&web::permalink(&u.to_query()));
    let link = web::permalink(&s.url.to_query());
    let close = {
        let st = ctx.state.clone();
        Callback::from(move |_: MouseEvent| st.dispatch(Action::CloseDialogs))
    };
    let copy = {
        let snippet = snippet.clone();
        Callback::from(move |_: MouseEvent| web::copy(snippet.clone(), |_| {}))
    };
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="embed-title" id="embed-dialog">
            <div class="dialog wide">
                <h2 id="embed-title">{ Msg::Embed.text(lang) }</h2>
                <label for="embed-snippet">{ Msg::EmbedHint.text(lang) }</label>
                <textarea id="embed-snippet" readonly=true rows="4" value={snippet} />
                <label for="permalink">{ Msg::Permalink.text(lang) }</label>
                <input id="permalink" type="text" readonly=true value={link} />
                <div class="row">
                    <button id="copy-snippet" onclick={copy}>{ Msg::CopyLink.text(lang) }</button>
                    <button ref={close_ref} id="embed-close" onclick={close}>{ Msg::Close.text(lang) }</button>
                </div>
            </div>
        </div>
    }
}
