//! The interventions of a branch as the URL keeps them: `do=12.4:delete:1`, one per
//! intervention, oldest first — the instant (simulated seconds) and the engine's `--do` words.
//! A reload replays them ([`replay`]) and so lands on the same branch.
//!
//! ```text
//!  ?do=12.4:delete:1&do=20:rollout:fixed ──▶ seek 12.4 · intervene delete:1 · seek 20 · rollout
//! ```

use std::fmt;

use flywheel_engine::cluster::intervention::Intervention;
use flywheel_engine::SimTime;

use crate::config::MAX_INSTANT_S;
use crate::reasons::Reason;
use crate::runs::Runs;
use crate::seeking::SeekJob;

/// One intervention of a branch.
#[derive(Clone, Debug, PartialEq)]
pub struct DoStep {
    /// When (simulated seconds, to the URL's precision).
    pub at_s: f64,
    /// What, in the engine's `--do` words (`delete:1`, `kill_operator`).
    pub text: String,
}

impl fmt::Display for DoStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", crate::config::trim_float(self.at_s), self.text)
    }
}

impl DoStep {
    /// Reads `12.4:delete:1`; the error says what is wrong in the engine's words.
    pub fn parse(raw: &str) -> Result<DoStep, Reason> {
        let (at, text) = raw
            .split_once(':')
            .ok_or_else(|| Reason::Refused(format!("do: must be TIME:ACTION (got '{raw}')")))?;
        let at_s = Reason::number_in(at, 0.0, MAX_INSTANT_S)?;
        Intervention::parse(text).map_err(|e| Reason::Refused(format!("do: {e}")))?;
        Ok(DoStep {
            at_s: (at_s * 1000.0).round() / 1000.0,
            text: text.to_owned(),
        })
    }
}

/// Every `do` of the query, in order, those after an earlier instant's; a refused one is
/// reported and left out.
pub fn read(pairs: &[(String, String)], refuse: &mut dyn FnMut(Reason)) -> Vec<DoStep> {
    let mut steps: Vec<DoStep> = Vec::new();
    for (_, raw) in pairs.iter().filter(|(k, _)| k == "do") {
        match DoStep::parse(raw) {
            Ok(s) if steps.last().is_some_and(|l| l.at_s > s.at_s) => {
                refuse(Reason::Refused(format!(
                    "do: {raw} comes before the one it follows"
                )));
            }
            Ok(s) => steps.push(s),
            Err(why) => refuse(why),
        }
    }
    steps
}

/// Replays `steps` on fresh `runs` at once: each lane goes to the instant and intervenes there,
/// so the runs end on the branch the last one started.
pub fn replay(runs: &mut Runs, steps: &[DoStep]) {
    if let Some(mut job) = DoReplay::new(steps) {
        while !job.drive(runs, &mut || false) {}
    }
}

/// The URL's interventions replayed a few events at a time, so a reload of a long run's branch
/// never blocks the page: the animation loop drives it within each frame's budget.
#[derive(Clone, Debug)]
pub struct DoReplay {
    steps: Vec<DoStep>,
    /// The step being reached.
    next: usize,
    /// The seek to its instant, once begun.
    seek: Option<SeekJob>,
}

impl DoReplay {
    /// A replay of `steps`; `None` when there are none.
    pub fn new(steps: &[DoStep]) -> Option<DoReplay> {
        (!steps.is_empty()).then(|| DoReplay {
            steps: steps.to_vec(),
            next: 0,
            seek: None,
        })
    }

    /// The steps replayed.
    pub fn steps(&self) -> &[DoStep] {
        &self.steps
    }

    /// The instant of the last step (where the runs are when the replay is done).
    pub fn last_s(&self) -> f64 {
        self.steps.last().map_or(0.0, |s| s.at_s)
    }

    /// Replays until `out_of_time()`; returns whether every step is done.
    pub fn drive(&mut self, runs: &mut Runs, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        while let Some(step) = self.steps.get(self.next) {
            let Ok(intervention) = Intervention::parse(&step.text) else {
                self.next += 1;
                continue;
            };
            let to = SimTime::from_secs_f64(step.at_s);
            // runs without a timeline cannot go back: they intervene where they are
            let seek = self.seek.or_else(|| runs.begin_seek(to));
            self.seek = seek;
            if let Some(job) = seek {
                if !runs.continue_seek(&job, out_of_time) {
                    return false;
                }
            }
            for lane in runs.lanes_mut() {
                lane.run.intervene(intervention.clone());
                lane.reread();
            }
            self.seek = None;
            self.next += 1;
            if out_of_time() {
                break;
            }
        }
        self.next >= self.steps.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RunConfig;

    #[test]
    fn a_do_step_reads_back_as_it_was_written() {
        let s = DoStep::parse("12.4:delete:1").expect("a valid step");
        assert_eq!(s.at_s, 12.4);
        assert_eq!(s.to_string(), "12.4:delete:1");
    }

    #[test]
    fn a_do_step_the_engine_does_not_know_is_refused() {
        assert!(DoStep::parse("3:frobnicate").is_err());
        assert!(DoStep::parse("delete").is_err());
    }

    #[test]
    fn replaying_a_step_lands_on_a_new_branch_that_keeps_the_old_one() {
        let mut runs = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        let steps = [DoStep::parse("5:delete:1").expect("a valid step")];
        replay(&mut runs, &steps);
        assert_eq!(runs.a.run.branches().len(), 2);
        assert!((runs.a.run.now().as_secs_f64() - 5.0).abs() < 0.01);
    }

    #[test]
    fn replayed_a_few_events_at_a_time_the_steps_land_where_a_replay_at_once_does() {
        let steps = [
            DoStep::parse("4:delete:1").expect("a valid step"),
            DoStep::parse("9.5:kill_operator").expect("a valid step"),
        ];
        let mut at_once = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        replay(&mut at_once, &steps);
        let mut sliced = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        let mut job = DoReplay::new(&steps).expect("steps");
        let mut frames = 0;
        while !job.drive(&mut sliced, &mut || true) {
            frames += 1;
        }
        assert!(
            frames >= 1,
            "out of time, the replay stops between steps: {frames}"
        );
        assert_eq!(sliced.a.run.now(), at_once.a.run.now());
        assert_eq!(sliced.a.run.events(), at_once.a.run.events());
        assert_eq!(
            sliced.a.run.branches().len(),
            3,
            "a branch per intervention, and the first"
        );
        assert_eq!(sliced.a.log.len(), at_once.a.log.len());
    }
}
