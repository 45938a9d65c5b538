//! Metrics with upstream names and meanings.
