//! `flywheel`: the simulation engine, headless.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None | Some("-h" | "--help" | "help") => {
            println!("flywheel {}\n\nUsage: flywheel <command>\n\nCommands:\n  version   print the version", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some("version" | "--version" | "-V") => {
            println!("flywheel {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("flywheel: unknown command '{other}' (allowed: help, version)");
            ExitCode::from(2)
        }
    }
}
