//! The operator's process exits on an unrecovered panic in `Reconcile` (controller-runtime
//! `pkg/internal/controller/controller.go` `Reconcile` re-panics when `RecoverPanic` is off, and
//! the Go runtime ends the process with exit code 2); the container terminates with reason `Error`
//! and restarts under CrashLoopBackOff, through the same path as an OOM kill
//! ([`crate::process::Pod::on_container_exit`]).

use crate::sim::Context;

use super::{Cluster, Ev};

/// The exit code of a Go program that dies of an unrecovered panic (Go `runtime/panic.go`
/// `fatalpanic` → `exit(2)`).
pub const GO_PANIC_EXIT_CODE: i32 = 2;

impl Cluster {
    /// The container exits with a Go panic: everything in the process is gone, as on an OOM kill,
    /// but the container's last state is `Error` with exit code 2.
    pub(super) fn container_crashed(&mut self, ctx: &mut Context<'_, Ev>) {
        let restart_at = self.process.exit(GO_PANIC_EXIT_CODE, ctx.now());
        self.container_died(ctx, restart_at, "Error");
    }
}
