//! Component and state tests of the page, run in headless Chromium by wasm-bindgen-test.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;
use std::time::Duration;

use flywheel_engine::controller::program::WriteVerb;
use flywheel_engine::scenario::presets;
use flywheel_engine::scenario::variant::Variant;
use flywheel_web::app::App;
use flywheel_web::chart::{draw, ChartSpec, Line};
use flywheel_web::config::{RunConfig, UrlState, DEFAULT_SPEED};
use flywheel_web::i18n::{Lang, Msg};
use flywheel_web::state::{Action, AppState};
use flywheel_web::texts::{self, Kind, TextFile};
use flywheel_web::theme::LIGHT;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::Reducible;

wasm_bindgen_test_configure!(run_in_browser);

/// Every preset the engine ships (the determinism table has 100 seeds of each).
const PRESET_COUNT: usize = flywheel_engine::scenario::presets::PRESET_NAMES.len();

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
fn a_chart_draws_ink_on_the_canvas() {
    let canvas = new_canvas();
    assert_eq!(inked_pixels(&canvas), 0, "a fresh canvas is blank");
    let points: Vec<(f64, f64)> = (0..60).map(|i| (f64::from(i), f64::from(i % 7))).collect();
    let spec = ChartSpec {
        title: "go_memstats_heap_alloc_bytes".into(),
        x_label: "time (s)".into(),
        x_range: (0.0, 60.0),
        y_range: (0.0, 8.0),
        y2_range: Some((0.0, 1.0)),
        units: ("", "s"),
        lines: vec![
            Line {
                name: "a".into(),
                points: points.clone(),
                color: LIGHT.blue,
                dashed: false,
                secondary: false,
            },
            Line {
                name: String::new(),
                points,
                color: LIGHT.orange,
                dashed: true,
                secondary: true,
            },
        ],
        limits: vec![(6.0, LIGHT.vermillion)],
        marks: vec![],
    };
    let area = draw(canvas.clone(), &spec, &LIGHT, 1.0, None).expect("the chart draws");
    assert!(
        inked_pixels(&canvas) > 500,
        "the chart left ink on the canvas"
    );
    assert!(area.left < area.right);
    let plain = inked_pixels(&canvas);
    draw(canvas.clone(), &spec, &LIGHT, 1.0, Some(1.0)).expect("the chart draws a cursor");
    assert_ne!(
        inked_pixels(&canvas),
        plain,
        "a cursor before the end draws a line and veils what follows"
    );
}

#[wasm_bindgen_test]
fn the_url_state_round_trips_and_bad_parameters_fall_back() {
    let mut st = UrlState {
        config: RunConfig::preset("subresource+predicate"),
        ..UrlState::default()
    };
    st.config.seed = 99;
    st.speed = 1000.0;
    st.lang = Some(Lang::Zh);
    st.compare = Some(RunConfig::preset("flywheel").variant);
    let (back, bad) = UrlState::from_query(&st.to_query());
    assert!(bad.is_empty());
    assert_eq!(back, st);
    let (fallback, bad) = UrlState::from_query("?speed=-1&objects=999999&preset=zzz");
    assert_eq!(bad.len(), 3);
    assert_eq!(fallback.speed, DEFAULT_SPEED);
    assert!(fallback.config.params.is_empty());
}

#[wasm_bindgen_test]
fn reducer_actions_change_the_state() {
    let s = Rc::new(AppState::default());
    let s = s.reduce(Action::TogglePlay);
    assert!(!s.playing);
    let s = s
        .reduce(Action::StepSpeed(true))
        .reduce(Action::SetPreset("fixed".into()));
    assert_eq!(s.url.speed, 20.0);
    assert_eq!(s.url.config.preset, "fixed");
    assert_eq!(s.epoch, 1);
}

/// The checked-in text files, given to the page as if fetched (the test server does not serve
/// `www/`): what the page reads in the browser.
fn install_texts() {
    let files = [
        (
            Kind::Labels,
            Lang::En,
            include_str!("../../../www/text/labels.en.txt"),
        ),
        (
            Kind::Labels,
            Lang::Zh,
            include_str!("../../../www/text/labels.zh-CN.txt"),
        ),
        (
            Kind::Myths,
            Lang::En,
            include_str!("../../../www/text/myths.en.txt"),
        ),
        (
            Kind::Myths,
            Lang::Zh,
            include_str!("../../../www/text/myths.zh-CN.txt"),
        ),
    ];
    for (kind, lang, text) in files {
        texts::install(kind, lang, text).expect("a checked-in text file is complete");
    }
}

/// Waits until `selector` matches in `root`, for at most two seconds.
async fn wait_for(root: &web_sys::Element, selector: &str) {
    for _ in 0..40 {
        if root.query_selector(selector).ok().flatten().is_some() {
            return;
        }
        gloo::timers::future::sleep(Duration::from_millis(50)).await;
    }
    panic!("{selector} never appeared");
}

#[wasm_bindgen_test]
fn i18n_tables_are_complete_in_both_languages() {
    install_texts();
    for m in Msg::ALL {
        assert!(!m.text(Lang::En).is_empty(), "{m:?}");
        assert!(!m.text(Lang::Zh).is_empty(), "{m:?}");
    }
    assert_eq!(Msg::Scenario.text(Lang::En), "Scenario");
    assert_eq!(Msg::Scenario.text(Lang::Zh), "场景");
    let en_file = TextFile::parse(include_str!("../../../www/text/narrations.en.txt"))
        .expect("the English narrations parse");
    let zh_file = TextFile::parse(include_str!("../../../www/text/narrations.zh-CN.txt"))
        .expect("the Chinese narrations parse");
    for name in presets::names() {
        let en = en_file
            .of(name)
            .unwrap_or_else(|| panic!("{name} has an English narration"));
        let zh = zh_file
            .of(name)
            .unwrap_or_else(|| panic!("{name} has a Chinese narration"));
        assert!(en.len() > 100 && zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
    }
}

#[wasm_bindgen_test]
fn toggles_produce_the_expected_variant() {
    use flywheel_web::config::variant_from_str;
    let v = variant_from_str("sub.status-patch.pred.guard").expect("valid");
    assert_eq!(
        v,
        Variant {
            status_subresource: true,
            write: WriteVerb::StatusPatch,
            generation_predicate: true,
            observed_generation_guard: true,
            timestamp: false,
        }
    );
    let fixed = RunConfig::preset("fixed").variant;
    assert_eq!(
        Variant {
            timestamp: true,
            ..v
        },
        fixed,
        "the fixed preset is every fix (and keeps its timestamp)"
    );
    let mut c = RunConfig::preset("flywheel");
    c.variant = v;
    let s = c.scenario().expect("valid");
    assert!(s.crd.status_subresource);
    assert_eq!(Variant::of(&s), v);
}

#[wasm_bindgen_test]
async fn the_app_mounts_runs_and_draws() {
    install_texts();
    let root = document().create_element("div").expect("div");
    document()
        .body()
        .expect("body")
        .append_child(&root)
        .expect("attach");
    yew::Renderer::<App>::with_root(root.clone()).render();
    gloo::timers::future::sleep(Duration::from_millis(1500)).await;
    let canvas: HtmlCanvasElement = root
        .query_selector("#pipeline-a")
        .expect("query works")
        .expect("the app renders its pipeline")
        .dyn_into()
        .expect("it is a canvas");
    assert!(
        inked_pixels(&canvas) > 1000,
        "the animation loop drew the pipeline"
    );
    let clock = root
        .query_selector("#clock")
        .expect("query")
        .expect("clock")
        .get_attribute("data-seconds")
        .and_then(|s| s.parse::<f64>().ok())
        .expect("a clock value");
    assert!(clock > 1.0, "the clock ran: {clock}");
}

#[wasm_bindgen_test]
fn the_error_panel_offers_the_permalink_and_a_report() {
    let app = document().create_element("div").expect("div");
    app.set_id("app");
    document()
        .body()
        .expect("body")
        .append_child(&app)
        .expect("attach");
    flywheel_web::panic::show_error_panel("boom").expect("panel shown");
    let panel = document().get_element_by_id("error-panel").expect("panel");
    let text = panel.text_content().unwrap_or_default();
    assert!(text.contains("boom") && text.contains("permalink"));
    assert!(panel.query_selector("button").expect("query").is_some());
    app.remove();
}

#[wasm_bindgen_test]
async fn the_myth_cards_name_upstream_and_run_their_scenario() {
    install_texts();
    let root = document().create_element("div").expect("div");
    document()
        .body()
        .expect("body")
        .append_child(&root)
        .expect("attach");
    yew::Renderer::<App>::with_root(root.clone()).render();
    gloo::timers::future::sleep(Duration::from_millis(300)).await;
    let click = |sel: &str| {
        let el: web_sys::HtmlElement = root
            .query_selector(sel)
            .expect("query")
            .unwrap_or_else(|| panic!("{sel} is rendered"))
            .dyn_into()
            .expect("an element");
        el.click();
    };
    click("#tab-myths");
    wait_for(&root, ".myth").await;
    let cards = root.query_selector_all(".myth").expect("query");
    assert_eq!(
        cards.length() as usize,
        flywheel_engine::scenario::myths::MYTHS.len()
    );
    let text = root
        .query_selector("#myth-kubelet-oom-95")
        .expect("query")
        .expect("the kubelet card")
        .text_content()
        .unwrap_or_default();
    assert!(
        text.contains("pkg/kubelet/kuberuntime/kuberuntime_container_linux.go"),
        "{text}"
    );
    click("#myth-kubelet-oom-95 .myth-run");
    gloo::timers::future::sleep(Duration::from_millis(300)).await;
    let preset: web_sys::HtmlSelectElement = root
        .query_selector("#preset")
        .expect("query")
        .expect("the preset selector")
        .dyn_into()
        .expect("a select");
    assert_eq!(preset.value(), "list-full-scan");
}

/// Native == WASM: the trace hash of every preset for 100 seeds, computed here in Chromium, equals
/// the table the native test `crates/engine/tests/integration/determinism_table.rs` checks.
#[wasm_bindgen_test]
fn trace_hashes_in_the_browser_equal_the_native_table() {
    const NATIVE: &str = include_str!("../../engine/tests/data/trace_hashes.txt");
    let table = flywheel_engine::swarm::determinism_table().expect("every preset runs");
    let differing: Vec<String> = NATIVE
        .lines()
        .zip(table.lines())
        .filter(|(n, w)| n != w)
        .take(5)
        .map(|(n, w)| format!("native {n}, wasm {w}"))
        .collect();
    assert!(differing.is_empty(), "{}", differing.join("\n"));
    assert_eq!(NATIVE.lines().count(), table.lines().count());
    assert_eq!(NATIVE.lines().count(), PRESET_COUNT * 100);
}

/// Checkpoints in the browser: for every preset × 20 seeds, a run checkpointed at 40 % of its
/// duration, run to its end, put back and run again ends with the hash and event count of a run
/// that never stopped (the same check as the native `checkpoint_seek` test, here in WebAssembly).
#[wasm_bindgen_test]
fn a_run_restored_from_a_checkpoint_in_the_browser_ends_as_one_that_never_stopped() {
    use flywheel_engine::cluster::run::{Run, RunOptions};
    use flywheel_engine::{swarm, SimTime};
    let finish = |run: &mut Run| {
        while !run.advance(1_000_000) {}
        (run.trace().hash(), run.events())
    };
    for preset in presets::names() {
        for seed in 0..20 {
            let straight = swarm::preset_trace_hash(preset, seed).expect("preset runs");
            let mut scenario = presets::load(preset, &[]).expect("preset loads");
            if preset == "seed-000-incident" {
                scenario.objects.count = 300;
            }
            let options = RunOptions {
                duration: Some(swarm::determinism_duration(preset)),
                seed: Some(seed),
                ..RunOptions::default()
            };
            let mut run = Run::new(scenario, &options).expect("preset runs");
            let mid = SimTime::from_secs_f64(run.end().as_secs_f64() * 0.4);
            run.seek(mid).expect("a forward seek needs no timeline");
            let checkpoint = run.checkpoint();
            assert_eq!(
                finish(&mut run),
                straight,
                "{preset} seed {seed}: checkpointed"
            );
            run.restore(&checkpoint);
            assert_eq!(finish(&mut run), straight, "{preset} seed {seed}: restored");
        }
    }
}

/// The heap grown ahead ([`flywheel_web::heap::grow_ahead`]) after the memory grew is the
/// allocator's to hand out: an allocation that fits in the reserve leaves the memory as it is.
#[wasm_bindgen_test]
fn a_heap_grown_ahead_serves_the_allocations_that_follow_without_growing_again() {
    use flywheel_web::heap;
    let memory_bytes = || core::arch::wasm32::memory_size(0) << 16;
    heap::grow_ahead();
    let before = memory_bytes();
    // four times the whole memory: the memory grows, and no piece of what was free before is
    // as large as the quarter of the new size that the next look reserves
    let first: Vec<u8> = vec![1; 4 * before];
    let grown = memory_bytes();
    heap::grow_ahead();
    let reserved = memory_bytes();
    assert!(
        reserved >= grown + heap::ahead_bytes(grown) / 2,
        "{grown} bytes grew to {reserved} ahead"
    );
    let second: Vec<u8> = vec![2; heap::ahead_bytes(grown) / 2];
    assert_eq!(
        memory_bytes(),
        reserved,
        "the reserve served the allocation"
    );
    assert_eq!((first[0], second[0]), (1, 2));
}
