//! The control bar's live parts: the simulated clock and the speed the loop really reaches.

use yew::prelude::*;

use super::use_ctx;
use crate::i18n::{format_speed, Msg};
use crate::live::use_live;

/// `mm:ss.s` of `secs` simulated seconds.
pub fn clock_text(secs: f64) -> String {
    let s = secs.max(0.0);
    format!("{:02}:{:04.1}", (s / 60.0).floor() as u64, s % 60.0)
}

/// The simulated clock, its end, and whether the runs finished.
#[function_component(Clock)]
pub fn clock() -> Html {
    crate::renders::count("Clock");
    let lang = use_ctx().state.lang;
    let live = use_live();
    let (now, end) = (live.now_s, live.end_s);
    html! {
        <output id="clock" class="clock" aria-label={Msg::Clock.text(lang)} data-seconds={format!("{now:.3}")}>
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
        <output id="speed-achieved" class="achieved" data-value={format!("{x:.3}")}
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
