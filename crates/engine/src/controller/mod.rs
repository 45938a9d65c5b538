//! controller-runtime's controller: reconcile programs, their Go rendering, and (in the cluster
//! simulation) the workers that run them.

pub mod go_code;
pub mod program;
pub mod result;

pub use result::{reconcile_handler, Handled, ReconcileResult};
