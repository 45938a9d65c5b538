//! `flywheel size`: runs the user's numbers ([`flywheel_engine::sizing`]) and prints them as a
//! table, as JSON (`--json`) or as the scenario that was run (`--emit-scenario`).

use flywheel_engine::scenario::units::format_bytes;
use flywheel_engine::sizing::{size, SizeReport};

use crate::args::SizeArgs;

/// Runs `args` and returns what to print; an error is bad input (exit status 2).
pub fn run(args: &SizeArgs) -> Result<String, String> {
    let input = crate::args::size::check(args)?;
    let report = size(&input).map_err(|e| e.to_string())?;
    if args.emit_scenario {
        return report.scenario_toml();
    }
    if args.json {
        return Ok(json(&report));
    }
    Ok(table(&report))
}

/// The report as one pretty JSON object, field names with units last.
pub fn json(report: &SizeReport) -> String {
    serde_json::to_string_pretty(report).unwrap_or_default() + "\n"
}

fn seconds(ms: u64) -> String {
    format!("{:.1}s", ms as f64 / 1000.0)
}

/// The report as aligned text.
pub fn table(r: &SizeReport) -> String {
    let mut rows: Vec<(String, String)> = vec![
        (
            "first LIST".into(),
            format!(
                "{} objects, {}, {} ms",
                r.first_list_objects,
                format_bytes(r.first_list_bytes),
                r.first_list_ms
            ),
        ),
        (
            "cache synced after".into(),
            r.cache_sync_ms
                .map_or("not within the window".into(), seconds),
        ),
        ("Pods cached".into(), r.pod_cache_objects.to_string()),
    ];
    for (owner, bytes) in r.cache_bytes_by_owner.iter().filter(|(_, b)| **b > 0) {
        rows.push((format!("heap {owner}"), format_bytes(*bytes)));
    }
    rows.push(("steady RSS".into(), format_bytes(r.steady_rss_bytes)));
    rows.push((
        format!("relist at {}", seconds(r.relist_at_ms)),
        format!(
            "peak {} (+{})",
            format_bytes(r.relist_peak_rss_bytes),
            format_bytes(r.relist_spike_bytes)
        ),
    ));
    rows.push(("steady QPS".into(), format!("{:.1}", r.steady_qps)));
    rows.push(("peak RSS".into(), format_bytes(r.peak_rss_bytes)));
    let limit = r.memory_limit_bytes.map_or("none".into(), format_bytes);
    let verdict = match r.oom_killed_at_ms {
        Some(at) => format!(
            "{limit}: crossed, OOMKilled at {} ({} kills)",
            seconds(at),
            r.oom_kills
        ),
        None => format!("{limit}: not crossed"),
    };
    rows.push(("memory limit".into(), verdict));
    let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    let mut out = format!(
        "{} ({} simulated)\n",
        r.family.as_str(),
        seconds(r.window_ms)
    );
    for (k, v) in rows {
        out.push_str(&format!("  {k:<width$}  {v}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use flywheel_engine::sizing::{Family, KindCount, SizeInput};

    fn small() -> SizeReport {
        let input = SizeInput {
            custom: Some(KindCount {
                objects: 20,
                size_bytes: 4096,
            }),
            pods: Some(KindCount {
                objects: 400,
                size_bytes: 8192,
            }),
            ..SizeInput::new(Family::ListFullScan)
        };
        size(&input).expect("runs")
    }

    #[test]
    fn the_json_has_stable_field_names_with_units_last() {
        let report = small();
        let v: serde_json::Value = serde_json::from_str(&json(&report)).expect("json");
        let keys: Vec<&str> = v
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        let mut expected = vec![
            "family",
            "window_ms",
            "relist_at_ms",
            "first_list_objects",
            "first_list_bytes",
            "first_list_ms",
            "cache_sync_ms",
            "pod_cache_objects",
            "cache_bytes_by_owner",
            "steady_rss_bytes",
            "relist_peak_rss_bytes",
            "relist_spike_bytes",
            "steady_qps",
            "peak_rss_bytes",
            "memory_limit_bytes",
            "limit_crossed",
            "oom_killed_at_ms",
            "oom_kills",
        ];
        expected.sort_unstable();
        let mut keys = keys;
        keys.sort_unstable();
        assert_eq!(keys, expected);
        assert_eq!(v["family"], "list-full-scan");
        assert_eq!(v["first_list_objects"], 20);
        assert_eq!(v["first_list_bytes"], 20 * 4096);
        assert!(v["cache_bytes_by_owner"]["informer_store"].as_u64() > Some(0));
    }

    #[test]
    fn the_emitted_scenario_loads_back_as_the_scenario_that_was_run() {
        let report = small();
        let text = report.scenario_toml().expect("toml");
        let loaded = flywheel_engine::scenario::parse(&text, &[]).expect("loads");
        assert_eq!(&loaded, report.scenario());
    }

    #[test]
    fn the_table_says_whether_the_limit_is_crossed() {
        let text = table(&small());
        assert!(
            text.starts_with("list-full-scan (90.0s simulated)"),
            "{text}"
        );
        assert!(text.contains("first LIST"), "{text}");
        assert!(text.contains("memory limit"), "{text}");
        assert!(text.contains("not crossed"), "{text}");
    }
}
