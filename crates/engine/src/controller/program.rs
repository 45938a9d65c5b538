//! Reconcile logic as data: a small program of steps, each with a cost.
//!
//! A [`Program`] is what a scenario's `Reconcile` does, in order. The simulation executes it step
//! by step against the cache-backed client and the API server, and [`crate::controller::go_code`]
//! renders it as the controller-runtime Go code it stands for.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::ConfigError;
use crate::float_text::Shortest;

/// How a reconcile writes the object back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteVerb {
    /// `r.Update(ctx, obj)`: PUT of the whole object (main endpoint).
    Update,
    /// `r.Status().Update(ctx, obj)`: PUT to the `/status` subresource.
    StatusUpdate,
    /// `r.Status().Patch(ctx, obj, client.MergeFrom(orig))`: merge patch to `/status`, no RV.
    StatusPatch,
    /// `r.Patch(ctx, obj, client.MergeFrom(orig))`: merge patch to the main endpoint, no RV.
    Patch,
}

impl WriteVerb {
    /// The HTTP verb the request uses.
    pub fn http_verb(self) -> &'static str {
        match self {
            WriteVerb::Update | WriteVerb::StatusUpdate => "PUT",
            WriteVerb::StatusPatch | WriteVerb::Patch => "PATCH",
        }
    }

    /// Whether it targets the `/status` subresource.
    pub fn is_status(self) -> bool {
        matches!(self, WriteVerb::StatusUpdate | WriteVerb::StatusPatch)
    }
}

/// The value a `set_status` step writes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StatusValue {
    /// A constant string (idempotent: writing it twice changes nothing).
    Constant(String),
    /// `metav1.Now()`: the current time. `metav1.Time` serializes as RFC 3339 with whole seconds
    /// (apimachinery `pkg/apis/meta/v1/time.go`), so two writes within one second are identical.
    Now,
    /// `metav1.NowMicro()`: the current time with microseconds (`metav1.MicroTime`): changes on
    /// every write.
    NowMicro,
    /// A counter incremented on every reconcile.
    Counter,
    /// `obj.Generation`: the generation the reconcile observed.
    ObservedGeneration,
}

/// Which objects a `list` step reads from the cache.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListScope {
    /// `r.List(ctx, &list)`: every object of the kind in every namespace.
    AllNamespaces,
    /// `r.List(ctx, &list, client.InNamespace(obj.Namespace))`.
    Namespace,
    /// `r.List(ctx, &list, client.MatchingFields{field: obj.Name})` through a `FieldIndexer`.
    FieldIndex {
        /// The indexed field, e.g. `.metadata.ownerReferences.name`.
        field: String,
    },
}

/// What a reconcile returns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReturnValue {
    /// `ctrl.Result{}, nil`.
    Ok,
    /// `ctrl.Result{}, err`.
    Error,
    /// `ctrl.Result{RequeueAfter: d}, nil`.
    RequeueAfter {
        /// The delay.
        #[serde(with = "crate::scenario::duration_str")]
        after: Duration,
    },
    /// `ctrl.Result{Requeue: true}, nil`: a rate-limited requeue without `Forget`.
    Requeue,
    /// `ctrl.Result{}, reconcile.TerminalError(err)`: counted as an error, never retried.
    TerminalError,
    /// `ctrl.Result{RequeueAfter: d}, err`: the error wins and the `RequeueAfter` is ignored.
    ErrorWithRequeueAfter {
        /// The delay that is ignored.
        #[serde(with = "crate::scenario::duration_str")]
        after: Duration,
    },
}

/// One step of a reconcile program.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    /// `r.Get(ctx, req.NamespacedName, &obj)` from the cache (a deep copy); NotFound ends the
    /// reconcile with success (`client.IgnoreNotFound`).
    Get,
    /// `if obj.Status.ObservedGeneration == obj.Generation { return ctrl.Result{}, nil }`.
    GuardObservedGeneration,
    /// `r.DoSomeHeavyLogic(ctx, &obj)`: takes time and allocates.
    HeavyLogic {
        /// How long it runs.
        #[serde(with = "crate::scenario::duration_str")]
        duration: Duration,
        /// Bytes it allocates (garbage once the reconcile ends).
        #[serde(default, with = "crate::scenario::bytes_str")]
        alloc_bytes: u64,
    },
    /// A `List` from the cache.
    List {
        /// The kind listed (`Pod`, or the custom resource's kind).
        kind: String,
        /// Which objects.
        scope: ListScope,
    },
    /// `obj.Status.<field> = <value>`.
    SetStatus {
        /// The status field, e.g. `lastUpdated`.
        field: String,
        /// The value written.
        value: StatusValue,
    },
    /// Writes the object back.
    Write {
        /// How.
        verb: WriteVerb,
    },
    /// `controllerutil.AddFinalizer(&obj, name)` followed by an Update.
    AddFinalizer {
        /// The finalizer.
        name: String,
    },
    /// `controllerutil.RemoveFinalizer(&obj, name)` followed by an Update.
    RemoveFinalizer {
        /// The finalizer.
        name: String,
    },
    /// Cleans up something outside the cluster; may fail.
    ExternalCleanup {
        /// How long it takes.
        #[serde(with = "crate::scenario::duration_str")]
        duration: Duration,
        /// The chance that it fails, from 0 to 1.
        #[serde(default)]
        failure_probability: f64,
    },
    /// Lists the Pods the object owns, the way `code.pod_list` says, from the Pod informer's
    /// cache (started by the first List of Pods, as controller-runtime starts an informer on the
    /// first read of a type).
    ListPods,
    /// `w, err := r.watchClient.Watch(ctx, &list, ...)`: opens a watch on the custom resources;
    /// it is stopped when Reconcile returns only if `code.stop_watch`.
    OpenWatch,
    /// Logs the object `times` times, the way `code.log` says.
    LogObject {
        /// Log calls per reconcile that carry the object.
        times: u32,
    },
    /// Calls a service outside the cluster; with `code.external_timeout` it runs under a context
    /// deadline, without one a hung call waits until `hang_for` is over.
    ExternalCall {
        /// How long an answered call takes.
        #[serde(with = "crate::scenario::duration_str")]
        duration: Duration,
        /// The chance that the service never answers, from 0 to 1.
        #[serde(default)]
        hang_probability: f64,
        /// How long a call without a deadline hangs (the server keeps the connection open).
        #[serde(default = "default_hang", with = "crate::scenario::duration_str")]
        hang_for: Duration,
    },
    /// The finalizer state machine: without a deletionTimestamp, adds `name` if missing (Update);
    /// with one, runs the external cleanup and removes `name` (Update), the way
    /// `code.finalizer` says, and ends the reconcile.
    Finalize {
        /// The finalizer.
        name: String,
        /// How long the external cleanup takes.
        #[serde(with = "crate::scenario::duration_str")]
        cleanup: Duration,
        /// The chance that the cleanup fails, from 0 to 1.
        #[serde(default)]
        failure_probability: f64,
    },
    /// Makes sure the object's Pods (`pods.per_object`) exist: recreates missing (evicted) ones
    /// at once, or first checks the Node's `MemoryPressure` condition if
    /// `code.check_memory_pressure`.
    EnsurePods,
    /// `panic(...)` in Reconcile: recovered into an error when `RecoverPanic` is on (the default
    /// from controller-runtime v0.19), else the process crashes and the container restarts.
    Panic,
    /// Returns from Reconcile.
    Return {
        /// The value returned.
        value: ReturnValue,
    },
}

fn default_hang() -> Duration {
    Duration::from_secs(3600)
}

/// Upper bound on program length (every loop and buffer in the engine has a named bound).
pub const MAX_PROGRAM_STEPS: usize = 64;
/// Upper bound on any step's duration.
pub const MAX_STEP_DURATION: Duration = Duration::from_secs(3600);
/// Upper bound on a heavy-logic allocation.
pub const MAX_ALLOC_BYTES: u64 = 1 << 34;

/// A reconcile program: its steps, in order. A program that runs off its end returns `Ok`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Program {
    /// The steps.
    pub steps: Vec<Step>,
}

impl Program {
    /// Checks bounds and the program's shape; `field` is the path used in error messages.
    pub fn validate(&self, field: &str) -> Result<(), ConfigError> {
        if self.steps.len() > MAX_PROGRAM_STEPS {
            let msg = format!(
                "at most {MAX_PROGRAM_STEPS} steps are allowed (got {})",
                self.steps.len()
            );
            return Err(ConfigError::new(field, msg));
        }
        for (i, step) in self.steps.iter().enumerate() {
            validate_step(step, &format!("{field}[{i}]"))?;
        }
        Ok(())
    }

    /// Whether any step writes the object (used to explain a scenario).
    pub fn writes(&self) -> Option<WriteVerb> {
        self.steps.iter().find_map(|s| match s {
            Step::Write { verb } => Some(*verb),
            _ => None,
        })
    }

    /// Whether the program guards on `status.observedGeneration`.
    pub fn has_observed_generation_guard(&self) -> bool {
        self.steps.contains(&Step::GuardObservedGeneration)
    }
}

fn validate_duration(d: Duration, field: &str) -> Result<(), ConfigError> {
    if d > MAX_STEP_DURATION {
        return Err(ConfigError::new(
            field,
            format!("must be at most 1h (got {d:?})"),
        ));
    }
    Ok(())
}

fn validate_step(step: &Step, field: &str) -> Result<(), ConfigError> {
    match step {
        Step::HeavyLogic {
            duration,
            alloc_bytes,
        } => {
            validate_duration(*duration, &format!("{field}.heavy_logic.duration"))?;
            if *alloc_bytes > MAX_ALLOC_BYTES {
                let msg = format!("must be at most {MAX_ALLOC_BYTES} (16 GiB), got {alloc_bytes}");
                return Err(ConfigError::new(
                    format!("{field}.heavy_logic.alloc_bytes"),
                    msg,
                ));
            }
        }
        Step::ExternalCleanup {
            duration,
            failure_probability,
        } => {
            validate_duration(*duration, &format!("{field}.external_cleanup.duration"))?;
            if !(0.0..=1.0).contains(failure_probability) {
                let msg = format!(
                    "must be between 0 and 1 (got {})",
                    Shortest(*failure_probability)
                );
                return Err(ConfigError::new(
                    format!("{field}.external_cleanup.failure_probability"),
                    msg,
                ));
            }
        }
        Step::LogObject { times } if !(1..=1000).contains(times) => {
            let msg = format!("must be from 1 to 1000 (got {times})");
            return Err(ConfigError::new(format!("{field}.log_object.times"), msg));
        }
        Step::ExternalCall {
            duration,
            hang_probability,
            hang_for,
        } => {
            validate_duration(*duration, &format!("{field}.external_call.duration"))?;
            validate_duration(*hang_for, &format!("{field}.external_call.hang_for"))?;
            if !(0.0..=1.0).contains(hang_probability) {
                let msg = format!(
                    "must be between 0 and 1 (got {})",
                    Shortest(*hang_probability)
                );
                return Err(ConfigError::new(
                    format!("{field}.external_call.hang_probability"),
                    msg,
                ));
            }
        }
        Step::Finalize {
            name,
            cleanup,
            failure_probability,
        } => {
            validate_duration(*cleanup, &format!("{field}.finalize.cleanup"))?;
            if !(0.0..=1.0).contains(failure_probability) {
                let msg = format!(
                    "must be between 0 and 1 (got {})",
                    Shortest(*failure_probability)
                );
                return Err(ConfigError::new(
                    format!("{field}.finalize.failure_probability"),
                    msg,
                ));
            }
            if name.is_empty() || name.len() > 253 || !name.contains('/') {
                let msg =
                    format!("must be a qualified name such as example.com/cleanup (got '{name}')");
                return Err(ConfigError::new(format!("{field}.finalize.name"), msg));
            }
        }
        Step::SetStatus { field: name, .. } if !is_identifier(name) => {
            let msg = format!("must be a field name of letters and digits (got '{name}')");
            return Err(ConfigError::new(format!("{field}.set_status.field"), msg));
        }
        Step::Return {
            value:
                ReturnValue::RequeueAfter { after } | ReturnValue::ErrorWithRequeueAfter { after },
        } => {
            validate_duration(*after, &format!("{field}.return.after"))?;
            if after.is_zero() {
                let msg = "must be more than 0s (a zero RequeueAfter is no requeue)";
                return Err(ConfigError::new(format!("{field}.return.after"), msg));
            }
        }
        _ => {}
    }
    Ok(())
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(steps: &str) -> Program {
        toml::from_str(&format!("steps = [{steps}]")).expect("a program")
    }

    #[test]
    fn the_new_results_and_panic_have_scenario_spellings() {
        let p = parse(
            r#""panic", { return = { value = "requeue" } }, { return = { value = "terminal_error" } },
            { return = { value = { error_with_requeue_after = { after = "30s" } } } }"#,
        );
        assert_eq!(p.steps[0], Step::Panic);
        let values = [
            ReturnValue::Requeue,
            ReturnValue::TerminalError,
            ReturnValue::ErrorWithRequeueAfter {
                after: Duration::from_secs(30),
            },
        ];
        for (step, value) in p.steps[1..].iter().zip(values) {
            assert_eq!(step, &Step::Return { value });
        }
        assert!(p.validate("reconcile.steps").is_ok());
    }

    #[test]
    fn a_zero_or_overlong_requeue_after_is_rejected_naming_the_field() {
        let zero = parse(r#"{ return = { value = { requeue_after = { after = "0s" } } } }"#);
        let err = zero.validate("reconcile.steps").expect_err("zero");
        assert_eq!(err.field, "reconcile.steps[0].return.after");
        let long =
            parse(r#"{ return = { value = { error_with_requeue_after = { after = "2h" } } } }"#);
        let err = long.validate("reconcile.steps").expect_err("too long");
        assert_eq!(err.field, "reconcile.steps[0].return.after");
    }
}
