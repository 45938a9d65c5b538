//! Durations (`50ms`, `1m30s`, `2.5s`) and byte sizes (`512Mi`, `2Gi`, `4096`) as scenario files
//! and `--set` write them.

use crate::float_text::Fixed;
use std::fmt::Write as _;
use std::time::Duration;

/// Parses a Go-style duration: one or more `<number><unit>` with units `ns`, `us`, `ms`, `s`, `m`,
/// `h`; a bare `0` is zero.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let s = text.trim();
    if s == "0" {
        return Ok(Duration::ZERO);
    }
    if s.is_empty() {
        return Err("expected a duration such as 50ms, 2.5s, 10m or 1h30m (got nothing)".into());
    }
    let mut total_ns = 0f64;
    let mut rest = s;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let unit_len = rest[num_len..]
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len() - num_len);
        let (num, unit) = (&rest[..num_len], &rest[num_len..num_len + unit_len]);
        let value: f64 = num.parse().map_err(|_| bad_duration(text))?;
        let scale = match unit {
            "ns" => 1.0,
            "us" | "µs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return Err(bad_duration(text)),
        };
        total_ns += value * scale;
        rest = &rest[num_len + unit_len..];
    }
    if !total_ns.is_finite() || total_ns > 1e18 {
        return Err(format!("duration '{text}' is too long (at most 10000h)"));
    }
    Ok(Duration::from_nanos(total_ns.round() as u64))
}

fn bad_duration(text: &str) -> String {
    format!("expected a duration such as 50ms, 2.5s, 10m or 1h30m (got '{text}')")
}

/// Formats a duration the way [`parse_duration`] reads it (`1m30s`, `250ms`, `0`).
pub fn format_duration(d: Duration) -> String {
    // the count of nanoseconds is written from its whole seconds and the rest (`secs` then the
    // rest's digits), which is the count's text without 128-bit arithmetic
    let (secs, sub_ns) = (d.as_secs(), d.subsec_nanos());
    if sub_ns != 0 {
        let (count, width, unit) = if sub_ns % 1_000_000 == 0 {
            (sub_ns / 1_000_000, 3, "ms")
        } else {
            (sub_ns, 9, "ns")
        };
        return if secs == 0 {
            format!("{count}{unit}")
        } else {
            format!("{secs}{count:0width$}{unit}")
        };
    }
    if secs == 0 {
        return "0".into();
    }
    let (h, m, s) = (secs / 3600, (secs % 3600) / 60, secs % 60);
    let mut out = String::new();
    if h > 0 {
        let _ = write!(out, "{h}h");
    }
    if m > 0 {
        let _ = write!(out, "{m}m");
    }
    if s > 0 {
        let _ = write!(out, "{s}s");
    }
    out
}

/// Parses a byte size: a plain number, or a number with `Ki`, `Mi`, `Gi` (powers of 1024) or `k`,
/// `M`, `G` (powers of 1000), as Kubernetes quantities.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let s = text.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let value: f64 = num
        .parse()
        .map_err(|_| format!("expected a size such as 4096, 64Ki, 512Mi or 2Gi (got '{text}')"))?;
    let scale = match unit {
        "" => 1.0,
        "Ki" => 1024.0,
        "Mi" => 1024.0 * 1024.0,
        "Gi" => 1024.0 * 1024.0 * 1024.0,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        _ => {
            return Err(format!(
                "unknown size unit '{unit}' in '{text}' (allowed: Ki, Mi, Gi, k, M, G)"
            ))
        }
    };
    let bytes = value * scale;
    if !bytes.is_finite() || bytes > 1e15 {
        return Err(format!("size '{text}' is too large (at most 1P)"));
    }
    Ok(bytes.round() as u64)
}

/// Formats a byte size with a binary unit (`512Mi`, `1.5Gi`, `300`).
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [(&str, f64); 3] = [("Gi", 1_073_741_824.0), ("Mi", 1_048_576.0), ("Ki", 1024.0)];
    for (unit, scale) in UNITS {
        let v = bytes as f64 / scale;
        if v >= 1.0 {
            return if v.fract() == 0.0 {
                format!("{}{unit}", Fixed(v, 0))
            } else {
                format!("{}{unit}", Fixed(v, 1))
            };
        }
    }
    bytes.to_string()
}

/// A byte count written exactly, in the largest unit that divides it (`1700Mi`, `4Ki`, `1000`),
/// so that [`parse_bytes`] reads back the same count.
pub fn exact_bytes(bytes: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)];
    UNITS
        .iter()
        .find(|(_, scale)| bytes != 0 && bytes % scale == 0)
        .map_or_else(
            || bytes.to_string(),
            |(unit, scale)| format!("{}{unit}", bytes / scale),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_size_reads_back_as_the_same_count() {
        for b in [0, 1, 1000, 4096, 1_782_579_200, 2 << 30, (1 << 30) + 1] {
            assert_eq!(parse_bytes(&exact_bytes(b)), Ok(b), "{}", exact_bytes(b));
        }
        assert_eq!(exact_bytes(1_782_579_200), "1700Mi");
    }

    #[test]
    fn go_style_durations_parse_to_the_same_instant_they_name() {
        assert_eq!(parse_duration("50ms"), Ok(Duration::from_millis(50)));
        assert_eq!(parse_duration("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("2.5s"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
    }

    #[test]
    fn a_bad_duration_names_what_is_allowed() {
        for bad in ["", "10", "5 minutes", "1x", "ms", "1.2.3s"] {
            let err = parse_duration(bad).expect_err(bad);
            assert!(err.contains("50ms, 2.5s, 10m"), "{bad}: {err}");
        }
        assert!(parse_duration("99999999h").is_err());
    }

    #[test]
    fn durations_round_trip_through_their_text_form() {
        for d in [
            Duration::from_secs(90),
            Duration::from_millis(250),
            Duration::from_secs(7200),
            Duration::ZERO,
        ] {
            assert_eq!(parse_duration(&format_duration(d)), Ok(d));
        }
    }

    #[test]
    fn a_duration_text_is_its_whole_count_of_milliseconds_or_nanoseconds_when_not_whole_seconds() {
        // what the text says, from the 128-bit count of nanoseconds
        let by_count = |d: Duration| {
            let ns = d.as_nanos();
            match (ns % 1_000_000_000, ns % 1_000_000) {
                (0, _) => None,
                (_, 0) => Some(format!("{}ms", ns / 1_000_000)),
                _ => Some(format!("{ns}ns")),
            }
        };
        let secs = [0, 1, 59, 61, 3_600, 86_399, 18_446_744_073, u64::MAX];
        let subs = [
            0,
            1,
            999,
            1_000_000,
            5_000_000,
            250_000_001,
            999_000_000,
            999_999_999,
        ];
        for s in secs {
            for sub in subs {
                let d = Duration::new(s, sub);
                match by_count(d) {
                    Some(want) => assert_eq!(format_duration(d), want, "{d:?}"),
                    None if s == 0 => assert_eq!(format_duration(d), "0"),
                    // whole seconds: hours, minutes and seconds (the test above)
                    None => {}
                }
            }
        }
    }

    #[test]
    fn sizes_follow_kubernetes_quantity_suffixes() {
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("64Ki"), Ok(65536));
        assert_eq!(parse_bytes("512Mi"), Ok(512 * 1048576));
        assert_eq!(parse_bytes("1.5Gi"), Ok(1610612736));
        assert_eq!(parse_bytes("2M"), Ok(2_000_000));
        assert!(parse_bytes("12Xi")
            .expect_err("bad unit")
            .contains("allowed: Ki, Mi, Gi"));
        assert_eq!(format_bytes(512 * 1048576), "512Mi");
    }
}
