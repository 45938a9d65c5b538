//! The URL keys of earlier permalinks (`objects=5000`, `size=64`, `fieldindex=1`), read as the
//! settings' paths and values they meant, so old links keep working.

/// `(old key, path)` for keys whose value is the setting's own number.
const SAME_VALUE: &[(&str, &str)] = &[
    ("objects", "objects.count"),
    ("workers", "controller.workers"),
    ("burst", "client.burst"),
    ("seats", "apiserver.seats"),
    ("apfqueue", "apiserver.queue_capacity"),
    ("etcd", "apiserver.etcd_writes_per_second"),
    ("nscache", "cache.namespaced"),
    ("metaonly", "cache.metadata_only"),
    ("stopwatch", "code.stop_watch"),
    ("pressurecheck", "code.check_memory_pressure"),
];

/// Whether an old switch's value (`0`/`1`) is on; `None` when it is neither.
fn on(raw: &str) -> Option<bool> {
    match raw {
        "1" | "true" => Some(true),
        "0" | "false" => Some(false),
        _ => None,
    }
}

/// A switch's value written as the file writes a bool, or the raw text (for the engine to refuse).
fn switch(raw: &str) -> String {
    on(raw).map_or_else(|| raw.to_owned(), |b| b.to_string())
}

/// One of two named values by an old switch.
fn pick(raw: &str, yes: &str, no: &str) -> String {
    match on(raw) {
        Some(true) => yes.to_owned(),
        Some(false) => no.to_owned(),
        None => raw.to_owned(),
    }
}

/// A number with a unit suffix, or the raw text when it is no number.
fn with_unit(raw: &str, unit: &str) -> String {
    match raw.parse::<f64>() {
        Ok(v) if v.is_finite() => format!("{}{unit}", crate::config::trim_float(v)),
        _ => raw.to_owned(),
    }
}

/// The path and value an old key meant, or `None` when `key` is not an old key.
pub fn translate(key: &str, raw: &str) -> Option<(&'static str, String)> {
    if let Some((_, path)) = SAME_VALUE.iter().find(|(k, _)| *k == key) {
        let value = if path.starts_with("cache.") || path.starts_with("code.") {
            switch(raw)
        } else {
            raw.to_owned()
        };
        return Some((path, value));
    }
    let moved = match key {
        "qps" if raw.parse::<f64>().is_ok_and(|v| v <= 0.0) => ("client.qps", "-1".to_owned()),
        "qps" => ("client.qps", raw.to_owned()),
        "size" => ("objects.size_bytes", with_unit(raw, "Ki")),
        "mem" if raw.parse::<f64>().is_ok_and(|v| v < 16.0) => {
            ("process.memory_limit", String::new())
        }
        "mem" => ("process.memory_limit", with_unit(raw, "Mi")),
        "handler" => ("controller.handler_cost", with_unit(raw, "us")),
        "fieldindex" => ("code.pod_list", pick(raw, "field_index", "all_namespaces")),
        "logcounts" => ("code.log", pick(raw, "counts", "whole_object")),
        "timeout" => ("code.external_timeout", pick(raw, "5s", "0s")),
        "safefinalizer" => ("code.finalizer", pick(raw, "safe", "remove_on_failure")),
        _ => return None,
    };
    Some(moved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_keys_name_the_settings_they_changed() {
        assert_eq!(
            translate("workers", "4"),
            Some(("controller.workers", "4".into()))
        );
        assert_eq!(
            translate("size", "64"),
            Some(("objects.size_bytes", "64Ki".into()))
        );
        assert_eq!(
            translate("mem", "256"),
            Some(("process.memory_limit", "256Mi".into()))
        );
        assert_eq!(translate("qps", "0"), Some(("client.qps", "-1".into())));
        assert_eq!(
            translate("fieldindex", "1"),
            Some(("code.pod_list", "field_index".into()))
        );
        assert_eq!(
            translate("nscache", "0"),
            Some(("cache.namespaced", "false".into()))
        );
        assert_eq!(translate("speed", "1"), None);
    }
}
