//! poolopt: optimization passes for pool-style array code, JIT-compiled through Cranelift.
//!
//! This facade is the API an embedding compiler uses. A front end builds IR with
//! [`ModuleBuilder`] (or parses the text format with [`parse_and_verify`]), verifies it into a
//! [`VerifiedModule`], optimizes it in a [`Session`], JIT-compiles it, and calls the compiled
//! functions through typed entries ([`TypedEntry`]) as often as it likes:
//!
//! ```
//! use poolopt::{BinaryOp, ClOpt, CmpOp, Loc, ModuleBuilder, OptLevel, Session, Type, VerifiedModule};
//!
//! fn main() -> Result<(), poolopt::Error> {
//!     // fn triangle(n: i64) -> i64: 0 + 1 + ... + n, built by a front end.
//!     let mut mb = ModuleBuilder::new();
//!     let f = mb.declare_function("triangle", &[("n", Type::I64)], Some(Type::I64));
//!     mb.set_function_loc(f, Loc::new(1, 1)); // the front end's source line
//!     let mut fb = mb.define_function(f);
//!     let n = fb.param(0).unwrap();
//!     let (sum, done) = (fb.local("sum", Type::I64), fb.local("done", Type::BOOL));
//!     let (entry, head, body, exit) = (
//!         fb.create_block("entry"),
//!         fb.create_block("head"),
//!         fb.create_block("body"),
//!         fb.create_block("exit"),
//!     );
//!     fb.switch_to_block(entry);
//!     fb.br(head);
//!     fb.switch_to_block(head);
//!     fb.compare(done, CmpOp::Sle, n, 0i64);
//!     fb.brif(done, exit, body);
//!     fb.switch_to_block(body);
//!     fb.binary(sum, BinaryOp::Add, sum, n);
//!     fb.binary(n, BinaryOp::Sub, n, 1i64);
//!     fb.br(head);
//!     fb.switch_to_block(exit);
//!     fb.ret(Some(sum.into()));
//!
//!     let module = VerifiedModule::new(mb.finish()?)?; // BuildErrors, VerifyErrors: both `?`
//!     let session = Session::new(module).optimize_level(OptLevel::O2)?;
//!     let compiled = session.compile(ClOpt::Speed)?;
//!     let triangle = compiled.entry::<(i64,), i64>("triangle")?; // signature checked here
//!     for n in 0..1000 {
//!         assert_eq!(triangle.call((n,))?, n * (n + 1) / 2); // no thread per call
//!     }
//!     Ok(())
//! }
//! ```
//!
//! Text IR goes through [`parse_and_verify`], whose errors render as `FILE:LINE:COL: error:
//! ...` with a source snippet ([`Diagnostic`]):
//!
//! ```no_run
//! use poolopt::{ClOpt, OptLevel, RunLimits, Session};
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
//! see unverified IR. Every error type implements [`std::error::Error`], and [`Error`] gathers
//! them for `?`. A trap is a result, not a crash: a [`Trap`] names its kind, message, function
//! and source line.
//!
//! Calling compiled code: [`CompiledModule::entry`] looks a function up once (its Rust
//! signature checked against the IR) and calls it on the calling thread; the call-depth limit
//! ([`RunLimits::max_depth`]) bounds the stack a call needs ([`TypedEntry::required_stack`]),
//! and a caller with less stack left gets a stack allocated for the call, so deep recursion
//! traps `stack_overflow` instead of overflowing the host. [`CompiledModule::run`] instead
//! runs each call on a thread of its own (an isolated stack, tens of microseconds per call).
//! [`Session::compile_for_entry`] compiles only what an entry can reach.

mod diagnostic;
mod engine;
mod session;
mod verify_errors;

pub use diagnostic::{Diagnostic, Diagnostics};
pub use engine::{Engine, Executed, Ran, RunOptions, DEFAULT_INTERPRET_ABOVE, INTERPRET_ABOVE_ENV};
pub use session::{
    parse_and_verify, parse_and_verify_with, Error, Session, VerifiedModule,
    MAX_SHOWN_VERIFY_ERRORS,
};
pub use verify_errors::VerifyErrors;

pub use poolopt_interp as interp;
pub use poolopt_ir as ir;
pub use poolopt_jit as jit;
pub use poolopt_passes as passes;

#[doc(inline)]
pub use poolopt_interp::InterpError;
#[doc(inline)]
pub use poolopt_ir::{
    BinaryOp, Block, BuildError, BuildErrors, CastOp, CmpOp, ElemType, FuncId, FunctionBuilder,
    InlineHint, Loc, Local, Module, ModuleBuilder, Operand, RunLimits, ScalarType, StructId, Trap,
    TrapKind, Type, UnaryOp, VerifyError, VerifyOptions,
};
#[doc(inline)]
pub use poolopt_jit::{
    ClOpt, CompiledModule, EntryArgs, EntryError, EntryResult, HostScalar, JitOptions, RunError,
    TypedEntry,
};
#[doc(inline)]
pub use poolopt_passes::{OptLevel, PassManager, PassReport, Remark, Stats};
