//! The charts as they stood at the furthest instant the runs reached. After a seek back, the
//! charts keep showing the whole run so far, with a cursor at the instant shown, instead of
//! shrinking to the instant (a restored run holds its series only up to there).
//!
//! ```text
//!  at the horizon  ──build charts──▶ shown, and kept as the horizon
//!  sought back     ──────────────── the horizon's charts shown, cursor at the instant
//!  forked, rebuilt ──────────────── the horizon is another branch's: built again
//! ```

use std::rc::Rc;

use flywheel_engine::cluster::timeline::BranchId;

use crate::chart::ChartSpec;
use crate::chart_data::ChartKind;
use crate::i18n::Lang;
use crate::runs::Runs;

/// The charts by kind, as a live view carries them.
pub type Charts = Vec<(ChartKind, Rc<ChartSpec>)>;

/// What the kept charts were drawn for: each lane's branch, the language and the theme.
#[derive(Clone, Debug, PartialEq)]
pub struct HorizonKey {
    branches: Vec<Option<BranchId>>,
    lang: Lang,
    dark: bool,
}

impl HorizonKey {
    /// The key of what `runs` show now in `lang` and the theme.
    pub fn of(runs: &Runs, lang: Lang, dark: bool) -> HorizonKey {
        HorizonKey {
            branches: runs.lanes().map(|l| l.run.current_branch()).collect(),
            lang,
            dark,
        }
    }
}

/// The charts at the furthest instant reached on the branches shown.
#[derive(Clone, Debug)]
pub struct Horizon {
    /// The instant they were drawn at (simulated seconds).
    pub at_s: f64,
    key: HorizonKey,
    charts: Charts,
}

/// The charts a view shows, and the cursor drawn on them (`None` at the horizon).
pub type Shown = (Charts, Option<f64>);

/// The charts to show at `now_s`: the kept ones with a cursor when the runs were sought back on
/// the same branches, else those `build` draws, which become the horizon.
pub fn charts_at(
    kept: &mut Option<Horizon>,
    now_s: f64,
    key: HorizonKey,
    build: impl FnOnce() -> Charts,
) -> Shown {
    if let Some(h) = kept.as_ref().filter(|h| h.key == key && now_s < h.at_s) {
        return (h.charts.clone(), Some(now_s));
    }
    let charts = build();
    *kept = Some(Horizon {
        at_s: now_s,
        key,
        charts: charts.clone(),
    });
    (charts, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RunConfig;
    use flywheel_engine::SimTime;

    fn key(runs: &Runs) -> HorizonKey {
        HorizonKey::of(runs, Lang::En, false)
    }

    fn one_chart(x1: f64) -> Charts {
        let spec = ChartSpec {
            title: String::new(),
            x_label: String::new(),
            x_range: (0.0, x1),
            y_range: (0.0, 1.0),
            y2_range: None,
            units: ("", ""),
            lines: Vec::new(),
            limits: Vec::new(),
            marks: Vec::new(),
        };
        vec![(ChartKind::Memory, Rc::new(spec))]
    }

    #[test]
    fn after_a_seek_back_the_charts_of_the_furthest_instant_show_with_a_cursor() {
        let mut runs = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        runs.advance(SimTime::from_secs_f64(20.0), &mut || false);
        let mut kept = None;
        let (_, cursor) = charts_at(&mut kept, 20.0, key(&runs), || one_chart(20.0));
        assert_eq!(cursor, None, "at the horizon no cursor is drawn");
        runs.begin_seek(SimTime::from_secs_f64(5.0))
            .expect("timeline kept");
        let (charts, cursor) = charts_at(&mut kept, 5.0, key(&runs), || one_chart(5.0));
        assert_eq!(cursor, Some(5.0));
        assert_eq!(charts[0].1.x_range, (0.0, 20.0), "the whole run so far");
    }

    #[test]
    fn charts_drawn_for_another_language_are_drawn_again() {
        let runs = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        let mut kept = None;
        charts_at(&mut kept, 20.0, key(&runs), || one_chart(20.0));
        let zh = HorizonKey::of(&runs, Lang::Zh, false);
        let (charts, cursor) = charts_at(&mut kept, 5.0, zh, || one_chart(5.0));
        assert_eq!((charts[0].1.x_range.1, cursor), (5.0, None));
    }
}
