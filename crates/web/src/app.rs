//! The root component.

use std::rc::Rc;

use gloo::timers::callback::Interval;
use web_sys::{HtmlCanvasElement, HtmlInputElement};
use yew::prelude::*;

use crate::chart::draw_heap_chart;
use crate::heap_demo::{HeapDemo, GOGC_RANGE};

/// How often the demo advances while playing.
pub const TICK_MS: u32 = 100;

/// The page's state.
#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    /// The heap being simulated.
    pub heap: HeapDemo,
    /// Whether the timer advances it.
    pub playing: bool,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            heap: HeapDemo::new(100),
            playing: true,
        }
    }
}

/// What the user (or the timer) can do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// One timer tick.
    Tick,
    /// Play or pause.
    TogglePlay,
    /// Set GOGC.
    SetGogc(u32),
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::Tick if next.playing => next.heap.tick(),
            Action::Tick => return self,
            Action::TogglePlay => next.playing = !next.playing,
            Action::SetGogc(gogc) => next.heap.set_gogc(gogc),
        }
        Rc::new(next)
    }
}

/// The root component: a heap chart, a GOGC slider and a play/pause button.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(AppState::default);
    let canvas = use_node_ref();

    {
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let interval = Interval::new(TICK_MS, move || dispatcher.dispatch(Action::Tick));
            move || drop(interval)
        });
    }
    {
        let canvas = canvas.clone();
        let heap = state.heap.clone();
        use_effect_with(heap, move |heap| {
            if let Some(el) = canvas.cast::<HtmlCanvasElement>() {
                let goal_mib = heap.goal_bytes() / (1024.0 * 1024.0);
                if let Err(err) = draw_heap_chart(el, &heap.series, goal_mib) {
                    gloo::console::error!(format!("chart: {err}"));
                }
            }
        });
    }

    let on_toggle = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::TogglePlay))
    };
    let on_gogc = {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(v) = input.value().parse::<u32>() {
                state.dispatch(Action::SetGogc(v));
            }
        })
    };

    html! {
        <main class="app">
            <header>
                <h1>{ "Flywheel" }</h1>
                <p class="tagline">{ "A simulated API server and controller-runtime operator, running in your browser." }</p>
            </header>
            <section class="controls" aria-label="controls">
                <button id="play" onclick={on_toggle} aria-pressed={state.playing.to_string()}>
                    { if state.playing { "Pause" } else { "Play" } }
                </button>
                <label for="gogc">{ format!("GOGC {}%", state.heap.gogc) }</label>
                <input id="gogc" type="range" min={GOGC_RANGE.start().to_string()} max={GOGC_RANGE.end().to_string()}
                    step="25" value={state.heap.gogc.to_string()} oninput={on_gogc} />
                <output id="gc-count">{ format!("GC cycles: {}", state.heap.gc_count) }</output>
            </section>
            <canvas id="heap-chart" ref={canvas} width="640" height="300" aria-label="heap over time"></canvas>
        </main>
    }
}
