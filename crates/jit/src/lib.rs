//! The poolopt back end: lowering of the IR to Cranelift IR, the run-time support library,
//! the JIT, and CLIF / x86-64 assembly text output.
//!
//! ```
//! use poolopt_ir::{BinaryOp, ModuleBuilder, RunLimits, Type};
//! use poolopt_jit::{CompiledModule, JitOptions};
//!
//! let mut mb = ModuleBuilder::new();
//! let f = mb.declare_function("double", &[("x", Type::I64)], Some(Type::I64));
//! let mut fb = mb.define_function(f);
//! let x = fb.param(0).unwrap();
//! let entry = fb.create_block("entry");
//! fb.switch_to_block(entry);
//! fb.binary(x, BinaryOp::Add, x, x);
//! fb.ret(Some(x.into()));
//! let module = mb.finish().unwrap();
//!
//! let compiled = CompiledModule::compile(&module, &JitOptions::default()).unwrap();
//! assert_eq!(compiled.run("double", &[21], &RunLimits::default()), Ok(42));
//! ```
//!
//! To call a function many times, look it up once as a typed entry and call it on the calling
//! thread (no thread per call; see [`entry`]):
//!
//! ```
//! # use poolopt_ir::{BinaryOp, ModuleBuilder, RunLimits, Type};
//! # use poolopt_jit::{CompiledModule, JitOptions};
//! # let mut mb = ModuleBuilder::new();
//! # let f = mb.declare_function("double", &[("x", Type::I64)], Some(Type::I64));
//! # let mut fb = mb.define_function(f);
//! # let x = fb.param(0).unwrap();
//! # let entry = fb.create_block("entry");
//! # fb.switch_to_block(entry);
//! # fb.binary(x, BinaryOp::Add, x, x);
//! # fb.ret(Some(x.into()));
//! # let module = mb.finish().unwrap();
//! let compiled = CompiledModule::compile_for_entry(&module, "double", &JitOptions::default()).unwrap();
//! let double = compiled.entry::<(i64,), i64>("double").unwrap();
//! assert_eq!(double.call((21,)), Ok(42));
//! ```
//!
//! Modules: [`abi`] (calling convention), [`runtime`] (run context, vec headers, runtime
//! functions), [`lower`] (IR → CLIF), [`jit`](mod@jit) (compile and run), [`entry`] (typed
//! entry points), [`emit`] (text), [`tier`] (how a function is compiled, by its size),
//! [`scratch`] (the lowering's tables, reused from one function to the next), `append` (the
//! function built by appending, without cranelift-frontend), `ssa` (the lowering's SSA
//! construction for reassigned locals), `target` (ISAs and the optimization-level knob),
//! `error`.

pub mod abi;
mod append;
mod block_consts;
mod compile_mode;
pub mod elaboration;
pub mod emit;
pub mod entry;
mod error;
mod fixed_locals;
pub mod jit;
pub mod lower;
pub mod param_chains;
pub mod runtime;
pub mod scratch;
mod ssa;
mod target;
#[cfg(test)]
mod test_clif;
pub mod tier;

pub use emit::{emit_asm, emit_clif};
pub use entry::{EntryArgs, EntryResult, HostScalar, TypedEntry};
pub use error::{EntryError, JitError, RunError};
pub use jit::{CompiledModule, JitOptions};
pub use runtime::RunStats;
pub use scratch::LowerScratch;
pub use target::{ClOpt, ParseClOptError, FIXED_TRIPLE};
