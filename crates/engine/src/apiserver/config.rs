//! `ApiServerConfig`: everything a scenario may set about the simulated kube-apiserver.

use serde::{Deserialize, Serialize};

use super::flowcontrol::FlowControl;
use super::kind::ResourceKind;
use super::latency::LatencyConfig;
use super::watch_cache::WatchCacheConfig;
use crate::error::ConfigError;

/// The simulated API server's configuration; every field has a default, unknown fields are an
/// error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ApiServerConfig {
    /// The etcd revision before the first write (the first write gets this + 1).
    pub initial_resource_version: u64,
    /// Namespaces that exist from the start, like kube-apiserver's bootstrap of `default` and
    /// `kube-system` (kubernetes `pkg/controlplane/controller/systemnamespaces`). They are part of
    /// the initial state: no watch events are produced for them.
    pub bootstrap_namespaces: Vec<String>,
    /// Extra kinds served from the start (CRDs established before the simulation), registered
    /// after the built-in `Namespace`, `Pod` and `Node`.
    pub kinds: Vec<ResourceKind>,
    /// Request latency model.
    pub latency: LatencyConfig,
    /// Admission filter (APF by default, as upstream).
    pub flow_control: FlowControl,
    /// Watch cache window sizing.
    pub watch_cache: WatchCacheConfig,
}

impl Default for ApiServerConfig {
    fn default() -> Self {
        ApiServerConfig {
            initial_resource_version: 1,
            bootstrap_namespaces: vec!["default".to_owned(), "kube-system".to_owned()],
            kinds: Vec::new(),
            latency: LatencyConfig::default(),
            flow_control: FlowControl::default(),
            watch_cache: WatchCacheConfig::default(),
        }
    }
}

impl ApiServerConfig {
    /// Checks every section; the error names the offending field.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.initial_resource_version > u64::MAX / 2 {
            return Err(ConfigError::new(
                "initial_resource_version",
                format!(
                    "must be at most {} (got {})",
                    u64::MAX / 2,
                    self.initial_resource_version
                ),
            ));
        }
        if let Some(bad) = self.bootstrap_namespaces.iter().find(|n| n.is_empty()) {
            return Err(ConfigError::new(
                "bootstrap_namespaces",
                format!("names must not be empty (got {bad:?})"),
            ));
        }
        for kind in &self.kinds {
            kind.validate()?;
        }
        self.latency.validate()?;
        self.flow_control.validate()?;
        self.watch_cache.validate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_document_gives_the_upstream_defaults() {
        let c: ApiServerConfig = serde_json::from_str("{}").expect("parses");
        assert_eq!(c, ApiServerConfig::default());
        assert_eq!(
            c.flow_control,
            FlowControl::Apf {
                seats: 245,
                queue_capacity: 300,
                queue_wait_ms: 15_000
            }
        );
        assert_eq!(c.watch_cache.upper_capacity, 102_400);
        c.validate().expect("defaults are valid");
    }

    #[test]
    fn an_unknown_field_is_refused_at_every_level() {
        for doc in [
            r#"{"latencyy": {}}"#,
            r#"{"latency": {"get": 1}}"#,
            r#"{"flow_control": {"mode": "apf", "seats": 1, "queue_capacity": 1, "queue_wait_ms": 1, "x": 1}}"#,
            r#"{"watch_cache": {"size": 1}}"#,
        ] {
            assert!(
                serde_json::from_str::<ApiServerConfig>(doc).is_err(),
                "{doc}"
            );
        }
    }

    #[test]
    fn a_custom_resource_kind_can_be_declared_in_the_config() {
        let c: ApiServerConfig = serde_json::from_str(
            r#"{"kinds": [{"name": "Flywheel", "plural": "flywheels", "group": "demo.dev",
                "namespaced": true, "status_subresource": false,
                "allow_unconditional_update": false, "graceful_delete": false,
                "tracks_generation": true, "family": "CustomResource"}]}"#,
        )
        .expect("parses");
        assert_eq!(
            c.kinds,
            [ResourceKind::custom_resource(
                "Flywheel",
                "flywheels",
                "demo.dev",
                true,
                false
            )]
        );
    }

    #[test]
    fn the_legacy_filter_is_selected_by_its_mode_tag() {
        let c: ApiServerConfig = serde_json::from_str(
            r#"{"flow_control": {"mode": "max_in_flight", "read": 400, "mutating": 200}}"#,
        )
        .expect("parses");
        assert_eq!(c.flow_control, FlowControl::max_in_flight_defaults());
    }
}
