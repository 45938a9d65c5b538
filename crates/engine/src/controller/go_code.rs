//! Renders a controller as the controller-runtime Go code it stands for.
//!
//! The output is what an operator author would write with kubebuilder: the CRD type's markers,
//! `SetupWithManager` with its predicates, and `Reconcile` built from the [`Program`]'s steps.
//! The page shows it next to the animation and highlights the lines each fix changes.

use super::program::{ListScope, Program, ReturnValue, StatusValue, Step, WriteVerb};
use crate::scenario::{CacheConfig, CodeConfig, FinalizerMode, LogMode, PodList};

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
    render_with(
        program,
        ctx,
        &CodeConfig::default(),
        &CacheConfig::default(),
    )
}

/// Like [`render`], with the code switches and cache options of a scenario (`[code]`, `[cache]`).
pub fn render_with(
    program: &Program,
    ctx: &GoCodeContext<'_>,
    code: &CodeConfig,
    cache: &CacheConfig,
) -> Vec<String> {
    let mut out = Vec::new();
    render_type(&mut out, ctx);
    out.push(String::new());
    let pods = program.steps.iter().any(|s| {
        matches!(s, Step::ListPods | Step::EnsurePods)
            || matches!(s, Step::List { kind, .. } if kind == "Pod")
    });
    if pods && cache.namespaced {
        render_cache_options(&mut out, cache);
        out.push(String::new());
    }
    let index = pods && code.pod_list == PodList::FieldIndex;
    render_setup(
        &mut out,
        ctx,
        index,
        pods && cache.metadata_only,
        &cr_index_fields(program),
    );
    out.push(String::new());
    render_reconcile(&mut out, program, ctx, code);
    out
}

fn render_cache_options(out: &mut Vec<String>, cache: &CacheConfig) {
    out.push("mgr, err := ctrl.NewManager(cfg, ctrl.Options{".into());
    out.push("	Cache: cache.Options{".into());
    if cache.namespaced {
        out.push("		// only the operator's namespaces are listed and watched".into());
        out.push(
            "		DefaultNamespaces: map[string]cache.Config{\"team-a\": {}, \"team-b\": {}},".into(),
        );
    }
    out.push("	},".into());
    out.push("})".into());
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

/// The fields the program's `List` steps select through a field index, each once, in order.
fn cr_index_fields(program: &Program) -> Vec<&str> {
    let mut fields: Vec<&str> = Vec::new();
    for step in &program.steps {
        if let Step::List {
            scope: ListScope::FieldIndex { field },
            ..
        } = step
        {
            if !fields.contains(&field.as_str()) {
                fields.push(field);
            }
        }
    }
    fields
}

fn render_setup(
    out: &mut Vec<String>,
    ctx: &GoCodeContext<'_>,
    index: bool,
    metadata: bool,
    cr_fields: &[&str],
) {
    out.push(format!(
        "func (r *{}Reconciler) SetupWithManager(mgr ctrl.Manager) error {{",
        ctx.kind
    ));
    for field in cr_fields {
        render_cr_index(out, ctx.kind, field);
    }
    let pod = if metadata {
        "&metav1.PartialObjectMetadata{TypeMeta: podType}"
    } else {
        "&corev1.Pod{}"
    };
    if index {
        out.push(format!(
            "	if err := mgr.GetFieldIndexer().IndexField(context.Background(), {pod}, ownerKey, func(o client.Object) []string {{"
        ));
        out.push("		if owner := metav1.GetControllerOf(o); owner != nil {".into());
        out.push("			return []string{owner.Name}".into());
        out.push("		}".into());
        out.push("		return nil".into());
        out.push("	}); err != nil {".into());
        out.push("		return err".into());
        out.push("	}".into());
    }
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
    if metadata {
        out.push("\t\tOwns(&corev1.Pod{}, builder.OnlyMetadata).".into());
    }
    out.push("\t\tComplete(r)".into());
    out.push("}".into());
}

/// `mgr.GetFieldIndexer().IndexField` for the custom resource: the extractor returns what
/// [`crate::object::field_values`] reads, so the Go code and the simulated index agree
/// (controller-runtime `pkg/client/interfaces.go` `FieldIndexer`).
fn render_cr_index(out: &mut Vec<String>, kind: &str, field: &str) {
    out.push(format!(
        "\tif err := mgr.GetFieldIndexer().IndexField(context.Background(), &myv1.{kind}{{}}, \"{field}\", func(o client.Object) []string {{"
    ));
    for line in index_extractor(kind, field) {
        out.push(format!("\t\t{line}"));
    }
    out.push("\t}); err != nil {".into());
    out.push("\t\treturn err".into());
    out.push("\t}".into());
}

/// The body of an `IndexField` extractor for `field` (a field `is_indexable_field` accepts).
fn index_extractor(kind: &str, field: &str) -> Vec<String> {
    match field {
        ".metadata.name" => vec!["return []string{o.GetName()}".into()],
        ".metadata.namespace" => vec!["return []string{o.GetNamespace()}".into()],
        ".metadata.ownerReferences.name" => vec![
            "var names []string".into(),
            "for _, ref := range o.GetOwnerReferences() {".into(),
            "\tnames = append(names, ref.Name)".into(),
            "}".into(),
            "return names".into(),
        ],
        _ => {
            if let Some(label) = field.strip_prefix(".metadata.labels.") {
                return vec![
                    format!("if v, ok := o.GetLabels()[\"{label}\"]; ok {{"),
                    "\treturn []string{v}".into(),
                    "}".into(),
                    "return nil".into(),
                ];
            }
            let path: Vec<String> = field
                .trim_start_matches('.')
                .split('.')
                .map(go_field)
                .collect();
            vec![
                format!("cr := o.(*myv1.{kind})"),
                format!("return []string{{fmt.Sprint(cr.{})}}", path.join(".")),
            ]
        }
    }
}

fn render_reconcile(
    out: &mut Vec<String>,
    program: &Program,
    ctx: &GoCodeContext<'_>,
    code: &CodeConfig,
) {
    out.push(format!(
        "func (r *{}Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {{",
        ctx.kind
    ));
    out.push(format!("\tvar obj myv1.{}", ctx.kind));
    let mut returned = false;
    for step in &program.steps {
        returned = render_step(out, step, code);
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
#[allow(
    clippy::too_many_lines,
    reason = "one arm per step, each the Go lines it prints; split, the program would be harder to read"
)]
fn render_step(out: &mut Vec<String>, step: &Step, code: &CodeConfig) -> bool {
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
        Step::Panic => {
            push("panic(\"unexpected state\")");
            return true;
        }
        Step::ListPods => render_list_pods(&mut push, code.pod_list),
        Step::OpenWatch => {
            push("w, err := r.WatchClient.Watch(ctx, &myv1.List{}, client.InNamespace(obj.Namespace))");
            push("if err != nil {");
            push("\treturn ctrl.Result{}, err");
            push("}");
            if code.stop_watch {
                push("defer w.Stop() // releases the stream and its goroutines");
            } else {
                push("// w is never stopped: its goroutines and buffers outlive Reconcile");
            }
        }
        Step::LogObject { times } => {
            let line = match code.log {
                LogMode::WholeObject => "log.Info(\"reconciling\", \"obj\", obj)".to_owned(),
                LogMode::Counts => {
                    "log.Info(\"reconciling\", \"conditions\", len(obj.Status.Conditions))"
                        .to_owned()
                }
            };
            if *times > 1 {
                push(&format!(
                    "for i := 0; i < {times}; i++ {{ // one record per phase"
                ));
                push(&format!("\t{line}"));
                push("}");
            } else {
                push(&line);
            }
        }
        Step::ExternalCall { duration, .. } => {
            let t = code.external_timeout;
            if t.is_zero() {
                push(&format!(
                    "resp, err := r.Backend.Sync(ctx, &obj) // ~{}, no deadline",
                    fmt_duration(*duration)
                ));
                push("if err != nil {");
                push("\treturn ctrl.Result{}, err");
                push("}");
            } else {
                push(&format!(
                    "callCtx, cancel := context.WithTimeout(ctx, {})",
                    go_duration(t)
                ));
                push("defer cancel()");
                push(&format!(
                    "resp, err := r.Backend.Sync(callCtx, &obj) // ~{}",
                    fmt_duration(*duration)
                ));
                push("if errors.Is(err, context.DeadlineExceeded) {");
                push(&format!(
                    "\treturn ctrl.Result{{RequeueAfter: {}}}, nil",
                    go_duration(code.timeout_requeue_after)
                ));
                push("}");
            }
            push("_ = resp");
        }
        Step::Finalize { name, .. } => render_finalize(&mut push, name, code.finalizer),
        Step::EnsurePods => {
            if code.check_memory_pressure {
                push("if pressured, err := r.nodeUnderMemoryPressure(ctx); err != nil || pressured {");
                push(&format!(
                    "\treturn ctrl.Result{{RequeueAfter: {}}}, err // NodeCondition MemoryPressure",
                    go_duration(code.pressure_requeue_after)
                ));
                push("}");
            }
            push("for _, pod := range r.missingPods(&obj, pods.Items) { // evicted ones included");
            if code.placement == crate::scenario::Placement::NodeName {
                push("\tpod.Spec.NodeName = r.nodeFor(&obj) // no scheduler, no taint filter");
            }
            push("\tif err := r.Create(ctx, pod); err != nil {");
            push("\t\treturn ctrl.Result{}, err");
            push("\t}");
            push("}");
        }
    }
    false
}

fn render_list_pods(push: &mut impl FnMut(&str), how: PodList) {
    push("var pods corev1.PodList");
    let opts = match how {
        PodList::AllNamespaces => "",
        PodList::Namespace => ", client.InNamespace(obj.Namespace)",
        PodList::FieldIndex => {
            ", client.InNamespace(obj.Namespace), client.MatchingFields{ownerKey: obj.Name}"
        }
    };
    push(&format!(
        "if err := r.List(ctx, &pods{opts}); err != nil {{"
    ));
    push("\treturn ctrl.Result{}, err");
    push("}");
    if how != PodList::FieldIndex {
        push("var owned []corev1.Pod");
        push("for _, pod := range pods.Items { // every listed Pod was deep-copied");
        push("\tif metav1.IsControlledBy(&pod, &obj) {");
        push("\t\towned = append(owned, pod)");
        push("\t}");
        push("}");
    }
}

fn render_finalize(push: &mut impl FnMut(&str), name: &str, mode: FinalizerMode) {
    push("if obj.DeletionTimestamp.IsZero() {");
    push(&format!(
        "\tif controllerutil.AddFinalizer(&obj, \"{name}\") {{"
    ));
    push("\t\tif err := r.Update(ctx, &obj); err != nil {");
    push("\t\t\treturn ctrl.Result{}, err");
    push("\t\t}");
    push("\t}");
    push(&format!(
        "}} else if controllerutil.ContainsFinalizer(&obj, \"{name}\") {{"
    ));
    push("\tif err := r.cleanupExternal(ctx, &obj); err != nil {");
    match mode {
        FinalizerMode::Safe => {
            push("\t\treturn ctrl.Result{}, err // keep the finalizer, retry with backoff");
        }
        FinalizerMode::RemoveOnFailure => {
            push("\t\tlog.Error(err, \"cleanup failed, removing the finalizer anyway\")");
        }
    }
    push("\t}");
    push(&format!(
        "\tcontrollerutil.RemoveFinalizer(&obj, \"{name}\")"
    ));
    push("\tif err := r.Update(ctx, &obj); err != nil {");
    push("\t\treturn ctrl.Result{}, err // 409: retried with a fresh read");
    push("\t}");
    push("\treturn ctrl.Result{}, nil");
    push("} else {");
    push("\treturn ctrl.Result{}, nil");
    push("}");
}

fn render_list(push: &mut impl FnMut(&str), kind: &str, scope: &ListScope) {
    push(&format!("var list myv1.{kind}List"));
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
        ReturnValue::Requeue => "return ctrl.Result{Requeue: true}, nil".into(),
        ReturnValue::TerminalError => {
            "return ctrl.Result{}, reconcile.TerminalError(errors.New(\"invalid spec\"))".into()
        }
        ReturnValue::ErrorWithRequeueAfter { after } => format!(
            "return ctrl.Result{{RequeueAfter: {}}}, errors.New(\"reconcile failed\") // the error wins",
            go_duration(*after)
        ),
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

/// One line of a diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffLine {
    /// In both.
    Same(String),
    /// Only in the old (A).
    Removed(String),
    /// Only in the new (B).
    Added(String),
}

/// The line diff from `old` to `new` (longest common subsequence).
pub fn line_diff(old: &[String], new: &[String]) -> Vec<DiffLine> {
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
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && old[i] == new[j] {
            out.push(DiffLine::Same(old[i].clone()));
            i += 1;
            j += 1;
        } else if j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(DiffLine::Removed(old[i].clone()));
            i += 1;
        } else {
            out.push(DiffLine::Added(new[j].clone()));
            j += 1;
        }
    }
    out
}

/// Marks, for each line of `new`, whether it is absent from `old` (the added lines of
/// [`line_diff`]), so a fixed reconciler's changed lines can be highlighted against the broken one.
pub fn changed_lines(old: &[String], new: &[String]) -> Vec<bool> {
    line_diff(old, new)
        .into_iter()
        .filter_map(|l| match l {
            DiffLine::Same(_) => Some(false),
            DiffLine::Added(_) => Some(true),
            DiffLine::Removed(_) => None,
        })
        .collect()
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
    fn a_list_through_a_field_index_registers_that_index_in_setup() {
        let list = |field: &str| Step::List {
            kind: "MyCRD".into(),
            scope: ListScope::FieldIndex {
                field: field.into(),
            },
        };
        let prog = Program {
            steps: vec![
                Step::Get,
                list(".spec.parentRef"),
                list(".spec.parentRef"),
                list(".metadata.labels.app"),
            ],
        };
        let lines = render(&prog, &ctx(true, &[]));
        let code = lines.join("\n");
        let registrations = lines.iter().filter(|l| l.contains("IndexField(")).count();
        assert_eq!(
            registrations, 2,
            "one registration per distinct field:\n{code}"
        );
        assert!(code.contains(
            "IndexField(context.Background(), &myv1.MyCRD{}, \".spec.parentRef\", func(o client.Object) []string {"
        ));
        assert!(code.contains("return []string{fmt.Sprint(cr.Spec.ParentRef)}"));
        assert!(code.contains("if v, ok := o.GetLabels()[\"app\"]; ok {"));
        let setup = code.find("SetupWithManager").expect("setup");
        let reconcile = code.find(") Reconcile(").expect("reconcile");
        let index = code.find("IndexField(").expect("index");
        assert!(
            setup < index && index < reconcile,
            "registered in SetupWithManager"
        );
        assert!(code.contains("client.MatchingFields{\".spec.parentRef\": obj.Name}"));
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

    #[test]
    fn the_new_results_and_a_panic_render_as_controller_runtime_go() {
        let ret = |value| Step::Return { value };
        let cases = [
            (
                ret(ReturnValue::Requeue),
                "return ctrl.Result{Requeue: true}, nil",
            ),
            (
                ret(ReturnValue::TerminalError),
                "return ctrl.Result{}, reconcile.TerminalError(",
            ),
            (
                ret(ReturnValue::ErrorWithRequeueAfter {
                    after: std::time::Duration::from_secs(30),
                }),
                "return ctrl.Result{RequeueAfter: 30 * time.Second}, errors.New(",
            ),
            (Step::Panic, "panic(\"unexpected state\")"),
        ];
        for (step, want) in cases {
            let program = Program { steps: vec![step] };
            let code = render(&program, &ctx(false, &[])).join("\n");
            assert!(code.contains(want), "{want} in {code}");
        }
    }
}
