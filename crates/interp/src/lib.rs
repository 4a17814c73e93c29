//! The reference interpreter of the poolopt IR: the oracle every optimization and the JIT are
//! tested against.
//!
//! It follows the shared run-time semantics of `poolopt_ir::semantics` exactly (trap kinds and
//! messages, memory accounting, fuel, call depth) and values the simple and obviously correct
//! over the fast: struct values live as C-layout bytes, vec elements as little-endian bytes, and
//! IR calls use an explicit frame stack, so deep recursion traps `stack_overflow` at the depth
//! limit instead of exhausting the host stack. It never panics: an ill-formed module yields
//! [`InterpError::Malformed`], and an unchecked operation that would fail yields
//! [`InterpError::UncheckedViolation`] (a pass removed a check it could not justify).
//!
//! ```
//! use poolopt_ir::{BinaryOp, ModuleBuilder, RunLimits, Type};
//!
//! let mut mb = ModuleBuilder::new();
//! let f = mb.declare_function("inc", &[("x", Type::I8)], Some(Type::I8));
//! let mut fb = mb.define_function(f);
//! let x = fb.param(0).unwrap();
//! let entry = fb.create_block("entry");
//! fb.switch_to_block(entry);
//! fb.binary(x, BinaryOp::Add, x, 1i64);
//! fb.ret(Some(x.into()));
//! let module = mb.finish().unwrap();
//! assert_eq!(poolopt_interp::run(&module, "inc", &[127], &RunLimits::default()), Ok(-128));
//! ```

mod bytes;
mod compile;
mod error;
mod heap;
mod machine;
mod ops;
mod stats;

pub use error::InterpError;
pub use stats::RunStats;

use compile::LocalKind;
use poolopt_ir::{EntityRef, Module, RunLimits, Type};

/// Runs function `entry` of `module` with integer `args` (each wrapped to its parameter's
/// type) and returns its result.
pub fn run(
    module: &Module,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
) -> Result<i64, InterpError> {
    run_with_stats(module, entry, args, limits).0
}

/// [`run`], also returning what the run did (growths, bytes allocated and copied, steps).
pub fn run_with_stats(
    module: &Module,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
) -> (Result<i64, InterpError>, RunStats) {
    let prog = compile::compile(module);
    let Some(func) = module.func_by_name(entry) else {
        return (
            Err(InterpError::NoSuchFunction(entry.to_string())),
            RunStats::default(),
        );
    };
    let bad = |reason: String| InterpError::BadArguments {
        function: entry.to_string(),
        reason,
    };
    let shape = match prog.shapes.get(func.index()) {
        Some(Ok(s)) => s,
        Some(Err(e)) => {
            return (
                Err(InterpError::Malformed(format!("function `{entry}`: {e}"))),
                RunStats::default(),
            )
        }
        None => {
            return (
                Err(InterpError::NoSuchFunction(entry.to_string())),
                RunStats::default(),
            )
        }
    };
    if !matches!(shape.ret, Some(Type::Scalar(_))) {
        return (
            Err(bad("the entry function must return an integer".to_string())),
            RunStats::default(),
        );
    }
    if shape.params.len() != args.len() {
        return (
            Err(bad(format!(
                "expected {} arguments, got {}",
                shape.params.len(),
                args.len()
            ))),
            RunStats::default(),
        );
    }
    let mut slots = Vec::with_capacity(args.len());
    for (i, (&p, &a)) in shape.params.iter().zip(args).enumerate() {
        match shape.locals.get(p.index()) {
            Some(LocalKind::Scalar(s)) => slots.push((p.index() as u32, s.wrap(a))),
            _ => {
                return (
                    Err(bad(format!("parameter {i} is not a scalar"))),
                    RunStats::default(),
                )
            }
        }
    }
    let mut machine = machine::Machine::new(&prog, limits);
    let result = machine.run(func.index() as u32, &slots);
    (result, machine.stats)
}
