//! Component tests of the page, run in headless Chromium by wasm-bindgen-test.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use flywheel_web::app::{Action, App, AppState};
use flywheel_web::chart::draw_heap_chart;
use flywheel_web::heap_demo::HeapDemo;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::Reducible;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    gloo::utils::document()
}

fn new_canvas() -> HtmlCanvasElement {
    let canvas: HtmlCanvasElement = document()
        .create_element("canvas")
        .expect("a canvas element can be created")
        .dyn_into()
        .expect("it is a canvas");
    canvas.set_width(320);
    canvas.set_height(200);
    document()
        .body()
        .expect("the test page has a body")
        .append_child(&canvas)
        .expect("canvas attaches");
    canvas
}

/// Counts pixels that are neither transparent nor white.
fn inked_pixels(canvas: &HtmlCanvasElement) -> usize {
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .expect("get_context works")
        .expect("a 2d context exists")
        .dyn_into()
        .expect("it is a 2d context");
    let data = ctx
        .get_image_data(
            0.0,
            0.0,
            f64::from(canvas.width()),
            f64::from(canvas.height()),
        )
        .expect("pixels can be read back")
        .data();
    data.chunks(4)
        .filter(|p| p[3] > 0 && (p[0] < 250 || p[1] < 250 || p[2] < 250))
        .count()
}

#[wasm_bindgen_test]
fn the_heap_chart_draws_ink_on_the_canvas() {
    let canvas = new_canvas();
    assert_eq!(inked_pixels(&canvas), 0, "a fresh canvas is blank");
    let mut heap = HeapDemo::new(100);
    for _ in 0..30 {
        heap.tick();
    }
    draw_heap_chart(canvas.clone(), &heap.series, heap.goal_bytes() / 1048576.0)
        .expect("the chart draws");
    assert!(
        inked_pixels(&canvas) > 500,
        "the chart left ink on the canvas"
    );
}

#[wasm_bindgen_test]
fn pausing_stops_the_timer_from_advancing_the_heap() {
    let state = std::rc::Rc::new(AppState::default());
    let paused = state.reduce(Action::TogglePlay);
    let after_tick = paused.clone().reduce(Action::Tick);
    assert_eq!(after_tick.heap.series.len(), paused.heap.series.len());
    let playing = after_tick.reduce(Action::TogglePlay).reduce(Action::Tick);
    assert_eq!(playing.heap.series.len(), 1);
}

#[wasm_bindgen_test]
async fn the_app_mounts_and_its_timer_draws_the_chart() {
    let root = document().create_element("div").expect("div");
    document()
        .body()
        .expect("body")
        .append_child(&root)
        .expect("attach");
    yew::Renderer::<App>::with_root(root.clone()).render();
    gloo::timers::future::sleep(Duration::from_millis(600)).await;
    let canvas: HtmlCanvasElement = root
        .query_selector("#heap-chart")
        .expect("query works")
        .expect("the app renders its chart canvas")
        .dyn_into()
        .expect("it is a canvas");
    assert!(
        inked_pixels(&canvas) > 500,
        "the timer-driven chart has been drawn"
    );
    let gc = root
        .query_selector("#gc-count")
        .expect("query")
        .expect("gc counter")
        .text_content();
    assert!(gc.is_some_and(|t| t.starts_with("GC cycles:")));
}
