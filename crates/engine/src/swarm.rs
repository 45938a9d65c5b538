//! Swarm testing: one scenario per seed, its parameters drawn at random, run with the invariant
//! checkers on (see [`crate::cluster::invariants`]).
//!
//! [`scenario_for`] turns a seed into a valid scenario: one of the presets' reconcile programs,
//! random object and worker counts, limits and latencies, and fault injections drawn from what a
//! scenario can already say — container kills (`kill_operator` actions and tiny memory limits),
//! 429 storms (a few APF seats and a short queue), 410s (a tiny watch cache with a short fresh
//! window), conflicts (users editing and labelling the objects the operator writes) and
//! deployments mid-run (a rollout of another operator version, the CRD's `/status` switched, new
//! API server or client limits). The same seed always gives the same scenario and the same run,
//! so a failure replays from its seed: `flywheel swarm --seed N`.

use std::fmt::Write as _;
use std::time::Duration;

use crate::cluster::invariants::Violation;
use crate::cluster::run::{Run, RunOptions};
use crate::scenario::{
    presets, ActionKind, FifoKind, FlowControlMode, PredicateKind, Profile, QueueKind, Scenario,
    ScenarioError, ScheduledAction,
};
use crate::sim::Rng;

/// Events between two invariant checks in a swarm run.
pub const CHECK_EVERY: u64 = 16;

/// Event budget of one swarm run: a run that needs more is reported, not waited for.
pub const MAX_EVENTS: u64 = 3_000_000;

/// The one-line command that replays `seed`.
pub fn replay_command(seed: u64) -> String {
    format!("cargo run --release -p flywheel-cli -- swarm --seed {seed}")
}

/// A valid scenario whose every parameter is drawn from `seed`.
// One draw per parameter, in the order the seeds were blessed with (reordering would change
// every swarm seed), named as the parameters they set.
#[allow(clippy::too_many_lines, clippy::many_single_char_names)]
pub fn scenario_for(seed: u64) -> Scenario {
    let mut r = Rng::seeded(seed ^ 0x5357_4152_4d00_0000);
    // The seed-000 presets at small scale: the incident and the seed-001/004 workloads (Pods,
    // Nodes, large Lists) are too heavy for thousands of runs and have tests of their own.
    let names: Vec<&str> = presets::names()
        .filter(|n| *n != "seed-000-incident")
        .filter(|n| presets::load(n, &[]).is_ok_and(|s| s.group == "seed-000"))
        .collect();
    let preset = names[r.below(names.len() as u64) as usize];
    let mut s = match presets::load(preset, &[]) {
        Ok(s) => s,
        Err(e) => unreachable_preset(preset, &e),
    };
    s.name = format!("swarm-{seed}");
    s.seed = seed;
    s.duration = Duration::from_secs(20 + r.below(160));
    if r.chance(0.3) {
        s.profile = Profile::Modern;
    }
    s.crd.status_subresource = r.chance(0.5);

    let o = &mut s.objects;
    o.count = match r.below(10) {
        0 => 0,
        1..=6 => 1 + r.below(30) as u32,
        _ => 1 + r.below(200) as u32,
    };
    o.namespaces = 1 + r.below(4) as u32;
    o.size_bytes = 256 + r.below(64 * 1024);
    o.create_at = Duration::from_millis(r.below(3000));
    // Presets with owned Pods need room for them (pods.count ≥ objects × per_object).
    let (objects, object_namespaces) = (o.count, o.namespaces);
    let pods = &mut s.pods;
    // Keep the cluster small: a swarm run must stay short whatever preset it started from.
    pods.count = pods
        .count
        .min(2_000)
        .max(objects.saturating_mul(pods.per_object));
    if pods.count > 0 {
        pods.namespaces = pods.namespaces.max(object_namespaces);
    }

    let c = &mut s.controller;
    let max_workers = if r.chance(0.2) { 40 } else { 6 };
    c.workers = 1 + r.below(max_workers) as u32;
    c.predicates = [
        PredicateKind::GenerationChanged,
        PredicateKind::ResourceVersionChanged,
        PredicateKind::AnnotationChanged,
        PredicateKind::LabelChanged,
    ]
    .into_iter()
    .filter(|_| r.chance(0.2))
    .collect();
    c.fifo = pick(
        &mut r,
        &[
            None,
            Some(FifoKind::DeltaFifo),
            Some(FifoKind::RealFifo),
            Some(FifoKind::AtomicFifo),
        ],
    );
    c.queue = pick(
        &mut r,
        &[None, Some(QueueKind::Classic), Some(QueueKind::Priority)],
    );
    c.informer_cost_per_kib = Duration::from_micros(r.below(200));
    c.handler_cost = Duration::from_micros(r.below(500));
    c.cache_read_cost_per_kib = Duration::from_micros(r.below(50));

    if r.chance(0.5) {
        s.client.qps = Some(match r.below(3) {
            0 => -1.0,
            1 => 0.0,
            _ => 1.0 + r.below(100) as f64,
        });
        s.client.burst = Some(1 + r.below(50) as u32);
    }

    let a = &mut s.apiserver;
    a.flow_control = if r.chance(0.3) {
        FlowControlMode::MaxInFlight
    } else {
        FlowControlMode::Apf
    };
    if r.chance(0.4) {
        // A 429 storm: a handful of seats and a short queue.
        a.seats = 1 + r.below(4) as u32;
        a.queue_capacity = r.below(8) as u32;
        a.queue_wait = Duration::from_millis(1 + r.below(2000));
        a.max_requests_in_flight = 1 + r.below(4) as u32;
        a.max_mutating_requests_in_flight = 1 + r.below(3) as u32;
    }
    if r.chance(0.3) {
        a.etcd_writes_per_second = 1.0 + r.below(200) as f64;
    }
    a.watch_latency = Duration::from_millis(r.below(300));
    a.latency.jitter_fraction = if r.chance(0.5) {
        r.next_f64() * 0.9
    } else {
        0.0
    };
    if r.chance(0.4) {
        // 410s: a tiny watch cache whose events turn stale fast.
        a.watch_cache.lower_capacity = 1 + r.below(8) as usize;
        a.watch_cache.upper_capacity = a.watch_cache.lower_capacity + r.below(16) as usize;
        a.watch_cache.event_fresh_duration_s = 0.05 + r.next_f64() * 2.0;
    }

    let p = &mut s.process;
    if r.chance(0.25) {
        // OOM kills: a limit just above the baseline.
        p.memory_limit = Some(p.baseline + (1 + r.below(24)) * 1024 * 1024);
    }
    p.gogc = pick(&mut r, &[0, 25, 100, 400]);

    s.actions.clear();
    let kinds = [
        ActionKind::EditSpec,
        ActionKind::Label,
        ActionKind::Delete,
        ActionKind::KillOperator,
        ActionKind::Rollout,
        ActionKind::SetStatusSubresource,
        ActionKind::SetApiLimits,
    ];
    for _ in 0..r.below(6) {
        let action = kinds[r.below(kinds.len() as u64) as usize];
        let at = Duration::from_millis(r.below(s.duration.as_millis() as u64 + 1));
        let to = change_to(&mut r, action);
        let count = if to.is_none() && r.chance(0.7) {
            Some(r.below(8) as u32)
        } else {
            None
        };
        s.actions.push(ScheduledAction {
            count,
            to,
            ..ScheduledAction::once(at, action)
        });
    }
    s
}

/// Operator versions a swarm rollout deploys: a preset's, or the running one with fixes switched
/// (`flywheel run --do rollout:…`).
const ROLLOUTS: [&str; 7] = [
    "fixed",
    "flywheel",
    "predicate=on",
    "predicate=off,guard=off",
    "guard=on,timestamp=off",
    "write=patch",
    "subresource=on,status=patch",
];

/// What a `rollout`, `set_status_subresource` or `set_api_limits` action changes to, in the words
/// of `flywheel run --do` after its colon; `None` for the other actions.
fn change_to(r: &mut Rng, action: ActionKind) -> Option<String> {
    match action {
        ActionKind::Rollout => Some(pick(r, &ROLLOUTS).to_owned()),
        ActionKind::SetStatusSubresource => Some(pick(r, &["on", "off"]).to_owned()),
        ActionKind::SetApiLimits => Some(match r.below(3) {
            0 => format!("seats={}", 1 + r.below(8)),
            1 => format!(
                "max_requests_in_flight={},max_mutating_requests_in_flight={}",
                1 + r.below(8),
                1 + r.below(4)
            ),
            _ => format!(
                "client_qps={},client_burst={}",
                1 + r.below(50),
                1 + r.below(50)
            ),
        }),
        _ => None,
    }
}

fn pick<T: Clone>(r: &mut Rng, options: &[T]) -> T {
    options[r.below(options.len() as u64) as usize].clone()
}

fn unreachable_preset(name: &str, e: &ScenarioError) -> ! {
    // The presets are embedded and checked by their own tests.
    panic!("embedded preset {name} does not load: {e}")
}

/// What one swarm seed did.
#[derive(Clone, Debug)]
pub struct SwarmOutcome {
    /// The seed.
    pub seed: u64,
    /// The scenario's preset-derived name.
    pub scenario: String,
    /// Events handled.
    pub events: u64,
    /// The trace hash.
    pub trace_hash: u64,
    /// Invariant checks that ran.
    pub checks: u64,
    /// Checks that compared the cache with the server.
    pub convergence_checks: u64,
    /// What went wrong: violations, an invalid generated scenario, or a spent event budget.
    pub failures: Vec<String>,
}

impl SwarmOutcome {
    /// Whether the seed passed.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// A report of a failed seed: its failures and the command that replays it.
    pub fn failure_report(&self) -> String {
        format!(
            "swarm seed {} ({}) failed:\n  {}\nreplay: {}",
            self.seed,
            self.scenario,
            self.failures.join("\n  "),
            replay_command(self.seed)
        )
    }
}

/// Runs seed `seed`'s scenario with invariant checks every [`CHECK_EVERY`] events.
pub fn run_seed(seed: u64) -> SwarmOutcome {
    let scenario = scenario_for(seed);
    let mut outcome = SwarmOutcome {
        seed,
        scenario: scenario.name.clone(),
        events: 0,
        trace_hash: 0,
        checks: 0,
        convergence_checks: 0,
        failures: Vec::new(),
    };
    let options = RunOptions {
        max_events: Some(MAX_EVENTS),
        ..RunOptions::default()
    };
    let mut run = match Run::new(scenario, &options) {
        Ok(run) => run,
        Err(e) => {
            outcome
                .failures
                .push(format!("generated an invalid scenario: {e}"));
            return outcome;
        }
    };
    run.check_invariants_every(CHECK_EVERY);
    while !run.advance(100_000) {}
    run.check_invariants_now();
    if run.budget_exhausted() {
        outcome.failures.push(format!(
            "spent its event budget of {MAX_EVENTS} events at {}",
            run.now()
        ));
    }
    outcome.events = run.events();
    outcome.trace_hash = run.trace().hash();
    if let Some(c) = run.invariant_checker() {
        outcome.checks = c.checks();
        outcome.convergence_checks = c.convergence_checks();
        outcome
            .failures
            .extend(c.violations().iter().map(Violation::to_string));
        if c.violation_count() > c.violations().len() as u64 {
            outcome
                .failures
                .push(format!("… {} violations in all", c.violation_count()));
        }
    }
    outcome
}

/// How long each preset runs for the cross-target determinism table: long enough to go through
/// the informer, the workqueue, the workers and the API server many times, short enough that
/// 100 seeds of every preset run in seconds in a browser.
pub fn determinism_duration(preset: &str) -> Duration {
    if preset == "seed-000-incident" {
        Duration::from_secs(3)
    } else {
        Duration::from_secs(8)
    }
}

/// Seeds of the determinism table.
pub const DETERMINISM_SEEDS: u64 = 100;

/// The trace hash of `preset` run for [`determinism_duration`] with `seed`, and its event count.
pub fn preset_trace_hash(preset: &str, seed: u64) -> Result<(u64, u64), ScenarioError> {
    // Applied to the struct, not as `--set` text: the page's engine has no TOML parser.
    let mut scenario = presets::load(preset, &[])?;
    if preset == "seed-000-incident" {
        scenario.objects.count = 300;
    }
    let options = RunOptions {
        duration: Some(determinism_duration(preset)),
        seed: Some(seed),
        ..RunOptions::default()
    };
    let mut run = Run::new(scenario, &options)?;
    while !run.advance(1_000_000) {}
    Ok((run.trace().hash(), run.events()))
}

/// The determinism table: one line `preset seed hash events` per preset and seed.
pub fn determinism_table() -> Result<String, ScenarioError> {
    let mut out = String::new();
    for name in presets::names() {
        for seed in 0..DETERMINISM_SEEDS {
            let (hash, events) = preset_trace_hash(name, seed)?;
            let _ = writeln!(out, "{name} {seed} {hash:016x} {events}");
        }
    }
    Ok(out)
}
