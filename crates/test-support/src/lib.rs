//! Helpers that several of poolopt's test suites share, so that a new test is new data rather
//! than another copy of the same code:
//!
//! - [`case`]: the `; key: value` header of case files (`tests/passes/*.pir`,
//!   `tests/regressions/*.pir`, `tests/untrusted/*.pir`) and their expected outcomes;
//! - [`matrix`]: parsing and verifying program text, and running a program everywhere — the
//!   interpreter before and after each level, the JIT at every level and Cranelift level — with
//!   the pipelines run both with and without remarks.
//!
//! Dev-only (`publish = false`): a dev-dependency of the root package and of the CLI.

pub mod case;
pub mod matrix;

pub use case::{header, pir_files, Expect};
pub use matrix::{
    interp_outcome, jit_outcome, load_str, optimize, optimize_both_ways, run_everywhere, Outcome,
    CL_OPTS, LEVELS,
};
