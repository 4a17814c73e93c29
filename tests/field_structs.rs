//! Struct locals the lowering holds field by field (`poolopt_jit::lower::field_struct_locals`):
//! a padded `P { a: i8, b: i64, c: i32, d: bool }` built in two branches, updated with
//! `setfield`, pushed (through growth) and stored into elements, read back field by field;
//! a field of a never-assigned local reads 0. The interpreter and the JIT at every level and
//! Cranelift level agree with a Rust reference; the eligible local has no stack slot in the
//! CLIF, and a local that is also copied keeps its slot.

mod common;

use common::{load_str, run_everywhere, Outcome};
use poolopt::ir::parse;
use poolopt::jit::lower::field_struct_locals;
use poolopt::jit::{emit_clif, ClOpt};
use poolopt::RunLimits;

const SRC: &str = "
struct P { a: i8, b: i64, c: i32, d: bool }

fn fields(n: i64) -> i64 {
    var v: vec<P>
    var s: P
    var z: P
    var k: i64
    var h: i64
    var t: bool
    var odd: i64
    var x8: i8
    var x32: i32
    var y: i64
    var w: i64
    var q: bool
entry:
    v = new vec<P>
    k = copy 0
    h = copy 0
    br head
head:
    t = slt k, n
    brif t, body, after
body:
    odd = and k, 1
    t = ne odd, 0
    x8 = trunc k
    x32 = trunc k
    brif t, make_odd, make_even
make_odd:
    y = mul k, -3
    s = make P(x8, y, x32, true)
    br made
make_even:
    y = add k, 1000
    s = make P(x8, y, 7, false)
    br made
made:
    w = getfield s.b
    w = add w, 1
    setfield s.b, w
    push v, s
    k = add k, 1
    br head
after:
    y = sub n, 1
    x8 = trunc n
    s = make P(x8, -1, -2, true)
    set v[y], s
    k = copy 0
    br sum_head
sum_head:
    t = slt k, n
    brif t, sum_body, done
sum_body:
    x8 = get v[k].a
    y = sext x8
    h = mul h, 31
    h = add h, y
    y = get v[k].b
    h = mul h, 31
    h = add h, y
    x32 = get v[k].c
    y = sext x32
    h = mul h, 31
    h = add h, y
    q = get v[k].d
    y = zext q
    h = mul h, 31
    h = add h, y
    k = add k, 1
    br sum_head
done:
    y = getfield z.b
    h = add h, y
    ret h
}

fn copied(n: i64) -> i64 {
    var s: P
    var u: P
    var y: i64
entry:
    s = make P(1, n, 3, false)
    u = copy s
    y = getfield u.b
    ret y
}
";

/// What `fields(n)` computes, in Rust.
fn reference(n: i64) -> i64 {
    let mut v: Vec<(i8, i64, i32, bool)> = (0..n)
        .map(|k| {
            let (b, c, d) = if k & 1 != 0 {
                (k.wrapping_mul(-3), k as i32, true)
            } else {
                (k + 1000, 7, false)
            };
            (k as i8, b + 1, c, d)
        })
        .collect();
    if n > 0 {
        v[(n - 1) as usize] = (n as i8, -1, -2, true);
    }
    v.iter().fold(0i64, |h, &(a, b, c, d)| {
        let h = h.wrapping_mul(31).wrapping_add(i64::from(a));
        let h = h.wrapping_mul(31).wrapping_add(b);
        let h = h.wrapping_mul(31).wrapping_add(i64::from(c));
        h.wrapping_mul(31).wrapping_add(i64::from(d))
    })
}

#[test]
fn field_wise_struct_locals_agree_everywhere() {
    let module = load_str("field_structs", SRC);
    for n in [1, 2, 3, 9, 40, 300] {
        let got = run_everywhere(&module, "fields", &[n], &RunLimits::default());
        assert_eq!(got, Outcome::Value(reference(n)), "fields({n})");
    }
    let got = run_everywhere(&module, "copied", &[42], &RunLimits::default());
    assert_eq!(got, Outcome::Value(42));
}

#[test]
fn only_the_eligible_local_loses_its_slot() {
    let module = parse(SRC).expect("parses");
    let fields = module.func_by_name("fields").expect("fields");
    let copied = module.func_by_name("copied").expect("copied");
    let name_of = |f: poolopt::ir::FuncId, local: &str| {
        let func = module.funcs.get(f).expect("function");
        let (l, _) = func
            .locals
            .iter()
            .find(|(_, d)| d.name == local)
            .expect("local");
        field_struct_locals(func, &module)[l]
    };
    assert!(name_of(fields, "s"), "s is only made, updated and stored");
    assert!(name_of(fields, "z"), "z is only read field by field");
    assert!(!name_of(copied, "s"), "s is copied");
    assert!(!name_of(copied, "u"), "u is a copy's destination");

    let clif = emit_clif(&module, ClOpt::Speed).expect("lowers");
    let section = |name: &str| {
        let start = clif.find(&format!("; function {name}\n")).expect("section");
        let rest = &clif[start + 1..];
        let end = rest.find("; function ").map_or(rest.len(), |e| e + 1);
        rest[..end].to_string()
    };
    assert!(
        !section("fields").contains("explicit_slot"),
        "fields keeps a stack slot:\n{}",
        section("fields")
    );
    assert!(
        section("copied").contains("explicit_slot"),
        "copied lost its slots"
    );
}

/// Near miss of the field-wise shape: a struct with more fields than the lowering holds in
/// variables (17), only made and read field by field, keeps its stack slot (a struct with
/// only scalar fields is the one other condition, and the verifier refuses any other field).
const NEAR_MISSES: &str = "
struct W { f0: i64, f1: i64, f2: i64, f3: i64, f4: i64, f5: i64, f6: i64, f7: i64, f8: i64, f9: i64, f10: i64, f11: i64, f12: i64, f13: i64, f14: i64, f15: i64, f16: i64 }

fn main(n: i64) -> i64 {
    var w: W
    var x: i64
    var y: i64
entry:
    w = make W(n, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
    x = getfield w.f16
    y = getfield w.f0
    x = add x, y
    ret x
}
";

#[test]
fn a_struct_of_too_many_fields_keeps_its_slot() {
    let module = parse(NEAR_MISSES).expect("parses");
    let main = module.func_by_name("main").expect("main");
    let func = module.funcs.get(main).expect("function");
    let by_fields = field_struct_locals(func, &module);
    let (w, _) = func
        .locals
        .iter()
        .find(|(_, d)| d.name == "w")
        .expect("local");
    assert!(!by_fields[w], "w is held field by field");
    let module = load_str("field_near_misses", NEAR_MISSES);
    let got = run_everywhere(&module, "main", &[30], &RunLimits::default());
    assert_eq!(got, Outcome::Value(16 + 30));
}

/// Fields computed in one block and stored whole in others, as an owner that inlines a
/// constructor and an allocator has them: each field is a cheap computation of `k` (an
/// `add`, `sub`, `and`, `or` or `xor` with a constant, or a constant) and two fields are not
/// (`mul`, a parameter); the struct is `set` into an element in one arm and pushed (through
/// growth) in the other.
const REMAT_SRC: &str = "
struct R { a: i64, b: i64, c: i64, d: i64, e: i64, f: i64, g: i64, h: i64 }

fn fill(n: i64, m: i64) -> i64 {
    var v: vec<R>
    var s: R
    var k: i64
    var a: i64
    var b: i64
    var c: i64
    var d: i64
    var e: i64
    var g: i64
    var t: bool
    var h: i64
    var i: i64
entry:
    v = new vec<R>
    k = copy 0
    br head
head:
    t = slt k, n
    brif t, body, sum
body:
    a = add k, 7
    b = sub k, 3
    c = and k, 5
    d = or k, 8
    e = xor k, 12
    g = mul k, k
    h = and k, 3
    t = eq h, 3
    brif t, overwrite, append
overwrite:
    s = make R(a, b, c, d, e, 42, g, m)
    i = sdiv k, 2
    set v[i], s
    br next
append:
    s = make R(a, b, c, d, e, 42, g, m)
    push v, s
    br next
next:
    k = add k, 1
    br head
sum:
    h = copy 0
    k = copy 0
    n = len v
    br sum_head
sum_head:
    t = slt k, n
    brif t, sum_body, done
sum_body:
    i = get v[k].a
    h = mul h, 31
    h = add h, i
    i = get v[k].b
    h = mul h, 31
    h = add h, i
    i = get v[k].c
    h = mul h, 31
    h = add h, i
    i = get v[k].d
    h = mul h, 31
    h = add h, i
    i = get v[k].e
    h = mul h, 31
    h = add h, i
    i = get v[k].f
    h = mul h, 31
    h = add h, i
    i = get v[k].g
    h = mul h, 31
    h = add h, i
    i = get v[k].h
    h = mul h, 31
    h = add h, i
    k = add k, 1
    br sum_head
done:
    ret h
}
";

/// What `fill(n, m)` returns, in Rust: every fourth round (`k & 3 == 3`) overwrites element
/// `k / 2` (already pushed: by then more than `k / 2` rounds pushed) instead of pushing.
fn remat_reference(n: i64, m: i64) -> i64 {
    let mut v: Vec<[i64; 8]> = Vec::new();
    for k in 0..n {
        let r = [k + 7, k - 3, k & 5, k | 8, k ^ 12, 42, k.wrapping_mul(k), m];
        if k & 3 == 3 {
            v[(k / 2) as usize] = r;
        } else {
            v.push(r);
        }
    }
    v.iter()
        .flatten()
        .fold(0i64, |h, x| h.wrapping_mul(31).wrapping_add(*x))
}

/// At `--cl-opt none` the lowering computes a field again at the element store when another
/// block computed it with one cheap instruction (`LowerEnv::rematerialize`, Cranelift's own
/// remat rule at `speed`): results and traps agree everywhere, and the CLIF at `none` has
/// the copies (more `iadd`, `isub`, `band`, `bor`, `bxor` and `iconst` than at `speed`), the
/// `imul` and the parameter only once.
#[test]
fn cheap_fields_are_computed_again_at_their_store_only_at_cl_opt_none() {
    let module = load_str("field_remat", REMAT_SRC);
    for n in [0, 1, 3, 4, 9, 40] {
        let got = run_everywhere(&module, "fill", &[n, -5], &RunLimits::default());
        assert_eq!(got, Outcome::Value(remat_reference(n, -5)), "fill({n})");
    }
    let parsed = parse(REMAT_SRC).expect("parses");
    let count = |clif: &str, what: &str| {
        clif.lines()
            .filter(|l| l.split(';').next().unwrap_or("").contains(what))
            .count()
    };
    let none = emit_clif(&parsed, ClOpt::None).expect("lowers");
    let speed = emit_clif(&parsed, ClOpt::Speed).expect("lowers");
    for op in [
        " = iadd",
        " = isub",
        " = band",
        " = bor",
        " = bxor",
        " = iconst",
    ] {
        assert!(
            count(&none, op) > count(&speed, op),
            "`{op}` not computed again at `none`:\n{none}"
        );
    }
    assert_eq!(count(&none, " = imul"), count(&speed, " = imul"), "{none}");
    assert_eq!(count(&none, "store"), count(&speed, "store"), "{none}");
}

/// Field-wise locals assigned once: `s` by one `make` before a branch whose arms store it (its
/// field variables take the `make`'s values directly, `fixed_locals.rs`), and `u` only by a
/// field write (its other field keeps its initial zero, so it is not fixed).
const ONCE: &str = "
struct P { a: i64, b: i64 }

fn once(n: i64) -> i64 {
    var v: vec<P>
    var s: P
    var u: P
    var c: bool
    var r: i64
    var x: i64
entry:
    v = new vec<P>
    s = make P(n, 7)
    setfield u.a, n
    c = slt n, 5
    brif c, small, big
small:
    push v, u
    push v, s
    br done
big:
    push v, u
    push v, u
    set v[0], s
    br done
done:
    r = len v
    x = get v[0].b
    r = mul r, x
    x = get v[1].a
    r = add r, x
    x = get v[1].b
    r = add r, x
    ret r
}
";

#[test]
fn field_wise_locals_assigned_once_agree_everywhere() {
    let module = load_str("once", ONCE);
    // small (n < 5): v = [u, s], r = 2 * 0 + n + 7; big: v = [s, u], r = 2 * 7 + n + 0.
    for (n, want) in [(2, 9), (9, 23)] {
        let got = run_everywhere(&module, "once", &[n], &RunLimits::default());
        assert_eq!(got, Outcome::Value(want), "once({n})");
    }
}
