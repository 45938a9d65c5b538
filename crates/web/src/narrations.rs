//! The presets' narrations, one text file per language (`www/text/narrations.<lang>.txt`: a line
//! per preset, its name, a tab, its narration). The page fetches a language's file the first time
//! it shows that language, so the text of neither language sits in the WebAssembly.

use std::cell::RefCell;
use std::rc::Rc;

use crate::i18n::Lang;

/// Where a language's narrations are, relative to the page.
pub fn url(lang: Lang) -> String {
    format!("www/text/narrations.{}.txt", lang.code())
}

/// One language's narrations: the file's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narrations(String);

impl Narrations {
    /// Takes a file's text; an error when a line is not `name<TAB>text`.
    pub fn parse(text: &str) -> Result<Rc<Narrations>, String> {
        match text.lines().position(|l| !l.contains('\t')) {
            Some(n) => Err(format!("line {} has no tab", n + 1)),
            None => Ok(Rc::new(Narrations(text.to_owned()))),
        }
    }

    /// A preset's narration; `None` for a preset without one.
    pub fn of(&self, preset: &str) -> Option<&str> {
        self.0
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .find_map(|(name, text)| (name == preset).then_some(text))
    }
}

/// Where a language's file is.
#[derive(Clone, Debug)]
pub enum Status {
    /// Being fetched.
    Loading,
    /// Fetched and parsed.
    Loaded(Rc<Narrations>),
    /// The fetch or the parse failed, with why.
    Failed(String),
}

type Listener = Rc<dyn Fn()>;

/// One language's file and who waits for it.
struct Slot {
    status: Status,
    waiting: Vec<Listener>,
}

thread_local! {
    static SLOTS: RefCell<[Option<Slot>; 2]> = const { RefCell::new([None, None]) };
}

fn index(lang: Lang) -> usize {
    match lang {
        Lang::En => 0,
        Lang::Zh => 1,
    }
}

/// The status of `lang`'s file; `Loading` before anything asked for it.
pub fn status(lang: Lang) -> Status {
    SLOTS.with(|s| {
        s.borrow()[index(lang)]
            .as_ref()
            .map_or(Status::Loading, |slot| slot.status.clone())
    })
}

/// Starts fetching `lang`'s file unless it is loaded or on its way (a failed fetch is tried
/// again); `done` runs once the fetch ends, unless the file is already loaded.
pub fn request(lang: Lang, done: impl Fn() + 'static) {
    let start = SLOTS.with(|s| {
        let slot = &mut s.borrow_mut()[index(lang)];
        match slot {
            Some(Slot {
                status: Status::Loaded(_),
                ..
            }) => false,
            Some(Slot {
                status: Status::Loading,
                waiting,
            }) => {
                waiting.push(Rc::new(done));
                false
            }
            _ => {
                *slot = Some(Slot {
                    status: Status::Loading,
                    waiting: vec![Rc::new(done)],
                });
                true
            }
        }
    });
    if start {
        wasm_bindgen_futures::spawn_local(async move {
            let status = match fetch_text(&url(lang)).await {
                Ok(text) => Narrations::parse(&text).map_or_else(Status::Failed, Status::Loaded),
                Err(e) => Status::Failed(e),
            };
            settle(lang, status);
        });
    }
}

/// Records how `lang`'s fetch ended and tells whoever waited.
fn settle(lang: Lang, status: Status) {
    let waiting = SLOTS.with(|s| {
        let slot = s.borrow_mut()[index(lang)].replace(Slot {
            status,
            waiting: Vec::new(),
        });
        slot.map(|s| s.waiting).unwrap_or_default()
    });
    for listener in waiting {
        listener();
    }
}

/// The body of a same-origin GET as text, or why there is none.
async fn fetch_text(url: &str) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let why = |e: wasm_bindgen::JsValue| e.as_string().unwrap_or_else(|| format!("{e:?}"));
    let response = JsFuture::from(gloo::utils::window().fetch_with_str(url))
        .await
        .map_err(why)?;
    let response: web_sys::Response = response.dyn_into().map_err(why)?;
    if !response.ok() {
        return Err(format!("HTTP {} for {url}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(why)?)
        .await
        .map_err(why)?;
    text.as_string().ok_or_else(|| format!("{url} is not text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const EN: &str = include_str!("../../../www/text/narrations.en.txt");
    const ZH: &str = include_str!("../../../www/text/narrations.zh-CN.txt");

    #[test]
    fn every_preset_has_a_narration_in_both_languages() {
        let en = Narrations::parse(EN).expect("en");
        let zh = Narrations::parse(ZH).expect("zh");
        for name in flywheel_engine::scenario::presets::names() {
            let e = en
                .of(name)
                .unwrap_or_else(|| panic!("{name} has no English narration"));
            let z = zh
                .of(name)
                .unwrap_or_else(|| panic!("{name} has no Chinese narration"));
            assert!(e.len() > 100, "{name}: {e}");
            assert!(
                z.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{name}"
            );
        }
    }

    #[test]
    fn each_language_has_its_own_file() {
        assert_eq!(url(Lang::En), "www/text/narrations.en.txt");
        assert_eq!(url(Lang::Zh), "www/text/narrations.zh-CN.txt");
    }

    #[test]
    fn a_preset_is_found_by_its_whole_name_only() {
        let n = Narrations::parse("fixed\tconverges\nflywheel\tloops\n").expect("two lines");
        assert_eq!(n.of("flywheel"), Some("loops"));
        assert_eq!(n.of("fix"), None);
        assert_eq!(n.of("converges"), None);
    }

    #[test]
    fn a_line_without_a_tab_is_an_error() {
        assert_eq!(
            Narrations::parse("fixed\tconverges\n<html>\n"),
            Err("line 2 has no tab".to_owned())
        );
    }

    #[test]
    fn a_language_nobody_asked_for_is_loading_and_a_settled_one_is_loaded() {
        assert!(matches!(status(Lang::Zh), Status::Loading));
        let file = Narrations::parse("").expect("empty");
        settle(Lang::Zh, Status::Loaded(file));
        assert!(matches!(status(Lang::Zh), Status::Loaded(_)));
    }
}
