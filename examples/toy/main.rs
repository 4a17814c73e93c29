//! `toy`: a small language with structs and vecs that embeds poolopt as its back end.
//!
//! ```text
//! cargo run --release --example toy -- FILE [--entry NAME] [--args A,B] [-O0|-O1|-O2]
//!     [--cl-opt none|speed] [--emit ir|clif|asm] [--remarks] [--interp]
//! ```
//!
//! The result is the last line of stdout (exit 0); a trap prints
//! `FILE:LINE: trap: <kind>: <message> in <function>` to stderr (exit 3); an error in the program prints
//! `FILE:LINE:COL: error: ...` with a snippet (exit 2), as `poolopt run` does. The pipeline:
//! [`args`] (clap) → [`lexer`] → [`parser`] → [`check`] → [`lower`] (poolopt's builder API) →
//! poolopt's verifier, passes and JIT ([`driver`]); [`names`] prints remarks in toy terms.
//! `docs/embedding.md` is a guided tour, `docs/toy.md` the reference of the additions.

mod args;
mod ast;
mod check;
mod driver;
mod error;
mod lexer;
mod lower;
mod names;
mod parser;
mod typed;

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = driver::run_command(&args);
    // A closed pipe is not worth a panic: ignore write errors.
    let _ = std::io::stdout().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    ExitCode::from(outcome.code)
}
