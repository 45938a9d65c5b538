//! The known setting a mistyped path most resembles, by edit distance (as `git` and `cargo`
//! suggest a command).

use super::{Setting, SETTINGS};

/// The setting whose path is fewest single-character edits from `path`, when that is at most a
/// third of its length (else the mistake is no typo); ties go to the first in the table.
pub fn nearest(path: &str) -> Option<&'static Setting> {
    let (best, distance) = SETTINGS
        .iter()
        .map(|s| (s, edits(path, s.path)))
        .min_by_key(|(_, d)| *d)?;
    (distance <= best.path.len().max(3) / 3).then_some(best)
}

/// Levenshtein distance between `a` and `b`, by characters.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_count_insertions_deletions_and_substitutions() {
        assert_eq!(edits("workers", "workers"), 0);
        assert_eq!(edits("workrs", "workers"), 1);
        assert_eq!(edits("wockers", "workers"), 1);
        assert_eq!(edits("", "abc"), 3);
    }

    #[test]
    fn a_typo_finds_its_setting_and_nonsense_finds_none() {
        assert_eq!(
            nearest("controller.workrs").map(|s| s.path),
            Some("controller.workers")
        );
        assert_eq!(
            nearest("code.podlist").map(|s| s.path),
            Some("code.pod_list")
        );
        assert_eq!(nearest("zzzzzzzzzzzz"), None);
    }
}
