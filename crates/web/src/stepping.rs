//! Stepping a paused run: one engine event, or on to the next Reconcile or the next write the
//! API server handles, and the one line that says what the step did. What counts is read from
//! the run's trace, like everything else the page shows.

use flywheel_engine::cluster::run::Run;
use flywheel_engine::float_text::Fixed;
use flywheel_engine::sim::{EventKind, TraceEvent};

use crate::i18n::Lang;

/// Most events one press may handle before it gives up (and says so).
pub const MAX_STEP_EVENTS: u64 = 5_000_000;

/// Where a step stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepTarget {
    /// After one engine event.
    Event,
    /// When a worker starts a Reconcile.
    Reconcile,
    /// When the API server has handled a write (PUT, PATCH, POST or DELETE).
    Write,
}

impl StepTarget {
    /// Whether `ev` is where a step to this target stops.
    pub fn matches(self, ev: &TraceEvent) -> bool {
        match self {
            StepTarget::Event => true,
            StepTarget::Reconcile => matches!(ev.kind, EventKind::Reconcile { .. }),
            StepTarget::Write => {
                matches!(ev.kind, EventKind::ApiRequest { verb, .. } if verb.is_mutating())
            }
        }
    }
}

/// What one step did.
#[derive(Clone, Debug, PartialEq)]
pub struct StepReport {
    /// Where it was asked to stop.
    pub target: StepTarget,
    /// Engine events handled.
    pub events: u64,
    /// Simulated seconds before and after.
    pub from_s: f64,
    /// Simulated seconds after.
    pub to_s: f64,
    /// The trace event it stopped at (the target's), or the last one it saw, in words:
    /// (English, 简体中文).
    pub what: Option<(String, String)>,
    /// Whether it reached its target (an event step always does).
    pub reached: bool,
}

/// Steps `run` until `target`, at most [`MAX_STEP_EVENTS`] events, or until `out_of_time()`
/// (checked every 4096 events), or the run's end.
pub fn step_run(
    run: &mut Run,
    target: StepTarget,
    out_of_time: &mut dyn FnMut() -> bool,
) -> StepReport {
    let from_s = run.now().as_secs_f64();
    let mut events = 0;
    let mut last = None;
    let mut reached = false;
    while events < MAX_STEP_EVENTS {
        let seen = run.trace().total();
        if !run.step() {
            break;
        }
        events += 1;
        if run.trace().total() > seen {
            if let Some(ev) = run.trace_since(seen).find(|ev| target.matches(ev)) {
                last = Some(ev.clone());
                reached = true;
                break;
            }
            last = run.trace().last().map(|(_, ev)| ev.clone());
        }
        if target == StepTarget::Event {
            reached = true;
            break;
        }
        if events % 4096 == 0 && out_of_time() {
            break;
        }
    }
    StepReport {
        target,
        events,
        from_s,
        to_s: run.now().as_secs_f64(),
        what: last.map(|ev: TraceEvent| (describe(&ev, Lang::En), describe(&ev, Lang::Zh))),
        reached,
    }
}

/// `mm:ss.sss` of simulated seconds.
pub fn clock_ms(secs: f64) -> String {
    let (minutes, seconds) = crate::components::clock::minutes_and_seconds(secs);
    format!("{minutes:02}:{:06}", Fixed(seconds, 3))
}

fn zh_words(lang: Lang) -> bool {
    lang == Lang::Zh
}

/// One trace event in words.
pub fn describe(ev: &TraceEvent, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let key = ev.key_str();
    let (c, e) = (ev.component(), ev.event());
    match ev.kind {
        EventKind::Reconcile { worker } if zh => format!("worker {worker} 开始 Reconcile {key}"),
        EventKind::Reconcile { worker } => format!("worker {worker} starts Reconcile {key}"),
        EventKind::Reconciled { result } if zh => format!("Reconcile {key} 返回 {result}"),
        EventKind::Reconciled { result } => format!("Reconcile {key} returns {result}"),
        EventKind::ApiRequest { verb, code } if zh => {
            format!("API server 以 {code} 响应 {} {key}", verb.as_str())
        }
        EventKind::ApiRequest { verb, code } => {
            format!("the API server answers {} {key} with {code}", verb.as_str())
        }
        EventKind::WatchEvent { .. } | EventKind::WatchError { .. } if zh => format!(
            "watch 送出 {e} {key}{}",
            ev.resource_version
                .map(|rv| format!("（resourceVersion {rv}）"))
                .unwrap_or_default()
        ),
        EventKind::WatchEvent { .. } | EventKind::WatchError { .. } => format!(
            "the watch delivers {e} {key}{}",
            ev.resource_version
                .map(|rv| format!(" (resourceVersion {rv})"))
                .unwrap_or_default()
        ),
        EventKind::HandlerEnqueue { own_write: true } if zh => {
            format!("handler 把 {key} 放回 workqueue：这是 operator 自己的写入")
        }
        EventKind::HandlerEnqueue { own_write: true } => {
            format!("the handler puts {key} back into the workqueue: the operator's own write")
        }
        EventKind::HandlerEnqueue { own_write: false } if zh => {
            format!("handler 把 {key} 放入 workqueue")
        }
        EventKind::HandlerEnqueue { own_write: false } => {
            format!("the handler adds {key} to the workqueue")
        }
        EventKind::PredicateDropped if zh => format!("predicate 丢弃了 {key} 的事件"),
        EventKind::PredicateDropped => format!("a predicate drops the event of {key}"),
        EventKind::InformerPop { .. } if zh => format!("informer 从 FIFO 取出 {key}"),
        EventKind::InformerPop { .. } => format!("the informer pops {key} from the FIFO"),
        _ if zh => format!("{c} {e} {key}").trim_end().to_owned(),
        _ => format!("{c} {e} {key}").trim_end().to_owned(),
    }
}

impl StepReport {
    /// The one line shown after a step.
    pub fn line(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let span = format!("{} → {}", clock_ms(self.from_s), clock_ms(self.to_s));
        let what = self.what.as_ref().map(|(en, zh)| {
            if zh_words(lang) {
                zh.clone()
            } else {
                en.clone()
            }
        });
        let events = self.events;
        match (self.reached, what) {
            (_, _) if events == 0 && zh => "运行已结束：没有可以单步执行的事件".to_owned(),
            (_, _) if events == 0 => "the run is over: nothing left to step".to_owned(),
            (true, Some(w)) if zh => format!("单步：{events} 个事件，{span} · {w}"),
            (true, Some(w)) => format!("Stepped {events} events, {span} · {w}"),
            (true, None) if zh => format!("单步：1 个事件，{span} · 一个没有 trace 记录的内部事件"),
            (true, None) => {
                format!("Stepped 1 event, {span} · an internal event without a trace line")
            }
            (false, _) => {
                let goal = match (self.target, zh) {
                    (StepTarget::Write, true) => "写入",
                    (StepTarget::Write, false) => "write",
                    (_, true) => "Reconcile",
                    (_, false) => "Reconcile",
                };
                if zh {
                    format!("{events} 个事件内没有 {goal}（{span}）：再按一次继续")
                } else {
                    format!("No {goal} within {events} events ({span}): press again to go on")
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RunConfig;
    use crate::runs::Runs;

    #[test]
    fn stepping_to_the_next_reconcile_stops_at_a_worker_starting_one() {
        let mut e = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        let r = step_run(&mut e.a.run, StepTarget::Reconcile, &mut || false);
        assert!(r.reached, "{r:?}");
        assert!(
            r.events > 5,
            "several events lead to the first reconcile: {}",
            r.events
        );
        let (en, zh) = r.what.as_ref().expect("the event it stopped at");
        assert!(
            en.starts_with("worker ") && en.contains(" starts Reconcile "),
            "{en}"
        );
        assert!(zh.contains("开始 Reconcile"), "{zh}");
        assert!(
            r.line(Lang::En).contains("starts Reconcile ns-0/demo-"),
            "{}",
            r.line(Lang::En)
        );
        let w = step_run(&mut e.a.run, StepTarget::Write, &mut || false);
        assert!(w.reached);
        assert!(
            w.line(Lang::En).contains("answers PUT"),
            "{}",
            w.line(Lang::En)
        );
        assert!(
            w.line(Lang::Zh).starts_with("单步："),
            "{}",
            w.line(Lang::Zh)
        );
        let one = step_run(&mut e.a.run, StepTarget::Event, &mut || false);
        assert_eq!(one.events, 1);
    }

    #[test]
    fn a_step_that_runs_out_of_time_says_it_did_not_get_there() {
        let mut e = Runs::new(&RunConfig::preset("flywheel"), None).expect("engine");
        let r = step_run(&mut e.a.run, StepTarget::Reconcile, &mut || true);
        if !r.reached {
            assert!(r.line(Lang::En).starts_with("No Reconcile within"));
        }
    }
}
