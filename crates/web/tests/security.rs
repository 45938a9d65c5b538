//! Security properties of the page, checked on its sources: the Content-Security-Policy allows
//! only the page's own origin (plus `'wasm-unsafe-eval'` to compile the module), nothing runs
//! code from strings, no HTML is built from input, and the embed mode never reads the parent page.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn rust_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let p = entry.path();
        if p.is_dir() {
            rust_sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The page's CSP, directive by directive.
fn csp() -> Vec<(String, Vec<String>)> {
    let html = read(&root().join("index.html"));
    assert_eq!(
        html.matches("http-equiv=\"Content-Security-Policy\"")
            .count(),
        1,
        "exactly one CSP meta tag"
    );
    let at = html
        .find("http-equiv=\"Content-Security-Policy\"")
        .expect("CSP");
    let rest = &html[at..];
    let start = rest.find("content=\"").expect("content") + "content=\"".len();
    let end = rest[start..].find('"').expect("closing quote") + start;
    rest[start..end]
        .split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            let mut words = d.split_whitespace().map(str::to_owned);
            let name = words.next().expect("directive name");
            (name, words.collect())
        })
        .collect()
}

#[test]
fn the_csp_allows_only_the_pages_own_origin_plus_wasm_unsafe_eval() {
    let policy = csp();
    let get = |name: &str| {
        policy
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("the CSP has {name}"))
    };
    assert_eq!(get("default-src"), ["'self'"]);
    assert_eq!(get("script-src"), ["'self'", "'wasm-unsafe-eval'"]);
    assert_eq!(get("object-src"), ["'none'"]);
    for (name, sources) in &policy {
        for s in sources {
            let allowed = matches!(s.as_str(), "'self'" | "'none'")
                || (name == "script-src" && s == "'wasm-unsafe-eval'")
                // Inline images the page draws itself (canvas exports); not another origin.
                || (name == "img-src" && s == "data:");
            assert!(allowed, "{name} allows {s}");
        }
    }
}

#[test]
fn the_page_has_no_inline_script_or_handler() {
    let html = read(&root().join("index.html"));
    for tag in html.split("<script").skip(1) {
        let head = &tag[..tag.find('>').expect("tag closes")];
        assert!(head.contains("src="), "inline <script{head}>");
    }
    for attr in [" onload=", " onclick=", " onerror=", "javascript:"] {
        assert!(!html.contains(attr), "index.html has {attr}");
    }
}

#[test]
fn no_source_evaluates_strings_or_builds_html_from_input() {
    let mut files = Vec::new();
    rust_sources(&root().join("crates/web/src"), &mut files);
    assert!(files.len() > 10);
    let js = root().join("www/boot.js");
    for path in files.iter().chain([&js]) {
        let text = read(path);
        for forbidden in [
            "eval(",
            "js_sys::eval",
            "Function::new",
            "new Function",
            "from_html_unchecked",
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "dangerously",
        ] {
            assert!(
                !text.contains(forbidden),
                "{} uses {forbidden}",
                path.display()
            );
        }
        // The only HTML assignment clears the mount point.
        for (i, _) in text.match_indices("set_inner_html(") {
            let arg = &text[i + "set_inner_html(".len()..];
            assert!(
                arg.starts_with("\"\")"),
                "{}: set_inner_html with content",
                path.display()
            );
        }
    }
}

#[test]
fn the_embed_mode_never_reads_the_parent_page() {
    let mut files = Vec::new();
    rust_sources(&root().join("crates/web/src"), &mut files);
    let js = root().join("www/boot.js");
    for path in files.iter().chain([&js]) {
        let text = read(path);
        for forbidden in [
            "window.parent",
            "window.top",
            "window.opener",
            "frame_element",
            "frameElement",
            "document.referrer",
            ".referrer()",
            "add_event_listener_with_callback(\"message\"",
            "addEventListener('message'",
            "addEventListener(\"message\"",
        ] {
            assert!(
                !text.contains(forbidden),
                "{} uses {forbidden}",
                path.display()
            );
        }
        // web_sys's Window::parent / top / opener.
        for line in text.lines().filter(|l| l.contains("window")) {
            for method in [".parent()", ".top()", ".opener()"] {
                assert!(!line.contains(method), "{}: {line}", path.display());
            }
        }
    }
}
