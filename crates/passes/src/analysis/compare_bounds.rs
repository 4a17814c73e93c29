//! Compares of two `i64` operands and difference bounds `a <= b + c`, both ways: the one
//! rule table that `bounds-check-elim` (over the fact analysis) and `sparse-bounds-check-elim`
//! (over the sparse prover) share.
//!
//! - [`decide_compare`] decides a compare from proved bounds (explicit checks). Soundness:
//!   each answer follows from the bounds it asked for. Signed: `x < y` is true when
//!   `x <= y - 1` holds and false when `y <= x` does (likewise for the other three). `x == y`
//!   is false, and `x != y` true, when either is below the other. Unsigned: for `0 <= a`,
//!   `a <u b` when `a < b`, and `b <=u a` when `0 <= b <= a` (both readings agree on
//!   non-negative values).
//! - [`compare_consequences`] gives the bounds a compare that held implies (branch edges).
//!   Soundness: signed compares and `==` are bounds as they stand (`x < y` is
//!   `x <= y - 1`). `x != y` gives `x <= y - 1` only where `x <= y` was known. `x <u y`
//!   gives `0 <= x` and `x <= y - 1` only where `0 <= y` was known: a negative `x` is at
//!   least 2^63 unsigned, above every non-negative `y`, so `x` is not negative, and on
//!   non-negative values the unsigned and signed orders agree (likewise `<=u`; `>u`, `>=u`
//!   with the operands swapped). Other unsigned compares give nothing.

use poolopt_ir::CmpOp;

/// An operand: a term (whatever the prover names values by) plus a constant.
pub type TermPlus<T> = (T, i128);

/// The value of `x op y` when the bounds decide it. `zero` is the term of the constant 0;
/// `le(a, b, c)` answers whether `a <= b + c` is proved for two different terms (a compare
/// of a term with itself is decided here).
pub fn decide_compare<T: Copy + PartialEq>(
    op: CmpOp,
    x: TermPlus<T>,
    y: TermPlus<T>,
    zero: T,
    le: impl FnMut(T, T, i128) -> bool,
) -> Option<bool> {
    let mut b = Bounds {
        le,
        zero: (zero, 0),
    };
    match op {
        CmpOp::Slt => b.signed(x, y, -1),
        CmpOp::Sle => b.signed(x, y, 0),
        CmpOp::Sgt => b.signed(y, x, -1),
        CmpOp::Sge => b.signed(y, x, 0),
        CmpOp::Eq => (b.proves(x, y, -1) || b.proves(y, x, -1)).then_some(false),
        CmpOp::Ne => (b.proves(x, y, -1) || b.proves(y, x, -1)).then_some(true),
        CmpOp::Ult => b.unsigned(x, y, true),
        CmpOp::Ule => b.unsigned(x, y, false),
        CmpOp::Ugt => b.unsigned(y, x, true),
        CmpOp::Uge => b.unsigned(y, x, false),
    }
}

/// Whether the bounds show `x op y` true: [`decide_compare`]'s `Some(true)` answer, asked
/// alone. Asked of the negated compare it is a refutation: `op.negate()`'s `Some(true)`
/// answers are `op`'s `Some(false)` ones.
pub fn compare_holds<T: Copy + PartialEq>(
    op: CmpOp,
    x: TermPlus<T>,
    y: TermPlus<T>,
    zero: T,
    le: impl FnMut(T, T, i128) -> bool,
) -> bool {
    let mut b = Bounds {
        le,
        zero: (zero, 0),
    };
    match op {
        CmpOp::Slt => b.proves(x, y, -1),
        CmpOp::Sle => b.proves(x, y, 0),
        CmpOp::Sgt => b.proves(y, x, -1),
        CmpOp::Sge => b.proves(y, x, 0),
        CmpOp::Eq => false,
        CmpOp::Ne => b.proves(x, y, -1) || b.proves(y, x, -1),
        CmpOp::Ult => b.unsigned_holds(x, y, -1),
        CmpOp::Ule => b.unsigned_holds(x, y, 0),
        CmpOp::Ugt => b.unsigned_holds(y, x, -1),
        CmpOp::Uge => b.unsigned_holds(y, x, 0),
    }
}

/// A premise that some consequences of a compare need (see [`compare_consequences`]).
#[derive(Copy, Clone, Debug)]
pub enum Premise<T> {
    /// `0 <= o`.
    NonNegative(TermPlus<T>),
    /// `a <= b`.
    AtMost(TermPlus<T>, TermPlus<T>),
}

/// The bounds that `x op y` being true gives: `emit(a, b, c, k)` for each `a <= b + c`,
/// where `k` is what it rests on besides the compare: `always` when nothing, otherwise
/// `known`'s answer for the premise it needs (`None`: the bound is not given). The order
/// of the bounds is fixed (callers' outputs depend on it).
pub fn compare_consequences<T: Copy, K: Copy>(
    op: CmpOp,
    x: TermPlus<T>,
    y: TermPlus<T>,
    zero: T,
    always: K,
    known: &mut impl FnMut(Premise<T>) -> Option<K>,
    emit: &mut impl FnMut(TermPlus<T>, TermPlus<T>, i128, K),
) {
    match op {
        CmpOp::Slt => emit(x, y, -1, always),
        CmpOp::Sle => emit(x, y, 0, always),
        CmpOp::Sgt => emit(y, x, -1, always),
        CmpOp::Sge => emit(y, x, 0, always),
        CmpOp::Eq => {
            emit(x, y, 0, always);
            emit(y, x, 0, always);
        }
        // x != y with x <= y known means x < y (the `i != n` loop exit).
        CmpOp::Ne => {
            if let Some(k) = known(Premise::AtMost(x, y)) {
                emit(x, y, -1, k);
            }
            if let Some(k) = known(Premise::AtMost(y, x)) {
                emit(y, x, -1, k);
            }
        }
        // x <u y with y >= 0: 0 <= x < y (a negative x is a huge unsigned number).
        CmpOp::Ult | CmpOp::Ule => {
            if let Some(k) = known(Premise::NonNegative(y)) {
                emit((zero, 0), x, 0, k);
                emit(x, y, if op == CmpOp::Ult { -1 } else { 0 }, k);
            }
        }
        CmpOp::Ugt => compare_consequences(CmpOp::Ult, y, x, zero, always, known, emit),
        CmpOp::Uge => compare_consequences(CmpOp::Ule, y, x, zero, always, known, emit),
    }
}

/// The questions of [`decide_compare`], over one prover.
struct Bounds<T, F> {
    le: F,
    zero: TermPlus<T>,
}

impl<T: Copy + PartialEq, F: FnMut(T, T, i128) -> bool> Bounds<T, F> {
    /// Whether `a <= b + c` for operands.
    fn proves(&mut self, a: TermPlus<T>, b: TermPlus<T>, c: i128) -> bool {
        let off = b.1 + c - a.1;
        if a.0 == b.0 {
            off >= 0
        } else {
            (self.le)(a.0, b.0, off)
        }
    }

    /// `a <= b + c` proved: true; its negation `b <= a - c - 1` proved: false.
    fn signed(&mut self, a: TermPlus<T>, b: TermPlus<T>, c: i128) -> Option<bool> {
        if self.proves(a, b, c) {
            Some(true)
        } else if self.proves(b, a, -c - 1) {
            Some(false)
        } else {
            None
        }
    }

    /// `a <u b` (`a <=u b` when not `strict`): true, false, or undecided.
    fn unsigned(&mut self, a: TermPlus<T>, b: TermPlus<T>, strict: bool) -> Option<bool> {
        let (when_true, when_false) = if strict { (-1, 0) } else { (0, -1) };
        if self.unsigned_holds(a, b, when_true) {
            Some(true)
        } else if self.unsigned_holds(b, a, when_false) {
            Some(false)
        } else {
            None
        }
    }

    /// `0 <= a` and `a <= b + c`: then `a <=u b + c` (`c` is 0 or -1).
    fn unsigned_holds(&mut self, a: TermPlus<T>, b: TermPlus<T>, c: i128) -> bool {
        let zero = self.zero;
        self.proves(zero, a, 0) && self.proves(a, b, c)
    }
}

#[cfg(test)]
mod tests {
    use super::{compare_consequences, compare_holds, decide_compare, Premise};
    use poolopt_ir::{CmpOp, ScalarType};

    /// A prover that knows each term's exact value (term 0 is the constant 0) answers every
    /// decided compare with its truth; one that knows nothing decides none of two terms.
    #[test]
    fn decisions_follow_from_the_bounds_asked() {
        let samples = [i64::MIN, -7, -1, 0, 1, 3, 7, i64::MAX];
        for op in CmpOp::ALL {
            for &a in &samples {
                for &b in &samples {
                    let values = [0i128, a as i128, b as i128];
                    let exact = |x: usize, y: usize, c: i128| values[x] <= values[y] + c;
                    let got = decide_compare(op, (1, 0), (2, 0), 0, exact);
                    // Every answer is the truth. The signed orders are always decided; `==`
                    // is only ever decided false and `!=` true (a difference is what the
                    // bounds show); the unsigned orders only on non-negative values.
                    if let Some(v) = got {
                        assert_eq!(v, op.holds(ScalarType::I64, a, b), "{op:?} {a} {b}");
                    }
                    let decided = match op {
                        CmpOp::Eq | CmpOp::Ne => a != b,
                        CmpOp::Ult | CmpOp::Ule | CmpOp::Ugt | CmpOp::Uge => a >= 0 && b >= 0,
                        _ => true,
                    };
                    assert_eq!(got.is_some(), decided, "{op:?} {a} {b}");
                    // Asked alone, each half gives the same answers.
                    let holds = |op| compare_holds(op, (1, 0), (2, 0), 0, exact);
                    assert_eq!(holds(op), got == Some(true), "{op:?} {a} {b}");
                    assert_eq!(holds(op.negate()), got == Some(false), "{op:?} {a} {b}");
                    assert_eq!(
                        decide_compare(op, (1, 0), (2, 0), 0, |_, _, _| false),
                        None,
                        "{op:?}: decided without a bound"
                    );
                }
            }
        }
    }

    #[test]
    fn a_term_against_itself_needs_no_prover() {
        let nothing = |_: u8, _: u8, _: i128| false;
        assert_eq!(
            decide_compare(CmpOp::Slt, (1, 0), (1, 1), 0, nothing),
            Some(true)
        );
        assert_eq!(
            decide_compare(CmpOp::Eq, (1, 0), (1, 1), 0, nothing),
            Some(false)
        );
        assert_eq!(
            decide_compare(CmpOp::Sge, (1, 2), (1, 1), 0, nothing),
            Some(true)
        );
    }

    /// Where the compare holds and each premise asked holds, every bound given holds; where
    /// every premise is granted, each compare gives its bounds (the unsigned ones only with
    /// the premise on the right operand, `!=` only with an order between the operands).
    #[test]
    fn consequences_hold_where_the_compare_and_the_premises_do() {
        let samples = [i64::MIN, -7, -1, 0, 1, 3, 7, i64::MAX];
        for op in CmpOp::ALL {
            for &a in &samples {
                for &b in &samples {
                    if !op.holds(ScalarType::I64, a, b) {
                        continue;
                    }
                    let values = [0i128, a as i128, b as i128];
                    let value = |(t, k): (usize, i128)| values[t] + k;
                    let mut given = Vec::new();
                    compare_consequences(
                        op,
                        (1, 0),
                        (2, 0),
                        0,
                        true,
                        &mut |premise| match premise {
                            Premise::NonNegative(o) => (value(o) >= 0).then_some(false),
                            Premise::AtMost(p, q) => (value(p) <= value(q)).then_some(false),
                        },
                        &mut |p, q, c, always| given.push((p, q, c, always)),
                    );
                    for &(p, q, c, _) in &given {
                        assert!(
                            value(p) <= value(q) + c,
                            "{op:?} {a} {b}: {p:?} <= {q:?} + {c}"
                        );
                    }
                    let unconditional = given.iter().filter(|g| g.3).count();
                    let expected = match op {
                        CmpOp::Slt | CmpOp::Sle | CmpOp::Sgt | CmpOp::Sge => 1,
                        CmpOp::Eq => 2,
                        _ => 0,
                    };
                    assert_eq!(unconditional, expected, "{op:?} {a} {b}");
                    let conditional = given.len() - unconditional;
                    let needs = match op {
                        CmpOp::Ne => 1,
                        CmpOp::Ult | CmpOp::Ule => 2 * usize::from(b >= 0),
                        CmpOp::Ugt | CmpOp::Uge => 2 * usize::from(a >= 0),
                        _ => 0,
                    };
                    assert_eq!(conditional, needs, "{op:?} {a} {b}");
                }
            }
        }
    }

    /// With every premise granted, each compare gives exactly its tightest bounds, in the
    /// fixed order (term 0 is the constant 0, 1 is `x`, 2 is `y`; `true`: needs no premise).
    #[test]
    fn each_compare_gives_its_tightest_bounds() {
        use CmpOp::*;
        /// `a <= b + c`, and whether it needs no premise.
        type Bound = (u8, u8, i128, bool);
        let table: [(CmpOp, &[Bound]); 10] = [
            (Slt, &[(1, 2, -1, true)]),
            (Sle, &[(1, 2, 0, true)]),
            (Sgt, &[(2, 1, -1, true)]),
            (Sge, &[(2, 1, 0, true)]),
            (Eq, &[(1, 2, 0, true), (2, 1, 0, true)]),
            (Ne, &[(1, 2, -1, false), (2, 1, -1, false)]),
            (Ult, &[(0, 1, 0, false), (1, 2, -1, false)]),
            (Ule, &[(0, 1, 0, false), (1, 2, 0, false)]),
            (Ugt, &[(0, 2, 0, false), (2, 1, -1, false)]),
            (Uge, &[(0, 2, 0, false), (2, 1, 0, false)]),
        ];
        for (op, expected) in table {
            let mut given = Vec::new();
            compare_consequences(
                op,
                (1u8, 0),
                (2, 0),
                0,
                true,
                &mut |_| Some(false),
                &mut |p, q, c, always| {
                    assert!(p.1 == 0 && q.1 == 0, "{op:?}: an offset on an operand");
                    given.push((p.0, q.0, c, always));
                },
            );
            assert_eq!(given, expected, "{op:?}");
        }
    }
}
