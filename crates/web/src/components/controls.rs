//! Play / pause, step, speed (log scale), reset, seed, and the live clock and achieved speed.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::clock::{AchievedSpeed, Clock};
use super::timeline::Timeline;
use super::use_ctx;
use crate::config::{MAX_SPEED, MIN_SPEED};
use crate::i18n::{format_speed, Msg};
use crate::pow10::{decade, pow10, pow10_f};
use crate::state::Action;
use crate::stepping::StepTarget;
use flywheel_engine::float_text::shortest;

/// Slider position (0..=100) of a speed on the log scale.
pub fn speed_to_pos(speed: f64) -> f64 {
    ((speed.log10() - MIN_SPEED.log10()) / (MAX_SPEED.log10() - MIN_SPEED.log10()) * 100.0).round()
}

/// Speed at a slider position, rounded to two significant digits.
pub fn pos_to_speed(pos: f64) -> f64 {
    let e = MIN_SPEED.log10() + pos / 100.0 * (MAX_SPEED.log10() - MIN_SPEED.log10());
    let v = pow10_f(e);
    let p = pow10(decade(v) - 1);
    ((v / p).round() * p).clamp(MIN_SPEED, MAX_SPEED)
}

/// The control bar.
#[function_component(Controls)]
pub fn controls() -> Html {
    crate::renders::count("Controls");
    let ctx = use_ctx();
    let s = &ctx.state;
    let lang = s.lang;
    let on = |a: Action| {
        let st = ctx.state.clone();
        Callback::from(move |_: MouseEvent| st.dispatch(a.clone()))
    };
    let step = |target: StepTarget| {
        let ctx = ctx.clone();
        Callback::from(move |_: MouseEvent| ctx.step(target))
    };
    let on_speed = {
        let st = ctx.state.clone();
        Callback::from(move |e: InputEvent| {
            let v: HtmlInputElement = e.target_unchecked_into();
            if let Ok(p) = v.value().parse::<f64>() {
                st.dispatch(Action::SetSpeed(pos_to_speed(p)));
            }
        })
    };
    let play_label = if s.playing { Msg::Pause } else { Msg::Play };
    html! {
        <section class="controls" aria-label={Msg::Clock.text(lang)}>
            <button id="play" class="primary" aria-pressed={s.playing.to_string()} aria-keyshortcuts="Space"
                onclick={on(Action::TogglePlay)}>
                { play_label.text(lang) }
            </button>
            <span class="steps" role="group" aria-label={Msg::Step.text(lang)}>
                <button id="step" aria-keyshortcuts="ArrowRight" title={Msg::KeyRight.text(lang)}
                    onclick={step(StepTarget::Event)}>{ Msg::Step.text(lang) }</button>
                <button id="step-reconcile" aria-keyshortcuts="n" title={Msg::KeyN.text(lang)}
                    onclick={step(StepTarget::Reconcile)}>{ Msg::StepReconcile.text(lang) }</button>
                <button id="step-write" aria-keyshortcuts="w" title={Msg::KeyW.text(lang)}
                    onclick={step(StepTarget::Write)}>{ Msg::StepWrite.text(lang) }</button>
            </span>
            <button id="reset" aria-keyshortcuts="r" onclick={on(Action::Reset)}>{ Msg::Reset.text(lang) }</button>
            <label class="speed" for="speed">{ Msg::Speed.text(lang) }</label>
            <input id="speed" type="range" min="0" max="100" step="1"
                value={shortest(speed_to_pos(s.url.speed))} oninput={on_speed}
                aria-valuetext={format_speed(s.url.speed)} aria-keyshortcuts="+ -" />
            <span class="speed-readout">
                <output id="speed-value" for="speed">{ format_speed(s.url.speed) }</output>
                <AchievedSpeed />
            </span>
            if !s.url.embed {
                <span class="seed-field">
                    <label for="seed">{ Msg::Seed.text(lang) }</label>
                    <SeedInput seed={s.url.config.seed} />
                </span>
                // beside the seed, in the room the bar's second row leaves, so the pipeline and the
                // tab below it stay on a 1280×720 screen (the embed draws it under the bar)
                <Timeline />
            }
            <Clock />
            if let Some(note) = s.step_note.as_ref().filter(|_| !s.playing) {
                <output id="step-note" class="step-note" aria-live="polite"
                    data-events={note.events.to_string()} data-reached={note.reached.to_string()}
                    data-step={s.steps_reported.to_string()}>
                    { note.line(lang) }
                </output>
            }
            if s.url.embed {
                <a class="open-full" href={format!("./?{}", embed_less(&s.url))} target="_blank" rel="noopener">
                    { Msg::OpenFull.text(lang) }
                </a>
            }
        </section>
    }
}

/// Props of [`SeedInput`].
#[derive(Properties, PartialEq)]
struct SeedProps {
    /// The seed in effect.
    seed: u64,
}

/// The seed box. What the user types is a draft, shown until they commit it (Enter or leaving
/// the box): Yew keeps an input's `value` in step with the page on every render, so without the
/// draft a render from the running page would put the seed in effect back while they type.
#[function_component(SeedInput)]
fn seed_input(props: &SeedProps) -> Html {
    let ctx = use_ctx();
    let draft = use_state(|| None::<String>);
    let on_input = {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| {
            let v: HtmlInputElement = e.target_unchecked_into();
            draft.set(Some(v.value()));
        })
    };
    let on_seed = {
        let st = ctx.state.clone();
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let v: HtmlInputElement = e.target_unchecked_into();
            draft.set(None);
            match v.value().trim().parse::<u64>() {
                Ok(seed) => st.dispatch(Action::SetSeed(seed)),
                // not a seed: the box shows the seed in effect again
                Err(_) => v.set_value(&st.url.config.seed.to_string()),
            }
        })
    };
    let value = (*draft).clone().unwrap_or_else(|| props.seed.to_string());
    html! {
        <input id="seed" class="seed" type="number" min="0" step="1"
            value={value} oninput={on_input} onchange={on_seed} />
    }
}

fn embed_less(url: &crate::config::UrlState) -> String {
    let mut u = url.clone();
    u.embed = false;
    u.autoplay = false;
    u.to_query()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_speed_slider_spans_the_log_range() {
        assert_eq!(pos_to_speed(0.0), 0.1);
        assert_eq!(pos_to_speed(100.0), 10_000.0);
        assert_eq!(pos_to_speed(speed_to_pos(100.0)), 100.0);
        assert_eq!(speed_to_pos(10.0), 40.0);
    }

    #[test]
    fn every_slider_position_gives_the_speed_the_c_librarys_pow_gave() {
        for pos in 0..=100 {
            let pos = f64::from(pos);
            let e = MIN_SPEED.log10() + pos / 100.0 * (MAX_SPEED.log10() - MIN_SPEED.log10());
            let v = 10f64.powf(e);
            let p = 10f64.powf(v.log10().floor() - 1.0);
            let before = ((v / p).round() * p).clamp(MIN_SPEED, MAX_SPEED);
            assert_eq!(pos_to_speed(pos), before, "position {pos}");
        }
    }
}
