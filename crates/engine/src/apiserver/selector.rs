//! Equality-based label selectors (`a=b`, `a==b`, `a!=b`, `a`, `!a`), the subset of apimachinery
//! `pkg/labels/selector.go` that LIST and WATCH requests of a controller use. Set-based
//! requirements (`in`, `notin`) are not modelled.

use super::request::ApiError;
use crate::vec_map::VecMap;

/// One requirement of a selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Requirement {
    /// `key=value` / `key==value`.
    Equals(String, String),
    /// `key!=value` (also true when the key is absent, as upstream).
    NotEquals(String, String),
    /// `key`: the key is present.
    Exists(String),
    /// `!key`: the key is absent.
    DoesNotExist(String),
}

/// A conjunction of requirements; the empty selector matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSelector {
    /// All must hold.
    pub requirements: Vec<Requirement>,
}

impl LabelSelector {
    /// Parses `a=b,c!=d,e,!f`; an empty string is the everything-selector. A malformed term is a
    /// 400 BadRequest, as `labels.Parse` failures are.
    pub fn parse(text: &str) -> Result<LabelSelector, ApiError> {
        let mut requirements = Vec::new();
        for term in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            requirements.push(parse_term(term)?);
        }
        Ok(LabelSelector { requirements })
    }

    /// Whether `labels` (a nil map counts as empty) satisfy every requirement.
    pub fn matches(&self, labels: Option<&VecMap<String, String>>) -> bool {
        let get = |k: &String| labels.and_then(|l| l.get(k));
        self.requirements.iter().all(|r| match r {
            Requirement::Equals(k, v) => get(k) == Some(v),
            Requirement::NotEquals(k, v) => get(k) != Some(v),
            Requirement::Exists(k) => get(k).is_some(),
            Requirement::DoesNotExist(k) => get(k).is_none(),
        })
    }
}

fn parse_term(term: &str) -> Result<Requirement, ApiError> {
    let malformed = || ApiError::bad_request(format!("unable to parse requirement: {term:?}"));
    let valid = |s: &str| !s.is_empty() && !s.contains(['=', '!', ' ']);
    let (key, value, req): (&str, &str, fn(String, String) -> Requirement) =
        if let Some((k, v)) = term.split_once("!=") {
            (k, v, Requirement::NotEquals)
        } else if let Some((k, v)) = term.split_once("==") {
            (k, v, Requirement::Equals)
        } else if let Some((k, v)) = term.split_once('=') {
            (k, v, Requirement::Equals)
        } else if let Some(k) = term.strip_prefix('!') {
            return if valid(k.trim()) {
                Ok(Requirement::DoesNotExist(k.trim().to_owned()))
            } else {
                Err(malformed())
            };
        } else {
            return if valid(term) {
                Ok(Requirement::Exists(term.to_owned()))
            } else {
                Err(malformed())
            };
        };
    let (key, value) = (key.trim(), value.trim());
    if !valid(key) || value.contains(['=', '!', ' ']) {
        return Err(malformed());
    }
    Ok(req(key.to_owned(), value.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> VecMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn each_requirement_form_matches_as_upstream_defines_it() {
        let l = labels(&[("app", "web"), ("tier", "front")]);
        let yes = [
            "app=web",
            "app==web",
            "app!=db",
            "missing!=x",
            "tier",
            "!missing",
            "",
        ];
        let no = [
            "app=db",
            "app!=web",
            "missing",
            "!tier",
            "app=web,tier=back",
        ];
        for s in yes {
            assert!(LabelSelector::parse(s).expect(s).matches(Some(&l)), "{s}");
        }
        for s in no {
            assert!(!LabelSelector::parse(s).expect(s).matches(Some(&l)), "{s}");
        }
    }

    #[test]
    fn a_nil_label_map_matches_only_absence_requirements() {
        assert!(LabelSelector::parse("!a,b!=c")
            .expect("parses")
            .matches(None));
        assert!(!LabelSelector::parse("a").expect("parses").matches(None));
    }

    #[test]
    fn a_malformed_term_is_a_bad_request() {
        for s in ["=x", "a=b=c", "!", "a b"] {
            assert_eq!(LabelSelector::parse(s).map_err(|e| e.code), Err(400), "{s}");
        }
    }
}
