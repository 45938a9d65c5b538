//! The first trace lines of a few short presets, checked in as text next to the hash table: when
//! a change alters the engine's behaviour, this test names the first line that diverged.
//!
//! After an intended change, rewrite the files with
//! `BLESS=1 cargo test -p flywheel-engine --test integration trace_goldens`.

use std::path::PathBuf;
use std::time::Duration;

use flywheel_engine::cluster::run::{Run, RunOptions};
use flywheel_engine::scenario::presets;

/// Most lines kept per preset.
const GOLDEN_LINES: usize = 200;

/// The presets with a golden file, how long each runs, and how many lines it gives in that
/// time (`fixed` converges: its whole run is 94 lines).
const GOLDENS: [(&str, Duration, usize); 3] = [
    ("flywheel", Duration::from_secs(10), GOLDEN_LINES),
    ("fixed", Duration::from_secs(10), 94),
    ("finalizer-deadlock", Duration::from_secs(5), GOLDEN_LINES),
];

fn golden_path(preset: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{preset}.trace"))
}

/// The first [`GOLDEN_LINES`] trace lines of `preset` with its own seed, one per line.
fn first_lines(preset: &str, duration: Duration) -> String {
    let scenario = presets::load(preset, &[]).expect("preset loads");
    let options = RunOptions {
        duration: Some(duration),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options).expect("run starts");
    let mut lines = Vec::with_capacity(GOLDEN_LINES);
    while lines.len() < GOLDEN_LINES {
        let seen = run.trace().total();
        let more = run.step();
        lines.extend(run.trace_since(seen).map(|e| format!("{e}\n")));
        if !more {
            break;
        }
    }
    lines.truncate(GOLDEN_LINES);
    lines.concat()
}

/// The first line where `got` differs from `want`, with its 1-based number.
fn first_difference(want: &str, got: &str) -> Option<String> {
    let (mut want_lines, mut got_lines) = (want.lines(), got.lines());
    for number in 1.. {
        match (want_lines.next(), got_lines.next()) {
            (None, None) => return None,
            (w, g) if w == g => continue,
            (w, g) => {
                let w = w.unwrap_or("(no line)");
                let g = g.unwrap_or("(no line)");
                return Some(format!("line {number}:\n  want: {w}\n  got:  {g}"));
            }
        }
    }
    None
}

#[test]
fn the_first_trace_lines_of_short_presets_match_their_golden_files() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for (preset, duration, lines) in GOLDENS {
        let got = first_lines(preset, duration);
        assert_eq!(
            got.lines().count(),
            lines,
            "{preset} gives {lines} lines within {duration:?}"
        );
        let path = golden_path(preset);
        if bless {
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("golden dir");
            std::fs::write(&path, &got).expect("write the golden file");
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if let Some(diff) = first_difference(&want, &got) {
            failures.push(format!("{preset} ({}): {diff}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "trace lines changed (bless with BLESS=1 if intended):\n{}",
        failures.join("\n")
    );
}

#[test]
fn a_difference_is_reported_at_its_first_line_with_both_texts() {
    assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
    assert_eq!(
        first_difference("a\nb\nc\n", "a\nx\nc\n").as_deref(),
        Some("line 2:\n  want: b\n  got:  x")
    );
    assert_eq!(
        first_difference("a\n", "a\nb\n").as_deref(),
        Some("line 2:\n  want: (no line)\n  got:  b")
    );
}
