//! The live view: what the runs show now, published by the animation loop as one immutable value
//! after each refresh. Only the components that draw live data subscribe to it ([`use_live`]);
//! the rest read the reducer's state and do not re-render while the runs play.
//!
//! ```text
//!  frame loop ──read runs──▶ Rc<LiveView> ──LivePublisher──▶ LiveProvider ──context──▶ Clock,
//!                                                             Pipelines, Chart, EventLog, Inspect…
//! ```

use std::cell::RefCell;
use std::rc::Rc;

use flywheel_engine::cluster::divergence::Divergence;
use flywheel_engine::scenario::variant::Variant;
use yew::prelude::*;

use crate::chart::ChartSpec;
use crate::chart_data::{self, ChartKind};
use crate::ctx::LoopState;
use crate::horizon::{self, Charts, HorizonKey};
use crate::i18n::Lang;
use crate::marks::TimelineMark;
use crate::runs::{Lane, LogLine, Runs, Side};
use crate::theme::{DARK, LIGHT};
use crate::verdict::LaneStats;

/// Object keys the inspect panel lists.
pub const OBJECTS_LISTED: usize = 60;
/// Event log lines the live view carries (the newest).
pub const LOG_LINES_SHOWN: usize = 120;

/// What one lane shows now.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneView {
    /// The lane's fixes.
    pub variant: Variant,
    /// The numbers of the stats bar, the verdict and the narration.
    pub stats: LaneStats,
    /// The operator's memory limit (bytes), if it has one.
    pub memory_limit_bytes: Option<u64>,
    /// The newest event log lines, oldest first.
    pub log: Vec<LogLine>,
}

/// What the inspect panel shows of the side in view.
#[derive(Clone, Debug, PartialEq)]
pub struct InspectView {
    /// The first stored objects' keys.
    pub keys: Vec<String>,
    /// The key shown: the one picked, else the first.
    pub selected: Option<String>,
    /// The object shown as `kubectl get -o yaml` prints it, and which of its lines changed
    /// since the version before ([`crate::objects::yaml`]).
    pub yaml: Option<(Vec<String>, Vec<bool>)>,
    /// Whether the object shown is gone from the store (its last state is shown).
    pub deleted: bool,
    /// The resource name for `kubectl get`.
    pub resource: String,
}

/// What the runs show now (one value per refresh).
#[derive(Clone, Debug, Default)]
pub struct LiveView {
    /// Which refresh this is (0: nothing built yet).
    pub seq: u64,
    /// The lanes: A, and B when comparing.
    pub lanes: Vec<LaneView>,
    /// The shared clock (simulated seconds).
    pub now_s: f64,
    /// A's end (simulated seconds).
    pub end_s: f64,
    /// Whether every run reached its end.
    pub finished: bool,
    /// The speed the loop achieves, when short of the one asked for.
    pub achieved_speed: Option<f64>,
    /// The charts as drawn, by kind.
    pub charts: Vec<(ChartKind, Rc<ChartSpec>)>,
    /// The instant the charts mark with a cursor, when they show the run further than it.
    pub cursor_s: Option<f64>,
    /// Where A and B part (when comparing and found).
    pub parting: Option<Divergence>,
    /// The inspect panel's object (while that panel is open).
    pub inspect: Option<InspectView>,
    /// The furthest instant the runs reached (simulated seconds).
    pub reached_s: f64,
    /// How much of a seek under way is done (0 … 1).
    pub seek_progress: Option<f64>,
    /// The timeline's marks of the side shown.
    pub marks: Vec<TimelineMark>,
    /// The branch A's run is on (its timeline's id).
    pub branch: u32,
}

/// Views are told apart by their refresh number: each refresh publishes a new one.
impl PartialEq for LiveView {
    fn eq(&self, other: &Self) -> bool {
        self.seq == other.seq
    }
}

impl LaneView {
    fn read(lane: &Lane) -> LaneView {
        let skip = lane.log.len().saturating_sub(LOG_LINES_SHOWN);
        LaneView {
            variant: lane.variant,
            stats: lane.stats.clone(),
            memory_limit_bytes: lane.snapshot.memory_limit_bytes,
            log: lane.log.range(skip..).cloned().collect(),
        }
    }
}

impl InspectView {
    fn read(lane: &Lane, picked: Option<&str>) -> InspectView {
        let run = &lane.run;
        let keys = run.object_keys(OBJECTS_LISTED);
        let picked = picked.and_then(|k| run.inspect(k).map(|i| (k.to_owned(), i)));
        let (selected, inspected) = match picked {
            Some((k, i)) => (Some(k), Some(i)),
            None => {
                let first = keys.first().cloned();
                let i = first.as_deref().and_then(|k| run.inspect(k));
                (first, i)
            }
        };
        InspectView {
            keys,
            selected,
            deleted: inspected.as_ref().is_some_and(|i| i.deleted),
            yaml: inspected.as_ref().map(crate::objects::yaml),
            resource: run.resource_name(),
        }
    }
}

/// The charts of what `runs` show now: all four, or two in an embed.
fn build_charts(runs: &Runs, lang: Lang, dark: bool, embed: bool) -> Charts {
    let palette = if dark { &DARK } else { &LIGHT };
    let kinds: &[ChartKind] = if embed {
        &[ChartKind::Memory, ChartKind::Requests]
    } else {
        &ChartKind::ALL
    };
    kinds
        .iter()
        .map(|&k| (k, Rc::new(chart_data::build(k, runs, lang, palette))))
        .collect()
}

/// How far the loop got: what a live view says besides the runs themselves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// The furthest instant the runs reached (simulated seconds).
    pub reached_s: f64,
    /// How much of a seek under way is done (0 … 1).
    pub seek_progress: Option<f64>,
    /// The speed the loop achieves, when short of the one asked for.
    pub achieved_speed: Option<f64>,
}

impl LiveView {
    /// Reads what `runs` show now for the page as the loop last saw it (`seen`), keeping the
    /// charts of the furthest instant reached in `horizon`.
    pub fn read(
        runs: &Runs,
        seen: &LoopState,
        horizon: &mut Option<horizon::Horizon>,
        progress: Progress,
        seq: u64,
    ) -> LiveView {
        let now_s = runs.now().as_secs_f64();
        let key = HorizonKey::of(runs, seen.lang, seen.dark);
        let (dark, lang, embed) = (seen.dark, seen.lang, seen.embed);
        let (charts, cursor_s) = horizon::charts_at(horizon, now_s, key, || {
            build_charts(runs, lang, dark, embed)
        });
        let shown = runs.side(seen.side).unwrap_or(&runs.a);
        LiveView {
            cursor_s,
            parting: runs.parting.found().cloned(),
            reached_s: progress.reached_s,
            seek_progress: progress.seek_progress,
            marks: shown.marks.list.clone(),
            branch: runs.a.run.current_branch().map_or(0, |b| b.0),
            seq,
            lanes: runs.lanes().map(LaneView::read).collect(),
            now_s: runs.now().as_secs_f64(),
            end_s: runs.a.run.end().as_secs_f64(),
            finished: runs.is_finished(),
            achieved_speed: progress.achieved_speed,
            charts,
            inspect: seen
                .inspecting
                .then(|| InspectView::read(shown, seen.selected.as_deref())),
        }
    }

    /// The lane of `side`, if it runs.
    pub fn lane(&self, side: Side) -> Option<&LaneView> {
        self.lanes.get(side.index())
    }

    /// The lane the panels show: `side`'s, else A's.
    pub fn shown(&self, side: Side) -> Option<&LaneView> {
        self.lane(side).or(self.lanes.first())
    }

    /// The chart of `kind`, when drawn.
    pub fn chart(&self, kind: ChartKind) -> Option<Rc<ChartSpec>> {
        self.charts
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, c)| c.clone())
    }
}

/// Where the animation loop hands each new view to the provider.
#[derive(Clone, Default)]
pub struct LivePublisher(Rc<RefCell<Option<UseStateSetter<Rc<LiveView>>>>>);

/// One publisher over the page's life: equal when it is the same.
impl PartialEq for LivePublisher {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl LivePublisher {
    /// Publishes `view` to the components that subscribe (nothing before the provider mounts).
    pub fn publish(&self, view: LiveView) {
        if let Some(set) = self.0.borrow().as_ref() {
            set.set(Rc::new(view));
        }
    }
}

/// Props of [`LiveProvider`].
#[derive(Properties, PartialEq)]
pub struct LiveProviderProps {
    /// The animation loop's end of the provider.
    pub publisher: LivePublisher,
    /// The page.
    pub children: Html,
}

/// Holds the latest live view and hands it to its subscribers; its children re-render only when
/// they subscribe.
#[function_component(LiveProvider)]
pub fn live_provider(props: &LiveProviderProps) -> Html {
    crate::renders::count("LiveProvider");
    let view = use_state(|| Rc::new(LiveView::default()));
    *props.publisher.0.borrow_mut() = Some(view.setter());
    html! {
        <ContextProvider<Rc<LiveView>> context={(*view).clone()}>
            { props.children.clone() }
        </ContextProvider<Rc<LiveView>>>
    }
}

/// The latest live view (the component re-renders at each refresh).
#[hook]
pub fn use_live() -> Rc<LiveView> {
    use_context::<Rc<LiveView>>().unwrap_or_default()
}
