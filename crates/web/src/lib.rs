//! # flywheel-web
//!
//! The playground page: the Flywheel engine compiled to WebAssembly, drawn with Yew and
//! the canvas. The page reads the engine's snapshots, metric series and trace events; it never
//! reaches into engine internals.

pub mod acting;
pub mod app;
pub mod chain_draw;
pub mod chart;
pub mod chart_data;
mod clamp;
pub mod components;
pub mod config;
pub mod ctx;
pub mod do_steps;
pub mod embed_choice;
pub mod embed_forms;
pub mod embed_size;
pub mod heap;
pub mod horizon;
pub mod host;
pub mod host_acts;
pub mod host_link;
pub mod host_msg;
#[cfg(target_arch = "wasm32")]
pub mod host_worker;
pub mod i18n;
pub mod incident_params;
pub mod keys;
pub mod kubectl;
pub mod live;
pub mod marks;
pub mod myth_cards;
pub mod objects;
pub mod old_keys;
pub mod outcome;
pub mod pace;
pub mod panic;
pub mod params;
pub mod persist;
pub mod pipe_view;
pub mod pipeline_draw;
pub mod pipeline_words;
pub mod pow10;
pub mod reasons;
pub mod renders;
pub mod runs;
pub mod seeking;
pub mod size_fields;
pub mod size_run;
pub mod state;
pub mod stepping;
pub mod story;
pub mod text_state;
pub mod texts;
pub mod theme;
pub mod tokens;
pub mod tour;
pub mod tour_parts;
pub mod tour_run;
pub mod variant_words;
pub mod verdict;
pub mod web;
pub mod why_state;
pub mod why_view;
pub mod why_words;
pub mod wire;
pub mod wire_types;

use wasm_bindgen::prelude::*;

/// Mounts the app into the element with id `app` once its labels are fetched; does nothing when
/// that element is absent, or outside a window (a Web Worker that only calls [`bench_run`]).
#[cfg(not(test))]
#[wasm_bindgen(start)]
pub fn start() {
    if web_sys::window().is_none() {
        return;
    }
    panic::install();
    renders::install();
    let Some(root) = gloo::utils::document().get_element_by_id("app") else {
        return;
    };
    app::mount_when_labels_arrive(root);
}

/// The crate version, for the page footer and bug reports.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// Events a headless run takes between two looks at the heap ([`heap::grow_ahead`]).
const BENCH_SLICE_EVENTS: u64 = 10_000;

/// Runs a preset headless for `seconds` of simulated time and returns `[events, trace_hash_low32,
/// trace_hash_high32]`: the benchmark's WebAssembly side (`bash tests/bench.sh` times the call
/// and compares with the native CLI on the same build), and a determinism probe.
#[wasm_bindgen]
pub fn bench_run(preset: &str, seconds: f64, seed: f64) -> Vec<f64> {
    let Ok(scenario) = flywheel_engine::scenario::presets::load(preset, &[]) else {
        return Vec::new();
    };
    let options = flywheel_engine::cluster::run::RunOptions {
        duration: Some(std::time::Duration::from_secs_f64(
            seconds.clamp(0.001, 86_400.0),
        )),
        seed: Some(seed.max(0.0) as u64),
        ..flywheel_engine::cluster::run::RunOptions::default()
    };
    let Ok(mut run) = flywheel_engine::cluster::run::Run::new(scenario, &options) else {
        return Vec::new();
    };
    loop {
        heap::grow_ahead();
        if run.advance(BENCH_SLICE_EVENTS) {
            break;
        }
    }
    let report = run.report();
    let hash = u64::from_str_radix(&report.trace_hash, 16).unwrap_or(0);
    vec![
        report.events as f64,
        (hash & 0xffff_ffff) as f64,
        (hash >> 32) as f64,
    ]
}

/// Runs the bare hold loop ([`flywheel_engine::sim::HoldLoop`]) for `events` steps on a heap of
/// `pending` entries and returns the milliseconds the steps took, read from `now_ms` (the
/// caller's `performance.now`) before and after them; filling the heap is not counted. The
/// benchmark's bare loop in V8: what no engine event in the page can cost less than.
#[wasm_bindgen]
pub fn bench_hold(events: f64, pending: f64, now_ms: &js_sys::Function) -> f64 {
    let mut held = flywheel_engine::sim::HoldLoop::new(pending.max(0.0) as u64);
    let clock = || {
        now_ms
            .call0(&JsValue::NULL)
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0)
    };
    let started = clock();
    held.run(events.max(0.0) as u64);
    clock() - started
}
