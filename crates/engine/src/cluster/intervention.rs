//! Interventions: real Kubernetes operations applied to a run at any instant — from a
//! scenario's `[[actions]]`, from `flywheel run --at 3m --do rollout:fixed`, or after a seek
//! with [`Run::fork_with`], where one starts a new branch.
//!
//! ```text
//!  --do text / [[actions]] ──parse──▶ Intervention ──Run::intervene──▶ Ev::Intervene at now
//!                                                                        │ handled
//!          kubectl edit / label / delete ◀─────────────────────────────┤ (traced `kubectl …`)
//!          kubectl apply CRD (/status)   ◀─────────────────────────────┤
//!          kubectl set resources, rollout (a new Pod) ◀─────────────────┤
//!          flow-control limits, client QPS (a new Pod) ◀────────────────┘
//! ```
//!
//! A rollout follows a Deployment's default `RollingUpdate` strategy only in part. Upstream
//! (`pkg/controller/deployment/rolling.go`, `pkg/controller/deployment/util/deployment_util.go`
//! `ResolveFenceposts`) rounds `maxSurge: 25%` of one replica up to 1 and `maxUnavailable:
//! 25%` down to 0, so the new Pod starts while the old one runs and the old one is stopped once
//! the new one is ready; with leader election (the kubebuilder default) only the lease holder
//! reconciles, so the two never run workers at the same time. Flywheel models one operator
//! Pod: the old Pod stops when the rollout begins and the new Pod starts 2 s later (the same
//! start as `kubectl set resources`), lists, syncs its cache and starts its workers with the
//! new code. The overlap of the two caches, and the wait for the lease, are not modelled.
//!
//! ```
//! use std::time::Duration;
//! use flywheel_engine::cluster::intervention::Intervention;
//! use flywheel_engine::cluster::run::{Run, RunOptions};
//! use flywheel_engine::{scenario::presets, SimTime};
//!
//! let scenario = presets::load("flywheel", &[]).unwrap();
//! let options = RunOptions { duration: Some(Duration::from_secs(40)), ..RunOptions::default() };
//! let mut run = Run::new(scenario, &options).unwrap();
//! run.advance_to(SimTime::ZERO + Duration::from_secs(20), u64::MAX);
//! run.intervene(Intervention::parse("rollout:fixed").unwrap());
//! while !run.advance(100_000) {}
//! assert!(run.trace().to_text().contains("kubectl Rollout"));
//! ```

use crate::object::ObjectRef;
use crate::scenario::variant::Variant;
use crate::scenario::{ActionKind, CodeConfig, Scenario, ScheduledAction};
use crate::sim::{Context, EventKind, TerminatedReason};
use crate::time::SimTime;

use super::request::{Call, NamespacedName, Origin};
use super::run::Run;
use super::target::Target;
use super::timeline::BranchId;
use super::{Cluster, Ev};

pub use super::intervention_text::{ApiLimits, VariantChanges, DO_HELP};

/// A Kubernetes operation on the running cluster.
#[derive(Clone, Debug, PartialEq)]
pub enum Intervention {
    /// `kubectl apply` of a new spec on the objects targeted: `spec.replicas` goes up by
    /// one, and with it `metadata.generation`.
    EditSpec {
        /// Which objects.
        target: Target,
    },
    /// `kubectl label` on the objects targeted (metadata only).
    Label {
        /// Which objects.
        target: Target,
    },
    /// `kubectl delete` of the objects targeted.
    Delete {
        /// Which objects.
        target: Target,
    },
    /// Another controller writes a new annotation value on the objects targeted.
    Annotate {
        /// Which objects.
        target: Target,
    },
    /// The operator's container is killed; the kubelet restarts it after its back-off.
    KillOperator,
    /// `kubectl delete namespace` on the first `count` of the operator's namespaces.
    DeleteNamespaces {
        /// How many namespaces.
        count: Option<u32>,
    },
    /// `kubectl set resources --limits=memory=…`: a new Pod under the new limit.
    SetMemoryLimit {
        /// The new limit in bytes.
        memory_limit: u64,
    },
    /// The CRD is updated with (`true`) or without the `/status` subresource.
    SetStatusSubresource {
        /// Whether `/status` is served.
        enabled: bool,
    },
    /// A new version of the operator is rolled out: a new Pod with the release's code.
    Rollout(Box<Release>),
    /// New admission limits on the API server, or a new client QPS for the operator.
    SetApiLimits(ApiLimits),
}

/// What a rolled-out operator version runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Release {
    /// The code (fixes and code switches) of a preset, with its CRD's `/status` subresource
    /// (a kubebuilder project's `make deploy` applies the CRD with the Deployment).
    Preset {
        /// The preset's name.
        name: String,
        /// Its seed-000 fixes.
        variant: Variant,
        /// Its seed-001/004 code switches.
        code: CodeConfig,
    },
    /// The running version with some fixes switched.
    Changes(VariantChanges),
}

impl Release {
    /// Rewrites `scenario`'s operator code (and CRD) to this release's.
    pub fn apply(&self, scenario: &mut Scenario) {
        match self {
            Release::Preset { variant, code, .. } => {
                variant.apply(scenario);
                scenario.code = code.clone();
            }
            Release::Changes(changes) => {
                let mut variant = Variant::of(scenario);
                changes.apply(&mut variant);
                variant.apply(scenario);
            }
        }
    }
}

impl Intervention {
    /// The intervention a scenario action describes; an error names the action's field
    /// (`to`, `memory_limit`) and what it allows.
    pub fn of_action(a: &ScheduledAction) -> Result<Intervention, crate::scenario::ScenarioError> {
        super::intervention_text::of_action(a)
    }

    /// Parses a `flywheel run --do` value ([`DO_HELP`] lists them).
    pub fn parse(text: &str) -> Result<Intervention, String> {
        super::intervention_text::parse(text)
    }

    /// The objects it writes, for the interventions that write custom resources.
    pub fn target(&self) -> Option<&Target> {
        match self {
            Intervention::EditSpec { target }
            | Intervention::Label { target }
            | Intervention::Delete { target }
            | Intervention::Annotate { target } => Some(target),
            _ => None,
        }
    }

    /// The action kind it is traced as (`kubectl <Kind>`).
    pub fn action_kind(&self) -> ActionKind {
        match self {
            Intervention::EditSpec { .. } => ActionKind::EditSpec,
            Intervention::Label { .. } => ActionKind::Label,
            Intervention::Delete { .. } => ActionKind::Delete,
            Intervention::Annotate { .. } => ActionKind::Annotate,
            Intervention::KillOperator => ActionKind::KillOperator,
            Intervention::DeleteNamespaces { .. } => ActionKind::DeleteNamespaces,
            Intervention::SetMemoryLimit { .. } => ActionKind::SetMemoryLimit,
            Intervention::SetStatusSubresource { .. } => ActionKind::SetStatusSubresource,
            Intervention::Rollout(_) => ActionKind::Rollout,
            Intervention::SetApiLimits(_) => ActionKind::SetApiLimits,
        }
    }
}

impl Run {
    /// Applies `intervention` at the current instant: it is the next event at this time, traced
    /// as `kubectl …` when handled. With a timeline kept it starts a new branch (labelled
    /// `<Kind> at <time>`) whose base carries it, so every seek on that branch replays it and
    /// the branch left keeps its own future; inside [`Run::fork_with`] it is that fork's
    /// change. Returns the branch it started, if it started one.
    pub fn intervene(&mut self, intervention: Intervention) -> Option<BranchId> {
        let now = self.now();
        if self.timeline().is_none() {
            self.intervene_at(now, intervention);
            return None;
        }
        let label = format!("{:?} at {now}", intervention.action_kind());
        self.fork_with(&label, |run| run.intervene_at(now, intervention))
            .ok()
    }

    /// Whether `intervention` can be carried out now: an object it names by key must exist
    /// (the error names the key and one that does).
    pub fn check(&self, intervention: &Intervention) -> Result<(), String> {
        let Some(target) = intervention.target().filter(|t| t.key().is_some()) else {
            return Ok(());
        };
        target.check(&self.object_keys(usize::MAX))
    }

    /// Applies `intervention` at simulated time `at` (now, if `at` is already past), on the
    /// current branch: for a run without a timeline (the CLI's `--at`); with one, intervene at
    /// the instant with [`Run::intervene`], which starts a branch.
    pub fn intervene_at(&mut self, at: SimTime, intervention: Intervention) {
        let at = at.max(self.now());
        let event = Ev::Intervene(Box::new(intervention));
        self.state.sim.schedule(at, event);
    }
}

impl Cluster {
    /// Carries out `intervention` now.
    pub(super) fn apply_intervention(&mut self, ctx: &mut Context<'_, Ev>, i: &Intervention) {
        match i {
            Intervention::DeleteNamespaces { count } => {
                let count = count.unwrap_or(self.scenario.objects.namespaces);
                self.delete_namespaces(ctx, count);
            }
            Intervention::SetMemoryLimit { memory_limit } => {
                self.set_memory_limit(ctx, *memory_limit);
            }
            Intervention::KillOperator => {
                if self.operator.running.is_some() {
                    let restart_at = self.operator.process.kill(ctx.now());
                    self.container_died(ctx, restart_at, TerminatedReason::Error);
                }
            }
            Intervention::SetStatusSubresource { enabled } => {
                self.scenario.crd.status_subresource = *enabled;
                self.reconfigure_api_server();
                trace_user_action(ctx, ActionKind::SetStatusSubresource);
            }
            Intervention::Rollout(release) => {
                release.apply(&mut self.scenario);
                self.reconfigure_api_server();
                self.replace_pod(
                    ctx,
                    EventKind::UserAction {
                        action: ActionKind::Rollout,
                    },
                );
            }
            Intervention::SetApiLimits(limits) => self.set_api_limits(ctx, limits),
            Intervention::EditSpec { target }
            | Intervention::Label { target }
            | Intervention::Delete { target }
            | Intervention::Annotate { target } => self.user_writes(ctx, i.action_kind(), target),
        }
    }

    fn reconfigure_api_server(&mut self) {
        // The scenario was validated and the change keeps it in range.
        let _ = self.api.server.reconfigure(&self.scenario);
    }

    /// New flow-control limits apply at once; a new client QPS is a new Pod (a flag of the
    /// operator's binary).
    fn set_api_limits(&mut self, ctx: &mut Context<'_, Ev>, limits: &ApiLimits) {
        limits.apply(&mut self.scenario);
        self.reconfigure_api_server();
        let kind = EventKind::UserAction {
            action: ActionKind::SetApiLimits,
        };
        if limits.changes_client() {
            self.replace_pod(ctx, kind);
        } else {
            ctx.trace(None, None, kind);
        }
    }

    /// A user's writes of `action` on the objects `target` names, as kubectl sends them; a
    /// named object that is gone is written to no more than kubectl would (its GET is 404).
    fn user_writes(&mut self, ctx: &mut Context<'_, Ev>, action: ActionKind, target: &Target) {
        let targets = match target {
            Target::First(n) => self.api.server.first_objects(Some(*n as usize)),
            Target::All => self.api.server.first_objects(None),
            Target::Key(key) => self.api.server.object(key).into_iter().collect(),
        };
        for current in targets {
            let call = match action {
                ActionKind::Delete => Call::Delete(Box::new(NamespacedName {
                    namespace: current.metadata.namespace().to_string(),
                    name: current.metadata.name().to_string(),
                })),
                _ => Call::Put {
                    object: ObjectRef::new(edited(&current, action, ctx.now())),
                    status: false,
                },
            };
            self.send(ctx, Origin::User, call);
        }
        trace_user_action(ctx, action);
    }
}

/// `current` as a user's `action` leaves it.
fn edited(
    current: &crate::object::Object,
    action: ActionKind,
    now: SimTime,
) -> crate::object::Object {
    let mut obj = current.clone();
    match action {
        ActionKind::EditSpec => {
            let replicas = obj
                .spec
                .get("replicas")
                .and_then(crate::object::Json::as_i64)
                .unwrap_or(0);
            obj.spec = crate::object::Json::object([("replicas", (replicas + 1).into())]);
        }
        ActionKind::Label => {
            let labels = obj.metadata.labels.get_or_insert_with(Default::default);
            labels.insert("touched-by".into(), "kubectl".into());
        }
        _ => {
            let annotations = obj
                .metadata
                .annotations
                .get_or_insert_with(Default::default);
            annotations.insert("flywheel.dev/heartbeat".into(), now.as_nanos().to_string());
        }
    }
    obj
}

fn trace_user_action(ctx: &mut Context<'_, Ev>, action: ActionKind) {
    ctx.trace(None, None, EventKind::UserAction { action });
}
