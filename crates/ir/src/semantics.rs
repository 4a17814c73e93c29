//! Run-time semantics shared by the reference interpreter and the JIT runtime, so both agree
//! to the byte: trap kinds, resource limits, and the vec growth and memory-accounting policy.

use std::fmt;
use thiserror::Error;

/// Why a run stopped with a trap.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum TrapKind {
    /// `pop` on an empty vec (a dropped vec is empty).
    PopEmpty,
    /// Element access with an index outside `0..len` (a dropped vec has length 0).
    IndexOob,
    /// `div`/`rem` by zero.
    DivZero,
    /// A `trap "message"` terminator.
    Explicit,
    /// Vec growth past the memory limit.
    OutOfMemory,
    /// `push` onto, or `drop` of, a vec that was dropped.
    UseAfterDrop,
    /// The fuel limit ran out.
    OutOfFuel,
    /// The call-depth limit was exceeded.
    StackOverflow,
}

impl TrapKind {
    pub const ALL: [TrapKind; 8] = [
        TrapKind::PopEmpty,
        TrapKind::IndexOob,
        TrapKind::DivZero,
        TrapKind::Explicit,
        TrapKind::OutOfMemory,
        TrapKind::UseAfterDrop,
        TrapKind::OutOfFuel,
        TrapKind::StackOverflow,
    ];

    /// The stable name printed by the CLI (`trap: <name>: ...`).
    pub fn name(self) -> &'static str {
        match self {
            TrapKind::PopEmpty => "pop_empty",
            TrapKind::IndexOob => "index_oob",
            TrapKind::DivZero => "div_zero",
            TrapKind::Explicit => "explicit",
            TrapKind::OutOfMemory => "out_of_memory",
            TrapKind::UseAfterDrop => "use_after_drop",
            TrapKind::OutOfFuel => "out_of_fuel",
            TrapKind::StackOverflow => "stack_overflow",
        }
    }

    /// Whether a trap of this kind carries a source line. Every kind does except
    /// `out_of_fuel`: where fuel runs out depends on the block structure, which the passes
    /// change, so no line is reported that could differ between levels.
    pub fn reports_line(self) -> bool {
        self != TrapKind::OutOfFuel
    }

    /// A small integer code, used by the JIT runtime to report the kind.
    pub fn code(self) -> u32 {
        self as u32
    }

    /// The kind for a code produced by [`TrapKind::code`].
    pub fn from_code(code: u32) -> Option<TrapKind> {
        Self::ALL.get(code as usize).copied()
    }
}

impl fmt::Display for TrapKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A trap: the value a run produces instead of a result when a check fails.
///
/// Displays as `trap: <kind>: <message> in <function>`, followed by ` at line <L>` when the
/// line is known ([`Trap::line`] is not 0).
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub struct Trap {
    pub kind: TrapKind,
    pub message: String,
    /// The IR function executing when the trap happened.
    pub function: String,
    /// The source line the trap is attributed to, 0 when unknown: the `Loc.line` of the
    /// trapping instruction or terminator (the IR text line, or the front end's line given to
    /// the builder's `set_loc`). A `stack_overflow` reports the line of the entered function's
    /// `fn`; an `out_of_fuel` reports none (0), since the fuel a program needs differs between
    /// optimization levels. See [`TrapKind::reports_line`].
    pub line: u32,
}

impl Trap {
    /// A trap of `kind` in `function` with no known line.
    pub fn new(kind: TrapKind, message: impl Into<String>, function: impl Into<String>) -> Trap {
        Trap {
            kind,
            message: message.into(),
            function: function.into(),
            line: 0,
        }
    }

    /// The same trap attributed to `line` (0 = unknown; an `out_of_fuel` trap keeps 0).
    pub fn at_line(mut self, line: u32) -> Trap {
        self.line = if self.kind.reports_line() { line } else { 0 };
        self
    }
}

impl fmt::Display for Trap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "trap: {}: {} in {}",
            self.kind, self.message, self.function
        )?;
        if self.line != 0 {
            write!(f, " at line {}", self.line)?;
        }
        Ok(())
    }
}

/// Resource limits of one run. The interpreter and the JIT honour the same limits.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct RunLimits {
    /// Bytes of vec buffers and headers a run may hold at once ([`charge_for_growth`]).
    pub max_memory: u64,
    /// Fuel: one unit is consumed each time a block is entered (a function's entry block
    /// included). `None` means unlimited. Optimizations change the block structure, so the
    /// fuel a program needs may differ between levels.
    pub fuel: Option<u64>,
    /// Maximum call depth (the entry function is depth 1).
    pub max_depth: u32,
}

impl Default for RunLimits {
    fn default() -> Self {
        RunLimits {
            max_memory: DEFAULT_MAX_MEMORY,
            fuel: None,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// Default memory limit: 1 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 1 << 30;
/// Default call-depth limit.
pub const DEFAULT_MAX_DEPTH: u32 = 1000;

/// Bytes charged for each `new` (a vec header `{ptr, len, cap}`); headers live until the run
/// ends, so this charge is never refunded.
pub const HEADER_BYTES: u64 = 24;

/// Capacity after growing a full vec of capacity `cap`: 4, then doubling.
pub fn grown_capacity(cap: u64) -> u64 {
    if cap == 0 {
        4
    } else {
        cap.saturating_mul(2)
    }
}

/// Memory accounting of a growth: given the bytes in use, the old capacity and the element
/// size, returns the bytes in use after growing, or `None` when it would exceed `max_memory`
/// (the run then traps with [`TrapKind::OutOfMemory`]). A `drop` refunds `cap * elem_size`.
pub fn charge_for_growth(in_use: u64, cap: u64, elem_size: u64, max_memory: u64) -> Option<u64> {
    let new_cap = grown_capacity(cap);
    let extra = new_cap.checked_sub(cap)?.checked_mul(elem_size)?;
    let total = in_use.checked_add(extra)?;
    (total <= max_memory).then_some(total)
}

/// The message of an `out_of_memory` trap.
pub fn oom_message(requested: u64, max_memory: u64) -> String {
    format!("vec growth by {requested} bytes exceeds the memory limit of {max_memory} bytes")
}

/// The message of an `index_oob` trap.
pub fn index_oob_message(index: i64, len: i64) -> String {
    format!("index {index} out of bounds for length {len}")
}

/// The message of a `pop_empty` trap.
pub const POP_EMPTY_MESSAGE: &str = "pop from an empty vec";
/// The message of a `div_zero` trap.
pub const DIV_ZERO_MESSAGE: &str = "division by zero";
/// The message of a `use_after_drop` trap.
pub const USE_AFTER_DROP_MESSAGE: &str = "use of a dropped vec";
/// The message of an `out_of_fuel` trap.
pub const OUT_OF_FUEL_MESSAGE: &str = "fuel exhausted";
/// The message of a `stack_overflow` trap.
pub const STACK_OVERFLOW_MESSAGE: &str = "call depth limit exceeded";
