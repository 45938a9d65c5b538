//! What the user enters: a family, counts and sizes per kind, namespaces, workers, client QPS and
//! the operator's memory limit.

use std::fmt;

use serde::Serialize;

use crate::scenario::ScenarioError;

/// Which preset family the numbers are run in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// Seed 001 (`list-full-scan`): Reconcile lists every Pod from a cluster-wide Pod informer.
    ListFullScan,
    /// Seed 000 (`seed-000-incident`): the flywheel at production scale.
    Incident,
}

impl Family {
    /// Every family, in the order they are offered.
    pub const ALL: [Family; 2] = [Family::ListFullScan, Family::Incident];

    /// The name used on the command line and in the report (`list-full-scan`, `incident`).
    pub fn as_str(self) -> &'static str {
        match self {
            Family::ListFullScan => "list-full-scan",
            Family::Incident => "incident",
        }
    }

    /// The preset the family starts from.
    pub fn preset(self) -> &'static str {
        match self {
            Family::ListFullScan => "list-full-scan",
            Family::Incident => "seed-000-incident",
        }
    }

    /// Parses `list-full-scan` or `incident`.
    pub fn parse(text: &str) -> Result<Family, String> {
        Family::ALL
            .into_iter()
            .find(|f| f.as_str() == text)
            .ok_or_else(|| format!("unknown family '{text}' (allowed: list-full-scan, incident)"))
    }
}

/// How many objects of one kind, and the average size of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct KindCount {
    /// Objects of the kind in the cluster.
    pub objects: u32,
    /// Their average serialized size.
    pub size_bytes: u64,
}

/// The user's numbers; `None` keeps the family's value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SizeInput {
    /// The family.
    pub family: Family,
    /// The custom resources (the CRD's objects): `objects.count`, `objects.size_bytes`.
    pub custom: Option<KindCount>,
    /// The cluster's Pods: `pods.count`, `pods.size_bytes`.
    pub pods: Option<KindCount>,
    /// Namespaces the objects and Pods are spread over: `objects.namespaces`, `pods.namespaces`.
    pub namespaces: Option<u32>,
    /// `MaxConcurrentReconciles`: `controller.workers`.
    pub workers: Option<u32>,
    /// The operator's client-side QPS: `client.qps`.
    pub qps: Option<f64>,
    /// The operator container's memory limit: `process.memory_limit`.
    pub memory_limit_bytes: Option<u64>,
}

impl SizeInput {
    /// The family's own numbers.
    pub fn new(family: Family) -> SizeInput {
        SizeInput {
            family,
            custom: None,
            pods: None,
            namespaces: None,
            workers: None,
            qps: None,
            memory_limit_bytes: None,
        }
    }
}

/// Why the numbers could not be run: the input they came from, the setting's path and what it
/// accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeError {
    /// The input (`objects`, `namespaces`, `workers`, `qps`, `limit`); `""` when no single
    /// input is to blame.
    pub input: &'static str,
    /// The setting's path and what is wrong, as the scenario's validation says it.
    pub error: ScenarioError,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.error)
    }
}

impl std::error::Error for SizeError {}
