//! What a combination of the fixes does, in words: whether the write loop closes (the engine's
//! [`LoopExpectation`]) and why, the "status never persisted" trap, and a caption that names a
//! variant. The page's narration, hints and A/B captions follow it, so they always describe the
//! switches as they are.

use flywheel_engine::cluster::expectation::LoopExpectation;
use flywheel_engine::controller::program::WriteVerb;
use flywheel_engine::scenario::variant::Variant;

use crate::i18n::{Lang, Msg};

/// What the switches make of the write loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopStory {
    /// Each write comes back as work: the loop closes.
    Closes {
        /// Why each write changes the object.
        change: Msg,
        /// Why its event re-enqueues the key.
        requeue: Msg,
    },
    /// The loop does not close, for this reason.
    Opens(Msg),
    /// `/status` is on but status goes to the main endpoint: the API server drops it.
    StatusDropped,
    /// `/status` is off but status goes to `/status`: 404, retried with backoff.
    NoStatusEndpoint,
}

impl LoopStory {
    /// The story of `v`: the engine decides whether the loop closes
    /// ([`LoopExpectation::of`]); the story names why.
    pub fn of(v: Variant) -> LoopStory {
        match LoopExpectation::of(v) {
            LoopExpectation::StatusDropped => LoopStory::StatusDropped,
            LoopExpectation::NoStatusEndpoint => LoopStory::NoStatusEndpoint,
            LoopExpectation::Loops => LoopStory::Closes {
                change: change_why(v),
                requeue: requeue_why(v),
            },
            LoopExpectation::Converges => LoopStory::Opens(open_why(v)),
        }
    }

    /// Whether the operator's own writes keep re-triggering Reconcile.
    pub fn loops(self) -> bool {
        matches!(self, LoopStory::Closes { .. })
    }

    /// The story in `lang`, for a reconciler writing with `verb`.
    pub fn text(self, verb: WriteVerb, lang: Lang) -> String {
        let go = go_name(verb);
        match self {
            LoopStory::Closes { change, requeue } => Msg::StoryCloses
                .text(lang)
                .replacen("{}", change.text(lang), 1)
                .replacen("{}", requeue.text(lang), 1),
            LoopStory::Opens(why) => Msg::StoryOpens.text(lang).replace("{}", why.text(lang)),
            LoopStory::StatusDropped => Msg::StoryStatusDropped.text(lang).replace("{}", go),
            LoopStory::NoStatusEndpoint => Msg::StoryNoStatusEndpoint.text(lang).replace("{}", go),
        }
    }
}

/// Why each write of a closing loop changes the object.
fn change_why(v: Variant) -> Msg {
    if v.timestamp {
        Msg::StoryChangeTimestamp
    } else {
        Msg::StoryChangeGuard
    }
}

/// Why the event of a write re-enqueues the key in a closing loop.
fn requeue_why(v: Variant) -> Msg {
    if v.generation_predicate {
        Msg::StoryRequeuePredicate
    } else {
        Msg::StoryRequeueNoPredicate
    }
}

/// Why the loop stays open.
fn open_why(v: Variant) -> Msg {
    let sub = v.status_subresource;
    let changes_object = v.timestamp || (v.observed_generation_guard && !sub);
    if !changes_object {
        Msg::StoryOpenIdempotent
    } else if v.generation_predicate && sub {
        Msg::StoryOpenPredicate
    } else {
        Msg::StoryOpenGuard
    }
}

/// The Go call of a write verb (`r.Update`, `r.Status().Patch`…).
pub fn go_name(verb: WriteVerb) -> &'static str {
    match verb {
        WriteVerb::Update => "r.Update",
        WriteVerb::StatusUpdate => "r.Status().Update",
        WriteVerb::StatusPatch => "r.Status().Patch",
        WriteVerb::Patch => "r.Patch",
    }
}

/// The switches that are on, in words: `/status subresource, r.Status().Patch, …`.
pub fn switches(v: Variant, lang: Lang) -> String {
    let mut parts: Vec<String> = Vec::new();
    parts.push(if v.status_subresource {
        Msg::StatusSubresource.text(lang).to_owned()
    } else {
        Msg::StoryNoSubresource.text(lang).to_owned()
    });
    parts.push(go_name(v.write).to_owned());
    if v.generation_predicate {
        parts.push("GenerationChangedPredicate".to_owned());
    }
    if v.observed_generation_guard {
        parts.push(Msg::ObservedGenerationGuard.text(lang).to_owned());
    }
    parts.push(if v.timestamp {
        Msg::Timestamp.text(lang).to_owned()
    } else {
        Msg::StoryNoTimestamp.text(lang).to_owned()
    });
    parts.join(" · ")
}

/// A variant's caption in a comparison: `r.Update, no /status` or
/// `/status + Status().Patch + predicate + guard`.
pub fn caption(v: Variant, lang: Lang) -> String {
    let verb = go_name(v.write);
    let verb = if v.write.is_status() {
        verb.trim_start_matches("r.")
    } else {
        verb
    };
    let mut s = if v.status_subresource {
        format!("/status + {verb}")
    } else {
        format!("{verb}, {}", Msg::CaptionNoStatus.text(lang))
    };
    if v.generation_predicate {
        s.push_str(" + predicate");
    }
    if v.observed_generation_guard {
        s.push_str(" + ");
        s.push_str(Msg::CaptionGuard.text(lang));
    }
    if !v.timestamp {
        s.push_str(", ");
        s.push_str(Msg::StoryNoTimestamp.text(lang));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RunConfig;
    use crate::runs::Runs;
    use flywheel_engine::SimTime;

    fn preset(name: &str) -> Variant {
        RunConfig::preset(name).variant
    }

    #[test]
    fn the_presets_of_the_seed_tell_the_story_their_narration_tells() {
        for name in [
            "flywheel",
            "subresource-only",
            "predicate-only",
            "observed-generation-only",
        ] {
            assert!(LoopStory::of(preset(name)).loops(), "{name} loops");
        }
        for name in [
            "subresource+predicate",
            "subresource+observed-generation",
            "fixed",
            "idempotent-status",
        ] {
            assert!(!LoopStory::of(preset(name)).loops(), "{name} converges");
        }
        let mut v = preset("fixed");
        v.write = WriteVerb::Update;
        assert_eq!(LoopStory::of(v), LoopStory::StatusDropped);
    }

    #[test]
    fn captions_name_the_variant_in_words() {
        assert_eq!(
            caption(preset("flywheel"), Lang::En),
            "r.Update, no /status"
        );
        assert_eq!(
            caption(preset("fixed"), Lang::En),
            "/status + Status().Patch + predicate + guard"
        );
    }

    /// Every combination of the switches, run in the engine for a minute: the story's "the loop
    /// closes" matches whether self-triggered enqueues keep coming.
    #[test]
    fn the_story_predicts_the_engine_for_every_combination() {
        let verbs = [
            WriteVerb::Update,
            WriteVerb::StatusUpdate,
            WriteVerb::StatusPatch,
            WriteVerb::Patch,
        ];
        for bits in 0..16u8 {
            for write in verbs {
                let v = Variant {
                    status_subresource: bits & 1 != 0,
                    write,
                    generation_predicate: bits & 2 != 0,
                    observed_generation_guard: bits & 4 != 0,
                    timestamp: bits & 8 != 0,
                };
                let mut config = RunConfig::preset("flywheel");
                config.variant = v;
                let mut e = Runs::new(&config, None).expect("engine");
                e.advance(SimTime::from_secs_f64(30.0), &mut || false);
                e.ingest(0.0, false);
                let early = e.a.loop_count;
                e.advance(SimTime::from_secs_f64(60.0), &mut || false);
                e.ingest(0.0, false);
                let late = e.a.loop_count - early;
                let story = LoopStory::of(v);
                assert_eq!(
                    story.loops(),
                    late > 0,
                    "{v:?}: {story:?}, {late} late self-enqueues"
                );
            }
        }
    }
}
