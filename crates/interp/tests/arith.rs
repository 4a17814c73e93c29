//! Scalar semantics through whole programs: wrapping arithmetic at every width, division and
//! remainder edge cases, shift amounts modulo the width, casts, signed and unsigned compares.

use poolopt_interp::{run, InterpError};
use poolopt_ir::{
    BinaryOp, CastOp, CmpOp, Module, ModuleBuilder, RunLimits, ScalarType, TrapKind, Type, UnaryOp,
};

fn limits() -> RunLimits {
    RunLimits::default()
}

/// `fn f(a: T, b: T) -> T { r = op a, b; ret r }`
fn binop(op: BinaryOp, ty: ScalarType) -> Module {
    let t = Type::Scalar(ty);
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("f", &[("a", t), ("b", t)], Some(t));
    let mut fb = mb.define_function(f);
    let (a, b) = (fb.param(0).unwrap(), fb.param(1).unwrap());
    let r = fb.local("r", t);
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.binary(r, op, a, b);
    fb.ret(Some(r.into()));
    mb.finish().unwrap()
}

fn bin(op: BinaryOp, ty: ScalarType, a: i64, b: i64) -> Result<i64, InterpError> {
    run(&binop(op, ty), "f", &[a, b], &limits())
}

/// `fn f(a: T) -> T { r = op a, <constant>; ret r }`: the constant takes the type of its
/// position.
fn bin_const(op: BinaryOp, ty: ScalarType, a: i64, c: i64) -> Result<i64, InterpError> {
    let t = Type::Scalar(ty);
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("f", &[("a", t)], Some(t));
    let mut fb = mb.define_function(f);
    let a_ = fb.param(0).unwrap();
    let r = fb.local("r", t);
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.binary(r, op, a_, c);
    fb.ret(Some(r.into()));
    run(&mb.finish().unwrap(), "f", &[a], &limits())
}

fn cmp(op: CmpOp, ty: ScalarType, a: i64, b: i64) -> i64 {
    let t = Type::Scalar(ty);
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("f", &[("a", t), ("b", t)], Some(Type::BOOL));
    let mut fb = mb.define_function(f);
    let (pa, pb) = (fb.param(0).unwrap(), fb.param(1).unwrap());
    let r = fb.local("r", Type::BOOL);
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.compare(r, op, pa, pb);
    fb.ret(Some(r.into()));
    run(&mb.finish().unwrap(), "f", &[a, b], &limits()).unwrap()
}

fn cast(op: CastOp, from: ScalarType, to: ScalarType, a: i64) -> i64 {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("f", &[("a", Type::Scalar(from))], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let pa = fb.param(0).unwrap();
    let r = fb.local("r", Type::Scalar(to));
    let out = fb.local("out", Type::I64);
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.cast(r, op, pa);
    // Widen the result without changing it: sext of a sign-extended value is the identity.
    if to == ScalarType::I64 {
        fb.copy(out, r);
    } else if to == ScalarType::Bool {
        fb.cast(out, CastOp::Zext, r);
    } else {
        fb.cast(out, CastOp::Sext, r);
    }
    fb.ret(Some(out.into()));
    run(&mb.finish().unwrap(), "f", &[a], &limits()).unwrap()
}

fn trap_kind(r: Result<i64, InterpError>) -> TrapKind {
    match r {
        Err(InterpError::Trap(t)) => t.kind,
        other => panic!("expected a trap, got {other:?}"),
    }
}

use ScalarType::*;

#[test]
fn add_sub_mul_wrap_at_each_width() {
    assert_eq!(bin(BinaryOp::Add, I8, 127, 1), Ok(-128));
    assert_eq!(bin(BinaryOp::Sub, I8, -128, 1), Ok(127));
    assert_eq!(bin(BinaryOp::Mul, I8, 16, 16), Ok(0));
    assert_eq!(bin(BinaryOp::Add, I16, 32767, 1), Ok(-32768));
    assert_eq!(bin(BinaryOp::Mul, I16, 256, 255), Ok(-256));
    assert_eq!(
        bin(BinaryOp::Add, I32, i32::MAX as i64, 1),
        Ok(i32::MIN as i64)
    );
    assert_eq!(bin(BinaryOp::Mul, I32, 65536, 65536), Ok(0));
    assert_eq!(bin(BinaryOp::Add, I64, i64::MAX, 1), Ok(i64::MIN));
    assert_eq!(bin(BinaryOp::Mul, I64, i64::MIN, -1), Ok(i64::MIN));
    assert_eq!(bin(BinaryOp::Sub, I64, 0, i64::MIN), Ok(i64::MIN));
}

#[test]
fn arguments_and_constants_wrap_to_their_type() {
    // 300 as i8 is 44; 200 as i8 is -56.
    assert_eq!(bin(BinaryOp::Add, I8, 300, 0), Ok(44));
    assert_eq!(bin_const(BinaryOp::Add, I8, 0, 200), Ok(-56));
    // 0x10f as i8 is 15, and -1 as u8 is 255: 255 / 15 = 17.
    assert_eq!(bin_const(BinaryOp::UDiv, I8, -1, 0x10f), Ok(17));
    assert_eq!(bin_const(BinaryOp::UDiv, I8, 60, 0x10f), Ok(4));
}

#[test]
fn division_by_zero_traps_at_every_width() {
    for ty in [I8, I16, I32, I64] {
        for op in [
            BinaryOp::SDiv,
            BinaryOp::UDiv,
            BinaryOp::SRem,
            BinaryOp::URem,
        ] {
            let r = bin(op, ty, 7, 0);
            assert_eq!(trap_kind(r.clone()), TrapKind::DivZero, "{op:?} {ty:?}");
            let t = r.unwrap_err();
            let t = t.as_trap().unwrap();
            assert_eq!(t.message, poolopt_ir::DIV_ZERO_MESSAGE);
            assert_eq!(t.function, "f");
        }
    }
}

#[test]
fn signed_min_by_minus_one() {
    let mins = [
        (I8, -128),
        (I16, -32768),
        (I32, i32::MIN as i64),
        (I64, i64::MIN),
    ];
    for (ty, min) in mins {
        assert_eq!(bin(BinaryOp::SDiv, ty, min, -1), Ok(min), "{ty:?}");
        assert_eq!(bin(BinaryOp::SRem, ty, min, -1), Ok(0), "{ty:?}");
    }
    assert_eq!(bin(BinaryOp::SDiv, I32, -7, 2), Ok(-3));
    assert_eq!(bin(BinaryOp::SRem, I32, -7, 2), Ok(-1));
    assert_eq!(bin(BinaryOp::SRem, I64, 7, -2), Ok(1));
}

#[test]
fn unsigned_division_uses_the_width_bit_value() {
    // -1 as u8 is 255.
    assert_eq!(bin(BinaryOp::UDiv, I8, -1, 2), Ok(127));
    assert_eq!(bin(BinaryOp::URem, I8, -1, 10), Ok(5));
    assert_eq!(bin(BinaryOp::UDiv, I16, -2, 1), Ok(-2));
    assert_eq!(bin(BinaryOp::UDiv, I32, -1, 2), Ok(i32::MAX as i64));
    assert_eq!(bin(BinaryOp::UDiv, I64, -1, 2), Ok(i64::MAX));
    assert_eq!(bin(BinaryOp::URem, I64, -1, 7), Ok((u64::MAX % 7) as i64));
    // 128 (i8 -128) / 255 (i8 -1) = 0.
    assert_eq!(bin(BinaryOp::UDiv, I8, -128, -1), Ok(0));
}

#[test]
fn shifts_take_the_amount_modulo_the_width() {
    assert_eq!(bin(BinaryOp::Shl, I8, 1, 7), Ok(-128));
    assert_eq!(bin(BinaryOp::Shl, I8, 1, 8), Ok(1));
    assert_eq!(bin(BinaryOp::Shl, I8, 1, 9), Ok(2));
    assert_eq!(bin(BinaryOp::LShr, I8, -128, 7), Ok(1));
    assert_eq!(bin(BinaryOp::LShr, I8, -1, 12), Ok(15));
    assert_eq!(bin(BinaryOp::AShr, I8, -128, 15), Ok(-1));
    assert_eq!(bin(BinaryOp::Shl, I16, 3, 17), Ok(6));
    assert_eq!(bin(BinaryOp::LShr, I16, -1, 4), Ok(0x0fff));
    assert_eq!(bin(BinaryOp::Shl, I32, 1, 31), Ok(i32::MIN as i64));
    assert_eq!(bin(BinaryOp::Shl, I32, 1, 32), Ok(1));
    assert_eq!(bin(BinaryOp::LShr, I32, -1, 36), Ok(0x0fff_ffff));
    assert_eq!(bin(BinaryOp::AShr, I32, -256, 36), Ok(-16));
    assert_eq!(bin(BinaryOp::Shl, I64, 1, 64), Ok(1));
    assert_eq!(bin(BinaryOp::Shl, I64, 1, 63), Ok(i64::MIN));
    assert_eq!(bin(BinaryOp::LShr, I64, -1, 65), Ok(i64::MAX));
    assert_eq!(bin(BinaryOp::AShr, I64, i64::MIN, 127), Ok(-1));
    // A negative amount is taken modulo the width too: -1 mod 64 = 63.
    assert_eq!(bin(BinaryOp::Shl, I64, 1, -1), Ok(i64::MIN));
}

#[test]
fn bitwise_and_unary() {
    assert_eq!(bin(BinaryOp::And, I8, -1, 0x0f), Ok(0x0f));
    assert_eq!(bin(BinaryOp::Or, I16, 0x7f00, 0x00ff), Ok(0x7fff));
    assert_eq!(bin(BinaryOp::Xor, I32, -1, 0), Ok(-1));

    for (ty, op, a, want) in [
        (I8, UnaryOp::Neg, -128, -128),
        (I8, UnaryOp::Not, 0, -1),
        (I32, UnaryOp::Neg, 5, -5),
        (I64, UnaryOp::Not, 0, -1),
        (Bool, UnaryOp::Not, 1, 0),
        (Bool, UnaryOp::Not, 0, 1),
    ] {
        let t = Type::Scalar(ty);
        let mut mb = ModuleBuilder::new();
        let f = mb.declare_function("f", &[("a", t)], Some(t));
        let mut fb = mb.define_function(f);
        let pa = fb.param(0).unwrap();
        let r = fb.local("r", t);
        let entry = fb.create_block("entry");
        fb.switch_to_block(entry);
        fb.unary(r, op, pa);
        fb.ret(Some(r.into()));
        let m = mb.finish().unwrap();
        assert_eq!(run(&m, "f", &[a], &limits()), Ok(want), "{op:?} {ty:?} {a}");
    }
}

#[test]
fn casts() {
    assert_eq!(cast(CastOp::Sext, I8, I64, -1), -1);
    assert_eq!(cast(CastOp::Zext, I8, I64, -1), 255);
    assert_eq!(cast(CastOp::Zext, I16, I32, -1), 65535);
    assert_eq!(cast(CastOp::Sext, I16, I32, -2), -2);
    assert_eq!(cast(CastOp::Zext, I32, I64, -1), 0xffff_ffff);
    assert_eq!(
        cast(CastOp::Sext, I32, I64, i32::MIN as i64),
        i32::MIN as i64
    );
    assert_eq!(cast(CastOp::Trunc, I64, I8, 0x1ff), -1);
    assert_eq!(cast(CastOp::Trunc, I64, I8, 0x17f), 127);
    assert_eq!(cast(CastOp::Trunc, I64, I16, 0x12345), 0x2345);
    assert_eq!(
        cast(CastOp::Trunc, I64, I32, 0x1_8000_0000),
        i32::MIN as i64
    );
    assert_eq!(cast(CastOp::Trunc, I32, Bool, 2), 0);
    assert_eq!(cast(CastOp::Trunc, I32, Bool, 3), 1);
    assert_eq!(cast(CastOp::Zext, Bool, I64, 1), 1);
    assert_eq!(cast(CastOp::Zext, Bool, I8, 1), 1);
}

#[test]
fn compares_signed_and_unsigned_at_narrow_widths() {
    // i8: -1 is 255 unsigned.
    assert_eq!(cmp(CmpOp::Slt, I8, -1, 1), 1);
    assert_eq!(cmp(CmpOp::Ult, I8, -1, 1), 0);
    assert_eq!(cmp(CmpOp::Ugt, I8, -1, 1), 1);
    assert_eq!(cmp(CmpOp::Uge, I8, -128, 127), 1);
    assert_eq!(cmp(CmpOp::Sge, I8, -128, 127), 0);
    // i16 and i32.
    assert_eq!(cmp(CmpOp::Ult, I16, 1, -32768), 1);
    assert_eq!(cmp(CmpOp::Sle, I16, -32768, -32768), 1);
    assert_eq!(cmp(CmpOp::Ule, I32, -1, i32::MAX as i64), 0);
    assert_eq!(cmp(CmpOp::Sgt, I32, i32::MAX as i64, -1), 1);
    // i64 extremes.
    assert_eq!(cmp(CmpOp::Ult, I64, i64::MAX, i64::MIN), 1);
    assert_eq!(cmp(CmpOp::Slt, I64, i64::MAX, i64::MIN), 0);
    // eq / ne, and arguments that wrap to the same value.
    assert_eq!(cmp(CmpOp::Eq, I8, 256 + 5, 5), 1);
    assert_eq!(cmp(CmpOp::Ne, I16, 3, 4), 1);
    assert_eq!(cmp(CmpOp::Eq, Bool, 1, 1), 1);
    assert_eq!(cmp(CmpOp::Ult, Bool, 0, 1), 1);
}
