//! The custom resources as `kubectl get -o yaml` would print them, reconstructed from the run's
//! trace (the engine exposes events, not its store): resourceVersion from the API server's
//! replies and watch events, generation from the CRD's rules (without `/status` every change bumps
//! it; with `/status` only spec changes do), status from the reconcile program's steps.

use std::collections::{BTreeMap, BTreeSet};

use flywheel_engine::controller::program::{StatusValue, Step};
use flywheel_engine::scenario::Scenario;
use flywheel_engine::sim::TraceEvent;

/// One object's reconstructed state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectState {
    /// `metadata.resourceVersion`.
    pub resource_version: u64,
    /// `metadata.generation`.
    pub generation: u64,
    /// `spec.replicas` (what a spec edit changes).
    pub replicas: u64,
    /// Labels added by `label` actions.
    pub labeled: bool,
    /// When it was created (virtual seconds).
    pub created_s: f64,
    /// Status fields in order.
    pub status: BTreeMap<String, String>,
    /// Deleted (a `DELETED` watch event arrived).
    pub deleted: bool,
    /// The YAML before the latest change (for highlighting).
    pub previous: Vec<String>,
}

/// How the scenario writes status, read once from its program.
#[derive(Clone, Debug, PartialEq)]
struct Writer {
    kind: String,
    status_subresource: bool,
    status_endpoint: bool,
    fields: Vec<(String, StatusValue)>,
}

/// Every object, by `namespace/name`.
#[derive(Clone, Debug)]
pub struct Objects {
    writer: Writer,
    objects: BTreeMap<String, ObjectState>,
    own_writes: BTreeSet<u64>,
    reconciling_generation: BTreeMap<String, u64>,
    pending_edits: u64,
    pending_labels: u64,
    counter: u64,
}

impl Objects {
    /// An empty cluster for `scenario`.
    pub fn new(scenario: &Scenario) -> Objects {
        let fields = scenario
            .reconcile
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::SetStatus { field, value } => Some((field.clone(), value.clone())),
                _ => None,
            })
            .collect();
        let status_endpoint = scenario.reconcile.writes().is_some_and(|w| w.is_status());
        Objects {
            writer: Writer {
                kind: scenario.crd.kind.clone(),
                status_subresource: scenario.crd.status_subresource,
                status_endpoint,
                fields,
            },
            objects: BTreeMap::new(),
            own_writes: BTreeSet::new(),
            reconciling_generation: BTreeMap::new(),
            pending_edits: 0,
            pending_labels: 0,
            counter: 0,
        }
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.objects.keys()
    }

    /// One object.
    pub fn get(&self, key: &str) -> Option<&ObjectState> {
        self.objects.get(key)
    }

    /// The generation of `key` now (0 when unknown).
    pub fn generation(&self, key: &str) -> u64 {
        self.objects.get(key).map_or(0, |o| o.generation)
    }

    /// Updates the model with one trace event.
    pub fn observe(&mut self, ev: &TraceEvent) {
        let t = ev.time.as_secs_f64();
        match (&*ev.component, &*ev.event) {
            ("kubectl", "EditSpec") => self.pending_edits += self.objects.len().max(1) as u64,
            ("kubectl", "Label") => self.pending_labels += self.objects.len().max(1) as u64,
            ("worker", "Reconcile") => {
                if let Some(k) = &ev.key {
                    let g = self.generation(k);
                    self.reconciling_generation.insert(k.clone(), g);
                }
            }
            ("apiserver", "PUT" | "PATCH") if ev.detail == "code=200" => self.own_write(ev, t),
            ("watch", kind) => self.watch(ev, kind, t),
            _ => {}
        }
    }

    fn own_write(&mut self, ev: &TraceEvent, t: f64) {
        let (Some(key), Some(rv)) = (&ev.key, ev.resource_version) else {
            return;
        };
        let Some(obj) = self.objects.get(key) else {
            return;
        };
        if rv == obj.resource_version {
            return;
        }
        self.own_writes.insert(rv);
        self.counter += 1;
        let observed = self.reconciling_generation.get(key).copied();
        let w = self.writer.clone();
        let counter = self.counter;
        let Some(obj) = self.objects.get_mut(key) else {
            return;
        };
        obj.previous = yaml_of(&w, key, obj);
        obj.resource_version = rv;
        if !w.status_subresource || w.status_endpoint {
            for (field, value) in &w.fields {
                obj.status
                    .insert(field.clone(), status_value(value, t, observed, counter));
            }
        }
        if !w.status_subresource && !w.status_endpoint {
            obj.generation += 1;
        }
    }

    fn watch(&mut self, ev: &TraceEvent, kind: &str, t: f64) {
        let (Some(key), Some(rv)) = (&ev.key, ev.resource_version) else {
            return;
        };
        let w = self.writer.clone();
        match kind {
            "ADDED" if !self.objects.contains_key(key) => {
                let obj = ObjectState {
                    resource_version: rv,
                    generation: 1,
                    replicas: 1,
                    created_s: t,
                    ..ObjectState::default()
                };
                self.objects.insert(key.clone(), obj);
            }
            "MODIFIED" if !self.own_writes.remove(&rv) => {
                let edit = self.pending_edits > 0;
                let label = !edit && self.pending_labels > 0;
                if let Some(obj) = self.objects.get_mut(key) {
                    if obj.resource_version >= rv {
                        return;
                    }
                    obj.previous = yaml_of(&w, key, obj);
                    obj.resource_version = rv;
                    if edit {
                        self.pending_edits -= 1;
                        obj.generation += 1;
                        obj.replicas += 1;
                    } else if label {
                        self.pending_labels -= 1;
                        obj.labeled = true;
                    }
                }
            }
            "DELETED" => {
                if let Some(obj) = self.objects.get_mut(key) {
                    obj.previous = yaml_of(&w, key, obj);
                    obj.deleted = true;
                    obj.resource_version = rv;
                }
            }
            _ => {}
        }
    }

    /// The YAML of `key` now, and for each line whether it changed since the previous event.
    pub fn yaml(&self, key: &str) -> Option<(Vec<String>, Vec<bool>)> {
        let obj = self.objects.get(key)?;
        let now = yaml_of(&self.writer, key, obj);
        let changed = if obj.previous.is_empty() {
            vec![false; now.len()]
        } else {
            flywheel_engine::controller::go_code::changed_lines(&obj.previous, &now)
        };
        Some((now, changed))
    }
}

fn status_value(v: &StatusValue, t: f64, observed: Option<u64>, counter: u64) -> String {
    match v {
        StatusValue::Constant(s) => s.clone(),
        StatusValue::Now => format!("\"{}\"", rfc3339(t, false)),
        StatusValue::NowMicro => format!("\"{}\"", rfc3339(t, true)),
        StatusValue::Counter => counter.to_string(),
        StatusValue::ObservedGeneration => observed.unwrap_or(0).to_string(),
    }
}

fn yaml_of(w: &Writer, key: &str, o: &ObjectState) -> Vec<String> {
    let (ns, name) = key.split_once('/').unwrap_or(("default", key));
    let mut y = vec![
        "apiVersion: example.com/v1".to_owned(),
        format!("kind: {}", w.kind),
        "metadata:".to_owned(),
        format!("  creationTimestamp: \"{}\"", rfc3339(o.created_s, false)),
    ];
    if o.deleted {
        y.push("  deletionTimestamp: (deleted)".to_owned());
    }
    y.push(format!("  generation: {}", o.generation));
    if o.labeled {
        y.push("  labels:".to_owned());
        y.push("    team: flywheel".to_owned());
    }
    y.push(format!("  name: {name}"));
    y.push(format!("  namespace: {ns}"));
    y.push(format!("  resourceVersion: \"{}\"", o.resource_version));
    y.push(format!("  uid: {}", fake_uid(key)));
    y.push("spec:".to_owned());
    y.push(format!("  replicas: {}", o.replicas));
    if !o.status.is_empty() {
        y.push("status:".to_owned());
        for (k, v) in &o.status {
            y.push(format!("  {k}: {v}"));
        }
    }
    y
}

fn fake_uid(key: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    let s = format!("{h:016x}{:016x}", h.rotate_left(17) ^ 0x5bd1_e995);
    format!(
        "{}-{}-{}-{}-{}",
        &s[0..8],
        &s[8..12],
        &s[12..16],
        &s[16..20],
        &s[20..32]
    )
}

/// RFC 3339 time of `t` virtual seconds after 2024-05-01T09:00:00Z (the run's wall-clock epoch).
pub fn rfc3339(t: f64, micros: bool) -> String {
    let whole = t.max(0.0).floor() as u64;
    let secs = 9 * 3600 + whole;
    let (day, rem) = (secs / 86_400, secs % 86_400);
    let (h, m, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
    let date = format!("2024-05-{:02}T{h:02}:{m:02}:{s:02}", 1 + day.min(30));
    if micros {
        format!("{date}.{:06}Z", ((t - t.floor()) * 1e6) as u64)
    } else {
        format!("{date}Z")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_rfc3339() {
        assert_eq!(rfc3339(0.0, false), "2024-05-01T09:00:00Z");
        assert_eq!(rfc3339(3661.5, true), "2024-05-01T10:01:01.500000Z");
    }

    #[test]
    fn uids_look_like_uids() {
        let u = fake_uid("ns-0/demo-0");
        assert_eq!(u.len(), 36);
        assert_ne!(u, fake_uid("ns-0/demo-1"));
    }
}
