//! The one parameter the settings registry does not hold: the time of the Reconcile's
//! heavy-logic step, a step of the preset's code rather than a setting. It is drawn by the same
//! control as the registry's settings, under the URL key `logic` (milliseconds).

use std::time::Duration;

use flywheel_engine::controller::program::Step;
use flywheel_engine::scenario::Scenario;
use flywheel_engine::settings::{Kind, Number, Scale, Setting, Unit};

/// The URL key (and pseudo-path) of the heavy-logic time.
pub const LOGIC_KEY: &str = "logic";

/// The heavy-logic time, declared as a setting for the control that draws it (its words are
/// the messages `HeavyLogic` and `HeavyLogicHelp`).
pub static HEAVY_LOGIC: Setting = Setting {
    path: LOGIC_KEY,
    kind: Kind::Number(Number {
        unit: Unit::Millis,
        min: 0.0,
        max: 2000.0,
        step: 10.0,
        scale: Scale::Linear,
    }),
    default: "",
};

/// The heavy-logic time of `s` in milliseconds (`None` when its Reconcile has no such step).
pub fn heavy_logic_ms(s: &Scenario) -> Option<f64> {
    s.reconcile.steps.iter().find_map(|st| match st {
        Step::HeavyLogic { duration, .. } => Some(duration.as_secs_f64() * 1000.0),
        _ => None,
    })
}

/// Sets the heavy-logic time of `s`; `Err` says what it accepts.
pub fn set_heavy_logic(s: &mut Scenario, raw: &str) -> Result<(), String> {
    let Kind::Number(n) = HEAVY_LOGIC.kind else {
        unreachable!("the heavy-logic time is a number")
    };
    let ms = raw
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| n.contains(*v))
        .ok_or_else(|| format!("must be a number of milliseconds from 0 to 2000 (got {raw})"))?;
    for st in &mut s.reconcile.steps {
        if let Step::HeavyLogic { duration, .. } = st {
            *duration = Duration::from_secs_f64(ms / 1000.0);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use flywheel_engine::scenario::presets;

    #[test]
    fn the_heavy_logic_time_reads_back_what_it_writes() {
        let mut s = presets::load("flywheel", &[]).expect("preset");
        set_heavy_logic(&mut s, "250").expect("in range");
        assert_eq!(heavy_logic_ms(&s), Some(250.0));
        assert!(set_heavy_logic(&mut s, "-1").is_err());
    }
}
