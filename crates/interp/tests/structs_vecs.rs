//! Structs and vecs: an 8-byte `{i32, i32}` with negative fields and a 128-byte struct of 16
//! `i64`s through make/getfield/setfield, whole-element and field get/set, push/pop, calls with
//! struct arguments and results; narrow vec elements; vec handle aliasing; growth statistics.

use poolopt_interp::{run, run_with_stats, InterpError};
use poolopt_ir::{
    BinaryOp, CmpOp, ElemType, Module, ModuleBuilder, Operand, RunLimits, ScalarType, StructId,
    Type,
};

fn limits() -> RunLimits {
    RunLimits::default()
}

/// `S8 { a: i32, b: i32 }`:
/// - `swap(s: S8) -> S8` returns `{a: s.b, b: s.a}`;
/// - `main() -> i64` exercises every struct operation and returns a checksum.
fn s8_module() -> Module {
    let mut mb = ModuleBuilder::new();
    let s8 = mb.add_struct("S8", &[("a", Type::I32), ("b", Type::I32)]);
    let st = Type::Struct(s8);
    let vt = Type::Vec(ElemType::Struct(s8));

    let swap = mb.declare_function("swap", &[("s", st)], Some(st));
    {
        let mut fb = mb.define_function(swap);
        let s = fb.param(0).unwrap();
        let a = fb.local("a", Type::I32);
        let b = fb.local("b", Type::I32);
        let r = fb.local("r", st);
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        fb.get_field(a, s, 0);
        fb.get_field(b, s, 1);
        fb.make(r, s8, vec![b.into(), a.into()]);
        // Writing the parameter must not affect the caller's struct.
        fb.set_field(s, 0, 12345i64);
        fb.ret(Some(r.into()));
    }

    let main = mb.declare_function("main", &[], Some(Type::I64));
    let mut fb = mb.define_function(main);
    let v = fb.local("v", vt);
    let s = fb.local("s", st);
    let t = fb.local("t", st);
    let z = fb.local("z", st);
    let x = fb.local("x", Type::I32);
    let w = fb.local("w", Type::I64);
    let acc = fb.local("acc", Type::I64);
    let n = fb.local("n", Type::I64);
    let e = fb.create_block("entry");
    fb.switch_to_block(e);
    // acc accumulates 10 checks, each digit-weighted so any wrong value shows.
    fb.make(s, s8, vec![(-3i64).into(), (-70000i64).into()]);
    fb.get_field(x, s, 0); // -3
    fb.cast(w, poolopt_ir::CastOp::Sext, x);
    fb.copy(acc, w); // acc = -3
    fb.get_field(x, s, 1); // -70000
    fb.cast(w, poolopt_ir::CastOp::Sext, x);
    fb.binary(acc, BinaryOp::Mul, acc, 1_000_000i64);
    fb.binary(acc, BinaryOp::Add, acc, w); // -3_070_000
    fb.set_field(s, 1, 9i64);
    fb.vec_new(v, ElemType::Struct(s8));
    fb.push(v, s); // v[0] = {-3, 9}
    fb.set_field(s, 0, -1i64);
    fb.push(v, s); // v[1] = {-1, 9}
    fb.set(v, 0i64, Some(1), -2i64); // v[0] = {-3, -2}
    fb.get(x, v, 0i64, Some(1)); // -2
    fb.cast(w, poolopt_ir::CastOp::Sext, x);
    fb.binary(acc, BinaryOp::Mul, acc, 10i64);
    fb.binary(acc, BinaryOp::Add, acc, w);
    fb.get(t, v, 0i64, None); // t = {-3, -2}
    fb.call(Some(t), swap, vec![t.into()]); // t = {-2, -3}
    fb.get_field(x, t, 0);
    fb.cast(w, poolopt_ir::CastOp::Sext, x);
    fb.binary(acc, BinaryOp::Mul, acc, 10i64);
    fb.binary(acc, BinaryOp::Add, acc, w);
    fb.set(v, 1i64, None, t); // v[1] = {-2, -3}
    fb.pop(Some(s), v); // s = {-2, -3}, len 1
    fb.get_field(x, s, 1);
    fb.cast(w, poolopt_ir::CastOp::Sext, x);
    fb.binary(acc, BinaryOp::Mul, acc, 10i64);
    fb.binary(acc, BinaryOp::Add, acc, w);
    fb.vec_len(n, v);
    fb.binary(acc, BinaryOp::Mul, acc, 10i64);
    fb.binary(acc, BinaryOp::Add, acc, n);
    // A never-assigned struct local is all zero bytes.
    fb.get_field(x, z, 1);
    fb.cast(w, poolopt_ir::CastOp::Sext, x);
    fb.binary(acc, BinaryOp::Add, acc, w);
    fb.ret(Some(acc.into()));
    mb.finish().unwrap()
}

#[test]
fn small_struct_operations() {
    let m = s8_module();
    let mut want: i64 = -3 * 1_000_000 - 70000;
    for d in [-2, -2, -3, 1] {
        want = want * 10 + d;
    }
    assert_eq!(run(&m, "main", &[], &limits()), Ok(want));
}

/// `Big { f0..f15: i64 }` (128 bytes):
/// - `sum(b: Big) -> i64` adds the fields;
/// - `bump(b: Big, k: i64) -> Big` adds `k` to every field;
/// - `main() -> i64` builds, stores, modifies and passes Big values.
fn big_module() -> (Module, StructId) {
    let mut mb = ModuleBuilder::new();
    let names: Vec<String> = (0..16).map(|i| format!("f{i}")).collect();
    let fields: Vec<(&str, Type)> = names.iter().map(|n| (n.as_str(), Type::I64)).collect();
    let big = mb.add_struct("Big", &fields);
    assert_eq!(mb.module().layout(big).size, 128);
    let bt = Type::Struct(big);

    let sum = mb.declare_function("sum", &[("b", bt)], Some(Type::I64));
    {
        let mut fb = mb.define_function(sum);
        let b = fb.param(0).unwrap();
        let acc = fb.local("acc", Type::I64);
        let x = fb.local("x", Type::I64);
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        for f in 0..16 {
            fb.get_field(x, b, f);
            // Weight each field so a swapped field changes the sum.
            fb.binary(x, BinaryOp::Mul, x, i64::from(f) + 1);
            fb.binary(acc, BinaryOp::Add, acc, x);
        }
        fb.ret(Some(acc.into()));
    }
    let bump = mb.declare_function("bump", &[("b", bt), ("k", Type::I64)], Some(bt));
    {
        let mut fb = mb.define_function(bump);
        let b = fb.param(0).unwrap();
        let k = fb.param(1).unwrap();
        let x = fb.local("x", Type::I64);
        let e = fb.create_block("entry");
        fb.switch_to_block(e);
        for f in 0..16 {
            fb.get_field(x, b, f);
            fb.binary(x, BinaryOp::Add, x, k);
            fb.set_field(b, f, x);
        }
        fb.ret(Some(b.into()));
    }
    let main = mb.declare_function("main", &[], Some(Type::I64));
    let mut fb = mb.define_function(main);
    let v = fb.local("v", Type::Vec(ElemType::Struct(big)));
    let b = fb.local("b", bt);
    let c = fb.local("c", bt);
    let r = fb.local("r", Type::I64);
    let acc = fb.local("acc", Type::I64);
    let e = fb.create_block("entry");
    fb.switch_to_block(e);
    let init: Vec<Operand> = (0..16).map(|i| Operand::Const(-(i * 3) - 1)).collect();
    fb.make(b, big, init); // f_i = -(3i+1)
    fb.vec_new(v, ElemType::Struct(big));
    for _ in 0..3 {
        fb.push(v, b);
    }
    fb.set(v, 1i64, Some(15), 1000i64); // v[1].f15 = 1000
    fb.get(c, v, 1i64, None);
    fb.call(Some(r), sum, vec![c.into()]);
    fb.copy(acc, r);
    fb.call(Some(c), bump, vec![c.into(), 5i64.into()]);
    fb.set(v, 2i64, None, c); // v[2] = bumped
    fb.get(r, v, 2i64, Some(15)); // 1005
    fb.binary(acc, BinaryOp::Mul, acc, 10_000i64);
    fb.binary(acc, BinaryOp::Add, acc, r);
    fb.pop(Some(c), v); // the bumped one
    fb.call(Some(r), sum, vec![c.into()]);
    fb.binary(acc, BinaryOp::Mul, acc, 100_000i64);
    fb.binary(acc, BinaryOp::Add, acc, r);
    fb.get(r, v, 0i64, Some(7)); // untouched: -22
    fb.binary(acc, BinaryOp::Mul, acc, 100i64);
    fb.binary(acc, BinaryOp::Add, acc, r);
    fb.ret(Some(acc.into()));
    (mb.finish().unwrap(), big)
}

#[test]
fn large_struct_operations() {
    let (m, _) = big_module();
    let field = |i: i64| -(i * 3) - 1;
    let weighted = |f: &dyn Fn(i64) -> i64| (0..16).map(|i| f(i) * (i + 1)).sum::<i64>();
    let s1 = weighted(&|i| if i == 15 { 1000 } else { field(i) });
    let s2 = weighted(&|i| if i == 15 { 1005 } else { field(i) + 5 });
    let want = ((s1 * 10_000 + 1005) * 100_000 + s2) * 100 + field(7);
    assert_eq!(run(&m, "main", &[], &limits()), Ok(want));
}

/// `fn f(x: i64) -> i64 { v = new vec<T>; push v, x; y = get v[0]; ret sext(y) }`
fn roundtrip(ty: ScalarType, x: i64) -> Result<i64, InterpError> {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("f", &[("x", Type::I64)], Some(Type::I64));
    let mut fb = mb.define_function(f);
    let x_ = fb.param(0).unwrap();
    let v = fb.local("v", Type::Vec(ElemType::Scalar(ty)));
    let n = fb.local("n", Type::Scalar(ty));
    let y = fb.local("y", Type::Scalar(ty));
    let r = fb.local("r", Type::I64);
    let e = fb.create_block("entry");
    fb.switch_to_block(e);
    fb.vec_new(v, ElemType::Scalar(ty));
    fb.cast(n, poolopt_ir::CastOp::Trunc, x_);
    fb.push(v, n);
    fb.push(v, 0i64);
    fb.get(y, v, 0i64, None);
    fb.set(v, 1i64, None, y);
    fb.pop(Some(y), v);
    if ty == ScalarType::Bool {
        fb.cast(r, poolopt_ir::CastOp::Zext, y);
    } else {
        fb.cast(r, poolopt_ir::CastOp::Sext, y);
    }
    fb.ret(Some(r.into()));
    run(&mb.finish().unwrap(), "f", &[x], &limits())
}

#[test]
fn narrow_vec_elements_keep_their_width() {
    assert_eq!(roundtrip(ScalarType::I8, 200), Ok(-56));
    assert_eq!(roundtrip(ScalarType::I16, 0x18000), Ok(-32768));
    assert_eq!(roundtrip(ScalarType::I32, 0x1_ffff_fffe), Ok(-2));
    assert_eq!(roundtrip(ScalarType::I64, i64::MIN), Ok(i64::MIN));
    assert_eq!(roundtrip(ScalarType::Bool, 3), Ok(1));
    assert_eq!(roundtrip(ScalarType::Bool, 2), Ok(0));
}

/// `fill(v: vec<i64>, k: i64)` pushes 0..k; `main` passes one vec under two names.
fn alias_module() -> Module {
    let mut mb = ModuleBuilder::new();
    let vt = Type::Vec(ElemType::Scalar(ScalarType::I64));
    let fill = mb.declare_function("fill", &[("v", vt), ("k", Type::I64)], None);
    {
        let mut fb = mb.define_function(fill);
        let v = fb.param(0).unwrap();
        let k = fb.param(1).unwrap();
        let i = fb.local("i", Type::I64);
        let c = fb.local("c", Type::BOOL);
        let head = fb.create_block("head");
        let body = fb.create_block("body");
        let done = fb.create_block("done");
        fb.switch_to_block(head);
        fb.compare(c, CmpOp::Slt, i, k);
        fb.brif(c, body, done);
        fb.switch_to_block(body);
        fb.push(v, i);
        fb.binary(i, BinaryOp::Add, i, 1i64);
        fb.br(head);
        fb.switch_to_block(done);
        fb.ret(None);
    }
    let main = mb.declare_function("main", &[], Some(Type::I64));
    let mut fb = mb.define_function(main);
    let v = fb.local("v", vt);
    let w = fb.local("w", vt);
    let n = fb.local("n", Type::I64);
    let x = fb.local("x", Type::I64);
    let e = fb.create_block("entry");
    fb.switch_to_block(e);
    fb.vec_new(v, ElemType::Scalar(ScalarType::I64));
    fb.copy(w, v);
    fb.call(None, fill, vec![w.into(), 5i64.into()]); // callee's pushes are visible
    fb.push(w, 100i64);
    fb.set(w, 0i64, None, 7i64);
    fb.vec_len(n, v); // 6
    fb.get(x, v, 0i64, None); // 7
    fb.binary(n, BinaryOp::Mul, n, 1000i64);
    fb.binary(n, BinaryOp::Add, n, x);
    fb.pop(Some(x), v); // 100
    fb.binary(n, BinaryOp::Mul, n, 1000i64);
    fb.binary(n, BinaryOp::Add, n, x);
    fb.vec_len(x, w); // 5
    fb.binary(n, BinaryOp::Mul, n, 10i64);
    fb.binary(n, BinaryOp::Add, n, x);
    fb.ret(Some(n.into()));
    mb.finish().unwrap()
}

#[test]
fn vec_handles_alias_through_copies_and_calls() {
    assert_eq!(
        run(&alias_module(), "main", &[], &limits()),
        Ok(((6 * 1000 + 7) * 1000 + 100) * 10 + 5)
    );
}

#[test]
fn growth_statistics_follow_the_capacity_policy() {
    // fill(v, 9): capacities 0 -> 4 -> 8 -> 16.
    let mut mb = ModuleBuilder::new();
    let vt = Type::Vec(ElemType::Scalar(ScalarType::I64));
    let main = mb.declare_function("main", &[], Some(Type::I64));
    let mut fb = mb.define_function(main);
    let v = fb.local("v", vt);
    let n = fb.local("n", Type::I64);
    let e = fb.create_block("entry");
    fb.switch_to_block(e);
    fb.vec_new(v, ElemType::Scalar(ScalarType::I64));
    for i in 0..9i64 {
        fb.push(v, i);
    }
    fb.vec_len(n, v);
    fb.ret(Some(n.into()));
    let m = mb.finish().unwrap();
    let (r, stats) = run_with_stats(&m, "main", &[], &limits());
    assert_eq!(r, Ok(9));
    assert_eq!(stats.vec_growths, 3);
    assert_eq!(stats.bytes_copied, (4 + 8) * 8);
    assert_eq!(stats.bytes_allocated, 24 + (4 + 8 + 16) * 8);
    // 11 instructions and the terminator.
    assert_eq!(stats.steps, 12);
}

#[test]
fn uninitialized_scalar_locals_are_zero() {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("f", &[], Some(Type::I32));
    let mut fb = mb.define_function(f);
    let x = fb.local("x", Type::I32);
    let e = fb.create_block("entry");
    fb.switch_to_block(e);
    fb.ret(Some(x.into()));
    assert_eq!(run(&mb.finish().unwrap(), "f", &[], &limits()), Ok(0));
}
