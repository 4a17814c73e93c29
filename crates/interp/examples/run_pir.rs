//! Runs a `.pir` file in the reference interpreter and prints the result, the run statistics
//! and the wall time: `cargo run --release -p poolopt-interp --example run_pir -- FILE ENTRY
//! [ARGS...]`.

use poolopt_interp::run_with_stats;
use poolopt_ir::{parse, RunLimits};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let [file, entry, rest @ ..] = argv.as_slice() else {
        eprintln!("usage: run_pir FILE ENTRY [ARGS...]");
        return ExitCode::from(2);
    };
    let mut args = Vec::new();
    for a in rest {
        match a.parse::<i64>() {
            Ok(v) => args.push(v),
            Err(e) => {
                eprintln!("bad argument `{a}`: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let src = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(2);
        }
    };
    let module = match parse(&src) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{file}:{e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let (result, stats) = run_with_stats(&module, entry, &args, &RunLimits::default());
    let elapsed = start.elapsed();
    eprintln!("{stats:?} in {elapsed:.2?}");
    match result {
        Ok(v) => {
            println!("{v}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(3)
        }
    }
}
