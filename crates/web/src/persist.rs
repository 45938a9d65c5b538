//! No lost work: the user's settings survive a reload (`localStorage`) and travel as a file.
//!
//! The stored form is the URL state's query under a format line, e.g.
//! `flywheel-settings/1\npreset=fixed&workers=4`, so it is validated by exactly the parser that
//! reads hand-edited URLs. The URL wins when it carries a query; otherwise the stored settings are
//! used. A stored value that does not read back cleanly is reported (a notice naming what was
//! wrong), moved aside to [`CORRUPT_KEY`] and replaced by the defaults — never a crash. The embed
//! mode neither reads nor writes the storage (a docs widget shows what its URL says).

use crate::config::{Ignored, UrlState};
use crate::reasons::{looks_binary, Reason};

/// The `localStorage` key of the settings.
pub const STORAGE_KEY: &str = "flywheel.settings";
/// Where an unreadable stored value is set aside.
pub const CORRUPT_KEY: &str = "flywheel.settings.corrupt";
/// The first line of the stored value and of an exported file.
pub const FORMAT: &str = "flywheel-settings/1";
/// Largest stored value or imported file read.
pub const MAX_BYTES: usize = 64 * 1024;
/// The file name an export suggests.
pub const EXPORT_FILE_NAME: &str = "flywheel-settings.txt";

/// The stored (and exported) text of `url`; the embed flags are the page's, not the user's.
pub fn encode(url: &UrlState) -> String {
    let own = UrlState {
        embed: false,
        autoplay: false,
        ..url.clone()
    };
    format!("{FORMAT}\n{}\n", own.to_query())
}

/// Reads a stored value or an imported file back; any problem is an error that says what
/// (binary data is described, never echoed).
pub fn decode(text: &str) -> Result<UrlState, Reason> {
    if text.len() > MAX_BYTES {
        return Err(Reason::TooManyBytes {
            bytes: text.len() as u64,
            max: MAX_BYTES as u64,
        });
    }
    if looks_binary(text) {
        return Err(Reason::NotText);
    }
    let mut lines = text.lines();
    match lines.next().map(str::trim) {
        Some(FORMAT) => {}
        Some("") | None if text.trim().is_empty() => return Err(Reason::Empty),
        Some(other) => return Err(Reason::NoFormatLine(other.to_owned())),
        None => return Err(Reason::Empty),
    }
    let query = lines.next().unwrap_or_default().trim();
    if lines.any(|l| !l.trim().is_empty()) {
        return Err(Reason::ExtraLines);
    }
    let (url, ignored) = UrlState::from_query(query);
    if let Some(bad) = ignored.into_iter().next() {
        return Err(Reason::Setting {
            key: flywheel_engine::scenario::messages::escaped(&bad.key),
            why: Box::new(bad.reason),
        });
    }
    if url.embed || url.autoplay {
        return Err(Reason::EmbedNotStored);
    }
    Ok(url)
}

/// What the page starts with.
#[derive(Clone, Debug, PartialEq)]
pub struct Initial {
    /// The state.
    pub url: UrlState,
    /// URL parameters that were ignored.
    pub ignored: Vec<Ignored>,
    /// Why the stored settings were set aside, if they were.
    pub corrupt: Option<Reason>,
    /// Whether the state came from storage.
    pub from_storage: bool,
}

/// The starting state from the address bar's `query` and the `stored` settings: the URL wins
/// when it has parameters; unreadable stored settings are reported in `corrupt`.
pub fn initial(query: &str, stored: Option<&str>) -> Initial {
    let query = query.trim_start_matches('?');
    let (url, ignored) = UrlState::from_query(query);
    if !query.is_empty() || url.embed {
        return Initial {
            url,
            ignored,
            corrupt: None,
            from_storage: false,
        };
    }
    match stored.map(decode) {
        Some(Ok(url)) => Initial {
            url,
            ignored,
            corrupt: None,
            from_storage: true,
        },
        Some(Err(e)) => Initial {
            url,
            ignored,
            corrupt: Some(e),
            from_storage: false,
        },
        None => Initial {
            url,
            ignored,
            corrupt: None,
            from_storage: false,
        },
    }
}

fn storage() -> Option<web_sys::Storage> {
    // Throws in sandboxed iframes and some privacy modes: then nothing is stored.
    gloo::utils::window().local_storage().ok().flatten()
}

/// The stored settings, if any (and readable at all).
pub fn load_stored() -> Option<String> {
    storage()?.get_item(STORAGE_KEY).ok().flatten()
}

/// Stores `url`'s settings (not in embed mode); failures (quota, no storage) are ignored.
pub fn save(url: &UrlState) {
    if url.embed {
        return;
    }
    if let Some(s) = storage() {
        // the instant shown belongs to a link, not to the next visit
        let url = UrlState {
            t: None,
            ..url.clone()
        };
        let _ = s.set_item(STORAGE_KEY, &encode(&url));
    }
}

/// Moves an unreadable stored value to [`CORRUPT_KEY`] so it is neither lost nor read again.
pub fn set_aside(text: &str) {
    if let Some(s) = storage() {
        let kept: String = text.chars().take(MAX_BYTES).collect();
        let _ = s.set_item(CORRUPT_KEY, &kept);
        let _ = s.remove_item(STORAGE_KEY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{RunConfig, Theme};
    use crate::i18n::Lang;
    use flywheel_engine::scenario::Profile;

    fn custom() -> UrlState {
        let mut st = UrlState {
            config: RunConfig::preset("predicate-only"),
            ..UrlState::default()
        };
        st.config
            .params
            .insert("controller.workers".into(), "7".into());
        st.config
            .params
            .insert("objects.count".into(), "123".into());
        st.config.seed = 4242;
        st.config.profile = Profile::Modern;
        st.config.variant.status_subresource = true;
        st.compare = Some(RunConfig::preset("fixed").variant);
        st.speed = 250.0;
        st.lang = Some(Lang::Zh);
        st.theme = Theme::Dark;
        st
    }

    #[test]
    fn settings_round_trip_exactly_through_storage_and_files() {
        let st = custom();
        let text = encode(&st);
        assert!(text.starts_with(FORMAT));
        assert_eq!(decode(&text), Ok(st.clone()));
        assert_eq!(encode(&decode(&text).expect("reads back")), text);
        // Windows line endings from a file edited elsewhere.
        assert_eq!(decode(&text.replace('\n', "\r\n")), Ok(st));
    }

    #[test]
    fn a_settings_key_or_value_that_decodes_to_a_line_break_is_named_on_one_line() {
        // Found by tests/fuzz.sh at 100000 cases.
        let e = decode("flywheel-settings/1\n%0a\n").expect_err("unknown key");
        assert_eq!(e.text(Lang::En), "\\n: unknown parameter");
        let e = decode("flywheel-settings/1\npreset=%0aflywheel\n").expect_err("bad preset");
        assert_eq!(
            e.text(Lang::En),
            "preset: unknown preset the value (not readable text)"
        );
    }

    #[test]
    fn the_url_wins_over_stored_settings() {
        let stored = encode(&custom());
        let i = initial("?preset=fixed", Some(&stored));
        assert_eq!(i.url.config.preset, "fixed");
        assert!(!i.from_storage);
        let i = initial("", Some(&stored));
        assert_eq!(i.url, custom());
        assert!(i.from_storage);
        let i = initial("?embed=1", Some(&stored));
        assert_eq!(i.url.config.preset, "flywheel", "an embed ignores storage");
    }

    #[test]
    fn corrupted_stored_values_are_reported_and_the_defaults_used() {
        let good = encode(&custom());
        let cases = [
            "",
            "garbage",
            "flywheel-settings/2\npreset=fixed",
            "flywheel-settings/1\npreset=nope",
            "flywheel-settings/1\nworkers=100000",
            "flywheel-settings/1\npreset=fixed\nmore",
            "flywheel-settings/1\nembed=1",
            &good[..good.len() / 2],
            "\u{0}\u{ffff}",
        ];
        for stored in cases {
            let i = initial("", Some(stored));
            if stored == &good[..good.len() / 2] && i.corrupt.is_none() {
                // A cut that happens to end between parameters is still a valid state.
                continue;
            }
            assert!(i.corrupt.is_some(), "{stored:?} was accepted");
            assert_eq!(i.url, UrlState::default(), "{stored:?}");
        }
        let big = format!("{FORMAT}\n{}", "a".repeat(MAX_BYTES));
        assert!(decode(&big).is_err());
    }
}
