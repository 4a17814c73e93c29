//! The call protocol: the call-depth rule (only the entry frame and frames of functions on a
//! cycle of the call graph count), the trap status returned in a register, and small structs
//! passed and returned in registers. Every result is compared with the interpreter, the
//! oracle, at both Cranelift levels.

mod common;

use common::agree;
use poolopt_ir::{parse, Module, RunLimits, TrapKind};
use poolopt_jit::{emit_clif, ClOpt};

fn module(src: &str) -> Module {
    let m = parse(src).unwrap_or_else(|e| panic!("parse: {e}"));
    poolopt_ir::verify(&m).unwrap_or_else(|e| panic!("verify: {e:?}"));
    m
}

/// `a` and `b` recurse mutually, each through the non-recursive `leaf` chain; `main` and
/// `leaf*` are off every cycle.
const MUTUAL: &str = "
fn leaf2(x: i64) -> i64 {
entry:
    ret x
}
fn leaf1(x: i64) -> i64 {
    var r: i64
entry:
    r = call leaf2(x)
    ret r
}
fn a(n: i64) -> i64 {
    var r: i64
    var m: i64
    var c: bool
entry:
    c = sle n, 0
    brif c, done, more
done:
    r = call leaf1(n)
    ret r
more:
    m = sub n, 1
    r = call b(m)
    r = add r, 1
    ret r
}
fn b(n: i64) -> i64 {
    var r: i64
    var m: i64
entry:
    m = call leaf1(n)
    r = call a(m)
    ret r
}
fn main(n: i64) -> i64 {
    var r: i64
entry:
    r = call leaf1(n)
    r = call a(r)
    ret r
}
";

#[test]
fn depth_counts_the_entry_and_recursive_frames_only() {
    let m = module(MUTUAL);
    let depth = |d| RunLimits {
        max_depth: d,
        ..RunLimits::default()
    };
    // main(n) reaches 1 (main) + (n + 1) frames of a + n frames of b; leaf1 and leaf2 are
    // never counted. So n = 4 needs depth 10.
    assert_eq!(agree(&m, "main", &[4], &depth(10)), Ok(4));
    assert_eq!(
        agree(&m, "main", &[4], &depth(9)),
        Err((TrapKind::StackOverflow, "a".to_string()))
    );
    assert_eq!(
        agree(&m, "main", &[5], &depth(10)),
        Err((TrapKind::StackOverflow, "b".to_string()))
    );
    // A non-recursive entry is depth 1; the chain below it does not count.
    assert_eq!(agree(&m, "leaf1", &[7], &depth(1)), Ok(7));
    assert_eq!(
        agree(&m, "leaf1", &[7], &depth(0)),
        Err((TrapKind::StackOverflow, "leaf1".to_string()))
    );
    // A recursive entry counts itself: a(1) is a, b, a.
    assert_eq!(agree(&m, "a", &[0], &depth(1)), Ok(0));
    assert_eq!(
        agree(&m, "a", &[1], &depth(2)),
        Err((TrapKind::StackOverflow, "a".to_string()))
    );
    assert_eq!(agree(&m, "a", &[1], &depth(3)), Ok(1));
}

/// A recursive frame gives its depth back when it returns: calling `a(1)` (three counted
/// frames) a hundred times in a row stays within a depth of 4, in the JIT as in the
/// interpreter (a return that counted up instead of down would trap on the second round).
#[test]
fn returns_give_their_depth_back() {
    let src = format!(
        "{MUTUAL}
fn rounds(n: i64) -> i64 {{
    var i: i64
    var s: i64
    var r: i64
    var c: bool
entry:
    i = copy 0
    s = copy 0
    br head
head:
    c = slt i, n
    brif c, body, done
body:
    r = call a(1)
    s = add s, r
    i = add i, 1
    br head
done:
    ret s
}}
"
    );
    let m = module(&src);
    let depth = |d| RunLimits {
        max_depth: d,
        ..RunLimits::default()
    };
    assert_eq!(agree(&m, "rounds", &[100], &depth(4)), Ok(100));
    assert_eq!(
        agree(&m, "rounds", &[100], &depth(3)),
        Err((TrapKind::StackOverflow, "a".to_string()))
    );
}

#[test]
fn deep_mutual_recursion_ends_in_a_clean_trap() {
    let m = module(MUTUAL);
    let deep = RunLimits {
        max_depth: 100_000,
        ..RunLimits::default()
    };
    assert_eq!(agree(&m, "main", &[49_998], &deep), Ok(49_998));
    assert_eq!(
        agree(&m, "main", &[i64::MAX], &deep).map_err(|(k, _)| k),
        Err(TrapKind::StackOverflow)
    );
}

/// `pick` cannot trap; `get` can (a checked element read). The caller must stop at the
/// trapped callee and never use its result: here the result is a loop bound and a vec handle.
const STATUS: &str = "
struct P { x: i32, y: i32 }
struct Big { a: i64, b: i64, c: i64 }
fn pick(c: bool, x: i64, y: i64) -> i64 {
    var r: i64
entry:
    r = copy x
    brif c, done, other
other:
    r = copy y
    br done
done:
    ret r
}
fn get(v: vec<i64>, i: i64) -> i64 {
    var r: i64
entry:
    r = get v[i]
    ret r
}
fn fresh(n: i64) -> vec<i64> {
    var v: vec<i64>
    var z: i64
entry:
    v = new vec<i64>
    push v, n
    z = get v[n]
    ret v
}
fn swap(p: P) -> P {
    var q: P
    var x: i32
    var y: i32
entry:
    x = getfield p.x
    y = getfield p.y
    q = make P(y, x)
    ret q
}
fn spread(b: Big, k: i64) -> Big {
    var r: Big
    var t: i64
entry:
    t = getfield b.c
    t = add t, k
    r = make Big(t, k, k)
    ret r
}
fn main(n: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var bound: i64
    var i: i64
    var s: i64
    var c: bool
    var p: P
    var q: P
    var big: Big
    var x: i32
    var t: i64
entry:
    v = new vec<i64>
    push v, 10
    push v, 20
    c = slt n, 5
    bound = call pick(c, 0, n)
    bound = call get(v, bound)
    w = call fresh(bound)
    s = copy 0
    i = copy 0
    br head
head:
    c = slt i, bound
    brif c, body, exit
body:
    s = add s, i
    i = add i, 1
    br head
exit:
    x = trunc n
    p = make P(x, 3)
    q = call swap(p)
    x = getfield q.x
    t = sext x
    s = add s, t
    big = make Big(1, 2, n)
    big = call spread(big, 5)
    t = getfield big.a
    s = add s, t
    t = len w
    s = add s, t
    ret s
}
";

#[test]
fn a_trapped_callee_result_is_never_used() {
    let m = module(STATUS);
    let l = RunLimits::default();
    // n < 5: bound = v[0] = 10, fresh(10) traps (index 10 of a length-1 vec) before `w` or
    // the loop bound is used.
    assert_eq!(
        agree(&m, "main", &[3], &l),
        Err((TrapKind::IndexOob, "fresh".to_string()))
    );
    // n >= 5: get(v, n) traps in `get`.
    assert_eq!(
        agree(&m, "main", &[7], &l),
        Err((TrapKind::IndexOob, "get".to_string()))
    );
    assert_eq!(
        agree(&m, "main", &[1], &l),
        Err((TrapKind::IndexOob, "fresh".to_string()))
    );
}

#[test]
fn small_structs_travel_in_registers_larger_ones_by_pointer() {
    let m = module(STATUS);
    let clif = emit_clif(&m, ClOpt::None).unwrap();
    let sig_of = |name: &str| {
        let at = clif.find(&format!("; function {name}\n")).unwrap();
        clif[at..]
            .lines()
            .find(|l| l.starts_with("function "))
            .unwrap()
            .to_string()
    };
    // swap(P) -> P: ctx, the struct as one i64; result i64 and the status.
    assert!(
        sig_of("swap").contains("(i64, i64) -> i64, i8"),
        "{}",
        sig_of("swap")
    );
    // spread(Big, i64) -> Big: ctx, return area, pointer, k; only the status comes back.
    assert!(
        sig_of("spread").contains("(i64, i64, i64, i64) -> i8"),
        "{}",
        sig_of("spread")
    );
    // Every function returns the status, also one that cannot trap (its callers skip the test).
    assert!(sig_of("pick").contains("-> i64, i8"), "{}", sig_of("pick"));
}

#[test]
fn structs_across_calls_agree_with_the_interpreter() {
    // A variant of STATUS whose accesses are in bounds: drop the traps by giving `fresh`
    // index 0 and `main` a short path.
    let src = STATUS
        .replace("z = get v[n]", "z = get v[0]")
        .replace("bound = call get(v, bound)", "bound = call get(v, 1)");
    let m = module(&src);
    for n in [-3, 0, 3, 7, 100] {
        let r = agree(&m, "main", &[n], &RunLimits::default());
        assert!(r.is_ok(), "main({n}): {r:?}");
    }
    // The same through packed (scalarized) struct locals.
    let packed = common::packed(&m);
    for n in [-3, 0, 3, 7, 100] {
        assert_eq!(
            agree(&packed, "main", &[n], &RunLimits::default()),
            agree(&m, "main", &[n], &RunLimits::default())
        );
    }
}

#[test]
fn many_trap_sites_share_trap_blocks_and_keep_their_operands() {
    // 100 checked reads (more than one shared trap block's worth of sites), the k-th at index
    // `n - k`: the first one out of bounds reports its own index and the length.
    let mut src = String::from(
        "fn main(n: i64) -> i64 {\n    var v: vec<i64>\n    var i: i64\n    var t: i64\n    var s: i64\nentry:\n    v = new vec<i64>\n",
    );
    for k in 0..10 {
        src.push_str(&format!("    push v, {k}\n"));
    }
    src.push_str("    s = copy 0\n");
    for k in 0..100 {
        src.push_str(&format!(
            "    i = sub n, {k}\n    t = get v[i]\n    s = add s, t\n"
        ));
    }
    src.push_str("    ret s\n}\n");
    let m = module(&src);
    let l = RunLimits::default();
    for n in [5, 9, 10, 40, 75, 99, 120] {
        let r = agree(&m, "main", &[n], &l);
        assert_eq!(
            r,
            Err((TrapKind::IndexOob, "main".to_string())),
            "main({n})"
        );
    }
}
