//! Scalar semantics: arithmetic, comparisons and casts on values held as sign-extended `i64`s
//! (`bool` as 0/1), wrapping at the operand width exactly as `docs/ir.md` specifies.

use crate::error::Fault;
use poolopt_ir::{BinaryOp, CastOp, ScalarType, TrapKind, UnaryOp, DIV_ZERO_MESSAGE};

/// The mask of the low `bits(ty)` bits.
#[inline]
pub(crate) fn mask(ty: ScalarType) -> u64 {
    match ty {
        ScalarType::I64 => u64::MAX,
        other => (1u64 << other.bits()) - 1,
    }
}

/// The width-bit value of `v`, zero-extended.
#[inline]
fn unsigned(ty: ScalarType, v: i64) -> u64 {
    (v as u64) & mask(ty)
}

fn div_zero() -> Fault {
    Fault::Trap(TrapKind::DivZero, DIV_ZERO_MESSAGE.to_string())
}

/// An unchecked division `op.unchecked a, b` at type `ty`: the result of the checked one when
/// its precondition holds (divisor not 0, and not -1 for `sdiv`, at the operand width), else
/// an unchecked violation (the lowering would fault, or give another result).
pub(crate) fn binary_unchecked(op: BinaryOp, ty: ScalarType, a: i64, b: i64) -> Result<i64, Fault> {
    let divisor = ty.wrap(b);
    if !op.unchecked_divisor_ok(divisor) {
        return Err(Fault::Unchecked(format!(
            "{}.unchecked by {divisor}",
            op.name()
        )));
    }
    binary(op, ty, a, b)
}

/// `op a, b` at type `ty`. Division and remainder by zero trap; everything else wraps.
#[inline]
pub(crate) fn binary(op: BinaryOp, ty: ScalarType, a: i64, b: i64) -> Result<i64, Fault> {
    let r = match op {
        BinaryOp::Add => a.wrapping_add(b),
        BinaryOp::Sub => a.wrapping_sub(b),
        BinaryOp::Mul => a.wrapping_mul(b),
        BinaryOp::And => a & b,
        BinaryOp::Or => a | b,
        BinaryOp::Xor => a ^ b,
        BinaryOp::SDiv => {
            if b == 0 {
                return Err(div_zero());
            }
            // Operands are sign-extended, so a narrow MIN / -1 gives 2^(w-1), which wraps back
            // to MIN; at 64 bits wrapping_div yields MIN directly.
            a.wrapping_div(b)
        }
        BinaryOp::SRem => {
            if b == 0 {
                return Err(div_zero());
            }
            a.wrapping_rem(b)
        }
        BinaryOp::UDiv => {
            let (ua, ub) = (unsigned(ty, a), unsigned(ty, b));
            if ub == 0 {
                return Err(div_zero());
            }
            (ua / ub) as i64
        }
        BinaryOp::URem => {
            let (ua, ub) = (unsigned(ty, a), unsigned(ty, b));
            if ub == 0 {
                return Err(div_zero());
            }
            (ua % ub) as i64
        }
        BinaryOp::Shl => a.wrapping_shl(shift_amount(ty, b)),
        BinaryOp::LShr => (unsigned(ty, a) >> shift_amount(ty, b)) as i64,
        BinaryOp::AShr => ty.wrap(a) >> shift_amount(ty, b),
    };
    Ok(ty.wrap(r))
}

/// The shift amount `b` taken modulo the bit width of `ty`.
#[inline]
fn shift_amount(ty: ScalarType, b: i64) -> u32 {
    ((b as u64) % u64::from(ty.bits())) as u32
}

/// `op a` at type `ty`.
#[inline]
pub(crate) fn unary(op: UnaryOp, ty: ScalarType, a: i64) -> i64 {
    match op {
        UnaryOp::Neg => ty.wrap(a.wrapping_neg()),
        UnaryOp::Not => ty.wrap(!a),
        // Counted at the operand's width: the value is held sign-extended, so look only at
        // its low `bits(ty)` bits (bool never reaches here: the verifier rejects it).
        UnaryOp::Ctz => i64::from(a.trailing_zeros().min(ty.bits())),
        UnaryOp::Clz => {
            let low = unsigned(ty, a);
            i64::from(low.leading_zeros() - (64 - ty.bits()))
        }
        UnaryOp::Popcnt => i64::from(unsigned(ty, a).count_ones()),
    }
}

/// Converts `a` of type `from` to type `to`.
#[inline]
pub(crate) fn cast(op: CastOp, from: ScalarType, to: ScalarType, a: i64) -> i64 {
    match op {
        CastOp::Sext | CastOp::Trunc => to.wrap(from.wrap(a)),
        CastOp::Zext => to.wrap(unsigned(from, a) as i64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use poolopt_ir::CmpOp;
    use ScalarType::*;

    #[test]
    fn wraps_at_width() {
        assert_eq!(binary(BinaryOp::Add, I8, 127, 1), Ok(-128));
        assert_eq!(binary(BinaryOp::Mul, I16, 300, 300), Ok(24464));
        assert_eq!(
            binary(BinaryOp::SDiv, I32, i32::MIN as i64, -1),
            Ok(i32::MIN as i64)
        );
        assert_eq!(binary(BinaryOp::SRem, I64, i64::MIN, -1), Ok(0));
        assert_eq!(binary(BinaryOp::UDiv, I8, -1, 2), Ok(127));
        assert_eq!(binary(BinaryOp::URem, I8, -1, 0), Err(div_zero()));
        assert_eq!(binary(BinaryOp::Shl, I8, 1, 15), Ok(-128));
        assert_eq!(binary(BinaryOp::LShr, I16, -1, 20), Ok(0x0fff));
        assert_eq!(binary(BinaryOp::AShr, I32, -64, 35), Ok(-8));
        assert_eq!(binary(BinaryOp::Shl, I64, 1, -1), Ok(i64::MIN));
    }

    /// An unchecked division computes what the checked one does when its precondition holds,
    /// and reports a violation (never a `div_zero` trap) otherwise: zero for every division,
    /// -1 only for `sdiv` (`srem` by -1 is defined), judged at the operand width.
    #[test]
    fn unchecked_divisions_test_their_precondition() {
        let bad = |r: Result<i64, Fault>| matches!(r, Err(Fault::Unchecked(_)));
        assert_eq!(binary_unchecked(BinaryOp::SDiv, I64, -7, 2), Ok(-3));
        assert_eq!(binary_unchecked(BinaryOp::SRem, I64, i64::MIN, -1), Ok(0));
        assert_eq!(binary_unchecked(BinaryOp::UDiv, I8, -1, 2), Ok(127));
        assert!(bad(binary_unchecked(BinaryOp::SDiv, I64, 5, 0)));
        assert!(bad(binary_unchecked(BinaryOp::SDiv, I64, i64::MIN, -1)));
        // 255 is -1 at 8 bits.
        assert!(bad(binary_unchecked(BinaryOp::SDiv, I8, 5, 255)));
        // 256 is 0 at 8 bits.
        assert!(bad(binary_unchecked(BinaryOp::URem, I8, 5, 256)));
        assert!(bad(binary_unchecked(BinaryOp::UDiv, I64, 5, 0)));
        assert_eq!(binary_unchecked(BinaryOp::UDiv, I64, 5, -1), Ok(0));
    }

    #[test]
    fn compares_and_casts() {
        assert!(CmpOp::Ult.holds(I8, 1, -1));
        assert!(!CmpOp::Slt.holds(I8, 1, -1));
        assert_eq!(cast(CastOp::Zext, I8, I64, -1), 255);
        assert_eq!(cast(CastOp::Sext, I16, I64, -2), -2);
        assert_eq!(cast(CastOp::Trunc, I64, I8, 0x1ff), -1);
        assert_eq!(cast(CastOp::Trunc, I64, Bool, 3), 1);
        assert_eq!(cast(CastOp::Zext, Bool, I32, 1), 1);
        assert_eq!(unary(UnaryOp::Not, Bool, 1), 0);
        assert_eq!(unary(UnaryOp::Neg, I8, -128), -128);
    }

    #[test]
    fn counts_bits_at_width() {
        for (ty, bits) in [(I8, 8), (I16, 16), (I32, 32), (I64, 64)] {
            assert_eq!(unary(UnaryOp::Ctz, ty, 0), bits);
            assert_eq!(unary(UnaryOp::Clz, ty, 0), bits);
            assert_eq!(unary(UnaryOp::Popcnt, ty, 0), 0);
            assert_eq!(unary(UnaryOp::Ctz, ty, -1), 0);
            assert_eq!(unary(UnaryOp::Clz, ty, -1), 0);
            assert_eq!(unary(UnaryOp::Popcnt, ty, -1), bits);
            // The sign bit alone: ctz = width - 1, clz = 0.
            let min = ty.wrap(1i64 << (bits - 1));
            assert_eq!(unary(UnaryOp::Ctz, ty, min), bits - 1);
            assert_eq!(unary(UnaryOp::Clz, ty, min), 0);
            assert_eq!(unary(UnaryOp::Clz, ty, 1), bits - 1);
        }
        assert_eq!(unary(UnaryOp::Ctz, I64, 0b1000), 3);
        assert_eq!(unary(UnaryOp::Popcnt, I32, 0x0f0f), 8);
    }
}
