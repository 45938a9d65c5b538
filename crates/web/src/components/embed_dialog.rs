//! The embed dialog: the `<iframe>` snippet for documentation pages, sized from the layout it
//! embeds (width, one or two pipelines, a panel or none), and the permalink, each with a button
//! named for what it copies.

use web_sys::{HtmlElement, HtmlSelectElement};
use yew::prelude::*;

use super::tabs::label as tab_label;
use super::use_ctx;
use crate::embed_size::{embed_height, EmbedLayout, EMBED_WIDTHS};
use crate::i18n::{preset_title, Msg};
use crate::state::{Action, Tab};
use crate::variant_words::side_caption;
use crate::web;

/// Escapes `"`, `&`, `<` and `>` for an HTML attribute.
fn attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The `<iframe>` snippet for `url`, `width` × `height` CSS px, titled `title`.
pub fn iframe_snippet(url: &str, width: u32, height: u32, title: &str) -> String {
    format!(
        "<iframe src=\"{}\" width=\"{width}\" height=\"{height}\" title=\"{}\" loading=\"lazy\" style=\"border:0;max-width:100%\"></iframe>",
        attr(url),
        attr(title)
    )
}

/// Which button last copied (for its "Copied" label).
#[derive(Clone, Copy, PartialEq, Eq)]
enum CopiedWhat {
    Snippet,
    Permalink,
}

/// The embed dialog.
#[function_component(EmbedDialog)]
pub fn embed_dialog() -> Html {
    crate::renders::count("EmbedDialog");
    let ctx = use_ctx();
    let s = &ctx.state;
    let lang = s.lang;
    let close_ref = use_node_ref();
    {
        let node = close_ref.clone();
        use_effect_with((), move |_| {
            if let Some(el) = node.cast::<HtmlElement>() {
                let _ = el.focus();
            }
        });
    }
    let width = use_state(|| 800u32);
    let panel = use_state(|| None::<Tab>);
    let copied = use_state(|| None::<CopiedWhat>);
    let mut u = s.url.clone();
    u.embed = true;
    u.autoplay = true;
    u.tab = *panel;
    let layout = EmbedLayout {
        width: *width,
        compare: u.compare.is_some(),
        panel: panel.is_some(),
    };
    let preset = &u.config.preset;
    let english = crate::components::scenario::preset_groups()
        .iter()
        .flat_map(|(_, items)| items.iter())
        .find(|(n, _)| n == preset)
        .map_or(preset.clone(), |(_, t)| t.clone());
    let mut title = format!(
        "Flywheel: {} — {}",
        preset_title(preset, &english, lang),
        side_caption("A", &u.config.variant, lang)
    );
    if let Some(b) = &u.compare {
        title.push_str(&format!(" · {}", side_caption("B", b, lang)));
    }
    let snippet = iframe_snippet(
        &web::permalink(&u.to_query()),
        *width,
        embed_height(&layout),
        &title,
    );
    let link = web::permalink(&s.url.to_query());
    let close = {
        let st = ctx.state.clone();
        Callback::from(move |_: MouseEvent| st.dispatch(Action::CloseDialogs))
    };
    let copy = |text: String, what: CopiedWhat| {
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            copied.set(Some(what));
            web::copy(text.clone(), |_| {});
        })
    };
    let on_width = {
        let (width, copied) = (width.clone(), copied.clone());
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(w) = sel.value().parse() {
                width.set(w);
                copied.set(None);
            }
        })
    };
    let on_panel = {
        let (panel, copied) = (panel.clone(), copied.clone());
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            panel.set(Tab::parse(&sel.value()));
            copied.set(None);
        })
    };
    let label = |what: CopiedWhat, msg: Msg| {
        if *copied == Some(what) {
            Msg::Copied.text(lang)
        } else {
            msg.text(lang)
        }
    };
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="embed-title" id="embed-dialog">
            <div class="dialog wide">
                <h2 id="embed-title">{ Msg::Embed.text(lang) }</h2>
                <div class="embed-options">
                    <label class="select" for="embed-width">
                        <span>{ Msg::EmbedWidth.text(lang) }</span>
                        <select id="embed-width" onchange={on_width}>
                            { for EMBED_WIDTHS.iter().map(|w| html! {
                                <option value={w.to_string()} selected={*w == *width}>{ format!("{w} px") }</option>
                            }) }
                        </select>
                    </label>
                    <label class="select" for="embed-tab">
                        <span>{ Msg::EmbedPanel.text(lang) }</span>
                        <select id="embed-tab" onchange={on_panel}>
                            <option value="" selected={panel.is_none()}>{ Msg::EmbedNoPanel.text(lang) }</option>
                            { for Tab::ALL.iter().map(|t| html! {
                                <option value={t.as_str()} selected={*panel == Some(*t)}>{ tab_label(*t).text(lang) }</option>
                            }) }
                        </select>
                    </label>
                </div>
                <label for="embed-snippet">{ Msg::EmbedHint.text(lang) }</label>
                <textarea id="embed-snippet" readonly=true rows="5" value={snippet.clone()}
                    data-width={width.to_string()} data-height={embed_height(&layout).to_string()} />
                <label for="permalink">{ Msg::Permalink.text(lang) }</label>
                <input id="permalink" type="text" readonly=true value={link.clone()} />
                <div class="row">
                    <button id="copy-snippet" onclick={copy(snippet, CopiedWhat::Snippet)}>
                        { label(CopiedWhat::Snippet, Msg::CopyEmbedCode) }
                    </button>
                    <button id="copy-permalink" onclick={copy(link, CopiedWhat::Permalink)}>
                        { label(CopiedWhat::Permalink, Msg::CopyPermalink) }
                    </button>
                    <button ref={close_ref} id="embed-close" onclick={close}>{ Msg::Close.text(lang) }</button>
                </div>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snippet_carries_the_size_and_an_escaped_title() {
        let s = iframe_snippet("https://x/?preset=a&b=c", 800, 1012, "Flywheel: \"x\" <y>");
        assert!(s.contains("src=\"https://x/?preset=a&amp;b=c\""), "{s}");
        assert!(s.contains("width=\"800\" height=\"1012\""), "{s}");
        assert!(
            s.contains("title=\"Flywheel: &quot;x&quot; &lt;y&gt;\""),
            "{s}"
        );
    }
}
