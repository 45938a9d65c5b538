//! The guided tour the page plays: which tour, which step, and where the step is — asking its
//! question, running, or shown. Entering a step sets up its state (preset, then its settings);
//! the animation loop then runs it ([`crate::tour_run`]) and says what the run showed.
//!
//! ```text
//!  open(id, n) ──▶ Asking (a question) ──pick──▶ Running ──reached──▶ Shown (answer, explanation)
//!                  └─────── no question ────────▶ Running
//! ```

use std::rc::Rc;

use flywheel_engine::tour::{self, Step, Tour};

use crate::config::{Ignored, RunConfig};
use crate::reasons::Reason;
use crate::state::{AppState, Notice};
use crate::tour_run::Reached;

/// Where a step is.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// Its question is asked; nothing runs yet.
    Asking,
    /// It runs in the animation loop (with the choice picked, if it asked).
    Running {
        /// The choice picked.
        picked: Option<usize>,
    },
    /// It ran: what the run showed.
    Shown {
        /// The choice picked.
        picked: Option<usize>,
        /// What the run reached.
        reached: Reached,
    },
}

/// The tour open and its step.
#[derive(Clone, Debug, PartialEq)]
pub struct TourAt {
    /// The tour.
    pub tour: Rc<Tour>,
    /// The step, counted from 0.
    pub index: usize,
    /// Where the step is.
    pub phase: Phase,
}

/// What the user does to the tour.
#[derive(Clone, Debug, PartialEq)]
pub enum TourAction {
    /// Open the tour `id` at its step `n` (counted from 1).
    Open(String, usize),
    /// Go to the step at this index (counted from 0).
    Go(usize),
    /// The next step.
    Next,
    /// The step before.
    Back,
    /// Pick the choice at this index: the step runs.
    Pick(usize),
    /// The animation loop reached the step's instant or condition.
    Reached(Reached),
    /// Close the tour.
    Close,
}

/// Reads `tour=` and `step=`; an unknown tour is listed as ignored, a bad step opens step 1.
pub fn from_url(
    id: Option<&str>,
    step: Option<&str>,
    bad: &mut Vec<Ignored>,
) -> Option<(String, usize)> {
    let id = id?;
    if !tour::TOUR_IDS.contains(&id) {
        bad.push(Ignored {
            key: "tour".into(),
            reason: Reason::UnknownParameter,
        });
        return None;
    }
    let n = step.and_then(|s| s.parse::<usize>().ok()).unwrap_or(1);
    Some((id.to_owned(), n.max(1)))
}

impl TourAt {
    /// The tour `id` at its step `n` (counted from 1, kept within the tour).
    pub fn open(id: &str, n: usize) -> Option<TourAt> {
        let tour = Rc::new(tour::load(id).ok()?);
        let index = n.saturating_sub(1).min(tour.steps.len() - 1);
        Some(TourAt::at(tour, index))
    }

    fn at(tour: Rc<Tour>, index: usize) -> TourAt {
        let phase = if tour.steps[index].question.is_some() {
            Phase::Asking
        } else {
            Phase::Running { picked: None }
        };
        TourAt { tour, index, phase }
    }

    /// The step.
    pub fn step(&self) -> &Step {
        &self.tour.steps[self.index]
    }

    /// How many steps the tour has.
    pub fn step_count(&self) -> usize {
        self.tour.steps.len()
    }

    /// The run configuration the step starts from: its preset, then its settings.
    pub fn config(&self) -> Result<RunConfig, String> {
        let step = self.step();
        let mut config = RunConfig::preset(&step.preset);
        for (path, value) in &step.set {
            config = config
                .with_setting(path, value)
                .map_err(|e| e.to_string())?;
        }
        Ok(config)
    }

    /// Whether the step is to run now (the animation loop runs it).
    pub fn running(&self) -> bool {
        matches!(self.phase, Phase::Running { .. })
    }
}

impl AppState {
    /// Changes the tour as `action` says.
    pub fn reduce_tour(&mut self, action: TourAction) {
        let at = self.tour.clone();
        match (action, at) {
            (TourAction::Open(id, n), _) => {
                if let Some(at) = TourAt::open(&id, n) {
                    self.enter(at);
                }
            }
            (TourAction::Go(i), Some(at)) if i < at.step_count() => {
                self.enter(TourAt::at(at.tour, i))
            }
            (TourAction::Next, Some(at)) if at.index + 1 < at.step_count() => {
                self.enter(TourAt::at(at.tour, at.index + 1));
            }
            (TourAction::Back, Some(at)) if at.index > 0 => {
                self.enter(TourAt::at(at.tour, at.index - 1));
            }
            (TourAction::Pick(c), Some(mut at)) if at.phase == Phase::Asking => {
                at.phase = Phase::Running { picked: Some(c) };
                self.tour = Some(at);
                self.restart();
            }
            (TourAction::Reached(reached), Some(mut at)) => {
                if let Phase::Running { picked } = at.phase {
                    at.phase = Phase::Shown { picked, reached };
                    self.tour = Some(at);
                }
            }
            (TourAction::Close, _) => {
                self.tour = None;
                self.url.tour = None;
            }
            _ => {}
        }
    }

    /// Sets up a step: its configuration, its panel, paused at its start.
    fn enter(&mut self, at: TourAt) {
        match at.config() {
            Ok(config) => self.url.config = config,
            Err(e) => self.notices.push(Notice::Invalid(e)),
        }
        if let Some(tab) = crate::tour_parts::tab_of(&at.step().point) {
            self.tab = tab;
            self.url.tab = Some(tab);
        }
        self.url.tour = Some((at.tour.id.clone(), at.index + 1));
        self.selected = None;
        self.rejected = None;
        self.playing = false;
        self.tour = Some(at);
        self.restart();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::state::Action;
    use yew::Reducible;

    fn opened(query: &str) -> Rc<AppState> {
        let (url, bad) = crate::config::UrlState::from_query(query);
        assert!(bad.is_empty(), "{bad:?}");
        Rc::new(AppState::from_url(url, vec![], Lang::En))
    }

    #[test]
    fn the_url_opens_a_tour_at_its_step_with_the_steps_preset() {
        let s = opened("tour=flywheel&step=3");
        let at = s.tour.clone().expect("the tour is open");
        assert_eq!(at.index, 2);
        assert_eq!(s.url.config.preset, at.step().preset);
        assert_eq!(at.phase, Phase::Asking, "step 3 asks first");
        assert!(!s.playing);
    }

    #[test]
    fn picking_a_choice_runs_the_step_and_next_moves_the_url() {
        let s = opened("tour=flywheel&step=2");
        let s = s.reduce(Action::Tour(TourAction::Pick(0)));
        let at = s.tour.clone().expect("open");
        assert_eq!(at.phase, Phase::Running { picked: Some(0) });
        let s = s.reduce(Action::Tour(TourAction::Next));
        assert_eq!(s.url.tour, Some(("flywheel".into(), 3)));
        assert!(s.url.to_query().contains("tour=flywheel&step=3"));
        let s = s.reduce(Action::Tour(TourAction::Close));
        assert!(s.tour.is_none() && s.url.tour.is_none());
    }

    #[test]
    fn an_unknown_tour_is_ignored_and_a_step_past_the_end_opens_the_last() {
        let (url, bad) = crate::config::UrlState::from_query("tour=nope&step=2");
        assert!(url.tour.is_none());
        assert_eq!(bad.len(), 1);
        let at = TourAt::open("flywheel", 99).expect("known");
        assert_eq!(at.index, at.step_count() - 1);
    }

    #[test]
    fn every_step_of_every_tour_has_a_configuration_the_page_accepts() {
        for id in tour::TOUR_IDS {
            let first = TourAt::open(id, 1).expect("the tour loads");
            for i in 0..first.step_count() {
                let at = TourAt::at(first.tour.clone(), i);
                assert!(
                    at.config().is_ok(),
                    "{id} step {}: {:?}",
                    i + 1,
                    at.config()
                );
                assert!(
                    crate::tour_parts::selector(&at.step().point).is_some(),
                    "{id} step {}: {}",
                    i + 1,
                    at.step().point
                );
            }
        }
    }
}
