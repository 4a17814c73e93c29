//! The vocabulary of the fact language: [`Term`]s (0, the value of an `i64` local, the length
//! of a vec), the difference [`Constraint`] `a <= b + c` between two of them, the compares
//! known for bool locals ([`CmpFact`]), the quotients known for `sdiv` results
//! ([`QuotientFact`]), one [`Fact`] of any kind, and how each reads in messages.
//!
//! A constraint is a statement about the *mathematical* integers its terms denote: every fact
//! the transfer functions add is proved for the exact values, so wrapping arithmetic never
//! enters a constraint (an `add` whose result may wrap produces no constraint at all).

use poolopt_ir::{CmpOp, EntityRef, Function, Local, Operand};

/// An upper bound of every vec length: 2^62. A vec's capacity is 0 or `4 * 2^k` (docs/ir.md,
/// §3.2: it starts at 4 and doubles) and its buffer of `cap * elem_size >= cap` bytes is a real
/// allocation, which cannot exceed `isize::MAX` bytes; so `len <= cap <= 2^62`. This is what
/// lets `i + 1`, `i + 2`, ... not wrap for an index below a length.
pub const MAX_LEN: i64 = 1 << 62;

/// A term of a constraint: 0, the value of an `i64` local, or `len` of a vec local.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Term(pub(super) u32);

/// What a [`Term`] denotes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum TermKind {
    Zero,
    Value(Local),
    Len(Local),
}

impl Term {
    /// The constant 0.
    pub const ZERO: Term = Term(0);

    /// The value of the `i64` local `l`.
    pub fn value(l: Local) -> Term {
        Term(2 * l.index() as u32 + 1)
    }

    /// The length of the vec held in vec local `v`.
    pub fn len(v: Local) -> Term {
        Term(2 * v.index() as u32 + 2)
    }

    pub fn kind(self) -> TermKind {
        match self.0 {
            0 => TermKind::Zero,
            n if n % 2 == 1 => TermKind::Value(Local::new((n as usize - 1) / 2)),
            n => TermKind::Len(Local::new((n as usize - 2) / 2)),
        }
    }

    /// Whether the term is the value or the length of local `l`.
    pub(super) fn is_of(self, l: Local) -> bool {
        // 2l + 1 and 2l + 2 are the two terms of `l`; 0 wraps to a half-range no local has.
        (self.0.wrapping_sub(1) >> 1) as usize == l.index()
    }

    /// The local the term is about (`None` for 0).
    pub fn local(self) -> Option<Local> {
        match self.kind() {
            TermKind::Zero => None,
            TermKind::Value(l) | TermKind::Len(l) => Some(l),
        }
    }

    /// Whether the term is the value of a local.
    pub(super) fn is_value(self) -> bool {
        self.0 % 2 == 1
    }

    /// Whether the term is a length.
    pub fn is_len(self) -> bool {
        self.0 != 0 && self.0.is_multiple_of(2)
    }

    /// The vec whose length this is, if it is a length.
    pub fn len_of(self) -> Option<Local> {
        match self.kind() {
            TermKind::Len(v) => Some(v),
            _ => None,
        }
    }

    /// `i`, `len(v)` or `0`, with the function's local names.
    pub fn describe(self, func: &Function) -> String {
        match self.kind() {
            TermKind::Zero => "0".to_string(),
            TermKind::Value(l) => func.local_name(l).to_string(),
            TermKind::Len(v) => format!("len({})", func.local_name(v)),
        }
    }
}

/// `a <= b + c`.
///
/// Laid out `b` first, then `a` (`repr(C)`): on a little-endian machine the two terms then
/// read as one `u64` equal to `Constraint::packed_key`, so the binary searches and merges
/// over a set's sorted constraints compare a pair in one load.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(C)]
pub struct Constraint {
    pub b: Term,
    pub a: Term,
    pub c: i64,
}

impl Constraint {
    pub fn new(a: Term, b: Term, c: i64) -> Constraint {
        Constraint { a, b, c }
    }

    pub(super) fn key(&self) -> (Term, Term) {
        (self.a, self.b)
    }

    /// The pair as one integer with the order of [`Constraint::key`] (one compare instead of
    /// two in the searches over a set's sorted constraints).
    pub(super) fn packed_key(&self) -> u64 {
        packed_pair(self.a, self.b)
    }

    pub(super) fn mentions(&self, t: Term) -> bool {
        self.a == t || self.b == t
    }

    /// Whether the constraint only restates what is true of every length (`0 <= len(v) + c`
    /// with `c >= 0`): a set never records one (see [`FactSet::add`](super::FactSet::add)).
    pub(super) fn implied_by_length(a: Term, b: Term, c: i64) -> bool {
        a == Term::ZERO && c >= 0 && b.is_len()
    }

    /// Readable form: `i >= 0`, `i < len(v)`, `len(v) > 3`, `t <= i + 1`, `i <= 9`.
    pub fn describe(&self, func: &Function) -> String {
        let (a, b, c) = (self.a, self.b, self.c as i128);
        let plus = |t: Term, c: i128| -> String {
            let t = t.describe(func);
            match c.cmp(&0) {
                std::cmp::Ordering::Equal => t,
                std::cmp::Ordering::Greater => format!("{t} + {c}"),
                std::cmp::Ordering::Less => format!("{t} - {}", -c),
            }
        };
        if a == Term::ZERO {
            // 0 <= b + c: b >= -c; with b a length and c < 0, len(b) > -c - 1.
            if b.len_of().is_some() && c < 0 {
                return format!("{} > {}", b.describe(func), -c - 1);
            }
            return format!("{} >= {}", b.describe(func), -c);
        }
        if b == Term::ZERO {
            return format!("{} <= {c}", a.describe(func));
        }
        if c == -1 {
            return format!("{} < {}", a.describe(func), b.describe(func));
        }
        if c < -1 {
            return format!("{} < {}", a.describe(func), plus(b, c + 1));
        }
        format!("{} <= {}", a.describe(func), plus(b, c))
    }
}

/// `(a, b)` as one integer ordered as the pair is: `a` in the high half.
pub(super) fn packed_pair(a: Term, b: Term) -> u64 {
    (u64::from(a.0) << 32) | u64::from(b.0)
}

/// Bool local `c` holds `lhs op rhs` for the current values of the operands.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct CmpFact {
    pub c: Local,
    pub op: CmpOp,
    pub lhs: Operand,
    pub rhs: Operand,
}

impl CmpFact {
    pub(super) fn mentions(&self, l: Local) -> bool {
        let lo = Operand::Local(l);
        self.c == l || self.lhs == lo || self.rhs == lo
    }
}

/// Local `d` holds `x sdiv k` (truncating) for the current values of `d` and `x`, with a
/// constant `k >= 1`. Not a difference constraint (`x` is about `k * d`), but it answers what
/// difference constraints cannot: a quotient of at least 1 means `x >= k`, and one of at most
/// -1 means `x <= -k` (`|x| >= k * |d|` and the signs agree), so a loop that runs while
/// `i < x / 2` knows inside that `x >= 2`
/// ([`FactSet::quotient_bounds`](super::FactQueries::quotient_bounds)).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct QuotientFact {
    pub d: Local,
    pub x: Local,
    pub k: i64,
}

/// A bound of a dividend and the quotient local that gives it
/// ([`FactSet::quotient_bounds`](super::FactQueries::quotient_bounds)).
pub type QuotientBound = (i64, Local);

impl QuotientFact {
    pub(super) fn mentions(&self, l: Local) -> bool {
        self.d == l || self.x == l
    }
}

/// One fact, for queries, change logs and messages.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Fact {
    Le(Constraint),
    CmpIs(CmpFact),
}

impl Fact {
    /// Renders the fact with the function's local names.
    pub fn describe(&self, func: &Function) -> String {
        match self {
            Fact::Le(k) => k.describe(func),
            Fact::CmpIs(f) => {
                let op = |o: Operand| match o {
                    Operand::Local(l) => func.local_name(l).to_string(),
                    Operand::Const(c) => c.to_string(),
                };
                format!(
                    "{} == ({} {} {})",
                    func.local_name(f.c),
                    op(f.lhs),
                    f.op.name(),
                    op(f.rhs)
                )
            }
        }
    }
}

impl Fact {
    /// `i >= 0`.
    pub fn non_neg(i: Local) -> Fact {
        Fact::Le(Constraint::new(Term::ZERO, Term::value(i), 0))
    }

    /// `i < len(v)`.
    pub fn lt_len(i: Local, v: Local) -> Fact {
        Fact::Le(Constraint::new(Term::value(i), Term::len(v), -1))
    }

    /// `len(v) > k` (`None` when `k == i64::MAX`: no length is that large).
    pub fn len_gt(v: Local, k: i64) -> Option<Fact> {
        fit(-(k as i128) - 1).map(|c| Fact::Le(Constraint::new(Term::ZERO, Term::len(v), c)))
    }
}

/// `x` as an `i64`, when it fits.
pub fn fit(x: i128) -> Option<i64> {
    i64::try_from(x).ok()
}
