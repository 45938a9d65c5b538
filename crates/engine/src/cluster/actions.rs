//! What people do to the cluster during a scenario: create the objects, edit their spec, label
//! them, delete them, kill the operator.

use serde_json::json;

use crate::object::{Object, ObjectRef};
use crate::scenario::ActionKind;
use crate::sim::{Context, EventKind, TerminatedReason};

use super::request::{Call, Origin};
use super::{Cluster, Ev};

impl Cluster {
    /// Creates the scenario's objects directly in storage (as if applied before the run), from
    /// index `from`, [`super::CREATE_OBJECTS_PER_EVENT`] per event; the last part records the
    /// creation and sends the watch events.
    pub(super) fn create_objects(&mut self, ctx: &mut Context<'_, Ev>, from: u32) {
        let o = self.scenario.objects.clone();
        let to = from
            .saturating_add(super::CREATE_OBJECTS_PER_EVENT)
            .min(o.count);
        for i in from..to {
            let namespace = format!("ns-{}", i % o.namespaces);
            let mut obj = Object::new(&self.scenario.crd.kind, &namespace, &format!("demo-{i}"));
            obj.spec = json!({ "replicas": 1 });
            obj.size_bytes = o.size_bytes;
            obj.metadata.finalizers = o.finalizers.clone();
            self.api.create_direct(obj, ctx.now());
            self.count_request("POST", 201);
        }
        if to < o.count {
            ctx.continue_with(Ev::CreateObjects { from: to });
            return;
        }
        let kind = EventKind::Created {
            objects: u64::from(o.count),
        };
        ctx.trace(None, Some(self.api.revision()), kind);
        self.fan_out_events(ctx);
        self.workload_objects_created(ctx);
    }

    /// Runs scenario action `index` as a user with kubectl.
    pub(super) fn run_action(&mut self, ctx: &mut Context<'_, Ev>, index: usize) {
        let Some(action) = self.scenario.actions.get(index).cloned() else {
            return;
        };
        if let Some(every) = action.every {
            let next = ctx.now() + every;
            if action
                .until
                .is_none_or(|u| next <= crate::time::SimTime::ZERO + u)
            {
                ctx.schedule_at(next, Ev::Action(index));
            }
        }
        match action.action {
            ActionKind::DeleteNamespaces => {
                let count = action.count.unwrap_or(self.scenario.objects.namespaces);
                self.delete_namespaces(ctx, count);
                return;
            }
            ActionKind::SetMemoryLimit => {
                if let Some(limit) = action.memory_limit {
                    self.set_memory_limit(ctx, limit);
                }
                return;
            }
            _ => {}
        }
        if action.action == ActionKind::KillOperator {
            if self.op.is_some() {
                let restart_at = self.process.kill(ctx.now());
                self.container_died(ctx, restart_at, TerminatedReason::Error);
            }
            return;
        }
        let targets = self.api.first_objects(action.count.map(|c| c as usize));
        for current in targets {
            let call = match action.action {
                ActionKind::EditSpec => {
                    let mut obj = (*current).clone();
                    let replicas = obj
                        .spec
                        .get("replicas")
                        .and_then(|v| v.as_i64())
                        .unwrap_or(0);
                    obj.spec = json!({ "replicas": replicas + 1 });
                    Call::Put {
                        object: ObjectRef::new(obj),
                        status: false,
                    }
                }
                ActionKind::Label => {
                    let mut obj = (*current).clone();
                    let labels = obj.metadata.labels.get_or_insert_with(Default::default);
                    labels.insert("touched-by".into(), "kubectl".into());
                    Call::Put {
                        object: ObjectRef::new(obj),
                        status: false,
                    }
                }
                ActionKind::Annotate => {
                    let mut obj = (*current).clone();
                    let annotations = obj
                        .metadata
                        .annotations
                        .get_or_insert_with(Default::default);
                    annotations.insert(
                        "flywheel.dev/heartbeat".into(),
                        ctx.now().as_nanos().to_string(),
                    );
                    Call::Put {
                        object: ObjectRef::new(obj),
                        status: false,
                    }
                }
                ActionKind::Delete => Call::Delete {
                    namespace: current.metadata.namespace.clone(),
                    name: current.metadata.name.clone(),
                },
                ActionKind::KillOperator
                | ActionKind::DeleteNamespaces
                | ActionKind::SetMemoryLimit => continue,
            };
            self.send(ctx, Origin::User, call);
        }
        let kind = EventKind::UserAction {
            action: action.action,
        };
        ctx.trace(None, None, kind);
    }
}
