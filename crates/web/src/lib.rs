//! # flywheel-web
//!
//! The playground page: the Flywheel engine compiled to WebAssembly, drawn with Yew and
//! plotters-canvas. The page reads the engine's snapshots, metric series and trace events; it never
//! reaches into engine internals.

pub mod app;
pub mod chart;
pub mod chart_data;
pub mod components;
pub mod config;
pub mod i18n;
pub mod objects;
pub mod panic;
pub mod params;
pub mod persist;
pub mod pipeline_draw;
pub mod sim;
pub mod state;
pub mod theme;
pub mod tokens;
pub mod web;

use wasm_bindgen::prelude::*;

/// Mounts the app into the element with id `app`; does nothing when that element is absent.
#[cfg(not(test))]
#[wasm_bindgen(start)]
pub fn start() {
    panic::install();
    let Some(root) = gloo::utils::document().get_element_by_id("app") else {
        return;
    };
    root.set_inner_html("");
    yew::Renderer::<app::App>::with_root(root).render();
}

/// The crate version, for the page footer and bug reports.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
