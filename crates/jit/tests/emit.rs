//! CLIF and assembly text: deterministic, for the fixed target, with the expected contents.

mod common;

use poolopt_ir::{BinaryOp, CmpOp, ElemType, Module, ModuleBuilder, ScalarType, Type};
use poolopt_jit::{emit_asm, emit_clif, ClOpt};

fn module() -> Module {
    let mut mb = ModuleBuilder::new();
    let vt = Type::Vec(ElemType::Scalar(ScalarType::I64));
    let take = mb.declare_function("take", &[("free", vt)], Some(Type::I64));
    let main = mb.declare_function(
        "main",
        &[("a", Type::I64), ("b", Type::I64)],
        Some(Type::I64),
    );
    {
        let mut fb = mb.define_function(take);
        let free = fb.param(0).unwrap();
        let n = fb.local("n", Type::I64);
        let c = fb.local("c", Type::BOOL);
        let i = fb.local("i", Type::I64);
        let entry = fb.create_block("entry");
        let have = fb.create_block("have");
        let empty = fb.create_block("empty");
        fb.switch_to_block(entry);
        fb.vec_len(n, free);
        fb.compare(c, CmpOp::Sgt, n, 0i64);
        fb.brif(c, have, empty);
        fb.switch_to_block(have);
        fb.pop(Some(i), free);
        fb.ret(Some(i.into()));
        fb.switch_to_block(empty);
        fb.ret(Some((-1i64).into()));
    }
    {
        let mut fb = mb.define_function(main);
        let (a, b) = (fb.param(0).unwrap(), fb.param(1).unwrap());
        let v = fb.local("v", vt);
        let q = fb.local("q", Type::I64);
        let entry = fb.create_block("entry");
        fb.switch_to_block(entry);
        fb.binary(q, BinaryOp::SDiv, a, b);
        fb.vec_new(v, ElemType::Scalar(ScalarType::I64));
        fb.push(v, q);
        fb.call(Some(q), take, vec![v.into()]);
        fb.ret(Some(q.into()));
    }
    mb.finish().unwrap()
}

#[test]
fn asm_is_deterministic_and_plausible() {
    let m = module();
    for cl_opt in [ClOpt::None, ClOpt::Speed] {
        let a = emit_asm(&m, cl_opt).unwrap();
        let b = emit_asm(&m, cl_opt).unwrap();
        assert_eq!(a, b);
        assert!(a.contains("; function take ("), "{a}");
        assert!(a.contains("; function main ("), "{a}");
        for mnemonic in ["ret", "call", "cmp", "idiv", "push"] {
            assert!(a.contains(mnemonic), "no `{mnemonic}` in\n{a}");
        }
    }
}

#[test]
fn clif_shows_the_naive_lowering() {
    let m = module();
    let clif = emit_clif(&m, ClOpt::None).unwrap();
    assert_eq!(clif, emit_clif(&m, ClOpt::Speed).unwrap());
    assert!(clif.starts_with("; function take\n"), "{clif}");
    // IR function i is u0:(4 + i); the runtime functions come first.
    assert!(clif.contains("function u0:4("), "{clif}");
    assert!(clif.contains("function u0:5("), "{clif}");
    // The checked pop compares the length with 0 and has a cold trap block.
    assert!(clif.contains("icmp eq"), "{clif}");
    assert!(clif.contains("cold"), "{clif}");
    // The division is guarded against 0 and -1 before `sdiv`.
    assert!(clif.contains("sdiv"), "{clif}");
}

#[test]
fn malformed_modules_are_errors_not_panics() {
    let mut m = module();
    // A call with the wrong number of arguments.
    let main = m.func_by_name("main").unwrap();
    for inst in m.funcs[main].insts.values_mut() {
        if let poolopt_ir::InstKind::Call { args, .. } = &mut inst.kind {
            args.clear();
        }
    }
    assert!(emit_clif(&m, ClOpt::None).is_err());
    assert!(poolopt_jit::CompiledModule::compile(&m, &Default::default()).is_err());
    // A function with no blocks.
    let mut m = module();
    m.funcs[main].layout.clear();
    assert!(emit_asm(&m, ClOpt::Speed).is_err());
}

#[test]
#[ignore = "prints the emitted text for inspection"]
fn print_text() {
    let m = module();
    println!("{}", emit_clif(&m, ClOpt::None).unwrap());
    println!("{}", emit_asm(&m, ClOpt::Speed).unwrap());
}

/// A push stores the element once on the fast path and, for an element of at most 16 bytes, once
/// more on the grow path (so the fast path's store block has one way in); a wider element's grow
/// path rejoins before its one store, so the cold path keeps none of its field values alive.
#[test]
fn only_a_narrow_push_has_a_second_store_on_its_grow_path() {
    // `main`'s CLIF for a loop that pushes a struct of `fields` i64 fields, and how many times
    // it stores the second field (`store.i64 notrap vX, vY+8`; the length's store is a plain
    // `store notrap`).
    let second_field_stores = |fields: usize| {
        let names: Vec<String> = (0..fields).map(|k| format!("f{k}: i64")).collect();
        let args: Vec<String> = (0..fields).map(|k| format!("{}", k + 1)).collect();
        let src = format!(
            "struct S {{ {} }}\n\
             fn main(n: i64) -> i64 {{\n    var v: vec<S>\n    var s: S\n    var k: i64\n    var t: bool\n\
             entry:\n    v = new vec<S>\n    k = copy 0\n    br head\n\
             head:\n    t = slt k, n\n    brif t, body, done\n\
             body:\n    s = make S({})\n    push v, s\n    k = add k, 1\n    br head\n\
             done:\n    k = len v\n    ret k\n}}\n",
            names.join(", "),
            args.join(", ")
        );
        let m = poolopt_ir::parse(&src).unwrap();
        // At `speed`: at `none` the constant fields are also computed again at each store
        // (`LowerEnv::rematerialize`), which prints the stores without their type.
        let clif = emit_clif(&m, ClOpt::Speed).unwrap();
        let stores = clif
            .lines()
            .filter(|l| {
                let code = l.split(';').next().unwrap_or("").trim_end();
                code.trim_start().starts_with("store.i64 notrap v") && code.ends_with("+8")
            })
            .count();
        (stores, clif)
    };
    let (stores, clif) = second_field_stores(2);
    assert_eq!(
        stores, 2,
        "16 bytes: the fast path's and the grow path's\n{clif}"
    );
    for fields in [3, 16] {
        let (stores, clif) = second_field_stores(fields);
        assert_eq!(
            stores, 1,
            "{fields} fields: one store after the join\n{clif}"
        );
    }
}

/// Reads of fields of one element on a block's main line compute its address once
/// (`FnLower::main_line_elem_addr`): at `opt_level=none` nothing else would, and a struct read
/// field by field (what `struct-split` makes of a whole `get`) computed `index * size` for every
/// field. Near miss: an index written between the reads gets an address of its own. Results
/// agree with the interpreter either way.
#[test]
fn an_element_address_is_computed_once_per_main_line() {
    let program = |between: &str| {
        format!(
            "struct S {{ f0: i64, f1: i64, f2: i64 }}\n\
             fn main(n: i64) -> i64 {{\n    var v: vec<S>\n    var s: S\n    var k: i64\n    var i: i64\n\
             \x20   var t: bool\n    var a: i64\n    var b: i64\n    var r: i64\n\
             entry:\n    v = new vec<S>\n    s = make S(1, 2, 3)\n    push v, s\n    s = make S(4, 5, 6)\n\
             \x20   push v, s\n    k = copy 0\n    r = copy 0\n    br head\n\
             head:\n    t = slt k, n\n    brif t, body, done\n\
             body:\n    i = and k, 1\n    a = get v[i].f0\n{between}    b = get v[i].f2\n\
             \x20   r = add r, a\n    r = add r, b\n    k = add k, 1\n    br head\n\
             done:\n    ret r\n}}\n"
        )
    };
    let multiplies = |src: &str| {
        let m = poolopt_ir::parse(src).unwrap();
        let clif = emit_clif(&m, ClOpt::None).unwrap();
        let n = clif.lines().filter(|l| l.contains("= imul")).count();
        (m, n, clif)
    };
    // Each of the two pushes computes its element's address too.
    let (same, n, clif) = multiplies(&program(""));
    assert_eq!(n, 2 + 1, "one address for both fields\n{clif}");
    let (moved, n, clif) = multiplies(&program("    i = xor i, 1\n"));
    assert_eq!(n, 2 + 2, "the index changed between the reads\n{clif}");
    let limits = poolopt_ir::RunLimits::default();
    // Elements (1, 2, 3) and (4, 5, 6); k = 0..5 reads element k & 1 (and the other one's f2).
    assert_eq!(
        common::agree(&same, "main", &[5], &limits),
        Ok(4 + 10 + 4 + 10 + 4)
    );
    assert_eq!(
        common::agree(&moved, "main", &[5], &limits),
        Ok(7 + 7 + 7 + 7 + 7)
    );
}

/// At `opt_level=none`, a field computed as `f = x op c` (`add`, `sub`, `and`, `or`, `xor`) for
/// a `make` only (what an inlined constructor leaves) is computed where the field is read, not where the `make` is
/// (`FnLower::deferred_binary`): a struct stored in both arms of a branch computes each field
/// once per arm, with no unused copy before the branch. Near miss: a field local also read
/// elsewhere is computed where it is assigned, and its stores use copies of that
/// (`FnLower::rematerialized`). Results agree with the interpreter either way.
#[test]
fn a_field_computed_only_for_a_make_is_computed_at_its_reads() {
    // Five fields, one of each operation that is deferred: `add`, `sub`, `and`, `or`, `xor`
    // of the parameter and a constant.
    let program = |also_read: bool| {
        let r0 = if also_read { "x" } else { "0" };
        format!(
            "struct S {{ f0: i64, f1: i64, f2: i64, f3: i64, f4: i64 }}\n\
             fn main(n: i64) -> i64 {{\n    var v: vec<S>\n    var s: S\n    var x: i64\n    var y: i64\n\
             \x20   var z: i64\n    var p: i64\n    var q: i64\n    var t: bool\n    var r: i64\n    var k: i64\n\
             entry:\n    v = new vec<S>\n    x = add n, 1\n    y = sub n, 2\n    z = and n, 3\n\
             \x20   p = or n, 4\n    q = xor n, 5\n\
             \x20   r = copy {r0}\n    s = make S(x, y, z, p, q)\n    t = slt n, 5\n    brif t, small, big\n\
             small:\n    push v, s\n    br done\n\
             big:\n    push v, s\n    push v, s\n    br done\n\
             done:\n    k = len v\n    r = add r, k\n    k = get v[0].f1\n    r = add r, k\n    ret r\n}}\n"
        )
    };
    // The CLIF of `main` at `none`, and how many of its instructions compute from the
    // parameter `n` (`v1`) and a constant: the field computations and their copies.
    let field_ops = |src: &str| {
        let m = poolopt_ir::parse(src).unwrap();
        let clif = emit_clif(&m, ClOpt::None).unwrap();
        let n = clif
            .lines()
            .filter(|l| {
                ["iadd", "isub", "band", "bor", "bxor"].iter().any(|op| {
                    l.contains(&format!("= {op}.i64 v1, ")) || l.contains(&format!("= {op} v1, "))
                })
            })
            .count();
        (m, n, clif)
    };
    // Each field computed in each arm (`big`'s second push, in a block of its own after the
    // first one's growth test, gets copies: 5 + 2 * 5), and none before the branch; before
    // the deferral every field was also computed there, unused (20).
    let (deferred, n, clif) = field_ops(&program(false));
    assert_eq!(n, 5 + 2 * 5, "fields computed in the arms only\n{clif}");
    // `x` is read elsewhere: computed before the branch too.
    let (kept, n, clif) = field_ops(&program(true));
    assert_eq!(n, 1 + 5 + 2 * 5, "`x` read elsewhere\n{clif}");
    let limits = poolopt_ir::RunLimits::default();
    // n = 2: v = [s], r = 1 + (2 - 2); n = 9: v = [s, s], r = 2 + (9 - 2); plus `x` in the
    // near miss.
    assert_eq!(common::agree(&deferred, "main", &[2], &limits), Ok(1));
    assert_eq!(common::agree(&deferred, "main", &[9], &limits), Ok(9));
    assert_eq!(common::agree(&kept, "main", &[2], &limits), Ok(3 + 1));
    assert_eq!(common::agree(&kept, "main", &[9], &limits), Ok(10 + 9));
}

/// Near miss of the deferral: a field local assigned in two blocks and read by a `make` at
/// their join is not block-local, so each assignment is computed where it is (deferring the
/// second would hand the `make` that value on both paths).
#[test]
fn a_field_local_assigned_on_two_paths_is_not_deferred() {
    let src = "struct S { f0: i64, f1: i64 }\n\
         fn main(n: i64) -> i64 {\n    var v: vec<S>\n    var s: S\n    var x: i64\n    var t: bool\n    var r: i64\n\
         entry:\n    v = new vec<S>\n    x = add n, 1\n    t = slt n, 5\n    brif t, small, join\n\
         small:\n    x = add n, 2\n    br join\n\
         join:\n    s = make S(x, 7)\n    push v, s\n    r = get v[0].f0\n    ret r\n}\n";
    let m = poolopt_ir::parse(src).unwrap();
    let limits = poolopt_ir::RunLimits::default();
    assert_eq!(common::agree(&m, "main", &[2], &limits), Ok(4));
    assert_eq!(common::agree(&m, "main", &[9], &limits), Ok(10));
}

/// Near miss of the deferral: a struct local built by a `make` on each of two paths is not
/// assigned once, so its field variables take values where each `make` is, and a deferred
/// operand is computed there (handing it on would give the join the last `make`'s fields on
/// both paths).
#[test]
fn a_struct_built_on_two_paths_takes_its_fields_at_each_make() {
    let src = "struct S { f0: i64, f1: i64 }\n\
         fn main(n: i64) -> i64 {\n    var v: vec<S>\n    var s: S\n    var x: i64\n    var y: i64\n\
         \x20   var t: bool\n    var r: i64\n\
         entry:\n    v = new vec<S>\n    x = add n, 1\n    s = make S(x, 1)\n    t = slt n, 5\n    brif t, small, join\n\
         small:\n    y = add n, 2\n    s = make S(y, 2)\n    br join\n\
         join:\n    push v, s\n    r = get v[0].f0\n    ret r\n}\n";
    let m = poolopt_ir::parse(src).unwrap();
    let limits = poolopt_ir::RunLimits::default();
    assert_eq!(common::agree(&m, "main", &[2], &limits), Ok(4));
    assert_eq!(common::agree(&m, "main", &[9], &limits), Ok(10));
}
