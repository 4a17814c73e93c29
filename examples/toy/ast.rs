//! The syntax tree of a toy program, as the parser builds it: names are still strings and
//! nothing is typed yet (see `check` for the typed form).

use poolopt::ir::Loc;

/// A type as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeExpr {
    I64,
    I32,
    U64,
    U32,
    Bool,
    /// `(T1, T2, ...)`: only as a function's return type (multiple return values).
    Tuple(Vec<TypeExpr>),
    Named(String),
    Vec(Box<TypeExpr>),
}

/// `struct Name { field: type, ... }`.
#[derive(Clone, Debug)]
pub struct StructDecl {
    pub name: String,
    pub fields: Vec<(String, TypeExpr, Loc)>,
    pub loc: Loc,
}

/// `fn name(param: type, ...) -> type { ... }`.
#[derive(Clone, Debug)]
pub struct FnDecl {
    pub name: String,
    pub params: Vec<(String, TypeExpr, Loc)>,
    pub ret: Option<TypeExpr>,
    pub body: Vec<Stmt>,
    pub loc: Loc,
    /// Where the closing brace is (a missing `return` is reported there).
    pub end: Loc,
}

/// A whole program.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub structs: Vec<StructDecl>,
    pub fns: Vec<FnDecl>,
}

/// One arm of an `if` chain: `if cond { body }` or `else if cond { body }`.
#[derive(Clone, Debug)]
pub struct IfArm {
    pub cond: Expr,
    pub body: Vec<Stmt>,
    /// Where the arm's `if` is.
    pub loc: Loc,
}

/// A statement.
#[derive(Clone, Debug)]
pub enum Stmt {
    Let {
        name: String,
        ty: Option<TypeExpr>,
        init: Expr,
        loc: Loc,
    },
    /// `place = value;` where the place is a variable, a field, an element or an element field.
    Assign {
        place: Expr,
        value: Expr,
        loc: Loc,
    },
    /// `if c1 { .. } else if c2 { .. } ... else { .. }`: the arms in source order and the final
    /// `else` (empty without one). An `else if` chain is one statement, not an `if` nested in an
    /// `else`, so a chain of any length is one level deep for the parser's nesting bound and for
    /// every pass that walks the tree.
    If {
        arms: Vec<IfArm>,
        else_body: Vec<Stmt>,
    },
    While {
        cond: Expr,
        body: Vec<Stmt>,
        loc: Loc,
    },
    Return {
        value: Option<Expr>,
        loc: Loc,
    },
    Trap {
        message: String,
        loc: Loc,
    },
    /// `let (a, b, _) = value;`: binds the parts of a multiple-value result (`_` drops one).
    LetTuple {
        names: Vec<(String, Loc)>,
        init: Expr,
        loc: Loc,
    },
    /// `break;`: leaves the innermost loop.
    Break {
        loc: Loc,
    },
    /// `continue;`: goes back to the innermost loop's test.
    Continue {
        loc: Loc,
    },
    Expr(Expr),
}

/// Binary operators, by precedence group.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    AndAnd,
    OrOr,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::AndAnd => "&&",
            BinOp::OrOr => "||",
        }
    }
}

/// Unary operators.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    /// `!`: logical not (bool).
    Not,
    /// `~`: bitwise not (integers).
    BitNot,
}

/// An expression; `loc` is where diagnostics point (its start, or a method's or field's name),
/// `start..end` its whole source text (`end` is just past its last character).
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub loc: Loc,
    pub start: Loc,
    pub end: Loc,
}

/// The forms of expression.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A literal with its sign: `-(2^63)` up to `2^64 - 1`; the checker fits it to its type.
    Int(i128),
    Bool(bool),
    Var(String),
    Unary(UnOp, Box<Expr>),
    /// The operands and the operator's own location (the expression's is its start).
    Binary(BinOp, Box<Expr>, Box<Expr>, Loc),
    Cast(Box<Expr>, TypeExpr),
    Call(String, Vec<Expr>),
    /// `recv.method(args)`: the vec operations `push`, `pop`, `len`, `drop`.
    Method(Box<Expr>, String, Vec<Expr>),
    Field(Box<Expr>, String),
    Index(Box<Expr>, Box<Expr>),
    StructLit(String, Vec<(String, Expr, Loc)>),
    NewVec(TypeExpr),
    /// `(a, b, ...)`: several values, returned from a function or destructured at once.
    Tuple(Vec<Expr>),
}
