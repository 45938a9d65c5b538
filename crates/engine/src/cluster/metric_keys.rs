//! The keys of the metrics counted on every request and every reconcile, each built once.
//!
//! `apiserver_request_total{code,verb}` and the reconcile counters are bumped on nearly every
//! event of a large run; their keys (`name{label="value",…}`) take only a handful of values, so
//! they are built the first time a label set is seen and looked up after. Each keeps where the
//! registry holds it ([`SlottedKey`]), so bumping it does not search the registry either.

use super::registry::{constant, metric_key, Constant, SlottedKey};
use crate::metrics::names;

/// The hot metrics whose key is fixed (no label taken at run time), each with a slot of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fixed {
    /// [`names::WATCH_EVENTS_TOTAL`].
    WatchEvents,
    /// [`names::SELF_TRIGGERED_ENQUEUES_TOTAL`].
    SelfTriggeredEnqueues,
    /// [`names::PREDICATE_DROPPED_TOTAL`].
    PredicateDropped,
    /// `rest_client_request_retries_total{code="429"}`.
    Retries429,
    /// [`names::OOM_KILLS_TOTAL`].
    OomKills,
    /// [`names::CLIENT_RATE_LIMITER_DURATION_SECONDS`].
    ClientRateLimiterDuration,
}

impl Fixed {
    const ALL: [Fixed; 6] = [
        Fixed::WatchEvents,
        Fixed::SelfTriggeredEnqueues,
        Fixed::PredicateDropped,
        Fixed::Retries429,
        Fixed::OomKills,
        Fixed::ClientRateLimiterDuration,
    ];

    /// The metric's key.
    pub(super) fn key(self) -> &'static str {
        match self {
            Fixed::WatchEvents => names::WATCH_EVENTS_TOTAL,
            Fixed::SelfTriggeredEnqueues => names::SELF_TRIGGERED_ENQUEUES_TOTAL,
            Fixed::PredicateDropped => names::PREDICATE_DROPPED_TOTAL,
            Fixed::Retries429 => super::telemetry::RETRIES_429,
            Fixed::OomKills => names::OOM_KILLS_TOTAL,
            Fixed::ClientRateLimiterDuration => names::CLIENT_RATE_LIMITER_DURATION_SECONDS,
        }
    }
}

/// Built keys of the hot counters.
#[derive(Clone, Debug)]
pub(super) struct MetricKeys {
    /// `apiserver_request_total` by `(verb, code)`.
    requests: Vec<(&'static str, u16, SlottedKey)>,
    /// The verb (by address and length), code and place in `requests` of the last request
    /// counted: a run answers one verb and code many times in a row (a reconcile's `PUT` and
    /// its 200, a creation's `POST`s), and each such count then finds its key without a scan.
    last_request: Option<(Constant, u16, usize)>,
    /// `controller_runtime_reconcile_total` by `result`.
    reconcile_results: Vec<(&'static str, SlottedKey)>,
    /// The reconcile counters and histogram that carry only the controller's label, by name.
    per_controller: Vec<(&'static str, SlottedKey)>,
    /// The fixed keys, in [`Fixed`] order.
    fixed: [SlottedKey; 6],
}

impl Default for MetricKeys {
    fn default() -> MetricKeys {
        MetricKeys {
            requests: Vec::new(),
            last_request: None,
            reconcile_results: Vec::new(),
            per_controller: Vec::new(),
            fixed: Fixed::ALL.map(|f| SlottedKey::new(f.key().to_owned())),
        }
    }
}

impl MetricKeys {
    /// The key of `apiserver_request_total{code, verb}`.
    pub(super) fn request(&mut self, verb: &'static str, code: u16) -> &mut SlottedKey {
        let by_address = constant(verb);
        if let Some((v, c, i)) = self.last_request {
            if v == by_address && c == code {
                return &mut self.requests[i].2;
            }
        }
        let verbs = self
            .requests
            .iter()
            .map(|(v, c, _)| (*c == code).then_some(*v));
        let i = match position_of(verbs, verb) {
            Some(i) => i,
            None => {
                let code_text = code.to_string();
                let key = metric_key(
                    names::APISERVER_REQUEST_TOTAL,
                    &[("code", &code_text), ("verb", verb)],
                );
                self.requests.push((verb, code, SlottedKey::new(key)));
                self.requests.len() - 1
            }
        };
        self.last_request = Some((by_address, code, i));
        &mut self.requests[i].2
    }

    /// The key of `controller_runtime_reconcile_total{controller, result}`.
    pub(super) fn reconcile_result(
        &mut self,
        controller: &str,
        result: &'static str,
    ) -> &mut SlottedKey {
        let i = match position_of(names_of(&self.reconcile_results), result) {
            Some(i) => i,
            None => {
                let labels = [("controller", controller), ("result", result)];
                let key = metric_key(names::RECONCILE_TOTAL, &labels);
                self.reconcile_results.push((result, SlottedKey::new(key)));
                self.reconcile_results.len() - 1
            }
        };
        &mut self.reconcile_results[i].1
    }

    /// The key of metric `name{controller}`.
    pub(super) fn per_controller(
        &mut self,
        name: &'static str,
        controller: &str,
    ) -> &mut SlottedKey {
        let i = match position_of(names_of(&self.per_controller), name) {
            Some(i) => i,
            None => {
                let key = metric_key(name, &[("controller", controller)]);
                self.per_controller.push((name, SlottedKey::new(key)));
                self.per_controller.len() - 1
            }
        };
        &mut self.per_controller[i].1
    }

    /// The key of `metric`.
    pub(super) fn fixed(&mut self, metric: Fixed) -> &mut SlottedKey {
        &mut self.fixed[metric as usize]
    }

    /// The key of `metric`, to read through.
    pub(super) fn fixed_key(&self, metric: Fixed) -> &SlottedKey {
        &self.fixed[metric as usize]
    }
}

/// Where `name` is among `names` (`None` for an entry that is not a candidate): first by address
/// (the same constant is one address and length, so nearly every lookup ends there without
/// reading a name), then by text (a constant the compiler copied, or a name built at run time).
fn position_of<'a>(
    mut names: impl Iterator<Item = Option<&'a str>> + Clone,
    name: &str,
) -> Option<usize> {
    let by_address = constant(name);
    names
        .clone()
        .position(|n| n.map(constant) == Some(by_address))
        .or_else(|| names.position(|n| n == Some(name)))
}

/// The names of `keys`, every one a candidate for [`position_of`].
fn names_of<'a>(
    keys: &'a [(&'static str, SlottedKey)],
) -> impl Iterator<Item = Option<&'a str>> + Clone {
    keys.iter().map(|(n, _)| Some(*n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_is_the_one_metric_key_builds_and_is_built_once_per_label_set() {
        let mut keys = MetricKeys::default();
        let put = keys.request("PUT", 200).text.clone();
        assert_eq!(
            put,
            metric_key(
                names::APISERVER_REQUEST_TOTAL,
                &[("code", "200"), ("verb", "PUT")]
            )
        );
        assert_eq!(
            keys.request("PUT", 429).text,
            "apiserver_request_total{code=\"429\",verb=\"PUT\"}"
        );
        assert_eq!(keys.request("PUT", 200).text, put);
        // the same request twice (found as the last one counted), then another verb and back
        assert_eq!(keys.request("PUT", 200).text, put);
        let post = "apiserver_request_total{code=\"201\",verb=\"POST\"}";
        assert_eq!(keys.request("POST", 201).text, post);
        assert_eq!(keys.request("POST", 201).text, post);
        assert_eq!(keys.request("PUT", 200).text, put);
        assert_eq!(keys.requests.len(), 3);
        assert_eq!(
            keys.reconcile_result("flywheel", "success").text,
            metric_key(
                names::RECONCILE_TOTAL,
                &[("controller", "flywheel"), ("result", "success")]
            )
        );
        assert_eq!(
            keys.per_controller(names::RECONCILE_TIME_SECONDS, "flywheel")
                .text,
            metric_key(names::RECONCILE_TIME_SECONDS, &[("controller", "flywheel")])
        );
        keys.per_controller(names::RECONCILE_TIME_SECONDS, "flywheel");
        assert_eq!(keys.per_controller.len(), 1);
        for metric in Fixed::ALL {
            assert_eq!(keys.fixed(metric).text, metric.key(), "{metric:?}");
        }
    }

    #[test]
    fn a_copy_of_a_name_at_another_address_finds_the_same_key() {
        let mut keys = MetricKeys::default();
        keys.per_controller(names::RECONCILE_TIME_SECONDS, "flywheel");
        keys.per_controller(names::RECONCILE_ERRORS_TOTAL, "flywheel");
        let copy: &'static str =
            Box::leak(names::RECONCILE_ERRORS_TOTAL.to_owned().into_boxed_str());
        assert_ne!(copy.as_ptr(), names::RECONCILE_ERRORS_TOTAL.as_ptr());
        let key = metric_key(names::RECONCILE_ERRORS_TOTAL, &[("controller", "flywheel")]);
        assert_eq!(keys.per_controller(copy, "flywheel").text, key);
        assert_eq!(keys.per_controller.len(), 2);
    }
}
