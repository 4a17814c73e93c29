//! Loops whose vec headers cannot change while they run get each vec's length and data pointer
//! loaded once, in the preheader (`poolopt_jit::lower::header_invariant_loops`). Which loops
//! qualify (no push, pop, new, drop, call or vec assignment in the body; one way in), and that
//! results and traps (a checked access past the end inside such a loop, with its index and
//! length) are those of the interpreter at every level and Cranelift level.

mod common;

use common::{load_str, run_everywhere, Outcome};
use poolopt::ir::cfg::Cfg;
use poolopt::ir::parse;
use poolopt::jit::lower::{header_invariant_loops, HoistLoop};
use poolopt::RunLimits;
use poolopt_test_support::trap_everywhere;

/// The hoistable loops of function `name` of the module in `src`.
fn loops_of(src: &str, name: &str) -> Vec<HoistLoop> {
    let module = parse(src).expect("parses");
    let f = module.func_by_name(name).expect("function");
    let func = &module.funcs[f];
    header_invariant_loops(func, &Cfg::compute(func))
}

const SRC: &str = "
fn fill(n: i64) -> vec<i64> {
    var v: vec<i64>
    var k: i64
    var t: bool
    var x: i64
entry:
    v = new vec<i64>
    k = copy 0
    br head
head:
    t = slt k, n
    brif t, body, done
body:
    x = mul k, 3
    push v, x
    k = add k, 1
    br head
done:
    ret v
}

fn sum(n: i64, extra: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var k: i64
    var h: i64
    var t: bool
    var x: i64
    var m: i64
entry:
    v = call fill(n)
    w = call fill(3)
    k = copy 0
    h = copy 0
    m = add n, extra
    br head
head:
    t = slt k, m
    brif t, body, done
body:
    x = get v[k]
    h = mul h, 31
    h = add h, x
    x = len w
    h = add h, x
    set v[k], h
    k = add k, 1
    br head
done:
    x = get v[0]
    h = add h, x
    ret h
}

fn grows(n: i64) -> i64 {
    var v: vec<i64>
    var k: i64
    var t: bool
    var x: i64
entry:
    v = new vec<i64>
    k = copy 0
    br head
head:
    t = slt k, n
    brif t, body, done
body:
    push v, k
    x = len v
    k = add k, 1
    br head
done:
    x = len v
    ret x
}

fn swaps(n: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var u: vec<i64>
    var k: i64
    var h: i64
    var t: bool
    var x: i64
entry:
    v = call fill(n)
    w = call fill(1)
    k = copy 0
    h = copy 0
    br head
head:
    t = slt k, n
    brif t, body, done
body:
    x = len v
    h = add h, x
    u = copy v
    v = copy w
    w = copy u
    k = add k, 1
    br head
done:
    ret h
}
";

/// What `sum(n, 0)` computes, in Rust.
fn reference(n: i64) -> i64 {
    let mut v: Vec<i64> = (0..n).map(|k| k * 3).collect();
    let mut h: i64 = 0;
    for x in v.iter_mut() {
        h = h.wrapping_mul(31).wrapping_add(*x).wrapping_add(3);
        *x = h;
    }
    h.wrapping_add(v[0])
}

#[test]
fn only_loops_without_header_changes_qualify() {
    let loops = |name: &str| loops_of(SRC, name);
    let sum = loops("sum");
    assert_eq!(sum.len(), 1, "{sum:?}");
    let mut vecs: Vec<(bool, bool)> = sum[0].vecs.iter().map(|&(_, l, p)| (l, p)).collect();
    vecs.sort();
    // w: its length only; v: length (checked get and set) and data pointer.
    assert_eq!(vecs, vec![(true, false), (true, true)]);
    assert_eq!(sum[0].body.len(), 2, "head and body");
    assert!(loops("fill").is_empty(), "fill pushes in its loop");
    assert!(loops("grows").is_empty(), "grows pushes in its loop");
    assert!(
        loops("swaps").is_empty(),
        "swaps assigns vec locals in its loop"
    );
}

#[test]
fn results_and_traps_agree_everywhere() {
    let module = load_str("loop_headers", SRC);
    let limits = RunLimits::default();
    for n in [1, 2, 5, 100] {
        let got = run_everywhere(&module, "sum", &[n, 0], &limits);
        assert_eq!(got, Outcome::Value(reference(n)), "sum({n}, 0)");
    }
    assert_eq!(
        run_everywhere(&module, "grows", &[37], &limits),
        Outcome::Value(37)
    );
    assert_eq!(
        run_everywhere(&module, "swaps", &[4], &limits),
        Outcome::Value(4 + 1 + 4 + 1)
    );
    // The loop runs past the end of v: the checked get traps at k = n with length n.
    let trap = trap_everywhere(&module, "sum", &[6, 2], &limits);
    assert!(
        trap.message == "index 6 out of bounds for length 6",
        "{trap:?}"
    );
}

/// The preheader is laid out before the block that creates the vec the loop reads (`make`
/// dominates `pre`, but comes after it in the layout). The vec local has one assignment that
/// dominates every read, so the lowering gives it that value directly (`fixed_locals`); the
/// header load the lowering adds at the end of `pre` is lowered before that assignment and
/// must still see the vec.
const LATE_VEC: &str = "
fn main(n: i64) -> i64 {
    var v: vec<i64>
    var i: i64
    var s: i64
    var x: i64
    var c: bool
entry:
    br make
pre:
    i = copy 0
    br head
make:
    v = new vec<i64>
    push v, 10
    push v, 20
    push v, n
    br pre
head:
    c = slt i, 3
    brif c, body, done
body:
    x = get v[i]
    s = add s, x
    i = add i, 1
    br head
done:
    ret s
}
";

#[test]
fn a_preheader_laid_out_before_the_vec_is_created_still_reads_it() {
    assert_eq!(
        loops_of(LATE_VEC, "main").len(),
        1,
        "the loop's headers are loaded in `pre`"
    );
    let module = load_str("late_vec", LATE_VEC);
    let got = run_everywhere(&module, "main", &[5], &RunLimits::default());
    assert_eq!(got, Outcome::Value(35));
}

/// Near misses of the loop shape: a loop back to the entry block from two latches (the first
/// ends in `br entry`, but the entry is entered from the function's start too, so no block is
/// a preheader), and a loop with a second way in that skips the preheader (`entry` branches
/// straight to the latch). Neither qualifies; both run like the interpreter everywhere.
const NOT_PREHEADED: &str = "
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var s: i64
    var t: i64
entry:
    v = new vec<i64>
    push v, 7
    push v, 9
    s = call two_latches(v, k)
    t = call second_way_in(v, k)
    s = mul s, 1000
    s = add s, t
    ret s
}

fn two_latches(v: vec<i64>, k: i64) -> i64 {
    var n: i64
    var x: i64
    var c: bool
entry:
    n = len v
    x = get v[1]
    n = add n, x
    k = sub k, 1
    c = sgt k, 5
    brif c, again, other
again:
    br entry
other:
    x = get v[0]
    n = add n, x
    c = sgt k, 0
    brif c, entry, done
done:
    ret n
}

fn second_way_in(v: vec<i64>, k: i64) -> i64 {
    var s: i64
    var x: i64
    var c: bool
entry:
    c = sgt k, 100
    brif c, latch, pre
pre:
    br head
head:
    c = slt k, 3
    brif c, latch, done
latch:
    x = get v[0]
    s = add s, x
    k = add k, 1
    br head
done:
    ret s
}
";

#[test]
fn loops_without_a_preheader_or_with_a_second_way_in_do_not_qualify() {
    for name in ["two_latches", "second_way_in"] {
        let loops = loops_of(NOT_PREHEADED, name);
        assert!(loops.is_empty(), "{name}: {loops:?}");
    }
    let module = load_str("not_preheaded", NOT_PREHEADED);
    let limits = RunLimits::default();
    // two_latches(8): entry runs for k = 7, 6, 5, ..., 1 and adds len + v[1] (+ v[0] when k <= 5).
    let two = |k0: i64| {
        let mut k = k0;
        loop {
            let mut n = 2 + 9;
            k -= 1;
            if k > 5 {
                continue;
            }
            n += 7;
            if k <= 0 {
                return n;
            }
        }
    };
    let second = |k0: i64| if k0 > 100 { 7 } else { 7 * (3 - k0).max(0) };
    for k in [0, 1, 6, 8, 101] {
        let got = run_everywhere(&module, "main", &[k], &limits);
        assert_eq!(got, Outcome::Value(two(k) * 1000 + second(k)), "main({k})");
    }
}

/// A vec's length and data pointer are both loaded in the preheader whichever access asks
/// first: `len` then a checked `get`, and an unchecked `get` (no length) then `len`.
const BOTH_HEADERS: &str = "
fn len_first(v: vec<i64>, n: i64) -> i64 {
    var i: i64
    var s: i64
    var x: i64
    var c: bool
entry:
    br head
head:
    c = slt i, n
    brif c, body, done
body:
    x = len v
    s = add s, x
    x = get v[i]
    s = add s, x
    i = add i, 1
    br head
done:
    ret s
}

fn pointer_first(v: vec<i64>, n: i64) -> i64 {
    var i: i64
    var s: i64
    var x: i64
    var c: bool
entry:
    br head
head:
    c = slt i, n
    brif c, body, done
body:
    x = get.unchecked v[0]
    s = add s, x
    x = len v
    s = add s, x
    i = add i, 1
    br head
done:
    ret s
}
";

#[test]
fn both_headers_are_hoisted_whichever_access_comes_first() {
    for name in ["len_first", "pointer_first"] {
        let loops = loops_of(BOTH_HEADERS, name);
        assert_eq!(loops.len(), 1, "{name}: {loops:?}");
        let vecs: Vec<(bool, bool)> = loops[0].vecs.iter().map(|&(_, l, p)| (l, p)).collect();
        assert_eq!(vecs, vec![(true, true)], "{name}: length and data pointer");
    }
}
