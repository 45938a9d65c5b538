//! The root component: the reducer, the engine beside it, the animation loop that advances the
//! runs within a per-frame budget and draws the pipelines, the keyboard, and the URL.

use std::cell::RefCell;
use std::rc::Rc;

use flywheel_engine::SimTime;
use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{request_animation_frame, AnimationFrame};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, KeyboardEvent};
use yew::prelude::*;

use crate::components::{Layout, Notices};
use crate::i18n::{Lang, Msg};
use crate::pace::Pace;
use crate::persist;
use crate::pipeline_draw::{self, DrawCtx};
use crate::sim::Engine;
use crate::state::{Action, AppState, Notice};
use crate::stepping::StepTarget;
use crate::texts::{self, Kind, Status};
use crate::theme::{DARK, LIGHT};
use crate::web;

/// Wall-clock ms the simulation may use per animation frame.
pub const FRAME_BUDGET_MS: f64 = 9.0;
/// Longest wall-clock step the clock takes after a stall (a hidden tab), in ms.
pub const MAX_FRAME_MS: f64 = 100.0;
/// Counters and charts refresh at most this often (ms).
pub const REFRESH_MS: f64 = 100.0;
/// How far a step moves the pipeline's animation (ms): the step's tokens show halfway along
/// their edges, and the tokens already there move on a little.
pub const STEP_ANIM_MS: f64 = 350.0;
/// Wall-clock ms one step may spend looking for its target before it reports where it got.
pub const STEP_BUDGET_MS: f64 = 400.0;

/// The engine, shared outside the components.
pub type EngineCell = Rc<RefCell<Option<Engine>>>;

/// What the animation loop reads from the latest render.
#[derive(Clone, Debug, Default)]
pub struct Live {
    playing: bool,
    speed: f64,
    dark: bool,
    lang: Lang,
    motion: bool,
    dirty: bool,
    /// The pipeline animation's clock (ms): it runs with the simulation and stands still while
    /// paused, so a paused pipeline keeps its tokens and its loop edge as they were.
    pub anim_ms: f64,
    /// The speed the loop achieves (written by the loop, read by the control bar).
    pub pace: Pace,
}

/// What every component reads: the state, its dispatcher, and the engine.
#[derive(Clone)]
pub struct Ctx {
    /// The reducer.
    pub state: UseReducerHandle<AppState>,
    /// The runs.
    pub engine: EngineCell,
    /// The pipeline canvases (A, B).
    pub pipes: [NodeRef; 2],
    /// Marks the engine changed outside the loop (a step): the loop refreshes once.
    pub live: Rc<RefCell<Live>>,
}

impl PartialEq for Ctx {
    fn eq(&self, other: &Self) -> bool {
        self.state == other.state && Rc::ptr_eq(&self.engine, &other.engine)
    }
}

impl Ctx {
    /// Dispatches an action.
    pub fn dispatch(&self, a: Action) {
        self.state.dispatch(a);
    }

    /// Pauses and steps the run shown to `target` (one event, the next Reconcile, the next
    /// write); the step's tokens appear on the paused pipeline and a line says what it did.
    pub fn step(&self, target: StepTarget) {
        let side = self.state.side;
        let report = self.engine.borrow_mut().as_mut().map(|e| {
            let start = web::now_ms();
            let r = e.step_to(side, target, &mut || web::now_ms() - start > STEP_BUDGET_MS);
            let mut live = self.live.borrow_mut();
            e.ingest(live.anim_ms, live.motion);
            live.anim_ms += STEP_ANIM_MS;
            live.dirty = true;
            r
        });
        match report {
            Some(r) => self.dispatch(Action::Stepped(r)),
            None => self.dispatch(Action::Pause),
        }
    }

    /// Whether the theme in effect is dark.
    pub fn dark(&self) -> bool {
        self.state
            .dark(web::prefers("(prefers-color-scheme: dark)"))
    }
}

/// The state from the address bar, else from the settings stored by the last visit; unreadable
/// stored settings are set aside with a notice.
fn initial_state() -> AppState {
    let stored = persist::load_stored();
    let start = persist::initial(&web::query(), stored.as_deref());
    let lang = Lang::from_browser(&web::languages());
    let mut state = AppState::from_url(start.url, start.ignored, lang);
    if let (Some(why), Some(text)) = (start.corrupt, stored) {
        persist::set_aside(&text);
        state.notices.push(Notice::StoredSetAside(why));
    }
    state
}

/// The language the page starts in: the address bar's, else the stored settings', else the
/// browser's (the same choice [`App`]'s first state makes).
pub fn initial_lang() -> Lang {
    let stored = persist::load_stored();
    let start = persist::initial(&web::query(), stored.as_deref());
    start
        .url
        .lang
        .unwrap_or_else(|| Lang::from_browser(&web::languages()))
}

/// What the page says when its labels cannot be fetched (the only text it holds compiled in).
pub fn labels_unavailable(lang: Lang, why: &str) -> String {
    match lang {
        Lang::En => format!(
            "Flywheel could not load its text ({why}). Check the connection and reload the page."
        ),
        Lang::Zh => format!("Flywheel 无法加载页面文字（{why}）。请检查网络连接后重新加载页面。"),
    }
}

/// Mounts [`App`] into `root` once the labels of the starting language are fetched, so the first
/// frame has its labels; says why in `root` when they cannot be fetched.
pub fn mount_when_labels_arrive(root: web_sys::Element) {
    let lang = initial_lang();
    let mount = move || match texts::status(Kind::Labels, lang) {
        Status::Loaded(_) => {
            root.set_inner_html("");
            yew::Renderer::<App>::with_root(root.clone()).render();
        }
        Status::Failed(why) => {
            let p = gloo::utils::document().create_element("p");
            if let Ok(p) = p {
                p.set_class_name("load-error");
                let _ = p.set_attribute("role", "alert");
                let _ = p.set_attribute("lang", lang.code());
                p.set_text_content(Some(&labels_unavailable(lang, &why)));
                root.set_inner_html("");
                let _ = root.append_child(&p);
            }
        }
        Status::Loading => {}
    };
    if texts::is_loaded(Kind::Labels, lang) {
        mount();
    } else {
        texts::request(Kind::Labels, lang, mount);
    }
}

/// The page.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(initial_state);
    let engine: EngineCell = use_mut_ref(|| None);
    let live = use_mut_ref(Live::default);
    let pipes = [use_node_ref(), use_node_ref()];
    {
        let mut l = live.borrow_mut();
        l.playing = state.playing;
        l.speed = state.url.speed;
        l.dark = state.dark(web::prefers("(prefers-color-scheme: dark)"));
        l.lang = state.lang;
        l.motion = !web::prefers("(prefers-reduced-motion: reduce)");
    }
    let ctx = Ctx {
        state: state.clone(),
        engine: engine.clone(),
        pipes: pipes.clone(),
        live: live.clone(),
    };
    use_engine_builder(&ctx);
    use_frame_loop(&ctx);
    use_keyboard(&ctx);
    use_url_sync(&state);
    use_labels(&state);
    let labels_failed = match texts::status(Kind::Labels, state.lang) {
        Status::Failed(why) => Some(Msg::LabelsFailed.text(state.lang).replace("{}", &why)),
        _ => None,
    };
    html! {
        <ContextProvider<Ctx> context={ctx}>
            if let Some(why) = labels_failed {
                <p id="labels-error" class="load-error" role="alert">{ why }</p>
            }
            <Notices />
            <Layout />
        </ContextProvider<Ctx>>
    }
}

/// Fetches the labels of the language in effect when it changes (the page redraws once they
/// arrive; until then the other language's stand in), and those of the other language, so the
/// switch works offline.
#[hook]
fn use_labels(state: &UseReducerHandle<AppState>) {
    let state = state.clone();
    use_effect_with(state.lang, move |&lang| {
        let redraw = state.clone();
        texts::request(Kind::Labels, lang, move || redraw.dispatch(Action::Frame));
        texts::request(Kind::Labels, lang.other(), || {});
    });
}

/// Rebuilds the runs whenever what they run changes (or on reset).
#[hook]
fn use_engine_builder(ctx: &Ctx) {
    let s = &ctx.state;
    let deps = (s.url.config.clone(), s.url.compare, s.epoch);
    let (engine, state, live) = (ctx.engine.clone(), ctx.state.clone(), ctx.live.clone());
    use_effect_with(deps, move |(config, compare, _)| {
        // a configuration the engine refuses never replaces the run: the last accepted one stays
        match Engine::new(config, *compare) {
            Ok(built) => *engine.borrow_mut() = Some(built),
            Err(e) => state.dispatch(Action::Notify(Notice::Invalid(e.to_string()))),
        }
        live.borrow_mut().dirty = true;
    });
}

/// Advances the runs each animation frame, draws the pipelines, and bumps the frame counter at
/// most every [`REFRESH_MS`].
#[hook]
fn use_frame_loop(ctx: &Ctx) {
    let ctx = ctx.clone();
    use_effect_with((), move |_| {
        let handle: Rc<RefCell<Option<AnimationFrame>>> = Rc::new(RefCell::new(None));
        let timing = Rc::new(RefCell::new((None::<f64>, 0.0f64)));
        schedule(handle.clone(), Rc::new(move |ts| frame(&ctx, ts, &timing)));
        move || drop(handle.borrow_mut().take())
    });
}

type FrameFn = Rc<dyn Fn(f64)>;

fn schedule(handle: Rc<RefCell<Option<AnimationFrame>>>, f: FrameFn) {
    let next = handle.clone();
    let raf = request_animation_frame(move |ts| {
        f(ts);
        if next.borrow().is_some() {
            schedule(next.clone(), f.clone());
        }
    });
    *handle.borrow_mut() = Some(raf);
}

fn frame(ctx: &Ctx, ts: f64, timing: &RefCell<(Option<f64>, f64)>) {
    let live = ctx.live.borrow().clone();
    let (last, last_refresh) = *timing.borrow();
    let wall_ms = last.map_or(0.0, |l| (ts - l).max(0.0));
    let dt = wall_ms.min(MAX_FRAME_MS);
    let anim = {
        let mut l = ctx.live.borrow_mut();
        if live.playing {
            l.anim_ms += dt;
        }
        l.anim_ms
    };
    let mut finished = false;
    if let Some(engine) = ctx.engine.borrow_mut().as_mut() {
        if live.playing && !engine.is_finished() {
            let before = engine.now().as_secs_f64();
            let deadline = SimTime::from_secs_f64(before + dt / 1000.0 * live.speed);
            let start = web::now_ms();
            engine.advance(deadline, &mut || web::now_ms() - start > FRAME_BUDGET_MS);
            finished = engine.is_finished();
            // a stall (a hidden tab) is not the engine's pace: the clock skipped it
            if wall_ms <= MAX_FRAME_MS {
                let advanced = engine.now().as_secs_f64() - before;
                let mut l = ctx.live.borrow_mut();
                l.pace.record(live.speed, advanced, wall_ms);
            }
        } else {
            ctx.live.borrow_mut().pace.reset();
        }
        engine.ingest(anim, live.motion);
        draw_pipes(ctx, engine, &live, anim);
    }
    let refresh = (live.playing || live.dirty) && ts - last_refresh >= REFRESH_MS;
    *timing.borrow_mut() = (Some(ts), if refresh { ts } else { last_refresh });
    if refresh {
        if let Some(engine) = ctx.engine.borrow_mut().as_mut() {
            engine.refresh_stats();
        }
        ctx.live.borrow_mut().dirty = false;
        ctx.dispatch(Action::Frame);
    }
    if finished {
        ctx.dispatch(Action::Finished);
    }
}

fn draw_pipes(ctx: &Ctx, engine: &Engine, live: &Live, ts: f64) {
    let palette = if live.dark { &DARK } else { &LIGHT };
    for (i, lane) in engine.lanes().enumerate() {
        let Some(canvas) = ctx.pipes[i].cast::<HtmlCanvasElement>() else {
            continue;
        };
        let Some(c2d) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        else {
            continue;
        };
        let scale = f64::from(canvas.width()) / pipeline_draw::WIDTH;
        let _ = c2d.set_transform(scale, 0.0, 0.0, scale, 0.0, 0.0);
        // the figure the stats bar shows, as drawn: both read the lane's stats of this refresh
        let rps = format!("{:.1}", lane.stats.rps);
        if canvas.get_attribute("data-rps").as_deref() != Some(rps.as_str()) {
            let _ = canvas.set_attribute("data-rps", &rps);
        }
        let caption = None;
        let d = DrawCtx {
            palette,
            lang: live.lang,
            now_ms: ts,
            motion: live.motion,
            caption,
        };
        pipeline_draw::draw(&c2d, lane, &d);
    }
}

/// Space, →, n, w, + / −, r, ?, Escape — each only when the focused control does not use it.
#[hook]
fn use_keyboard(ctx: &Ctx) {
    let ctx = ctx.clone();
    use_effect_with((), move |_| {
        let options = EventListenerOptions::enable_prevent_default();
        let doc = gloo::utils::document();
        let listener = EventListener::new_with_options(&doc, "keydown", options, move |e| {
            if let Some(e) = e.dyn_ref::<KeyboardEvent>() {
                on_key(&ctx, e);
            }
        });
        move || drop(listener)
    });
}

fn on_key(ctx: &Ctx, e: &KeyboardEvent) {
    if e.ctrl_key()
        || e.meta_key()
        || e.alt_key()
        || e.default_prevented()
        || web::key_owned_by_focus(e)
    {
        return;
    }
    let step = |target| {
        ctx.step(target);
        None
    };
    let action = match e.key().as_str() {
        " " | "Spacebar" => Some(Action::TogglePlay),
        "ArrowRight" | "Right" => step(StepTarget::Event),
        "n" | "N" => step(StepTarget::Reconcile),
        "w" | "W" => step(StepTarget::Write),
        "+" | "=" => Some(Action::StepSpeed(true)),
        "-" | "_" => Some(Action::StepSpeed(false)),
        "r" | "R" => Some(Action::Reset),
        "?" => Some(Action::ToggleHelp),
        "Escape" => Some(Action::CloseDialogs),
        _ => return,
    };
    e.prevent_default();
    if let Some(a) = action {
        ctx.dispatch(a);
    }
}

/// Keeps the address bar, `<html lang>` and the theme attribute in step with the state.
#[hook]
fn use_url_sync(state: &UseReducerHandle<AppState>) {
    let deps = (state.url.clone(), state.lang);
    use_effect_with(deps, move |(url, lang)| {
        web::replace_query(&url.to_query());
        persist::save(url);
        web::set_root_attrs(lang.code(), url.theme.as_str());
    });
}
