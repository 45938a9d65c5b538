//! Helpers the engine's unit tests share.

use std::path::Path;

/// Checks that the committed file at `path` holds `want`, the text the engine writes now.
///
/// A stale file fails the test naming the file and `bless`, the command that rewrites it; run
/// with `BLESS=1`, it is rewritten instead and the call returns `true` (a file the crate
/// compiles in, like `presets_built.rs`, then needs a rebuild before it counts).
pub(crate) fn bless_or_check(path: &Path, want: &str, bless: &str) -> bool {
    let have = std::fs::read_to_string(path).unwrap_or_default();
    if have == want {
        return false;
    }
    let shown = path.display();
    assert!(
        std::env::var_os("BLESS").is_some(),
        "{shown} is stale: rewrite it with BLESS=1 {bless}"
    );
    std::fs::write(path, want).unwrap_or_else(|e| panic!("{shown} is not writable: {e}"));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("flywheel-bless-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("the temp dir is writable");
        dir.join(name)
    }

    #[test]
    fn a_file_that_holds_the_text_passes_and_is_left_alone() {
        let path = scratch("same.txt");
        std::fs::write(&path, "text\n").expect("writable");
        assert!(!bless_or_check(&path, "text\n", "cargo test"));
        assert_eq!(
            std::fs::read_to_string(&path).ok().as_deref(),
            Some("text\n")
        );
    }

    #[test]
    fn a_stale_file_fails_naming_the_file_and_the_command_that_rewrites_it() {
        if std::env::var_os("BLESS").is_some() {
            return;
        }
        let path = scratch("stale.txt");
        std::fs::write(&path, "old\n").expect("writable");
        let failure = std::panic::catch_unwind(|| bless_or_check(&path, "new\n", "cargo test x"))
            .expect_err("a stale file fails");
        let message = failure
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert!(message.contains("stale.txt is stale"), "{message}");
        assert!(message.contains("BLESS=1 cargo test x"), "{message}");
        assert_eq!(
            std::fs::read_to_string(&path).ok().as_deref(),
            Some("old\n")
        );
    }
}
