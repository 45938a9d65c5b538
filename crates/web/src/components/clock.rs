//! The control bar's live parts: the simulated clock and the speed the loop really reaches.

use flywheel_engine::float_text::{fixed, Fixed};
use yew::prelude::*;

use super::use_ctx;
use crate::i18n::{format_speed, Msg};
use crate::live::use_live;

/// `mm:ss.s` of `secs` simulated seconds.
pub fn clock_text(secs: f64) -> String {
    let (minutes, seconds) = minutes_and_seconds(secs);
    format!("{minutes:02}:{:04}", Fixed(seconds, 1))
}

/// `secs` (negative as 0) in whole minutes and the seconds left, `secs % 60.0` exactly below
/// 2⁵³ seconds (any clock a run reaches): the minutes' seconds are then a product without
/// rounding and at least half of `secs` once there is a minute, so taking them away is exact; a
/// quotient that rounded up to the next minute is taken back. Written out, so that the module
/// compiles no `fmod` (and the 128-bit division it brings) for a clock.
pub fn minutes_and_seconds(secs: f64) -> (u64, f64) {
    let s = secs.max(0.0);
    if !s.is_finite() {
        return (u64::MAX, f64::NAN);
    }
    let mut minutes = (s / 60.0).floor();
    let mut seconds = s - minutes * 60.0;
    if seconds < 0.0 {
        minutes -= 1.0;
        seconds += 60.0;
    }
    (minutes as u64, seconds)
}

/// The simulated clock, its end, and whether the runs finished.
#[function_component(Clock)]
pub fn clock() -> Html {
    crate::renders::count("Clock");
    let lang = use_ctx().state.lang;
    let live = use_live();
    let (now, end) = (live.now_s, live.end_s);
    html! {
        <output id="clock" class="clock" aria-label={Msg::Clock.text(lang)} data-seconds={fixed(now, 3)}>
            { format!("{} / {}", clock_text(now), clock_text(end)) }
            if live.finished { <span class="done">{ format!(" · {}", Msg::Finished.text(lang)) }</span> }
        </output>
    }
}

/// The speed the loop reaches, when a large scenario keeps it short of the one asked for.
#[function_component(AchievedSpeed)]
pub fn achieved_speed() -> Html {
    crate::renders::count("AchievedSpeed");
    let lang = use_ctx().state.lang;
    let Some(x) = use_live().achieved_speed else {
        return html! {};
    };
    html! {
        <output id="speed-achieved" class="achieved" data-value={fixed(x, 3)}
            title={Msg::AchievedSpeedWhy.text(lang)}>
            { Msg::AchievedSpeed.text(lang).replace("{}", &format_speed(x)) }
        </output>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_reads_minutes_and_tenths_of_seconds() {
        assert_eq!(clock_text(0.0), "00:00.0");
        assert_eq!(clock_text(75.25), "01:15.2");
        assert_eq!(clock_text(-3.0), "00:00.0");
    }
}
