//! The forms an embed is pasted in: an HTML `<iframe>`, the same in MDX (Docusaurus and other
//! React-based generators, where `style` is an object and every tag closes), and a raw HTML block
//! for Markdown generators such as MkDocs (a `<div>` on its own lines, which Markdown passes
//! through untouched). Also the embed's query with a tour step (`tour=…&step=…`).

/// A form of the snippet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnippetForm {
    /// An HTML `<iframe>`.
    Html,
    /// An `<iframe>` in MDX (JSX attributes).
    Mdx,
    /// A raw HTML block in Markdown (MkDocs).
    Markdown,
}

impl SnippetForm {
    /// Every form, in the order offered.
    pub const ALL: [SnippetForm; 3] = [SnippetForm::Html, SnippetForm::Mdx, SnippetForm::Markdown];

    /// The form's value in the dialog's select.
    pub fn as_str(self) -> &'static str {
        match self {
            SnippetForm::Html => "html",
            SnippetForm::Mdx => "mdx",
            SnippetForm::Markdown => "markdown",
        }
    }

    /// Parses [`SnippetForm::as_str`].
    pub fn parse(s: &str) -> Option<SnippetForm> {
        SnippetForm::ALL.into_iter().find(|f| f.as_str() == s)
    }
}

/// What a snippet embeds.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame<'a> {
    /// The embed's address.
    pub url: &'a str,
    /// Width (CSS px).
    pub width: u32,
    /// Height (CSS px).
    pub height: u32,
    /// The iframe's accessible title.
    pub title: &'a str,
}

/// Escapes `"`, `&`, `<` and `>` for an HTML attribute.
fn attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The `<iframe>` snippet for `url`, `width` × `height` CSS px, titled `title`.
pub fn iframe_snippet(url: &str, width: u32, height: u32, title: &str) -> String {
    format!(
        "<iframe src=\"{}\" width=\"{width}\" height=\"{height}\" title=\"{}\" loading=\"lazy\" style=\"border:0;max-width:100%\"></iframe>",
        attr(url),
        attr(title)
    )
}

/// The snippet for `frame` in `form`.
pub fn snippet(form: SnippetForm, frame: &Frame) -> String {
    let html = iframe_snippet(frame.url, frame.width, frame.height, frame.title);
    match form {
        SnippetForm::Html => html,
        SnippetForm::Mdx => format!(
            "<iframe\n  src=\"{}\"\n  width=\"{}\"\n  height=\"{}\"\n  title=\"{}\"\n  loading=\"lazy\"\n  style={{{{ border: 0, maxWidth: '100%' }}}}\n/>",
            attr(frame.url),
            frame.width,
            frame.height,
            attr(frame.title)
        ),
        SnippetForm::Markdown => {
            format!("<div class=\"flywheel-embed\" markdown=\"0\">\n{html}\n</div>")
        }
    }
}

/// `query` with a tour opened at a step (`tour=flywheel&step=3`) appended.
pub fn with_tour(query: &str, tour: Option<(&str, u32)>) -> String {
    match tour {
        Some((id, step)) => format!("{query}&tour={}&step={step}", crate::config::encode(id)),
        None => query.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame() -> Frame<'static> {
        Frame {
            url: "https://x/?preset=a&b=c",
            width: 800,
            height: 1012,
            title: "Flywheel: \"x\" <y>",
        }
    }

    #[test]
    fn the_snippet_carries_the_size_and_an_escaped_title() {
        let s = iframe_snippet("https://x/?preset=a&b=c", 800, 1012, "Flywheel: \"x\" <y>");
        assert!(s.contains("src=\"https://x/?preset=a&amp;b=c\""), "{s}");
        assert!(s.contains("width=\"800\" height=\"1012\""), "{s}");
        assert!(
            s.contains("title=\"Flywheel: &quot;x&quot; &lt;y&gt;\""),
            "{s}"
        );
    }

    #[test]
    fn the_mdx_form_closes_its_tag_and_gives_style_as_an_object() {
        let s = snippet(SnippetForm::Mdx, &frame());
        assert!(s.starts_with("<iframe\n"), "{s}");
        assert!(s.ends_with("/>"), "{s}");
        assert!(s.contains("style={{ border: 0, maxWidth: '100%' }}"), "{s}");
        assert!(s.contains("height=\"1012\""), "{s}");
    }

    #[test]
    fn the_markdown_form_is_a_raw_html_block_on_its_own_lines() {
        let s = snippet(SnippetForm::Markdown, &frame());
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines.len(), 3, "{s}");
        assert!(lines[0].starts_with("<div"), "{s}");
        assert_eq!(lines[1], snippet(SnippetForm::Html, &frame()));
        assert_eq!(lines[2], "</div>");
    }

    #[test]
    fn a_tour_step_is_appended_to_the_query() {
        assert_eq!(
            with_tour("preset=flywheel&embed=1", Some(("flywheel", 3))),
            "preset=flywheel&embed=1&tour=flywheel&step=3"
        );
        assert_eq!(with_tour("preset=flywheel", None), "preset=flywheel");
    }

    #[test]
    fn every_form_parses_back_from_its_name() {
        for f in SnippetForm::ALL {
            assert_eq!(SnippetForm::parse(f.as_str()), Some(f));
        }
    }
}

#[cfg(test)]
mod never_reads_its_parent {
    use std::path::Path;

    /// Every file under `dir` with extension `ext`.
    fn files(dir: &Path, ext: &str, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir)
            .expect("the directory is readable")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                files(&path, ext, out);
            } else if path.extension().is_some_and(|e| e == ext) {
                out.push(path);
            }
        }
    }

    /// Whether every `post_message(` in `text` goes to the page's engine worker or, inside it,
    /// back to the page that started it or to the worker's own pump (`host_link.rs`,
    /// `host_worker.rs`): never to a window.
    fn posts_only_to_the_engine_worker(text: &str) -> bool {
        // the receiver of each call, however rustfmt breaks the line
        let flat: String = text.split_whitespace().collect();
        let receivers = [
            "self.worker",
            "worker",
            "answer_to",
            "scope",
            "self.channel.port1()",
        ];
        flat.match_indices(".post_message(")
            .all(|(at, _)| receivers.iter().any(|r| flat[..at].ends_with(r)))
    }

    #[test]
    fn neither_the_rust_nor_the_scripts_touch_the_parent_top_or_opener_window_or_post_to_them() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut rust = Vec::new();
        files(&root.join("src"), "rs", &mut rust);
        let mut scripts = vec![
            root.join("../../www/boot.js"),
            root.join("../../index.html"),
        ];
        files(&root.join("../../www"), "html", &mut scripts);
        let forbidden_rust = ["().parent(", "().top(", "().opener(", "post_message("];
        let forbidden_js = ["parent.", "top.", "opener", "postMessage"];
        let mut hits = Vec::new();
        for (paths, words) in [(&rust, &forbidden_rust[..]), (&scripts, &forbidden_js[..])] {
            for path in paths {
                let text = std::fs::read_to_string(path).expect("the file is readable");
                for w in words {
                    let own_worker =
                        *w == "post_message(" && posts_only_to_the_engine_worker(&text);
                    if text.contains(w) && !path.ends_with("embed_forms.rs") && !own_worker {
                        hits.push(format!("{}: {w}", path.display()));
                    }
                }
            }
        }
        assert!(hits.is_empty(), "{hits:?}");
    }
}
