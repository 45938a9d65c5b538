//! The engine's integration tests, one binary: one module per subject (API server, informer,
//! work queue, reflector, processes, incidents, determinism). Data the tests read (`tests/data`,
//! `tests/golden`) is found relative to the crate.

// The tests compare exact floats (the simulation is deterministic, so exact is right), spell
// fixtures as literals and name identifiers freely in their docs: pedantic holds the library only.
#![allow(clippy::pedantic)]

mod apiserver_crud;
mod apiserver_deletion;
mod apiserver_flowcontrol;
mod apiserver_flywheel;
mod apiserver_properties;
mod apiserver_watch;
mod causality;
mod checkpoint_seek;
mod client_rate_limiter;
mod controller_cache_sync;
mod create_parts;
mod determinism_table;
mod flywheel_matrix;
mod fuzz_scenario;
mod incidents_scenarios;
mod incidents_seed_001;
mod incidents_seed_004;
mod informer_store_delta_fifo;
mod informer_store_indexer;
mod informer_store_process;
mod informer_store_real_fifo;
mod inspect;
mod interventions;
mod list_scope;
mod predicate_verdicts;
mod process_crashloop;
mod process_gc;
mod process_memory;
mod process_pod;
mod process_props;
mod reconcile_results;
mod reflector_backoff;
mod reflector_listener_buffer;
mod reflector_resync;
mod reflector_state_machine;
mod release_dead;
mod seed_000_incident;
mod sizing;
mod swarm_invariants;
mod trace_goldens;
mod workqueue_interface;
mod workqueue_priority;
mod workqueue_props;
