//! The page's texts as data: one keyed file per kind and language,
//! `www/text/<kind>.<lang>.txt`, a line per entry (its key, a tab, its text). The page fetches a
//! file the first time it needs it, so the text of neither language sits in the WebAssembly.
//!
//! The labels and the myth cards are written from the Rust source (`Msg` in [`crate::i18n`] and
//! the settings' words,
//! `flywheel_engine::scenario::myths`) by this module's tests, which fail when a checked-in file
//! is stale (`BLESS=1 cargo test -p flywheel-web texts` rewrites them); the narrations are
//! written from the presets' files (`[text.<lang>]` in `crates/engine/scenarios/*.toml`) by the
//! engine's test `scenario::text` (`BLESS=1 cargo test -p flywheel-engine --lib narration_files`).

use std::cell::RefCell;
use std::rc::Rc;

use crate::i18n::{self, Lang};

/// What a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The page's labels, a line per `Msg` in declaration order; needed before the first render.
    Labels,
    /// The "myth vs upstream" cards, a line per card.
    Myths,
    /// The presets' narrations, a line per preset.
    Narrations,
    /// The guided tours' texts (`tour.step.field`), written by the engine's tour module.
    Tours,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 4] = [Kind::Labels, Kind::Myths, Kind::Narrations, Kind::Tours];

    /// The kind's part of the file name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Labels => "labels",
            Kind::Myths => "myths",
            Kind::Narrations => "narrations",
            Kind::Tours => "tours",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Where a kind's file of a language is, relative to the page.
pub fn url(kind: Kind, lang: Lang) -> String {
    format!("www/text/{}.{}.txt", kind.name(), lang.code())
}

/// One file of texts: its lines, `key<TAB>text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextFile(String);

impl TextFile {
    /// Takes a file's text; an error when a line is not `key<TAB>text`.
    pub fn parse(text: &str) -> Result<Rc<TextFile>, String> {
        match text.lines().position(|l| !l.contains('\t')) {
            Some(n) => Err(format!("line {} has no tab", n + 1)),
            None => Ok(Rc::new(TextFile(text.to_owned()))),
        }
    }

    /// The text of `key`; `None` when no line has that key.
    pub fn of(&self, key: &str) -> Option<&str> {
        self.entries()
            .find_map(|(k, text)| (k == key).then_some(text))
    }

    /// Every `(key, text)`, in the file's order.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.lines().filter_map(|l| l.split_once('\t'))
    }
}

/// Where a file is.
#[derive(Clone, Debug)]
pub enum Status {
    /// Being fetched.
    Loading,
    /// Fetched and parsed.
    Loaded(Rc<TextFile>),
    /// The fetch or the parse failed, with why.
    Failed(String),
}

type Listener = Rc<dyn Fn()>;

/// One file and who waits for it.
struct Slot {
    status: Status,
    waiting: Vec<Listener>,
}

const LANGS: usize = 2;

thread_local! {
    static SLOTS: RefCell<[[Option<Slot>; LANGS]; 4]> = const {
        RefCell::new([[None, None], [None, None], [None, None], [None, None]])
    };
}

fn lang_index(lang: Lang) -> usize {
    match lang {
        Lang::En => 0,
        Lang::Zh => 1,
    }
}

/// The status of a file; `Loading` before anything asked for it.
pub fn status(kind: Kind, lang: Lang) -> Status {
    SLOTS.with(|s| {
        s.borrow()[kind.index()][lang_index(lang)]
            .as_ref()
            .map_or(Status::Loading, |slot| slot.status.clone())
    })
}

/// Whether a file is fetched and parsed.
pub fn is_loaded(kind: Kind, lang: Lang) -> bool {
    matches!(status(kind, lang), Status::Loaded(_))
}

/// Starts fetching a file unless it is loaded or on its way (a failed fetch is tried again);
/// `done` runs once the fetch ends, unless the file is already loaded.
pub fn request(kind: Kind, lang: Lang, done: impl Fn() + 'static) {
    let start = SLOTS.with(|s| {
        let slot = &mut s.borrow_mut()[kind.index()][lang_index(lang)];
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
            let status = match fetch_text(&url(kind, lang)).await {
                Ok(text) => accept(kind, lang, &text),
                Err(e) => Status::Failed(e),
            };
            settle(kind, lang, status);
        });
    }
}

/// Takes a file's text as if it had been fetched (the browser tests give the checked-in files);
/// an error when it does not parse.
pub fn install(kind: Kind, lang: Lang, text: &str) -> Result<(), String> {
    let status = accept(kind, lang, text);
    let result = match &status {
        Status::Failed(why) => Err(why.clone()),
        _ => Ok(()),
    };
    settle(kind, lang, status);
    result
}

/// Parses a file; the labels also become what `Msg::text` returns.
fn accept(kind: Kind, lang: Lang, text: &str) -> Status {
    let file = match TextFile::parse(text) {
        Ok(file) => file,
        Err(why) => return Status::Failed(format!("{}: {why}", url(kind, lang))),
    };
    if kind == Kind::Labels {
        if let Err(why) = i18n::install(lang, &file) {
            return Status::Failed(format!("{}: {why}", url(kind, lang)));
        }
    }
    Status::Loaded(file)
}

/// Records how a fetch ended and tells whoever waited.
fn settle(kind: Kind, lang: Lang, status: Status) {
    let waiting = SLOTS.with(|s| {
        let slot = s.borrow_mut()[kind.index()][lang_index(lang)].replace(Slot {
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
    use crate::i18n::Msg;
    use crate::myth_cards;

    const NARRATIONS_EN: &str = include_str!("../../../www/text/narrations.en.txt");
    const NARRATIONS_ZH: &str = include_str!("../../../www/text/narrations.zh-CN.txt");

    /// What the labels file of `lang` holds: a line per message, in declaration order, then each
    /// setting's label and help, in the registry's order, then each preset's title and summary,
    /// in the presets' order.
    fn labels_file(lang: Lang) -> String {
        let messages = Msg::ALL
            .iter()
            .map(|m| format!("{m:?}\t{}\n", m.source(lang)));
        let settings = flywheel_engine::settings::SETTINGS.iter().map(|s| {
            let (label, help) = crate::i18n::source_words(s, lang);
            format!("{}.label\t{label}\n{}.help\t{help}\n", s.path, s.path)
        });
        let presets = flywheel_engine::scenario::presets::names().map(|name| {
            let (title, summary) = crate::i18n::source_preset_words(name, lang);
            format!("{name}.title\t{title}\n{name}.summary\t{summary}\n")
        });
        messages.chain(settings).chain(presets).collect()
    }

    /// What the myths file of `lang` holds: a line per card, in the page's order.
    fn myths_file(lang: Lang) -> String {
        flywheel_engine::scenario::myths::MYTHS
            .iter()
            .map(|m| myth_cards::line(m, lang) + "\n")
            .collect()
    }

    #[test]
    fn the_labels_and_myth_files_are_written_from_the_rust_source() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let bless = std::env::var_os("BLESS").is_some();
        let mut stale = Vec::new();
        for lang in [Lang::En, Lang::Zh] {
            for (kind, want) in [
                (Kind::Labels, labels_file(lang)),
                (Kind::Myths, myths_file(lang)),
            ] {
                assert!(
                    want.lines().all(|l| l.contains('\t')),
                    "{kind:?} {lang}: every line has a key"
                );
                let path = format!("{root}/{}", url(kind, lang));
                let have = std::fs::read_to_string(&path).unwrap_or_default();
                if have == want {
                    continue;
                }
                if bless {
                    std::fs::write(&path, want).expect("the text file is written");
                } else {
                    stale.push(path);
                }
            }
        }
        assert!(
            stale.is_empty(),
            "stale (rewrite with BLESS=1 cargo test -p flywheel-web texts): {stale:?}"
        );
    }

    #[test]
    fn every_label_has_one_line_and_no_line_breaks() {
        for lang in [Lang::En, Lang::Zh] {
            for m in Msg::ALL {
                let text = m.source(lang);
                assert!(!text.is_empty(), "{m:?} {lang}");
                assert!(!text.contains(['\n', '\t']), "{m:?} {lang}");
            }
        }
    }

    #[test]
    fn every_preset_has_a_narration_in_both_languages() {
        let en = TextFile::parse(NARRATIONS_EN).expect("en");
        let zh = TextFile::parse(NARRATIONS_ZH).expect("zh");
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
    fn each_kind_and_language_has_its_own_file() {
        assert_eq!(
            url(Kind::Narrations, Lang::En),
            "www/text/narrations.en.txt"
        );
        assert_eq!(
            url(Kind::Narrations, Lang::Zh),
            "www/text/narrations.zh-CN.txt"
        );
        assert_eq!(url(Kind::Labels, Lang::Zh), "www/text/labels.zh-CN.txt");
        assert_eq!(url(Kind::Myths, Lang::En), "www/text/myths.en.txt");
    }

    #[test]
    fn a_key_is_found_by_its_whole_name_only() {
        let n = TextFile::parse("fixed\tconverges\nflywheel\tloops\n").expect("two lines");
        assert_eq!(n.of("flywheel"), Some("loops"));
        assert_eq!(n.of("fix"), None);
        assert_eq!(n.of("converges"), None);
    }

    #[test]
    fn a_line_without_a_tab_is_an_error() {
        assert_eq!(
            TextFile::parse("fixed\tconverges\n<html>\n"),
            Err("line 2 has no tab".to_owned())
        );
    }

    #[test]
    fn a_file_nobody_asked_for_is_loading_and_a_settled_one_is_loaded() {
        assert!(matches!(
            status(Kind::Narrations, Lang::Zh),
            Status::Loading
        ));
        let file = TextFile::parse("").expect("empty");
        settle(Kind::Narrations, Lang::Zh, Status::Loaded(file));
        assert!(is_loaded(Kind::Narrations, Lang::Zh));
        assert!(!is_loaded(Kind::Myths, Lang::Zh), "kinds are apart");
    }

    #[test]
    fn a_labels_file_with_a_line_missing_is_refused() {
        let mut text = labels_file(Lang::En);
        text.truncate(text.trim_end().rfind('\n').expect("many lines") + 1);
        let refused = install(Kind::Labels, Lang::En, &text).expect_err("one label short");
        assert!(refused.contains("labels.en.txt"), "{refused}");
        assert!(matches!(status(Kind::Labels, Lang::En), Status::Failed(_)));
        install(Kind::Labels, Lang::En, &labels_file(Lang::En)).expect("the whole file");
        assert!(is_loaded(Kind::Labels, Lang::En));
    }
}
