//! The keyboard help overlay.

use web_sys::HtmlElement;
use yew::prelude::*;

use super::use_ctx;
use crate::i18n::Msg;
use crate::state::Action;

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
    crate::renders::count("HelpOverlay");
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
        (":", Msg::KeyColon),
        ("P", Msg::KeyPresenter),
        ("→ ← PgDn PgUp", Msg::KeyTourSteps),
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
