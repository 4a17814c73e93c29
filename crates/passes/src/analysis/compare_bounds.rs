//! Deciding a compare of two `i64` operands from proved difference bounds: the one rule table
//! that `bounds-check-elim` (asking the fact analysis) and `sparse-bounds-check-elim` (asking
//! the sparse prover) share for explicit checks.
//!
//! Soundness: each answer follows from the bounds it asked for. Signed: `x < y` is true when
//! `x <= y - 1` holds and false when `y <= x` does (likewise for the other three). `x == y` is
//! false, and `x != y` true, when either is below the other. Unsigned: for `0 <= a`, `a <u b`
//! when `a < b`, and `b <=u a` when `0 <= b <= a` (both readings agree on non-negative values).

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
        let zero = self.zero;
        if self.proves(zero, a, 0) && self.proves(a, b, when_true) {
            Some(true)
        } else if self.proves(zero, b, 0) && self.proves(b, a, when_false) {
            Some(false)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::decide_compare;
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
}
