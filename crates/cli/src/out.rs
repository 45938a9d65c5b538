//! Standard output that a closed pipe does not turn into a panic.
//!
//! `print!` panics when standard output fails, and it fails as soon as the reader of a pipe
//! has gone: `flywheel list | head -3` would end in a panic message and a backtrace. A reader that
//! stops early has taken what it wanted, so [`out!`] and [`outln!`] end the program quietly with
//! status 0 then, as a C or Go tool ended by `SIGPIPE` leaves its pipeline (safe Rust cannot
//! restore that signal's default). Any other failure to write is reported on standard error with
//! status 1.

use std::fmt;
use std::io::{ErrorKind, Write};

/// Writes formatted text to standard output (see the module's documentation).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write_fmt(format_args!($($arg)*))
    };
}

/// [`out!`] followed by a newline.
macro_rules! outln {
    () => {
        $crate::out::write_fmt(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write_fmt(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};

/// Writes `args` to standard output, or ends the program (see the module's documentation).
pub fn write_fmt(args: fmt::Arguments<'_>) {
    let written = std::io::stdout().lock().write_fmt(args);
    end_on_failure(written.and_then(|()| std::io::stdout().flush()));
}

/// Writes `bytes` to standard output, or ends the program (see the module's documentation).
pub fn write_bytes(bytes: &[u8]) {
    let mut stdout = std::io::stdout().lock();
    end_on_failure(stdout.write_all(bytes).and_then(|()| stdout.flush()));
}

fn end_on_failure(result: std::io::Result<()>) {
    match result {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("error: cannot write to standard output: {e}");
            std::process::exit(1);
        }
    }
}
