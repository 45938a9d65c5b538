use super::*;
use crate::scenario::units::{parse_bytes, parse_duration};
use crate::scenario::{parse, presets};

const MINIMAL: &str = "name = \"minimal\"\ntitle = \"t\"\n[reconcile]\nsteps = [\"get\"]\n";

/// The value at a dotted path of a document, if present.
fn at<'a>(doc: &'a toml::Table, path: &str) -> Option<&'a toml::Value> {
    let (head, rest) = path
        .split_once('.')
        .map_or((path, None), |(h, r)| (h, Some(r)));
    match (doc.get(head)?, rest) {
        (toml::Value::Table(t), Some(rest)) => at(t, rest),
        (v, None) => Some(v),
        _ => None,
    }
}

/// A number's value in its unit (milliseconds, bytes), as the file holds it.
fn number(n: &Number, v: &toml::Value) -> Option<f64> {
    match (n.unit, v) {
        (Unit::Duration, toml::Value::String(s)) => {
            parse_duration(s).ok().map(|d| d.as_secs_f64() * 1e3)
        }
        (Unit::Bytes, toml::Value::String(s)) => parse_bytes(s).ok().map(|b| b as f64),
        (_, toml::Value::Integer(i)) => Some(*i as f64),
        (_, toml::Value::Float(f)) => Some(*f),
        _ => None,
    }
}

/// Whether `v` is a value the setting's kind holds, within its range.
fn holds(setting: &Setting, v: &toml::Value) -> bool {
    let named = |choices: &[Choice], v: &toml::Value| {
        v.as_str()
            .is_some_and(|s| choices.iter().any(|c| c.name == s))
    };
    match (&setting.kind, v) {
        (Kind::Bool, toml::Value::Boolean(_)) => true,
        (Kind::Choice(choices), v) => named(choices, v),
        (Kind::ChoiceList(choices), toml::Value::Array(items)) => {
            items.iter().all(|i| named(choices, i))
        }
        (Kind::Number(n), v) => number(n, v).is_some_and(|x| n.contains(x)),
        _ => false,
    }
}

fn as_table(s: &crate::scenario::Scenario) -> toml::Table {
    toml::Table::try_from(s).expect("a scenario serializes")
}

#[test]
fn every_path_is_declared_once() {
    let mut paths: Vec<&str> = SETTINGS.iter().map(|s| s.path).collect();
    paths.sort_unstable();
    let n = paths.len();
    paths.dedup();
    assert_eq!(paths.len(), n, "a path is declared twice");
}

#[test]
fn every_range_covers_every_presets_value() {
    for name in presets::names() {
        let doc = as_table(&presets::load(name, &[]).expect("preset"));
        for setting in SETTINGS {
            if let Some(v) = at(&doc, setting.path) {
                assert!(
                    holds(setting, v),
                    "{name}: {} = {v} is outside {}",
                    setting.path,
                    setting.kind.accepts()
                );
            }
        }
    }
}

#[test]
fn every_default_is_what_a_scenario_that_leaves_it_out_holds() {
    let doc = as_table(&parse(MINIMAL, &[]).expect("minimal"));
    for setting in SETTINGS {
        let have = at(&doc, setting.path);
        if setting.default.is_empty() {
            assert!(have.is_none(), "{} has a value when left out", setting.path);
            continue;
        }
        let want: toml::Value = format!("v = {}", toml_literal(setting))
            .parse::<toml::Table>()
            .expect("a default parses")
            .remove("v")
            .expect("v");
        let have = have.unwrap_or_else(|| panic!("{} is missing", setting.path));
        let same = match &setting.kind {
            Kind::Number(n) => number(n, have) == number(n, &want),
            _ => *have == want,
        };
        assert!(
            same,
            "{}: default {} but a scenario holds {have}",
            setting.path, setting.default
        );
        assert!(
            holds(setting, have),
            "{}: the default is in range",
            setting.path
        );
    }
}

/// The default as a TOML literal (strings quoted).
fn toml_literal(setting: &Setting) -> String {
    let quoted = match setting.kind {
        Kind::Choice(_) => true,
        Kind::Number(n) => matches!(n.unit, Unit::Duration | Unit::Bytes),
        _ => false,
    };
    if quoted {
        format!("{:?}", setting.default)
    } else {
        setting.default.to_owned()
    }
}

fn last(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or(path)
}

/// An end may still clash with another setting's value (`pods.metadata_size_bytes` is at most
/// `pods.size_bytes`): then the error names that other setting, or it by name.
#[test]
fn the_ends_of_every_number_range_are_accepted_by_the_scenario() {
    for setting in SETTINGS {
        let Kind::Number(n) = setting.kind else {
            continue;
        };
        if setting.path == "seed" {
            continue;
        }
        for end in [n.min, n.max] {
            let value = match n.unit {
                Unit::Duration | Unit::Bytes => format!("{:?}", n.show(end)),
                _ => n.show(end),
            };
            let sets = [(setting.path.to_owned(), value.clone())];
            if let Err(e) = parse(MINIMAL, &sets) {
                let names_another = SETTINGS.iter().any(|other| {
                    other.path != setting.path
                        && (e.field == other.path || e.message.contains(last(other.path)))
                });
                assert!(names_another, "{} = {value}: {e}", setting.path);
            }
        }
    }
}

#[test]
fn every_setting_has_a_label_and_help_in_both_languages() {
    assert_eq!(WORDS.len(), SETTINGS.len());
    for s in SETTINGS {
        let w = s.words().expect("a setting of the table has words");
        for text in [w.label.en, w.label.zh, w.help.en, w.help.zh] {
            assert!(!text.is_empty() && !text.contains('\n'), "{}", s.path);
        }
        assert!(
            w.help
                .zh
                .chars()
                .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{}",
            s.path
        );
    }
}

#[test]
fn an_unknown_path_is_refused_with_the_nearest_setting() {
    let e = check_path("controller.workrs").expect_err("a typo");
    assert_eq!(e.field, "controller.workers".replace("workers", "workrs"));
    assert_eq!(
        e.message,
        "is not a setting (did you mean controller.workers?)"
    );
    assert!(check_path("controller.workers").is_ok());
    let e = check_path("nothing.like.it.at.all").expect_err("unknown");
    assert!(
        e.message.contains("paths such as controller.workers"),
        "{e}"
    );
}
