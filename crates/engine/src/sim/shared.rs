//! Collections that share their structure between copies, so a checkpoint of a run is a few
//! pointer copies instead of a walk over every object the run holds.
//!
//! ```text
//!   run ──clone()──▶ checkpoint        both point at the same tree nodes
//!    │                                 (reference-counted, single-threaded)
//!    └─ insert(k) ──▶ copies only the nodes on the path to k; the checkpoint keeps the old ones
//! ```
//!
//! Taking a copy is O(1); the first write to a shared node after a copy copies that node (a
//! chunk of at most 64 entries) once. [`SharedMap`] and [`SharedSet`] iterate in key order,
//! like the `BTreeMap`/`BTreeSet` they stand in for, so the trace does not change with them.
//! The pointer kind is `Rc`: a run is single-threaded, here and in wasm32.

use imbl::shared_ptr::RcK;

/// A key-ordered map whose copies share structure (`BTreeMap`'s order).
pub type SharedMap<K, V> = imbl::GenericOrdMap<K, V, RcK>;

/// A key-ordered set whose copies share structure (`BTreeSet`'s order).
pub type SharedSet<K> = imbl::GenericOrdSet<K, RcK>;
