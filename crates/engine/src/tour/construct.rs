//! Writes every tour as the Rust code that builds it (`tours_built.rs`), so that a build without
//! the `toml` feature (the page) has its tours as values, with neither a parser nor a
//! deserializer. The texts are left out (empty): the page reads them from
//! `www/text/tours.<lang>.txt` ([`super::text`]). The test below rewrites the file from the TOML
//! files and fails when it was out of date.

use std::fmt::Write as _;

use super::{Act, Choice, Question, Step, Text, Tour, Until};

fn s(v: &str) -> String {
    format!("String::from({v:?})")
}

fn opt<T>(v: Option<&T>, f: impl Fn(&T) -> String) -> String {
    v.map_or_else(|| "None".to_owned(), |v| format!("Some({})", f(v)))
}

/// A text, left out: the page has it from the tours' text files.
fn text(_: &Text) -> String {
    "Text::default()".to_owned()
}

fn act(a: &Act) -> String {
    format!("Act {{ at: {}, what: {} }}", s(&a.at), s(&a.what))
}

fn until(u: &Until) -> String {
    format!(
        "Until {{ marker: {}, converged: {:?}, self_triggered_reconciles: {:?} }}",
        opt(u.marker.as_ref(), |m| s(m)),
        u.converged,
        u.self_triggered_reconciles
    )
}

fn choice(c: &Choice) -> String {
    format!(
        "Choice {{ en: String::new(), zh: String::new(), shows: {} }}",
        s(&c.shows)
    )
}

fn question(q: &Question) -> String {
    let choices: Vec<String> = q.choices.iter().map(choice).collect();
    format!(
        "Question {{ text: {}, choices: vec![{}], answer: {}, explain: {} }}",
        text(&q.text),
        choices.join(", "),
        q.answer,
        text(&q.explain)
    )
}

fn step(st: &Step) -> String {
    let set: Vec<String> = st
        .set
        .iter()
        .map(|(k, v)| format!("({}, {})", s(k), s(v)))
        .collect();
    let acts: Vec<String> = st.act.iter().map(act).collect();
    format!(
        "Step {{ preset: {}, set: VecMap::from([{}]), act: vec![{}], seek: {}, until: {}, \
         limit: {}, point: {}, text: {}, question: {} }}",
        s(&st.preset),
        set.join(", "),
        acts.join(", "),
        opt(st.seek.as_ref(), |v| s(v)),
        opt(st.until.as_ref(), until),
        opt(st.limit.as_ref(), |v| s(v)),
        s(&st.point),
        text(&st.text),
        opt(st.question.as_ref(), question)
    )
}

fn tour(t: &Tour) -> String {
    let steps: Vec<String> = t.steps.iter().map(step).collect();
    format!(
        "Tour {{ id: {}, title: {}, steps: vec![{}] }}",
        s(&t.id),
        text(&t.title),
        steps.join(", ")
    )
}

const HEADER: &str = "//! Every tour built as a value, its texts left out (the page reads them from
//! `www/text/tours.<lang>.txt`), written from `crates/engine/tours/*.toml` by the test
//! `tour::construct::tests::the_built_tours_are_written_from_the_tour_files`
//! (`cargo test -p flywheel-engine --lib tour::construct` rewrites this file). Do not edit.

// One line per tour: the file is generated, not read.
#![allow(clippy::too_many_lines)]
#![cfg_attr(rustfmt, rustfmt_skip)]

use super::{Act, Choice, Question, Step, Text, Tour, Until};
use crate::vec_map::VecMap;

/// The tour `id` as a value, or `None` for an id that is not a tour.
pub fn built(id: &str) -> Option<Tour> {
    let tour = match id {
";

/// The text of `tours_built.rs`: a `built(id)` that builds each tour parsed from its file.
fn built_tours_code() -> String {
    let mut out = String::from(HEADER);
    for id in super::TOUR_IDS {
        let t = super::load(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        let _ = writeln!(out, "        {id:?} => {},", tour(&t));
    }
    out.push_str("        _ => return None,\n    };\n    Some(tour)\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_tours_are_written_from_the_tour_files() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/tour/tours_built.rs");
        let bless = "cargo test -p flywheel-engine --lib built_tours";
        let rewritten = crate::testing::bless_or_check(path.as_ref(), &built_tours_code(), bless);
        assert!(
            !rewritten,
            "{path} is rewritten: rebuild and run the tests again"
        );
    }

    /// `t` with every text left out, as the built tours have it.
    fn without_texts(mut t: Tour) -> Tour {
        t.title = Text::default();
        for st in &mut t.steps {
            st.text = Text::default();
            if let Some(q) = &mut st.question {
                q.text = Text::default();
                q.explain = Text::default();
                for c in &mut q.choices {
                    c.en.clear();
                    c.zh.clear();
                }
            }
        }
        t
    }

    #[test]
    fn every_built_tour_equals_its_tour_file_without_its_texts() {
        for id in super::super::TOUR_IDS {
            let parsed = super::super::load(id).expect("the tour parses");
            let built = super::super::tours_built::built(id);
            assert_eq!(built, Some(without_texts(parsed)), "{id}");
        }
    }
}
