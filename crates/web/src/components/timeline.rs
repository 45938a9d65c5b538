//! The timeline under the control bar: the run so far within its planned length, the instant
//! shown, the marks worth jumping to, and a seek's progress. It is a slider: click or drag to
//! seek; with focus ←/→ step to the previous/next event, Shift+←/→ to the previous/next mark,
//! Home/End to the start and the end.

use flywheel_engine::float_text::{fixed, Fixed};
use web_sys::{HtmlElement, KeyboardEvent, PointerEvent};
use yew::prelude::*;

use super::use_ctx;
use crate::config::round_instant_s;
use crate::ctx::Ctx;
use crate::i18n::{Lang, Msg};
use crate::live::{use_live, LiveView};
use crate::marks::TimelineMark;
use crate::stepping::StepTarget;

/// Percent of the track at `t_s` of `end_s`.
pub fn percent(t_s: f64, end_s: f64) -> f64 {
    if end_s <= 0.0 {
        0.0
    } else {
        (t_s / end_s * 100.0).clamp(0.0, 100.0)
    }
}

/// What a screen reader says of the instant: `12.4 s of 60 s — after the first 429`.
pub fn value_text(now_s: f64, end_s: f64, marks: &[TimelineMark], lang: Lang) -> String {
    let at = Msg::TimelineValue
        .text(lang)
        .replace("{now}", &fixed(now_s, 1))
        .replace("{end}", &fixed(end_s, 0));
    match marks.iter().rev().find(|m| m.at_s <= now_s + 1e-6) {
        Some(m) => {
            let after = Msg::TimelineAfter
                .text(lang)
                .replace("{}", m.kind.label(lang));
            format!("{at} — {after}")
        }
        None => at,
    }
}

/// The simulated instant under the pointer (to a tenth of a second).
fn instant_at(track: &NodeRef, e: &PointerEvent, end_s: f64) -> Option<f64> {
    let el = track.cast::<HtmlElement>()?;
    let rect = el.get_bounding_client_rect();
    if rect.width() <= 0.0 {
        return None;
    }
    let f = ((f64::from(e.client_x()) - rect.left()) / rect.width()).clamp(0.0, 1.0);
    // to a tenth of a second, as the URL keeps it, so a link opens exactly there
    Some(round_instant_s(f * end_s))
}

fn on_key(ctx: &Ctx, live: &LiveView, e: &KeyboardEvent) {
    let forward = match e.key().as_str() {
        "ArrowRight" | "Right" => true,
        "ArrowLeft" | "Left" => false,
        "Home" => return jump(e, || ctx.seek(0.0)),
        "End" => return jump(e, || ctx.seek(live.end_s)),
        _ => return,
    };
    if e.shift_key() {
        let mark = if forward {
            live.marks.iter().find(|m| m.at_s > live.now_s + 1e-6)
        } else {
            live.marks.iter().rev().find(|m| m.at_s < live.now_s - 1e-6)
        };
        if let Some(m) = mark {
            let at = m.at_s;
            jump(e, || ctx.seek(at));
        } else {
            e.prevent_default();
        }
    } else if forward {
        jump(e, || ctx.step(StepTarget::Event));
    } else {
        jump(e, || ctx.step_back());
    }
}

fn jump(e: &KeyboardEvent, go: impl FnOnce()) {
    e.prevent_default();
    e.stop_propagation();
    go();
}

/// The timeline.
#[function_component(Timeline)]
pub fn timeline() -> Html {
    crate::renders::count("Timeline");
    let ctx = use_ctx();
    let live = use_live();
    let lang = ctx.state.lang;
    let track = use_node_ref();
    let end_s = live.end_s.max(live.reached_s);
    let seek_at = {
        let (ctx, track) = (ctx.clone(), track.clone());
        move |e: &PointerEvent| {
            if let Some(t) = instant_at(&track, e, end_s) {
                ctx.seek(t);
            }
        }
    };
    let down = {
        let seek_at = seek_at.clone();
        Callback::from(move |e: PointerEvent| {
            if let Some(el) = e.target_dyn_into::<HtmlElement>() {
                let _ = el.set_pointer_capture(e.pointer_id());
            }
            seek_at(&e);
        })
    };
    let drag = {
        let ctx = ctx.clone();
        Callback::from(move |e: PointerEvent| {
            if e.buttons() & 1 == 1 && !ctx.seeking() {
                seek_at(&e);
            }
        })
    };
    let keys = {
        let (ctx, live) = (ctx.clone(), live.clone());
        Callback::from(move |e: KeyboardEvent| on_key(&ctx, &live, &e))
    };
    let marks = live.marks.iter().map(|m| {
        let (ctx, at) = (ctx.clone(), m.at_s);
        let label = format!("{} · {} s", m.kind.label(lang), Fixed(m.at_s, 1));
        let go = Callback::from(move |e: PointerEvent| {
            e.stop_propagation();
            ctx.seek(at);
        });
        html! {
            <rect class={classes!("tl-mark", m.kind.class())} data-at={fixed(at, 3)}
                onpointerdown={go} x={fixed(percent(at, end_s) * 10.0 - 3.0, 2)}
                y="2" width="6" height="14">
                <title>{ label }</title>
            </rect>
        }
    });
    let progress = live.seek_progress.map(|p| {
        let cancel = {
            let ctx = ctx.clone();
            Callback::from(move |_| ctx.cancel_seek())
        };
        let to = ctx.state.url.t.unwrap_or(live.now_s);
        html! {
            <div id="seek-progress" class="tl-progress" role="status">
                <progress max="1" value={fixed(p, 3)}></progress>
                <span>{ Msg::Seeking.text(lang).replace("{}", &fixed(to, 1)) }</span>
                <button id="seek-cancel" onclick={cancel}>{ Msg::CancelSeek.text(lang) }</button>
            </div>
        }
    });
    let (pin, parting) = parting(&ctx, &live, end_s).unzip();
    html! {
        <div class="timeline">
            <div id="timeline" class="tl-track" ref={track} role="slider" tabindex="0"
                aria-label={Msg::Timeline.text(lang)}
                aria-valuemin="0" aria-valuemax={fixed(end_s, 1)}
                aria-valuenow={fixed(live.now_s, 1)}
                aria-valuetext={value_text(live.now_s, end_s, &live.marks, lang)}
                data-seconds={fixed(live.now_s, 3)}
                onpointerdown={down} onpointermove={drag} onkeydown={keys}>
                // drawn in SVG: the page's Content-Security-Policy allows no inline styles
                <svg class="tl-svg" viewBox="0 0 1000 18" preserveAspectRatio="none" aria-hidden="true">
                    <rect class="tl-reached" x="0" y="0" height="18"
                        width={fixed(percent(live.reached_s, end_s) * 10.0, 2)} />
                    { for marks }
                    { for pin }
                    <rect class="tl-now" y="0" width="4" height="18"
                        x={fixed(percent(live.now_s, end_s) * 10.0 - 2.0, 2)} />
                </svg>
            </div>
            // each in its own place, present or not, so the track keeps its node (and the
            // keyboard focus) when the progress comes and goes
            <div class="tl-extra">{ for progress }</div>
            <div class="tl-extra">{ for parting }</div>
            <super::branch_tracks::BranchTracks />
        </div>
    }
}

/// In a comparison, the pin where A and B part on the track, and the sentence naming the
/// difference (a button that seeks there).
fn parting(ctx: &Ctx, live: &LiveView, end_s: f64) -> Option<(Html, Html)> {
    let d = live.parting.as_ref()?;
    let lang = ctx.state.lang;
    let at_s = d.at.as_secs_f64();
    let what = if lang == Lang::Zh { &d.zh } else { &d.en };
    let at = fixed(at_s, 1);
    // a difference the engine names (a predicate's drop) reads as a sentence; any other is
    // shown as the two trace lines, as code
    let (words, lines) = if d.side.is_some() {
        let words = Msg::Parting.text(lang).replace("{what}", what);
        (words.replace("{t}", &at), None)
    } else {
        let words = Msg::PartingEvents.text(lang).replace("{t}", &at);
        (words, Some(what.clone()))
    };
    let go = {
        let ctx = ctx.clone();
        Callback::from(move |_: MouseEvent| ctx.seek(at_s))
    };
    let pin = html! {
        <rect class="tl-parting" x={fixed(percent(at_s, end_s) * 10.0 - 1.5, 2)}
            y="0" width="3" height="18"><title>{ words.clone() }</title></rect>
    };
    let text = html! {
        <button id="parting" class="tl-parting-text" data-at={fixed(at_s, 3)}
            title={words.clone()} onclick={go}>{ words }
            if let Some(lines) = lines { { " " }<code>{ lines }</code> }
        </button>
    };
    Some((pin, text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::marks::MarkKind;

    #[test]
    fn the_value_text_names_the_instant_the_length_and_the_last_mark_passed() {
        let marks = [TimelineMark {
            at_s: 8.0,
            kind: MarkKind::First429,
        }];
        assert_eq!(
            value_text(12.44, 60.0, &marks, Lang::En),
            "12.4 s of 60 s — after the first 429"
        );
        assert_eq!(value_text(3.0, 60.0, &marks, Lang::En), "3.0 s of 60 s");
    }

    #[test]
    fn the_track_is_in_percent_of_the_length_and_never_past_its_ends() {
        assert_eq!(percent(15.0, 60.0), 25.0);
        assert_eq!(percent(90.0, 60.0), 100.0);
        assert_eq!(percent(1.0, 0.0), 0.0);
    }
}
