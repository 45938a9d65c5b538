//! The operator's pod: one container with a memory limit, killed by the kernel when its memory
//! goes over the limit, restarted by the kubelet with CrashLoopBackOff.
//!
//! ```text
//!  Running ──rss > limit──▶ Terminated(OOMKilled, 137) ──1st crash──▶ Running (restart now)
//!                                     │
//!                                     └──later crashes──▶ Waiting(CrashLoopBackOff{until}) ──▶ Running
//! ```
//!
//! **Where the kill happens.** The container's memory limit is the cgroup's `memory.max`
//! (cgroup v2; `memory.limit_in_bytes` in v1). When a charge would take the cgroup over it and
//! reclaim cannot make room, the kernel's cgroup OOM killer kills a process in it
//! (linux `mm/memcontrol.c` `mem_cgroup_out_of_memory`); the runtime reports exit code 137
//! (128 + SIGKILL) and the kubelet the reason `OOMKilled`. So the kill happens *at* the limit.
//! Seed 004 claims the kubelet kills at `usage/limit > 0.95` after sampling every 10 s; upstream
//! contradicts it: the kubelet has no such threshold and does not kill a container for its own
//! limit (the kernel does; the kubelet evicts pods under *node* memory pressure, a different
//! mechanism). 95 % is only a common alerting threshold.
//!
//! The model charges the container its process's RSS (page cache and kernel memory are not
//! modelled). Restart count and last terminated state follow `v1.ContainerStatus`
//! (`restartCount`, `lastState.terminated`), exported by kube-state-metrics as
//! `kube_pod_container_status_restarts_total` and
//! `kube_pod_container_status_last_terminated_reason`.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::crashloop::{CrashLoopBackOff, CrashLoopConfig};
use crate::error::ConfigError;
use crate::time::SimTime;

/// The exit code of a process killed by SIGKILL, as the OOM killer does (128 + 9).
pub const OOM_KILLED_EXIT_CODE: i32 = 137;

/// The exit code of a Go program that dies of an unrecovered panic (Go `runtime/panic.go`
/// `fatalpanic` → `exit(2)`).
pub const GO_PANIC_EXIT_CODE: i32 = 2;

/// The pod's settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PodConfig {
    /// `resources.limits.memory` in bytes; `None` = no limit. Must be > 0.
    pub memory_limit_bytes: Option<u64>,
    /// The kubelet's restart backoff.
    pub crash_loop: CrashLoopConfig,
}

impl PodConfig {
    /// Checks every field; the error names the field and the allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.memory_limit_bytes == Some(0) {
            return Err(ConfigError::new(
                "memory_limit_bytes",
                "must be greater than 0, or absent for no limit (got 0)",
            ));
        }
        self.crash_loop.validate()
    }
}

/// Why a container terminated (`ContainerStateTerminated.reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TerminationReason {
    /// Killed by the kernel's OOM killer.
    #[serde(rename = "OOMKilled")]
    OomKilled,
    /// Exited with a non-zero code (a panic, `os.Exit(1)`, a failed leader election…).
    Error,
    /// Exited with code 0 (restarted anyway under `restartPolicy: Always`).
    Completed,
}

impl TerminationReason {
    /// The reason as the API shows it: `OOMKilled`, `Error` or `Completed`.
    pub fn as_str(self) -> &'static str {
        match self {
            TerminationReason::OomKilled => "OOMKilled",
            TerminationReason::Error => "Error",
            TerminationReason::Completed => "Completed",
        }
    }
}

/// How a container ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContainerExit {
    /// Why.
    pub reason: TerminationReason,
    /// The exit code.
    pub exit_code: i32,
}

impl ContainerExit {
    /// Killed by the OOM killer: `OOMKilled`, 137.
    pub fn oom_killed() -> ContainerExit {
        ContainerExit {
            reason: TerminationReason::OomKilled,
            exit_code: OOM_KILLED_EXIT_CODE,
        }
    }

    /// Exited with `exit_code`: `Completed` for 0, `Error` otherwise.
    pub fn exited(exit_code: i32) -> ContainerExit {
        let reason = if exit_code == 0 {
            TerminationReason::Completed
        } else {
            TerminationReason::Error
        };
        ContainerExit { reason, exit_code }
    }
}

/// A terminated container (`v1.ContainerStateTerminated`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerminatedState {
    /// Why it terminated.
    pub reason: TerminationReason,
    /// Its exit code.
    pub exit_code: i32,
    /// When it started.
    pub started_at: SimTime,
    /// When it terminated.
    pub finished_at: SimTime,
}

/// Why a container is waiting (`v1.ContainerStateWaiting.reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WaitingReason {
    /// The kubelet holds the restart back: "back-off {wait} restarting failed container".
    CrashLoopBackOff {
        /// When the wait ends and the container restarts.
        until: SimTime,
        /// The wait.
        backoff: Duration,
    },
}

/// The container's state (`v1.ContainerState`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ContainerState {
    /// Running since `started_at`.
    Running {
        /// When it started.
        started_at: SimTime,
    },
    /// Terminated and about to be restarted without a wait (the first crash).
    Terminated(TerminatedState),
    /// Waiting to be restarted.
    Waiting(WaitingReason),
}

/// The operator's pod with its one container.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pod {
    config: PodConfig,
    state: ContainerState,
    restart_count: u32,
    last_terminated: Option<TerminatedState>,
    oom_kills: u64,
    crash_loop: CrashLoopBackOff,
}

impl Pod {
    /// A pod whose container started at `now`; rejects an invalid config.
    pub fn new(config: PodConfig, now: SimTime) -> Result<Pod, ConfigError> {
        config.validate()?;
        let crash_loop = CrashLoopBackOff::new(&config.crash_loop)?;
        Ok(Pod {
            config,
            state: ContainerState::Running { started_at: now },
            restart_count: 0,
            last_terminated: None,
            oom_kills: 0,
            crash_loop,
        })
    }

    /// The settings.
    pub fn config(&self) -> &PodConfig {
        &self.config
    }

    /// The container's memory limit.
    pub fn memory_limit_bytes(&self) -> Option<u64> {
        self.config.memory_limit_bytes
    }

    /// The container's state.
    pub fn state(&self) -> ContainerState {
        self.state
    }

    /// Whether the container runs.
    pub fn is_running(&self) -> bool {
        matches!(self.state, ContainerState::Running { .. })
    }

    /// Restarts so far (`kube_pod_container_status_restarts_total`).
    pub fn restart_count(&self) -> u32 {
        self.restart_count
    }

    /// OOM kills so far.
    pub fn oom_kills(&self) -> u64 {
        self.oom_kills
    }

    /// The last termination (`lastState.terminated`, or the current state if terminated).
    pub fn last_terminated(&self) -> Option<TerminatedState> {
        self.last_terminated
    }

    /// Why the container last terminated (`kube_pod_container_status_last_terminated_reason`).
    pub fn last_terminated_reason(&self) -> Option<TerminationReason> {
        self.last_terminated.map(|t| t.reason)
    }

    /// The waiting reason as kubectl shows it (`CrashLoopBackOff`), while waiting.
    pub fn waiting_reason(&self) -> Option<&'static str> {
        match self.state {
            ContainerState::Waiting(WaitingReason::CrashLoopBackOff { .. }) => {
                Some("CrashLoopBackOff")
            }
            _ => None,
        }
    }

    /// The kubelet's backoff for this container.
    pub fn crash_loop(&self) -> &CrashLoopBackOff {
        &self.crash_loop
    }

    /// The kernel's check: a running container whose memory `rss_bytes` is over the limit is
    /// OOMKilled at `now`. Returns when it restarts, if it was killed.
    pub fn check_oom(&mut self, rss_bytes: u64, now: SimTime) -> Option<SimTime> {
        let limit = self.config.memory_limit_bytes?;
        if rss_bytes <= limit || !self.is_running() {
            return None;
        }
        self.oom_kills = self.oom_kills.saturating_add(1);
        self.on_container_exit(ContainerExit::oom_killed(), now)
    }

    /// The running container exits at `now`: returns when the kubelet restarts it (`None` if it
    /// was not running).
    pub fn on_container_exit(&mut self, exit: ContainerExit, now: SimTime) -> Option<SimTime> {
        let ContainerState::Running { started_at } = self.state else {
            return None;
        };
        let terminated = TerminatedState {
            reason: exit.reason,
            exit_code: exit.exit_code,
            started_at,
            finished_at: now,
        };
        self.last_terminated = Some(terminated);
        let until = self.crash_loop.on_container_exit(now);
        self.state = if until > now {
            ContainerState::Waiting(WaitingReason::CrashLoopBackOff {
                until,
                backoff: self.crash_loop.last_wait(),
            })
        } else {
            ContainerState::Terminated(terminated)
        };
        Some(until)
    }

    /// When the container restarts, while it is down.
    pub fn next_restart_at(&self) -> Option<SimTime> {
        if self.is_running() {
            None
        } else {
            self.crash_loop.next_restart_at()
        }
    }

    /// Restarts the container if it is down and its restart time has come; returns whether it
    /// did. The restart count goes up by one.
    pub fn restart_if_due(&mut self, now: SimTime) -> bool {
        match self.next_restart_at() {
            Some(at) if now >= at => {
                self.state = ContainerState::Running { started_at: now };
                self.restart_count = self.restart_count.saturating_add(1);
                self.crash_loop.on_container_started();
                true
            }
            _ => false,
        }
    }
}
