//! Whether a run does what its preset's story says: a preset that is not about memory but whose
//! operator is OOMKilled, an operator stuck with every worker busy, or a write loop that stops (or
//! turns) against what the switches predict. The verdict and the narration say so.

use flywheel_engine::cluster::expectation::PresetStory;
use flywheel_engine::cluster::verdict::{Verdict, LOOP_WINDOW_S};
use flywheel_engine::float_text::Fixed;

use crate::i18n::{Lang, Msg};
use crate::verdict::LaneStats;

/// How a run departs from its preset's story.
#[derive(Clone, Debug, PartialEq)]
pub enum Departure {
    /// OOMKilled this many times under this limit (bytes), in a story without OOM kills.
    OomKilled(u64, Option<u64>),
    /// Every worker busy and no Reconcile finishing.
    Stuck,
    /// The loop stopped although the switches close it.
    Converged,
    /// A loop turns although the switches open it.
    Looping,
}

impl Departure {
    /// How `s` (a lane of `preset`) departs from the preset's story, if it does.
    pub fn of(preset: &str, s: &LaneStats, limit: Option<u64>) -> Option<Departure> {
        let story = PresetStory::of(preset);
        let f = &s.verdict.figures;
        if f.oom_kills > 0 && story != PresetStory::OomKill {
            return Some(Departure::OomKilled(f.oom_kills, limit));
        }
        let settled = f.since_workers_s.is_some_and(|w| w >= LOOP_WINDOW_S as f64);
        if settled && f.workers_all_busy && f.reconcile_rate == 0.0 && story != PresetStory::Stuck {
            return Some(Departure::Stuck);
        }
        let loops = f.expectation.loops();
        if story != PresetStory::WriteLoop || f.oom_kills > 0 {
            return None;
        }
        match s.verdict() {
            Verdict::Converged if loops => Some(Departure::Converged),
            Verdict::Looping if !loops => Some(Departure::Looping),
            _ => None,
        }
    }

    /// The sentence that says so, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let what = match self {
            Departure::OomKilled(n, limit) => Msg::OutcomeOom
                .text(lang)
                .replace("{n}", &n.to_string())
                .replace(
                    "{limit}",
                    &limit.map_or_else(
                        || Msg::NoLimit.text(lang).to_owned(),
                        |l| format!("{} MiB", Fixed(l as f64 / 1048576.0, 0)),
                    ),
                ),
            Departure::Stuck => Msg::OutcomeStuck.text(lang).to_owned(),
            Departure::Converged => Msg::OutcomeConverged.text(lang).to_owned(),
            Departure::Looping => Msg::OutcomeLooping.text(lang).to_owned(),
        };
        Msg::OutcomeDiffers.text(lang).replace("{}", &what)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RunConfig;
    use crate::runs::Runs;
    use flywheel_engine::SimTime;

    #[test]
    fn an_oom_kill_is_news_in_the_flywheel_but_not_in_the_incident() {
        let mut s = LaneStats::default();
        s.verdict.figures.oom_kills = 2;
        assert_eq!(
            Departure::of("flywheel", &s, Some(256 << 20)),
            Some(Departure::OomKilled(2, Some(256 << 20)))
        );
        assert_eq!(Departure::of("seed-000-incident", &s, None), None);
        let text = Departure::OomKilled(2, Some(256 << 20)).text(Lang::En);
        assert!(
            text.contains("OOMKilled 2×") && text.contains("256 MiB"),
            "{text}"
        );
    }

    #[test]
    fn the_flywheel_with_a_small_memory_limit_departs_from_its_story() {
        let mut c = RunConfig::preset("flywheel");
        c.profile = flywheel_engine::scenario::Profile::Modern;
        for (k, v) in [
            ("objects.count", "5000"),
            ("controller.workers", "4"),
            ("client.qps", "50"),
            ("objects.size_bytes", "64Ki"),
            ("process.memory_limit", "256Mi"),
        ] {
            c.params.insert(k.into(), v.into());
        }
        let mut e = Runs::new(&c, None).expect("engine");
        e.advance(SimTime::from_secs_f64(60.0), &mut || false);
        e.ingest(0.0, false);
        e.refresh_stats();
        let d = Departure::of("flywheel", &e.a.stats, e.a.snapshot.memory_limit_bytes);
        assert!(matches!(d, Some(Departure::OomKilled(..))), "{d:?}");
    }
}
