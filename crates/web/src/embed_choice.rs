//! What the embed builder lets an author choose, and the embed's address and height built from it:
//! the preset, A's fixes, an instant (`t=`) or a tour step (`tour=…&step=…`), width and height,
//! the panel under the charts, autoplay and the language. A refused choice names its field.

use crate::config::{round_instant_s, variant_from_str, RunConfig, UrlState, MAX_INSTANT_S};
use crate::embed_forms::with_tour;
use crate::embed_size::{embed_height, EmbedLayout};
use crate::i18n::Lang;
use crate::state::Tab;

/// The author's choices, as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct EmbedChoice {
    /// The preset's name.
    pub preset: String,
    /// A's fix tokens (`sub.status-patch.pred`); empty: the preset's.
    pub variant: String,
    /// The instant shown, simulated seconds as typed; empty: none.
    pub instant: String,
    /// The tour opened; empty: none.
    pub tour: String,
    /// The tour's step (from 1).
    pub step: u32,
    /// Width (CSS px).
    pub width: u32,
    /// Height (CSS px); `None`: what the layout needs.
    pub height: Option<u32>,
    /// The panel under the charts.
    pub panel: Option<Tab>,
    /// The embed starts playing.
    pub autoplay: bool,
    /// The embed's language; `None`: the reader's browser's.
    pub lang: Option<Lang>,
}

impl EmbedChoice {
    /// The choices that embed what `url` shows.
    pub fn from_url(url: &UrlState) -> EmbedChoice {
        let preset = RunConfig::preset(&url.config.preset);
        EmbedChoice {
            preset: url.config.preset.clone(),
            variant: if url.config.variant == preset.variant {
                String::new()
            } else {
                crate::config::variant_to_str(&url.config.variant)
            },
            instant: url.t.map(crate::config::trim_float).unwrap_or_default(),
            tour: String::new(),
            step: 1,
            width: 800,
            height: None,
            panel: None,
            autoplay: true,
            lang: url.lang,
        }
    }
}

/// A choice the embed cannot use: the field's id and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The field (`variant`, `instant`).
    pub field: &'static str,
    /// What was typed.
    pub value: String,
}

/// The embed's address and size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The query (without `?`).
    pub query: String,
    /// Width (CSS px).
    pub width: u32,
    /// Height (CSS px).
    pub height: u32,
}

/// Builds the embed of `c` on top of `base` (the page's state: its settings, B, speed, theme).
pub fn build(c: &EmbedChoice, base: &UrlState) -> Result<Built, Refused> {
    let mut u = base.clone();
    if c.preset != u.config.preset {
        u.config = RunConfig::preset(&c.preset);
    }
    u.config.variant = if c.variant.trim().is_empty() {
        RunConfig::preset(&c.preset).variant
    } else {
        variant_from_str(c.variant.trim()).map_err(|_| refused("variant", &c.variant))?
    };
    u.t = instant(&c.instant)?;
    u.embed = true;
    u.autoplay = c.autoplay;
    u.tab = c.panel;
    u.lang = c.lang;
    let layout = EmbedLayout {
        width: c.width,
        compare: u.compare.is_some(),
        panel: c.panel.is_some(),
    };
    let tour = (!c.tour.is_empty()).then(|| (c.tour.as_str(), c.step.max(1)));
    Ok(Built {
        query: with_tour(&u.to_query(), tour),
        width: c.width,
        height: c.height.unwrap_or_else(|| embed_height(&layout)),
    })
}

/// Parses an instant: empty is none, else seconds from 0 to [`MAX_INSTANT_S`].
fn instant(typed: &str) -> Result<Option<f64>, Refused> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Ok(None);
    }
    match typed.parse::<f64>() {
        Ok(t) if t.is_finite() && (0.0..=MAX_INSTANT_S).contains(&t) => {
            Ok(Some(round_instant_s(t)))
        }
        _ => Err(refused("instant", typed)),
    }
}

fn refused(field: &'static str, value: &str) -> Refused {
    Refused {
        field,
        value: value.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> UrlState {
        UrlState::from_query("preset=flywheel").0
    }

    #[test]
    fn the_built_embed_carries_every_choice_in_its_query() {
        let mut c = EmbedChoice::from_url(&base());
        c.variant = "sub.status-patch.pred".into();
        c.instant = "12.46".into();
        c.panel = Some(Tab::Code);
        c.lang = Some(Lang::Zh);
        c.tour = "flywheel".into();
        c.step = 3;
        let b = build(&c, &base()).expect("builds");
        for part in [
            "preset=flywheel",
            "v=sub.status-patch.pred",
            "t=12.4",
            "tab=code",
            "lang=zh",
            "embed=1",
            "autoplay=1",
            "tour=flywheel&step=3",
        ] {
            assert!(b.query.contains(part), "{part} in {}", b.query);
        }
    }

    #[test]
    fn a_chosen_height_overrides_what_the_layout_needs() {
        let mut c = EmbedChoice::from_url(&base());
        let auto = build(&c, &base()).expect("builds").height;
        c.height = Some(500);
        assert_eq!(build(&c, &base()).expect("builds").height, 500);
        c.height = None;
        c.panel = Some(Tab::Log);
        assert!(build(&c, &base()).expect("builds").height > auto);
    }

    #[test]
    fn unknown_fixes_and_a_bad_instant_are_refused_on_their_field() {
        let mut c = EmbedChoice::from_url(&base());
        c.variant = "sub.nope".into();
        assert_eq!(build(&c, &base()).map_err(|r| r.field), Err("variant"));
        c.variant.clear();
        c.instant = "-3".into();
        assert_eq!(build(&c, &base()).map_err(|r| r.field), Err("instant"));
    }

    #[test]
    fn another_preset_starts_from_its_own_fixes() {
        let mut c = EmbedChoice::from_url(&base());
        c.preset = "list-full-scan".into();
        let b = build(&c, &base()).expect("builds");
        assert!(b.query.starts_with("preset=list-full-scan"), "{}", b.query);
        assert!(!b.query.contains("v="), "{}", b.query);
    }
}
