//! The simulated cluster: an API server and one controller-runtime operator in a Go process.

pub mod informer;
pub mod registry;
pub mod series;
pub mod worker;
