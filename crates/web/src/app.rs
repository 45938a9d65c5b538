//! The root component: the reducer, the runs beside it, the animation loop that advances them
//! within a per-frame budget, draws the pipelines and publishes the live view, the keyboard, and
//! the URL.

use std::cell::RefCell;
use std::rc::Rc;

use flywheel_engine::float_text::fixed;
use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{request_animation_frame, AnimationFrame};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, KeyboardEvent};
use yew::prelude::*;

use crate::components::{layout, notices};
use crate::ctx::{Ctx, LoopState};
use crate::host::{Build, FrameTimes, MAX_FRAME_MS};
use crate::host_link::HostLink;
use crate::host_msg::ToHost;
use crate::i18n::{Lang, Msg};
use crate::live::{LiveProvider, LivePublisher};
use crate::persist;
use crate::pipe_view::PipeView;
use crate::pipeline_draw::{self, DrawCtx};
use crate::runs::Side;
use crate::state::{Action, AppState, Notice, Tab};
use crate::stepping::StepTarget;
use crate::texts::{self, Kind, Status};
use crate::theme::{DARK, LIGHT};
use crate::web;

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
    crate::renders::count("App");
    let state = use_reducer(initial_state);
    let link = use_memo((), |()| HostLink::start());
    let looping = use_mut_ref(LoopState::default);
    let pipes = [use_node_ref(), use_node_ref()];
    let publisher = use_memo((), |()| LivePublisher::default());
    let frame_now = use_mut_ref(|| None);
    let shown = use_mut_ref(Vec::new);
    let replies = use_mut_ref(Default::default);
    see_state(&mut looping.borrow_mut(), &state);
    let ctx = Ctx {
        state: state.clone(),
        link: (*link).clone(),
        pipes,
        shown,
        looping,
        frame_now,
        replies,
        publisher: (*publisher).clone(),
    };
    use_engine_builder(&ctx);
    use_frame_loop(&ctx);
    use_refresh_when_shown_changes(&ctx);
    use_keyboard(&ctx);
    use_url_sync(&state);
    use_labels(&state);
    let labels_failed = match texts::status(Kind::Labels, state.lang) {
        Status::Failed(why) => Some(Msg::LabelsFailed.text(state.lang).replace("{}", &why)),
        _ => None,
    };
    // the page's parts that keep no state of their own are views of the context, built here
    let (notices, page) = (notices(&ctx), layout(&ctx));
    html! {
        <ContextProvider<Ctx> context={ctx}>
            <LiveProvider publisher={(*publisher).clone()}>
                if let Some(why) = labels_failed {
                    <p id="labels-error" class="load-error" role="alert">{ why }</p>
                }
                { notices }
                { page }
            </LiveProvider>
        </ContextProvider<Ctx>>
    }
}

/// Copies what the animation loop needs of the state.
fn see_state(l: &mut LoopState, state: &AppState) {
    l.playing = state.playing;
    l.speed = state.url.speed;
    l.dark = state.dark(web::prefers("(prefers-color-scheme: dark)"));
    l.lang = state.lang;
    l.motion = !web::prefers("(prefers-reduced-motion: reduce)");
    l.side = state.side;
    l.selected.clone_from(&state.selected);
    l.embed = state.url.embed;
    l.inspecting = state.tab == Tab::Inspect;
    l.lit.clone_from(&state.why.view);
    l.touring = state.tour.is_some() && !state.help && !state.embed_dialog;
    l.presenter = state.presenter;
}

/// Refreshes the live view at once when what it shows depends on changes (play or pause, another
/// side, object or panel, the language, the theme, texts that arrived), even while paused.
#[hook]
fn use_refresh_when_shown_changes(ctx: &Ctx) {
    let s = &ctx.state;
    let deps = (
        s.playing,
        s.side,
        s.selected.clone(),
        s.tab,
        s.lang,
        ctx.dark(),
        s.redraws,
    );
    let looping = ctx.looping.clone();
    use_effect_with(deps, move |_| looping.borrow_mut().dirty = true);
}

/// Fetches the labels of the language in effect when it changes (the page redraws once they
/// arrive; until then the other language's stand in), and those of the other language, so the
/// switch works offline.
#[hook]
fn use_labels(state: &UseReducerHandle<AppState>) {
    let state = state.clone();
    use_effect_with(state.lang, move |&lang| {
        let redraw = state.clone();
        texts::request(Kind::Labels, lang, move || redraw.dispatch(Action::Redraw));
        texts::request(Kind::Labels, lang.other(), || {});
    });
}

/// Rebuilds the runs whenever what they run changes (or on reset).
#[hook]
fn use_engine_builder(ctx: &Ctx) {
    let s = &ctx.state;
    let deps = (s.url.config.clone(), s.url.compare, s.epoch);
    let (ctx, state) = (ctx.clone(), ctx.state.clone());
    use_effect_with(deps, move |(config, compare, _)| {
        let build = Build {
            config: config.clone(),
            compare: *compare,
            dos: state.url.dos.clone(),
            t_s: state.url.t,
            tour: state
                .tour
                .as_ref()
                .filter(|at| at.running())
                .map(|at| (at.tour.id.clone(), at.index)),
        };
        ctx.send(ToHost::Build(Box::new(build)));
    });
}

/// Advances the runs each animation frame, draws the pipelines, and publishes the live view at
/// most every [`crate::host::REFRESH_MS`].
#[hook]
fn use_frame_loop(ctx: &Ctx) {
    let ctx = ctx.clone();
    use_effect_with((), move |_| {
        let handle: Rc<RefCell<Option<AnimationFrame>>> = Rc::new(RefCell::new(None));
        let last_ms = Rc::new(RefCell::new(None));
        let frame_now = ctx.frame_now.clone();
        let link = ctx.link.clone();
        // a worker's answer is followed when it arrives (its views drawn at the next frame)
        let follower = ctx.clone();
        link.set_on_answer(Some(Rc::new(move || {
            follower.receive();
        })));
        let tick: FrameFn = Rc::new(move |ts| frame(&ctx, ts, &last_ms));
        *frame_now.borrow_mut() = Some(tick.clone());
        schedule(handle.clone(), tick);
        move || {
            drop(handle.borrow_mut().take());
            // the frame holds the context, which holds the frame: let go of both
            frame_now.borrow_mut().take();
            link.set_on_answer(None);
        }
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

/// One animation frame: asks the engine's side for the next frame (when the last one was
/// answered), follows what it answered, and draws the pipelines as last answered.
fn frame(ctx: &Ctx, ts: f64, last_ms: &RefCell<Option<f64>>) {
    if ctx.link.frame_wanted() {
        let wall_ms = last_ms.borrow().map_or(0.0, |l| (ts - l).max(0.0));
        *last_ms.borrow_mut() = Some(ts);
        let dt = wall_ms.min(MAX_FRAME_MS);
        let seen = {
            let mut l = ctx.looping.borrow_mut();
            if l.playing {
                l.anim_ms += dt;
            }
            let seen = l.clone();
            // the engine's side refreshes the live view for this frame
            l.dirty = false;
            seen
        };
        let times = FrameTimes {
            ts,
            wall_ms,
            dt,
            anim_ms: seen.anim_ms,
        };
        ctx.send(ToHost::Frame(Box::new(seen), times));
    } else {
        ctx.receive();
    }
    let seen = ctx.looping.borrow().clone();
    draw_pipes(ctx, &ctx.shown.borrow(), &seen, seen.anim_ms);
}

fn draw_pipes(ctx: &Ctx, pipes: &[PipeView], seen: &LoopState, ts: f64) {
    let palette = if seen.dark { &DARK } else { &LIGHT };
    for (side, view) in Side::BOTH.into_iter().zip(pipes) {
        let Some(canvas) = ctx.pipe(side).cast::<HtmlCanvasElement>() else {
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
        let rps = fixed(view.rps, 1);
        if canvas.get_attribute("data-rps").as_deref() != Some(rps.as_str()) {
            let _ = canvas.set_attribute("data-rps", &rps);
        }
        let caption = None;
        let d = DrawCtx {
            palette,
            lang: seen.lang,
            now_ms: ts,
            motion: seen.motion,
            caption,
            chain: seen.lit.as_deref().filter(|_| side == seen.side),
        };
        pipeline_draw::draw(&c2d, view, &d);
    }
}

/// Space, ←, →, n, w, + / −, r, ?, Escape — each only when the focused control does not use it.
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
    let presenter_key = crate::components::presenter::key_of(&ctx.looping.borrow(), &e.key());
    if let Some(k) = presenter_key {
        e.prevent_default();
        k.act(ctx);
        return;
    }
    let step = |target| {
        ctx.step(target);
        None
    };
    let action = match e.key().as_str() {
        " " | "Spacebar" => Some(Action::TogglePlay),
        "ArrowRight" | "Right" => step(StepTarget::Event),
        "ArrowLeft" | "Left" => {
            ctx.step_back();
            None
        }
        "n" | "N" => step(StepTarget::Reconcile),
        "w" | "W" => step(StepTarget::Write),
        "+" | "=" => Some(Action::StepSpeed(true)),
        "-" | "_" => Some(Action::StepSpeed(false)),
        "r" | "R" => Some(Action::Reset),
        "?" => Some(Action::ToggleHelp),
        ":" => Some(Action::Why(crate::why_state::WhyAction::Command(true))),
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
