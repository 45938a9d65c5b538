//! Converts every preset under `scenarios/` from TOML to JSON at build time, so that builds
//! without the `toml` feature (the page) can load presets without a TOML parser.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=scenarios");
    let dir = Path::new("scenarios");
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.retain(|p| p.extension().is_some_and(|e| e == "toml"));
    entries.sort();
    let mut out =
        String::from("/// `(name, JSON)` of every preset file, converted at build time.\n");
    out.push_str("pub const PRESET_JSON: &[(&str, &str)] = &[\n");
    for path in entries {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let value: toml::Table = match text.parse() {
            Ok(v) => v,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        let json = serde_json::to_string(&value).unwrap_or_default();
        let _ = writeln!(out, "    ({name:?}, {json:?}),");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap_or_default()).join("preset_json.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {e}", dest.display());
    }
}
