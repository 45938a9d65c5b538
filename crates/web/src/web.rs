//! Small wrappers over browser APIs (no panics: each falls back quietly).

use wasm_bindgen::JsCast;
use web_sys::{Element, KeyboardEvent};

/// `location.search`.
pub fn query() -> String {
    gloo::utils::window()
        .location()
        .search()
        .unwrap_or_default()
}

/// The page's address without its query.
pub fn base_url() -> String {
    let loc = gloo::utils::window().location();
    format!(
        "{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default()
    )
}

/// The full permalink for `query`.
pub fn permalink(query: &str) -> String {
    format!("{}?{query}", base_url())
}

/// `navigator.languages`.
pub fn languages() -> Vec<String> {
    gloo::utils::window()
        .navigator()
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .collect()
}

/// Whether a media query matches.
pub fn prefers(query: &str) -> bool {
    gloo::utils::window()
        .match_media(query)
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// `performance.now()`.
/// Works in the page and in a Web Worker (the global's `performance`, found once).
#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    thread_local! {
        static PERFORMANCE: Option<web_sys::Performance> =
            js_sys::Reflect::get(&js_sys::global(), &"performance".into())
                .ok()
                .and_then(|p| p.dyn_into().ok());
    }
    PERFORMANCE.with(|p| p.as_ref().map_or(0.0, web_sys::Performance::now))
}

/// Off the browser (the crate's tests): ms since this thread first asked.
#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> f64 {
    thread_local! {
        static START: std::time::Instant = std::time::Instant::now();
    }
    START.with(|s| s.elapsed().as_secs_f64() * 1000.0)
}

/// Replaces the address bar's query without a navigation.
pub fn replace_query(query: &str) {
    let w = gloo::utils::window();
    if w.location()
        .search()
        .unwrap_or_default()
        .trim_start_matches('?')
        == query
    {
        return;
    }
    if let Ok(h) = w.history() {
        let url = format!("?{query}");
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// Sets `<html lang>` and `data-theme`.
pub fn set_root_attrs(lang: &str, theme: &str) {
    if let Some(root) = gloo::utils::document().document_element() {
        set_attribute_if_changed(&root, "lang", Some(lang));
        let theme = (theme != "auto").then_some(theme);
        set_attribute_if_changed(&root, "data-theme", theme);
    }
}

/// Sets (or, for `None`, removes) an attribute only when its value differs. The state these
/// follow changes at every seek; in Chromium's profile of four seeks, writing the root's
/// attributes unchanged took about 4 ms a seek.
fn set_attribute_if_changed(el: &Element, name: &str, value: Option<&str>) {
    if el.get_attribute(name).as_deref() == value {
        return;
    }
    let _ = match value {
        Some(v) => el.set_attribute(name, v),
        None => el.remove_attribute(name),
    };
}

fn target(e: &KeyboardEvent) -> Option<Element> {
    e.target().and_then(|t| t.dyn_into::<Element>().ok())
}

/// Whether the key belongs to the focused control (see [`crate::keys`]) rather than to the
/// page's shortcuts.
pub fn key_owned_by_focus(e: &KeyboardEvent) -> bool {
    let focus = target(e).map_or(crate::keys::Focus::Page, |t| {
        let editable = t
            .dyn_ref::<web_sys::HtmlElement>()
            .is_some_and(|h| h.is_content_editable());
        crate::keys::focus_of(
            &t.tag_name(),
            &t.get_attribute("type")
                .unwrap_or_default()
                .to_ascii_lowercase(),
            &t.get_attribute("role").unwrap_or_default(),
            t.has_attribute("tabindex"),
            editable,
        )
    });
    crate::keys::owned_by_focus(focus, &e.key())
}

/// Copies `text` to the clipboard; `done` gets whether it worked.
pub fn copy(text: String, done: impl FnOnce(bool) + 'static) {
    let clipboard = gloo::utils::window().navigator().clipboard();
    let promise = clipboard.write_text(&text);
    wasm_bindgen_futures::spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        done(ok);
    });
}

/// `devicePixelRatio`, at least 1, at most 2.
pub fn pixel_ratio() -> f64 {
    gloo::utils::window().device_pixel_ratio().clamp(1.0, 2.0)
}
