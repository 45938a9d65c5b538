//! The command bar's language: a kubectl line read as what the page does with it — an
//! intervention on the cluster (in the engine's `--do` words), the YAML of an object, or the
//! event log — and the completion of a line being typed.
//!
//! ```text
//!  "kubectl delete mycrd demo-3 -n ns-0"         ──▶ Command::Do("delete:ns-0/demo-3")
//!  "kubectl set resources deploy/operator --limits=memory=256Mi" ──▶ Command::Do("memory_limit:256Mi")
//!  "kubectl edit mycrd demo-3"                   ──▶ Command::Edit("ns/demo-3")
//!  "kubectl get mycrd -w"                        ──▶ Command::Watch
//! ```
//!
//! A named object is the engine's `--do delete:namespace/name`: the namespace of `-n`, else
//! `default`; without `-n` a name that is not in `default` is the object of that name shown
//! (the playground's objects live in `ns-0`, `ns-1`…). `--all` names every object.

/// What a command line asks the page to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An intervention, in the engine's `--do` words (`delete:1`, `kill_operator`…).
    Do(String),
    /// Open the inspector on this object (`namespace/name`) to edit its spec.
    Edit(String),
    /// Show the event log.
    Watch,
}

/// Why a line was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not a kubectl line, or a verb it does not know (the word given).
    UnknownVerb(String),
    /// A verb it knows with arguments it does not (the line's usage).
    Usage(&'static str),
    /// An object that does not exist (its key, and one that does, if any).
    NoSuchObject(String, Option<String>),
}

/// The lines the command bar knows, for completion and the list under it.
pub const KNOWN: &[&str] = &[
    "kubectl get mycrd -w",
    "kubectl edit mycrd ",
    "kubectl delete mycrd ",
    "kubectl delete mycrd --all",
    "kubectl delete namespace --all",
    "kubectl label mycrd ",
    "kubectl label mycrd --all touched=yes",
    "kubectl annotate mycrd --all other=controller",
    "kubectl exec deploy/operator -- kill 1",
    "kubectl set resources deploy/operator --limits=memory=256Mi",
    "kubectl rollout restart deploy/operator",
    "kubectl patch crd mycrd --status=on",
    "kubectl patch crd mycrd --status=off",
    "kubectl set limits apiserver seats=4",
];

const EDIT_USAGE: &str = "kubectl edit mycrd NAME [-n NAMESPACE]";
const DELETE_USAGE: &str =
    "kubectl delete mycrd NAME|--all [-n NAMESPACE] · kubectl delete namespace --all";
const LABEL_USAGE: &str = "kubectl label mycrd NAME|--all KEY=VALUE [-n NAMESPACE]";
const ANNOTATE_USAGE: &str = "kubectl annotate mycrd NAME|--all KEY=VALUE [-n NAMESPACE]";
const EXEC_USAGE: &str = "kubectl exec deploy/operator -- kill 1";
const SET_USAGE: &str = "kubectl set resources deploy/operator --limits=memory=SIZE · \
kubectl set limits apiserver seats=N,client_qps=Q,…";
const ROLLOUT_USAGE: &str = "kubectl rollout restart deploy/operator [--fixes=predicate=on,…]";
const PATCH_USAGE: &str = "kubectl patch crd mycrd --status=on|off";
const GET_USAGE: &str = "kubectl get mycrd -w";

/// Reads `line`; `objects` are the custom resources' keys (`namespace/name`) in key order, and
/// `rollout` the `--do` text a bare `kubectl rollout restart` rolls out.
pub fn parse(line: &str, objects: &[String], rollout: &str) -> Result<Command, Refusal> {
    let all: Vec<&str> = line.split_whitespace().collect();
    let (words, namespace) = namespace_flag(&all)?;
    let (verb, args) = match words.as_slice() {
        ["kubectl", verb, args @ ..] | ["k", verb, args @ ..] => (*verb, args),
        [first, ..] => return Err(Refusal::UnknownVerb((*first).to_owned())),
        [] => return Err(Refusal::UnknownVerb(String::new())),
    };
    match verb {
        "get" => get(args),
        "edit" => edit(args, namespace, objects),
        "delete" => objects_action("delete", args, namespace, objects, DELETE_USAGE),
        "label" => objects_action("label", args, namespace, objects, LABEL_USAGE),
        "annotate" => objects_action("annotate", args, namespace, objects, ANNOTATE_USAGE),
        "exec" => exec(args),
        "set" => set(args),
        "rollout" => rollout_restart(args, rollout),
        "patch" => patch(args),
        other => Err(Refusal::UnknownVerb(other.to_owned())),
    }
}

/// The words without `-n NS` / `--namespace NS` / `-n=NS` / `--namespace=NS`, and `NS`.
fn namespace_flag<'a>(words: &[&'a str]) -> Result<(Vec<&'a str>, Option<&'a str>), Refusal> {
    let mut kept = Vec::with_capacity(words.len());
    let mut namespace = None;
    let mut rest = words.iter();
    while let Some(w) = rest.next() {
        let value = match *w {
            "-n" | "--namespace" => Some(*rest.next().ok_or(Refusal::Usage(NAMESPACE_USAGE))?),
            _ => w
                .strip_prefix("-n=")
                .or_else(|| w.strip_prefix("--namespace=")),
        };
        match value {
            Some(ns) if !ns.is_empty() && !ns.contains('/') => namespace = Some(ns),
            Some(_) => return Err(Refusal::Usage(NAMESPACE_USAGE)),
            None => kept.push(*w),
        }
    }
    Ok((kept, namespace))
}

const NAMESPACE_USAGE: &str = "-n NAMESPACE (e.g. -n ns-0)";

fn is_crd(kind: &str) -> bool {
    matches!(kind, "mycrd" | "mycrds" | "mycrd.example.com")
}

fn get(args: &[&str]) -> Result<Command, Refusal> {
    match args {
        [kind, rest @ ..] if is_crd(kind) && rest.iter().any(|a| *a == "-w" || *a == "--watch") => {
            Ok(Command::Watch)
        }
        _ => Err(Refusal::Usage(GET_USAGE)),
    }
}

fn edit(args: &[&str], namespace: Option<&str>, objects: &[String]) -> Result<Command, Refusal> {
    match args {
        [kind, name] if is_crd(kind) => {
            let key = key_of(name, namespace, objects);
            if objects.contains(&key) {
                Ok(Command::Edit(key))
            } else {
                Err(Refusal::NoSuchObject(key, objects.first().cloned()))
            }
        }
        _ => Err(Refusal::Usage(EDIT_USAGE)),
    }
}

/// The key (`namespace/name`) `name` stands for: in `namespace` when given; without one,
/// `default/name` when that is among `objects`, else the first of `objects` called `name`,
/// else `default/name`.
pub fn key_of(name: &str, namespace: Option<&str>, objects: &[String]) -> String {
    if name.contains('/') {
        return name.to_owned();
    }
    if let Some(ns) = namespace {
        return format!("{ns}/{name}");
    }
    let default = format!("default/{name}");
    if objects.contains(&default) {
        return default;
    }
    objects
        .iter()
        .find(|k| k.rsplit('/').next() == Some(name))
        .cloned()
        .unwrap_or(default)
}

fn objects_action(
    verb: &str,
    args: &[&str],
    namespace: Option<&str>,
    objects: &[String],
    usage: &'static str,
) -> Result<Command, Refusal> {
    let needs_pair = verb != "delete";
    let (kind, target, rest) = match args {
        [kind, target, rest @ ..] => (*kind, *target, rest),
        _ => return Err(Refusal::Usage(usage)),
    };
    let pair_ok = !needs_pair || (rest.len() == 1 && rest[0].contains('='));
    if !pair_ok || (!needs_pair && !rest.is_empty()) {
        return Err(Refusal::Usage(usage));
    }
    if verb == "delete" && matches!(kind, "namespace" | "namespaces" | "ns") {
        return match target {
            "--all" => Ok(Command::Do("delete_namespaces".into())),
            _ => Err(Refusal::Usage(usage)),
        };
    }
    if !is_crd(kind) {
        return Err(Refusal::Usage(usage));
    }
    if target == "--all" {
        return Ok(Command::Do(verb.to_owned()));
    }
    Ok(on_object(verb, &key_of(target, namespace, objects)))
}

/// The intervention `action` (`delete`, `label`, `edit_spec`…) on the object `key`
/// (`namespace/name`); the engine refuses a key that does not exist.
pub fn on_object(action: &str, key: &str) -> Command {
    Command::Do(format!("{action}:{key}"))
}

fn exec(args: &[&str]) -> Result<Command, Refusal> {
    match args {
        [pod, "--", "kill", ..] if pod.ends_with("operator") => {
            Ok(Command::Do("kill_operator".into()))
        }
        _ => Err(Refusal::Usage(EXEC_USAGE)),
    }
}

fn set(args: &[&str]) -> Result<Command, Refusal> {
    match args {
        ["resources", pod, limit] if pod.ends_with("operator") => limit
            .strip_prefix("--limits=memory=")
            .map(|size| Command::Do(format!("memory_limit:{size}")))
            .ok_or(Refusal::Usage(SET_USAGE)),
        ["limits", "apiserver", pairs] => Ok(Command::Do(format!("limits:{pairs}"))),
        _ => Err(Refusal::Usage(SET_USAGE)),
    }
}

fn rollout_restart(args: &[&str], rollout: &str) -> Result<Command, Refusal> {
    match args {
        ["restart", pod] if pod.ends_with("operator") => Ok(Command::Do(rollout.to_owned())),
        ["restart", pod, fixes] if pod.ends_with("operator") => fixes
            .strip_prefix("--fixes=")
            .map(|f| Command::Do(format!("rollout:{f}")))
            .ok_or(Refusal::Usage(ROLLOUT_USAGE)),
        _ => Err(Refusal::Usage(ROLLOUT_USAGE)),
    }
}

fn patch(args: &[&str]) -> Result<Command, Refusal> {
    match args {
        ["crd", kind, flag] if is_crd(kind) => match *flag {
            "--status=on" => Ok(Command::Do("status_subresource:on".into())),
            "--status=off" => Ok(Command::Do("status_subresource:off".into())),
            _ => Err(Refusal::Usage(PATCH_USAGE)),
        },
        _ => Err(Refusal::Usage(PATCH_USAGE)),
    }
}

/// Most object names offered after a verb: the list shows a few, and Tab needs only enough to
/// find what they share.
pub const MAX_NAMED: usize = 64;

/// The verbs whose line names an object of the custom resource.
const NAMED_VERBS: [&str; 3] = ["edit", "delete", "label"];

/// The known lines that begin with what was typed, with the object names after `edit`,
/// `delete mycrd` and `label mycrd` filled in: every object whose name begins with what was typed
/// after the kind (at most [`MAX_NAMED`]), or the first three as examples while the verb is
/// still being typed.
pub fn matches(typed: &str, objects: &[String]) -> Vec<String> {
    let typed = typed.trim_start();
    let named = NAMED_VERBS
        .iter()
        .flat_map(|verb| named_lines(verb, typed, objects));
    KNOWN
        .iter()
        .filter(|k| !k.ends_with(' '))
        .map(|k| (*k).to_owned())
        .chain(named)
        .filter(|k| k.starts_with(typed))
        .collect()
}

/// The lines of `verb` naming the objects that fit `typed`.
fn named_lines(verb: &str, typed: &str, objects: &[String]) -> Vec<String> {
    let head = format!("kubectl {verb} mycrd ");
    let line = |name: &str| match verb {
        "label" => format!("{head}{name} touched=yes"),
        _ => format!("{head}{name}"),
    };
    let names = objects.iter().map(|k| k.rsplit('/').next().unwrap_or(k));
    match typed.strip_prefix(&head) {
        Some(rest) => {
            let begun = rest.split(' ').next().unwrap_or(rest);
            // at most MAX_NAMED names are kept, so a list looked through is enough
            let mut seen: Vec<&str> = Vec::new();
            names
                .filter(|n| {
                    let new = n.starts_with(begun) && !seen.contains(n);
                    if new {
                        seen.push(n);
                    }
                    new
                })
                .take(MAX_NAMED)
                .map(line)
                .collect()
        }
        None if head.starts_with(typed) => names.take(3).map(line).collect(),
        None => Vec::new(),
    }
}

/// What Tab makes of `typed`: the longest beginning the matching lines share (`typed` itself
/// when none matches).
pub fn complete(typed: &str, objects: &[String]) -> String {
    let found = matches(typed, objects);
    let Some(first) = found.first() else {
        return typed.to_owned();
    };
    let mut common = first.len();
    for other in &found[1..] {
        common = first
            .char_indices()
            .zip(other.chars())
            .take_while(|((_, a), b)| a == b)
            .count()
            .min(common);
    }
    let done: String = first.chars().take(common).collect();
    if done.len() < typed.trim_start().len() {
        typed.to_owned()
    } else {
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn objects() -> Vec<String> {
        ["ns-0/demo-0", "ns-0/demo-1", "ns-1/demo-3"]
            .map(String::from)
            .to_vec()
    }

    fn read(line: &str) -> Result<Command, Refusal> {
        parse(line, &objects(), "rollout:fixed")
    }

    #[test]
    fn deleting_a_named_object_is_the_engines_delete_of_that_key() {
        assert_eq!(
            read("kubectl delete mycrd demo-3"),
            Ok(Command::Do("delete:ns-1/demo-3".into()))
        );
        assert_eq!(
            read("kubectl delete mycrd --all"),
            Ok(Command::Do("delete".into()))
        );
    }

    #[test]
    fn the_namespace_comes_from_dash_n_and_else_from_default() {
        assert_eq!(
            read("kubectl delete mycrd demo-1 -n ns-0"),
            Ok(Command::Do("delete:ns-0/demo-1".into()))
        );
        assert_eq!(
            read("kubectl label -n=ns-1 mycrd demo-3 a=b"),
            Ok(Command::Do("label:ns-1/demo-3".into()))
        );
        assert_eq!(
            read("kubectl delete mycrd demo-9"),
            Ok(Command::Do("delete:default/demo-9".into()))
        );
        assert_eq!(
            read("kubectl edit mycrd demo-3 --namespace ns-0"),
            Err(Refusal::NoSuchObject(
                "ns-0/demo-3".into(),
                Some("ns-0/demo-0".into())
            ))
        );
        assert_eq!(
            read("kubectl delete mycrd demo-1 -n"),
            Err(Refusal::Usage(NAMESPACE_USAGE))
        );
    }

    #[test]
    fn edit_opens_the_named_object_and_get_watch_shows_the_log() {
        assert_eq!(
            read("kubectl edit mycrd demo-3"),
            Ok(Command::Edit("ns-1/demo-3".into()))
        );
        assert_eq!(read("kubectl get mycrd -w"), Ok(Command::Watch));
    }

    #[test]
    fn the_operator_side_actions_read_as_engine_interventions() {
        let cases = [
            ("kubectl exec deploy/operator -- kill 1", "kill_operator"),
            (
                "kubectl set resources deploy/operator --limits=memory=256Mi",
                "memory_limit:256Mi",
            ),
            ("kubectl rollout restart deploy/operator", "rollout:fixed"),
            (
                "kubectl rollout restart deploy/operator --fixes=predicate=on",
                "rollout:predicate=on",
            ),
            (
                "kubectl patch crd mycrd --status=on",
                "status_subresource:on",
            ),
            ("kubectl set limits apiserver seats=4", "limits:seats=4"),
            ("kubectl delete namespace --all", "delete_namespaces"),
            ("kubectl label mycrd demo-0 a=b", "label:ns-0/demo-0"),
        ];
        for (line, want) in cases {
            assert_eq!(read(line), Ok(Command::Do(want.into())), "{line}");
        }
    }

    #[test]
    fn an_unknown_verb_is_named() {
        assert_eq!(
            read("kubectl frobnicate"),
            Err(Refusal::UnknownVerb("frobnicate".into()))
        );
    }

    #[test]
    fn after_the_kind_every_object_whose_name_fits_is_offered_not_only_the_first_three() {
        let many: Vec<String> = (0..200).map(|i| format!("ns-{}/demo-{i}", i % 4)).collect();
        let found = matches("kubectl delete mycrd demo-15", &many);
        assert_eq!(
            found,
            [
                "demo-15", "demo-150", "demo-151", "demo-152", "demo-153", "demo-154", "demo-155",
                "demo-156", "demo-157", "demo-158", "demo-159"
            ]
            .map(|n| format!("kubectl delete mycrd {n}"))
        );
        assert_eq!(
            complete("kubectl label mycrd demo-19", &many),
            "kubectl label mycrd demo-19"
        );
        assert_eq!(
            complete("kubectl edit mycrd demo-199", &many),
            "kubectl edit mycrd demo-199"
        );
        assert_eq!(
            matches("kubectl delete mycrd demo-", &many).len(),
            MAX_NAMED
        );
    }

    #[test]
    fn a_name_in_two_namespaces_is_offered_once() {
        let twice = ["ns-0/demo-7", "ns-1/demo-7"].map(String::from).to_vec();
        assert_eq!(
            matches("kubectl edit mycrd d", &twice),
            ["kubectl edit mycrd demo-7"]
        );
    }

    #[test]
    fn tab_completes_del_to_kubectl_delete() {
        assert!(complete("kubectl del", &objects()).starts_with("kubectl delete "));
        assert_eq!(complete("kubectl zz", &objects()), "kubectl zz");
    }
}
