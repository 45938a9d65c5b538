//! What front ends read of a run, without reaching into the cluster: the verdict, the stored
//! objects, one object for an inspector, the operator's Go source, rates of the sampled series.
//!
//! ```text
//!  page / CLI ──▶ Run::{snapshot, verdict, object_keys, inspect, go_code, rate} ──▶ Cluster
//! ```

use super::inspect::Inspected;
use super::run::Run;
use super::verdict::RunVerdict;

impl Run {
    /// The verdict on the write loop now.
    pub fn verdict(&self) -> RunVerdict {
        self.state.sim.model().verdict(self.state.sim.now())
    }

    /// The keys (`namespace/name`) of the first `limit` stored custom resources, in key order.
    pub fn object_keys(&self, limit: usize) -> Vec<String> {
        self.state.sim.model().object_keys(limit)
    }

    /// [`Run::object_keys`] as borrowed texts (compared before any is copied).
    pub fn object_keys_borrowed(&self, limit: usize) -> impl Iterator<Item = &str> {
        self.state.sim.model().object_keys_borrowed(limit)
    }

    /// The custom resource `key` (`namespace/name`) as an inspector shows it; `None` when it
    /// never existed or its deletion has left the watch cache.
    pub fn inspect(&self, key: &str) -> Option<Inspected> {
        self.state.sim.model().inspect(key)
    }

    /// The resource name of the custom resource, as `kubectl get` takes it (`mycrd`; a kind is
    /// ASCII, so its ASCII lowercase).
    pub fn resource_name(&self) -> String {
        self.scenario().crd.kind.to_ascii_lowercase()
    }

    /// The Go source of the operator being run.
    pub fn go_code(&self) -> Vec<String> {
        super::code::go_code(self.scenario())
    }

    /// The per-second rate of counter `key` over its last `window` samples.
    pub fn rate(&self, key: &str, window: usize) -> f64 {
        self.state.sim.model().series().rate(key, window)
    }

    /// The rate summed over every series of metric `name` with labels whose key contains
    /// `part` ([`crate::cluster::series::SeriesSet::labeled_rate`]).
    pub fn labeled_rate(&self, name: &str, part: &str, window: usize) -> f64 {
        self.state
            .sim
            .model()
            .series()
            .labeled_rate(name, part, window)
    }
}

#[cfg(test)]
mod tests {
    use crate::cluster::run::{Run, RunOptions};
    use crate::cluster::verdict::Verdict;
    use crate::scenario::presets;
    use crate::time::SimTime;

    fn run_for(preset: &str, secs: f64) -> Run {
        let scenario = presets::load(preset, &[]).expect("preset");
        let mut run = Run::new(scenario, &RunOptions::default()).expect("run");
        run.advance_to(SimTime::from_secs_f64(secs), u64::MAX);
        run
    }

    #[test]
    fn the_flywheel_is_looping_after_a_minute_and_the_fixed_preset_has_converged() {
        let flywheel = run_for("flywheel", 60.0);
        let v = flywheel.verdict();
        assert_eq!(v.verdict, Verdict::Looping, "{v:?}");
        assert!(v.figures.loops > 50, "{v:?}");
        let fixed = run_for("fixed", 60.0).verdict();
        assert_eq!(fixed.verdict, Verdict::Converged, "{fixed:?}");
        assert_eq!(fixed.figures.loops, 0);
    }

    #[test]
    fn the_verdict_read_from_the_cluster_is_the_one_its_snapshot_gives() {
        use crate::cluster::verdict::{RunVerdict, VerdictFigures};
        use crate::scenario::variant::Variant;
        // a loop, a converged run, and an operator killed and restarted (its pod backing off)
        for (preset, times) in [
            ("flywheel", &[0.5, 5.0, 30.0, 61.0][..]),
            ("fixed", &[0.5, 20.0][..]),
            ("finalizer-deadlock", &[12.0, 200.0][..]),
            ("watch-leak", &[40.0, 200.0][..]),
        ] {
            let scenario = presets::load(preset, &[]).expect("preset");
            let mut run = Run::new(scenario, &RunOptions::default()).expect("run");
            for &t in times {
                run.advance_to(SimTime::from_secs_f64(t), u64::MAX);
                let cluster = run.state.sim.model();
                let now = run.state.sim.now();
                let from_snapshot = RunVerdict::of(VerdictFigures::read(
                    &cluster.snapshot(now),
                    &cluster.telemetry.series,
                    Variant::of(&cluster.scenario),
                ));
                assert_eq!(run.verdict(), from_snapshot, "{preset} at {t} s");
            }
        }
    }

    #[test]
    fn a_run_lists_its_objects_and_shows_each_with_its_previous_version() {
        let run = run_for("flywheel", 30.0);
        let keys = run.object_keys(100);
        assert_eq!(keys.len(), 10);
        let inspected = run.inspect(&keys[0]).expect("object");
        assert!(inspected.object.metadata.generation > 1);
        assert!(inspected.previous.is_some());
        assert_eq!(run.resource_name(), run.scenario().crd.kind.to_lowercase());
    }
}
