//! Which custom resources a user's write acts on: the first few in key order (a scenario's
//! `count`, `--do delete:2`), all of them (`--do delete`), or one named by its key
//! (`--do delete:default/demo-3`).
//!
//! ```text
//!  ""                 ──▶ Target::All
//!  "2"                ──▶ Target::First(2)
//!  "default/demo-3"   ──▶ Target::Key("default/demo-3")
//! ```

use std::fmt;

/// The objects an intervention writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The first `n` objects in key order.
    First(u32),
    /// Every object.
    All,
    /// The object with this key (`namespace/name`).
    Key(String),
}

impl Target {
    /// The target of a scenario action's `count`: the first `count` objects, all without one.
    pub fn of_count(count: Option<u32>) -> Target {
        count.map_or(Target::All, Target::First)
    }

    /// Reads the text after `--do delete:` (`None` when there is none): a whole number of
    /// objects or an object's key `namespace/name`.
    pub fn parse(arg: Option<&str>) -> Result<Target, String> {
        let Some(arg) = arg else {
            return Ok(Target::All);
        };
        if let Some((namespace, name)) = arg.split_once('/') {
            if namespace.is_empty() || name.is_empty() || name.contains('/') {
                return Err(format!(
                    "an object's key after ':' must be namespace/name (got '{arg}')"
                ));
            }
            return Ok(Target::Key(arg.to_owned()));
        }
        arg.parse::<u32>().map(Target::First).map_err(|_| {
            format!(
                "after ':' comes a whole number of objects or an object's key namespace/name (got '{arg}')"
            )
        })
    }

    /// The key it names, for a single named object.
    pub fn key(&self) -> Option<&str> {
        match self {
            Target::Key(k) => Some(k),
            _ => None,
        }
    }

    /// Whether a cluster whose first objects are `keys` (in key order) has what it names; the
    /// error names the key and one that exists.
    pub fn check(&self, keys: &[String]) -> Result<(), String> {
        let Target::Key(key) = self else {
            return Ok(());
        };
        if keys.iter().any(|k| k == key) {
            return Ok(());
        }
        Err(match keys.first() {
            Some(one) => format!("there is no object {key} ({one} is one)"),
            None => format!("there is no object {key} (there are no objects yet)"),
        })
    }
}

/// The text after `:` in the `--do` form (empty for [`Target::All`]).
impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::First(n) => write!(f, "{n}"),
            Target::All => Ok(()),
            Target::Key(k) => f.write_str(k),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_a_key_and_nothing_read_as_their_targets() {
        assert_eq!(Target::parse(None), Ok(Target::All));
        assert_eq!(Target::parse(Some("2")), Ok(Target::First(2)));
        assert_eq!(
            Target::parse(Some("default/demo-3")),
            Ok(Target::Key("default/demo-3".into()))
        );
    }

    #[test]
    fn a_word_that_is_neither_a_count_nor_a_key_is_refused() {
        for bad in ["x", "/demo-3", "default/", "a/b/c", "-1"] {
            assert!(Target::parse(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_unknown_key_is_refused_naming_it_and_one_that_exists() {
        let keys = ["default/demo-0".to_owned(), "default/demo-1".to_owned()];
        let err = Target::Key("default/demo-9".into())
            .check(&keys)
            .expect_err("unknown");
        assert!(
            err.contains("default/demo-9") && err.contains("default/demo-0"),
            "{err}"
        );
        assert!(Target::Key("default/demo-1".into()).check(&keys).is_ok());
    }
}
