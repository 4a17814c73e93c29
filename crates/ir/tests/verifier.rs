//! Tests of the IR verifier: one valid module that verifies clean, many invalid ones (each
//! checking the error kind, the message and the location set with `set_loc`), and modules with
//! dangling entity ids that must not make the verifier panic.

use poolopt_ir::{
    verify, verify_entry, verify_with, BinaryOp, Block, CastOp, Check, CmpOp, ElemType, EntityRef,
    FuncId, FunctionBuilder, Inst, InstKind, Loc, Local, Module, ModuleBuilder, Operand,
    ScalarType, StructId, Terminator, Type, UnaryOp, VerifyError, VerifyErrorKind, VerifyOptions,
};

const BAD: Loc = Loc::new(7, 3);
const OK: Loc = Loc::new(99, 1);

fn vec_of(s: ScalarType) -> Type {
    Type::Vec(ElemType::Scalar(s))
}

/// Verifies `m`, expecting exactly one error, and returns it.
fn single(m: &Module) -> VerifyError {
    let errs = verify(m).expect_err("the module should not verify");
    assert_eq!(errs.len(), 1, "expected one error, got {errs:#?}");
    errs.into_iter().next().unwrap()
}

/// A module with one function `main() -> i64` whose entry block runs `body` (with the location
/// set to `BAD`) and then returns 0 (at `OK`).
fn main_with(body: impl FnOnce(&mut FunctionBuilder<'_>)) -> Module {
    main_with_structs(|_| Vec::new(), |fb, _| body(fb))
}

/// Like [`main_with`], with struct declarations made first.
fn main_with_structs(
    structs: impl FnOnce(&mut ModuleBuilder) -> Vec<StructId>,
    body: impl FnOnce(&mut FunctionBuilder<'_>, &[StructId]),
) -> Module {
    let mut mb = ModuleBuilder::new();
    let ids = structs(&mut mb);
    let f = mb.declare_function("main", &[], Some(Type::I64));
    let mut fb = mb.define_function(f);
    fb.set_loc(OK);
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.set_loc(BAD);
    body(&mut fb, &ids);
    fb.set_loc(OK);
    if !fb.is_terminated() {
        fb.ret(Some(0i64.into()));
    }
    mb.finish().expect("builder misuse")
}

fn pair_struct(mb: &mut ModuleBuilder) -> Vec<StructId> {
    vec![mb.add_struct("S8", &[("a", Type::I32), ("b", Type::I32)])]
}

/// Asserts the error is a type mismatch with this exact message, at `BAD`.
fn assert_mismatch(err: &VerifyError, message: &str) {
    assert!(
        matches!(err.kind, VerifyErrorKind::TypeMismatch { .. }),
        "{err:?}"
    );
    assert_eq!(err.message(), message);
    assert_eq!(err.loc, BAD);
    assert_eq!(err.func.as_deref(), Some("main"));
}

/// The sample program of the design: a pool allocator `alloc` and a `main` that uses it.
fn sample_module() -> Module {
    let mut mb = ModuleBuilder::new();
    let s8 = mb.add_struct("S8", &[("a", Type::I32), ("b", Type::I32)]);
    let vs8 = Type::Vec(ElemType::Struct(s8));
    let alloc = mb.declare_function(
        "alloc",
        &[
            ("items", vs8),
            ("free", vec_of(ScalarType::I64)),
            ("v", Type::Struct(s8)),
        ],
        Some(Type::I64),
    );
    let main = mb.declare_function("main", &[], Some(Type::I64));
    {
        let mut fb = mb.define_function(alloc);
        let (items, free, v) = (
            fb.param(0).unwrap(),
            fb.param(1).unwrap(),
            fb.param(2).unwrap(),
        );
        let n = fb.local("n", Type::I64);
        let c = fb.local("c", Type::BOOL);
        let i = fb.local("i", Type::I64);
        let t0 = fb.local("t0", Type::I64);
        let entry = fb.create_block("entry");
        let reuse = fb.create_block("reuse");
        let check_hi = fb.create_block("check_hi");
        let store = fb.create_block("store");
        let bad = fb.create_block("bad");
        let append = fb.create_block("append");
        fb.switch_to_block(entry);
        fb.vec_len(n, free);
        fb.compare(c, CmpOp::Sgt, n, 0i64);
        fb.brif(c, reuse, append);
        fb.switch_to_block(reuse);
        fb.pop(Some(t0), free);
        fb.copy(i, t0);
        fb.compare(c, CmpOp::Slt, i, 0i64);
        fb.brif(c, bad, check_hi);
        fb.switch_to_block(check_hi);
        fb.vec_len(n, items);
        fb.compare(c, CmpOp::Sge, i, n);
        fb.brif(c, bad, store);
        fb.switch_to_block(store);
        fb.set(items, i, None, v);
        fb.ret(Some(i.into()));
        fb.switch_to_block(bad);
        fb.trap("index out of range");
        fb.switch_to_block(append);
        fb.vec_len(i, items);
        fb.push(items, v);
        fb.ret(Some(i.into()));
    }
    {
        let mut fb = mb.define_function(main);
        let items = fb.local("items", vs8);
        let free = fb.local("free", vec_of(ScalarType::I64));
        let s = fb.local("s", Type::Struct(s8));
        let r = fb.local("r", Type::I64);
        let x = fb.local("x", Type::I32);
        let small = fb.local("small", Type::I8);
        let flag = fb.local("flag", Type::BOOL);
        let entry = fb.create_block("entry");
        fb.switch_to_block(entry);
        fb.vec_new(items, ElemType::Struct(s8));
        fb.vec_new(free, ElemType::Scalar(ScalarType::I64));
        fb.make(s, s8, vec![1i64.into(), 7i64.into()]);
        fb.set_field(s, 1, 9i64);
        fb.get_field(x, s, 0);
        fb.call(Some(r), alloc, vec![items.into(), free.into(), s.into()]);
        fb.get(x, items, 0i64, Some(1));
        fb.get(s, items, r, None);
        fb.set(items, 0i64, Some(0), 4_000_000_000i64); // fits u32: accepted, wraps
        fb.binary(x, BinaryOp::Shl, x, 3i64);
        fb.unary(x, UnaryOp::Neg, x);
        fb.cast(small, CastOp::Trunc, x);
        fb.cast(flag, CastOp::Trunc, small);
        fb.binary(flag, BinaryOp::Xor, flag, true);
        fb.unary(flag, UnaryOp::Not, flag);
        fb.compare(flag, CmpOp::Eq, flag, false);
        fb.cast(x, CastOp::Zext, flag);
        fb.cast(r, CastOp::Sext, small);
        fb.push(free, r);
        fb.pop(None, free);
        fb.drop_vec(free);
        fb.ret(Some(r.into()));
    }
    mb.finish().unwrap()
}

#[test]
fn valid_module_verifies_clean() {
    let m = sample_module();
    assert_eq!(verify(&m), Ok(()));
    let main = verify_entry(&m, "main").unwrap();
    assert_eq!(m.funcs[main].name, "main");
}

// ---- Type errors in instructions ----

#[test]
fn binary_operand_type_mismatch() {
    let m = main_with(|fb| {
        let d = fb.local("d", Type::I64);
        let x = fb.local("x", Type::I32);
        fb.binary(d, BinaryOp::Add, x, 1i64);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `x` is i32 but `add` here needs i64",
    );
}

#[test]
fn arithmetic_on_bool_is_rejected_but_logic_is_not() {
    let m = main_with(|fb| {
        let b = fb.local("b", Type::BOOL);
        fb.binary(b, BinaryOp::And, b, true); // fine
        fb.binary(b, BinaryOp::Add, b, b);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `b` is bool but `add` here needs an integer type",
    );
}

#[test]
fn neg_needs_an_integer() {
    let m = main_with(|fb| {
        let b = fb.local("b", Type::BOOL);
        fb.unary(b, UnaryOp::Neg, b);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `b` is bool but `neg` here needs an integer type",
    );
}

#[test]
fn constant_must_fit_the_type_it_takes() {
    // For i8, -128..=255 is accepted (signed or unsigned reading).
    for (value, ok) in [(255, true), (-128, true), (256, false), (-129, false)] {
        let m = main_with(|fb| {
            let x = fb.local("x", Type::I8);
            fb.binary(x, BinaryOp::Add, x, value);
        });
        if ok {
            assert_eq!(verify(&m), Ok(()), "{value}");
        } else {
            let err = single(&m);
            assert_eq!(
                err.kind,
                VerifyErrorKind::ConstantOutOfRange {
                    value,
                    ty: "i8".into(),
                    op: "add"
                }
            );
            assert_eq!(
                err.message(),
                format!("constant {value} does not fit i8 in `add`")
            );
            assert_eq!(err.loc, BAD);
        }
    }
}

#[test]
fn bool_constant_is_zero_or_one() {
    let m = main_with(|fb| {
        let then_b = fb.create_block("t");
        let else_b = fb.create_block("e");
        fb.brif(2i64, then_b, else_b);
        fb.set_loc(OK);
        fb.switch_to_block(then_b);
        fb.ret(Some(1i64.into()));
        fb.switch_to_block(else_b);
        fb.ret(Some(0i64.into()));
    });
    let err = single(&m);
    assert!(matches!(
        err.kind,
        VerifyErrorKind::ConstantOutOfRange {
            value: 2,
            op: "brif",
            ..
        }
    ));
    assert_eq!(err.loc, BAD);
}

#[test]
fn brif_condition_must_be_bool() {
    let m = main_with(|fb| {
        let n = fb.local("n", Type::I64);
        let a = fb.create_block("a");
        fb.copy(n, 1i64);
        fb.brif(n, a, a);
        fb.set_loc(OK);
        fb.switch_to_block(a);
        fb.ret(Some(n.into()));
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `n` is i64 but `brif` here needs bool",
    );
}

#[test]
fn compare_destination_must_be_bool() {
    let m = main_with(|fb| {
        let n = fb.local("n", Type::I64);
        fb.compare(n, CmpOp::Slt, n, 3i64);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `n` is i64 but `slt` here needs bool",
    );
}

#[test]
fn compare_operands_must_agree() {
    let m = main_with(|fb| {
        let c = fb.local("c", Type::BOOL);
        let a = fb.local("a", Type::I32);
        let b = fb.local("b", Type::I64);
        fb.compare(c, CmpOp::Ult, a, b);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `b` is i64 but `ult` here needs i32",
    );
}

#[test]
fn ordered_compare_of_bools_is_rejected() {
    let m = main_with(|fb| {
        let c = fb.local("c", Type::BOOL);
        fb.compare(c, CmpOp::Ne, c, true); // eq/ne on bool is fine
        fb.compare(c, CmpOp::Slt, c, true);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `c` is bool but `slt` here needs an integer type",
    );
}

#[test]
fn compare_of_two_constants_has_no_type() {
    let m = main_with(|fb| {
        let c = fb.local("c", Type::BOOL);
        fb.compare(c, CmpOp::Eq, 1i64, 2i64);
    });
    let err = single(&m);
    assert!(matches!(
        err.kind,
        VerifyErrorKind::UntypedConstant {
            value: 1,
            op: "eq",
            ..
        }
    ));
    assert_eq!(err.loc, BAD);
}

#[test]
fn casts_must_change_width_the_right_way() {
    let cases: [(CastOp, Type, Type, bool); 10] = [
        (CastOp::Sext, Type::I32, Type::I64, true),
        (CastOp::Sext, Type::I64, Type::I32, false),
        (CastOp::Sext, Type::I32, Type::I32, false),
        (CastOp::Sext, Type::BOOL, Type::I32, false),
        (CastOp::Zext, Type::BOOL, Type::I8, true),
        (CastOp::Zext, Type::I16, Type::I16, false),
        (CastOp::Trunc, Type::I64, Type::I8, true),
        (CastOp::Trunc, Type::I8, Type::BOOL, true),
        (CastOp::Trunc, Type::I8, Type::I16, false),
        (CastOp::Trunc, Type::BOOL, Type::BOOL, false),
    ];
    for (op, from, to, ok) in cases {
        let m = main_with(|fb| {
            let s = fb.local("s", from);
            let d = fb.local("d", to);
            fb.cast(d, op, s);
        });
        if ok {
            assert_eq!(verify(&m), Ok(()), "{op:?} {from:?} -> {to:?}");
        } else {
            let err = single(&m);
            assert!(
                matches!(err.kind, VerifyErrorKind::BadCast { .. }),
                "{op:?} {from:?} -> {to:?}: {err:?}"
            );
            assert!(err.message().starts_with("invalid cast: `"), "{err}");
            assert_eq!(err.loc, BAD);
        }
    }
}

#[test]
fn cast_of_a_constant_has_no_type() {
    let m = main_with(|fb| {
        let d = fb.local("d", Type::I64);
        fb.cast(d, CastOp::Sext, 5i64);
    });
    let err = single(&m);
    assert!(matches!(
        err.kind,
        VerifyErrorKind::UntypedConstant {
            value: 5,
            op: "sext",
            ..
        }
    ));
    assert_eq!(err.loc, BAD);
}

#[test]
fn struct_operand_cannot_be_a_constant() {
    let m = main_with_structs(pair_struct, |fb, ids| {
        let s = fb.local("s", Type::Struct(ids[0]));
        fb.copy(s, 5i64);
    });
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::ConstantNotAllowed {
            value: 5,
            ty: "S8".into(),
            op: "copy"
        }
    );
    assert_eq!(err.loc, BAD);
}

#[test]
fn copy_between_different_types() {
    let m = main_with(|fb| {
        let a = fb.local("a", Type::I16);
        let v = fb.local("v", vec_of(ScalarType::I16));
        fb.vec_new(v, ElemType::Scalar(ScalarType::I16));
        fb.copy(a, v);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `v` is vec<i16> but `copy` here needs i16",
    );
}

// ---- Structs ----

#[test]
fn make_arity() {
    let m = main_with_structs(pair_struct, |fb, ids| {
        let s = fb.local("s", Type::Struct(ids[0]));
        fb.make(s, ids[0], vec![Operand::Const(1)]);
    });
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::MakeArity {
            strukt: "S8".into(),
            expected: 2,
            found: 1
        }
    );
    assert_eq!(err.loc, BAD);
}

#[test]
fn make_field_type() {
    let m = main_with_structs(pair_struct, |fb, ids| {
        let s = fb.local("s", Type::Struct(ids[0]));
        let w = fb.local("w", Type::I64);
        fb.copy(w, 0i64);
        fb.make(s, ids[0], vec![1i64.into(), w.into()]);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `w` is i64 but `make` here needs i32",
    );
}

#[test]
fn getfield_index_out_of_range() {
    let m = main_with_structs(pair_struct, |fb, ids| {
        let s = fb.local("s", Type::Struct(ids[0]));
        let x = fb.local("x", Type::I32);
        fb.make(s, ids[0], vec![1i64.into(), 2i64.into()]);
        fb.get_field(x, s, 2);
    });
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::FieldOutOfRange {
            strukt: "S8".into(),
            field: 2,
            count: 2
        }
    );
    assert_eq!(err.loc, BAD);
}

#[test]
fn getfield_of_a_scalar() {
    let m = main_with(|fb| {
        let n = fb.local("n", Type::I64);
        fb.get_field(n, n, 0);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `n` is i64 but `getfield` here needs a struct",
    );
}

#[test]
fn setfield_value_type() {
    let m = main_with_structs(pair_struct, |fb, ids| {
        let s = fb.local("s", Type::Struct(ids[0]));
        let c = fb.local("c", Type::BOOL);
        fb.make(s, ids[0], vec![1i64.into(), 2i64.into()]);
        fb.copy(c, true);
        fb.set_field(s, 0, c);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `c` is bool but `setfield` here needs i32",
    );
}

// ---- Vecs ----

#[test]
fn push_element_type() {
    let m = main_with(|fb| {
        let v = fb.local("v", vec_of(ScalarType::I32));
        let x = fb.local("x", Type::I64);
        fb.vec_new(v, ElemType::Scalar(ScalarType::I32));
        fb.copy(x, 0i64);
        fb.push(v, x);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `x` is i64 but `push` here needs i32",
    );
}

#[test]
fn push_to_a_non_vec() {
    let m = main_with(|fb| {
        let x = fb.local("x", Type::I64);
        fb.copy(x, 0i64);
        fb.push(x, 1i64);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `x` is i64 but `push` here needs a vec",
    );
}

#[test]
fn index_must_be_i64() {
    let m = main_with(|fb| {
        let v = fb.local("v", vec_of(ScalarType::I64));
        let i = fb.local("i", Type::I32);
        let x = fb.local("x", Type::I64);
        fb.vec_new(v, ElemType::Scalar(ScalarType::I64));
        fb.copy(i, 0i64);
        fb.get(x, v, i, None);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `i` is i32 but `get` here needs i64",
    );
}

#[test]
fn field_access_on_scalar_elements() {
    let m = main_with(|fb| {
        let v = fb.local("v", vec_of(ScalarType::I64));
        fb.vec_new(v, ElemType::Scalar(ScalarType::I64));
        fb.set(v, 0i64, Some(0), 1i64);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `v` is vec<i64> but `set` here needs a vec of structs (it accesses a field)",
    );
}

#[test]
fn get_field_of_element_has_the_field_type() {
    let m = main_with_structs(pair_struct, |fb, ids| {
        let v = fb.local("v", Type::Vec(ElemType::Struct(ids[0])));
        let x = fb.local("x", Type::I64);
        fb.vec_new(v, ElemType::Struct(ids[0]));
        fb.get(x, v, 0i64, Some(1));
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `x` is i64 but `get` here needs i32",
    );
}

#[test]
fn pop_destination_is_the_element_type() {
    let m = main_with(|fb| {
        let v = fb.local("v", vec_of(ScalarType::I16));
        let x = fb.local("x", Type::I64);
        fb.vec_new(v, ElemType::Scalar(ScalarType::I16));
        fb.pop(Some(x), v);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `x` is i64 but `pop` here needs i16",
    );
}

#[test]
fn new_element_type_matches_destination() {
    let m = main_with(|fb| {
        let v = fb.local("v", vec_of(ScalarType::I16));
        fb.vec_new(v, ElemType::Scalar(ScalarType::I32));
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `v` is vec<i16> but `new` here needs vec<i32>",
    );
}

#[test]
fn len_is_i64() {
    let m = main_with(|fb| {
        let v = fb.local("v", vec_of(ScalarType::I8));
        let n = fb.local("n", Type::I32);
        fb.vec_new(v, ElemType::Scalar(ScalarType::I8));
        fb.vec_len(n, v);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `n` is i32 but `len` here needs i64",
    );
}

// ---- Calls and returns ----

/// A module with `g(a: i32) -> ret` (returning 0 or nothing) and `main` running `body`.
fn with_callee(ret: Option<Type>, body: impl FnOnce(&mut FunctionBuilder<'_>, FuncId)) -> Module {
    let mut mb = ModuleBuilder::new();
    let g = mb.declare_function("g", &[("a", Type::I32)], ret);
    let main = mb.declare_function("main", &[], Some(Type::I64));
    {
        let mut fb = mb.define_function(g);
        let b = fb.create_block("entry");
        fb.switch_to_block(b);
        fb.ret(ret.map(|_| 0i64.into()));
    }
    let mut fb = mb.define_function(main);
    let entry = fb.create_block("entry");
    fb.switch_to_block(entry);
    fb.set_loc(BAD);
    body(&mut fb, g);
    fb.set_loc(OK);
    fb.ret(Some(0i64.into()));
    mb.finish().unwrap()
}

#[test]
fn call_arity() {
    let m = with_callee(Some(Type::I64), |fb, g| {
        fb.call(None, g, vec![1i64.into(), 2i64.into()]);
    });
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::CallArity {
            callee: "g".into(),
            expected: 1,
            found: 2
        }
    );
    assert_eq!(err.message(), "call to `g` has 2 arguments but it takes 1");
    assert_eq!(err.loc, BAD);
}

#[test]
fn call_argument_type() {
    let m = with_callee(Some(Type::I64), |fb, g| {
        let x = fb.local("x", Type::I64);
        fb.copy(x, 1i64);
        fb.call(None, g, vec![x.into()]);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `x` (argument 1 of `g`) is i64 but `call` here needs i32",
    );
}

#[test]
fn call_result_type() {
    let m = with_callee(Some(Type::I64), |fb, g| {
        let r = fb.local("r", Type::I8);
        fb.call(Some(r), g, vec![1i64.into()]);
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `r` (result of `g`) is i8 but `call` here needs i64",
    );
}

#[test]
fn result_of_a_void_call() {
    let m = with_callee(None, |fb, g| {
        let r = fb.local("r", Type::I64);
        fb.call(None, g, vec![1i64.into()]); // fine
        fb.call(Some(r), g, vec![1i64.into()]);
    });
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::VoidCallResult {
            callee: "g".into(),
            dst: "r".into()
        }
    );
    assert_eq!(err.loc, BAD);
}

#[test]
fn call_to_an_undefined_function() {
    let m = main_with(|fb| {
        fb.call(None, FuncId::new(42), vec![]);
    });
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::UnknownFunction { id: "fn42".into() }
    );
    assert_eq!(err.loc, BAD);
}

#[test]
fn ret_without_value() {
    let m = main_with(|fb| fb.ret(None));
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::RetMissingValue { ty: "i64".into() }
    );
    assert_eq!(err.loc, BAD);
}

#[test]
fn ret_value_from_void_function() {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("f", &[], None);
    let mut fb = mb.define_function(f);
    let b = fb.create_block("entry");
    fb.switch_to_block(b);
    fb.set_loc(BAD);
    fb.ret(Some(1i64.into()));
    let m = mb.finish().unwrap();
    let err = single(&m);
    assert_eq!(err.kind, VerifyErrorKind::RetValueInVoid);
    assert_eq!(err.loc, BAD);
    assert_eq!(err.func.as_deref(), Some("f"));
}

#[test]
fn ret_value_type() {
    let m = main_with(|fb| {
        let b = fb.local("b", Type::BOOL);
        fb.copy(b, true);
        fb.ret(Some(b.into()));
    });
    assert_mismatch(
        &single(&m),
        "type mismatch: `b` is bool but `ret` here needs i64",
    );
}

// ---- CFG ----

#[test]
fn missing_terminator() {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("main", &[], Some(Type::I64));
    let mut fb = mb.define_function(f);
    fb.set_loc(BAD);
    let b = fb.create_block("entry");
    fb.switch_to_block(b);
    let m = mb.finish().unwrap();
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::MissingTerminator {
            block: "entry".into()
        }
    );
    assert_eq!(err.loc, BAD);
}

#[test]
fn unreachable_block() {
    let m = main_with(|fb| {
        fb.ret(Some(0i64.into()));
        let dead = fb.create_block("dead");
        fb.switch_to_block(dead);
        fb.set_loc(OK);
        fb.ret(Some(1i64.into()));
    });
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::UnreachableBlock {
            block: "dead".into()
        }
    );
    assert_eq!(err.message(), "unreachable block `dead`");
    assert_eq!(err.loc, BAD);
}

#[test]
fn unreachable_loop_is_reported() {
    // Two blocks that only reach each other are dead too.
    let m = main_with(|fb| {
        fb.ret(Some(0i64.into()));
        let a = fb.create_block("a");
        let b = fb.create_block("b");
        fb.set_loc(OK);
        fb.switch_to_block(a);
        fb.br(b);
        fb.switch_to_block(b);
        fb.br(a);
    });
    let errs = verify(&m).unwrap_err();
    let kinds: Vec<_> = errs.iter().map(|e| e.kind.clone()).collect();
    assert_eq!(
        kinds,
        vec![
            VerifyErrorKind::UnreachableBlock { block: "a".into() },
            VerifyErrorKind::UnreachableBlock { block: "b".into() },
        ]
    );
}

#[test]
fn empty_layout() {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("main", &[], Some(Type::I64));
    let mut m = mb.finish().unwrap();
    m.funcs[f].loc = BAD;
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::EmptyLayout {
            func: "main".into()
        }
    );
    assert_eq!(err.loc, BAD);
}

#[test]
fn duplicate_block_names() {
    let m = main_with(|fb| {
        let a = fb.create_block("entry");
        fb.br(a);
        fb.switch_to_block(a);
        fb.set_loc(OK);
        fb.ret(Some(0i64.into()));
    });
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::DuplicateBlock {
            name: "entry".into()
        }
    );
    assert_eq!(err.loc, BAD);
}

#[test]
fn block_twice_in_layout() {
    let mut m = main_with(|_| {});
    let f = m.func_by_name("main").unwrap();
    let entry = m.funcs[f].layout[0];
    m.funcs[f].layout.push(entry);
    m.funcs[f].blocks[entry].loc = BAD;
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::DuplicateLayout {
            block: "entry".into()
        }
    );
    assert_eq!(err.loc, BAD);
}

#[test]
fn branch_to_a_block_removed_from_the_layout() {
    let mut m = main_with(|fb| {
        let gone = fb.create_block("gone");
        fb.br(gone);
        fb.switch_to_block(gone);
        fb.ret(Some(0i64.into()));
    });
    let f = m.func_by_name("main").unwrap();
    m.funcs[f].layout.truncate(1);
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::TargetNotInLayout {
            block: "gone".into()
        }
    );
    assert_eq!(err.loc, BAD);
}

#[test]
fn instruction_placed_twice() {
    let mut m = main_with(|fb| {
        let x = fb.local("x", Type::I64);
        fb.copy(x, 1i64);
    });
    let f = m.func_by_name("main").unwrap();
    let entry = m.funcs[f].layout[0];
    let inst = m.funcs[f].blocks[entry].insts[0];
    m.funcs[f].blocks[entry].insts.push(inst);
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::DuplicatePlacement {
            inst: "inst0".into()
        }
    );
    assert_eq!(err.loc, BAD);
}

// ---- Names and declarations ----

#[test]
fn duplicate_local_names() {
    let m = main_with(|fb| {
        fb.local("x", Type::I64);
        fb.set_loc(Loc::new(8, 5));
        fb.local("x", Type::I32);
    });
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::DuplicateLocal { name: "x".into() }
    );
    assert_eq!(err.loc, Loc::new(8, 5));
}

#[test]
fn duplicate_function_names() {
    let mut mb = ModuleBuilder::new();
    for _ in 0..2 {
        let f = mb.declare_function("f", &[], None);
        let mut fb = mb.define_function(f);
        let b = fb.create_block("entry");
        fb.switch_to_block(b);
        fb.ret(None);
    }
    let mut m = mb.finish().unwrap();
    m.funcs[FuncId::new(1)].loc = BAD;
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::DuplicateFunction { name: "f".into() }
    );
    assert_eq!(err.loc, BAD);
}

#[test]
fn struct_fields_must_be_scalars() {
    let mut m = main_with_structs(
        |mb| vec![mb.add_struct("Bad", &[("a", Type::I32), ("v", vec_of(ScalarType::I64))])],
        |_, _| {},
    );
    m.structs[StructId::new(0)].loc = BAD;
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::BadFieldType {
            strukt: "Bad".into(),
            field: "v".into(),
            ty: "vec<i64>".into()
        }
    );
    assert_eq!(err.loc, BAD);
    assert_eq!(err.func, None);
}

#[test]
fn nested_struct_field_is_rejected() {
    let m = main_with_structs(
        |mb| {
            let inner = mb.add_struct("In", &[("a", Type::I8)]);
            vec![mb.add_struct("Out", &[("s", Type::Struct(inner))])]
        },
        |_, _| {},
    );
    let err = single(&m);
    assert!(matches!(err.kind, VerifyErrorKind::BadFieldType { .. }));
    assert_eq!(
        err.message(),
        "field `s` of struct `Out` has type In; struct fields must be scalars"
    );
}

#[test]
fn empty_struct() {
    let m = main_with_structs(|mb| vec![mb.add_struct("E", &[])], |_, _| {});
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::EmptyStruct { strukt: "E".into() }
    );
}

#[test]
fn duplicate_field_and_struct_names() {
    let mut m = main_with_structs(
        |mb| {
            vec![
                mb.add_struct("P", &[("a", Type::I8), ("a", Type::I8)]),
                mb.add_struct("P", &[("x", Type::I8)]),
            ]
        },
        |_, _| {},
    );
    m.structs[StructId::new(0)].loc = Loc::new(1, 1);
    m.structs[StructId::new(1)].loc = Loc::new(2, 1);
    let errs = verify(&m).unwrap_err();
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert_eq!(
        errs[0].kind,
        VerifyErrorKind::DuplicateField {
            strukt: "P".into(),
            field: "a".into()
        }
    );
    assert_eq!(errs[0].loc, Loc::new(1, 1));
    assert_eq!(
        errs[1].kind,
        VerifyErrorKind::DuplicateStruct { name: "P".into() }
    );
    assert_eq!(errs[1].loc, Loc::new(2, 1));
}

#[test]
fn packed_local_must_fit_one_integer() {
    let mut m = main_with_structs(
        |mb| vec![mb.add_struct("Big", &[("a", Type::I64), ("b", Type::I64)])],
        |fb, ids| {
            fb.local("s", Type::Struct(ids[0]));
        },
    );
    let f = m.func_by_name("main").unwrap();
    let s = m.funcs[f].local_by_name("s").unwrap();
    m.funcs[f].locals[s].packed = true;
    let err = single(&m);
    assert!(
        matches!(&err.kind, VerifyErrorKind::BadPacked { local, .. } if local == "s"),
        "{err:?}"
    );
    assert_eq!(err.loc, BAD);
}

#[test]
fn undefined_local() {
    let m = main_with(|fb| {
        let x = fb.local("x", Type::I64);
        fb.copy(x, Local::new(77));
    });
    let err = single(&m);
    assert_eq!(
        err.kind,
        VerifyErrorKind::UnknownLocal {
            id: "local77".into()
        }
    );
    assert_eq!(err.loc, BAD);
}

// ---- Reporting ----

#[test]
fn all_errors_are_collected_in_order() {
    let m = main_with(|fb| {
        let x = fb.local("x", Type::I64);
        let y = fb.local("y", Type::I32);
        fb.binary(x, BinaryOp::Mul, y, 2i64);
        fb.set_loc(Loc::new(8, 1));
        fb.compare(x, CmpOp::Eq, x, 0i64);
    });
    let errs = verify(&m).unwrap_err();
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert_eq!(errs[0].loc, BAD);
    assert_eq!(errs[1].loc, Loc::new(8, 1));
    assert_eq!(
        errs[1].to_string(),
        "type mismatch: `x` is i64 but `eq` here needs bool"
    );
}

#[test]
fn unknown_location_falls_back_to_the_function() {
    let mut m = main_with(|fb| {
        fb.set_loc(Loc::UNKNOWN);
        let x = fb.local("x", Type::I64);
        fb.copy(x, true);
        fb.copy(x, 1i64 << 40);
        let b = fb.local("b", Type::BOOL);
        fb.copy(b, 2i64);
    });
    let f = m.func_by_name("main").unwrap();
    m.funcs[f].loc = Loc::new(3, 1);
    let err = single(&m);
    assert!(matches!(
        err.kind,
        VerifyErrorKind::ConstantOutOfRange { value: 2, .. }
    ));
    assert_eq!(err.loc, Loc::new(3, 1));
}

// ---- Entry signature ----

fn entry_module(params: &[(&str, Type)], ret: Option<Type>) -> Module {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare_function("main", params, ret);
    let mut fb = mb.define_function(f);
    let b = fb.create_block("entry");
    fb.switch_to_block(b);
    fb.ret(ret.map(|_| Operand::Const(0)));
    let mut m = mb.finish().unwrap();
    m.funcs[f].loc = BAD;
    m
}

#[test]
fn entry_signature() {
    let ok = entry_module(&[("a", Type::I8), ("b", Type::I64)], Some(Type::I64));
    assert_eq!(verify(&ok), Ok(()));
    assert_eq!(verify_entry(&ok, "main"), Ok(FuncId::new(0)));

    let missing = verify_entry(&ok, "start").unwrap_err();
    assert_eq!(
        missing.kind,
        VerifyErrorKind::NoEntry {
            name: "start".into()
        }
    );

    let bad_cases = [
        entry_module(&[("b", Type::BOOL)], Some(Type::I64)),
        entry_module(&[("v", vec_of(ScalarType::I64))], Some(Type::I64)),
        entry_module(&[], Some(Type::I32)),
        entry_module(&[], None),
    ];
    for m in &bad_cases {
        let err = verify_entry(m, "main").unwrap_err();
        assert!(
            matches!(err.kind, VerifyErrorKind::BadEntrySignature { .. }),
            "{err:?}"
        );
        assert!(
            err.message().starts_with("bad entry signature: `main`"),
            "{err}"
        );
        assert_eq!(err.loc, BAD);
    }
}

// ---- Robustness ----

#[test]
fn dangling_ids_do_not_panic() {
    let s = StructId::new(9);
    let l = Local::new(50);
    let blk = Block::new(60);
    let mut m = main_with_structs(
        |mb| vec![mb.add_struct("Odd", &[("f", Type::Struct(StructId::new(8)))])],
        |fb, _| {
            let sl = fb.local("sl", Type::Struct(s));
            let vl = fb.local("vl", Type::Vec(ElemType::Struct(s)));
            fb.make(sl, s, vec![l.into()]);
            fb.get_field(l, sl, 3);
            fb.set_field(sl, 0, l);
            fb.vec_new(vl, ElemType::Struct(s));
            fb.vec_len(l, vl);
            fb.push(l, l);
            fb.pop(Some(l), vl);
            fb.get(l, vl, l, Some(4));
            fb.set(vl, l, Some(1), l);
            fb.drop_vec(l);
            fb.call(Some(l), FuncId::new(70), vec![l.into()]);
            fb.cast(l, CastOp::Trunc, l);
            fb.ins(InstKind::Unary {
                dst: l,
                op: UnaryOp::Not,
                arg: Operand::Local(l),
            });
            fb.brif(l, blk, blk);
        },
    );
    let f = m.func_by_name("main").unwrap();
    let func = &mut m.funcs[f];
    func.params.push(Local::new(51));
    func.ret = Some(Type::Vec(ElemType::Struct(s)));
    let entry = func.layout[0];
    func.blocks[entry].insts.push(Inst::new(1000));
    func.layout.push(Block::new(61));
    func.locals[Local::new(0)].packed = true;
    // A block with a dangling terminator target that is also dangling in the layout.
    let extra = func.add_block("extra");
    func.blocks[extra].terminator = Some(Terminator::Br(Block::new(62)));

    let errs = verify(&m).unwrap_err();
    assert!(errs.len() > 10, "{errs:#?}");
    for e in &errs {
        assert!(!e.message().is_empty());
    }
    let _ = verify_entry(&m, "main");
    // Printing must not be needed to report: every message is built from the error itself.
    assert!(errs
        .iter()
        .any(|e| matches!(e.kind, VerifyErrorKind::UnknownBlock { .. })));
    assert!(errs
        .iter()
        .any(|e| matches!(e.kind, VerifyErrorKind::UnknownInst { .. })));
    assert!(errs
        .iter()
        .any(|e| matches!(e.kind, VerifyErrorKind::UnknownStruct { .. })));
}

#[test]
fn dangling_entry_parameter_does_not_panic() {
    let mut m = entry_module(&[], Some(Type::I64));
    m.funcs[FuncId::new(0)].params.push(Local::new(5));
    assert!(verify(&m).is_err());
    let err = verify_entry(&m, "main").unwrap_err();
    assert!(matches!(
        err.kind,
        VerifyErrorKind::BadEntrySignature { .. }
    ));
}

#[test]
fn names_the_text_format_cannot_spell_are_rejected() {
    use poolopt_ir::{ModuleBuilder, Type, VerifyErrorKind};
    let mut mb = ModuleBuilder::new();
    mb.add_struct("i32", &[("a", Type::I32)]);
    let f = mb.declare_function("my fn", &[], Some(Type::I64));
    let mut fb = mb.define_function(f);
    fb.local("s.a", Type::I64);
    fb.local("true", Type::I64);
    let b = fb.create_block("entry");
    fb.switch_to_block(b);
    fb.ret(Some(0i64.into()));
    let module = mb.finish().unwrap();
    let errors = poolopt_ir::verify(&module).unwrap_err();
    let invalid: Vec<&str> = errors
        .iter()
        .filter_map(|e| match &e.kind {
            VerifyErrorKind::InvalidName { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(invalid, ["i32", "my fn", "s.a", "true"]);
}

/// Builds `main` with one unchecked operation of each kind (pop, get, set), each at its own
/// location, on a vec of one element.
fn unchecked_forms() -> Module {
    main_with(|fb| {
        let v = fb.local("v", vec_of(ScalarType::I64));
        let x = fb.local("x", Type::I64);
        fb.ins(InstKind::VecNew {
            dst: v,
            elem: ElemType::Scalar(ScalarType::I64),
        });
        fb.push(v, 1i64);
        fb.set_loc(Loc::new(10, 5));
        fb.ins(InstKind::VecGet {
            dst: x,
            vec: v,
            index: Operand::Const(0),
            field: None,
            check: Check::Unchecked,
        });
        fb.set_loc(Loc::new(11, 5));
        fb.ins(InstKind::VecSet {
            vec: v,
            index: Operand::Const(0),
            field: None,
            value: Operand::Local(x),
            check: Check::Unchecked,
        });
        fb.set_loc(Loc::new(12, 5));
        fb.ins(InstKind::VecPop {
            dst: Some(x),
            vec: v,
            check: Check::Unchecked,
        });
    })
}

/// Untrusted IR (the default) may hold no unchecked operation: each one is an error at its own
/// location that names the form, the checked alternative and the opt-in.
#[test]
fn unchecked_operations_are_refused_in_untrusted_ir() {
    let m = unchecked_forms();
    let errs = verify(&m).unwrap_err();
    let found: Vec<(Loc, String)> = errs.iter().map(|e| (e.loc, e.message())).collect();
    assert_eq!(found.len(), 3, "{found:#?}");
    for ((loc, message), (line, op)) in found.iter().zip([(10, "get"), (11, "set"), (12, "pop")]) {
        assert_eq!(*loc, Loc::new(line, 5));
        assert!(
            message.starts_with(&format!("`{op}.unchecked` is not allowed in untrusted IR")),
            "{message}"
        );
        assert!(message.contains(&format!("use `{op}`")), "{message}");
        assert!(message.contains("--trust-unchecked"), "{message}");
    }
    assert!(errs.iter().all(
        |e| matches!(e.kind, VerifyErrorKind::UncheckedNotTrusted { .. })
            && e.func.as_deref() == Some("main")
    ));
}

/// The unchecked divisions are refused in untrusted IR too, each at its own line, naming the
/// precondition the input would have to guarantee; trusted, they verify. `.unchecked` on an
/// operator that is not a division is malformed even when trusted.
#[test]
fn unchecked_divisions_are_refused_in_untrusted_ir() {
    let m = main_with(|fb| {
        let x = fb.local("x", Type::I64);
        let y = fb.local("y", Type::I64);
        fb.copy(y, 7i64);
        for (line, op) in [
            (20, BinaryOp::SDiv),
            (21, BinaryOp::UDiv),
            (22, BinaryOp::SRem),
            (23, BinaryOp::URem),
        ] {
            fb.set_loc(Loc::new(line, 5));
            fb.binary_unchecked(x, op, 100i64, y);
        }
    });
    let errs = verify(&m).unwrap_err();
    assert_eq!(errs.len(), 4, "{errs:#?}");
    for (e, (line, op)) in errs
        .iter()
        .zip([(20, "sdiv"), (21, "udiv"), (22, "srem"), (23, "urem")])
    {
        assert_eq!(e.loc, Loc::new(line, 5));
        let message = e.message();
        assert!(
            message.starts_with(&format!("`{op}.unchecked` is not allowed in untrusted IR")),
            "{message}"
        );
        assert!(message.contains(&format!("use `{op}`")), "{message}");
        assert!(message.contains("--trust-unchecked"), "{message}");
        let pre = if op == "sdiv" {
            "not 0, not -1"
        } else {
            "(not 0)"
        };
        assert!(message.contains(pre), "{message}");
        assert!(matches!(
            e.kind,
            VerifyErrorKind::UncheckedDivNotTrusted { .. }
        ));
    }
    assert_eq!(verify_with(&m, &VerifyOptions::TRUSTED), Ok(()));

    let bad = main_with(|fb| {
        let x = fb.local("x", Type::I64);
        fb.binary_unchecked(x, BinaryOp::Add, 1i64, 2i64);
    });
    let errs = verify_with(&bad, &VerifyOptions::TRUSTED).unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(matches!(
        errs[0].kind,
        VerifyErrorKind::UncheckedNotDivision { op: "add" }
    ));
}

/// With `trust_unchecked` the same module verifies; the option is off by default and does not
/// relax any other rule.
#[test]
fn trusted_ir_may_hold_unchecked_operations() {
    let m = unchecked_forms();
    assert_eq!(verify_with(&m, &VerifyOptions::TRUSTED), Ok(()));
    assert!(!VerifyOptions::default().trust_unchecked);
    assert_eq!(
        verify_with(&m, &VerifyOptions::default())
            .unwrap_err()
            .len(),
        3
    );
    // Other errors are still reported under the opt-in.
    let bad = main_with(|fb| {
        let v = fb.local("v", vec_of(ScalarType::I64));
        let b = fb.local("b", Type::BOOL);
        fb.ins(InstKind::VecPop {
            dst: Some(b),
            vec: v,
            check: Check::Unchecked,
        });
    });
    let errs = verify_with(&bad, &VerifyOptions::TRUSTED).unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(matches!(errs[0].kind, VerifyErrorKind::TypeMismatch { .. }));
    assert_eq!(verify(&bad).unwrap_err().len(), 2);
}
