//! Instructions and terminators.
//!
//! Instructions are statements that assign to mutable locals (the IR is not SSA): this is what
//! a simple front end emits, temporaries included. Operands are locals or integer constants; the
//! type of a constant is the type its position demands.

use crate::entities::StructId;
use crate::entities::{Block, FuncId, Local};
use crate::types::{ElemType, ScalarType};
use cranelift_entity::packed_option::PackedOption;
use std::fmt;

/// A source location: 1-based line and column, or 0 when unknown, and the function the code
/// was written in when that is not the function holding it (code copied by the inliner).
///
/// Text input records the `.pir` position of each instruction; a front end driving the builder
/// records its own source lines, so remarks and errors point at the user's source. A trap
/// reports the function of its location ([`Loc::origin`]), so a trap in inlined code still names
/// the function it was written in.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Loc {
    pub line: u32,
    pub col: u32,
    /// Set by the inliner: the function this code was written in (`None`: the holder).
    pub inlined_from: PackedOption<FuncId>,
}

impl Loc {
    pub const UNKNOWN: Loc = Loc::new(0, 0);

    pub const fn new(line: u32, col: u32) -> Loc {
        Loc {
            line,
            col,
            inlined_from: PackedOption::new(FuncId::RESERVED),
        }
    }

    pub fn is_known(self) -> bool {
        self.line != 0
    }

    /// The function the code at this location was written in, when it was inlined from
    /// another function.
    pub fn origin(self) -> Option<FuncId> {
        self.inlined_from.expand()
    }

    /// The same location, marked as written in `func` unless it already names an origin
    /// (inlining code that was itself inlined keeps the innermost function).
    pub fn inlined_from(self, func: FuncId) -> Loc {
        match self.origin() {
            Some(_) => self,
            None => Loc {
                inlined_from: func.into(),
                ..self
            },
        }
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// An instruction operand: a local or an integer constant (`true`/`false` are 1/0).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Operand {
    Local(Local),
    Const(i64),
}

impl Operand {
    pub fn as_local(self) -> Option<Local> {
        match self {
            Operand::Local(l) => Some(l),
            Operand::Const(_) => None,
        }
    }

    pub fn as_const(self) -> Option<i64> {
        match self {
            Operand::Const(c) => Some(c),
            Operand::Local(_) => None,
        }
    }
}

impl From<Local> for Operand {
    fn from(l: Local) -> Self {
        Operand::Local(l)
    }
}

impl From<i64> for Operand {
    fn from(c: i64) -> Self {
        Operand::Const(c)
    }
}

impl From<bool> for Operand {
    fn from(b: bool) -> Self {
        Operand::Const(b as i64)
    }
}

/// Whether a vec operation or a division checks its precondition (non-empty for `pop`, index
/// in `0..len` for element access, divisor not 0 for a division and not -1 for `sdiv`) and
/// traps (or, for `sdiv` by -1, takes its wrapping path) when it fails. Front ends always emit
/// `Checked`; only a pass that proves the check cannot fail may make it `Unchecked`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Check {
    #[default]
    Checked,
    Unchecked,
}

impl Check {
    pub fn is_checked(self) -> bool {
        self == Check::Checked
    }
}

/// Binary arithmetic and bitwise operators. All wrap at the operand width.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    /// Signed division: traps on zero; `MIN / -1` is `MIN`.
    SDiv,
    /// Unsigned division: traps on zero.
    UDiv,
    /// Signed remainder: traps on zero; `MIN % -1` is 0.
    SRem,
    /// Unsigned remainder: traps on zero.
    URem,
    And,
    Or,
    Xor,
    /// Shift left; the amount is taken modulo the bit width.
    Shl,
    /// Logical shift right; the amount is taken modulo the bit width.
    LShr,
    /// Arithmetic shift right; the amount is taken modulo the bit width.
    AShr,
}

impl BinaryOp {
    pub const ALL: [BinaryOp; 13] = [
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::SDiv,
        BinaryOp::UDiv,
        BinaryOp::SRem,
        BinaryOp::URem,
        BinaryOp::And,
        BinaryOp::Or,
        BinaryOp::Xor,
        BinaryOp::Shl,
        BinaryOp::LShr,
        BinaryOp::AShr,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            BinaryOp::Add => "add",
            BinaryOp::Sub => "sub",
            BinaryOp::Mul => "mul",
            BinaryOp::SDiv => "sdiv",
            BinaryOp::UDiv => "udiv",
            BinaryOp::SRem => "srem",
            BinaryOp::URem => "urem",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
            BinaryOp::Xor => "xor",
            BinaryOp::Shl => "shl",
            BinaryOp::LShr => "lshr",
            BinaryOp::AShr => "ashr",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|op| op.name() == name)
    }

    /// Division and remainder may trap (division by zero).
    pub fn may_trap(self) -> bool {
        matches!(
            self,
            BinaryOp::SDiv | BinaryOp::UDiv | BinaryOp::SRem | BinaryOp::URem
        )
    }

    /// The divisions: the operators that have an unchecked form (`sdiv.unchecked`, ...).
    pub fn is_division(self) -> bool {
        self.may_trap()
    }

    /// Whether divisor `b` (the constant's value at the operand width, sign-extended) meets
    /// the precondition of the unchecked form of this division: not 0, and not -1 for `sdiv`
    /// (whose checked form gives `MIN / -1 = MIN` by a path of its own).
    pub fn unchecked_divisor_ok(self, b: i64) -> bool {
        match self {
            BinaryOp::SDiv => b != 0 && b != -1,
            BinaryOp::UDiv | BinaryOp::SRem | BinaryOp::URem => b != 0,
            _ => true,
        }
    }

    /// Operators that are also defined on `bool` operands.
    pub fn is_logical(self) -> bool {
        matches!(self, BinaryOp::And | BinaryOp::Or | BinaryOp::Xor)
    }
}

/// Integer comparisons, producing a `bool`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum CmpOp {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

impl CmpOp {
    pub const ALL: [CmpOp; 10] = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Slt,
        CmpOp::Sle,
        CmpOp::Sgt,
        CmpOp::Sge,
        CmpOp::Ult,
        CmpOp::Ule,
        CmpOp::Ugt,
        CmpOp::Uge,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
            CmpOp::Slt => "slt",
            CmpOp::Sle => "sle",
            CmpOp::Sgt => "sgt",
            CmpOp::Sge => "sge",
            CmpOp::Ult => "ult",
            CmpOp::Ule => "ule",
            CmpOp::Ugt => "ugt",
            CmpOp::Uge => "uge",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|op| op.name() == name)
    }

    /// Whether `a op b` holds at type `ty`: the IR's definition (docs/ir.md), which the
    /// interpreter runs. Values are held sign-extended in `i64`s; signed compares see them
    /// wrapped to `ty`, unsigned ones and `eq`/`ne` their low `bits(ty)` bits.
    #[inline]
    pub fn holds(self, ty: ScalarType, a: i64, b: i64) -> bool {
        let (sa, sb) = (ty.wrap(a), ty.wrap(b));
        let mask = u64::MAX >> (64 - ty.bits());
        let (ua, ub) = (a as u64 & mask, b as u64 & mask);
        match self {
            CmpOp::Eq => ua == ub,
            CmpOp::Ne => ua != ub,
            CmpOp::Slt => sa < sb,
            CmpOp::Sle => sa <= sb,
            CmpOp::Sgt => sa > sb,
            CmpOp::Sge => sa >= sb,
            CmpOp::Ult => ua < ub,
            CmpOp::Ule => ua <= ub,
            CmpOp::Ugt => ua > ub,
            CmpOp::Uge => ua >= ub,
        }
    }

    /// The comparison that is true exactly when this one is false.
    pub fn negate(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Slt => CmpOp::Sge,
            CmpOp::Sle => CmpOp::Sgt,
            CmpOp::Sgt => CmpOp::Sle,
            CmpOp::Sge => CmpOp::Slt,
            CmpOp::Ult => CmpOp::Uge,
            CmpOp::Ule => CmpOp::Ugt,
            CmpOp::Ugt => CmpOp::Ule,
            CmpOp::Uge => CmpOp::Ult,
        }
    }

    /// The comparison with its operands swapped (`a < b` is `b > a`).
    pub fn swap(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Eq,
            CmpOp::Ne => CmpOp::Ne,
            CmpOp::Slt => CmpOp::Sgt,
            CmpOp::Sle => CmpOp::Sge,
            CmpOp::Sgt => CmpOp::Slt,
            CmpOp::Sge => CmpOp::Sle,
            CmpOp::Ult => CmpOp::Ugt,
            CmpOp::Ule => CmpOp::Uge,
            CmpOp::Ugt => CmpOp::Ult,
            CmpOp::Uge => CmpOp::Ule,
        }
    }

    pub fn is_signed(self) -> bool {
        matches!(self, CmpOp::Slt | CmpOp::Sle | CmpOp::Sgt | CmpOp::Sge)
    }

    pub fn is_unsigned(self) -> bool {
        matches!(self, CmpOp::Ult | CmpOp::Ule | CmpOp::Ugt | CmpOp::Uge)
    }
}

/// Unary operators.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum UnaryOp {
    /// Two's-complement negation (wrapping).
    Neg,
    /// Bitwise not; logical not on `bool`.
    Not,
    /// Count of trailing zero bits (integers only); `ctz 0` is the bit width.
    Ctz,
    /// Count of leading zero bits at the operand's width (integers only); `clz 0` is the bit
    /// width.
    Clz,
    /// Count of one bits at the operand's width (integers only).
    Popcnt,
}

impl UnaryOp {
    pub const ALL: [UnaryOp; 5] = [
        UnaryOp::Neg,
        UnaryOp::Not,
        UnaryOp::Ctz,
        UnaryOp::Clz,
        UnaryOp::Popcnt,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            UnaryOp::Neg => "neg",
            UnaryOp::Not => "not",
            UnaryOp::Ctz => "ctz",
            UnaryOp::Clz => "clz",
            UnaryOp::Popcnt => "popcnt",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "neg" => Some(UnaryOp::Neg),
            "not" => Some(UnaryOp::Not),
            "ctz" => Some(UnaryOp::Ctz),
            "clz" => Some(UnaryOp::Clz),
            "popcnt" => Some(UnaryOp::Popcnt),
            _ => None,
        }
    }
}

/// Integer conversions; the target type is the destination local's type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CastOp {
    /// Sign-extend to a wider integer type.
    Sext,
    /// Zero-extend to a wider integer type (also `bool` to integer).
    Zext,
    /// Keep the low bits (to a narrower integer type, or to `bool`: low bit).
    Trunc,
}

impl CastOp {
    pub const ALL: [CastOp; 3] = [CastOp::Sext, CastOp::Zext, CastOp::Trunc];

    pub const fn name(self) -> &'static str {
        match self {
            CastOp::Sext => "sext",
            CastOp::Zext => "zext",
            CastOp::Trunc => "trunc",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "sext" => Some(CastOp::Sext),
            "zext" => Some(CastOp::Zext),
            "trunc" => Some(CastOp::Trunc),
            _ => None,
        }
    }
}

/// What an instruction does. Every variant names its destination local first (if any).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum InstKind {
    /// `dst = copy src` (scalars, structs and vec handles; struct copy copies every byte).
    Copy { dst: Local, src: Operand },
    /// `dst = neg a` / `not a` / `ctz a` / `clz a` / `popcnt a`.
    Unary {
        dst: Local,
        op: UnaryOp,
        arg: Operand,
    },
    /// `dst = add a, b` and the other [`BinaryOp`]s. A division (`sdiv udiv srem urem`) is
    /// checked: it traps `div_zero` on a zero divisor (and `sdiv` gives `MIN / -1 = MIN`);
    /// `sdiv.unchecked` etc. skip that test, with the precondition that the divisor is not 0
    /// (and, for `sdiv`, not -1). Every other operator is always `Checked`.
    Binary {
        dst: Local,
        op: BinaryOp,
        lhs: Operand,
        rhs: Operand,
        check: Check,
    },
    /// `dst = slt a, b` and the other [`CmpOp`]s; `dst` is `bool`.
    Compare {
        dst: Local,
        op: CmpOp,
        lhs: Operand,
        rhs: Operand,
    },
    /// `dst = sext a` / `zext` / `trunc`, converting to the type of `dst`.
    Cast {
        dst: Local,
        op: CastOp,
        arg: Operand,
    },
    /// `dst = make S(a, b, ...)`: a struct value from one operand per field.
    Make {
        dst: Local,
        ty: StructId,
        fields: Vec<Operand>,
    },
    /// `dst = getfield s.f`: read field `field` of struct local `src`.
    GetField { dst: Local, src: Local, field: u32 },
    /// `setfield s.f, x`: write field `field` of struct local `dst`.
    SetField {
        dst: Local,
        field: u32,
        value: Operand,
    },
    /// `dst = new vec<T>`: a fresh, empty vec.
    VecNew { dst: Local, elem: ElemType },
    /// `dst = len v`.
    VecLen { dst: Local, vec: Local },
    /// `push v, x`: append, growing the buffer when full (traps `out_of_memory` past the limit,
    /// `use_after_drop` on a dropped vec).
    VecPush { vec: Local, value: Operand },
    /// `dst = pop v`: remove and return the last element; checked: traps `pop_empty` when empty.
    VecPop {
        dst: Option<Local>,
        vec: Local,
        check: Check,
    },
    /// `dst = get v[i]` or `dst = get v[i].f`: read an element or one field of it; checked:
    /// traps `index_oob` unless `0 <= i < len(v)`.
    VecGet {
        dst: Local,
        vec: Local,
        index: Operand,
        field: Option<u32>,
        check: Check,
    },
    /// `set v[i], x` or `set v[i].f, x`: write an element or one field of it; checked as `get`.
    VecSet {
        vec: Local,
        index: Operand,
        field: Option<u32>,
        value: Operand,
        check: Check,
    },
    /// `drop v`: free the buffer; the vec becomes empty and dead (later pushes trap).
    VecDrop { vec: Local },
    /// `dst = call f(args)` or `call f(args)`.
    Call {
        dst: Option<Local>,
        func: FuncId,
        args: Vec<Operand>,
    },
}

/// An instruction and where it came from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct InstData {
    pub kind: InstKind,
    pub loc: Loc,
}

impl InstKind {
    /// A checked division (`sdiv udiv srem urem` that traps on a bad divisor): its operator
    /// and divisor.
    pub fn checked_division(&self) -> Option<(BinaryOp, Operand)> {
        match *self {
            InstKind::Binary {
                op,
                rhs,
                check: Check::Checked,
                ..
            } if op.is_division() => Some((op, rhs)),
            _ => None,
        }
    }

    /// The local this instruction assigns, if any.
    pub fn def(&self) -> Option<Local> {
        match *self {
            InstKind::Copy { dst, .. }
            | InstKind::Unary { dst, .. }
            | InstKind::Binary { dst, .. }
            | InstKind::Compare { dst, .. }
            | InstKind::Cast { dst, .. }
            | InstKind::Make { dst, .. }
            | InstKind::GetField { dst, .. }
            | InstKind::VecNew { dst, .. }
            | InstKind::VecLen { dst, .. }
            | InstKind::VecGet { dst, .. } => Some(dst),
            // A field write redefines (part of) its struct local.
            InstKind::SetField { dst, .. } => Some(dst),
            InstKind::VecPop { dst, .. } | InstKind::Call { dst, .. } => dst,
            InstKind::VecPush { .. } | InstKind::VecSet { .. } | InstKind::VecDrop { .. } => None,
        }
    }

    /// Mutable access to the destination local, if any (`SetField` included).
    pub fn def_mut(&mut self) -> Option<&mut Local> {
        match self {
            InstKind::Copy { dst, .. }
            | InstKind::Unary { dst, .. }
            | InstKind::Binary { dst, .. }
            | InstKind::Compare { dst, .. }
            | InstKind::Cast { dst, .. }
            | InstKind::Make { dst, .. }
            | InstKind::GetField { dst, .. }
            | InstKind::SetField { dst, .. }
            | InstKind::VecNew { dst, .. }
            | InstKind::VecLen { dst, .. }
            | InstKind::VecGet { dst, .. } => Some(dst),
            InstKind::VecPop { dst, .. } | InstKind::Call { dst, .. } => dst.as_mut(),
            InstKind::VecPush { .. } | InstKind::VecSet { .. } | InstKind::VecDrop { .. } => None,
        }
    }

    /// Calls `f` on every operand this instruction reads, in order. For `SetField` the struct
    /// being updated is read as well (its other fields survive).
    pub fn for_each_use(&self, mut f: impl FnMut(Operand)) {
        match self {
            InstKind::Copy { src, .. } => f(*src),
            InstKind::Unary { arg, .. } | InstKind::Cast { arg, .. } => f(*arg),
            InstKind::Binary { lhs, rhs, .. } | InstKind::Compare { lhs, rhs, .. } => {
                f(*lhs);
                f(*rhs);
            }
            InstKind::Make { fields, .. } => fields.iter().for_each(|op| f(*op)),
            InstKind::GetField { src, .. } => f(Operand::Local(*src)),
            InstKind::SetField { dst, value, .. } => {
                f(Operand::Local(*dst));
                f(*value);
            }
            InstKind::VecNew { .. } => {}
            InstKind::VecLen { vec, .. }
            | InstKind::VecPop { vec, .. }
            | InstKind::VecDrop { vec } => f(Operand::Local(*vec)),
            InstKind::VecPush { vec, value } => {
                f(Operand::Local(*vec));
                f(*value);
            }
            InstKind::VecGet { vec, index, .. } => {
                f(Operand::Local(*vec));
                f(*index);
            }
            InstKind::VecSet {
                vec, index, value, ..
            } => {
                f(Operand::Local(*vec));
                f(*index);
                f(*value);
            }
            InstKind::Call { args, .. } => args.iter().for_each(|op| f(*op)),
        }
    }

    /// Calls `f` on every operand this instruction reads, mutably, so a pass can rename uses.
    /// (`SetField`'s implicit read of its struct is not included: it is also the destination.)
    pub fn for_each_use_mut(&mut self, mut f: impl FnMut(&mut Operand)) {
        match self {
            InstKind::Copy { src, .. } => f(src),
            InstKind::Unary { arg, .. } | InstKind::Cast { arg, .. } => f(arg),
            InstKind::Binary { lhs, rhs, .. } | InstKind::Compare { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            InstKind::Make { fields, .. } => fields.iter_mut().for_each(f),
            InstKind::GetField { src, .. } => rename_local(src, f),
            InstKind::SetField { value, .. } => f(value),
            InstKind::VecNew { .. } => {}
            InstKind::VecLen { vec, .. }
            | InstKind::VecPop { vec, .. }
            | InstKind::VecDrop { vec } => rename_local(vec, f),
            InstKind::VecPush { vec, value } => {
                rename_local(vec, &mut f);
                f(value);
            }
            InstKind::VecGet { vec, index, .. } => {
                rename_local(vec, &mut f);
                f(index);
            }
            InstKind::VecSet {
                vec, index, value, ..
            } => {
                rename_local(vec, &mut f);
                f(index);
                f(value);
            }
            InstKind::Call { args, .. } => args.iter_mut().for_each(f),
        }
    }

    /// Calls `f` on every local the instruction mentions: its destination and the locals
    /// among its operands, what [`InstKind::def`] and [`InstKind::for_each_use`] give together
    /// (a `setfield`'s struct, its destination and a read, comes once), in one match instead
    /// of their two (dead-local-elim's walk that marks the locals still mentioned runs it on
    /// every instruction). A variant added to [`InstKind`] must be added here.
    pub fn for_each_local(&self, mut f: impl FnMut(Local)) {
        match self {
            InstKind::Copy { dst, src: arg }
            | InstKind::Unary { dst, arg, .. }
            | InstKind::Cast { dst, arg, .. }
            | InstKind::SetField {
                dst, value: arg, ..
            } => {
                f(*dst);
                operand_local(arg, &mut f);
            }
            InstKind::Binary { dst, lhs, rhs, .. } | InstKind::Compare { dst, lhs, rhs, .. } => {
                f(*dst);
                operand_local(lhs, &mut f);
                operand_local(rhs, &mut f);
            }
            InstKind::Make { dst, fields, .. } => {
                f(*dst);
                for op in fields {
                    operand_local(op, &mut f);
                }
            }
            InstKind::GetField { dst, src, .. } | InstKind::VecLen { dst, vec: src } => {
                f(*dst);
                f(*src);
            }
            InstKind::VecNew { dst, .. } => f(*dst),
            InstKind::VecPop { dst, vec, .. } => {
                if let Some(d) = dst {
                    f(*d);
                }
                f(*vec);
            }
            InstKind::VecDrop { vec } => f(*vec),
            InstKind::VecPush { vec, value } => {
                f(*vec);
                operand_local(value, &mut f);
            }
            InstKind::VecGet {
                dst, vec, index, ..
            } => {
                f(*dst);
                f(*vec);
                operand_local(index, &mut f);
            }
            InstKind::VecSet {
                vec, index, value, ..
            } => {
                f(*vec);
                operand_local(index, &mut f);
                operand_local(value, &mut f);
            }
            InstKind::Call { dst, args, .. } => {
                if let Some(d) = dst {
                    f(*d);
                }
                for op in args {
                    operand_local(op, &mut f);
                }
            }
        }
    }

    /// Calls `f` on every local reference of an instruction (destination and operands), each
    /// once: what [`InstKind::def_mut`] and [`InstKind::for_each_use_mut`] give together, in one
    /// match instead of their two (dead-local-elim's renumbering runs it on every instruction).
    pub fn for_each_local_mut(&mut self, mut f: impl FnMut(&mut Local)) {
        match self {
            InstKind::Copy { dst, src: arg }
            | InstKind::Unary { dst, arg, .. }
            | InstKind::Cast { dst, arg, .. }
            | InstKind::SetField {
                dst, value: arg, ..
            } => {
                f(dst);
                operand_local_mut(arg, &mut f);
            }
            InstKind::Binary { dst, lhs, rhs, .. } | InstKind::Compare { dst, lhs, rhs, .. } => {
                f(dst);
                operand_local_mut(lhs, &mut f);
                operand_local_mut(rhs, &mut f);
            }
            InstKind::Make { dst, fields, .. } => {
                f(dst);
                for op in fields {
                    operand_local_mut(op, &mut f);
                }
            }
            InstKind::GetField { dst, src, .. } | InstKind::VecLen { dst, vec: src } => {
                f(dst);
                f(src);
            }
            InstKind::VecNew { dst, .. } => f(dst),
            InstKind::VecPop { dst, vec, .. } => {
                if let Some(d) = dst {
                    f(d);
                }
                f(vec);
            }
            InstKind::VecDrop { vec } => f(vec),
            InstKind::VecPush { vec, value } => {
                f(vec);
                operand_local_mut(value, &mut f);
            }
            InstKind::VecGet {
                dst, vec, index, ..
            } => {
                f(dst);
                f(vec);
                operand_local_mut(index, &mut f);
            }
            InstKind::VecSet {
                vec, index, value, ..
            } => {
                f(vec);
                operand_local_mut(index, &mut f);
                operand_local_mut(value, &mut f);
            }
            InstKind::Call { dst, args, .. } => {
                if let Some(d) = dst {
                    f(d);
                }
                for op in args {
                    operand_local_mut(op, &mut f);
                }
            }
        }
    }

    /// A copy of the instruction with every local it assigns or reads replaced by `f` of it
    /// (constants stay): what cloning it and renaming its destination ([`InstKind::def_mut`])
    /// and its operands ([`InstKind::for_each_use_mut`]) gives, in one match, without the
    /// clone's match and the two walks (the inliner copies every callee instruction this
    /// way). A variant added to [`InstKind`] must be added here.
    pub fn map_locals(&self, mut local: impl FnMut(Local) -> Local) -> InstKind {
        match *self {
            InstKind::Copy { dst, src } => InstKind::Copy {
                dst: local(dst),
                src: map_operand(&mut local, src),
            },
            InstKind::Unary { dst, op, arg } => InstKind::Unary {
                dst: local(dst),
                op,
                arg: map_operand(&mut local, arg),
            },
            InstKind::Binary {
                dst,
                op,
                lhs,
                rhs,
                check,
            } => InstKind::Binary {
                dst: local(dst),
                op,
                lhs: map_operand(&mut local, lhs),
                rhs: map_operand(&mut local, rhs),
                check,
            },
            InstKind::Compare { dst, op, lhs, rhs } => InstKind::Compare {
                dst: local(dst),
                op,
                lhs: map_operand(&mut local, lhs),
                rhs: map_operand(&mut local, rhs),
            },
            InstKind::Cast { dst, op, arg } => InstKind::Cast {
                dst: local(dst),
                op,
                arg: map_operand(&mut local, arg),
            },
            InstKind::Make {
                dst,
                ty,
                ref fields,
            } => InstKind::Make {
                dst: local(dst),
                ty,
                fields: fields
                    .iter()
                    .map(|&op| map_operand(&mut local, op))
                    .collect(),
            },
            InstKind::GetField { dst, src, field } => InstKind::GetField {
                dst: local(dst),
                src: local(src),
                field,
            },
            InstKind::SetField { dst, field, value } => InstKind::SetField {
                dst: local(dst),
                field,
                value: map_operand(&mut local, value),
            },
            InstKind::VecNew { dst, elem } => InstKind::VecNew {
                dst: local(dst),
                elem,
            },
            InstKind::VecLen { dst, vec } => InstKind::VecLen {
                dst: local(dst),
                vec: local(vec),
            },
            InstKind::VecPush { vec, value } => InstKind::VecPush {
                vec: local(vec),
                value: map_operand(&mut local, value),
            },
            InstKind::VecPop { dst, vec, check } => InstKind::VecPop {
                dst: dst.map(&mut local),
                vec: local(vec),
                check,
            },
            InstKind::VecGet {
                dst,
                vec,
                index,
                field,
                check,
            } => InstKind::VecGet {
                dst: local(dst),
                vec: local(vec),
                index: map_operand(&mut local, index),
                field,
                check,
            },
            InstKind::VecSet {
                vec,
                index,
                field,
                value,
                check,
            } => InstKind::VecSet {
                vec: local(vec),
                index: map_operand(&mut local, index),
                field,
                value: map_operand(&mut local, value),
                check,
            },
            InstKind::VecDrop { vec } => InstKind::VecDrop { vec: local(vec) },
            InstKind::Call {
                dst,
                func,
                ref args,
            } => InstKind::Call {
                dst: dst.map(&mut local),
                func,
                args: args.iter().map(|&a| map_operand(&mut local, a)).collect(),
            },
        }
    }

    /// Whether the instruction may trap (checked vec operations, division, push growth, drop of
    /// a dropped vec, calls).
    pub fn may_trap(&self) -> bool {
        match self {
            InstKind::Binary { op, check, .. } => op.may_trap() && check.is_checked(),
            InstKind::VecPop { check, .. }
            | InstKind::VecGet { check, .. }
            | InstKind::VecSet { check, .. } => check.is_checked(),
            InstKind::VecPush { .. } | InstKind::VecDrop { .. } | InstKind::Call { .. } => true,
            _ => false,
        }
    }

    /// Whether the instruction writes memory other than its destination local: vec contents,
    /// vec lengths, or anything a callee may touch.
    pub fn writes_memory(&self) -> bool {
        matches!(
            self,
            InstKind::VecPush { .. }
                | InstKind::VecPop { .. }
                | InstKind::VecSet { .. }
                | InstKind::VecDrop { .. }
                | InstKind::VecNew { .. }
                | InstKind::Call { .. }
        )
    }

    /// Whether the instruction reads vec memory (contents or length).
    pub fn reads_memory(&self) -> bool {
        matches!(
            self,
            InstKind::VecLen { .. }
                | InstKind::VecGet { .. }
                | InstKind::VecPop { .. }
                | InstKind::VecPush { .. }
                | InstKind::VecSet { .. }
                | InstKind::Call { .. }
        )
    }

    /// True when the instruction only computes its destination from its operands: no trap,
    /// no memory access, no other effect. Such an instruction can be removed when its result is
    /// dead, and executed speculatively.
    pub fn is_pure(&self) -> bool {
        match self {
            InstKind::Copy { .. }
            | InstKind::Unary { .. }
            | InstKind::Compare { .. }
            | InstKind::Cast { .. }
            | InstKind::Make { .. }
            | InstKind::GetField { .. }
            | InstKind::SetField { .. } => true,
            // An unchecked division does not trap where it is, but it may not be executed
            // speculatively (its precondition is only known where it stands): not pure.
            InstKind::Binary { op, .. } => !op.may_trap(),
            // Reading a length never traps (a dropped vec has length 0).
            InstKind::VecLen { .. } => true,
            _ => false,
        }
    }

    /// Whether deleting the instruction changes nothing when its destination is never read:
    /// it is pure, or it only reads memory without a check (`get.unchecked`, whose
    /// precondition the pass that made it proved).
    pub fn is_removable_when_dead(&self) -> bool {
        self.is_pure()
            || matches!(
                self,
                InstKind::VecGet {
                    check: Check::Unchecked,
                    ..
                }
            )
    }
}

/// `op` with its local, if it has one, replaced by `f` of it.
fn map_operand(f: &mut impl FnMut(Local) -> Local, op: Operand) -> Operand {
    match op {
        Operand::Local(l) => Operand::Local(f(l)),
        c => c,
    }
}

fn rename_local(local: &mut Local, mut f: impl FnMut(&mut Operand)) {
    let mut op = Operand::Local(*local);
    f(&mut op);
    if let Operand::Local(l) = op {
        *local = l;
    }
}

/// How a block ends.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Terminator {
    /// `br target`.
    Br(Block),
    /// `brif cond, then, else`.
    BrIf {
        cond: Operand,
        then_block: Block,
        else_block: Block,
    },
    /// `ret` or `ret x`.
    Ret(Option<Operand>),
    /// `trap "message"`: an explicit trap (kind `explicit`).
    Trap(String),
}

impl Terminator {
    /// The successor blocks, in order (a `brif` with equal targets lists it twice).
    pub fn successors(&self) -> impl Iterator<Item = Block> + '_ {
        let (a, b) = match *self {
            Terminator::Br(t) => (Some(t), None),
            Terminator::BrIf {
                then_block,
                else_block,
                ..
            } => (Some(then_block), Some(else_block)),
            _ => (None, None),
        };
        a.into_iter().chain(b)
    }

    /// Mutable access to the successor blocks (no allocation).
    pub fn successors_mut(&mut self) -> impl Iterator<Item = &mut Block> + '_ {
        let (a, b) = match self {
            Terminator::Br(t) => (Some(t), None),
            Terminator::BrIf {
                then_block,
                else_block,
                ..
            } => (Some(then_block), Some(else_block)),
            _ => (None, None),
        };
        a.into_iter().chain(b)
    }

    /// The operand the terminator reads, if any.
    pub fn used_operand(&self) -> Option<Operand> {
        match self {
            Terminator::BrIf { cond, .. } => Some(*cond),
            Terminator::Ret(v) => *v,
            _ => None,
        }
    }

    /// Mutable access to the operand the terminator reads, if any.
    pub fn used_operand_mut(&mut self) -> Option<&mut Operand> {
        match self {
            Terminator::BrIf { cond, .. } => Some(cond),
            Terminator::Ret(v) => v.as_mut(),
            _ => None,
        }
    }
}

/// Calls `f` on the local `op` reads, if it reads one.
fn operand_local(op: &Operand, f: &mut impl FnMut(Local)) {
    if let Operand::Local(l) = *op {
        f(l);
    }
}

/// Calls `f` on the local `op` reads, if it reads one, to rename it.
fn operand_local_mut(op: &mut Operand, f: &mut impl FnMut(&mut Local)) {
    if let Operand::Local(l) = op {
        f(l);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CastOp, EntityRef, ScalarType};

    /// [`InstKind::map_locals`] gives what cloning an instruction and renaming its
    /// destination and operands gives, for every kind of instruction.
    #[test]
    fn mapping_the_locals_is_cloning_then_renaming() {
        let map = |l: Local| Local::new(100 + 3 * l.index());
        let l = Local::new;
        let (a, b, c) = (
            Operand::Local(l(1)),
            Operand::Local(l(2)),
            Operand::Const(7),
        );
        let kinds = [
            InstKind::Copy { dst: l(0), src: a },
            InstKind::Unary {
                dst: l(0),
                op: UnaryOp::Neg,
                arg: b,
            },
            InstKind::Binary {
                dst: l(3),
                op: BinaryOp::Add,
                lhs: a,
                rhs: c,
                check: Check::Unchecked,
            },
            InstKind::Compare {
                dst: l(4),
                op: CmpOp::Slt,
                lhs: c,
                rhs: b,
            },
            InstKind::Cast {
                dst: l(5),
                op: CastOp::Sext,
                arg: a,
            },
            InstKind::Make {
                dst: l(6),
                ty: StructId::new(0),
                fields: vec![a, c, b],
            },
            InstKind::GetField {
                dst: l(0),
                src: l(6),
                field: 2,
            },
            InstKind::SetField {
                dst: l(6),
                field: 1,
                value: b,
            },
            InstKind::VecNew {
                dst: l(7),
                elem: ElemType::Scalar(ScalarType::I64),
            },
            InstKind::VecLen {
                dst: l(0),
                vec: l(7),
            },
            InstKind::VecPush {
                vec: l(7),
                value: a,
            },
            InstKind::VecPop {
                dst: Some(l(1)),
                vec: l(7),
                check: Check::Checked,
            },
            InstKind::VecPop {
                dst: None,
                vec: l(7),
                check: Check::Unchecked,
            },
            InstKind::VecGet {
                dst: l(2),
                vec: l(7),
                index: a,
                field: Some(1),
                check: Check::Checked,
            },
            InstKind::VecSet {
                vec: l(7),
                index: c,
                field: None,
                value: b,
                check: Check::Checked,
            },
            InstKind::VecDrop { vec: l(7) },
            InstKind::Call {
                dst: Some(l(3)),
                func: FuncId::new(1),
                args: vec![b, c, a],
            },
            InstKind::Call {
                dst: None,
                func: FuncId::new(0),
                args: vec![],
            },
        ];
        for kind in kinds {
            let mut expected = kind.clone();
            if let Some(d) = expected.def_mut() {
                *d = map(*d);
            }
            expected.for_each_use_mut(|op| {
                if let Operand::Local(l) = op {
                    *l = map(*l);
                }
            });
            assert_eq!(kind.map_locals(map), expected, "{kind:?}");
        }
    }
}
