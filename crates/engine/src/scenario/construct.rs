//! Writes every preset as the Rust code that builds it (`presets_built.rs`), so that a build
//! without the `toml` feature (the page) builds its presets as values and carries neither a
//! parser nor a deserializer for them. The code is written from the TOML files by the test
//! below, which rewrites the file and fails when it is out of date.

use std::fmt::Write as _;
use std::time::Duration;

use super::presets;
use super::text::{PresetText, Words};
use super::workload::{FinalizerMode, LogMode, Placement, PodList};
use super::{
    ActionKind, ApiServerConfig, CacheConfig, ClientConfig, CodeConfig, ControllerConfig,
    CrdConfig, FifoKind, FlowControlMode, NodesConfig, ObjectsConfig, PodsConfig, PredicateKind,
    ProcessConfig, Profile, QueueKind, Scenario, ScheduledAction,
};
use crate::apiserver::{LatencyConfig, WatchCacheConfig};
use crate::controller::program::{ListScope, Program, ReturnValue, StatusValue, Step, WriteVerb};

/// A value that can write the Rust expression building it.
trait Construct {
    /// Appends the expression to `out`; `indent` is the indentation of the line it starts on.
    fn construct(&self, out: &mut String, indent: usize);
}

macro_rules! construct_as_literal {
    ($($ty:ty),*) => {$(
        impl Construct for $ty {
            fn construct(&self, out: &mut String, _: usize) {
                let _ = write!(out, "{self:?}");
            }
        }
    )*};
}

construct_as_literal!(bool, u32, u64, usize, f64);

impl Construct for String {
    fn construct(&self, out: &mut String, _: usize) {
        if self.is_empty() {
            out.push_str("String::new()");
            return;
        }
        let _ = write!(out, "String::from({self:?})");
    }
}

impl Construct for Duration {
    fn construct(&self, out: &mut String, _: usize) {
        let _ = write!(out, "Duration::from_nanos({})", self.as_nanos());
    }
}

impl<T: Construct> Construct for Option<T> {
    fn construct(&self, out: &mut String, indent: usize) {
        match self {
            None => out.push_str("None"),
            Some(v) => {
                out.push_str("Some(");
                v.construct(out, indent);
                out.push(')');
            }
        }
    }
}

impl<T: Construct> Construct for Vec<T> {
    fn construct(&self, out: &mut String, indent: usize) {
        if self.is_empty() {
            out.push_str("Vec::new()");
            return;
        }
        out.push_str("vec![\n");
        for v in self {
            pad(out, indent + 1);
            v.construct(out, indent + 1);
            out.push_str(",\n");
        }
        pad(out, indent);
        out.push(']');
    }
}

fn pad(out: &mut String, indent: usize) {
    out.push_str(&"    ".repeat(indent));
}

/// Writes `name: value` on a line of its own.
fn field(out: &mut String, indent: usize, name: &str, value: &dyn Construct) {
    pad(out, indent + 1);
    let _ = write!(out, "{name}: ");
    value.construct(out, indent + 1);
    out.push_str(",\n");
}

/// A struct: every field (`all`), or the fields that differ from its default (`changed`).
macro_rules! construct_struct {
    (all $ty:ident { $($f:ident),* }) => {
        impl Construct for $ty {
            fn construct(&self, out: &mut String, indent: usize) {
                let $ty { $($f),* } = self;
                out.push_str(concat!(stringify!($ty), " {\n"));
                $(field(out, indent, stringify!($f), $f);)*
                pad(out, indent);
                out.push('}');
            }
        }
    };
    (changed $ty:ident { $($f:ident),* }) => {
        impl Construct for $ty {
            fn construct(&self, out: &mut String, indent: usize) {
                let $ty { $($f),* } = self;
                let default = $ty::default();
                if *self == default {
                    out.push_str(concat!(stringify!($ty), "::default()"));
                    return;
                }
                out.push_str(concat!(stringify!($ty), " {\n"));
                let mut all = true;
                $(
                    if *$f == default.$f {
                        all = false;
                    } else {
                        field(out, indent, stringify!($f), $f);
                    }
                )*
                if !all {
                    pad(out, indent + 1);
                    out.push_str(concat!("..", stringify!($ty), "::default()\n"));
                }
                pad(out, indent);
                out.push('}');
            }
        }
    };
}

/// An enum of unit variants and variants with named fields.
macro_rules! construct_enum {
    ($ty:ident { $($v:ident $({ $($f:ident),* })?),* $(,)? }) => {
        impl Construct for $ty {
            fn construct(&self, out: &mut String, indent: usize) {
                let _ = indent;
                match self {
                    $($ty::$v $({ $($f),* })? => {
                        out.push_str(concat!(stringify!($ty), "::", stringify!($v)));
                        $(
                            out.push_str(" {");
                            $(
                                out.push_str(concat!(" ", stringify!($f), ": "));
                                $f.construct(out, indent);
                                out.push(',');
                            )*
                            out.pop();
                            out.push_str(" }");
                        )?
                    })*
                }
            }
        }
    };
}

construct_struct!(all Scenario {
    name, title, group, summary, seed, duration, profile, crd, objects, controller, reconcile,
    client, apiserver, process, actions, code, cache, pods, nodes, text
});
construct_struct!(changed Words { title, narration, try_this });

construct_struct!(changed PresetText { en, zh_cn });
construct_struct!(changed CrdConfig { kind, status_subresource });
construct_struct!(changed ObjectsConfig { count, namespaces, size_bytes, create_at, finalizers });
construct_struct!(changed ControllerConfig {
    workers, predicates, fifo, queue, informer_cost_per_kib, handler_cost,
    cache_read_cost_per_kib, cache_sync_timeout
});
construct_struct!(changed ClientConfig { qps, burst });
construct_struct!(changed ApiServerConfig {
    flow_control, seats, queue_capacity, queue_wait, max_requests_in_flight,
    max_mutating_requests_in_flight, etcd_writes_per_second, watch_latency, latency, watch_cache
});
construct_struct!(changed LatencyConfig {
    get_ms, list_ms, watch_ms, create_ms, update_ms, patch_ms, delete_ms, per_kib_ms,
    per_list_item_ms, jitter_fraction
});
construct_struct!(changed WatchCacheConfig { lower_capacity, upper_capacity, event_fresh_duration_s });
construct_struct!(changed ProcessConfig { memory_limit, gogc, gomemlimit, baseline });
construct_struct!(all ScheduledAction { at, action, count, every, until, memory_limit, to, object });
construct_struct!(changed CodeConfig {
    pod_list, stop_watch, log, external_timeout, timeout_requeue_after, finalizer,
    check_memory_pressure, pressure_requeue_after, placement
});
construct_struct!(changed CacheConfig { namespaced, metadata_only });
construct_struct!(changed PodsConfig {
    count, namespaces, per_object, size_bytes, metadata_size_bytes, memory_request, memory_limit,
    memory_usage, warmup
});
construct_struct!(changed NodesConfig {
    count, memory_capacity, other_usage, eviction_hard_memory_available,
    pressure_transition_period, eviction_interval
});
construct_struct!(all Program { steps });

construct_enum!(Profile { Seed, Modern });
construct_enum!(PredicateKind {
    GenerationChanged,
    ResourceVersionChanged,
    AnnotationChanged,
    LabelChanged
});
construct_enum!(FifoKind {
    DeltaFifo,
    RealFifo,
    AtomicFifo
});
construct_enum!(QueueKind { Classic, Priority });
construct_enum!(FlowControlMode { Apf, MaxInFlight });
construct_enum!(ActionKind {
    EditSpec,
    Label,
    Delete,
    KillOperator,
    Annotate,
    DeleteNamespaces,
    SetMemoryLimit,
    Rollout,
    SetStatusSubresource,
    SetApiLimits
});
construct_enum!(PodList {
    AllNamespaces,
    Namespace,
    FieldIndex
});
construct_enum!(FinalizerMode {
    Safe,
    RemoveOnFailure
});
construct_enum!(LogMode {
    WholeObject,
    Counts
});
construct_enum!(Placement {
    Scheduler,
    NodeName
});
construct_enum!(WriteVerb {
    Update,
    StatusUpdate,
    StatusPatch,
    Patch
});
construct_enum!(ListScope { AllNamespaces, Namespace, FieldIndex { field } });
construct_enum!(ReturnValue {
    Ok, Error, RequeueAfter { after }, Requeue, TerminalError, ErrorWithRequeueAfter { after }
});
construct_enum!(Step {
    Get,
    GuardObservedGeneration,
    HeavyLogic { duration, alloc_bytes },
    List { kind, scope },
    SetStatus { field, value },
    Write { verb },
    AddFinalizer { name },
    RemoveFinalizer { name },
    ExternalCleanup { duration, failure_probability },
    ListPods,
    OpenWatch,
    LogObject { times },
    ExternalCall { duration, hang_probability, hang_for },
    Finalize { name, cleanup, failure_probability },
    EnsurePods,
    Panic,
    Return { value },
});

impl Construct for StatusValue {
    fn construct(&self, out: &mut String, indent: usize) {
        match self {
            StatusValue::Constant(text) => {
                out.push_str("StatusValue::Constant(");
                text.construct(out, indent);
                out.push(')');
            }
            StatusValue::Now => out.push_str("StatusValue::Now"),
            StatusValue::NowMicro => out.push_str("StatusValue::NowMicro"),
            StatusValue::Counter => out.push_str("StatusValue::Counter"),
            StatusValue::ObservedGeneration => out.push_str("StatusValue::ObservedGeneration"),
        }
    }
}

const HEADER: &str = "\
//! Every preset built as a value, written from `crates/engine/scenarios/*.toml` by the test
//! `scenario::construct::tests::the_built_presets_are_written_from_the_scenario_files`
//! (`cargo test -p flywheel-engine --lib construct` rewrites this file). Do not edit.

// The imports name every type a preset may hold; the presets of the day use some of them.
#![allow(unused_imports)]

use std::time::Duration;

use super::text::{PresetText, Words};
use super::workload::{FinalizerMode, LogMode, Placement, PodList};
use super::{
    ActionKind, ApiServerConfig, CacheConfig, ClientConfig, CodeConfig, ControllerConfig,
    CrdConfig, FifoKind, FlowControlMode, NodesConfig, ObjectsConfig, PodsConfig, PredicateKind,
    ProcessConfig, Profile, QueueKind, Scenario, ScheduledAction,
};
use crate::apiserver::{LatencyConfig, WatchCacheConfig};
use crate::controller::program::{ListScope, Program, ReturnValue, StatusValue, Step, WriteVerb};

/// The preset `name` as a value, or `None` for a name that is not a preset.
#[inline]
pub fn built(name: &str) -> Option<Scenario> {
    let scenario = match name {
";

/// The text of `presets_built.rs`: a `built(name)` that builds each preset parsed from its file.
fn built_presets_code() -> String {
    let mut out = String::from(HEADER);
    for name in presets::names() {
        let scenario = presets::load(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let _ = write!(out, "        {name:?} => ");
        presets::without_words(&scenario).construct(&mut out, 2);
        out.push_str(",\n");
    }
    out.push_str("        _ => return None,\n    };\n    Some(scenario)\n}\n");
    out
}

/// The text of `presets_words.rs`: every preset's [`super::text::PresetWords`], from its file.
fn preset_words_code() -> String {
    let mut out = String::from(WORDS_HEADER);
    for name in presets::names() {
        let s = presets::load(name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let _ = write!(
            out,
            "    PresetWords {{\n        name: {name:?},\n        title: {:?},\n        \
             title_zh: {:?},\n        summary: {:?},\n    }},\n",
            s.title, s.text.zh_cn.title, s.summary
        );
    }
    out.push_str("];\n");
    out
}

/// The start of `presets_words.rs`.
const WORDS_HEADER: &str = "\
//! Every preset's titles and summary, written from `crates/engine/scenarios/*.toml` by the test
//! `scenario::construct::tests::the_built_presets_are_written_from_the_scenario_files`
//! (`cargo test -p flywheel-engine --lib built_presets` rewrites this file). Do not edit.

use super::text::PresetWords;

/// Every preset's words, in the presets' order.
pub static PRESET_WORDS: &[PresetWords] = &[
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_presets_are_written_from_the_scenario_files() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/scenario");
        let bless = "cargo test -p flywheel-engine --lib built_presets";
        let mut rewritten = Vec::new();
        for (file, want) in [
            ("presets_built.rs", built_presets_code()),
            ("presets_words.rs", preset_words_code()),
        ] {
            let path = format!("{dir}/{file}");
            if crate::testing::bless_or_check(path.as_ref(), &want, bless) {
                rewritten.push(file);
            }
        }
        assert!(
            rewritten.is_empty(),
            "{rewritten:?} rewritten: rebuild and run the tests again"
        );
    }

    #[test]
    fn a_struct_equal_to_its_default_is_written_as_its_default() {
        let mut out = String::new();
        CrdConfig::default().construct(&mut out, 0);
        assert_eq!(out, "CrdConfig::default()");
        let mut out = String::new();
        let crd = CrdConfig {
            status_subresource: true,
            ..CrdConfig::default()
        };
        crd.construct(&mut out, 0);
        assert_eq!(
            out,
            "CrdConfig {\n    status_subresource: true,\n    ..CrdConfig::default()\n}"
        );
    }

    #[test]
    fn a_step_is_written_with_its_fields_on_one_line() {
        let mut out = String::new();
        let step = Step::HeavyLogic {
            duration: Duration::from_millis(20),
            alloc_bytes: 65536,
        };
        step.construct(&mut out, 0);
        assert_eq!(
            out,
            "Step::HeavyLogic { duration: Duration::from_nanos(20000000), alloc_bytes: 65536 }"
        );
    }
}
