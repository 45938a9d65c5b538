//! The root component: the reducer, the runs beside it, the animation loop that advances them
//! within a per-frame budget, draws the pipelines and publishes the live view, the keyboard, and
//! the URL.

use std::cell::RefCell;
use std::rc::Rc;

use flywheel_engine::SimTime;
use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{request_animation_frame, AnimationFrame};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, KeyboardEvent};
use yew::prelude::*;

use crate::components::{Layout, Notices};
use crate::ctx::{Ctx, LoopState, RunsCell, SEEK_FRAME_BUDGET_MS};
use crate::i18n::{Lang, Msg};
use crate::live::{LiveProvider, LivePublisher, LiveView};
use crate::pace::FRAME_BUDGET_MS;
use crate::persist;
use crate::pipe_view::PipeView;
use crate::pipeline_draw::{self, DrawCtx};
use crate::runs::{Runs, Side};
use crate::state::{Action, AppState, Notice, Tab};
use crate::stepping::StepTarget;
use crate::texts::{self, Kind, Status};
use crate::theme::{DARK, LIGHT};
use crate::web;

/// Longest wall-clock step the clock takes after a stall (a hidden tab), in ms.
pub const MAX_FRAME_MS: f64 = 100.0;
/// The live view refreshes at most this often (ms).
pub const REFRESH_MS: f64 = 100.0;

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
    let runs: RunsCell = use_mut_ref(|| None);
    let looping = use_mut_ref(LoopState::default);
    let pipes = [use_node_ref(), use_node_ref()];
    let publisher = use_memo((), |()| LivePublisher::default());
    let frame_now = use_mut_ref(|| None);
    see_state(&mut looping.borrow_mut(), &state);
    let ctx = Ctx {
        state: state.clone(),
        runs,
        pipes,
        looping,
        frame_now,
    };
    use_engine_builder(&ctx);
    use_frame_loop(&ctx, &publisher);
    use_refresh_when_shown_changes(&ctx);
    use_keyboard(&ctx);
    use_url_sync(&state);
    use_labels(&state);
    let labels_failed = match texts::status(Kind::Labels, state.lang) {
        Status::Failed(why) => Some(Msg::LabelsFailed.text(state.lang).replace("{}", &why)),
        _ => None,
    };
    html! {
        <ContextProvider<Ctx> context={ctx}>
            <LiveProvider publisher={(*publisher).clone()}>
                if let Some(why) = labels_failed {
                    <p id="labels-error" class="load-error" role="alert">{ why }</p>
                }
                <Notices />
                <Layout />
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
    let (runs, state, looping) = (ctx.runs.clone(), ctx.state.clone(), ctx.looping.clone());
    use_effect_with(deps, move |(config, compare, _)| {
        // a configuration the engine refuses never replaces the run: the last accepted one stays
        match Runs::new(config, *compare) {
            Ok(built) => {
                // the URL's interventions are replayed by the loop, a frame's budget at a time
                let do_job = crate::do_steps::DoReplay::new(&state.url.dos);
                let branched = do_job.as_ref().map(crate::do_steps::DoReplay::last_s);
                *runs.borrow_mut() = Some(built);
                let mut l = looping.borrow_mut();
                l.seeking = None;
                l.do_job = do_job;
                l.reached_s = 0.0;
                // an instant before the branch's last intervention would leave the branch
                l.pending_seek_s = state.url.t.filter(|t| branched.is_none_or(|b| *t >= b));
                l.horizon = None;
                l.tour_job = state.tour.as_ref().and_then(crate::tour_run::TourJob::of);
            }
            Err(e) => state.dispatch(Action::Notify(Notice::Invalid(e.to_string()))),
        }
        looping.borrow_mut().dirty = true;
    });
}

/// Advances the runs each animation frame, draws the pipelines, and publishes the live view at
/// most every [`REFRESH_MS`].
#[hook]
fn use_frame_loop(ctx: &Ctx, publisher: &LivePublisher) {
    let (ctx, publisher) = (ctx.clone(), publisher.clone());
    use_effect_with((), move |_| {
        let handle: Rc<RefCell<Option<AnimationFrame>>> = Rc::new(RefCell::new(None));
        let timing = Rc::new(RefCell::new(Timing::default()));
        let frame_now = ctx.frame_now.clone();
        let tick: FrameFn = Rc::new(move |ts| frame(&ctx, &publisher, ts, &timing));
        *frame_now.borrow_mut() = Some(tick.clone());
        schedule(handle.clone(), tick);
        move || {
            drop(handle.borrow_mut().take());
            // the frame holds the context, which holds the frame: let go of both
            frame_now.borrow_mut().take();
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

/// When the loop last ran and last refreshed, and how many views it published.
#[derive(Clone, Copy, Debug, Default)]
struct Timing {
    last_ms: Option<f64>,
    refreshed_ms: f64,
    published: u64,
}

fn frame(ctx: &Ctx, publisher: &LivePublisher, ts: f64, timing: &RefCell<Timing>) {
    let replaying = do_frame(ctx);
    let pending = (!replaying)
        .then(|| ctx.looping.borrow_mut().pending_seek_s.take())
        .flatten();
    if let Some(t) = pending {
        ctx.start_seek(t);
    }
    // a frame that replayed or sought does not also play on: the seek's pause reaches the
    // loop's copy of the state only with the next render
    let seeking =
        replaying || pending.is_some() || ctx.seek_frame(SEEK_FRAME_BUDGET_MS) || tour_frame(ctx);
    let seen = ctx.looping.borrow().clone();
    let t = *timing.borrow();
    let wall_ms = t.last_ms.map_or(0.0, |l| (ts - l).max(0.0));
    let dt = wall_ms.min(MAX_FRAME_MS);
    let anim = {
        let mut l = ctx.looping.borrow_mut();
        if seen.playing {
            l.anim_ms += dt;
        }
        l.anim_ms
    };
    let mut finished = false;
    if let Some(runs) = ctx.runs.borrow_mut().as_mut() {
        if seen.playing && !seeking && !runs.is_finished() {
            finished = advance(ctx, runs, &seen, wall_ms, dt);
        } else {
            ctx.looping.borrow_mut().pace.reset();
        }
        runs.ingest(anim, seen.motion && !seeking);
        let now_s = runs.now().as_secs_f64();
        let mut l = ctx.looping.borrow_mut();
        l.reached_s = l.reached_s.max(now_s);
        drop(l);
        draw_pipes(ctx, runs, &seen, anim);
    }
    // playing: every REFRESH_MS; changed outside the loop, or just finished: at once
    let due = (seen.playing || seeking) && ts - t.refreshed_ms >= REFRESH_MS;
    let refresh = due || seen.dirty || finished;
    let published = t.published + u64::from(refresh);
    *timing.borrow_mut() = Timing {
        last_ms: Some(ts),
        refreshed_ms: if refresh { ts } else { t.refreshed_ms },
        published,
    };
    if refresh {
        publish(ctx, publisher, published);
    }
    if finished {
        ctx.dispatch(Action::Finished);
    }
}

/// Replays the URL's interventions within the frame budget; once done, tells the page which
/// branches there are. Returns whether it replayed this frame.
fn do_frame(ctx: &Ctx) -> bool {
    let Some(mut job) = ctx.looping.borrow_mut().do_job.take() else {
        return false;
    };
    let start = web::now_ms();
    let done = ctx.runs.borrow_mut().as_mut().is_none_or(|runs| {
        let done = job.drive(runs, &mut || web::now_ms() - start > SEEK_FRAME_BUDGET_MS);
        if done {
            crate::acting::show_replayed_branches(runs, job.steps(), &ctx.state);
        }
        done
    });
    let mut l = ctx.looping.borrow_mut();
    if done {
        l.reached_s = l.reached_s.max(job.last_s());
        l.dirty = true;
    } else {
        l.do_job = Some(job);
    }
    true
}

/// Runs the tour's step within the frame budget; says when it is done. Returns whether a step
/// runs.
fn tour_frame(ctx: &Ctx) -> bool {
    let Some(mut job) = ctx.looping.borrow_mut().tour_job.take() else {
        return false;
    };
    let start = web::now_ms();
    let reached = ctx
        .runs
        .borrow_mut()
        .as_mut()
        .and_then(|runs| job.drive(runs, &mut || web::now_ms() - start > SEEK_FRAME_BUDGET_MS));
    match reached {
        Some(r) => {
            ctx.looping.borrow_mut().dirty = true;
            ctx.dispatch(Action::Tour(crate::tour::TourAction::Reached(r)));
            false
        }
        None => {
            ctx.looping.borrow_mut().tour_job = Some(job);
            true
        }
    }
}

/// Moves the runs on by `dt` wall ms at the speed asked for, within the frame's budget (the
/// pace's: larger after a frame that fell behind); records the pace reached and returns whether
/// every run is finished.
fn advance(ctx: &Ctx, runs: &mut Runs, seen: &LoopState, wall_ms: f64, dt: f64) -> bool {
    let before = runs.now().as_secs_f64();
    let deadline = SimTime::from_secs_f64(before + dt / 1000.0 * seen.speed);
    let budget_ms = {
        let mut l = ctx.looping.borrow_mut();
        l.pace.begin_frame(wall_ms);
        l.pace.budget_ms(seen.embed)
    };
    let start = web::now_ms();
    // a piece of a checkpoint's copy or release starts only within the 60 Hz budget, so a
    // catch-up frame does not lengthen the longest task
    let reached = runs.advance_frame(
        deadline,
        &mut || web::now_ms() - start > budget_ms,
        &mut || web::now_ms() - start > FRAME_BUDGET_MS,
    );
    let mut l = ctx.looping.borrow_mut();
    // a stall (a hidden tab) is not the runs' pace: the clock skipped it
    if wall_ms <= MAX_FRAME_MS {
        let advanced = runs.now().as_secs_f64() - before;
        l.pace.record(seen.speed, advanced, wall_ms);
    }
    l.pace
        .record_reached(reached || runs.is_finished(), web::now_ms() - start);
    runs.is_finished()
}

/// Reads the runs' stats and publishes the live view numbered `seq`.
fn publish(ctx: &Ctx, publisher: &LivePublisher, seq: u64) {
    let view = ctx.runs.borrow_mut().as_mut().map(|runs| {
        runs.refresh_stats();
        let mut l = ctx.looping.borrow_mut();
        l.dirty = false;
        LiveView::read(runs, &mut l, seq)
    });
    if let Some(view) = view {
        publisher.publish(view);
    }
}

fn draw_pipes(ctx: &Ctx, runs: &Runs, seen: &LoopState, ts: f64) {
    let palette = if seen.dark { &DARK } else { &LIGHT };
    for (side, lane) in Side::BOTH.into_iter().zip(runs.lanes()) {
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
        let view = PipeView::read(lane);
        // the figure the stats bar shows, as drawn: both read the lane's stats of this refresh
        let rps = format!("{:.1}", view.rps);
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
        pipeline_draw::draw(&c2d, &view, &d);
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
