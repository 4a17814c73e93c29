//! Helpers that several of poolopt's test suites share, so that a new test is new data rather
//! than another copy of the same code:
//!
//! - [`case`]: the `; key: value` header of case files (`tests/passes/*.pir`,
//!   `tests/regressions/*.pir`, `tests/untrusted/*.pir`) and their expected outcomes;
//! - [`matrix`]: parsing and verifying program text, and running a program everywhere — the
//!   interpreter before and after each level, the JIT at every level and Cranelift level — with
//!   the pipelines run both with and without remarks;
//! - [`cli`]: running the built `poolopt` binary on a program written to a temporary file;
//! - [`rng`]: a seeded xorshift generator for mutation and generated inputs.
//!
//! Dev-only (`publish = false`): a dev-dependency of the root package and of the CLI.

pub mod case;
pub mod cli;
pub mod matrix;
pub mod rng;
pub mod shapes;

pub use case::{header, pir_files, pir_files_below, Expect};
pub use matrix::{
    interp_outcome, jit_outcome, line_of, load_str, optimize, optimize_both_ways, run_everywhere,
    trap_everywhere, Outcome, CL_OPTS, LEVELS,
};
pub use rng::XorShift;
pub use shapes::{aliased_vecs, kept_reads, loop_nest, many_loaded_values, many_vecs};
