//! # flywheel-engine
//!
//! A deterministic simulation of a Kubernetes API server and a controller-runtime operator, built
//! from faithful models of the client-go and controller-runtime primitives:
//!
//! ```text
//!  apiserver ──watch──▶ Reflector ──▶ DeltaFIFO / RealFIFO ──▶ Indexer ──▶ handlers + predicates
//!      ▲                                                                         │
//!      │                                                                         ▼
//!      └──────── writes ◀── Reconcile ◀── workers ◀── workqueue (rate limited) ◀─┘
//! ```
//!
//! The engine is a pure library: no wall clock, no I/O, one seeded random source ([`sim::Rng`]),
//! events ordered by `(time, sequence)` ([`sim::EventQueue`]) and ordered maps only, so the same
//! seed gives the same trace natively and in WebAssembly. Every behaviour names, in its doc
//! comment, the upstream file it follows.

// Unit tests compare exact floats (the simulation is deterministic, so exact is right), spell
// fixtures as literals and name identifiers freely in their docs: pedantic holds the library only.
#![cfg_attr(test, allow(clippy::pedantic))]

pub mod apiserver;
pub mod client;
pub mod cluster;
pub mod controller;
pub mod digits;
pub mod error;
pub mod float_text;
pub mod informer;
pub mod key;
pub mod metrics;
pub mod object;
pub mod predicate;
pub mod process;
pub mod scenario;
pub mod settings;
pub mod sim;
pub mod sizing;
pub mod small_sort;
pub mod static_text;
pub mod swarm;
#[cfg(test)]
mod testing;
pub mod time;
pub mod tour;
pub mod vec_map;
pub mod workqueue;

pub use error::ConfigError;
pub use time::SimTime;
