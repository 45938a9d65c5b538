//! The parts of the page a tour step may point at: the page maps each name to an element.

/// Every page part the engine knows, besides `control.<setting path>` for each setting of
/// [`crate::settings::SETTINGS`].
pub static PARTS: &[&str] = &[
    "pipeline.apiserver",
    "pipeline.reflector",
    "pipeline.deltafifo",
    "pipeline.indexer",
    "pipeline.handler",
    "pipeline.workqueue",
    "pipeline.workers",
    "pipeline.loop",
    "chart.qps",
    "chart.memory",
    "chart.workqueue",
    "chart.fifo",
    "chart.reconciles",
    "timeline",
    "verdict",
    "event-log",
    "inspector",
    "why",
    "pod",
    "myths",
];

/// Whether `name` is a page part: one of [`PARTS`], or `control.` and a setting's path.
pub fn is_part(name: &str) -> bool {
    match name.strip_prefix("control.") {
        Some(path) => crate::settings::find(path).is_some(),
        None => PARTS.contains(&name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_is_a_control_part_and_unknown_names_are_not_parts() {
        for s in crate::settings::SETTINGS {
            assert!(is_part(&format!("control.{}", s.path)), "{}", s.path);
        }
        assert!(is_part("pipeline.workqueue"));
        assert!(!is_part("control.no.such"));
        assert!(!is_part("chart.nothing"));
    }
}
