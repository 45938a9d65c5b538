//! The operator side of the cluster: the operator's container (its Go process and memory), the
//! operator running in it, the parts of dead incarnations still being freed, and the flags that
//! keep the worker loop from re-entering itself.

use crate::scenario::{Scenario, ScenarioError};

use super::memory::SimProcess;
use super::operator::Operator;
use super::release::DeadPart;

/// The operator's Pod: its process and the operator incarnation it runs, if any.
#[derive(Clone)]
pub(super) struct OperatorSide {
    /// The container's Go process (heap, GC, memory limit).
    pub(super) process: SimProcess,
    /// The running operator; none while the container is down.
    pub(super) running: Option<Operator>,
    /// Parts of dead operators not freed yet ([`super::release`]).
    pub(super) dead: Vec<DeadPart>,
    /// Operator incarnations started so far.
    pub(super) incarnations: u64,
    /// Whether the worker loop's kick is running (a finished reconcile asks it again).
    pub(super) kicking_workers: bool,
    /// Whether a worker was freed while the kick was running.
    pub(super) kick_again: bool,
    /// The workers a kick started, before each runs (kept empty between kicks, for its room).
    pub(super) started_workers: Vec<usize>,
}

impl OperatorSide {
    /// The operator side of a validated scenario, before its container starts.
    pub(super) fn new(scenario: &Scenario) -> Result<OperatorSide, ScenarioError> {
        Ok(OperatorSide {
            process: SimProcess::new(scenario)?,
            running: None,
            dead: Vec::new(),
            incarnations: 0,
            kicking_workers: false,
            kick_again: false,
            started_workers: Vec::new(),
        })
    }

    /// The running operator's incarnation.
    pub(super) fn incarnation(&self) -> Option<u64> {
        self.running.as_ref().map(|o| o.incarnation)
    }

    /// Whether `incarnation` is the running operator (an event of a dead one is dropped).
    pub(super) fn is_current(&self, incarnation: u64) -> bool {
        self.incarnation() == Some(incarnation)
    }

    /// Starts the next incarnation's count and returns its number.
    pub(super) fn next_incarnation(&mut self) -> u64 {
        self.incarnations += 1;
        self.incarnations
    }
}
