//! The errors a run can end with: a trap of the program, or a problem with the module or the
//! call that makes the program impossible to run (the interpreter never panics on bad input).

use poolopt_ir::{Trap, TrapKind};
use thiserror::Error;

/// Why [`crate::run`] produced no result.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum InterpError {
    /// The program trapped (a failed check, an explicit `trap`, a resource limit).
    #[error("{0}")]
    Trap(Trap),
    /// The module has no function with the requested entry name.
    #[error("no function named `{0}`")]
    NoSuchFunction(String),
    /// The entry function cannot be called with the given arguments (wrong count, a parameter
    /// that is not a scalar, or a return type that is not a scalar).
    #[error("cannot call `{function}`: {reason}")]
    BadArguments { function: String, reason: String },
    /// The module is ill-formed in a way that prevents execution (what the verifier rejects).
    #[error("malformed module: {0}")]
    Malformed(String),
    /// An operation marked unchecked would have failed its check: a pass removed a check it
    /// could not prove redundant. The interpreter stays memory safe and reports it.
    #[error("unchecked operation violated its precondition: {0}")]
    UncheckedViolation(String),
}

impl InterpError {
    /// The trap, if the run trapped.
    pub fn as_trap(&self) -> Option<&Trap> {
        match self {
            InterpError::Trap(t) => Some(t),
            _ => None,
        }
    }

    /// The trap kind, if the run trapped.
    pub fn trap_kind(&self) -> Option<TrapKind> {
        self.as_trap().map(|t| t.kind)
    }
}

/// A failure raised inside the machine before the executing function's name is attached.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Fault {
    Trap(TrapKind, String),
    Unchecked(String),
    Malformed(String),
}

impl Fault {
    /// Attaches the name of the function that was executing and the source line of the
    /// instruction or terminator that failed (0 = unknown; see [`Trap::at_line`]).
    pub(crate) fn into_error(self, function: &str, line: u32) -> InterpError {
        match self {
            Fault::Trap(kind, message) => {
                InterpError::Trap(Trap::new(kind, message, function).at_line(line))
            }
            Fault::Unchecked(m) => InterpError::UncheckedViolation(format!("{m} in {function}")),
            Fault::Malformed(m) => InterpError::Malformed(format!("{m} in {function}")),
        }
    }
}
