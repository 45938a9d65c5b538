//! The Go (controller-runtime) source of a scenario's operator: its CRD markers,
//! `SetupWithManager` and `Reconcile`, as the CLI's `flywheel code` and the page's Code tab show
//! them.

use crate::controller::go_code::{render_with, GoCodeContext};
use crate::scenario::Scenario;

/// The Go source lines of `s`'s operator.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    #[test]
    fn the_fixed_operator_writes_status_through_the_status_client_and_filters_by_generation() {
        let code = go_code(&presets::load("fixed", &[]).expect("preset")).join("\n");
        assert!(code.contains("r.Status()"), "{code}");
        assert!(code.contains("GenerationChangedPredicate"), "{code}");
    }
}
