//! Interventions in words: the `flywheel run --do` values and a scenario action's `to`, parsed
//! strictly; every error says what is allowed.
//!
//! ```text
//!  "rollout:predicate=on,status=patch" ──split at ':'──▶ ("rollout", "predicate=on,…")
//!        ──▶ Intervention::Rollout(Release::Changes { predicate: on, write: StatusPatch, … })
//! ```

use crate::controller::program::WriteVerb;
use crate::scenario::units::parse_bytes;
use crate::scenario::variant::Variant;
use crate::scenario::{
    bounds, presets, ActionKind, Scenario, ScenarioError, ScheduledAction, MIN_CLIENT_QPS,
};

use super::intervention::{Intervention, Release};
use super::target::Target;

/// The `--do` values, for the CLI's help text.
pub const DO_HELP: &str = "\
  edit_spec[:N|:NS/NAME]  kubectl apply a new spec on the first N objects (all without N),
                       or on the object NS/NAME, e.g. edit_spec:default/demo-3
  label[:N|:NS/NAME]   kubectl label the first N objects, or the object NS/NAME
  annotate[:N|:NS/NAME]  another controller annotates the first N objects, or NS/NAME
  delete[:N|:NS/NAME]  kubectl delete the first N objects, or the object NS/NAME,
                       e.g. delete:default/demo-3
  delete_namespaces[:N]  kubectl delete namespace on the first N namespaces
  kill_operator        kill the operator's container (the kubelet restarts it)
  memory_limit:SIZE    kubectl set resources --limits=memory=SIZE (a new Pod), e.g. memory_limit:256Mi
  status_subresource:on|off  update the CRD with or without the /status subresource
  rollout:PRESET       roll out the operator version of a preset (its fixes and CRD), e.g. rollout:fixed
  rollout:K=V,…        roll out the running version with fixes switched: predicate=on|off,
                       guard=on|off, timestamp=on|off, subresource=on|off,
                       write=update|patch|status_update|status_patch,
                       status=update|patch (Status().Update/Patch, with /status)
  limits:K=V,…         seats=N, max_requests_in_flight=N, max_mutating_requests_in_flight=N
                       (API server, at once); client_qps=Q, client_burst=N (a new Pod)
";

const DO_KINDS: &str = "edit_spec, label, annotate, delete, delete_namespaces, kill_operator, \
memory_limit:SIZE, status_subresource:on|off, rollout:PRESET|K=V,…, limits:K=V,…";

const ROLLOUT_KEYS: &str = "predicate, guard, timestamp, subresource, write or status";

const LIMIT_KEYS: &str =
    "seats, max_requests_in_flight, max_mutating_requests_in_flight, client_qps or client_burst";

/// Fixes switched by a rollout, on top of the running version's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VariantChanges {
    /// `GenerationChangedPredicate` on or off.
    pub generation_predicate: Option<bool>,
    /// The `ObservedGeneration` guard on or off.
    pub observed_generation_guard: Option<bool>,
    /// The status timestamp on or off.
    pub timestamp: Option<bool>,
    /// The CRD's `/status` subresource on or off.
    pub status_subresource: Option<bool>,
    /// How Reconcile writes status.
    pub write: Option<WriteVerb>,
}

impl VariantChanges {
    /// Switches `variant`'s fixes named here.
    pub fn apply(&self, variant: &mut Variant) {
        let v = variant;
        v.generation_predicate = self.generation_predicate.unwrap_or(v.generation_predicate);
        v.observed_generation_guard = self
            .observed_generation_guard
            .unwrap_or(v.observed_generation_guard);
        v.timestamp = self.timestamp.unwrap_or(v.timestamp);
        v.status_subresource = self.status_subresource.unwrap_or(v.status_subresource);
        v.write = self.write.unwrap_or(v.write);
    }
}

/// New limits; the ones not named stay.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ApiLimits {
    /// APF seats of the operator's priority level (`apiserver.seats`).
    pub seats: Option<u32>,
    /// `--max-requests-inflight`.
    pub max_requests_in_flight: Option<u32>,
    /// `--max-mutating-requests-inflight`.
    pub max_mutating_requests_in_flight: Option<u32>,
    /// The operator's client QPS (`client.qps`).
    pub client_qps: Option<f64>,
    /// The operator's client burst (`client.burst`).
    pub client_burst: Option<u32>,
}

impl ApiLimits {
    /// Writes the named limits into `scenario`.
    pub fn apply(&self, scenario: &mut Scenario) {
        let a = &mut scenario.apiserver;
        a.seats = self.seats.unwrap_or(a.seats);
        a.max_requests_in_flight = self
            .max_requests_in_flight
            .unwrap_or(a.max_requests_in_flight);
        a.max_mutating_requests_in_flight = self
            .max_mutating_requests_in_flight
            .unwrap_or(a.max_mutating_requests_in_flight);
        let c = &mut scenario.client;
        c.qps = self.client_qps.or(c.qps);
        c.burst = self.client_burst.or(c.burst);
    }

    /// Whether the operator's client changes (which takes a new Pod).
    pub fn changes_client(&self) -> bool {
        self.client_qps.is_some() || self.client_burst.is_some()
    }
}

/// Parses a `--do` value.
pub fn parse(text: &str) -> Result<Intervention, String> {
    let (kind, arg) = match text.split_once(':') {
        Some((k, a)) => (k, Some(a)),
        None => (text, None),
    };
    let count = || parse_count(arg);
    let target = || Target::parse(arg);
    match kind {
        "edit_spec" => Ok(Intervention::EditSpec { target: target()? }),
        "label" => Ok(Intervention::Label { target: target()? }),
        "annotate" => Ok(Intervention::Annotate { target: target()? }),
        "delete" => Ok(Intervention::Delete { target: target()? }),
        "delete_namespaces" => Ok(Intervention::DeleteNamespaces { count: count()? }),
        "kill_operator" if arg.is_none() => Ok(Intervention::KillOperator),
        "memory_limit" => parse_memory_limit(arg.unwrap_or("")),
        "status_subresource" => parse_status_subresource(arg.unwrap_or("")),
        "rollout" => parse_rollout(arg.unwrap_or("")),
        "limits" => parse_limits(arg.unwrap_or("")),
        _ => Err(format!("must be one of {DO_KINDS} (got '{text}')")),
    }
}

/// The intervention of scenario action `a`; the error's field is relative to the action.
pub fn of_action(a: &ScheduledAction) -> Result<Intervention, ScenarioError> {
    let to_err = |message: String| ScenarioError {
        field: "to".into(),
        message,
    };
    let needs_to = matches!(
        a.action,
        ActionKind::Rollout | ActionKind::SetStatusSubresource | ActionKind::SetApiLimits
    );
    let to = match (&a.to, needs_to) {
        (Some(to), true) => to.as_str(),
        (None, true) => return Err(to_err(format!("is required by {}", a.action.as_str()))),
        (Some(_), false) => {
            let allowed = "only for rollout, set_status_subresource and set_api_limits";
            return Err(to_err(format!(
                "is {allowed} (got it on {})",
                a.action.as_str()
            )));
        }
        (None, false) => "",
    };
    let count = a.count;
    let target = action_target(a)?;
    Ok(match a.action {
        ActionKind::EditSpec => Intervention::EditSpec { target },
        ActionKind::Label => Intervention::Label { target },
        ActionKind::Delete => Intervention::Delete { target },
        ActionKind::Annotate => Intervention::Annotate { target },
        ActionKind::KillOperator => Intervention::KillOperator,
        ActionKind::DeleteNamespaces => Intervention::DeleteNamespaces { count },
        ActionKind::SetMemoryLimit => Intervention::SetMemoryLimit {
            memory_limit: a.memory_limit.ok_or_else(|| ScenarioError {
                field: "memory_limit".into(),
                message: "is required by set_memory_limit, a size such as 256Mi".into(),
            })?,
        },
        ActionKind::SetStatusSubresource => parse_status_subresource(to).map_err(to_err)?,
        ActionKind::Rollout => parse_rollout(to).map_err(to_err)?,
        ActionKind::SetApiLimits => parse_limits(to).map_err(to_err)?,
    })
}

/// The objects an action on custom resources acts on: the one named by `object`, else the first
/// `count`, else all.
fn action_target(a: &ScheduledAction) -> Result<Target, ScenarioError> {
    let Some(key) = &a.object else {
        return Ok(Target::of_count(a.count));
    };
    let err = |message: String| ScenarioError {
        field: "object".into(),
        message,
    };
    let on_objects = matches!(
        a.action,
        ActionKind::EditSpec | ActionKind::Label | ActionKind::Annotate | ActionKind::Delete
    );
    if !on_objects {
        return Err(err(format!(
            "is only for edit_spec, label, annotate and delete (got it on {})",
            a.action.as_str()
        )));
    }
    if a.count.is_some() {
        return Err(err(
            "names one object, so it cannot go with count (remove one of them)".into(),
        ));
    }
    Target::parse(Some(key)).map_err(err)
}

fn parse_count(arg: Option<&str>) -> Result<Option<u32>, String> {
    let Some(arg) = arg else { return Ok(None) };
    arg.parse::<u32>()
        .map(Some)
        .map_err(|_| format!("the object count after ':' must be a whole number (got '{arg}')"))
}

fn parse_memory_limit(arg: &str) -> Result<Intervention, String> {
    let memory_limit = parse_bytes(arg).map_err(|e| format!("memory_limit: {e}"))?;
    bounds::check_size("process.memory_limit", memory_limit)
        .map_err(|e| format!("memory_limit {}", e.message))?;
    Ok(Intervention::SetMemoryLimit { memory_limit })
}

fn parse_status_subresource(arg: &str) -> Result<Intervention, String> {
    let enabled = on_off("status_subresource", arg)?;
    Ok(Intervention::SetStatusSubresource { enabled })
}

fn on_off(key: &str, value: &str) -> Result<bool, String> {
    match value {
        "on" | "true" => Ok(true),
        "off" | "false" => Ok(false),
        _ => Err(format!("{key} must be on or off (got '{value}')")),
    }
}

fn parse_rollout(arg: &str) -> Result<Intervention, String> {
    if presets::exists(arg) {
        let preset = presets::load(arg, &[]).map_err(|e| format!("rollout:{arg}: {e}"))?;
        let release = Release::Preset {
            name: arg.to_owned(),
            variant: Variant::of(&preset),
            code: preset.code,
        };
        return Ok(Intervention::Rollout(Box::new(release)));
    }
    if !arg.contains('=') {
        let names: Vec<&str> = presets::names().collect();
        return Err(format!(
            "rollout must name a preset ({}) or switch fixes as {ROLLOUT_KEYS}=… (got '{arg}')",
            names.join(", ")
        ));
    }
    let mut c = VariantChanges::default();
    for (key, value) in pairs(arg)? {
        match key {
            "predicate" => c.generation_predicate = Some(on_off(key, value)?),
            "guard" => c.observed_generation_guard = Some(on_off(key, value)?),
            "timestamp" => c.timestamp = Some(on_off(key, value)?),
            "subresource" => c.status_subresource = Some(on_off(key, value)?),
            "write" => c.write = Some(write_verb(value)?),
            "status" => {
                c.write = Some(match value {
                    "update" => WriteVerb::StatusUpdate,
                    "patch" => WriteVerb::StatusPatch,
                    _ => return Err(format!("status must be update or patch (got '{value}')")),
                });
                c.status_subresource = Some(true);
            }
            _ => return Err(format!("rollout keys are {ROLLOUT_KEYS} (got '{key}')")),
        }
    }
    Ok(Intervention::Rollout(Box::new(Release::Changes(c))))
}

fn write_verb(value: &str) -> Result<WriteVerb, String> {
    match value {
        "update" => Ok(WriteVerb::Update),
        "patch" => Ok(WriteVerb::Patch),
        "status_update" => Ok(WriteVerb::StatusUpdate),
        "status_patch" => Ok(WriteVerb::StatusPatch),
        _ => Err(format!(
            "write must be update, patch, status_update or status_patch (got '{value}')"
        )),
    }
}

fn parse_limits(arg: &str) -> Result<Intervention, String> {
    let mut l = ApiLimits::default();
    for (key, value) in pairs(arg)? {
        let field = match key {
            "seats" | "max_requests_in_flight" | "max_mutating_requests_in_flight" => {
                format!("apiserver.{key}")
            }
            "client_qps" => {
                l.client_qps = Some(client_qps(value)?);
                continue;
            }
            "client_burst" => "client.burst".to_owned(),
            _ => return Err(format!("limits keys are {LIMIT_KEYS} (got '{key}')")),
        };
        let n = value
            .parse::<u32>()
            .map_err(|_| whole_err(key, &field, value))?;
        bounds::check_whole(&field, u64::from(n)).map_err(|_| whole_err(key, &field, value))?;
        let slot = match key {
            "seats" => &mut l.seats,
            "max_requests_in_flight" => &mut l.max_requests_in_flight,
            "max_mutating_requests_in_flight" => &mut l.max_mutating_requests_in_flight,
            _ => &mut l.client_burst,
        };
        *slot = Some(n);
    }
    Ok(Intervention::SetApiLimits(l))
}

fn whole_err(key: &str, field: &str, value: &str) -> String {
    let words = bounds::accepts(field).map_or_else(
        || "a whole number".to_owned(),
        super::super::scenario::bounds::Accepts::words,
    );
    format!("{key} must be {words} (got '{value}')")
}

fn client_qps(value: &str) -> Result<f64, String> {
    let err = || format!("client_qps must be {} (got '{value}')", bounds::QPS);
    let qps: f64 = value.parse().map_err(|_| err())?;
    let slow = qps > 0.0 && qps < MIN_CLIENT_QPS;
    if !qps.is_finite() || qps > 1e6 || slow {
        return Err(err());
    }
    Ok(qps)
}

/// `k=v,k=v` as pairs; an empty list or a part without `=` is an error.
fn pairs(arg: &str) -> Result<Vec<(&str, &str)>, String> {
    if arg.is_empty() {
        return Err("needs KEY=VALUE pairs after ':' (separated by ',')".into());
    }
    arg.split(',')
        .map(|part| {
            part.split_once('=')
                .ok_or_else(|| format!("'{part}' must be KEY=VALUE"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_do_value_parses_to_its_intervention() {
        let cases = [
            ("edit_spec", ActionKind::EditSpec),
            ("label:3", ActionKind::Label),
            ("annotate", ActionKind::Annotate),
            ("delete:1", ActionKind::Delete),
            ("delete_namespaces:2", ActionKind::DeleteNamespaces),
            ("kill_operator", ActionKind::KillOperator),
            ("memory_limit:256Mi", ActionKind::SetMemoryLimit),
            ("status_subresource:off", ActionKind::SetStatusSubresource),
            ("rollout:fixed", ActionKind::Rollout),
            ("rollout:predicate=on,status=patch", ActionKind::Rollout),
            ("limits:seats=4,client_qps=5", ActionKind::SetApiLimits),
        ];
        for (text, kind) in cases {
            let parsed = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(parsed.action_kind(), kind, "{text}");
        }
    }

    #[test]
    fn status_patch_in_a_rollout_brings_the_status_subresource_with_it() {
        let Ok(Intervention::Rollout(release)) = parse("rollout:predicate=on,status=patch") else {
            panic!("a rollout");
        };
        let Release::Changes(changes) = *release else {
            panic!("changes");
        };
        assert_eq!(changes.write, Some(WriteVerb::StatusPatch));
        assert_eq!(changes.status_subresource, Some(true));
        assert_eq!(changes.generation_predicate, Some(true));
        assert_eq!(changes.observed_generation_guard, None);
    }

    #[test]
    fn a_rollout_of_the_fixed_preset_turns_the_flywheel_into_the_fixed_code() {
        let Ok(Intervention::Rollout(release)) = parse("rollout:fixed") else {
            panic!("a rollout");
        };
        let mut flywheel = presets::load("flywheel", &[]).expect("preset");
        release.apply(&mut flywheel);
        let fixed = presets::load("fixed", &[]).expect("preset");
        assert_eq!(flywheel.reconcile, fixed.reconcile);
        assert_eq!(flywheel.controller.predicates, fixed.controller.predicates);
        assert_eq!(flywheel.crd, fixed.crd);
    }

    #[test]
    fn a_key_after_the_colon_names_one_object_and_a_count_keeps_its_meaning() {
        let key = Target::Key("default/demo-3".into());
        assert_eq!(
            parse("delete:default/demo-3"),
            Ok(Intervention::Delete {
                target: key.clone()
            })
        );
        assert_eq!(
            parse("edit_spec:default/demo-3"),
            Ok(Intervention::EditSpec { target: key })
        );
        assert_eq!(
            parse("label:2"),
            Ok(Intervention::Label {
                target: Target::First(2)
            })
        );
        assert_eq!(
            parse("delete"),
            Ok(Intervention::Delete {
                target: Target::All
            })
        );
        assert!(parse("delete:demo-3").is_err());
    }

    #[test]
    fn kill_operator_takes_no_argument() {
        let err = parse("kill_operator:now").expect_err("no argument");
        assert!(err.contains("must be one of"), "{err}");
    }
}
