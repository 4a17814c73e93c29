//! The `poolopt` command: run, optimize, emit, check and benchmark IR programs.
//!
//! Exit codes: 0 success; 2 parse, verification or usage error; 3 the program trapped;
//! 1 any other failure (e.g. an internal compile error); 4 `bench --check` found a target NOT
//! met.

/// `eprint!` without its panic on a failed write: with stderr a pipe whose reader stopped
/// (`poolopt opt F --remarks 2>&1 | head`), `eprint!` panics, and there is nowhere left to
/// report the failure, so it is ignored.
macro_rules! err_print {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = std::io::stderr().write_fmt(format_args!($($arg)*));
    }};
}

/// `eprintln!` without its panic on a failed write (see `err_print!`).
macro_rules! err_println {
    () => {
        err_print!("\n")
    };
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut err = std::io::stderr().lock();
        let _ = err.write_fmt(format_args!($($arg)*));
        let _ = err.write_all(b"\n");
    }};
}

mod cli;
mod commands;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match commands::dispatch(args) {
        Ok(code) => code,
        Err(failure) => {
            err_print!("{}", failure.message);
            if !failure.message.ends_with('\n') {
                err_println!();
            }
            ExitCode::from(failure.code)
        }
    }
}
