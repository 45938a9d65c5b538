//! `flywheel size`: the user's counts, run through the engine ([`flywheel_engine::sizing`]).

use clap::{Args, ValueEnum};
use flywheel_engine::scenario::units::parse_bytes;
use flywheel_engine::sizing::{Family, KindCount, SizeInput};

/// Which preset family to size (`--family`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FamilyArg {
    /// Seed 001: Reconcile lists every Pod from a cluster-wide cache
    ListFullScan,
    /// Seed 000: the write loop at production scale
    Incident,
}

impl From<FamilyArg> for Family {
    fn from(f: FamilyArg) -> Family {
        match f {
            FamilyArg::ListFullScan => Family::ListFullScan,
            FamilyArg::Incident => Family::Incident,
        }
    }
}

/// The kind an `--objects` value counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// `pods=…`: the cluster's Pods.
    Pods,
    /// Any other name (`mycrd=…`): the custom resources.
    Custom,
}

/// One `--objects KIND=COUNT:SIZE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjectsArg {
    /// Which kind.
    pub kind: ObjectKind,
    /// How many and how large.
    pub count: KindCount,
}

/// What `size` was asked to do.
#[derive(Clone, Debug, PartialEq, Args)]
pub struct SizeArgs {
    /// The preset family the numbers run in
    #[arg(long, value_enum, default_value_t = FamilyArg::ListFullScan)]
    pub family: FamilyArg,
    /// Objects of a kind and their average size: pods=COUNT:SIZE for Pods, any other name
    /// (e.g. mycrd=50000:16Ki) for the custom resources; SIZE like 4096, 16Ki or 16KiB
    #[arg(long, value_name = "KIND=COUNT:SIZE", value_parser = objects)]
    pub objects: Vec<ObjectsArg>,
    /// Namespaces the objects and Pods are spread over
    #[arg(long, value_name = "N", value_parser = whole)]
    pub namespaces: Option<u32>,
    /// MaxConcurrentReconciles
    #[arg(long, value_name = "N", value_parser = whole)]
    pub workers: Option<u32>,
    /// The operator's client-side QPS (a negative value turns the limiter off)
    #[arg(long, value_name = "QPS", value_parser = qps, allow_negative_numbers = true)]
    pub qps: Option<f64>,
    /// The operator container's memory limit, e.g. 2Gi
    #[arg(long, value_name = "SIZE", value_parser = size_value)]
    pub limit: Option<u64>,
    /// Print the numbers as one JSON object
    #[arg(long, conflicts_with = "emit_scenario")]
    pub json: bool,
    /// Print the scenario that was run, as a scenario file (TOML), instead of the numbers
    #[arg(long)]
    pub emit_scenario: bool,
}

impl SizeArgs {
    /// The engine's input; a kind given twice is refused, naming the flag.
    pub fn input(&self) -> Result<SizeInput, String> {
        let mut input = SizeInput::new(self.family.into());
        for o in &self.objects {
            let slot = match o.kind {
                ObjectKind::Pods => &mut input.pods,
                ObjectKind::Custom => &mut input.custom,
            };
            if slot.replace(o.count).is_some() {
                let which = match o.kind {
                    ObjectKind::Pods => "pods",
                    ObjectKind::Custom => "the custom resources",
                };
                return Err(format!(
                    "invalid value for '--objects': {which} are given twice (one --objects for \
                     pods and one for the custom resources)"
                ));
            }
        }
        input.namespaces = self.namespaces;
        input.workers = self.workers;
        input.qps = self.qps;
        input.memory_limit_bytes = self.limit;
        Ok(input)
    }
}

/// The flag an engine input comes from.
pub fn flag_of(input: &str) -> &'static str {
    match input {
        "objects" => "--objects",
        "namespaces" => "--namespaces",
        "workers" => "--workers",
        "qps" => "--qps",
        "limit" => "--limit",
        _ => "--family",
    }
}

/// `--objects KIND=COUNT:SIZE`.
fn objects(arg: &str) -> Result<ObjectsArg, String> {
    let shape = "expected KIND=COUNT:SIZE, e.g. pods=20000:8Ki or mycrd=50000:16Ki";
    let (kind, rest) = arg.split_once('=').ok_or(shape)?;
    let (count, size) = rest.split_once(':').ok_or(shape)?;
    let kind = match kind.trim() {
        "pods" | "pod" | "Pods" | "Pod" => ObjectKind::Pods,
        k if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric()) => ObjectKind::Custom,
        _ => {
            return Err(format!(
                "{shape}: KIND is pods or the custom resource's name"
            ))
        }
    };
    let objects = whole(count).map_err(|e| format!("COUNT {e}"))?;
    let size_bytes = size_value(size).map_err(|e| format!("SIZE: {e}"))?;
    Ok(ObjectsArg {
        kind,
        count: KindCount {
            objects,
            size_bytes,
        },
    })
}

/// A count: a whole number (its range is the setting's, checked by the scenario).
fn whole(arg: &str) -> Result<u32, String> {
    arg.trim().parse().map_err(|_| {
        format!(
            "must be a whole number from 0 to {} (got '{arg}')",
            u32::MAX
        )
    })
}

/// `--qps`: a number.
fn qps(arg: &str) -> Result<f64, String> {
    arg.trim()
        .parse::<f64>()
        .ok()
        .filter(|q| q.is_finite())
        .ok_or(format!("must be a number such as 20 (got '{arg}')"))
}

/// A size: `4096`, `16Ki`, `16KiB`, `2Gi`.
fn size_value(arg: &str) -> Result<u64, String> {
    let trimmed = arg.trim();
    let plain = trimmed
        .strip_suffix("iB")
        .map_or(trimmed.to_owned(), |s| format!("{s}i"));
    parse_bytes(&plain)
}

/// Checks the numbers the way the run will: the family's scenario with them at their settings
/// paths, validated; the error names the flag, the setting and what it accepts.
pub fn check(args: &SizeArgs) -> Result<SizeInput, String> {
    let input = args.input()?;
    flywheel_engine::sizing::build(&input)
        .map_err(|e| format!("invalid value for '{}': {}", flag_of(e.input), e.error))?;
    Ok(input)
}

#[cfg(test)]
mod tests {
    use super::super::{parse, Command};

    /// The error of `flywheel size <flags>` as clap writes it, and its exit status.
    fn error(flags: &str) -> (String, i32) {
        let argv = ["flywheel", "size"]
            .into_iter()
            .chain(flags.split_whitespace());
        let e = parse(argv).expect_err(flags);
        (e.to_string(), e.exit_code())
    }

    #[test]
    fn size_takes_objects_per_kind_and_the_other_numbers() {
        let argv = "flywheel size --family incident --objects mycrd=50000:16Ki --objects \
                    pods=20000:8KiB --namespaces 100 --workers 4 --qps 20 --limit 2Gi --json";
        let Ok(Some(Command::Size(a))) = parse(argv.split_whitespace()) else {
            panic!("expected size");
        };
        let input = a.input().expect("valid");
        assert_eq!(input.family, flywheel_engine::sizing::Family::Incident);
        assert_eq!(
            input.custom.map(|c| (c.objects, c.size_bytes)),
            Some((50_000, 16 * 1024))
        );
        assert_eq!(
            input.pods.map(|c| (c.objects, c.size_bytes)),
            Some((20_000, 8 * 1024))
        );
        assert_eq!(input.namespaces, Some(100));
        assert_eq!(input.workers, Some(4));
        assert_eq!(input.qps, Some(20.0));
        assert_eq!(input.memory_limit_bytes, Some(2 * 1024 * 1024 * 1024));
        assert!(a.json);
    }

    #[test]
    fn bad_size_flags_name_the_flag_and_what_it_accepts_with_exit_status_2() {
        let cases = [
            ("--workers 0", "'--workers': controller.workers: must be"),
            ("--workers many", "'--workers <N>': must be a whole number"),
            ("--objects pods", "expected KIND=COUNT:SIZE"),
            ("--objects pods=lots:8Ki", "COUNT must be a whole number"),
            ("--objects pods=10:8Zi", "unknown size unit"),
            (
                "--objects pods=900000:8Ki",
                "'--objects': pods.count: must be",
            ),
            (
                "--objects my-crd=10:4Ki",
                "KIND is pods or the custom resource's name",
            ),
            (
                "--objects pods=1:1Ki --objects pods=2:1Ki",
                "pods are given twice",
            ),
            ("--limit 1", "'--limit': process.memory_limit: must be"),
            (
                "--namespaces 0",
                "'--namespaces': objects.namespaces: must be",
            ),
            ("--qps 1e-9", "'--qps': client.qps: must be"),
            (
                "--family big",
                "[possible values: list-full-scan, incident]",
            ),
        ];
        for (flags, expected) in cases {
            let (message, status) = error(flags);
            assert!(message.contains(expected), "{flags}: {message}");
            assert_eq!(status, 2, "{flags}");
        }
    }
}
