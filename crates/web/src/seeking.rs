//! Seeking the page's runs to an instant without freezing the page: each lane restores the
//! checkpoint its seek starts from ([`flywheel_engine::cluster::run::Run::begin_seek`]), then the
//! animation loop replays toward the instant within a per-frame budget until both lanes reach it.
//!
//! ```text
//!  seek(t) ──▶ begin: restore ──▶ frame: replay ≤ budget ──▶ frame … ──▶ reached: read again
//!                                       └── Cancel: stay where the replay got
//! ```

use flywheel_engine::SimTime;

use crate::runs::{Runs, Side, CHUNK_EVENTS};

/// A seek under way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeekJob {
    /// The instant to reach.
    pub to: SimTime,
    /// Where the replay started (simulated seconds).
    pub from_s: f64,
}

impl SeekJob {
    /// How much of the replay is done (0 … 1) when the runs' clock reads `now_s`.
    pub fn progress(&self, now_s: f64) -> f64 {
        let span = self.to.as_secs_f64() - self.from_s;
        if span <= 0.0 {
            1.0
        } else {
            ((now_s - self.from_s) / span).clamp(0.0, 1.0)
        }
    }
}

impl Runs {
    /// Starts a seek of every lane to `t`: each is put back to where its replay starts. `None`
    /// when a lane cannot go there (it keeps no timeline).
    pub fn begin_seek(&mut self, t: SimTime) -> Option<SeekJob> {
        let mut to = t;
        for lane in self.lanes_mut() {
            to = to.min(lane.run.begin_seek(t).ok()?);
            lane.reread_later();
        }
        Some(SeekJob {
            to,
            from_s: self.now().as_secs_f64(),
        })
    }

    /// Replays toward `job`'s instant until `out_of_time()`; returns whether every lane reached it.
    pub fn continue_seek(&mut self, job: &SeekJob, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        loop {
            let mut done = true;
            for lane in self.lanes_mut() {
                crate::heap::grow_ahead();
                done &= lane.run.continue_seek(job.to, CHUNK_EVENTS);
            }
            if done {
                return true;
            }
            if out_of_time() {
                return false;
            }
        }
    }

    /// Reads every lane again at the instant reached (log, counters, marks).
    pub fn finish_seek(&mut self) {
        for lane in self.lanes_mut() {
            lane.reread();
        }
    }

    /// When the newest event before the clock happened on `side`'s run (simulated seconds).
    pub fn previous_event_s(&self, side: Side) -> Option<f64> {
        let run = &self.lane(side).run;
        let now = run.now();
        run.trace()
            .events()
            .rfind(|e| e.time < now)
            .map(|e| e.time.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RunConfig;

    fn counts_at(runs: &Runs) -> (u64, u64, usize) {
        let l = &runs.a;
        (l.run.events(), l.loop_count, l.log.len())
    }

    #[test]
    fn seeking_back_in_chunks_shows_what_a_fresh_run_shows_at_that_instant() {
        let five = SimTime::from_secs_f64(5.0);
        let mut fresh = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        fresh.advance(five, &mut || false);
        fresh.ingest(0.0, false);
        let mut runs = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        runs.advance(SimTime::from_secs_f64(20.0), &mut || false);
        runs.ingest(0.0, false);
        let job = runs.begin_seek(five).expect("timeline kept");
        let mut frames = 0;
        while !runs.continue_seek(&job, &mut || true) {
            frames += 1;
        }
        runs.finish_seek();
        assert!(job.from_s <= 5.0);
        assert_eq!(runs.now(), five, "after {frames} frames");
        assert_eq!(counts_at(&runs), counts_at(&fresh));
    }

    #[test]
    fn a_frame_during_a_seek_shows_the_instant_the_replay_starts_from() {
        let sought = |read_at_once: bool| {
            let mut runs = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
            runs.advance(SimTime::from_secs_f64(60.0), &mut || false);
            runs.ingest(0.0, true);
            let job = runs
                .begin_seek(SimTime::from_secs_f64(50.0))
                .expect("timeline kept");
            assert!(
                job.from_s < 50.0,
                "the replay starts at a checkpoint: {}",
                job.from_s
            );
            if read_at_once {
                runs.a.reread();
            }
            // the next frame's read, with tokens on
            runs.ingest(0.0, true);
            (counts_at(&runs), runs.a.tokens.alive.len())
        };
        let (at_frame, tokens) = sought(false);
        assert_eq!(at_frame, sought(true).0);
        assert_eq!(tokens, 0, "reading the run again starts no tokens");
    }

    #[test]
    fn the_previous_event_is_before_the_clock() {
        let mut runs = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        runs.advance(SimTime::from_secs_f64(3.0), &mut || false);
        let prev = runs.previous_event_s(Side::A).expect("events happened");
        assert!(prev < 3.0 && prev > 0.0, "{prev}");
    }
}
