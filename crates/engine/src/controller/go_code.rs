//! Renders a controller as the controller-runtime Go code it stands for.
//!
//! The output is what an operator author would write with kubebuilder: the CRD type's markers,
//! `SetupWithManager` with its predicates, and `Reconcile` built from the [`Program`]'s steps.
//! The page shows it next to the animation and highlights the lines each fix changes.

use super::program::{ListScope, Program, ReturnValue, StatusValue, Step, WriteVerb};

/// What the renderer needs besides the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoCodeContext<'a> {
    /// The custom resource's Go type, e.g. `MyCRD`.
    pub kind: &'a str,
    /// Whether the CRD declares `//+kubebuilder:subresource:status`.
    pub status_subresource: bool,
    /// Predicate names as in `pkg/predicate` (e.g. `GenerationChangedPredicate`).
    pub predicates: &'a [String],
}

/// Renders the CRD markers, `SetupWithManager` and `Reconcile` as Go source lines.
pub fn render(program: &Program, ctx: &GoCodeContext<'_>) -> Vec<String> {
    let mut out = Vec::new();
    render_type(&mut out, ctx);
    out.push(String::new());
    render_setup(&mut out, ctx);
    out.push(String::new());
    render_reconcile(&mut out, program, ctx);
    out
}

fn render_type(out: &mut Vec<String>, ctx: &GoCodeContext<'_>) {
    out.push("//+kubebuilder:object:root=true".into());
    if ctx.status_subresource {
        out.push("//+kubebuilder:subresource:status".into());
    }
    out.push(format!("type {} struct {{", ctx.kind));
    out.push("\tmetav1.TypeMeta   `json:\",inline\"`".into());
    out.push("\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`".into());
    out.push(format!(
        "\tSpec   {}Spec   `json:\"spec,omitempty\"`",
        ctx.kind
    ));
    out.push(format!(
        "\tStatus {}Status `json:\"status,omitempty\"`",
        ctx.kind
    ));
    out.push("}".into());
}

fn render_setup(out: &mut Vec<String>, ctx: &GoCodeContext<'_>) {
    out.push(format!(
        "func (r *{}Reconciler) SetupWithManager(mgr ctrl.Manager) error {{",
        ctx.kind
    ));
    out.push("\treturn ctrl.NewControllerManagedBy(mgr).".into());
    if ctx.predicates.is_empty() {
        out.push(format!("\t\tFor(&myv1.{}{{}}).", ctx.kind));
    } else {
        let preds: Vec<String> = ctx
            .predicates
            .iter()
            .map(|p| format!("predicate.{p}{{}}"))
            .collect();
        out.push(format!(
            "\t\tFor(&myv1.{}{{}}, builder.WithPredicates({})).",
            ctx.kind,
            preds.join(", ")
        ));
    }
    out.push("\t\tComplete(r)".into());
    out.push("}".into());
}

fn render_reconcile(out: &mut Vec<String>, program: &Program, ctx: &GoCodeContext<'_>) {
    out.push(format!(
        "func (r *{}Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {{",
        ctx.kind
    ));
    out.push(format!("\tvar obj myv1.{}", ctx.kind));
    let mut returned = false;
    for step in &program.steps {
        returned = render_step(out, step);
        if returned {
            break;
        }
    }
    if !returned {
        out.push("\treturn ctrl.Result{}, nil".into());
    }
    out.push("}".into());
}

/// Renders one step; returns whether it ended the function.
fn render_step(out: &mut Vec<String>, step: &Step) -> bool {
    let mut push = |s: &str| out.push(format!("\t{s}"));
    match step {
        Step::Get => {
            push("if err := r.Get(ctx, req.NamespacedName, &obj); err != nil {");
            push("\treturn ctrl.Result{}, client.IgnoreNotFound(err)");
            push("}");
        }
        Step::GuardObservedGeneration => {
            push("if obj.Status.ObservedGeneration == obj.Generation {");
            push("\treturn ctrl.Result{}, nil // nothing new to do");
            push("}");
        }
        Step::HeavyLogic { duration, .. } => {
            push(&format!(
                "if err := r.DoSomeHeavyLogic(ctx, &obj); err != nil {{ // ~{}",
                fmt_duration(*duration)
            ));
            push("\treturn ctrl.Result{}, err");
            push("}");
        }
        Step::List { kind, scope } => render_list(&mut push, kind, scope),
        Step::SetStatus { field, value } => push(&format!(
            "obj.Status.{} = {}",
            go_field(field),
            go_value(value)
        )),
        Step::Write { verb } => render_write(&mut push, *verb),
        Step::AddFinalizer { name } => render_finalizer(&mut push, "AddFinalizer", name),
        Step::RemoveFinalizer { name } => render_finalizer(&mut push, "RemoveFinalizer", name),
        Step::ExternalCleanup { duration, .. } => {
            push(&format!(
                "if err := r.cleanupExternal(ctx, &obj); err != nil {{ // ~{}",
                fmt_duration(*duration)
            ));
            push("\treturn ctrl.Result{}, err");
            push("}");
        }
        Step::Return { value } => {
            push(&go_return(value));
            return true;
        }
    }
    false
}

fn render_list(push: &mut impl FnMut(&str), kind: &str, scope: &ListScope) {
    push(&format!("var list corev1.{kind}List"));
    let opts = match scope {
        ListScope::AllNamespaces => String::new(),
        ListScope::Namespace => ", client.InNamespace(obj.Namespace)".into(),
        ListScope::FieldIndex { field } => {
            format!(", client.MatchingFields{{\"{field}\": obj.Name}}")
        }
    };
    push(&format!(
        "if err := r.List(ctx, &list{opts}); err != nil {{"
    ));
    push("\treturn ctrl.Result{}, err");
    push("}");
}

fn render_write(push: &mut impl FnMut(&str), verb: WriteVerb) {
    let call = match verb {
        WriteVerb::Update => "r.Update(ctx, &obj)",
        WriteVerb::StatusUpdate => "r.Status().Update(ctx, &obj)",
        WriteVerb::StatusPatch => "r.Status().Patch(ctx, &obj, client.MergeFrom(orig))",
        WriteVerb::Patch => "r.Patch(ctx, &obj, client.MergeFrom(orig))",
    };
    if matches!(verb, WriteVerb::StatusPatch | WriteVerb::Patch) {
        // The original is captured right after Get in real code; shown here next to its use.
        push("orig := obj.DeepCopy() // captured before the status fields are set");
    }
    push(&format!("if err := {call}; err != nil {{"));
    push("\treturn ctrl.Result{}, err");
    push("}");
}

fn render_finalizer(push: &mut impl FnMut(&str), func: &str, name: &str) {
    push(&format!("controllerutil.{func}(&obj, \"{name}\")"));
    push("if err := r.Update(ctx, &obj); err != nil {");
    push("\treturn ctrl.Result{}, err");
    push("}");
}

fn go_return(value: &ReturnValue) -> String {
    match value {
        ReturnValue::Ok => "return ctrl.Result{}, nil".into(),
        ReturnValue::Error => "return ctrl.Result{}, errors.New(\"reconcile failed\")".into(),
        ReturnValue::RequeueAfter { after } => {
            format!(
                "return ctrl.Result{{RequeueAfter: {}}}, nil",
                go_duration(*after)
            )
        }
    }
}

fn go_value(value: &StatusValue) -> String {
    match value {
        StatusValue::Constant(s) => format!("{s:?}"),
        StatusValue::Now => "metav1.Now()".into(),
        StatusValue::NowMicro => "metav1.NowMicro()".into(),
        StatusValue::Counter => "obj.Status.Reconciles + 1".into(),
        StatusValue::ObservedGeneration => "obj.Generation".into(),
    }
}

/// `lastUpdated` → `LastUpdated`, as Go exports it.
fn go_field(field: &str) -> String {
    let mut chars = field.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

fn go_duration(d: std::time::Duration) -> String {
    let ms = d.as_millis();
    if ms % 60_000 == 0 && ms > 0 {
        format!("{} * time.Minute", ms / 60_000)
    } else if ms % 1000 == 0 && ms > 0 {
        format!("{} * time.Second", ms / 1000)
    } else {
        format!("{ms} * time.Millisecond")
    }
}

fn fmt_duration(d: std::time::Duration) -> String {
    let ms = d.as_millis();
    if ms >= 1000 && ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// Marks, for each line of `new`, whether it is absent from `old` (a longest-common-subsequence
/// diff), so a fixed reconciler's changed lines can be highlighted against the broken one.
pub fn changed_lines(old: &[String], new: &[String]) -> Vec<bool> {
    let (n, m) = (old.len(), new.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if old[i] == new[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut changed = vec![true; m];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if old[i] == new[j] {
            changed[j] = false;
            i += 1;
            j += 1;
        } else if lcs[i + 1][j] >= lcs[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn flywheel() -> Program {
        Program {
            steps: vec![
                Step::Get,
                Step::HeavyLogic {
                    duration: Duration::from_millis(50),
                    alloc_bytes: 0,
                },
                Step::SetStatus {
                    field: "phase".into(),
                    value: StatusValue::Constant("Running".into()),
                },
                Step::SetStatus {
                    field: "lastUpdated".into(),
                    value: StatusValue::Now,
                },
                Step::Write {
                    verb: WriteVerb::Update,
                },
            ],
        }
    }

    fn ctx<'a>(status: bool, predicates: &'a [String]) -> GoCodeContext<'a> {
        GoCodeContext {
            kind: "MyCRD",
            status_subresource: status,
            predicates,
        }
    }

    #[test]
    fn the_broken_reconciler_renders_a_full_update_and_no_predicate() {
        let code = render(&flywheel(), &ctx(false, &[])).join("\n");
        assert!(code.contains("if err := r.Update(ctx, &obj); err != nil {"));
        assert!(code.contains("For(&myv1.MyCRD{})."));
        assert!(!code.contains("subresource:status"));
        assert!(code.contains("obj.Status.LastUpdated = metav1.Now()"));
        assert!(code.trim_end().ends_with("return ctrl.Result{}, nil\n}"));
    }

    #[test]
    fn the_fixes_change_exactly_the_lines_they_touch() {
        let broken = render(&flywheel(), &ctx(false, &[]));
        let mut fixed_prog = flywheel();
        fixed_prog.steps[4] = Step::Write {
            verb: WriteVerb::StatusUpdate,
        };
        let preds = vec!["GenerationChangedPredicate".to_owned()];
        let fixed = render(&fixed_prog, &ctx(true, &preds));
        let changed: Vec<&String> = fixed
            .iter()
            .zip(changed_lines(&broken, &fixed))
            .filter(|(_, c)| *c)
            .map(|(l, _)| l)
            .collect();
        assert_eq!(changed.len(), 3, "{changed:?}");
        assert!(changed[0].contains("subresource:status"));
        assert!(changed[1].contains("GenerationChangedPredicate"));
        assert!(changed[2].contains("r.Status().Update"));
    }

    #[test]
    fn a_requeue_after_renders_as_a_go_duration() {
        let prog = Program {
            steps: vec![Step::Return {
                value: ReturnValue::RequeueAfter {
                    after: Duration::from_secs(30),
                },
            }],
        };
        let code = render(&prog, &ctx(true, &[])).join("\n");
        assert!(code.contains("return ctrl.Result{RequeueAfter: 30 * time.Second}, nil"));
    }
}
