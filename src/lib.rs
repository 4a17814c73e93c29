//! poolopt: optimization passes for pool-style array code, JIT-compiled through Cranelift.
//!
//! This facade ties the crates together the way an embedding compiler uses them:
//!
//! ```no_run
//! use poolopt::{Session, OptLevel, ClOpt, RunLimits};
//!
//! let src = std::fs::read_to_string("examples/workloads/slot_pool_8.pir").unwrap();
//! let module = poolopt::parse_and_verify("slot_pool_8.pir", &src).map_err(|d| d.to_string()).unwrap();
//! let session = Session::new(module).optimize_level(OptLevel::O2).unwrap();
//! let compiled = session.compile(ClOpt::Speed).unwrap();
//! let result = compiled.run("lifo", &[10, 5], &RunLimits::default());
//! assert_eq!(result.unwrap(), 2999155661484216252);
//! ```
//!
//! A [`VerifiedModule`] can only be made by verifying a module, so passes and lowering never
//! see unverified IR. Errors in text input render as `FILE:LINE:COL: error: ...` with a
//! source snippet ([`Diagnostic`]).

mod diagnostic;
mod session;

pub use diagnostic::{Diagnostic, Diagnostics};
pub use session::{parse_and_verify, parse_and_verify_with, Error, Session, VerifiedModule};

pub use poolopt_interp as interp;
pub use poolopt_ir as ir;
pub use poolopt_jit as jit;
pub use poolopt_passes as passes;

pub use poolopt_interp::InterpError;
pub use poolopt_ir::{Module, RunLimits, Trap, TrapKind, VerifyOptions};
pub use poolopt_jit::{ClOpt, CompiledModule, JitOptions, RunError};
pub use poolopt_passes::{OptLevel, PassManager, PassReport, Remark, Stats};
