//! Metric values by upstream name and labels, e.g. `apiserver_request_total{code="429",verb="PUT"}`.

use serde::Serialize;

use crate::error::ConfigError;
use crate::metrics::Histogram;
use crate::vec_map::VecMap;

/// Formats `name{k="v",…}` with labels in the order given (callers pass them sorted by key).
pub fn metric_key(name: &str, labels: &[(&str, &str)]) -> String {
    if labels.is_empty() {
        return name.to_owned();
    }
    // Built by hand rather than with format!: requests and reconciles count on every event.
    let len = labels
        .iter()
        .map(|(k, v)| k.len() + v.len() + 4)
        .sum::<usize>();
    let mut key = String::with_capacity(name.len() + 1 + len);
    key.push_str(name);
    for (i, (k, v)) in labels.iter().enumerate() {
        key.push(if i == 0 { '{' } else { ',' });
        key.push_str(k);
        key.push_str("=\"");
        key.push_str(v);
        key.push('"');
    }
    key.push('}');
    key
}

/// Counters, gauges and histograms of one run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Registry {
    counters: VecMap<String, f64>,
    gauges: VecMap<String, f64>,
    histograms: VecMap<String, HistogramEntry>,
    /// Names the counters' current order ([`Slot`]); a new one on every counter added.
    #[serde(skip)]
    counter_layout: Layout,
    /// Names the histograms' current order; a new one on every histogram added.
    #[serde(skip)]
    histogram_layout: Layout,
    /// Names the gauges' current order; a new one on every gauge added.
    #[serde(skip)]
    gauge_layout: Layout,
    /// The gauges set since the last [`Registry::begin_gauge_pass`], where they were found.
    #[serde(skip)]
    gauge_pass: GaugePass,
}

/// Where each gauge set in one pass of the sampler was found, by its place in the pass. Every
/// pass sets the same gauges in the same order, so the n-th set of a pass finds its gauge by one
/// key comparison with the n-th slot of the last pass instead of a search among them all.
#[derive(Clone, Debug, Default)]
struct GaugePass {
    slots: Vec<Slot>,
    /// Beside each slot, the constant key that found it ([`Registry::set_static`]), as its
    /// address and length: a constant's text never changes, so the same address and length are
    /// the same text and the slot is taken without comparing it.
    constants: Vec<Option<Constant>>,
    /// How many gauges this pass has set.
    at: usize,
}

/// A text by its address and length: for a `&'static str` its text, which never changes.
pub(super) type Constant = (usize, usize);

/// `key`'s address and length (see [`Constant`]).
pub(super) fn constant(key: &str) -> Constant {
    (key.as_ptr() as usize, key.len())
}

/// The most sets a pass remembers: gauges set outside a pass only add to its end.
const GAUGE_PASS_MAX: usize = 256;

impl GaugePass {
    /// Keeps where the `n`-th set of the pass found its gauge, and by which constant key.
    fn remember(&mut self, n: usize, slot: Slot, by: Option<Constant>) {
        match self.slots.get_mut(n) {
            Some(kept) => {
                *kept = slot;
                self.constants[n] = by;
            }
            None if n < GAUGE_PASS_MAX => {
                self.slots.push(slot);
                self.constants.push(by);
            }
            None => {}
        }
    }
}

/// One order of a registry's keys. Every change of order in any registry of the thread takes a
/// value never given before, so a [`Slot`] taken in one order never passes for another (nor
/// for another registry's, which restoring a checkpoint may bring back).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Layout(u64);

thread_local! {
    /// The last [`Layout`] given out on this thread.
    static LAST_LAYOUT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl Layout {
    fn fresh() -> Layout {
        let next = LAST_LAYOUT.get() + 1;
        LAST_LAYOUT.set(next);
        Layout(next)
    }
}

/// The order of all of a registry's keys, as [`Registry::for_each_value`] visits them: two
/// registries with the same order hold the same keys (each change of any of their orders takes
/// a value never given before on the thread).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyOrder([Layout; 3]);

/// Where a key was found among a registry's counters or histograms, and in which order of them:
/// while no key is added it gives the entry without searching for its text (a binary search of
/// keys that share long prefixes, `memcmp` a byte at a time in wasm).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    /// The order the index is valid in; none before the key was first found.
    layout: Option<Layout>,
    index: usize,
}

impl Slot {
    /// Where `text` is in `map`, whose order is `layout` (an index past the end when absent: a
    /// histogram whose buckets were refused).
    fn of<V>(map: &VecMap<String, V>, layout: Layout, text: &str) -> Slot {
        Slot {
            layout: Some(layout),
            index: map.index_of(text).unwrap_or(usize::MAX),
        }
    }
}

/// A metric key and where it was last found ([`Registry::inc_at`], [`Registry::observe_at`]).
#[derive(Clone, Debug, Default)]
pub struct SlottedKey {
    /// `name{labels}`.
    pub text: String,
    slot: Slot,
}

impl SlottedKey {
    /// `text`, not yet found anywhere.
    pub fn new(text: String) -> SlottedKey {
        SlottedKey {
            text,
            slot: Slot::default(),
        }
    }
}

/// A histogram and the keys of what it exports, built once when it is created.
#[derive(Clone, Debug, Serialize)]
struct HistogramEntry {
    histogram: Histogram,
    /// `_count`, `_sum`, then the quantiles 0.5, 0.9 and 0.99.
    keys: [String; 5],
}

const QUANTILES: [(&str, f64); 3] = [("0.5", 0.5), ("0.9", 0.9), ("0.99", 0.99)];

/// How many values a histogram exports ([`HistogramEntry::values`]).
pub const HISTOGRAM_VALUES: usize = 5;

impl HistogramEntry {
    /// What it exports, in the order of its keys: `_count`, `_sum`, then the quantiles (0 where
    /// a quantile is not a number: an empty histogram).
    fn values(&self) -> [f64; HISTOGRAM_VALUES] {
        let h = &self.histogram;
        let [p50, p90, p99] =
            h.quantiles(QUANTILES.map(|(_, q)| q))
                .map(|v| if v.is_finite() { v } else { 0.0 });
        [h.count() as f64, h.sum(), p50, p90, p99]
    }

    fn new(key: &str, histogram: Histogram) -> HistogramEntry {
        let (name, labels) = split_key(key);
        let [(q1, _), (q2, _), (q3, _)] = QUANTILES;
        HistogramEntry {
            histogram,
            keys: [
                join_key(&format!("{name}_count"), labels, None),
                join_key(&format!("{name}_sum"), labels, None),
                join_key(name, labels, Some(q1)),
                join_key(name, labels, Some(q2)),
                join_key(name, labels, Some(q3)),
            ],
        }
    }
}

impl Registry {
    /// Adds `by` to a counter.
    pub fn inc(&mut self, key: &str, by: f64) {
        match self.counters.get_mut(key) {
            Some(v) => *v += by,
            None => {
                self.counters.insert(key.to_owned(), by);
                self.counter_layout = Layout::fresh();
            }
        }
    }

    /// [`Registry::inc`] of `key.text`, found through `key`'s slot while the counters' order
    /// is the one it was taken in. The slot's add is in line at each caller; a key without a
    /// slot of the counters' order is found out of line.
    #[inline]
    pub fn inc_at(&mut self, key: &mut SlottedKey, by: f64) {
        if key.slot.layout == Some(self.counter_layout) {
            if let Some((text, value)) = self.counters.entry_at_mut(key.slot.index) {
                debug_assert_eq!(text, &key.text, "a slot names its own key");
                *value += by;
                return;
            }
        }
        self.inc_finding_slot(key, by);
    }

    /// [`Registry::inc_at`] of a key whose slot is not of the counters' order: found by its
    /// text, its slot taken for the next time.
    #[inline(never)]
    fn inc_finding_slot(&mut self, key: &mut SlottedKey, by: f64) {
        self.inc(&key.text, by);
        key.slot = Slot::of(&self.counters, self.counter_layout, &key.text);
    }

    /// Starts a pass of gauge sets ([`Registry::set`]) that repeats the last pass's keys in
    /// order: each is then found where the last pass found it.
    pub fn begin_gauge_pass(&mut self) {
        self.gauge_pass.at = 0;
    }

    /// Sets a gauge.
    pub fn set(&mut self, key: &str, value: f64) {
        self.set_by(key, value, None);
    }

    /// [`Registry::set`] of a constant key: when the last pass's set at the same place was by
    /// the same constant, its slot is taken without comparing the key's text.
    // kept out of line: inlined at each of its callers, it made the page's module 6 KB larger
    // for no fewer instructions
    #[inline(never)]
    pub fn set_static(&mut self, key: &'static str, value: f64) {
        let n = self.gauge_pass.at;
        let by = Some(constant(key));
        if self.gauge_pass.constants.get(n) == Some(&by) {
            if let Some((text, v)) = self.pass_slot(n).and_then(|i| self.gauges.entry_at_mut(i)) {
                debug_assert_eq!(text, key, "a constant's slot names the constant");
                *v = value;
                self.gauge_pass.at += 1;
                return;
            }
        }
        self.set_by(key, value, by);
    }

    /// [`Registry::set`], remembering for the pass's next round whether `key` was a constant.
    fn set_by(&mut self, key: &str, value: f64, by: Option<Constant>) {
        let n = self.gauge_pass.at;
        self.gauge_pass.at += 1;
        if let Some((text, v)) = self.pass_slot(n).and_then(|i| self.gauges.entry_at_mut(i)) {
            if crate::key::same_text(text, key) {
                *v = value;
                self.gauge_pass.constants[n] = by;
                return;
            }
        }
        match self.gauges.get_mut(key) {
            Some(v) => *v = value,
            None => {
                self.gauges.insert(key.to_owned(), value);
                self.gauge_layout = Layout::fresh();
            }
        }
        let slot = Slot::of(&self.gauges, self.gauge_layout, key);
        self.gauge_pass.remember(n, slot, by);
    }

    /// Where the last pass's `n`-th set found its gauge, while the gauges' order is still the
    /// one it was found in.
    fn pass_slot(&self, n: usize) -> Option<usize> {
        let slot = self.gauge_pass.slots.get(n)?;
        (slot.layout == Some(self.gauge_layout)).then_some(slot.index)
    }

    /// Records an observation in a histogram, creating it with `buckets` on first use.
    /// Buckets that fail validation leave the observation unrecorded.
    pub fn observe(
        &mut self,
        key: &str,
        value: f64,
        buckets: impl FnOnce() -> Result<Histogram, ConfigError>,
    ) {
        match self.histograms.get_mut(key) {
            Some(e) => e.histogram.observe(value),
            None => {
                if let Ok(mut h) = buckets() {
                    h.observe(value);
                    let entry = HistogramEntry::new(key, h);
                    self.histograms.insert(key.to_owned(), entry);
                    self.histogram_layout = Layout::fresh();
                }
            }
        }
    }

    /// Replaces a histogram (one a component keeps itself, e.g. the workqueue's).
    pub fn set_histogram(&mut self, key: &str, histogram: Histogram) {
        match self.histograms.get_mut(key) {
            Some(e) => e.histogram = histogram,
            None => {
                let entry = HistogramEntry::new(key, histogram);
                self.histograms.insert(key.to_owned(), entry);
                self.histogram_layout = Layout::fresh();
            }
        }
    }

    /// [`Registry::set_histogram`] of `histogram` with only its first `n` upper bounds
    /// ([`Histogram::first_buckets`]), copied into the room the key's histogram already has.
    pub fn set_histogram_first_buckets(&mut self, key: &str, histogram: &Histogram, n: usize) {
        match self.histograms.get_mut(key) {
            Some(e) => e.histogram.assign_first_buckets(histogram, n),
            None => self.set_histogram(key, histogram.first_buckets(n)),
        }
    }

    /// [`Registry::observe`] of `key.text`, found through `key`'s slot while the histograms'
    /// order is the one it was taken in.
    pub fn observe_at(
        &mut self,
        key: &mut SlottedKey,
        value: f64,
        buckets: impl FnOnce() -> Result<Histogram, ConfigError>,
    ) {
        if key.slot.layout == Some(self.histogram_layout) {
            if let Some((text, entry)) = self.histograms.entry_at_mut(key.slot.index) {
                debug_assert_eq!(text, &key.text, "a slot names its own key");
                entry.histogram.observe(value);
                return;
            }
        }
        self.observe(&key.text, value, buckets);
        key.slot = Slot::of(&self.histograms, self.histogram_layout, &key.text);
    }

    /// Sets every gauge whose key starts with `prefix` to 0.
    pub fn zero_gauges(&mut self, prefix: &str) {
        for (_, v) in self
            .gauges
            .range_from_mut(prefix)
            .take_while(|(k, _)| k.starts_with(prefix))
        {
            *v = 0.0;
        }
    }

    /// [`Registry::counter`] of `key.text`, read through `key`'s slot while the counters' order
    /// is the one it was taken in (the verdict reads two counters every simulated second).
    pub fn counter_at(&self, key: &SlottedKey) -> f64 {
        if key.slot.layout == Some(self.counter_layout) {
            if let Some((text, value)) = self.counters.entry_at(key.slot.index) {
                debug_assert_eq!(text, &key.text, "a slot names its own key");
                return *value;
            }
        }
        self.counter(&key.text)
    }

    /// A counter's value (0 when never incremented).
    pub fn counter(&self, key: &str) -> f64 {
        self.counters.get(key).copied().unwrap_or(0.0)
    }

    /// A gauge's value (0 when never set).
    pub fn gauge(&self, key: &str) -> f64 {
        self.gauges.get(key).copied().unwrap_or(0.0)
    }

    /// A histogram.
    pub fn histogram(&self, key: &str) -> Option<&Histogram> {
        self.histograms.get(key).map(|e| &e.histogram)
    }

    /// Every value as `key → number`: counters, gauges, and for each histogram its `_count`,
    /// `_sum` and the quantiles 0.5, 0.9 and 0.99 (as `{quantile="0.99"}`).
    pub fn flatten(&self) -> VecMap<String, f64> {
        let mut out = VecMap::new();
        self.for_each_value(|key, value| {
            out.insert(key.to_owned(), value);
        });
        out
    }

    /// The order of the keys [`Registry::for_each_value`] visits: while it is the same, so are
    /// the keys it visits and their sequence.
    pub fn key_order(&self) -> KeyOrder {
        KeyOrder([
            self.counter_layout,
            self.gauge_layout,
            self.histogram_layout,
        ])
    }

    /// Visits what [`Registry::flatten`] returns, without building the map: counters, then
    /// gauges, then the histograms' values (a gauge named like a counter is visited after it).
    pub fn for_each_value(&self, mut visit: impl FnMut(&str, f64)) {
        for (key, value) in self.counters.iter().chain(&self.gauges) {
            visit(key, *value);
        }
        for e in self.histograms.values() {
            for (key, value) in e.keys.iter().zip(e.values()) {
                visit(key, value);
            }
        }
    }

    /// How many values [`Registry::for_each_value`] visits.
    pub fn value_count(&self) -> usize {
        self.scalar_count() + HISTOGRAM_VALUES * self.histograms.len()
    }

    /// How many counters and gauges there are: the values [`Registry::for_each_value`] visits
    /// before the histograms'.
    pub fn scalar_count(&self) -> usize {
        self.counters.len() + self.gauges.len()
    }

    /// The counters' and gauges' values, in [`Registry::for_each_value`]'s order: the values
    /// it visits before the histograms'.
    pub fn scalar_values(&self) -> impl Iterator<Item = f64> + '_ {
        self.counters.values().chain(self.gauges.values()).copied()
    }

    /// The histograms' values, in [`Registry::for_each_value`]'s order: the values it visits
    /// after the counters' and gauges'.
    pub fn histogram_values(&self) -> impl Iterator<Item = [f64; HISTOGRAM_VALUES]> + '_ {
        self.histograms.values().map(HistogramEntry::values)
    }
}

fn split_key(key: &str) -> (&str, &str) {
    match key.find('{') {
        Some(i) => (&key[..i], key[i + 1..].trim_end_matches('}')),
        None => (key, ""),
    }
}

fn join_key(name: &str, labels: &str, quantile: Option<&str>) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !labels.is_empty() {
        parts.push(labels.to_owned());
    }
    if let Some(q) = quantile {
        parts.push(format!("quantile=\"{q}\""));
    }
    if parts.is_empty() {
        name.to_owned()
    } else {
        format!("{name}{{{}}}", parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_carry_labels_in_prometheus_text_form() {
        assert_eq!(
            metric_key(
                "apiserver_request_total",
                &[("code", "429"), ("verb", "PUT")]
            ),
            "apiserver_request_total{code=\"429\",verb=\"PUT\"}"
        );
        assert_eq!(metric_key("go_goroutines", &[]), "go_goroutines");
    }

    #[test]
    fn histograms_flatten_to_count_sum_and_quantiles() {
        let mut r = Registry::default();
        let buckets = || Histogram::new(vec![0.1, 1.0, 10.0]);
        for v in [0.05, 0.5, 0.5, 5.0] {
            r.observe(
                "controller_runtime_reconcile_time_seconds{controller=\"c\"}",
                v,
                buckets,
            );
        }
        let flat = r.flatten();
        assert_eq!(
            flat["controller_runtime_reconcile_time_seconds_count{controller=\"c\"}"],
            4.0
        );
        assert!(
            (flat["controller_runtime_reconcile_time_seconds_sum{controller=\"c\"}"] - 6.05).abs()
                < 1e-9
        );
        let p99 =
            flat["controller_runtime_reconcile_time_seconds{controller=\"c\",quantile=\"0.99\"}"];
        assert!(p99 > 1.0 && p99 <= 10.0, "p99 {p99}");
    }

    #[test]
    fn a_slotted_key_bumps_its_own_counter_before_and_after_other_keys_move_it() {
        let mut reg = Registry::default();
        let mut m = SlottedKey::new("m_total".to_owned());
        reg.inc_at(&mut m, 1.0);
        reg.inc_at(&mut m, 2.0);
        reg.inc("a_total", 5.0); // sorts before `m_total`: the slot's index moves
        reg.inc_at(&mut m, 4.0);
        reg.inc("z_total", 1.0);
        reg.inc_at(&mut m, 8.0);
        assert_eq!(reg.counter("m_total"), 15.0);
        assert_eq!(reg.counter("a_total"), 5.0);
        assert_eq!(reg.counter("z_total"), 1.0);
    }

    #[test]
    fn a_counter_read_through_its_slot_is_the_counter_even_after_other_keys_move_it() {
        let mut reg = Registry::default();
        let mut m = SlottedKey::new("m_total".to_owned());
        assert_eq!(reg.counter_at(&m), 0.0);
        reg.inc_at(&mut m, 3.0);
        assert_eq!(reg.counter_at(&m), 3.0);
        reg.inc("a_total", 5.0); // sorts before `m_total`: the slot is stale
        assert_eq!(reg.counter_at(&m), 3.0);
        assert_eq!(reg.counter_at(&SlottedKey::new("a_total".to_owned())), 5.0);
    }

    #[test]
    fn a_slot_taken_in_one_registry_finds_its_key_in_a_copy_that_changed_since() {
        let mut live = Registry::default();
        let mut key = SlottedKey::new("b_total".to_owned());
        live.inc("c_total", 1.0);
        live.inc_at(&mut key, 1.0);
        let mut restored = live.clone();
        restored.inc("a_total", 1.0);
        live.inc_at(&mut key, 1.0); // the slot still holds for `live`
        restored.inc_at(&mut key, 10.0); // not for `restored`, whose order changed
        live.inc_at(&mut key, 100.0);
        assert_eq!(
            (live.counter("b_total"), live.counter("c_total")),
            (102.0, 1.0)
        );
        assert_eq!(
            (restored.counter("b_total"), restored.counter("a_total")),
            (11.0, 1.0)
        );
    }

    #[test]
    fn a_slotted_histogram_key_observes_into_its_own_histogram() {
        let mut reg = Registry::default();
        let buckets = || Histogram::new(vec![1.0, 10.0]);
        let mut late = SlottedKey::new("late_seconds".to_owned());
        reg.observe_at(&mut late, 0.5, buckets);
        reg.observe("early_seconds", 5.0, buckets);
        reg.observe_at(&mut late, 0.5, buckets);
        assert_eq!(reg.histogram("late_seconds").map(Histogram::count), Some(2));
        assert_eq!(
            reg.histogram("early_seconds").map(Histogram::count),
            Some(1)
        );
    }

    #[test]
    fn gauges_set_in_passes_hold_what_was_set_last_whatever_the_passes_order_or_new_keys() {
        let mut reg = Registry::default();
        let mut plain = std::collections::BTreeMap::new();
        let passes: [&[(&str, f64)]; 5] = [
            &[("b", 1.0), ("d", 2.0)],
            &[("b", 3.0), ("d", 4.0)],
            &[("a", 5.0), ("b", 6.0), ("c", 7.0), ("d", 8.0)],
            &[("d", 9.0), ("b", 10.0), ("e", 11.0)],
            &[("d", 12.0), ("b", 13.0), ("e", 14.0)],
        ];
        for pass in passes {
            reg.begin_gauge_pass();
            for &(key, value) in pass {
                reg.set(key, value);
                plain.insert(key, value);
            }
            // a set outside any pass, as a worker start sets its gauge
            reg.set("z", 1.0);
            plain.insert("z", 1.0);
            for (key, value) in &plain {
                assert_eq!(reg.gauge(key), *value, "{key}");
            }
        }
        let gauges: Vec<(String, f64)> = reg.flatten().into_iter().collect();
        let expected: Vec<(String, f64)> =
            plain.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect();
        assert_eq!(gauges, expected);
    }

    #[test]
    fn constant_keys_and_built_keys_at_the_same_places_of_passes_set_their_own_gauges() {
        let mut reg = Registry::default();
        let mut plain = std::collections::BTreeMap::new();
        // a built key with the text of a constant, a constant replaced by another at its place,
        // a new gauge moving every slot, the same constant twice in a pass
        let built_b = String::from("b");
        let passes: [&[(&str, bool, f64)]; 6] = [
            &[("b", true, 1.0), ("d", true, 2.0)],
            &[("b", true, 3.0), ("d", true, 4.0)],
            &[(built_b.as_str(), false, 5.0), ("d", true, 6.0)],
            &[("b", true, 7.0), ("c", true, 8.0)],
            &[("a", true, 9.0), ("b", true, 10.0), ("c", true, 11.0)],
            &[("a", true, 12.0), ("a", true, 13.0), ("c", true, 14.0)],
        ];
        for pass in passes {
            reg.begin_gauge_pass();
            for &(key, constant, value) in pass {
                match (constant, key) {
                    (true, "a") => reg.set_static("a", value),
                    (true, "b") => reg.set_static("b", value),
                    (true, "c") => reg.set_static("c", value),
                    (true, _) => reg.set_static("d", value),
                    (false, built) => reg.set(built, value),
                }
                plain.insert(key.to_owned(), value);
            }
            for (key, value) in &plain {
                assert_eq!(reg.gauge(key), *value, "{key}");
            }
        }
        let gauges: Vec<(String, f64)> = reg.flatten().into_iter().collect();
        let expected: Vec<(String, f64)> = plain.into_iter().collect();
        assert_eq!(gauges, expected);
    }
}
