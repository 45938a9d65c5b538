//! The embed's caption: which scenario runs, and with which fixes on each side.

use yew::prelude::*;

use crate::ctx::Ctx;
use crate::i18n::preset_title;
use crate::variant_words::side_caption;

/// Two lines above an embed: the scenario's title and name, then each side's fixes in words.
pub fn embed_caption(ctx: &Ctx) -> Html {
    let s = &ctx.state;
    let lang = s.lang;
    let name = &s.url.config.preset;
    let title = format!("{} · {name}", preset_title(name, lang));
    let mut sides = side_caption("A", &s.url.config.variant, lang);
    if let Some(b) = &s.url.compare {
        sides.push_str(&format!("  ·  {}", side_caption("B", b, lang)));
    }
    html! {
        <p class="embed-caption" id="embed-caption" lang={lang.code()}>
            <strong class="embed-title" title={title.clone()}>{ title.clone() }</strong>
            <span class="embed-sides" title={sides.clone()}>{ sides.clone() }</span>
        </p>
    }
}
