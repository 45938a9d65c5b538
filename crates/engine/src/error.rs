//! Validation errors shared by every constructor and scenario parser.

use std::fmt;

/// A rejected configuration value: which field, and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The field (or parameter) that was rejected, e.g. `burst` or `controller.workers`.
    pub field: String,
    /// What is allowed, e.g. `must be at least 1 (got 0)`.
    pub message: String,
}

impl ConfigError {
    /// A new error for `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> ConfigError {
        ConfigError {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ConfigError {}
