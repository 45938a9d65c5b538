//! # flywheel-web
//!
//! The playground page: the Flywheel engine compiled to WebAssembly, drawn with Yew and
//! plotters-canvas. The page reads the engine's snapshots, metric series and trace events; it never
//! reaches into engine internals.

pub mod chart;
pub mod chart_data;
pub mod config;
pub mod i18n;
pub mod objects;
pub mod params;
pub mod pipeline_draw;
pub mod sim;
pub mod state;
pub mod theme;
pub mod tokens;

/// The crate version, for the page footer and bug reports.
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
