//! A panic shows an error panel (with the permalink and a "copy report" button) instead of a dead
//! page. The panel is plain DOM written by the panic hook, so it works when the app cannot.

use std::panic::PanicHookInfo;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element};

/// The report a user sends: what failed, where, and how to reproduce it.
pub fn report(message: &str, permalink: &str, user_agent: &str) -> String {
    format!(
        "Flywheel {} crashed\nerror: {message}\npermalink: {permalink}\nbrowser: {user_agent}\n",
        crate::version()
    )
}

fn el(doc: &Document, tag: &str, class: &str, text: &str) -> Option<Element> {
    let e = doc.create_element(tag).ok()?;
    e.set_class_name(class);
    e.set_text_content(Some(text));
    Some(e)
}

/// Builds the error panel into `#app` (or the body).
pub fn show_error_panel(message: &str) -> Option<()> {
    let window = web_sys::window()?;
    let doc = window.document()?;
    let permalink = window.location().href().unwrap_or_default();
    let ua = window.navigator().user_agent().unwrap_or_default();
    let text = report(message, &permalink, &ua);
    let zh = doc
        .document_element()
        .and_then(|r| r.get_attribute("lang"))
        .is_some_and(|l| l.starts_with("zh"));
    let (title, body, copy) = if zh {
        (
            "Flywheel 因内部错误而停止",
            "重新打开下面的永久链接即可重新开始，并请发送错误报告。",
            "复制报告",
        )
    } else {
        (
            "Flywheel stopped because of an internal error",
            "Reload the permalink below to start again, and please send the report.",
            "Copy report",
        )
    };
    let panel = el(&doc, "section", "error-panel", "")?;
    panel.set_id("error-panel");
    panel.set_attribute("role", "alert").ok()?;
    for child in [el(&doc, "h2", "", title)?, el(&doc, "p", "", body)?] {
        panel.append_child(&child).ok()?;
    }
    let link = el(&doc, "a", "", &permalink)?;
    link.set_attribute("href", &permalink).ok()?;
    panel.append_child(&link).ok()?;
    let pre = el(&doc, "pre", "", &text)?;
    panel.append_child(&pre).ok()?;
    let button = el(&doc, "button", "", copy)?;
    let nav = window.navigator();
    let on_click = Closure::<dyn Fn()>::new(move || {
        let _ = nav.clipboard().write_text(&text);
    });
    button
        .add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref())
        .ok()?;
    on_click.forget();
    panel.append_child(&button).ok()?;
    let host = doc
        .get_element_by_id("app")
        .or_else(|| doc.body().map(Into::into))?;
    host.replace_children_with_node_1(&panel);
    Some(())
}

/// Installs the hook (once, at start).
pub fn install() {
    std::panic::set_hook(Box::new(|info: &PanicHookInfo<'_>| {
        let msg = info.to_string();
        web_sys::console::error_1(&msg.clone().into());
        let _ = show_error_panel(&msg);
    }));
}
