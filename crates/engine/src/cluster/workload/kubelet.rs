//! The Nodes' side of the workload: the kubelets' eviction managers and the node lifecycle
//! controller's memory-pressure taint (see the parent module for the upstream code each
//! follows).

use crate::key::Key;
use crate::metrics::names;
use crate::scenario::Scenario;
use crate::time::SimTime;

use super::super::registry::Registry;
use super::{pod_usage, Workload};

impl Workload {
    /// The node lifecycle controller follows each Node's `MemoryPressure` condition as the
    /// kubelet last reported it; when a taint goes, the scheduler retries the Pending Pods.
    /// Returns the Nodes whose taint changed, with the taint now.
    pub(super) fn update_taints(
        &mut self,
        scenario: &Scenario,
        reg: &mut Registry,
        now: SimTime,
    ) -> Vec<(u32, bool)> {
        let mut changed = Vec::new();
        for node in 0..scenario.nodes.count as usize {
            let pressure = self.under_pressure(scenario, node, now);
            if self.tainted[node] == pressure {
                continue;
            }
            self.tainted[node] = pressure;
            changed.push((u32::try_from(node).unwrap_or(u32::MAX), pressure));
        }
        if changed.iter().any(|(_, tainted)| !tainted) {
            let pending = std::mem::take(&mut self.pending);
            for (owner, count) in pending {
                for _ in 0..count {
                    self.place_pod(scenario, reg, &owner, now);
                }
            }
        }
        changed
    }

    /// One pass of every kubelet's eviction manager: a Node short of `memory.available` is
    /// under pressure from now on and evicts one Pod, ranked as `rankMemoryPressure` does
    /// (exceeding its request first, then the usage above the request; priorities are equal
    /// here). Returns each eviction's Node and the evicted Pod's owner, in Node order.
    pub(super) fn evict(
        &mut self,
        scenario: &Scenario,
        reg: &mut Registry,
        now: SimTime,
    ) -> Vec<(u32, Key)> {
        let s = scenario;
        let warm = s.pods.warmup.as_secs_f64();
        let mut evicted = Vec::new();
        for node in 0..s.nodes.count as usize {
            let used = self.usage(s, node, now);
            let available = s.nodes.memory_capacity.saturating_sub(used);
            if available >= s.nodes.eviction_hard_memory_available {
                continue;
            }
            self.last_pressure[node] = Some(now);
            let req = s.pods.memory_request;
            let victim = self
                .pods
                .iter()
                .flat_map(|(k, ps)| ps.iter().enumerate().map(move |(i, p)| (k, i, p)))
                .filter(|(_, _, p)| p.node == node)
                .map(|(k, i, p)| {
                    let u = pod_usage(s.pods.memory_usage, warm, now.saturating_since(p.started));
                    ((u > req, u.saturating_sub(req)), k.clone(), i)
                })
                .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
            let Some((_, owner, i)) = victim else {
                continue;
            };
            if let Some(ps) = self.pods.get_mut(&owner) {
                ps.remove(i);
            }
            reg.inc(names::PODS_EVICTED_TOTAL, 1.0);
            evicted.push((u32::try_from(node).unwrap_or(u32::MAX), owner));
        }
        evicted
    }
}
