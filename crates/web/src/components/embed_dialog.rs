//! The embed builder: the author chooses what the embed shows ([`EmbedOptions`]), sees it in a
//! small live preview (an iframe of the built address), and copies the snippet as HTML, MDX or a
//! Markdown raw HTML block, or the page's permalink. Copying uses the Clipboard API; where it is
//! refused, the text is selected for Ctrl+C.

use flywheel_engine::float_text::Fixed;
use gloo::timers::callback::Timeout;
use web_sys::{HtmlElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::embed_options::{embed_options, EmbedOptions};
use super::use_ctx;
use crate::config::UrlState;
use crate::embed_choice::{build, EmbedChoice};
use crate::embed_forms::{snippet, Frame, SnippetForm};
use crate::i18n::{preset_title, Lang, Msg};
use crate::state::Action;
use crate::variant_words::side_caption;
use crate::web;

/// Width of the preview (CSS px); the embed is drawn at its own width and scaled to this.
const PREVIEW_WIDTH_PX: f64 = 300.0;

/// How long the choices must rest before the preview loads them (ms): typing does not reload it.
const PREVIEW_SETTLE_MS: u32 = 600;

/// Loads `url` in the preview, scaled from `size` to the preview's width. Styles go through the
/// CSSOM: the page's Content-Security-Policy refuses inline style attributes.
fn show_preview(box_ref: &NodeRef, frame_ref: &NodeRef, url: &str, size: (u32, u32)) {
    let scale = PREVIEW_WIDTH_PX / f64::from(size.0);
    if let Some(b) = box_ref.cast::<HtmlElement>() {
        let st = b.style();
        let _ = st.set_property("width", &format!("{}px", Fixed(PREVIEW_WIDTH_PX, 0)));
        let _ = st.set_property(
            "height",
            &format!("{}px", Fixed(f64::from(size.1) * scale, 0)),
        );
    }
    if let Some(f) = frame_ref.cast::<HtmlElement>() {
        let _ = f
            .style()
            .set_property("transform", &format!("scale({})", Fixed(scale, 4)));
        if f.get_attribute("src").as_deref() != Some(url) {
            let _ = f.set_attribute("src", url);
        }
    }
}

/// What the last copy did, for its button's label.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Copied {
    Snippet,
    Permalink,
    /// The clipboard refused; this text field's content is selected.
    Selected(&'static str),
}

/// The iframe's title: the scenario and each side's fixes, in the embed's language.
fn frame_title(query: &str, lang: Lang) -> String {
    let u = UrlState::from_query(query).0;
    let mut title = format!(
        "Flywheel: {} — {}",
        preset_title(&u.config.preset, lang),
        side_caption("A", &u.config.variant, lang)
    );
    if let Some(b) = &u.compare {
        title.push_str(&format!(" · {}", side_caption("B", b, lang)));
    }
    title
}

/// Copies `text`; on refusal selects the field `id` and says so.
fn copy(
    text: String,
    id: &'static str,
    what: Copied,
    copied: UseStateHandle<Option<Copied>>,
) -> Callback<MouseEvent> {
    Callback::from(move |_: MouseEvent| {
        let copied = copied.clone();
        web::copy(text.clone(), move |ok| {
            if ok {
                copied.set(Some(what));
                return;
            }
            let field = gloo::utils::document().get_element_by_id(id);
            if let Some(t) = field
                .clone()
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<HtmlTextAreaElement>(e).ok())
            {
                t.select();
            } else if let Some(i) = field
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(e).ok())
            {
                i.select();
            }
            copied.set(Some(Copied::Selected(id)));
        });
    })
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
    let choice = use_state(|| EmbedChoice::from_url(&s.url));
    let form = use_state(|| SnippetForm::Html);
    let copied = use_state(|| None::<Copied>);
    let last_good = use_state(|| build(&choice, &s.url).ok());
    let built = build(&choice, &s.url);
    let refused = built.as_ref().err().map(|r| r.field);
    let Some(good) = built.ok().or_else(|| (*last_good).clone()) else {
        return html! {};
    };
    let url = web::permalink(&good.query);
    let title = frame_title(&good.query, choice.lang.unwrap_or(lang));
    let frame = Frame {
        url: &url,
        width: good.width,
        height: good.height,
        title: &title,
    };
    let text = snippet(*form, &frame);
    let link = web::permalink(&s.url.to_query());
    let on_change = {
        let (choice, copied, last_good, base) = (
            choice.clone(),
            copied.clone(),
            last_good.clone(),
            s.url.clone(),
        );
        Callback::from(move |c: EmbedChoice| {
            if let Ok(b) = build(&c, &base) {
                last_good.set(Some(b));
            }
            choice.set(c);
            copied.set(None);
        })
    };
    let on_form = {
        let (form, copied) = (form.clone(), copied.clone());
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            form.set(SnippetForm::parse(&sel.value()).unwrap_or(SnippetForm::Html));
            copied.set(None);
        })
    };
    let close = {
        let st = ctx.state.clone();
        Callback::from(move |_: MouseEvent| st.dispatch(Action::CloseDialogs))
    };
    let label = |what: Copied, msg: Msg, id: &str| match *copied {
        Some(c) if c == what => Msg::Copied.text(lang),
        Some(Copied::Selected(f)) if f == id => Msg::CopySelected.text(lang),
        _ => msg.text(lang),
    };
    let box_ref = use_node_ref();
    let frame_ref = use_node_ref();
    let pending = use_mut_ref(|| None::<Timeout>);
    {
        let (box_ref, frame_ref) = (box_ref.clone(), frame_ref.clone());
        let size = (good.width, good.height);
        use_effect_with((url.clone(), size), move |(url, size)| {
            let url = url.clone();
            let size = *size;
            *pending.borrow_mut() = Some(Timeout::new(PREVIEW_SETTLE_MS, move || {
                show_preview(&box_ref, &frame_ref, &url, size);
            }));
        });
    }
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="embed-title" id="embed-dialog">
            <div class="dialog builder">
                <h2 id="embed-title">{ Msg::Embed.text(lang) }</h2>
                <div class="builder-body">
                    { embed_options(&EmbedOptions { choice: (*choice).clone(), refused, on_change, lang }) }
                    <figure class="embed-preview">
                        <figcaption>{ Msg::EmbedPreview.text(lang) }</figcaption>
                        <div class="embed-preview-box" ref={box_ref}>
                            <iframe id="embed-preview" ref={frame_ref} title={Msg::EmbedPreview.text(lang)}
                                width={good.width.to_string()} height={good.height.to_string()} />
                        </div>
                    </figure>
                </div>
                <label class="select" for="embed-form">
                    <span>{ Msg::EmbedForm.text(lang) }</span>
                    <select id="embed-form" onchange={on_form}>
                        { for [(SnippetForm::Html, Msg::EmbedFormHtml), (SnippetForm::Mdx, Msg::EmbedFormMdx), (SnippetForm::Markdown, Msg::EmbedFormMarkdown)]
                            .into_iter().map(|(f, m)| html! {
                                <option value={f.as_str()} translate="no" selected={*form == f}>{ m.text(lang) }</option>
                            }) }
                    </select>
                </label>
                <label for="embed-snippet">{ Msg::EmbedHint.text(lang) }</label>
                <textarea id="embed-snippet" readonly=true rows="4" value={text.clone()}
                    data-width={good.width.to_string()} data-height={good.height.to_string()} data-url={url.clone()} />
                <label for="permalink">{ Msg::Permalink.text(lang) }</label>
                <input id="permalink" type="text" readonly=true value={link.clone()} />
                <div class="row">
                    <button id="copy-snippet" onclick={copy(text, "embed-snippet", Copied::Snippet, copied.clone())}>
                        { label(Copied::Snippet, Msg::CopyEmbedCode, "embed-snippet") }
                    </button>
                    <button id="copy-permalink" onclick={copy(link, "permalink", Copied::Permalink, copied.clone())}>
                        { label(Copied::Permalink, Msg::CopyPermalink, "permalink") }
                    </button>
                    <button ref={close_ref} id="embed-close" onclick={close}>{ Msg::Close.text(lang) }</button>
                </div>
            </div>
        </div>
    }
}
