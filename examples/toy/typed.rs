//! The typed program the checker produces and the lowering consumes: every name resolved to
//! an index, every expression annotated with its type, every operator with its signedness.

use poolopt::ir::Loc;

/// The element type of a vec: a scalar or a struct of scalars.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Elem {
    I64,
    I32,
    U64,
    U32,
    Bool,
    Struct(usize),
}

/// The type of a toy value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    I64,
    I32,
    /// Unsigned integers: the same IR types as `i64`/`i32` (the IR's integers have no sign),
    /// with unsigned division, remainder, comparisons, `>>` and widening.
    U64,
    U32,
    Bool,
    /// A struct whose fields are all scalars: an IR struct value.
    Struct(usize),
    /// A struct with at least one vec field: split into one IR local per field.
    Split(usize),
    Vec(Elem),
    /// Several scalars returned at once (index into [`TProgram::tuples`]): an IR struct.
    Tuple(usize),
    /// What a call of a function without a return type, `push` and `drop` produce.
    Void,
}

impl Ty {
    pub fn is_int(self) -> bool {
        matches!(self, Ty::I64 | Ty::I32 | Ty::U64 | Ty::U32)
    }

    pub fn is_unsigned(self) -> bool {
        matches!(self, Ty::U64 | Ty::U32)
    }

    pub fn is_scalar(self) -> bool {
        self.is_int() || self == Ty::Bool
    }

    /// The width in bits of an integer type (0 for anything else).
    pub fn bits(self) -> u32 {
        match self {
            Ty::I64 | Ty::U64 => 64,
            Ty::I32 | Ty::U32 => 32,
            _ => 0,
        }
    }

    pub fn elem(self) -> Option<Elem> {
        match self {
            Ty::I64 => Some(Elem::I64),
            Ty::I32 => Some(Elem::I32),
            Ty::U64 => Some(Elem::U64),
            Ty::U32 => Some(Elem::U32),
            Ty::Bool => Some(Elem::Bool),
            Ty::Struct(s) => Some(Elem::Struct(s)),
            _ => None,
        }
    }
}

impl Elem {
    pub fn ty(self) -> Ty {
        match self {
            Elem::I64 => Ty::I64,
            Elem::I32 => Ty::I32,
            Elem::U64 => Ty::U64,
            Elem::U32 => Ty::U32,
            Elem::Bool => Ty::Bool,
            Elem::Struct(s) => Ty::Struct(s),
        }
    }
}

/// A struct declaration with resolved field types.
#[derive(Clone, Debug)]
pub struct StructInfo {
    pub name: String,
    pub fields: Vec<(String, Ty)>,
    /// True when a field is a vec: the struct is split into one local per field.
    pub split: bool,
}

/// A variable (parameter or `let`) of a function.
#[derive(Clone, Debug)]
pub struct VarInfo {
    pub name: String,
    pub ty: Ty,
    pub loc: Loc,
}

/// A variable's index in its function.
pub type VarId = usize;

/// A checked function.
#[derive(Clone, Debug)]
pub struct TFn {
    pub name: String,
    /// The first `params` variables are the parameters.
    pub params: usize,
    pub vars: Vec<VarInfo>,
    pub ret: Ty,
    pub body: Vec<TStmt>,
    pub loc: Loc,
    pub end: Loc,
}

/// A checked program.
#[derive(Clone, Debug)]
pub struct TProgram {
    pub structs: Vec<StructInfo>,
    /// The tuple types of multiple-value returns, each a list of scalar types.
    pub tuples: Vec<Vec<Ty>>,
    pub fns: Vec<TFn>,
}

/// Where an assignment stores.
#[derive(Clone, Debug)]
pub enum Place {
    Var(VarId),
    /// One field of a split-struct variable (itself a local).
    SplitField(VarId, usize),
    /// One field of a struct-valued variable.
    VarField(VarId, usize),
    /// An element of a vec, or one field of it.
    Elem {
        vec: TExpr,
        index: TExpr,
        field: Option<usize>,
    },
}

/// A checked arm of an `if` chain.
#[derive(Clone, Debug)]
pub struct TIfArm {
    pub cond: TExpr,
    pub body: Vec<TStmt>,
    pub loc: Loc,
}

/// A checked statement.
#[derive(Clone, Debug)]
pub enum TStmt {
    /// `let` and plain assignment both become this.
    Assign {
        place: Place,
        value: TExpr,
        loc: Loc,
    },
    /// An `if` chain: its arms in order and the final `else` (see `ast::Stmt::If`).
    If {
        arms: Vec<TIfArm>,
        else_body: Vec<TStmt>,
    },
    While {
        cond: TExpr,
        body: Vec<TStmt>,
        loc: Loc,
    },
    Return {
        value: Option<TExpr>,
        loc: Loc,
    },
    Trap {
        message: String,
        loc: Loc,
    },
    /// `(a, b) = value` / `let (a, b) = value`: each part of a tuple value to a place (`None`
    /// for `_`).
    AssignTuple {
        places: Vec<Option<Place>>,
        value: TExpr,
        loc: Loc,
    },
    Break {
        loc: Loc,
    },
    Continue {
        loc: Loc,
    },
    Expr(TExpr),
}

/// Integer and bitwise operators, with signedness decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    SDiv,
    SRem,
    UDiv,
    URem,
    And,
    Or,
    Xor,
    Shl,
    AShr,
    LShr,
}

/// Comparisons: signed, unsigned (on `u64`/`u32`), and equality on bools.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    ULt,
    ULe,
    UGt,
    UGe,
}

/// The bit-count built-ins `ctz(x)`, `clz(x)`, `popcnt(x)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BitCount {
    Ctz,
    Clz,
    Popcnt,
}

impl BitCount {
    pub fn from_name(name: &str) -> Option<BitCount> {
        Some(match name {
            "ctz" => BitCount::Ctz,
            "clz" => BitCount::Clz,
            "popcnt" => BitCount::Popcnt,
            _ => return None,
        })
    }
}

/// Conversions between scalar types.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Conv {
    /// Same type: a copy.
    Same,
    Trunc,
    SExt,
    ZExt,
}

/// A typed expression.
#[derive(Clone, Debug)]
pub struct TExpr {
    pub kind: TExprKind,
    pub ty: Ty,
    pub loc: Loc,
    /// `start..end` is the expression's source text (`end` just past its last character).
    pub start: Loc,
    pub end: Loc,
}

/// The forms of typed expression.
#[derive(Clone, Debug)]
pub enum TExprKind {
    Const(i64),
    Var(VarId),
    SplitField(VarId, usize),
    Neg(Box<TExpr>),
    Not(Box<TExpr>),
    /// `~x` on an integer.
    BitNot(Box<TExpr>),
    BitCount(BitCount, Box<TExpr>),
    Arith(Arith, Box<TExpr>, Box<TExpr>),
    Cmp(Cmp, Box<TExpr>, Box<TExpr>),
    /// `&&` (true) or `||` (false), short-circuit.
    Logic(bool, Box<TExpr>, Box<TExpr>),
    Cast(Conv, Box<TExpr>),
    Call(usize, Vec<TExpr>),
    Len(Box<TExpr>),
    Pop(Box<TExpr>),
    Push(Box<TExpr>, Box<TExpr>),
    Drop(Box<TExpr>),
    NewVec(Elem),
    /// A field of a struct value.
    Field(Box<TExpr>, usize),
    /// `v[i]` or `v[i].f`.
    Index(Box<TExpr>, Box<TExpr>, Option<usize>),
    /// A literal of a scalar struct or of a split struct (fields in declaration order).
    StructLit(usize, Vec<TExpr>),
    /// A tuple literal `(a, b)` (returned, or destructured at once).
    Tuple(Vec<TExpr>),
}
