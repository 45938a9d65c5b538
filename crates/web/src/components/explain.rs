//! The preset's narration, in the page's language.

use flywheel_engine::scenario::presets;
use yew::prelude::*;

use super::use_ctx;
use crate::i18n::{narration, preset_title, Msg};

/// The narration panel.
#[function_component(Explain)]
pub fn explain() -> Html {
    let ctx = use_ctx();
    let s = &ctx.state;
    let lang = s.lang;
    let name = s.url.config.preset.clone();
    let scenario = use_memo(name.clone(), |n| presets::load(n, &[]).ok());
    let (title, group, summary) = scenario
        .as_ref()
        .as_ref()
        .map(|sc| (sc.title.clone(), sc.group.clone(), sc.summary.clone()))
        .unwrap_or_default();
    let text = narration(&name, lang).map_or(summary, str::to_owned);
    html! {
        <article class="explain" lang={lang.code()}>
            <h2>{ preset_title(&name, &title, lang) }</h2>
            <p class="muted">{ format!("{name} · {}: {group}", Msg::Group.text(lang)) }</p>
            <p id="narration">{ text }</p>
        </article>
    }
}
