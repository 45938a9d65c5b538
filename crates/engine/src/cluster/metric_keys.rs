//! The keys of the metrics counted on every request and every reconcile, each built once.
//!
//! `apiserver_request_total{code,verb}` and the reconcile counters are bumped on nearly every
//! event of a large run; their keys (`name{label="value",…}`) take only a handful of values, so
//! they are built the first time a label set is seen and looked up after. Each keeps where the
//! registry holds it ([`SlottedKey`]), so bumping it does not search the registry either.

use super::registry::{metric_key, SlottedKey};
use crate::metrics::names;

/// Built keys of the hot counters.
#[derive(Clone, Debug, Default)]
pub(super) struct MetricKeys {
    /// `apiserver_request_total` by `(verb, code)`.
    requests: Vec<(String, u16, SlottedKey)>,
    /// `controller_runtime_reconcile_total` by `result`.
    reconcile_results: Vec<(&'static str, SlottedKey)>,
    /// The reconcile counters and histogram that carry only the controller's label, by name.
    per_controller: Vec<(&'static str, SlottedKey)>,
    /// Metrics without labels, by name.
    plain: Vec<(&'static str, SlottedKey)>,
}

impl MetricKeys {
    /// The key of `apiserver_request_total{code, verb}`.
    pub(super) fn request(&mut self, verb: &str, code: u16) -> &mut SlottedKey {
        let i = match self
            .requests
            .iter()
            .position(|(v, c, _)| *c == code && v == verb)
        {
            Some(i) => i,
            None => {
                let code_text = code.to_string();
                let key = metric_key(
                    names::APISERVER_REQUEST_TOTAL,
                    &[("code", &code_text), ("verb", verb)],
                );
                self.requests
                    .push((verb.to_owned(), code, SlottedKey::new(key)));
                self.requests.len() - 1
            }
        };
        &mut self.requests[i].2
    }

    /// The key of `controller_runtime_reconcile_total{controller, result}`.
    pub(super) fn reconcile_result(
        &mut self,
        controller: &str,
        result: &'static str,
    ) -> &mut SlottedKey {
        let i = match self
            .reconcile_results
            .iter()
            .position(|(r, _)| same_name(r, result))
        {
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
        let i = match self
            .per_controller
            .iter()
            .position(|(n, _)| same_name(n, name))
        {
            Some(i) => i,
            None => {
                let key = metric_key(name, &[("controller", controller)]);
                self.per_controller.push((name, SlottedKey::new(key)));
                self.per_controller.len() - 1
            }
        };
        &mut self.per_controller[i].1
    }

    /// The key of metric `name`, which has no labels.
    pub(super) fn plain(&mut self, name: &'static str) -> &mut SlottedKey {
        let i = match self.plain.iter().position(|(n, _)| same_name(n, name)) {
            Some(i) => i,
            None => {
                self.plain.push((name, SlottedKey::new(name.to_owned())));
                self.plain.len() - 1
            }
        };
        &mut self.plain[i].1
    }
}

/// Whether two metric names are the same: at once when both are the same constant (one address
/// and length), else by their text.
fn same_name(a: &str, b: &str) -> bool {
    (a.as_ptr() == b.as_ptr() && a.len() == b.len()) || a == b
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
        assert_eq!(keys.requests.len(), 2);
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
        assert_eq!(
            keys.plain(names::WATCH_EVENTS_TOTAL).text,
            names::WATCH_EVENTS_TOTAL
        );
        keys.plain(names::WATCH_EVENTS_TOTAL);
        assert_eq!(keys.plain.len(), 1);
    }
}
