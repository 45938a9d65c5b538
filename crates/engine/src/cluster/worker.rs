//! A controller worker running a reconcile program (controller-runtime
//! `pkg/internal/controller/controller.go` `processNextWorkItem` → `reconcileHandler`).
//!
//! The worker holds the reconcile's working copy of the object. Each call to [`Job::step`]
//! executes one program step and says what the cluster must do next: continue, wait some CPU
//! time, send an API request, or finish with a result.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use crate::controller::program::{ReturnValue, StatusValue, Step, WriteVerb};
use crate::key::Key;
use crate::object::{Json, JsonMap, Object, ObjectRef};
use crate::scenario::FinalizerMode;
use crate::sim::Rng;
use crate::time::SimTime;

use super::request::{Call, PatchCall};

/// What the cluster must do after a step.
#[derive(Clone, Debug, PartialEq)]
pub enum StepOutcome {
    /// Run the next step now.
    Continue,
    /// Run the next step after this much time (CPU or waiting).
    Wait(Duration),
    /// Read the object from the cache (the cluster answers with [`Job::read_cache`]).
    ReadCache,
    /// List from the cache: `(kind, scope)`; the cluster accounts the copies and continues.
    ListCache(Box<Step>),
    /// Send a write and continue when it answers ([`Job::on_write_result`]).
    Write(Call),
    /// A step on the cluster's Pods, Nodes, watches or services ([`super::workload`]).
    Workload(Box<Step>),
    /// Reconcile is over.
    Finish(ReconcileResult),
}

pub use crate::controller::result::ReconcileResult;

/// The reconcile a worker is running.
#[derive(Clone, Debug)]
pub struct Job {
    /// The request key (`namespace/name`), shared with the workqueue.
    pub key: Key,
    /// The next step.
    pub pc: usize,
    /// The working copy (after Get), shared with the cache until the reconcile changes it
    /// (copy-on-write: the modelled deep copy is accounted in `held_bytes`); `None` while a PUT
    /// carries it.
    pub obj: Option<ObjectRef>,
    /// The object as read, before the reconcile changed it (the patch base).
    pub orig: Option<ObjectRef>,
    /// When the reconcile started.
    pub started_at: SimTime,
    /// Heap bytes this reconcile holds (deep copy, heavy-logic allocations).
    pub held_bytes: u64,
    /// Requests this reconcile sent.
    pub requests: u32,
    /// Bytes a `list` or `list_pods` step deep-copied (the `ListCopies` heap owner).
    pub list_bytes: u64,
    /// Goroutines this reconcile keeps besides its worker (a hung call's connection).
    pub extra_goroutines: u64,
    /// What `finalize` does when the cleanup fails.
    pub finalizer_mode: FinalizerMode,
    /// Where `finalize` is: 0 check, 1 cleanup done, 2 finalizer removed.
    pub finalize_phase: u8,
    /// Whether `finalize`'s cleanup failed.
    pub cleanup_failed: bool,
    /// External resources this reconcile cleaned up (1 when its finalizer went after success).
    pub cleaned: u32,
    /// External resources this reconcile leaked (1 when its finalizer went after a failure).
    pub leaked: u32,
    /// What a step that waited returns when it is resumed (a hung or timed-out call).
    pub pending_finish: Option<ReconcileResult>,
    /// The `Reconcile` event this job runs for: the cause of its writes.
    pub reconcile: Option<crate::sim::EventId>,
}

impl Job {
    /// A reconcile of `key` starting at `now`.
    pub fn new(key: Key, now: SimTime) -> Job {
        Job {
            key,
            pc: 0,
            obj: None,
            orig: None,
            started_at: now,
            held_bytes: 0,
            requests: 0,
            list_bytes: 0,
            extra_goroutines: 0,
            finalizer_mode: FinalizerMode::Safe,
            finalize_phase: 0,
            cleanup_failed: false,
            cleaned: 0,
            leaked: 0,
            pending_finish: None,
            reconcile: None,
        }
    }

    /// Executes `step` (the program's step at `pc`; `None` past the end) and advances `pc`.
    pub fn step(&mut self, step: Option<&Step>, now: SimTime, rng: &mut Rng) -> StepOutcome {
        if self.failed() {
            return StepOutcome::Finish(ReconcileResult::Error);
        }
        let Some(step) = step else {
            return StepOutcome::Finish(ReconcileResult::Success);
        };
        self.pc += 1;
        match step {
            Step::Get => StepOutcome::ReadCache,
            Step::GuardObservedGeneration => self.guard(),
            Step::HeavyLogic {
                duration,
                alloc_bytes,
            } => {
                self.held_bytes += alloc_bytes;
                StepOutcome::Wait(*duration)
            }
            Step::List { .. } => StepOutcome::ListCache(Box::new(step.clone())),
            Step::SetStatus { field, value } => {
                self.set_status(field, value, now);
                StepOutcome::Continue
            }
            Step::Write { verb } => self.write(*verb),
            Step::AddFinalizer { name } => self.edit_finalizers(name, true),
            Step::RemoveFinalizer { name } => self.edit_finalizers(name, false),
            Step::ExternalCleanup {
                duration,
                failure_probability,
            } => {
                if rng.chance(*failure_probability) {
                    self.pc = usize::MAX; // the error is returned once the wait is over
                }
                StepOutcome::Wait(*duration)
            }
            Step::Finalize {
                name,
                cleanup,
                failure_probability,
            } => self.finalize(name, *cleanup, *failure_probability, rng),
            Step::ListPods
            | Step::OpenWatch
            | Step::LogObject { .. }
            | Step::ExternalCall { .. }
            | Step::EnsurePods => StepOutcome::Workload(Box::new(step.clone())),
            Step::Panic => StepOutcome::Finish(ReconcileResult::Panic),
            Step::Return { value } => StepOutcome::Finish(match value {
                ReturnValue::Ok => ReconcileResult::Success,
                ReturnValue::Error => ReconcileResult::Error,
                ReturnValue::RequeueAfter { after } => ReconcileResult::RequeueAfter(*after),
                ReturnValue::Requeue => ReconcileResult::Requeue,
                ReturnValue::TerminalError => ReconcileResult::TerminalError,
                ReturnValue::ErrorWithRequeueAfter { after } => {
                    ReconcileResult::ErrorWithRequeueAfter(*after)
                }
            }),
        }
    }

    /// Whether a failed external cleanup ended the program (its error is returned next).
    pub fn failed(&self) -> bool {
        self.pc == usize::MAX
    }

    /// Answers [`StepOutcome::ReadCache`]: the cached object (deep-copied, as `held_bytes`
    /// accounts; the memory is shared until the reconcile changes it), or `None` for NotFound,
    /// which ends the reconcile with success (`client.IgnoreNotFound`).
    pub fn read_cache(&mut self, cached: Option<ObjectRef>) -> StepOutcome {
        match cached {
            Some(o) => {
                self.held_bytes += o.size_bytes;
                self.obj = Some(ObjectRef::clone(&o));
                self.orig = Some(o);
                StepOutcome::Continue
            }
            None => StepOutcome::Finish(ReconcileResult::Success),
        }
    }

    /// Answers a write: success continues, an error returns it (`return ctrl.Result{}, err`).
    pub fn on_write_result(&mut self, result: Result<ObjectRef, ()>) -> StepOutcome {
        match result {
            Ok(stored) => {
                self.obj = Some(stored);
                StepOutcome::Continue
            }
            Err(()) => StepOutcome::Finish(ReconcileResult::Error),
        }
    }

    fn guard(&self) -> StepOutcome {
        match &self.obj {
            Some(o) if observed_generation(o) == Some(o.metadata.generation) => {
                StepOutcome::Finish(ReconcileResult::Success)
            }
            _ => StepOutcome::Continue,
        }
    }

    fn set_status(&mut self, field: &str, value: &StatusValue, now: SimTime) {
        let Some(obj) = self.obj.as_mut().map(crate::sim::cow::make_mut) else {
            return;
        };
        let generation = obj.metadata.generation;
        if !obj.status.is_object() {
            obj.status = Json::Object(JsonMap::new());
        }
        let Some(status) = obj.status.as_object_mut() else {
            return;
        };
        let v = match value {
            // the working copy shares the cached object's strings: a field already holding the
            // constant is left as it is (the value is the same, nothing is allocated)
            StatusValue::Constant(s) if status.get(field).and_then(Json::as_str) == Some(s) => {
                return;
            }
            StatusValue::Constant(s) => Json::from(crate::object::shared_text(s)),
            StatusValue::Now => Json::from(shared_rfc3339_seconds(now)),
            StatusValue::NowMicro => Json::from(rfc3339_micros(now)),
            StatusValue::Counter => {
                Json::from(status.get(field).and_then(Json::as_i64).unwrap_or(0) + 1)
            }
            StatusValue::ObservedGeneration => Json::from(generation),
        };
        status.insert(field, v);
    }

    fn write(&mut self, verb: WriteVerb) -> StepOutcome {
        let Some(obj) = self.obj.as_ref() else {
            return StepOutcome::Finish(ReconcileResult::Error);
        };
        self.requests += 1;
        let call = match verb {
            WriteVerb::Update => return self.put(false),
            WriteVerb::StatusUpdate => return self.put(true),
            WriteVerb::Patch | WriteVerb::StatusPatch => {
                let base = self.orig.as_deref().map(|o| &o.status);
                let patch = status_merge_patch(base, &obj.status);
                Call::Patch(Box::new(PatchCall {
                    namespace: obj.metadata.namespace().to_string(),
                    name: obj.metadata.name().to_string(),
                    patch,
                    status: verb == WriteVerb::StatusPatch,
                }))
            }
        };
        StepOutcome::Write(call)
    }

    /// Sends the working copy as a PUT (of `/status` when `status`). The object travels with the
    /// request and the answer takes its place, as `client.Update` decodes the response into the
    /// object it was given; a failed write ends the reconcile.
    fn put(&mut self, status: bool) -> StepOutcome {
        match self.obj.take() {
            Some(object) => StepOutcome::Write(Call::Put { object, status }),
            None => StepOutcome::Finish(ReconcileResult::Error),
        }
    }

    /// The finalizer state machine of seed 001 (kubebuilder's finalizer pattern): the
    /// deletionTimestamp decides the branch; the finalizer is removed only after the cleanup
    /// succeeded — unless `finalizer_mode` removes it on failure too. A 409 on either Update
    /// returns the error and the key is retried (controller-runtime
    /// `pkg/controller/controllerutil/controllerutil.go` AddFinalizer/RemoveFinalizer; the
    /// API server's finalizer rules in kubernetes `staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`).
    fn finalize(
        &mut self,
        name: &str,
        cleanup: Duration,
        failure_probability: f64,
        rng: &mut Rng,
    ) -> StepOutcome {
        let Some(obj) = self.obj.as_mut() else {
            return StepOutcome::Finish(ReconcileResult::Error);
        };
        let has = obj.metadata.finalizers().iter().any(|f| f == name);
        match self.finalize_phase {
            0 if obj.metadata.deletion_timestamp().is_none() => {
                if has {
                    return StepOutcome::Continue;
                }
                crate::sim::cow::make_mut(obj)
                    .metadata
                    .finalizers_mut()
                    .push(name.to_owned());
                self.requests += 1;
                self.put(false)
            }
            0 if !has => StepOutcome::Finish(ReconcileResult::Success),
            0 => {
                self.pc -= 1;
                self.finalize_phase = 1;
                self.cleanup_failed = rng.chance(failure_probability);
                StepOutcome::Wait(cleanup)
            }
            1 => {
                if self.cleanup_failed && self.finalizer_mode == FinalizerMode::Safe {
                    self.finalize_phase = 0;
                    return StepOutcome::Finish(ReconcileResult::Error);
                }
                self.pc -= 1;
                self.finalize_phase = 2;
                crate::sim::cow::make_mut(obj)
                    .metadata
                    .finalizers_mut()
                    .retain(|f| f != name);
                self.requests += 1;
                self.put(false)
            }
            _ => {
                if self.cleanup_failed {
                    self.leaked += 1;
                } else {
                    self.cleaned += 1;
                }
                StepOutcome::Finish(ReconcileResult::Success)
            }
        }
    }

    fn edit_finalizers(&mut self, name: &str, add: bool) -> StepOutcome {
        let Some(obj) = self.obj.as_mut() else {
            return StepOutcome::Finish(ReconcileResult::Error);
        };
        let has = obj.metadata.finalizers().iter().any(|f| f == name);
        match (add, has) {
            (true, false) => crate::sim::cow::make_mut(obj)
                .metadata
                .finalizers_mut()
                .push(name.to_owned()),
            (false, true) => crate::sim::cow::make_mut(obj)
                .metadata
                .finalizers_mut()
                .retain(|f| f != name),
            // controllerutil reports "unchanged"; real code then skips the Update.
            _ => return StepOutcome::Continue,
        }
        self.requests += 1;
        self.put(false)
    }
}

/// What the busy workers hold, summed: kept as a running total by the cluster so that the
/// memory accounting after every event does not scan every worker slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerTotals {
    /// Busy workers.
    pub active: usize,
    /// Sum of [`Job::list_bytes`].
    pub list_bytes: u64,
    /// Sum of [`Job::held_bytes`].
    pub held_bytes: u64,
    /// Sum of [`Job::extra_goroutines`].
    pub hung_goroutines: u64,
}

impl WorkerTotals {
    /// What one busy worker running `job` holds.
    pub fn of(job: &Job) -> WorkerTotals {
        WorkerTotals {
            active: 1,
            list_bytes: job.list_bytes,
            held_bytes: job.held_bytes,
            hung_goroutines: job.extra_goroutines,
        }
    }

    /// The totals of the busy workers among `workers`, summed in one pass.
    pub fn scan(workers: &[Option<Job>]) -> WorkerTotals {
        workers
            .iter()
            .flatten()
            .fold(WorkerTotals::default(), |t, j| t.plus(WorkerTotals::of(j)))
    }

    /// These totals with `other` added.
    pub fn plus(self, other: WorkerTotals) -> WorkerTotals {
        WorkerTotals {
            active: self.active + other.active,
            list_bytes: self.list_bytes + other.list_bytes,
            held_bytes: self.held_bytes + other.held_bytes,
            hung_goroutines: self.hung_goroutines + other.hung_goroutines,
        }
    }

    /// These totals with `part` (a summand of them) taken out.
    pub fn minus(self, part: WorkerTotals) -> WorkerTotals {
        WorkerTotals {
            active: self.active - part.active,
            list_bytes: self.list_bytes - part.list_bytes,
            held_bytes: self.held_bytes - part.held_bytes,
            hung_goroutines: self.hung_goroutines - part.hung_goroutines,
        }
    }
}

/// `status.observedGeneration`, if set.
pub fn observed_generation(o: &Object) -> Option<i64> {
    o.status.get("observedGeneration").and_then(Json::as_i64)
}

/// The merge patch `client.MergeFrom(orig)` computes for a status change: only the changed
/// status fields (controller-runtime `pkg/client/patch.go`, RFC 7386), with no resourceVersion.
/// `base` is the original's status (`None` without an original). The patch's members share
/// their keys and values with the new status.
fn status_merge_patch(base: Option<&Json>, new: &Json) -> Json {
    let changed: Vec<(Rc<str>, Json)> = new
        .as_object()
        .map(JsonMap::members)
        .unwrap_or_default()
        .iter()
        .filter(|(k, v)| base.and_then(|b| b.get(k)) != Some(v))
        .cloned()
        .collect();
    let mut patch = Vec::new();
    if !changed.is_empty() {
        let status = Json::Object(JsonMap::from_sorted(changed));
        patch.push((Rc::from("status"), status));
    }
    Json::Object(JsonMap::from_sorted(patch))
}

/// Simulated wall-clock epoch: 2026-01-01T00:00:00Z.
const EPOCH_DAYS_FROM_1970: u64 = 20_454;

/// `metav1.Time` as JSON: RFC 3339 with whole seconds.
pub fn rfc3339_seconds(t: SimTime) -> String {
    String::from(stamp_text(&seconds_stamp(t)))
}

/// [`rfc3339_seconds`] as a shared string: every status write within one simulated second
/// stamps the same text, so the last second's text is kept and shared (a pure function of `t`:
/// what it keeps changes no result).
fn shared_rfc3339_seconds(t: SimTime) -> Rc<str> {
    thread_local! {
        static LAST_SECOND: RefCell<Option<(u64, Rc<str>)>> = const { RefCell::new(None) };
    }
    let second = t.as_nanos() / 1_000_000_000;
    LAST_SECOND.with(|last| {
        let mut last = last.borrow_mut();
        match &*last {
            Some((s, text)) if *s == second => Rc::clone(text),
            _ => {
                // built in place and copied once, into the `Rc`'s own allocation
                let text: Rc<str> = Rc::from(stamp_text(&seconds_stamp(t)));
                *last = Some((second, Rc::clone(&text)));
                text
            }
        }
    })
}

/// `metav1.MicroTime` as JSON: RFC 3339 with microseconds.
pub fn rfc3339_micros(t: SimTime) -> String {
    let mut out = String::with_capacity(27);
    // the second's text, kept for the next stamp in the same second, without its `Z`
    let seconds = shared_rfc3339_seconds(t);
    out.push_str(seconds.strip_suffix('Z').unwrap_or(&seconds));
    out.push('.');
    push_digits(&mut out, (t.as_nanos() / 1000) % 1_000_000, 6);
    out.push('Z');
    out
}

/// `YYYY-MM-DDTHH:MM:SSZ` of `t` (whole seconds) as ASCII bytes, without the formatting
/// machinery: a status write stamps a time on every Reconcile of a large run.
fn seconds_stamp(t: SimTime) -> [u8; 20] {
    let secs = t.as_nanos() / 1_000_000_000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(EPOCH_DAYS_FROM_1970 + days);
    // the fields written into their places in one buffer; a run's clock (`u64` nanoseconds
    // from 2026) ends in the year 2610, well within four digits
    let mut text = *b"0000-00-00T00:00:00Z";
    let fields = [
        (0..4, y),
        (5..7, m),
        (8..10, d),
        (11..13, rem / 3600),
        (14..16, (rem % 3600) / 60),
        (17..19, rem % 60),
    ];
    for (place, n) in fields {
        put_decimal(&mut text[place], n);
    }
    text
}

/// A stamp's text (ASCII digits and separators: always UTF-8).
fn stamp_text(stamp: &[u8; 20]) -> &str {
    std::str::from_utf8(stamp).unwrap_or_default()
}

/// Writes the last `place.len()` decimal digits of `n` into `place`.
fn put_decimal(place: &mut [u8], mut n: u64) {
    for digit in place.iter_mut().rev() {
        *digit = b'0' + (n % 10) as u8;
        n /= 10;
    }
}

/// Appends `n` in decimal, zero-padded to at least `width` digits.
fn push_digits(out: &mut String, n: u64, width: usize) {
    crate::digits::Digits::new(n, width, 10).push_to(out);
}

/// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
fn civil_from_days(z: u64) -> (u64, u64, u64) {
    let z = z + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metav1_time_has_whole_seconds_and_micro_time_has_microseconds() {
        let t = SimTime::from_millis(61_250);
        assert_eq!(rfc3339_seconds(t), "2026-01-01T00:01:01Z");
        assert_eq!(rfc3339_micros(t), "2026-01-01T00:01:01.250000Z");
        assert_eq!(
            rfc3339_seconds(SimTime::from_millis(86_400_000 * 31)),
            "2026-02-01T00:00:00Z"
        );
    }

    #[test]
    fn the_date_and_time_are_the_civil_fields_zero_padded_to_the_clocks_last_instant() {
        let mut t = 0u64;
        while t < SimTime::MAX.as_nanos() {
            let secs = t / 1_000_000_000;
            let (y, m, d) = civil_from_days(EPOCH_DAYS_FROM_1970 + secs / 86_400);
            let rem = secs % 86_400;
            let (hh, mm, ss) = (rem / 3600, (rem % 3600) / 60, rem % 60);
            let expected = format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z");
            assert_eq!(rfc3339_seconds(SimTime::from_nanos(t)), expected);
            t = t.saturating_add(t / 3 + 86_399_999_999_937);
        }
        assert!(rfc3339_seconds(SimTime::MAX).starts_with("2610-"));
    }

    #[test]
    fn the_shared_stamp_is_the_seconds_text_and_is_shared_within_a_second() {
        let a = shared_rfc3339_seconds(SimTime::from_millis(7_100));
        let b = shared_rfc3339_seconds(SimTime::from_millis(7_900));
        assert_eq!(&*a, rfc3339_seconds(SimTime::from_millis(7_100)));
        assert!(Rc::ptr_eq(&a, &b), "one text for the whole second");
        let c = shared_rfc3339_seconds(SimTime::from_millis(8_000));
        assert_eq!(&*c, "2026-01-01T00:00:08Z");
        let earlier = shared_rfc3339_seconds(SimTime::from_millis(7_500));
        assert_eq!(
            &*earlier, "2026-01-01T00:00:07Z",
            "a run started again reads its own second"
        );
    }

    #[test]
    fn timestamps_pad_every_field_and_roll_over_a_leap_day() {
        // 2028-02-29 is day 789 after the epoch (2026-01-01): 365 + 365 + 59.
        let leap = SimTime::from_millis((789 * 86_400 + 23 * 3600 + 59 * 60 + 9) * 1000 + 7);
        assert_eq!(rfc3339_seconds(leap), "2028-02-29T23:59:09Z");
        assert_eq!(rfc3339_micros(leap), "2028-02-29T23:59:09.007000Z");
        assert_eq!(rfc3339_micros(SimTime::ZERO), "2026-01-01T00:00:00.000000Z");
    }

    #[test]
    fn two_timestamps_within_one_second_are_equal_as_metav1_time() {
        assert_eq!(
            rfc3339_seconds(SimTime::from_millis(5_010)),
            rfc3339_seconds(SimTime::from_millis(5_990))
        );
        assert_ne!(
            rfc3339_micros(SimTime::from_millis(5_010)),
            rfc3339_micros(SimTime::from_millis(5_990))
        );
    }

    #[test]
    fn a_status_merge_patch_carries_only_changed_fields_and_no_resource_version() {
        let base = Json::from(serde_json::json!({"phase": "Running", "n": 1}));
        let new = Json::from(serde_json::json!({"phase": "Running", "n": 2, "at": "t1"}));
        let patch = status_merge_patch(Some(&base), &new);
        assert_eq!(patch, serde_json::json!({"status": {"at": "t1", "n": 2}}));
        assert_eq!(status_merge_patch(Some(&new), &new), serde_json::json!({}));
        assert_eq!(
            status_merge_patch(None, &new),
            serde_json::json!({"status": {"at": "t1", "n": 2, "phase": "Running"}}),
            "without an original every field is sent"
        );
        let (Json::String(sent), Json::String(held)) = (&patch["status"]["at"], &new["at"]) else {
            panic!("texts");
        };
        assert!(
            Rc::ptr_eq(sent, held),
            "the patch shares the new status's text"
        );
    }

    #[test]
    fn the_observed_generation_guard_ends_a_reconcile_only_when_generations_match() {
        let mut o = Object::new("MyCRD", "default", "a");
        o.metadata.generation = 3;
        o.status = serde_json::json!({"observedGeneration": 3}).into();
        let mut job = Job::new(Key::from("default/a"), SimTime::ZERO);
        job.obj = Some(ObjectRef::new(o.clone()));
        assert_eq!(job.guard(), StepOutcome::Finish(ReconcileResult::Success));
        o.metadata.generation = 4;
        job.obj = Some(ObjectRef::new(o));
        assert_eq!(job.guard(), StepOutcome::Continue);
    }

    #[test]
    fn running_worker_totals_equal_a_scan_of_the_worker_slots_as_jobs_change_and_finish() {
        let mut workers: Vec<Option<Job>> = vec![None, None, None];
        let mut totals = WorkerTotals::default();
        for (i, held) in [(0, 100), (2, 7)] {
            let mut job = Job::new(Key::from("default/a"), SimTime::ZERO);
            let before = WorkerTotals::of(&job);
            job.held_bytes = held;
            job.list_bytes = 3 * held;
            job.extra_goroutines = 1;
            totals = totals.plus(WorkerTotals::of(&job));
            workers[i] = Some(job);
            assert_eq!(before.held_bytes, 0);
        }
        assert_eq!(totals, WorkerTotals::scan(&workers));
        assert_eq!(totals.active, 2);
        assert_eq!(totals.held_bytes, 107);
        let job = workers[0].as_mut().map(|j| {
            let before = WorkerTotals::of(j);
            j.extra_goroutines = 0;
            j.held_bytes += 50;
            (before, WorkerTotals::of(j))
        });
        if let Some((before, after)) = job {
            totals = totals.minus(before).plus(after);
        }
        assert_eq!(totals, WorkerTotals::scan(&workers));
        if let Some(done) = workers[2].take() {
            totals = totals.minus(WorkerTotals::of(&done));
        }
        assert_eq!(totals, WorkerTotals::scan(&workers));
        assert_eq!(totals.list_bytes, 300);
        assert_eq!(totals.hung_goroutines, 0);
    }
}
