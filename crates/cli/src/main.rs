//! The `poolopt` command: run, optimize, emit, check and benchmark IR programs.
//!
//! Exit codes: 0 success; 2 parse, verification or usage error; 3 the program trapped;
//! 1 any other failure (e.g. an internal compile error); 4 `bench --check` found a target NOT
//! met.

mod cli;
mod commands;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match commands::dispatch(args) {
        Ok(code) => code,
        Err(failure) => {
            eprint!("{}", failure.message);
            if !failure.message.ends_with('\n') {
                eprintln!();
            }
            ExitCode::from(failure.code)
        }
    }
}
