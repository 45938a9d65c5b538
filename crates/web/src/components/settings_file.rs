//! Export the settings as a file and import them back (the same text `localStorage` keeps, see
//! [`crate::persist`]): a round trip gives exactly the same state.

use wasm_bindgen::JsCast;
use web_sys::{HtmlAnchorElement, HtmlInputElement};
use yew::prelude::*;

use crate::ctx::Ctx;
use crate::i18n::Msg;
use crate::persist;
use crate::reasons::Reason;
use crate::state::{Action, Notice};

/// Offers the settings as a download: a Blob URL on a temporary link.
fn download(text: &str) -> Option<()> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/plain");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let doc = gloo::utils::document();
    let a: HtmlAnchorElement = doc.create_element("a").ok()?.dyn_into().ok()?;
    a.set_href(&url);
    a.set_download(persist::EXPORT_FILE_NAME);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Some(())
}

/// The export and import buttons.
pub fn settings_file(ctx: &Ctx) -> Html {
    let lang = ctx.state.lang;
    let export = {
        let st = ctx.state.clone();
        Callback::from(move |_: MouseEvent| {
            let _ = download(&persist::encode(&st.url));
        })
    };
    let import = {
        let st = ctx.state.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            input.set_value("");
            // a file far larger than a settings file is refused before it is read
            let size = file.size();
            if size > persist::MAX_BYTES as f64 {
                st.dispatch(Action::Notify(Notice::ImportFailed(Reason::TooManyBytes {
                    bytes: size as u64,
                    max: persist::MAX_BYTES as u64,
                })));
                return;
            }
            let st = st.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let text = wasm_bindgen_futures::JsFuture::from(file.text())
                    .await
                    .ok()
                    .and_then(|v| v.as_string());
                let action = match text.as_deref().map(persist::decode) {
                    Some(Ok(url)) => Action::ImportSettings(url),
                    Some(Err(why)) => Action::Notify(Notice::ImportFailed(why)),
                    None => Action::Notify(Notice::ImportFailed(Reason::Unreadable)),
                };
                st.dispatch(action);
            });
        })
    };
    html! {
        <div class="settings-file">
            <button class="link" id="export-settings" onclick={export}>{ Msg::ExportSettings.text(lang) }</button>
            <input type="file" id="import-settings" class="visually-hidden" accept=".txt,text/plain" onchange={import} />
            <label class="link" for="import-settings">{ Msg::ImportSettings.text(lang) }</label>
        </div>
    }
}
