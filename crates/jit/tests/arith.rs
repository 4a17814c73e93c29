//! Integer arithmetic, shifts, compares and casts at every width, against a Rust reference.

mod common;

use common::{expect_trap, run};
use poolopt_ir::{
    BinaryOp, CastOp, CmpOp, Module, ModuleBuilder, ScalarType, TrapKind, Type, UnaryOp,
};

const WIDTHS: [ScalarType; 4] = [
    ScalarType::I8,
    ScalarType::I16,
    ScalarType::I32,
    ScalarType::I64,
];

fn name(op: &str, w: ScalarType) -> String {
    format!("{op}_{w}")
}

/// One function per (binary op, width): `f(a: w, b: w) -> w { d = op a, b; ret d }`, and one
/// per (compare, width) returning bool.
fn arith_module() -> Module {
    let mut mb = ModuleBuilder::new();
    for w in WIDTHS {
        let t = Type::Scalar(w);
        for op in BinaryOp::ALL {
            let f = mb.declare_function(&name(op.name(), w), &[("a", t), ("b", t)], Some(t));
            let mut fb = mb.define_function(f);
            let (a, b) = (fb.param(0).unwrap(), fb.param(1).unwrap());
            let d = fb.local("d", t);
            let e = fb.create_block("entry");
            fb.switch_to_block(e);
            fb.binary(d, op, a, b);
            fb.ret(Some(d.into()));
        }
        for op in CmpOp::ALL {
            let f =
                mb.declare_function(&name(op.name(), w), &[("a", t), ("b", t)], Some(Type::BOOL));
            let mut fb = mb.define_function(f);
            let (a, b) = (fb.param(0).unwrap(), fb.param(1).unwrap());
            let d = fb.local("d", Type::BOOL);
            let e = fb.create_block("entry");
            fb.switch_to_block(e);
            fb.compare(d, op, a, b);
            fb.ret(Some(d.into()));
        }
        for op in [UnaryOp::Neg, UnaryOp::Not] {
            let f = mb.declare_function(&name(op.name(), w), &[("a", t)], Some(t));
            let mut fb = mb.define_function(f);
            let a = fb.param(0).unwrap();
            let d = fb.local("d", t);
            let e = fb.create_block("entry");
            fb.switch_to_block(e);
            fb.unary(d, op, a);
            fb.ret(Some(d.into()));
        }
    }
    mb.finish().unwrap()
}

fn reference(op: BinaryOp, w: ScalarType, a: i64, b: i64) -> Option<i64> {
    let bits = w.bits();
    let mask: u64 = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
    let (ua, ub) = (a as u64 & mask, b as u64 & mask);
    let sh = (b as u64 % u64::from(bits)) as u32;
    let r = match op {
        BinaryOp::Add => a.wrapping_add(b),
        BinaryOp::Sub => a.wrapping_sub(b),
        BinaryOp::Mul => a.wrapping_mul(b),
        BinaryOp::SDiv => {
            if b == 0 {
                return None;
            }
            if b == -1 {
                a.wrapping_neg()
            } else {
                a / b
            }
        }
        BinaryOp::SRem => {
            if b == 0 {
                return None;
            }
            if b == -1 {
                0
            } else {
                a % b
            }
        }
        BinaryOp::UDiv => {
            if ub == 0 {
                return None;
            }
            (ua / ub) as i64
        }
        BinaryOp::URem => {
            if ub == 0 {
                return None;
            }
            (ua % ub) as i64
        }
        BinaryOp::And => a & b,
        BinaryOp::Or => a | b,
        BinaryOp::Xor => a ^ b,
        BinaryOp::Shl => ((ua << sh) & mask) as i64,
        BinaryOp::LShr => (ua >> sh) as i64,
        BinaryOp::AShr => a >> sh,
    };
    Some(w.wrap(r))
}

fn cmp_reference(op: CmpOp, w: ScalarType, a: i64, b: i64) -> i64 {
    i64::from(op.holds(w, a, b))
}

fn samples(w: ScalarType) -> Vec<i64> {
    let min = match w {
        ScalarType::I8 => i8::MIN as i64,
        ScalarType::I16 => i16::MIN as i64,
        ScalarType::I32 => i32::MIN as i64,
        _ => i64::MIN,
    };
    let max = !min;
    vec![
        0,
        1,
        -1,
        2,
        -2,
        3,
        7,
        -7,
        8,
        13,
        63,
        64,
        65,
        100,
        -100,
        min,
        max,
        min + 1,
        max - 1,
    ]
    .into_iter()
    .map(|x| w.wrap(x))
    .collect()
}

#[test]
fn binary_ops_at_every_width_match_reference() {
    let m = arith_module();
    let compiled = common::compile_both(&m, false);
    let limits = poolopt_ir::RunLimits::default();
    for w in WIDTHS {
        let xs = samples(w);
        for op in BinaryOp::ALL {
            let f = name(op.name(), w);
            for &a in &xs {
                for &b in &xs {
                    for c in &compiled {
                        let got = c.run(&f, &[a, b], &limits);
                        match reference(op, w, a, b) {
                            Some(want) => assert_eq!(got, Ok(want), "{f}({a}, {b})"),
                            None => {
                                let t = expect_trap(got, TrapKind::DivZero);
                                assert_eq!(t.function, f);
                                assert_eq!(t.message, poolopt_ir::DIV_ZERO_MESSAGE);
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn compares_at_every_width_match_reference() {
    let m = arith_module();
    let compiled = common::compile_both(&m, false);
    let limits = poolopt_ir::RunLimits::default();
    for w in WIDTHS {
        let xs = samples(w);
        for op in CmpOp::ALL {
            let f = name(op.name(), w);
            for &a in &xs {
                for &b in &xs {
                    for c in &compiled {
                        assert_eq!(
                            c.run(&f, &[a, b], &limits),
                            Ok(cmp_reference(op, w, a, b)),
                            "{f}({a}, {b})"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn unary_ops_wrap() {
    let m = arith_module();
    for w in WIDTHS {
        for &a in &samples(w) {
            assert_eq!(run(&m, &name("neg", w), &[a]), Ok(w.wrap(a.wrapping_neg())));
            assert_eq!(run(&m, &name("not", w), &[a]), Ok(w.wrap(!a)));
        }
    }
}

#[test]
fn min_div_minus_one_does_not_fault() {
    let m = arith_module();
    assert_eq!(run(&m, "sdiv_i64", &[i64::MIN, -1]), Ok(i64::MIN));
    assert_eq!(run(&m, "srem_i64", &[i64::MIN, -1]), Ok(0));
    assert_eq!(run(&m, "sdiv_i8", &[-128, -1]), Ok(-128));
    assert_eq!(run(&m, "srem_i8", &[-128, -1]), Ok(0));
    assert_eq!(
        run(&m, "sdiv_i32", &[i32::MIN as i64, -1]),
        Ok(i32::MIN as i64)
    );
}

#[test]
fn arguments_wrap_to_parameter_types() {
    let m = arith_module();
    // 300 wraps to 44 as an i8; 44 + 100 = 144 wraps to -112.
    assert_eq!(run(&m, "add_i8", &[300, 100]), Ok(-112));
    assert_eq!(run(&m, "add_i16", &[32767, 1]), Ok(-32768));
    assert_eq!(run(&m, "mul_i32", &[1 << 20, 1 << 12]), Ok(0));
}

/// `f(x: from) -> to { d = op x; ret d }`.
fn cast_module() -> Module {
    let mut mb = ModuleBuilder::new();
    let all = [
        ScalarType::I8,
        ScalarType::I16,
        ScalarType::I32,
        ScalarType::I64,
        ScalarType::Bool,
    ];
    for from in all {
        for to in all {
            for op in [CastOp::Sext, CastOp::Zext, CastOp::Trunc] {
                let f = mb.declare_function(
                    &format!("{}_{from}_{to}", op.name()),
                    &[("x", Type::Scalar(from))],
                    Some(Type::Scalar(to)),
                );
                let mut fb = mb.define_function(f);
                let x = fb.param(0).unwrap();
                let d = fb.local("d", Type::Scalar(to));
                let e = fb.create_block("entry");
                fb.switch_to_block(e);
                fb.cast(d, op, x);
                fb.ret(Some(d.into()));
            }
        }
    }
    mb.finish().unwrap()
}

#[test]
fn casts_extend_and_truncate() {
    let m = cast_module();
    assert_eq!(run(&m, "sext_i8_i64", &[-5]), Ok(-5));
    assert_eq!(run(&m, "zext_i8_i64", &[-5]), Ok(251));
    assert_eq!(run(&m, "sext_i16_i32", &[-2]), Ok(-2));
    assert_eq!(run(&m, "zext_i16_i32", &[-2]), Ok(65534));
    assert_eq!(run(&m, "zext_i32_i64", &[-1]), Ok(0xffff_ffff));
    assert_eq!(run(&m, "trunc_i64_i8", &[0x1ff]), Ok(-1));
    assert_eq!(
        run(&m, "trunc_i64_i32", &[0x1_8000_0000]),
        Ok(i32::MIN as i64)
    );
    assert_eq!(run(&m, "trunc_i64_bool", &[6]), Ok(0));
    assert_eq!(run(&m, "trunc_i64_bool", &[7]), Ok(1));
    assert_eq!(run(&m, "trunc_i8_bool", &[-1]), Ok(1));
    assert_eq!(run(&m, "zext_bool_i32", &[1]), Ok(1));
    assert_eq!(run(&m, "zext_bool_i64", &[0]), Ok(0));
}

/// Shifts by constants and by out-of-range amounts take the amount modulo the width.
#[test]
fn shift_amounts_are_modulo_width() {
    let m = arith_module();
    assert_eq!(run(&m, "shl_i8", &[1, 9]), Ok(2));
    assert_eq!(run(&m, "shl_i8", &[1, 7]), Ok(-128));
    assert_eq!(run(&m, "ashr_i8", &[-128, 7]), Ok(-1));
    assert_eq!(run(&m, "lshr_i8", &[-128, 7]), Ok(1));
    assert_eq!(run(&m, "shl_i16", &[1, 17]), Ok(2));
    assert_eq!(run(&m, "lshr_i32", &[-1, 33]), Ok(0x7fff_ffff));
    assert_eq!(run(&m, "shl_i64", &[1, 65]), Ok(2));
    assert_eq!(run(&m, "ashr_i64", &[i64::MIN, 63]), Ok(-1));
}

/// `bool` operands take only the logical operations (`and`, `or`, `xor`), which keep them one
/// bit wide: checked widened to `i64`, so that a stray high bit shows, against the interpreter
/// for all four operand pairs. Every other binary operation on `bool` is refused by the
/// verifier (so the lowering's one-bit rules for bool arithmetic and shifts only serve
/// modules compiled without verification).
#[test]
fn bool_operands_take_only_logical_ops_and_stay_one_bit_wide() {
    let module_of = |op: BinaryOp| {
        let mut mb = ModuleBuilder::new();
        let bool_ty = Type::BOOL;
        let f = mb.declare_function("f", &[("a", bool_ty), ("b", bool_ty)], Some(Type::I64));
        let mut fb = mb.define_function(f);
        let (a, b) = (fb.param(0).unwrap(), fb.param(1).unwrap());
        let d = fb.local("d", bool_ty);
        let w = fb.local("w", Type::I64);
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        fb.binary(d, op, a, b);
        fb.cast(w, CastOp::Zext, d);
        fb.ret(Some(w.into()));
        mb.finish().expect("builds")
    };
    for op in BinaryOp::ALL {
        let m = module_of(op);
        if !op.is_logical() {
            assert!(poolopt_ir::verify(&m).is_err(), "{op:?} on bool verifies");
            continue;
        }
        poolopt_ir::verify(&m).expect("verifies");
        for (a, b) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            let oracle = poolopt_interp::run(&m, "f", &[a, b], &Default::default()).expect("runs");
            assert!(oracle == 0 || oracle == 1, "{op:?}({a}, {b}) = {oracle}");
            assert_eq!(run(&m, "f", &[a, b]), Ok(oracle), "{op:?}({a}, {b})");
        }
    }
}
