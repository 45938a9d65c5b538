//! The "myth vs upstream" cards as the page reads them from `www/text/myths.<lang>.txt`: a line
//! per card, `id<TAB>preset<TAB>claim<TAB>upstream<TAB>file…`, written from
//! `flywheel_engine::scenario::myths` by a test of [`crate::texts`].

use flywheel_engine::scenario::myths::Myth;

use crate::i18n::Lang;
use crate::texts::TextFile;

/// One card in one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card<'a> {
    /// The card's stable id (the page's element id is `myth-<id>`).
    pub id: &'a str,
    /// The preset that demonstrates it.
    pub preset: &'a str,
    /// The claim as the seed makes it.
    pub claim: &'a str,
    /// What upstream does, and so what the engine does.
    pub upstream: &'a str,
    /// The upstream files, `repository: path`.
    pub files: Vec<&'a str>,
}

/// The cards of a myths file, in its order; a line with fewer than four fields is skipped.
pub fn cards(file: &TextFile) -> Vec<Card<'_>> {
    file.entries()
        .filter_map(|(id, rest)| {
            let mut fields = rest.split('\t');
            Some(Card {
                id,
                preset: fields.next()?,
                claim: fields.next()?,
                upstream: fields.next()?,
                files: fields.collect(),
            })
        })
        .collect()
}

/// A card's line in the myths file of `lang`.
pub fn line(myth: &Myth, lang: Lang) -> String {
    let (claim, upstream) = match lang {
        Lang::En => (myth.claim_en, myth.upstream_en),
        Lang::Zh => (myth.claim_zh, myth.upstream_zh),
    };
    let mut fields = vec![myth.id, myth.preset, claim, upstream];
    fields.extend(myth.files);
    fields.join("\t")
}

#[cfg(test)]
mod tests {
    use super::*;
    use flywheel_engine::scenario::myths::MYTHS;

    #[test]
    fn a_card_reads_back_from_its_line_in_both_languages() {
        for lang in [Lang::En, Lang::Zh] {
            let text: String = MYTHS.iter().map(|m| line(m, lang) + "\n").collect();
            let file = TextFile::parse(&text).expect("parses");
            let cards = cards(&file);
            assert_eq!(cards.len(), MYTHS.len());
            for (card, myth) in cards.iter().zip(MYTHS) {
                assert_eq!((card.id, card.preset), (myth.id, myth.preset));
                assert_eq!(card.files, myth.files);
                assert!(!card.claim.is_empty() && !card.upstream.is_empty());
            }
        }
    }

    #[test]
    fn no_card_text_holds_a_tab_or_a_line_break() {
        for m in MYTHS {
            for text in [m.claim_en, m.claim_zh, m.upstream_en, m.upstream_zh]
                .iter()
                .chain(m.files)
            {
                assert!(!text.contains(['\t', '\n']), "{}", m.id);
            }
        }
    }

    #[test]
    fn every_card_runs_a_preset_that_exists() {
        for m in MYTHS {
            assert!(
                flywheel_engine::scenario::presets::exists(m.preset),
                "{}: {}",
                m.id,
                m.preset
            );
        }
    }

    #[test]
    fn a_line_short_of_fields_is_skipped() {
        let file = TextFile::parse("a\tfixed\tclaim\n").expect("parses");
        assert!(cards(&file).is_empty());
    }
}
