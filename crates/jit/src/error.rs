//! The errors of compiling (`JitError`) and of running (`RunError`) JIT code, and of looking up
//! a typed entry (`EntryError`).

use poolopt_ir::Trap;
use thiserror::Error;

/// Why a module could not be lowered, compiled or printed.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum JitError {
    /// The module is malformed (it would not pass the verifier).
    #[error("in function `{function}`: malformed IR: {message}")]
    Malformed { function: String, message: String },
    /// The module uses something the JIT does not support.
    #[error("in function `{function}`: unsupported: {message}")]
    Unsupported { function: String, message: String },
    /// Building the target ISA failed.
    #[error("cannot build the target ISA: {0}")]
    Isa(String),
    /// Cranelift rejected or failed to compile a lowered function.
    #[error("in function `{function}`: Cranelift: {message}")]
    Codegen { function: String, message: String },
    /// The JIT module failed to declare, define or finalize code.
    #[error("JIT module: {0}")]
    Module(String),
    /// Disassembly failed.
    #[error("disassembly: {0}")]
    Disasm(String),
}

/// Why a run produced no result.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum RunError {
    /// The program trapped.
    #[error(transparent)]
    Trap(Trap),
    /// The entry function does not exist.
    #[error("no function named `{0}`")]
    NoSuchFunction(String),
    /// The entry function exists but was not compiled: the module was compiled for other
    /// entries ([`crate::CompiledModule::compile_for_entries`]) that do not reach it.
    #[error("function `{0}` was not compiled (the module was compiled for entries that do not reach it)")]
    NotCompiled(String),
    /// The arguments do not fit the entry function.
    #[error("cannot call `{function}` from the host: {message}")]
    BadArguments { function: String, message: String },
    /// A fuel limit was given but the module was compiled without fuel.
    #[error("a fuel limit was given but the module was compiled without fuel (JitOptions::fuel)")]
    FuelNotCompiled,
    /// The call-depth limit needs more machine stack than a run thread gets: JIT frames up to
    /// that depth could overflow the stack (an abort) before the limit traps.
    #[error("the call-depth limit {max_depth} is too large for this module: at most {supported} fits the largest run stack")]
    DepthLimitTooLarge { max_depth: u32, supported: u32 },
    /// The thread that runs JIT code could not be started.
    #[error("cannot start the run thread: {0}")]
    Thread(String),
}

impl RunError {
    /// The trap, if the run trapped.
    pub fn as_trap(&self) -> Option<&Trap> {
        match self {
            RunError::Trap(t) => Some(t),
            _ => None,
        }
    }
}

/// Why a typed entry could not be made ([`crate::CompiledModule::entry`]).
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum EntryError {
    /// The module has no function of that name.
    #[error("no function named `{0}`")]
    NoSuchFunction(String),
    /// The function exists but was not compiled (lazy compilation for other entries).
    #[error("function `{0}` was not compiled (the module was compiled for entries that do not reach it)")]
    NotCompiled(String),
    /// The function cannot be called from the host (a parameter or its result is not a scalar).
    #[error("cannot call `{function}` from the host: {reason}")]
    NotHostCallable { function: String, reason: String },
    /// The requested Rust signature differs from the IR's.
    #[error("`{function}` is `{found}` in the IR, but was looked up as `{expected}`")]
    Signature {
        function: String,
        expected: String,
        found: String,
    },
    /// A fuel limit was given but the module was compiled without fuel.
    #[error("a fuel limit was given but the module was compiled without fuel (JitOptions::fuel)")]
    FuelNotCompiled,
}
