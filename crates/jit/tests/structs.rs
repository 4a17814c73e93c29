//! Structs through every struct and vec instruction and across calls, for an 8-byte
//! `{i32, i32}` (with negative fields) and a 128-byte `16 x i64`; then the same programs with
//! struct locals packed and vec checks unchecked, which must give the same results.

mod common;

use common::{agree, packed, packed_unchecked, run};
use poolopt_ir::{
    BinaryOp, CastOp, CmpOp, ElemType, Module, ModuleBuilder, Operand, ScalarType, Type,
};

/// The shape of the struct under test.
#[derive(Copy, Clone)]
enum Shape {
    /// `S8 { a: i32, b: i32 }`, made as `(k, 7k)`.
    S8,
    /// `S128 { f0..f15: i64 }`, made as `fj = k + j`.
    S128,
}

impl Shape {
    fn fields(self) -> usize {
        match self {
            Shape::S8 => 2,
            Shape::S128 => 16,
        }
    }
    fn field_ty(self) -> Type {
        match self {
            Shape::S8 => Type::I32,
            Shape::S128 => Type::I64,
        }
    }
    fn wrap(self, x: i64) -> i64 {
        match self {
            Shape::S8 => x as i32 as i64,
            Shape::S128 => x,
        }
    }
    /// The reference `make(k)`.
    fn make(self, k: i64) -> Vec<i64> {
        match self {
            Shape::S8 => vec![self.wrap(k), self.wrap(k.wrapping_mul(7))],
            Shape::S128 => (0..16).map(|j| k.wrapping_add(j)).collect(),
        }
    }
}

fn mix(h: i64, x: i64) -> i64 {
    h.wrapping_mul(31).wrapping_add(x)
}

fn sum(s: &[i64]) -> i64 {
    s.iter().fold(0, |h, &x| mix(h, x))
}

/// The reference result of `main(n)` (see [`build`]).
fn reference(shape: Shape, n: i64) -> i64 {
    let mut v: Vec<Vec<i64>> = (0..n).map(|i| shape.make(i - 5)).collect();
    v[2][0] = shape.wrap(-77);
    let mut s2 = v[3].clone();
    let last = shape.fields() - 1;
    s2[last] = shape.wrap(1000);
    v[1] = s2.clone();
    let mut s3 = s2.clone();
    s3[0] = shape.wrap(s3[0] + 1);
    v.push(s3);
    let x = v[0][last];
    let p = v.pop().unwrap();
    let mut s4 = s2.clone();
    s4[0] = shape.wrap(5);
    let mut h = mix(sum(&p), x);
    h = mix(h, s2[0]);
    h = mix(h, sum(&s4));
    for e in &v {
        h = mix(h, sum(e));
    }
    h
}

/// Builds `mk(k) -> S`, `sum(s: S) -> i64`, `bump(s: S) -> S` (adds 1 to the first field of
/// its own copy) and `main(n) -> i64`, mirroring [`reference`].
fn build(shape: Shape) -> Module {
    let mut mb = ModuleBuilder::new();
    let fty = shape.field_ty();
    let names: Vec<String> = match shape {
        Shape::S8 => vec!["a".into(), "b".into()],
        Shape::S128 => (0..16).map(|j| format!("f{j}")).collect(),
    };
    let fields: Vec<(&str, Type)> = names.iter().map(|n| (n.as_str(), fty)).collect();
    let sname = match shape {
        Shape::S8 => "S8",
        Shape::S128 => "S128",
    };
    let sid = mb.add_struct(sname, &fields);
    let st = Type::Struct(sid);
    let nf = shape.fields() as u32;
    let last = nf - 1;

    let mk = mb.declare_function("mk", &[("k", Type::I64)], Some(st));
    let sumf = mb.declare_function("sum", &[("s", st)], Some(Type::I64));
    let bump = mb.declare_function("bump", &[("s", st)], Some(st));
    let main = mb.declare_function("main", &[("n", Type::I64)], Some(Type::I64));

    {
        let mut fb = mb.define_function(mk);
        let k = fb.param(0).unwrap();
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        let mut ops: Vec<Operand> = Vec::new();
        for j in 0..nf {
            let w = fb.temp(Type::I64);
            match shape {
                Shape::S8 => fb.binary(w, BinaryOp::Mul, k, if j == 0 { 1i64 } else { 7 }),
                Shape::S128 => fb.binary(w, BinaryOp::Add, k, i64::from(j)),
            };
            if fty == Type::I64 {
                ops.push(w.into());
            } else {
                let t = fb.temp(fty);
                fb.cast(t, CastOp::Trunc, w);
                ops.push(t.into());
            }
        }
        let s = fb.local("s", st);
        fb.make(s, sid, ops);
        fb.ret(Some(s.into()));
    }
    {
        let mut fb = mb.define_function(sumf);
        let s = fb.param(0).unwrap();
        let h = fb.local("h", Type::I64);
        let f = fb.local("f", fty);
        let f64_ = fb.local("f64", Type::I64);
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        fb.copy(h, 0i64);
        for j in 0..nf {
            fb.get_field(f, s, j);
            if fty == Type::I64 {
                fb.copy(f64_, f);
            } else {
                fb.cast(f64_, CastOp::Sext, f);
            }
            fb.binary(h, BinaryOp::Mul, h, 31i64);
            fb.binary(h, BinaryOp::Add, h, f64_);
        }
        fb.ret(Some(h.into()));
    }
    {
        let mut fb = mb.define_function(bump);
        let s = fb.param(0).unwrap();
        let a = fb.local("a", fty);
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        fb.get_field(a, s, 0);
        fb.binary(a, BinaryOp::Add, a, 1i64);
        fb.set_field(s, 0, a);
        fb.ret(Some(s.into()));
    }
    {
        let mut fb = mb.define_function(main);
        let n = fb.param(0).unwrap();
        let v = fb.local("v", Type::Vec(ElemType::Struct(sid)));
        let i = fb.local("i", Type::I64);
        let k = fb.local("k", Type::I64);
        let c = fb.local("c", Type::BOOL);
        let s = fb.local("s", st);
        let s2 = fb.local("s2", st);
        let s3 = fb.local("s3", st);
        let s4 = fb.local("s4", st);
        let p = fb.local("p", st);
        let x = fb.local("x", fty);
        let x64 = fb.local("x64", Type::I64);
        let h = fb.local("h", Type::I64);
        let t = fb.local("t", Type::I64);
        let len = fb.local("len", Type::I64);
        let a = fb.local("a", fty);
        let entry = fb.create_block("entry");
        let head = fb.create_block("head");
        let body = fb.create_block("body");
        let after = fb.create_block("after");
        let head2 = fb.create_block("head2");
        let body2 = fb.create_block("body2");
        let done = fb.create_block("done");
        fb.switch_to_block(entry);
        fb.vec_new(v, ElemType::Struct(sid));
        fb.copy(i, 0i64);
        fb.br(head);
        fb.switch_to_block(head);
        fb.compare(c, CmpOp::Slt, i, n);
        fb.brif(c, body, after);
        fb.switch_to_block(body);
        fb.binary(k, BinaryOp::Sub, i, 5i64);
        fb.call(Some(s), mk, vec![k.into()]);
        fb.push(v, s);
        fb.binary(i, BinaryOp::Add, i, 1i64);
        fb.br(head);
        fb.switch_to_block(after);
        fb.set(v, 2i64, Some(0), -77i64);
        fb.get(s2, v, 3i64, None);
        fb.set_field(s2, last, 1000i64);
        fb.set(v, 1i64, None, s2);
        fb.call(Some(s3), bump, vec![s2.into()]);
        fb.push(v, s3);
        fb.get(x, v, 0i64, Some(last));
        if fty == Type::I64 {
            fb.copy(x64, x);
        } else {
            fb.cast(x64, CastOp::Sext, x);
        }
        fb.pop(Some(p), v);
        fb.call(Some(h), sumf, vec![p.into()]);
        fb.binary(h, BinaryOp::Mul, h, 31i64);
        fb.binary(h, BinaryOp::Add, h, x64);
        // s2 is unchanged by bump (struct arguments are copies).
        fb.get_field(a, s2, 0);
        if fty == Type::I64 {
            fb.copy(t, a);
        } else {
            fb.cast(t, CastOp::Sext, a);
        }
        fb.binary(h, BinaryOp::Mul, h, 31i64);
        fb.binary(h, BinaryOp::Add, h, t);
        // A struct copy is a copy.
        fb.copy(s4, s2);
        fb.set_field(s4, 0, 5i64);
        fb.call(Some(t), sumf, vec![s4.into()]);
        fb.binary(h, BinaryOp::Mul, h, 31i64);
        fb.binary(h, BinaryOp::Add, h, t);
        fb.copy(i, 0i64);
        fb.br(head2);
        fb.switch_to_block(head2);
        fb.vec_len(len, v);
        fb.compare(c, CmpOp::Slt, i, len);
        fb.brif(c, body2, done);
        fb.switch_to_block(body2);
        fb.get(s, v, i, None);
        fb.call(Some(t), sumf, vec![s.into()]);
        fb.binary(h, BinaryOp::Mul, h, 31i64);
        fb.binary(h, BinaryOp::Add, h, t);
        fb.binary(i, BinaryOp::Add, i, 1i64);
        fb.br(head2);
        fb.switch_to_block(done);
        fb.ret(Some(h.into()));
    }
    let m = mb.finish().unwrap();
    poolopt_ir::verify(&m).unwrap();
    m
}

#[test]
fn s8_through_every_operation() {
    let m = build(Shape::S8);
    for n in [5, 6, 9, 40] {
        assert_eq!(
            run(&m, "main", &[n]),
            Ok(reference(Shape::S8, n)),
            "n = {n}"
        );
    }
    // Negative fields come back sign-extended.
    assert_eq!(run(&m, "main", &[5]).map(|_| ()), Ok(()));
}

#[test]
fn s128_through_every_operation() {
    let m = build(Shape::S128);
    for n in [5, 6, 9, 40] {
        assert_eq!(
            run(&m, "main", &[n]),
            Ok(reference(Shape::S128, n)),
            "n = {n}"
        );
    }
}

#[test]
fn packed_and_unchecked_give_the_same_results() {
    for shape in [Shape::S8, Shape::S128] {
        let m = build(shape);
        let p = packed(&m);
        let pu = packed_unchecked(&m);
        for n in [5, 17] {
            let want = Ok(reference(shape, n));
            assert_eq!(run(&p, "main", &[n]), want);
            assert_eq!(run(&pu, "main", &[n]), want);
        }
    }
    // The S8 locals really are packed in the rewritten module.
    let pm = packed(&build(Shape::S8));
    assert!(pm.funcs.values().all(|f| f
        .locals
        .values()
        .all(|l| !matches!(l.ty, Type::Struct(_)) || l.packed)));
}

#[test]
fn checked_access_out_of_range_traps_but_unchecked_code_has_no_checks() {
    let m = build(Shape::S8);
    // n = 3: `get v[3]` is out of range.
    let t = common::expect_trap(run(&m, "main", &[3]), poolopt_ir::TrapKind::IndexOob);
    assert_eq!(t.function, "main");
    assert_eq!(t.message, poolopt_ir::index_oob_message(3, 3));
    // The unchecked lowering emits fewer compares.
    let clif = poolopt_jit::emit_clif(&m, poolopt_jit::ClOpt::None).unwrap();
    let clif_u = poolopt_jit::emit_clif(&packed_unchecked(&m), poolopt_jit::ClOpt::None).unwrap();
    let count = |s: &str| s.matches("icmp uge").count();
    assert!(count(&clif) >= 4, "{clif}");
    assert_eq!(count(&clif_u), 0, "{clif_u}");
}

/// `main(x) -> i64` over a struct with the given field types: make from `x + j`, push, a
/// call that returns it, set a field in the vec, get it back, setfield, set, pop, and sum the
/// fields (sign-extended) of what came back. Packed and unpacked must agree with the reference.
fn odd_struct_module(field_tys: &[ScalarType]) -> Module {
    let mut mb = ModuleBuilder::new();
    let names: Vec<String> = (0..field_tys.len()).map(|j| format!("f{j}")).collect();
    let fields: Vec<(&str, Type)> = names
        .iter()
        .zip(field_tys)
        .map(|(n, t)| (n.as_str(), Type::Scalar(*t)))
        .collect();
    let sid = mb.add_struct("P", &fields);
    let st = Type::Struct(sid);
    let id = mb.declare_function("id", &[("s", st)], Some(st));
    {
        let mut fb = mb.define_function(id);
        let s = fb.param(0).unwrap();
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        fb.ret(Some(s.into()));
    }
    let main = mb.declare_function("main", &[("x", Type::I64)], Some(Type::I64));
    let mut fb = mb.define_function(main);
    let x = fb.param(0).unwrap();
    let s = fb.local("s", st);
    let t = fb.local("t", st);
    let v = fb.local("v", Type::Vec(ElemType::Struct(sid)));
    let h = fb.local("h", Type::I64);
    let w = fb.local("w", Type::I64);
    let e = fb.create_block("entry");
    fb.switch_to_block(e);
    let mut ops = Vec::new();
    for (j, ty) in field_tys.iter().enumerate() {
        let wide = fb.temp(Type::I64);
        fb.binary(wide, BinaryOp::Add, x, j as i64);
        if *ty == ScalarType::I64 {
            ops.push(wide.into());
        } else {
            let n = fb.temp(Type::Scalar(*ty));
            fb.cast(n, CastOp::Trunc, wide);
            ops.push(n.into());
        }
    }
    fb.make(s, sid, ops);
    fb.vec_new(v, ElemType::Struct(sid));
    fb.push(v, s);
    fb.call(Some(t), id, vec![s.into()]);
    fb.push(v, t);
    let last = field_tys.len() as u32 - 1;
    let lt = Type::Scalar(field_tys[last as usize]);
    let f = fb.local("f", lt);
    fb.get(f, v, 1i64, Some(last));
    fb.unary(f, poolopt_ir::UnaryOp::Not, f);
    fb.set(v, 0i64, Some(last), f);
    fb.get(t, v, 0i64, None);
    let g = fb.local("g", Type::Scalar(field_tys[0]));
    fb.get_field(g, t, 0);
    let op = if field_tys[0] == ScalarType::Bool {
        poolopt_ir::UnaryOp::Not
    } else {
        poolopt_ir::UnaryOp::Neg
    };
    fb.unary(g, op, g);
    fb.set_field(t, 0, g);
    fb.set(v, 1i64, None, t);
    fb.pop(Some(s), v);
    fb.copy(h, 0i64);
    for (j, ty) in field_tys.iter().enumerate() {
        let fj = fb.temp(Type::Scalar(*ty));
        fb.get_field(fj, s, j as u32);
        match ty {
            ScalarType::I64 => fb.copy(w, fj),
            ScalarType::Bool => fb.cast(w, CastOp::Zext, fj),
            _ => fb.cast(w, CastOp::Sext, fj),
        };
        fb.binary(h, BinaryOp::Mul, h, 31i64);
        fb.binary(h, BinaryOp::Add, h, w);
    }
    fb.ret(Some(h.into()));
    let m = mb.finish().unwrap();
    poolopt_ir::verify(&m).unwrap();
    m
}

fn odd_reference(field_tys: &[ScalarType], x: i64) -> i64 {
    let mut s: Vec<i64> = field_tys
        .iter()
        .enumerate()
        .map(|(j, t)| t.wrap(x + j as i64))
        .collect();
    let last = s.len() - 1;
    s[last] = field_tys[last].wrap(if field_tys[last] == ScalarType::Bool {
        s[last] ^ 1
    } else {
        !s[last]
    });
    s[0] = field_tys[0].wrap(if field_tys[0] == ScalarType::Bool {
        s[0] ^ 1
    } else {
        s[0].wrapping_neg()
    });
    s.iter()
        .fold(0i64, |h, &f| h.wrapping_mul(31).wrapping_add(f))
}

#[test]
fn odd_sized_structs_pack_and_unpack_the_same() {
    use ScalarType::*;
    let shapes: [&[ScalarType]; 6] = [
        &[I8, I8, Bool],
        &[I16, I16, I16],
        &[I8, I32],
        &[I16, I8],
        &[I64],
        &[Bool, I8, I16, I32],
    ];
    for tys in shapes {
        let m = odd_struct_module(tys);
        for x in [0i64, 5, -3, 127, -200, 40_000, -70_000] {
            let want = Ok(odd_reference(tys, x));
            assert_eq!(run(&m, "main", &[x]), want, "{tys:?} x = {x}");
            assert_eq!(
                run(&packed(&m), "main", &[x]),
                want,
                "packed {tys:?} x = {x}"
            );
            assert_eq!(
                run(&packed_unchecked(&m), "main", &[x]),
                want,
                "packed+unchecked {tys:?} x = {x}"
            );
        }
    }
}

/// A packed local copied into a local held in a stack slot, and back, and both stored to a
/// vec and passed to a callee: the lowering writes a packed value to memory
/// (`struct_to_mem`'s packed arm) and reads a slot into a packed local. The interpreter is the
/// oracle; negative fields show sign handling of the packed bytes.
#[test]
fn packed_and_slot_locals_copy_into_each_other() {
    let src = r#"
struct S8 { a: i32, b: i32 }

fn sum(s: S8) -> i64 {
    var a: i32
    var b: i32
    var r: i32
    var w: i64
entry:
    a = getfield s.a
    b = getfield s.b
    r = mul b, 3
    r = add a, r
    w = sext r
    ret w
}

fn main(x: i32) -> i64 {
    var p: S8 packed
    var d: S8
    var e: S8 packed
    var v: vec<S8>
    var y: i32
    var a: i32
    var b: i32
    var t: i64
    var r: i64
entry:
    y = sub 0, x
    p = make S8(x, y)
    d = copy p
    setfield p.a, 5
    e = copy d
    v = new vec<S8>
    push v, d
    push v, e
    push v, p
    e = pop v
    a = getfield e.a
    d = pop v
    b = getfield d.b
    r = call sum(d)
    t = sext a
    r = mul r, 1000
    r = add r, t
    t = sext b
    r = mul r, 1000
    r = add r, t
    ret r
}
"#;
    let m = poolopt_ir::parse(src).expect("parses");
    poolopt_ir::verify(&m).expect("verifies");
    for x in [4i64, -9, 0] {
        let oracle = agree(&m, "main", &[x], &Default::default());
        // The last push is p = (5, -x), popped into e: a = 5. The second is e, a copy of
        // d = (x, -x), popped into d: b = -x and sum(d) = x + 3 * (-x).
        let expected = ((x - 3 * x) * 1000 + 5) * 1000 - x;
        assert_eq!(oracle, Ok(expected), "interpreter and JIT at x = {x}");
    }
}
