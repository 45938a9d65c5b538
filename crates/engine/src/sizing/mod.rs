//! "Your cluster's numbers": the user's counts run through the engine, not through a formula.
//!
//! ```text
//!  SizeInput ──▶ build: the family's preset ──▶ settings paths (objects.count, pods.size_bytes, …)
//!  (counts,        + a kill_operator at relist_at      │ Scenario::validate (errors name the path)
//!   sizes, limit)                                      ▼
//!                                    Run for a bounded window (measure.rs)
//!           first LIST · cache sync · heap by owner · relist spike · steady QPS · OOMKilled
//!                                                      ▼
//!                                                 SizeReport ──▶ scenario() (open as scenario)
//! ```
//!
//! The window is bounded so that 150 000 objects take a few seconds natively: the incident family
//! runs [`INCIDENT_WINDOW`] with its relist at [`INCIDENT_RELIST_AT`], the list-full-scan family
//! [`LIST_FULL_SCAN_WINDOW`] with its relist at [`LIST_FULL_SCAN_RELIST_AT`]. The relist is the
//! one a container restart causes (client-go `tools/cache/reflector.go` `ListAndWatch` on start):
//! a `kill_operator` action, the way the families' own OOMKilled restarts relist.

mod build;
mod input;
mod measure;
mod report;

pub use build::{
    build, INCIDENT_RELIST_AT, INCIDENT_WINDOW, LIST_FULL_SCAN_RELIST_AT, LIST_FULL_SCAN_WINDOW,
};
pub use input::{Family, KindCount, SizeError, SizeInput};
pub use measure::{measure, size, Measurer};
pub use report::SizeReport;
