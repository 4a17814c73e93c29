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
//! Modules: [`abi`] (calling convention), [`runtime`] (run context, vec headers, runtime
//! functions), [`lower`] (IR → CLIF), [`jit`](mod@jit) (compile and run), [`emit`] (text), `target`
//! (ISAs and the optimization-level knob), `error`.

pub mod abi;
pub mod emit;
mod error;
pub mod jit;
pub mod lower;
pub mod runtime;
mod target;

pub use emit::{emit_asm, emit_clif};
pub use error::{JitError, RunError};
pub use jit::{CompiledModule, JitOptions};
pub use runtime::RunStats;
pub use target::{ClOpt, ParseClOptError, FIXED_TRIPLE};
