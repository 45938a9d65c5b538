//! Value parsers of the command line's flags: each error says what the flag accepts; clap puts
//! the flag's name in front of it (`invalid value 'x' for '--duration <D>': …`).

use std::path::PathBuf;
use std::time::Duration;

use flywheel_engine::cluster::intervention::Intervention;
use flywheel_engine::scenario::{split_set, units::parse_duration, Profile};
use flywheel_engine::settings;

/// The longest `--duration` a run takes: one week.
const MAX_DURATION_S: u64 = 7 * 24 * 3600;

/// The most seeds one `swarm` runs.
pub const MAX_SWARM_SEEDS: u64 = 100_000_000;

/// `--set key=value`: the key must name a setting of the registry (the value is checked when the
/// scenario is loaded, by the scenario's validation).
pub fn set(arg: &str) -> Result<(String, String), String> {
    let (key, value) = split_set(arg).map_err(|e| format!("{}: {}", e.field, e.message))?;
    settings::check_path(&key).map_err(|e| format!("{} {}", e.field, e.message))?;
    Ok((key, value))
}

/// `--duration`: more than zero, at most a week.
pub fn run_duration(arg: &str) -> Result<Duration, String> {
    let d = parse_duration(arg)?;
    if d.is_zero() || d > Duration::from_secs(MAX_DURATION_S) {
        return Err("must be more than 0 and at most 168h".to_owned());
    }
    Ok(d)
}

/// `--at`: a simulated instant such as `90s` or `3m`.
pub fn instant(arg: &str) -> Result<Duration, String> {
    parse_duration(arg)
}

/// `--seed`, `--from`: any whole number a `u64` holds.
pub fn seed(arg: &str) -> Result<u64, String> {
    arg.parse()
        .map_err(|_| format!("must be a whole number from 0 to {}", u64::MAX))
}

/// `--seeds`: how many swarm seeds, at most [`MAX_SWARM_SEEDS`].
pub fn seed_count(arg: &str) -> Result<u64, String> {
    arg.parse()
        .ok()
        .filter(|n| *n <= MAX_SWARM_SEEDS)
        .ok_or(format!(
            "must be a whole number from 0 to {MAX_SWARM_SEEDS}"
        ))
}

/// `--max-events`: a whole number from 1.
pub fn max_events(arg: &str) -> Result<u64, String> {
    arg.parse()
        .ok()
        .filter(|n| *n > 0)
        .ok_or(format!("must be a whole number from 1 to {}", u64::MAX))
}

/// `--profile`: `seed` or `modern`.
pub fn profile(arg: &str) -> Result<Profile, String> {
    Profile::parse(arg)
}

/// `--plot`: a path ending in `.svg`.
pub fn svg_path(arg: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(arg);
    if p.extension().and_then(|e| e.to_str()) != Some("svg") {
        return Err("must name an .svg file".to_owned());
    }
    Ok(p)
}

/// `--do`: one of the actions [`flywheel_engine::cluster::intervention::DO_HELP`] lists.
pub fn action(arg: &str) -> Result<Intervention, String> {
    Intervention::parse(arg)
}

/// `--key`: `namespace/name`.
pub fn object_key(arg: &str) -> Result<String, String> {
    if arg.contains('/') {
        Ok(arg.to_owned())
    } else {
        Err("must be namespace/name".to_owned())
    }
}
