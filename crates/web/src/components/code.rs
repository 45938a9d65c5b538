//! The Go (controller-runtime) code of the current reconciler, with the lines that differ from the
//! seed's broken version (the `flywheel` preset) highlighted; when comparing, A's code, B's code,
//! or the difference from A to B.

pub use flywheel_engine::cluster::code::go_code;
use flywheel_engine::controller::go_code::{changed_lines, line_diff, DiffLine};
use flywheel_engine::scenario::variant::Variant;
use flywheel_engine::scenario::{presets, Scenario};
use yew::prelude::*;

use super::use_ctx;
use crate::config::RunConfig;
use crate::i18n::Msg;

/// The current code and, per line, whether it differs from the broken seed.
pub fn code_with_changes(current: &Scenario) -> (Vec<String>, Vec<bool>) {
    let now = go_code(current);
    let broken = presets::load("flywheel", &[])
        .map(|s| go_code(&s))
        .unwrap_or_default();
    let changed = changed_lines(&broken, &now);
    (now, changed)
}

/// What the Code tab shows when comparing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum View {
    A,
    B,
    Diff,
}

fn code_of(config: &RunConfig, v: Variant) -> Option<Vec<String>> {
    config.scenario_with(v).ok().map(|s| go_code(&s))
}

/// The code panel.
#[function_component(CodePanel)]
pub fn code_panel() -> Html {
    crate::renders::count("CodePanel");
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    let view = use_state(|| View::A);
    let (config, compare) = (ctx.state.url.config.clone(), ctx.state.url.compare);
    let deps = (config.clone(), compare, *view);
    let shown = use_memo(deps, |(c, b, view)| {
        let a = c.scenario().ok()?;
        match (b, view) {
            (Some(b), View::B) => c.scenario_with(*b).ok().map(|s| {
                let (l, ch) = code_with_changes(&s);
                plain(&l, &ch)
            }),
            (Some(b), View::Diff) => {
                let (old, new) = (go_code(&a), code_of(c, *b)?);
                Some(
                    line_diff(&old, &new)
                        .into_iter()
                        .map(|d| match d {
                            DiffLine::Same(l) => (format!("  {l}"), None),
                            DiffLine::Removed(l) => (format!("− {l}"), Some("del")),
                            DiffLine::Added(l) => (format!("+ {l}"), Some("add")),
                        })
                        .collect(),
                )
            }
            _ => {
                let (l, ch) = code_with_changes(&a);
                Some(plain(&l, &ch))
            }
        }
    });
    let Some(lines) = shown.as_ref().clone() else {
        return html! {};
    };
    let pick = |v: View, id: &str, label: String| {
        let view = view.clone();
        let pressed = *view == v;
        html! {
            <button id={id.to_owned()} class={classes!(pressed.then_some("active"))} aria-pressed={pressed.to_string()}
                onclick={Callback::from(move |_: MouseEvent| view.set(v))}>{ label }</button>
        }
    };
    let diffing = compare.is_some() && *view == View::Diff;
    html! {
        <div class="code">
            if compare.is_some() {
                <div class="code-pick" role="group" aria-label={Msg::CodeShow.text(lang)}>
                    <span class="muted">{ Msg::CodeShow.text(lang) }</span>
                    { pick(View::A, "code-a", "A".into()) }
                    { pick(View::B, "code-b", "B".into()) }
                    { pick(View::Diff, "code-diff", Msg::CodeDiff.text(lang).to_owned()) }
                </div>
            }
            <p class="muted">{ if diffing { Msg::CodeDiffHint.text(lang) } else { Msg::CodeHint.text(lang) } }</p>
            <pre id="go-code" lang="en"><code>
                { for lines.iter().map(|(l, cls)| html! {
                    <span class={classes!("line", *cls)}>{ format!("{l}\n") }</span>
                }) }
            </code></pre>
        </div>
    }
}

fn plain(lines: &[String], changed: &[bool]) -> Vec<(String, Option<&'static str>)> {
    lines
        .iter()
        .zip(changed)
        .map(|(l, c)| (l.clone(), c.then_some("changed")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diff_keeps_common_lines_and_marks_the_rest() {
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        let d = line_diff(&s(&["a", "b", "c"]), &s(&["a", "x", "c", "d"]));
        assert_eq!(
            d,
            vec![
                DiffLine::Same("a".into()),
                DiffLine::Removed("b".into()),
                DiffLine::Added("x".into()),
                DiffLine::Same("c".into()),
                DiffLine::Added("d".into()),
            ]
        );
    }
}
