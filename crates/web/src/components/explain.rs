//! The preset's narration, in the page's language (fetched with that language's file), led by what the current switches do (when they
//! differ from the preset's own), the "status never persisted" warning, and how the run departs
//! from the preset's story when it does.

use flywheel_engine::scenario::presets;
use flywheel_engine::scenario::variant::Variant;
use yew::prelude::*;

use super::use_ctx;
use crate::config::RunConfig;
use crate::i18n::{preset_summary, preset_title, Lang, Msg};
use crate::live::use_live;
use crate::outcome::Departure;
use crate::story::{self, LoopStory};
use crate::texts::{self, Kind, Status};

/// One side's story: `The switches now: …. The loop closes: …`.
fn story_line(id: &str, side: Option<&str>, v: Variant, lang: Lang) -> Html {
    let story = LoopStory::of(v);
    let now = Msg::StoryNow
        .text(lang)
        .replace("{}", &story::switches(v, lang));
    let prefix = side.map(|s| format!("{s}: ")).unwrap_or_default();
    let warn = matches!(
        story,
        LoopStory::StatusDropped | LoopStory::NoStatusEndpoint
    );
    html! {
        <p id={id.to_owned()} class={classes!("story", warn.then_some("story-warning"))}
            data-loops={story.loops().to_string()}>
            { format!("{prefix}{now} {}", story.text(v.write, lang)) }
        </p>
    }
}

/// The narration panel.
#[function_component(Explain)]
pub fn explain() -> Html {
    crate::renders::count("Explain");
    let ctx = use_ctx();
    let s = &ctx.state;
    let lang = s.lang;
    let name = s.url.config.preset.clone();
    let group = use_memo(name.clone(), |n| {
        presets::load(n, &[]).map(|s| s.group).unwrap_or_default()
    });
    let shipped = use_memo(name.clone(), |n| RunConfig::preset(n).variant);
    let summary = preset_summary(&name, lang).to_owned();
    let update = use_force_update();
    use_effect_with(lang, move |&lang| {
        texts::request(Kind::Narrations, lang, move || update.force_update());
    });
    let (text, failed) = match texts::status(Kind::Narrations, lang) {
        Status::Loaded(file) => (file.of(&name).map_or(summary, str::to_owned), None),
        Status::Loading => (Msg::NarrationLoading.text(lang).to_owned(), None),
        Status::Failed(why) => (
            summary,
            Some(Msg::NarrationFailed.text(lang).replace("{}", &why)),
        ),
    };
    let a = s.url.config.variant;
    let differs = a != *shipped || s.url.compare.is_some();
    let warns = |v: Variant| {
        matches!(
            LoopStory::of(v),
            LoopStory::StatusDropped | LoopStory::NoStatusEndpoint
        )
    };
    let show_a = differs || warns(a);
    html! {
        <article class="explain" lang={lang.code()}>
            <h2>{ preset_title(&name, lang) }</h2>
            <p class="muted">{ format!("{name} · {}: {group}", Msg::Group.text(lang)) }</p>
            <OutcomeLine />
            if show_a {
                { story_line("story", s.url.compare.map(|_| "A"), a, lang) }
            }
            if let Some(b) = s.url.compare {
                { story_line("story-b", Some("B"), b, lang) }
            }
            if show_a {
                <p class="muted shipped">{ Msg::StoryShipped.text(lang) }</p>
            }
            if let Some(why) = failed {
                <p id="narration-error" class="story-warning" role="alert">{ why }</p>
            }
            <p id="narration">{ text }</p>
        </article>
    }
}

/// What the shown run does that its preset's story does not (nothing when it keeps to it).
#[function_component(OutcomeLine)]
fn outcome_line() -> Html {
    crate::renders::count("OutcomeLine");
    let ctx = use_ctx();
    let live = use_live();
    let s = &ctx.state;
    let departure = live
        .shown(s.side)
        .and_then(|lane| Departure::of(&s.url.config.preset, &lane.stats, lane.memory_limit_bytes));
    match departure {
        Some(d) => html! { <p id="outcome" class="outcome">{ d.text(s.lang) }</p> },
        None => html! {},
    }
}
