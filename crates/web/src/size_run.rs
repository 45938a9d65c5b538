//! The "size it" run in budgeted pieces: the engine's stepwise sizing run
//! ([`flywheel_engine::sizing::Measurer`], the one `flywheel size` runs to the end at once), a
//! piece at a time between frames so the page keeps drawing and shows progress.

use flywheel_engine::scenario::Scenario;
use flywheel_engine::sizing::{self, Family, Measurer, SizeError, SizeInput, SizeReport};

use crate::config::RunConfig;

/// A sizing run under way.
pub struct SizeRun(Measurer);

impl SizeRun {
    /// Builds the scenario of `input` and starts its run.
    pub fn start(input: &SizeInput) -> Result<SizeRun, SizeError> {
        Measurer::new(input.family, sizing::build(input)?).map(SizeRun)
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        self.0.scenario()
    }

    /// How much of the window has run (0 … 1).
    pub fn progress(&self) -> f64 {
        self.0.progress()
    }

    /// Whether the window has run to its end.
    pub fn is_done(&self) -> bool {
        self.0.is_done()
    }

    /// Runs pieces until done or `out_of_time()`; returns whether it is done.
    pub fn advance(&mut self, out_of_time: impl Fn() -> bool) -> bool {
        self.0.advance(&mut || out_of_time())
    }

    /// What the run measured.
    pub fn numbers(&self) -> SizeReport {
        self.0.report()
    }
}

/// The page's configuration for a sizing scenario: the family's preset with every setting the
/// numbers changed, at its path ("Open as scenario"). The sizing window and its relist are the
/// measurement's, not the scenario's, so the page runs the preset's own length.
pub fn as_config(family: Family, scenario: &Scenario) -> RunConfig {
    let base = RunConfig::preset(family.preset());
    let before = flywheel_engine::settings::current(&base.base());
    let mut config = base.clone();
    for (path, value) in flywheel_engine::settings::current(scenario) {
        if before.get(path) != Some(&value) {
            if let Ok(c) = config.with_setting(path, &value) {
                config = c;
            }
        }
    }
    config
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opened_as_scenario_the_numbers_are_the_family_presets_settings() {
        let mut input = SizeInput::new(Family::Incident);
        input.workers = Some(7);
        input.memory_limit_bytes = Some(3 << 30);
        let scenario = sizing::build(&input).expect("builds");
        let config = as_config(Family::Incident, &scenario);
        assert_eq!(config.preset, "seed-000-incident");
        assert_eq!(
            config.params.get("controller.workers").map(String::as_str),
            Some("7")
        );
        assert!(
            config.params.contains_key("process.memory_limit"),
            "{:?}",
            config.params
        );
        let page = config
            .scenario()
            .expect("the page's configuration is valid");
        assert_eq!(page.controller.workers, 7);
    }
}
