//! The Go (controller-runtime) code of the current reconciler, with the lines that differ from the
//! seed's broken version (the `flywheel` preset) highlighted.

use flywheel_engine::controller::go_code::{changed_lines, render_with, GoCodeContext};
use flywheel_engine::scenario::{presets, Scenario};
use yew::prelude::*;

use super::use_ctx;
use crate::i18n::Msg;

/// The Go source of a scenario's controller.
pub fn go_code(s: &Scenario) -> Vec<String> {
    let predicates: Vec<String> = s
        .controller
        .predicates
        .iter()
        .map(|p| p.go_name().to_owned())
        .collect();
    let ctx = GoCodeContext {
        kind: &s.crd.kind,
        status_subresource: s.crd.status_subresource,
        predicates: &predicates,
    };
    render_with(&s.reconcile, &ctx, &s.code, &s.cache)
}

/// The current code and, per line, whether it differs from the broken seed.
pub fn code_with_changes(current: &Scenario) -> (Vec<String>, Vec<bool>) {
    let now = go_code(current);
    let broken = presets::load("flywheel", &[])
        .map(|s| go_code(&s))
        .unwrap_or_default();
    let changed = changed_lines(&broken, &now);
    (now, changed)
}

/// The code panel.
#[function_component(CodePanel)]
pub fn code_panel() -> Html {
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    let config = ctx.state.url.config.clone();
    let code = use_memo(config, |c| c.scenario().ok().map(|s| code_with_changes(&s)));
    let Some((lines, changed)) = code.as_ref().clone() else {
        return html! {};
    };
    html! {
        <div class="code">
            <p class="muted">{ Msg::CodeHint.text(lang) }</p>
            <pre id="go-code" lang="en"><code>
                { for lines.iter().zip(changed.iter()).map(|(l, c)| html! {
                    <span class={classes!("line", c.then_some("changed"))}>{ format!("{l}\n") }</span>
                }) }
            </code></pre>
        </div>
    }
}
