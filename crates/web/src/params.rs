//! The parameters the page exposes as sliders, each with its unit, range and where it lives in a
//! [`Scenario`].

use std::time::Duration;

use flywheel_engine::controller::program::Step;
use flywheel_engine::scenario::Scenario;

use crate::i18n::Msg;
use crate::incident_params as ip;

/// How a slider's value is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A plain count.
    Count,
    /// Milliseconds.
    Millis,
    /// Requests per second; 0 means the limiter is off.
    PerSecondOrOff,
    /// Writes per second; 0 means no limit.
    PerSecondOrUnlimited,
    /// KiB.
    KiB,
    /// MiB; 0 means no limit.
    MiBOrNone,
    /// A switch: 0 off, 1 on.
    OnOff,
    /// Microseconds.
    Micros,
}

/// One slider.
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// The URL key, e.g. `objects`.
    pub key: &'static str,
    /// The label.
    pub label: Msg,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Step of the slider (in value units; log sliders step in their exponent).
    pub step: f64,
    /// Whether the slider is logarithmic.
    pub log: bool,
    /// The unit.
    pub unit: Unit,
    /// Reads the value from a scenario (`None` when the scenario has no such setting).
    pub get: fn(&Scenario) -> Option<f64>,
    /// Writes the value into a scenario.
    pub set: fn(&mut Scenario, f64),
}

const MIB: f64 = 1024.0 * 1024.0;

/// Every slider, in display order.
pub const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "objects",
        label: Msg::Objects,
        min: 1.0,
        max: 5000.0,
        step: 1.0,
        log: true,
        unit: Unit::Count,
        get: |s| Some(f64::from(s.objects.count)),
        set: |s, v| s.objects.count = v as u32,
    },
    ParamSpec {
        key: "logic",
        label: Msg::HeavyLogic,
        min: 0.0,
        max: 2000.0,
        step: 10.0,
        log: false,
        unit: Unit::Millis,
        get: |s| heavy_logic(s).map(|d| d.as_secs_f64() * 1000.0),
        set: set_heavy_logic,
    },
    ParamSpec {
        key: "workers",
        label: Msg::Workers,
        min: 1.0,
        max: 64.0,
        step: 1.0,
        log: false,
        unit: Unit::Count,
        get: |s| Some(f64::from(s.controller.workers)),
        set: |s, v| s.controller.workers = v as u32,
    },
    ParamSpec {
        key: "qps",
        label: Msg::ClientQps,
        min: 0.0,
        max: 500.0,
        step: 1.0,
        log: false,
        unit: Unit::PerSecondOrOff,
        get: |s| Some(s.client_rate_limit().map_or(0.0, |(q, _)| q)),
        set: |s, v| s.client.qps = Some(if v <= 0.0 { -1.0 } else { v }),
    },
    ParamSpec {
        key: "burst",
        label: Msg::ClientBurst,
        min: 1.0,
        max: 1000.0,
        step: 1.0,
        log: false,
        unit: Unit::Count,
        get: |s| Some(f64::from(s.client_rate_limit().map_or(10, |(_, b)| b))),
        set: |s, v| s.client.burst = Some(v as u32),
    },
    ParamSpec {
        key: "seats",
        label: Msg::ApfSeats,
        min: 1.0,
        max: 500.0,
        step: 1.0,
        log: false,
        unit: Unit::Count,
        get: |s| Some(f64::from(s.apiserver.seats)),
        set: |s, v| s.apiserver.seats = v as u32,
    },
    ParamSpec {
        key: "apfqueue",
        label: Msg::ApfQueue,
        min: 0.0,
        max: 6400.0,
        step: 10.0,
        log: false,
        unit: Unit::Count,
        get: |s| Some(f64::from(s.apiserver.queue_capacity)),
        set: |s, v| s.apiserver.queue_capacity = v as u32,
    },
    ParamSpec {
        key: "etcd",
        label: Msg::EtcdWrites,
        min: 0.0,
        max: 5000.0,
        step: 10.0,
        log: false,
        unit: Unit::PerSecondOrUnlimited,
        get: |s| Some(s.apiserver.etcd_writes_per_second),
        set: |s, v| s.apiserver.etcd_writes_per_second = v.max(0.0),
    },
    ParamSpec {
        key: "size",
        label: Msg::ObjectSize,
        min: 1.0,
        max: 1024.0,
        step: 1.0,
        log: true,
        unit: Unit::KiB,
        get: |s| Some(s.objects.size_bytes as f64 / 1024.0),
        set: |s, v| s.objects.size_bytes = (v * 1024.0) as u64,
    },
    ParamSpec {
        key: "mem",
        label: Msg::MemoryLimit,
        min: 0.0,
        max: 2048.0,
        step: 16.0,
        log: false,
        unit: Unit::MiBOrNone,
        get: |s| Some(s.process.memory_limit.map_or(0.0, |b| b as f64 / MIB)),
        set: |s, v| {
            s.process.memory_limit = (v >= 16.0).then_some((v * MIB) as u64);
        },
    },
    ParamSpec {
        key: "fieldindex",
        label: Msg::FixFieldIndex,
        min: 0.0,
        max: 1.0,
        step: 1.0,
        log: false,
        unit: Unit::OnOff,
        get: ip::get_field_index,
        set: ip::set_field_index,
    },
    ParamSpec {
        key: "nscache",
        label: Msg::FixNamespacedCache,
        min: 0.0,
        max: 1.0,
        step: 1.0,
        log: false,
        unit: Unit::OnOff,
        get: ip::get_namespaced,
        set: ip::set_namespaced,
    },
    ParamSpec {
        key: "metaonly",
        label: Msg::FixMetadataOnly,
        min: 0.0,
        max: 1.0,
        step: 1.0,
        log: false,
        unit: Unit::OnOff,
        get: ip::get_metadata_only,
        set: ip::set_metadata_only,
    },
    ParamSpec {
        key: "stopwatch",
        label: Msg::FixStopWatch,
        min: 0.0,
        max: 1.0,
        step: 1.0,
        log: false,
        unit: Unit::OnOff,
        get: ip::get_stop_watch,
        set: ip::set_stop_watch,
    },
    ParamSpec {
        key: "logcounts",
        label: Msg::FixLogCounts,
        min: 0.0,
        max: 1.0,
        step: 1.0,
        log: false,
        unit: Unit::OnOff,
        get: ip::get_log_counts,
        set: ip::set_log_counts,
    },
    ParamSpec {
        key: "timeout",
        label: Msg::FixTimeout,
        min: 0.0,
        max: 1.0,
        step: 1.0,
        log: false,
        unit: Unit::OnOff,
        get: ip::get_timeout,
        set: ip::set_timeout,
    },
    ParamSpec {
        key: "safefinalizer",
        label: Msg::FixSafeFinalizer,
        min: 0.0,
        max: 1.0,
        step: 1.0,
        log: false,
        unit: Unit::OnOff,
        get: ip::get_safe_finalizer,
        set: ip::set_safe_finalizer,
    },
    ParamSpec {
        key: "pressurecheck",
        label: Msg::FixPressureCheck,
        min: 0.0,
        max: 1.0,
        step: 1.0,
        log: false,
        unit: Unit::OnOff,
        get: ip::get_pressure_check,
        set: ip::set_pressure_check,
    },
    ParamSpec {
        key: "handler",
        label: Msg::HandlerCost,
        min: 10.0,
        max: 5000.0,
        step: 10.0,
        log: true,
        unit: Unit::Micros,
        get: ip::get_handler_cost,
        set: ip::set_handler_cost,
    },
];

/// Whether `p` is one of the seed-001/004 incidents' switches ([`crate::incident_params`]).
pub fn is_incident_switch(p: &ParamSpec) -> bool {
    matches!(p.unit, Unit::OnOff | Unit::Micros)
}

/// The slider named `key`.
pub fn spec(key: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().find(|p| p.key == key)
}

impl ParamSpec {
    /// Whether `v` is allowed (in range, and whole where the step is whole).
    pub fn accepts(&self, v: f64) -> bool {
        v.is_finite()
            && v >= self.min
            && v <= self.max
            && (self.step.fract() != 0.0 || v.fract() == 0.0)
    }

    /// Why `raw` is refused, in the words of the engine's validation (`must be a whole number
    /// from 1 to 64 (got 1.5)`).
    pub fn refusal(&self, raw: &str) -> String {
        let what = if self.step.fract() == 0.0 {
            "a whole number"
        } else {
            "a number"
        };
        format!(
            "must be {what} from {} to {} (got {raw})",
            self.min, self.max
        )
    }

    /// The slider position (0..=1000) of a value.
    pub fn to_position(&self, v: f64) -> f64 {
        let f = if self.log {
            (v.max(self.min).ln() - self.min.ln()) / (self.max.ln() - self.min.ln())
        } else {
            (v - self.min) / (self.max - self.min)
        };
        (f.clamp(0.0, 1.0) * 1000.0).round()
    }

    /// The value at a slider position (0..=1000), snapped to the step.
    pub fn from_position(&self, pos: f64) -> f64 {
        let f = (pos / 1000.0).clamp(0.0, 1.0);
        let v = if self.log {
            (self.min.ln() + f * (self.max.ln() - self.min.ln())).exp()
        } else {
            self.min + f * (self.max - self.min)
        };
        ((v / self.step).round() * self.step).clamp(self.min, self.max)
    }

    /// The value with its unit, e.g. `200 ms`, `4 KiB`, `off`.
    pub fn format(&self, v: f64, off: &str, none: &str) -> String {
        match self.unit {
            Unit::Count => format!("{v:.0}"),
            Unit::Millis => format!("{v:.0} ms"),
            Unit::PerSecondOrOff if v <= 0.0 => off.to_owned(),
            Unit::PerSecondOrOff => format!("{v:.0}/s"),
            Unit::PerSecondOrUnlimited if v <= 0.0 => none.to_owned(),
            Unit::PerSecondOrUnlimited => format!("{v:.0}/s"),
            Unit::KiB => format!("{v:.0} KiB"),
            Unit::MiBOrNone if v < 16.0 => none.to_owned(),
            Unit::MiBOrNone => format!("{v:.0} MiB"),
            Unit::OnOff if v < 0.5 => off.to_owned(),
            Unit::OnOff => "✓".to_owned(),
            Unit::Micros => format!("{v:.0} µs"),
        }
    }
}

fn heavy_logic(s: &Scenario) -> Option<Duration> {
    s.reconcile.steps.iter().find_map(|st| match st {
        Step::HeavyLogic { duration, .. } => Some(*duration),
        _ => None,
    })
}

fn set_heavy_logic(s: &mut Scenario, ms: f64) {
    for st in &mut s.reconcile.steps {
        if let Step::HeavyLogic { duration, .. } = st {
            *duration = Duration::from_millis(ms.max(0.0) as u64);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flywheel_engine::scenario::presets;

    #[test]
    fn every_param_reads_back_what_it_writes() {
        let all: Vec<_> = presets::names()
            .map(|n| presets::load(n, &[]).expect("preset"))
            .collect();
        for p in PARAMS {
            // the first preset that has the setting (the incidents' switches only show there)
            let mut s = all
                .iter()
                .find(|s| (p.get)(s).is_some())
                .expect("some preset has every setting")
                .clone();
            let v = p.from_position(500.0);
            (p.set)(&mut s, v);
            let got = (p.get)(&s).expect("the preset has the setting");
            assert!((got - v).abs() < 1e-6, "{}: {got} != {v}", p.key);
            s.validate().unwrap_or_else(|e| panic!("{}: {e}", p.key));
        }
    }

    #[test]
    fn positions_round_trip_at_the_ends() {
        for p in PARAMS {
            assert_eq!(p.from_position(0.0), p.min, "{}", p.key);
            assert_eq!(p.from_position(1000.0), p.max, "{}", p.key);
            assert_eq!(p.to_position(p.max), 1000.0, "{}", p.key);
        }
    }
}
