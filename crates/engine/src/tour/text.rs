//! The tours' long texts for the page, one file per language (`www/text/tours.<lang>.txt`), so
//! they stay out of the WebAssembly: a line per text, its address, a tab, the text.
//!
//! ```text
//!  flywheel.title          The death flywheel and its four fixes
//!  flywheel.1.text         Every write bumps resourceVersion …
//!  flywheel.1.question     Left alone for 30 seconds, …
//!  flywheel.1.choice.0     Yes, it settles
//!  flywheel.1.explain      Each Reconcile writes …
//! ```

#[cfg(feature = "toml")]
use std::fmt::Write as _;

#[cfg(feature = "toml")]
use super::Text;

/// The languages of the files: `en` and `zh-CN`.
pub const LANGUAGES: &[&str] = &["en", "zh-CN"];

#[cfg(feature = "toml")]
fn pick<'a>(t: &'a Text, code: &str) -> &'a str {
    if code == "en" {
        &t.en
    } else {
        &t.zh
    }
}

#[cfg(feature = "toml")]
fn line(out: &mut String, address: &str, text: &str) {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let _ = writeln!(out, "{address}\t{one_line}");
}

/// The texts file of the language `code`, every tour in order.
#[cfg(feature = "toml")]
pub fn tours_file(code: &str) -> Result<String, crate::scenario::ScenarioError> {
    let mut out = String::new();
    for id in super::TOUR_IDS {
        let tour = super::load(id)?;
        line(&mut out, &format!("{id}.title"), pick(&tour.title, code));
        for (i, step) in tour.steps.iter().enumerate() {
            let at = format!("{id}.{i}");
            line(&mut out, &format!("{at}.text"), pick(&step.text, code));
            if let Some(q) = &step.question {
                line(&mut out, &format!("{at}.question"), pick(&q.text, code));
                for (c, choice) in q.choices.iter().enumerate() {
                    let t = Text {
                        en: choice.en.clone(),
                        zh: choice.zh.clone(),
                    };
                    line(&mut out, &format!("{at}.choice.{c}"), pick(&t, code));
                }
                line(&mut out, &format!("{at}.explain"), pick(&q.explain, code));
            }
        }
    }
    Ok(out)
}

#[cfg(all(test, feature = "toml"))]
mod tests {
    use super::*;

    /// `www/text/tours.<lang>.txt` are written from the tour files: a stale one is rewritten
    /// with `BLESS=1 cargo test -p flywheel-engine --lib tour_text_files`.
    #[test]
    fn the_tour_text_files_are_written_from_the_tours() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        for code in LANGUAGES {
            let path = format!("{root}/www/text/tours.{code}.txt");
            let want = tours_file(code).expect("the tours load");
            let bless = "cargo test -p flywheel-engine --lib tour_text_files";
            crate::testing::bless_or_check(path.as_ref(), &want, bless);
        }
    }

    #[test]
    fn the_chinese_texts_use_no_english_words_other_than_identifiers() {
        let allowed = [
            "Reconcile",
            "Update",
            "watch",
            "informer",
            "key",
            "CRD",
            "resourceVersion",
            "generation",
            "GenerationChangedPredicate",
            "status.observedGeneration",
            "ObservedGeneration",
            "API",
            "DeltaFIFO",
            "kubelet",
            "CrashLoopBackOff",
            "Pod",
            "List",
            "FieldIndexer",
            "finalizer",
            "Terminating",
            "DELETED",
            "FIFO",
            "pendingNotifications",
            "OOMKilled",
            "status",
        ];
        let text = tours_file("zh-CN").expect("the tours load");
        for l in text.lines() {
            let body = l.split('\t').nth(1).unwrap_or_default();
            for word in body
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
                .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
            {
                let word = word.trim_matches('.');
                assert!(allowed.contains(&word), "{l}: '{word}'");
            }
        }
    }
}
