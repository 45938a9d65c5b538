//! Renders run reports as a table, JSON, CSV or Prometheus text.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use flywheel_engine::cluster::report::RunReport;
use flywheel_engine::cluster::verdict::RunVerdict;

/// Peak value of a metric's series (its final value when it has none).
fn peak(r: &RunReport, key: &str) -> f64 {
    r.series
        .get(key)
        .and_then(|s| s.iter().map(|p| p.1).reduce(f64::max))
        .unwrap_or_else(|| r.metric(key))
}

/// A number as people read it: integers plainly, others with up to 4 significant decimals.
pub fn human(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else if v.abs() >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.4}")
    }
}

/// A header and one aligned row per metric with its final and peak value, per report.
pub fn table(reports: &[(&RunReport, f64)]) -> String {
    let mut out = String::new();
    for (r, wall) in reports {
        let _ = writeln!(
            out,
            "# {} (profile {}, seed {}): {:.0}s simulated in {:.2}s, {} events, trace {}",
            r.scenario, r.profile, r.seed, r.sim_seconds, wall, r.events, r.trace_hash
        );
    }
    for (r, _) in reports {
        let _ = writeln!(out, "# {}: {}", r.scenario, verdict_line(&r.verdict));
    }
    let keys: BTreeSet<&String> = reports.iter().flat_map(|(r, _)| r.metrics.keys()).collect();
    let width = keys.iter().map(|k| k.len()).max().unwrap_or(6).max(6);
    let mut header = format!("{:<width$}", "metric");
    for (r, _) in reports {
        let _ = write!(
            header,
            "  {:>14}  {:>14}",
            format!("{} final", short(&r.scenario)),
            "peak"
        );
    }
    let _ = writeln!(out, "{}", header.trim_end());
    for key in keys {
        let mut line = format!("{key:<width$}");
        for (r, _) in reports {
            let _ = write!(
                line,
                "  {:>14}  {:>14}",
                human(r.metric(key)),
                human(peak(r, key))
            );
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// `verdict looping (window 10s: 12.0 self-triggered enqueues/s, 24.0 writes/s, 31 so far)`.
pub fn verdict_line(v: &RunVerdict) -> String {
    let f = &v.figures;
    format!(
        "verdict {} (window {}s: {:.1} self-triggered enqueues/s, {:.1} writes/s, {} so far; pod {})",
        v.verdict, v.window_s, f.loop_rate, f.write_rate, f.loops, f.pod_state
    )
}

fn short(name: &str) -> String {
    name.chars().take(8).collect()
}

/// The JSON object of one run (`wall_seconds` added by the CLI).
pub fn json(r: &RunReport, wall_seconds: f64) -> String {
    let mut v = serde_json::to_value(r).unwrap_or(serde_json::Value::Null);
    if let Some(obj) = v.as_object_mut() {
        obj.insert("wall_seconds".into(), serde_json::json!(wall_seconds));
    }
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}

/// `scenario,metric,value` lines.
pub fn csv(reports: &[&RunReport]) -> String {
    let mut out = String::from("scenario,metric,value\n");
    for r in reports {
        let _ = writeln!(out, "{},\"verdict\",{}", r.scenario, r.verdict.verdict);
        for (k, v) in &r.metrics {
            let _ = writeln!(out, "{},\"{}\",{}", r.scenario, k.replace('"', "\"\""), v);
        }
    }
    out
}

/// Prometheus text exposition: `name{labels} value`, one run's values with a `scenario` label.
pub fn prom(reports: &[&RunReport]) -> String {
    let mut out = String::new();
    for r in reports {
        let _ = writeln!(
            out,
            "flywheel_verdict{{scenario=\"{}\",verdict=\"{}\"}} 1",
            r.scenario, r.verdict.verdict
        );
        for (k, v) in &r.metrics {
            let labeled = match k.find('{') {
                Some(i) => format!("{}{{scenario=\"{}\",{}", &k[..i], r.scenario, &k[i + 1..]),
                None => format!("{k}{{scenario=\"{}\"}}", r.scenario),
            };
            let _ = writeln!(out, "{labeled} {v}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use flywheel_engine::cluster::snapshot::OperatorPhase;
    use flywheel_engine::cluster::verdict::VerdictFigures;
    use flywheel_engine::vec_map::VecMap;

    fn report() -> RunReport {
        let mut metrics = VecMap::new();
        metrics.insert(
            "apiserver_request_total{code=\"200\",verb=\"PUT\"}".to_owned(),
            42.0,
        );
        metrics.insert("go_goroutines".to_owned(), 12.0);
        let mut series = VecMap::new();
        series.insert(
            "go_goroutines".to_owned(),
            vec![(0.0, 10.0), (1.0, 30.0), (2.0, 12.0)],
        );
        RunReport {
            scenario: "flywheel".into(),
            profile: "seed".into(),
            seed: 1,
            sim_seconds: 2.0,
            events: 100,
            metrics,
            series,
            trace_hash: "abc".into(),
            verdict: RunVerdict::of(VerdictFigures {
                time_s: 2.0,
                loops: 31,
                loop_rate: 12.0,
                operator_idle: Some(false),
                phase: Some(OperatorPhase::Running),
                ..VerdictFigures::default()
            }),
        }
    }

    #[test]
    fn the_table_shows_final_and_peak_values() {
        let t = table(&[(&report(), 0.5)]);
        let line = t
            .lines()
            .find(|l| l.starts_with("go_goroutines"))
            .expect("row present");
        assert!(line.contains("12") && line.contains("30"), "{line}");
    }

    #[test]
    fn the_table_csv_and_prometheus_text_carry_the_verdict() {
        let t = table(&[(&report(), 0.5)]);
        assert!(
            t.contains("# flywheel: verdict looping (window 10s: 12.0 self-triggered enqueues/s"),
            "{t}"
        );
        assert!(csv(&[&report()]).contains("flywheel,\"verdict\",looping\n"));
        let p = prom(&[&report()]);
        assert!(p.contains("flywheel_verdict{scenario=\"flywheel\",verdict=\"looping\"} 1"));
        let v: serde_json::Value = serde_json::from_str(&json(&report(), 1.0)).expect("JSON");
        assert_eq!(v["verdict"]["verdict"], "looping");
        assert_eq!(v["verdict"]["figures"]["loops"], 31);
    }

    #[test]
    fn prometheus_lines_carry_the_scenario_label_first() {
        let p = prom(&[&report()]);
        assert!(
            p.contains(
                "apiserver_request_total{scenario=\"flywheel\",code=\"200\",verb=\"PUT\"} 42"
            ),
            "{p}"
        );
        assert!(p.contains("go_goroutines{scenario=\"flywheel\"} 12"));
    }

    #[test]
    fn json_adds_wall_seconds_to_the_report() {
        let v: serde_json::Value = serde_json::from_str(&json(&report(), 1.5)).expect("valid JSON");
        assert_eq!(v["wall_seconds"], 1.5);
        assert_eq!(v["series"]["go_goroutines"][1][1], 30.0);
    }
}
