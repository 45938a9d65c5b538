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

/// Appends `lines` to `out` as they are. A block of fixed lines is one call over static data,
/// where a `push` per line compiled to code of its own (the page carries this renderer).
#[inline(never)]
fn lines(out: &mut Vec<String>, lines: &[&str]) {
    out.extend(lines.iter().map(|&line| line.to_owned()));
}

/// Appends `lines` to `out`, each indented by one tab: lines of `Reconcile`'s body.
#[inline(never)]
fn body(out: &mut Vec<String>, lines: &[&str]) {
    for line in lines {
        let mut indented = String::with_capacity(line.len() + 1);
        indented.push('\t');
        indented.push_str(line);
        out.push(indented);
    }
}

/// The lines that end a failed call's `if` in `Reconcile`: return the error.
const RETURN_ERR: [&str; 2] = ["\treturn ctrl.Result{}, err", "}"];

fn render_cache_options(out: &mut Vec<String>, cache: &CacheConfig) {
    lines(
        out,
        &[
            "mgr, err := ctrl.NewManager(cfg, ctrl.Options{",
            "\tCache: cache.Options{",
        ],
    );
    if cache.namespaced {
        lines(
            out,
            &[
                "\t\t// only the operator's namespaces are listed and watched",
                "\t\tDefaultNamespaces: map[string]cache.Config{\"team-a\": {}, \"team-b\": {}},",
            ],
        );
    }
    lines(out, &["\t},", "})"]);
}

fn render_type(out: &mut Vec<String>, ctx: &GoCodeContext<'_>) {
    lines(out, &["//+kubebuilder:object:root=true"]);
    if ctx.status_subresource {
        lines(out, &["//+kubebuilder:subresource:status"]);
    }
    out.push(format!("type {} struct {{", ctx.kind));
    lines(
        out,
        &[
            "\tmetav1.TypeMeta   `json:\",inline\"`",
            "\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`",
        ],
    );
    out.push(format!(
        "\tSpec   {}Spec   `json:\"spec,omitempty\"`",
        ctx.kind
    ));
    out.push(format!(
        "\tStatus {}Status `json:\"status,omitempty\"`",
        ctx.kind
    ));
    lines(out, &["}"]);
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
        lines(
            out,
            &[
                "\t\tif owner := metav1.GetControllerOf(o); owner != nil {",
                "\t\t\treturn []string{owner.Name}",
                "\t\t}",
                "\t\treturn nil",
                "\t}); err != nil {",
                "\t\treturn err",
                "\t}",
            ],
        );
    }
    lines(out, &["\treturn ctrl.NewControllerManagedBy(mgr)."]);
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
        lines(out, &["\t\tOwns(&corev1.Pod{}, builder.OnlyMetadata)."]);
    }
    lines(out, &["\t\tComplete(r)", "}"]);
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
    lines(out, &["\t}); err != nil {", "\t\treturn err", "\t}"]);
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
        lines(out, &["\treturn ctrl.Result{}, nil"]);
    }
    lines(out, &["}"]);
}

/// Renders one step; returns whether it ended the function.
#[allow(
    clippy::too_many_lines,
    reason = "one arm per step, each the Go lines it prints; split, the program would be harder to read"
)]
fn render_step(out: &mut Vec<String>, step: &Step, code: &CodeConfig) -> bool {
    match step {
        Step::Get => body(
            out,
            &[
                "if err := r.Get(ctx, req.NamespacedName, &obj); err != nil {",
                "\treturn ctrl.Result{}, client.IgnoreNotFound(err)",
                "}",
            ],
        ),
        Step::GuardObservedGeneration => body(
            out,
            &[
                "if obj.Status.ObservedGeneration == obj.Generation {",
                "\treturn ctrl.Result{}, nil // nothing new to do",
                "}",
            ],
        ),
        Step::HeavyLogic { duration, .. } => {
            let call = format!(
                "if err := r.DoSomeHeavyLogic(ctx, &obj); err != nil {{ // ~{}",
                fmt_duration(*duration)
            );
            body(out, &[&call, RETURN_ERR[0], RETURN_ERR[1]]);
        }
        Step::List { kind, scope } => render_list(out, kind, scope),
        Step::SetStatus { field, value } => {
            let set = format!("obj.Status.{} = {}", go_field(field), go_value(value));
            body(out, &[&set]);
        }
        Step::Write { verb } => render_write(out, *verb),
        Step::AddFinalizer { name } => render_finalizer(out, "AddFinalizer", name),
        Step::RemoveFinalizer { name } => render_finalizer(out, "RemoveFinalizer", name),
        Step::ExternalCleanup { duration, .. } => {
            let call = format!(
                "if err := r.cleanupExternal(ctx, &obj); err != nil {{ // ~{}",
                fmt_duration(*duration)
            );
            body(out, &[&call, RETURN_ERR[0], RETURN_ERR[1]]);
        }
        Step::Return { value } => {
            body(out, &[&go_return(value)]);
            return true;
        }
        Step::Panic => {
            body(out, &["panic(\"unexpected state\")"]);
            return true;
        }
        Step::ListPods => render_list_pods(out, code.pod_list),
        Step::OpenWatch => {
            body(
                out,
                &[
                    "w, err := r.WatchClient.Watch(ctx, &myv1.List{}, client.InNamespace(obj.Namespace))",
                    "if err != nil {",
                    RETURN_ERR[0],
                    RETURN_ERR[1],
                ],
            );
            body(
                out,
                &[if code.stop_watch {
                    "defer w.Stop() // releases the stream and its goroutines"
                } else {
                    "// w is never stopped: its goroutines and buffers outlive Reconcile"
                }],
            );
        }
        Step::LogObject { times } => render_log(out, *times, code.log),
        Step::ExternalCall { duration, .. } => render_external_call(out, *duration, code),
        Step::Finalize { name, .. } => render_finalize(out, name, code.finalizer),
        Step::EnsurePods => render_ensure_pods(out, code),
    }
    false
}

fn render_log(out: &mut Vec<String>, times: u32, mode: LogMode) {
    let line = match mode {
        LogMode::WholeObject => "log.Info(\"reconciling\", \"obj\", obj)",
        LogMode::Counts => "log.Info(\"reconciling\", \"conditions\", len(obj.Status.Conditions))",
    };
    if times > 1 {
        let each = format!("for i := 0; i < {times}; i++ {{ // one record per phase");
        body(out, &[&each, &format!("\t{line}"), "}"]);
    } else {
        body(out, &[line]);
    }
}

fn render_external_call(out: &mut Vec<String>, duration: std::time::Duration, code: &CodeConfig) {
    let t = code.external_timeout;
    if t.is_zero() {
        let call = format!(
            "resp, err := r.Backend.Sync(ctx, &obj) // ~{}, no deadline",
            fmt_duration(duration)
        );
        body(
            out,
            &[&call, "if err != nil {", RETURN_ERR[0], RETURN_ERR[1]],
        );
    } else {
        let with_timeout = format!(
            "callCtx, cancel := context.WithTimeout(ctx, {})",
            go_duration(t)
        );
        let call = format!(
            "resp, err := r.Backend.Sync(callCtx, &obj) // ~{}",
            fmt_duration(duration)
        );
        let requeue = format!(
            "\treturn ctrl.Result{{RequeueAfter: {}}}, nil",
            go_duration(code.timeout_requeue_after)
        );
        body(
            out,
            &[
                &with_timeout,
                "defer cancel()",
                &call,
                "if errors.Is(err, context.DeadlineExceeded) {",
                &requeue,
                "}",
            ],
        );
    }
    body(out, &["_ = resp"]);
}

fn render_ensure_pods(out: &mut Vec<String>, code: &CodeConfig) {
    if code.check_memory_pressure {
        let requeue = format!(
            "\treturn ctrl.Result{{RequeueAfter: {}}}, err // NodeCondition MemoryPressure",
            go_duration(code.pressure_requeue_after)
        );
        body(
            out,
            &[
                "if pressured, err := r.nodeUnderMemoryPressure(ctx); err != nil || pressured {",
                &requeue,
                "}",
            ],
        );
    }
    body(
        out,
        &["for _, pod := range r.missingPods(&obj, pods.Items) { // evicted ones included"],
    );
    if code.placement == crate::scenario::Placement::NodeName {
        body(
            out,
            &["\tpod.Spec.NodeName = r.nodeFor(&obj) // no scheduler, no taint filter"],
        );
    }
    body(
        out,
        &[
            "\tif err := r.Create(ctx, pod); err != nil {",
            "\t\treturn ctrl.Result{}, err",
            "\t}",
            "}",
        ],
    );
}

fn render_list_pods(out: &mut Vec<String>, how: PodList) {
    let opts = match how {
        PodList::AllNamespaces => "",
        PodList::Namespace => ", client.InNamespace(obj.Namespace)",
        PodList::FieldIndex => {
            ", client.InNamespace(obj.Namespace), client.MatchingFields{ownerKey: obj.Name}"
        }
    };
    let list = format!("if err := r.List(ctx, &pods{opts}); err != nil {{");
    body(
        out,
        &[
            "var pods corev1.PodList",
            &list,
            RETURN_ERR[0],
            RETURN_ERR[1],
        ],
    );
    if how != PodList::FieldIndex {
        body(
            out,
            &[
                "var owned []corev1.Pod",
                "for _, pod := range pods.Items { // every listed Pod was deep-copied",
                "\tif metav1.IsControlledBy(&pod, &obj) {",
                "\t\towned = append(owned, pod)",
                "\t}",
                "}",
            ],
        );
    }
}

fn render_finalize(out: &mut Vec<String>, name: &str, mode: FinalizerMode) {
    let add = format!("\tif controllerutil.AddFinalizer(&obj, \"{name}\") {{");
    let contains = format!("}} else if controllerutil.ContainsFinalizer(&obj, \"{name}\") {{");
    body(
        out,
        &[
            "if obj.DeletionTimestamp.IsZero() {",
            &add,
            "\t\tif err := r.Update(ctx, &obj); err != nil {",
            "\t\t\treturn ctrl.Result{}, err",
            "\t\t}",
            "\t}",
            &contains,
            "\tif err := r.cleanupExternal(ctx, &obj); err != nil {",
            match mode {
                FinalizerMode::Safe => {
                    "\t\treturn ctrl.Result{}, err // keep the finalizer, retry with backoff"
                }
                FinalizerMode::RemoveOnFailure => {
                    "\t\tlog.Error(err, \"cleanup failed, removing the finalizer anyway\")"
                }
            },
            "\t}",
        ],
    );
    let remove = format!("\tcontrollerutil.RemoveFinalizer(&obj, \"{name}\")");
    body(
        out,
        &[
            &remove,
            "\tif err := r.Update(ctx, &obj); err != nil {",
            "\t\treturn ctrl.Result{}, err // 409: retried with a fresh read",
            "\t}",
            "\treturn ctrl.Result{}, nil",
            "} else {",
            "\treturn ctrl.Result{}, nil",
            "}",
        ],
    );
}

fn render_list(out: &mut Vec<String>, kind: &str, scope: &ListScope) {
    let var = format!("var list myv1.{kind}List");
    let opts = match scope {
        ListScope::AllNamespaces => String::new(),
        ListScope::Namespace => ", client.InNamespace(obj.Namespace)".into(),
        ListScope::FieldIndex { field } => {
            format!(", client.MatchingFields{{\"{field}\": obj.Name}}")
        }
    };
    let list = format!("if err := r.List(ctx, &list{opts}); err != nil {{");
    body(out, &[&var, &list, RETURN_ERR[0], RETURN_ERR[1]]);
}

fn render_write(out: &mut Vec<String>, verb: WriteVerb) {
    let call = match verb {
        WriteVerb::Update => "r.Update(ctx, &obj)",
        WriteVerb::StatusUpdate => "r.Status().Update(ctx, &obj)",
        WriteVerb::StatusPatch => "r.Status().Patch(ctx, &obj, client.MergeFrom(orig))",
        WriteVerb::Patch => "r.Patch(ctx, &obj, client.MergeFrom(orig))",
    };
    if matches!(verb, WriteVerb::StatusPatch | WriteVerb::Patch) {
        // The original is captured right after Get in real code; shown here next to its use.
        body(
            out,
            &["orig := obj.DeepCopy() // captured before the status fields are set"],
        );
    }
    let write = format!("if err := {call}; err != nil {{");
    body(out, &[&write, RETURN_ERR[0], RETURN_ERR[1]]);
}

fn render_finalizer(out: &mut Vec<String>, func: &str, name: &str) {
    let call = format!("controllerutil.{func}(&obj, \"{name}\")");
    body(
        out,
        &[
            &call,
            "if err := r.Update(ctx, &obj); err != nil {",
            RETURN_ERR[0],
            RETURN_ERR[1],
        ],
    );
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
    let ms = whole_millis(d);
    if ms % 60_000 == 0 && ms > 0 {
        format!("{} * time.Minute", ms / 60_000)
    } else if ms % 1000 == 0 && ms > 0 {
        format!("{} * time.Second", ms / 1000)
    } else {
        format!("{ms} * time.Millisecond")
    }
}

fn fmt_duration(d: std::time::Duration) -> String {
    let ms = whole_millis(d);
    if ms >= 1000 && ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// `d`'s whole milliseconds (a setting's duration, far below the `u64` limit, where this
/// saturates), so that no 128-bit count is formatted.
fn whole_millis(d: std::time::Duration) -> u64 {
    crate::time::duration_nanos(d) / 1_000_000
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
