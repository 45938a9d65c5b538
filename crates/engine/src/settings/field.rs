//! Each setting's field in a [`Scenario`], reached directly: a typed setter and getter per path,
//! generated from one list that a test checks against the registry ([`super::SETTINGS`]).
//!
//! ```text
//!   "controller.workers" ──► set: value ──u32::deserialize──► scenario.controller.workers
//!                        ◄── get: scenario.controller.workers ──serialize──► value
//! ```
//!
//! A setter reads one value with the same deserializer the field has in a scenario file (the
//! field's own type, or its `duration_str` / `bytes_str` adapter), so a value of the wrong form is
//! refused with the same message as a whole scenario read back; nothing else of the scenario is
//! written out or parsed again. The value is a [`Raw`]: no JSON library's value type is compiled.

use super::raw::Raw;
use super::raw_error::Error;
use super::raw_ser::RawSerializer;
use crate::scenario::{bytes_str, duration_str, opt_bytes_str, Scenario};

/// One setting's field: its path and how to write and read it.
#[derive(Clone, Copy)]
pub struct Field {
    /// The setting's dotted path (`controller.workers`).
    pub path: &'static str,
    /// Puts a value (as `--set` reads it) into the field.
    pub set: fn(&mut Scenario, Raw) -> Result<(), Error>,
    /// The field's value as the scenario file writes it ([`Raw::Null`] for "none").
    pub get: fn(&Scenario) -> Raw,
}

/// Reads a field's value with `deserialize`: the field type's own deserializer, or its `with`
/// adapter (`deserializer!`). Out of line, so that every field of one type (and adapter)
/// shares one copy of it and each field's setter is only the field's address.
#[inline(never)]
fn read<T>(
    field: &mut T,
    v: Raw,
    deserialize: impl FnOnce(Raw) -> Result<T, Error>,
) -> Result<(), Error> {
    *field = deserialize(v)?;
    Ok(())
}

/// Writes a field's value with `serialize` (its type's own serializer or its `with` adapter),
/// out of line as [`read`].
#[inline(never)]
fn write<T>(field: &T, serialize: impl FnOnce(&T, RawSerializer) -> Result<Raw, Error>) -> Raw {
    serialize(field, RawSerializer).unwrap_or(Raw::Null)
}

/// The deserializer of a field: its type's own, or its `with` adapter's.
macro_rules! deserializer {
    () => {
        serde::Deserialize::deserialize::<Raw>
    };
    ($with:ident) => {
        $with::deserialize::<Raw>
    };
}

/// The serializer of a field: its type's own, or its `with` adapter's.
macro_rules! serializer {
    () => {
        serde::Serialize::serialize::<RawSerializer>
    };
    ($with:ident) => {
        $with::serialize::<RawSerializer>
    };
}

/// The table of fields: `path;` for a field read by its type, `path => adapter;` for one read
/// through a serde adapter.
macro_rules! fields {
    ($( $first:ident $(. $rest:ident)* $(=> $with:ident)? ;)*) => {
        &[$(
            Field {
                path: concat!(stringify!($first) $(, ".", stringify!($rest))*),
                set: |s, v| read(&mut s.$first$(.$rest)*, v, deserializer!($($with)?)),
                get: |s| write(&s.$first$(.$rest)*, serializer!($($with)?)),
            },
        )*]
    };
}

/// Every setting's field, in the registry's order.
pub static FIELDS: &[Field] = fields! {
    seed;
    duration => duration_str;
    profile;
    crd.status_subresource;
    objects.count;
    objects.namespaces;
    objects.size_bytes => bytes_str;
    objects.create_at => duration_str;
    controller.workers;
    controller.predicates;
    controller.fifo;
    controller.queue;
    controller.informer_cost_per_kib => duration_str;
    controller.handler_cost => duration_str;
    controller.cache_read_cost_per_kib => duration_str;
    controller.cache_sync_timeout => duration_str;
    client.qps;
    client.burst;
    apiserver.flow_control;
    apiserver.seats;
    apiserver.queue_capacity;
    apiserver.queue_wait => duration_str;
    apiserver.max_requests_in_flight;
    apiserver.max_mutating_requests_in_flight;
    apiserver.etcd_writes_per_second;
    apiserver.watch_latency => duration_str;
    apiserver.latency.get_ms;
    apiserver.latency.list_ms;
    apiserver.latency.watch_ms;
    apiserver.latency.create_ms;
    apiserver.latency.update_ms;
    apiserver.latency.patch_ms;
    apiserver.latency.delete_ms;
    apiserver.latency.per_kib_ms;
    apiserver.latency.per_list_item_ms;
    apiserver.latency.jitter_fraction;
    apiserver.watch_cache.lower_capacity;
    apiserver.watch_cache.upper_capacity;
    apiserver.watch_cache.event_fresh_duration_s;
    process.memory_limit => opt_bytes_str;
    process.gogc;
    process.gomemlimit => opt_bytes_str;
    process.baseline => bytes_str;
    code.pod_list;
    code.stop_watch;
    code.log;
    code.external_timeout => duration_str;
    code.timeout_requeue_after => duration_str;
    code.finalizer;
    code.check_memory_pressure;
    code.pressure_requeue_after => duration_str;
    code.placement;
    cache.namespaced;
    cache.metadata_only;
    pods.count;
    pods.namespaces;
    pods.per_object;
    pods.size_bytes => bytes_str;
    pods.metadata_size_bytes => bytes_str;
    pods.memory_request => bytes_str;
    pods.memory_limit => bytes_str;
    pods.memory_usage => bytes_str;
    pods.warmup => duration_str;
    nodes.count;
    nodes.memory_capacity => bytes_str;
    nodes.other_usage => bytes_str;
    nodes.eviction_hard_memory_available => bytes_str;
    nodes.pressure_transition_period => duration_str;
    nodes.eviction_interval => duration_str;
};

/// The field of the setting at `path`.
pub fn field(path: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::SETTINGS;

    #[test]
    fn every_setting_has_one_field_and_every_field_is_a_setting() {
        let settings: Vec<_> = SETTINGS.iter().map(|s| s.path).collect();
        let fields: Vec<_> = FIELDS.iter().map(|f| f.path).collect();
        assert_eq!(fields, settings);
    }
}
