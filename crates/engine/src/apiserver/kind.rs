//! The kind registry: which resources the server serves and the per-kind switches their registry
//! strategies hard-code upstream.

use serde::{Deserialize, Serialize};

use crate::error::ConfigError;

/// Which upstream strategy a kind follows where kinds differ beyond the boolean switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum KindFamily {
    /// A custom resource (apiextensions-apiserver `pkg/registry/customresource/strategy.go`).
    CustomResource,
    /// `Pod` (kubernetes `pkg/registry/core/pod/strategy.go`): status set to `{"phase":"Pending"}`
    /// on create, graceful deletion from `spec.terminationGracePeriodSeconds`.
    Pod,
    /// `Namespace` (kubernetes `pkg/registry/core/namespace/storage/storage.go`): delete moves it
    /// to `Terminating`; it goes once its content and `spec.finalizers` are gone.
    Namespace,
    /// `Node` (kubernetes `pkg/registry/core/node/strategy.go`), cluster-scoped.
    Node,
}

/// One served resource and the rules of its registry strategy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceKind {
    /// The kind, e.g. `Flywheel`; `Object::kind` must match it.
    pub name: String,
    /// The plural resource name, e.g. `flywheels` (used in error messages as upstream does).
    pub plural: String,
    /// The API group; empty for the core group.
    pub group: String,
    /// Namespaced (`true`) or cluster-scoped (`false`).
    pub namespaced: bool,
    /// Whether the `/status` subresource is served (CRD `subresources.status`).
    pub status_subresource: bool,
    /// `AllowUnconditionalUpdate`: a PUT without resourceVersion is accepted (false for CRs).
    pub allow_unconditional_update: bool,
    /// Whether the strategy implements `RESTGracefulDeleteStrategy` (pods do).
    pub graceful_delete: bool,
    /// Whether the strategy manages `metadata.generation` (CRs and pods do; namespaces don't).
    pub tracks_generation: bool,
    /// Which upstream strategy the kind follows.
    pub family: KindFamily,
}

impl ResourceKind {
    /// A custom resource with or without the `/status` subresource
    /// (apiextensions-apiserver `pkg/registry/customresource/strategy.go`:
    /// `AllowUnconditionalUpdate` is false, generation starts at 1, no graceful deletion).
    pub fn custom_resource(
        name: &str,
        plural: &str,
        group: &str,
        namespaced: bool,
        status_subresource: bool,
    ) -> ResourceKind {
        ResourceKind {
            name: name.to_owned(),
            plural: plural.to_owned(),
            group: group.to_owned(),
            namespaced,
            status_subresource,
            allow_unconditional_update: false,
            graceful_delete: false,
            tracks_generation: true,
            family: KindFamily::CustomResource,
        }
    }

    /// `Pod` (kubernetes `pkg/registry/core/pod/strategy.go`: `AllowUnconditionalUpdate` true,
    /// graceful deletion, generation 1 on create and +1 on spec changes, `/status` served).
    pub fn pod() -> ResourceKind {
        ResourceKind {
            name: "Pod".to_owned(),
            plural: "pods".to_owned(),
            group: String::new(),
            namespaced: true,
            status_subresource: true,
            allow_unconditional_update: true,
            graceful_delete: true,
            tracks_generation: true,
            family: KindFamily::Pod,
        }
    }

    /// `Namespace` (kubernetes `pkg/registry/core/namespace/strategy.go`: cluster-scoped,
    /// unconditional updates allowed, generation unmanaged, `/status` and `/finalize` served).
    pub fn namespace() -> ResourceKind {
        ResourceKind {
            name: "Namespace".to_owned(),
            plural: "namespaces".to_owned(),
            group: String::new(),
            namespaced: false,
            status_subresource: true,
            allow_unconditional_update: true,
            graceful_delete: false,
            tracks_generation: false,
            family: KindFamily::Namespace,
        }
    }

    /// `Node` (kubernetes `pkg/registry/core/node/strategy.go`: cluster-scoped, unconditional
    /// updates allowed, `/status` served). Status is kept on create (the kubelet registers with
    /// one) — not re-read upstream, treat as a hint.
    pub fn node() -> ResourceKind {
        ResourceKind {
            name: "Node".to_owned(),
            plural: "nodes".to_owned(),
            group: String::new(),
            namespaced: false,
            status_subresource: true,
            allow_unconditional_update: true,
            graceful_delete: false,
            tracks_generation: false,
            family: KindFamily::Node,
        }
    }

    /// `schema.GroupResource.String()`: `plural.group`, or `plural` for the core group — the
    /// resource as NotFound / Conflict messages name it.
    pub fn qualified_resource(&self) -> String {
        qualify(&self.plural, &self.group)
    }

    /// `schema.GroupKind.String()`: `Kind.group`, or `Kind` — as Invalid messages name it.
    pub fn qualified_kind(&self) -> String {
        qualify(&self.name, &self.group)
    }

    /// The etcd key of `namespace/name` (empty namespace: cluster-scoped), as storage errors name
    /// it: `/registry/<group>/<plural>/…` for custom resources (apiextensions-apiserver
    /// `pkg/apiserver/customresource_handler.go` resource prefix), `/registry/<plural>/…` for the
    /// core group, with nodes under `minions` (kubernetes
    /// `pkg/kubeapiserver/default_storage_factory_builder.go` `SpecialDefaultResourcePrefixes`).
    pub fn storage_key(&self, namespace: &str, name: &str) -> String {
        let prefix = match (self.group.as_str(), self.family) {
            ("", KindFamily::Node) => "minions".to_owned(),
            ("", _) => self.plural.clone(),
            (group, _) => format!("{group}/{}", self.plural),
        };
        if namespace.is_empty() {
            format!("/registry/{prefix}/{name}")
        } else {
            format!("/registry/{prefix}/{namespace}/{name}")
        }
    }

    /// Checks names are usable and the switches are consistent.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.name.is_empty() {
            return Err(ConfigError::new("kind.name", "must not be empty"));
        }
        if self.plural.is_empty() {
            return Err(ConfigError::new("kind.plural", "must not be empty"));
        }
        if self.family == KindFamily::Namespace && self.namespaced {
            return Err(ConfigError::new(
                "kind.namespaced",
                "a Namespace kind must be cluster-scoped",
            ));
        }
        Ok(())
    }
}

fn qualify(name: &str, group: &str) -> String {
    if group.is_empty() {
        name.to_owned()
    } else {
        format!("{name}.{group}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_resources_are_named_without_a_group_and_custom_ones_with_it() {
        assert_eq!(ResourceKind::pod().qualified_resource(), "pods");
        let fw = ResourceKind::custom_resource("Flywheel", "flywheels", "demo.dev", true, false);
        assert_eq!(fw.qualified_resource(), "flywheels.demo.dev");
        assert_eq!(fw.qualified_kind(), "Flywheel.demo.dev");
        assert!(!fw.allow_unconditional_update);
    }

    #[test]
    fn storage_keys_carry_the_group_for_custom_resources_and_nodes_live_under_minions() {
        let fw = ResourceKind::custom_resource("Flywheel", "flywheels", "demo.dev", true, false);
        assert_eq!(
            fw.storage_key("default", "a"),
            "/registry/demo.dev/flywheels/default/a"
        );
        assert_eq!(
            ResourceKind::pod().storage_key("ns", "p"),
            "/registry/pods/ns/p"
        );
        assert_eq!(
            ResourceKind::node().storage_key("", "n1"),
            "/registry/minions/n1"
        );
    }

    #[test]
    fn an_empty_kind_name_is_rejected_naming_the_field() {
        let mut k = ResourceKind::pod();
        k.name.clear();
        assert_eq!(k.validate().map_err(|e| e.field), Err("kind.name".into()));
    }
}
