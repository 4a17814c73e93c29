//! Tests of the check passes (bounds-check-elim, range-check-fold) and the fact analysis:
//! printed IR, remarks and stats, with the reference interpreter checking that results and
//! traps are unchanged. Each positive case has near-misses beside it where the check must stay.

mod common;

use common::{func, module, opt, remarks, run_both_ways, Runs};
use poolopt_ir::{Module, RunLimits};
use poolopt_passes::{PassManager, PassReport, RemarkKind};

fn bce(src: &str, runs: Runs<'_>) -> (Module, PassReport) {
    opt(src, &["bounds-check-elim"], runs)
}

#[track_caller]
fn assert_remark(r: &PassReport, kind: RemarkKind, needle: &str) {
    let all = remarks(r, kind);
    assert!(
        all.iter().any(|m| m.contains(needle)),
        "no {kind:?} remark containing {needle:?}; got {all:#?}"
    );
}

fn stat(r: &PassReport, pass: &str, counter: &str) -> u64 {
    r.stats.get(pass, counter)
}

fn is_trap(m: &Module, entry: &str, args: &[i64]) -> bool {
    poolopt_interp::run(m, entry, args, &RunLimits::default()).is_err()
}

// ---------------------------------------------------------------------------------------------
// bounds-check-elim

/// The pool's `alloc` with the shared driver [`common::ALLOC_MAIN`].
fn alloc() -> String {
    format!("{ALLOC_FN}{}", common::ALLOC_MAIN)
}

const ALLOC_FN: &str = r#"
struct S8 { a: i32, b: i32 }
fn alloc(items: vec<S8>, free: vec<i64>, v: S8) -> i64 {
    var n: i64
    var c: bool
    var i: i64
    var t0: i64
entry:
    n = len free
    c = sgt n, 0
    brif c, reuse, append
reuse:
    t0 = pop free
    i = copy t0
    c = slt i, 0
    brif c, bad, check_hi
check_hi:
    n = len items
    c = sge i, n
    brif c, bad, store
store:
    set items[i], v
    ret i
bad:
    trap "index out of range"
append:
    i = len items
    push items, v
    ret i
}
"#;

const ALLOC_RUNS: Runs<'static> = &[
    ("main", &[0]),
    ("main", &[1]),
    ("main", &[5]),
    ("main", &[-1]),
];

#[test]
fn guarded_pop_and_guarded_store() {
    let (m, r) = bce(&alloc(), ALLOC_RUNS);
    let f = func(&m, "alloc");
    assert!(f.contains("    t0 = pop.unchecked free\n"), "{f}");
    assert!(f.contains("    set.unchecked items[i], v\n"), "{f}");
    assert_remark(
        &r,
        RemarkKind::Applied,
        "pop check removed: len(free) > 0 holds on every path here (len(free) > 0 from `brif c, reuse, append` in `entry`",
    );
    assert_remark(
        &r,
        RemarkKind::Applied,
        "index check removed: 0 <= i < len(items) holds on every path here (i >= 0 from `brif c, bad, check_hi` in `reuse` (line 16); i < len(items) from `brif c, bad, store` in `check_hi` (line 20))",
    );
    // main: `get items[r].b` after a call: nothing known.
    let main = func(&m, "main");
    assert!(main.contains("    x = get items[r].b\n"), "{main}");
    assert_remark(
        &r,
        RemarkKind::Missed,
        "index check kept: `r` is the result of a call to `alloc`; nothing bounds it",
    );
    assert_eq!(stat(&r, "bounds-check-elim", "checks_removed"), 2);
    assert_eq!(stat(&r, "bounds-check-elim", "checks_kept"), 1);
}

#[test]
fn popped_index_is_unbounded() {
    let src = r#"
fn f(items: vec<i64>, free: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var i: i64
    var t0: i64
    var x: i64
entry:
    n = len free
    c = sgt n, 0
    brif c, reuse, none
reuse:
    t0 = pop free
    i = copy t0
    x = get items[i]
    set items[i], 7
    ret x
none:
    ret -1
}
fn main(k: i64) -> i64 {
    var items: vec<i64>
    var free: vec<i64>
    var r: i64
entry:
    items = new vec<i64>
    free = new vec<i64>
    push items, 10
    push items, 11
    push free, k
    r = call f(items, free)
    ret r
}
"#;
    let (m, r) = bce(
        src,
        &[
            ("main", &[0]),
            ("main", &[1]),
            ("main", &[2]),
            ("main", &[-1]),
        ],
    );
    let f = func(&m, "f");
    assert!(f.contains("    t0 = pop.unchecked free\n"), "{f}");
    // The first access keeps its check; its success proves the second.
    assert!(f.contains("    x = get items[i]\n"), "{f}");
    assert!(f.contains("    set.unchecked items[i], 7\n"), "{f}");
    assert_remark(
        &r,
        RemarkKind::Missed,
        "index check kept: `i` was popped from `free`; nothing bounds it",
    );
    assert_remark(
        &r,
        RemarkKind::Applied,
        "index check removed: 0 <= i < len(items) holds on every path here (i >= 0 from `x = get items[i]`",
    );
    assert!(is_trap(&m, "main", &[2]) && is_trap(&m, "main", &[-1]));
}

const LOOP: &str = r#"
fn sum(v: vec<i64>) -> i64 {
    var k: i64
    var n: i64
    var c: bool
    var x: i64
    var s: i64
entry:
    k = copy 0
    s = copy 0
    br head
head:
    n = len v
    c = slt k, n
    brif c, body, exit
body:
    x = get v[k]
    s = add s, x
    k = add k, 1
    br head
exit:
    ret s
}
fn main(m: i64) -> i64 {
    var v: vec<i64>
    var j: i64
    var c: bool
    var r: i64
entry:
    v = new vec<i64>
    j = copy 0
    br fill
fill:
    c = slt j, m
    brif c, more, done
more:
    push v, j
    j = add j, 1
    br fill
done:
    r = call sum(v)
    ret r
}
"#;

#[test]
fn counted_loop() {
    let (m, r) = bce(LOOP, &[("main", &[0]), ("main", &[1]), ("main", &[10])]);
    let f = func(&m, "sum");
    assert!(f.contains("    x = get.unchecked v[k]\n"), "{f}");
    assert_remark(
        &r,
        RemarkKind::Applied,
        "index check removed: 0 <= k < len(v) holds on every path here",
    );
    assert_eq!(stat(&r, "bounds-check-elim", "checks_removed"), 1);
}

#[test]
fn loop_with_pop_in_body_keeps_check() {
    // The body pops v after the test: the access right after the pop must keep its check.
    let src = r#"
fn f(v: vec<i64>) -> i64 {
    var k: i64
    var n: i64
    var c: bool
    var x: i64
entry:
    k = copy 0
    x = copy 0
    br head
head:
    n = len v
    c = slt k, n
    brif c, body, exit
body:
    pop v
    x = get v[k]
    k = add k, 1
    br head
exit:
    ret x
}
fn main(m: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, m
    r = call f(v)
    ret r
}
"#;
    let (m, r) = bce(src, &[("main", &[0]), ("main", &[9])]);
    let f = func(&m, "f");
    assert!(f.contains("    x = get v[k]\n"), "{f}");
    // The pop itself goes: 0 <= k < len(v) gives len(v) > 0.
    assert!(f.contains("    pop.unchecked v\n"), "{f}");
    assert_remark(&r, RemarkKind::Missed, "index check kept: needs `k < len(v)`; known: `k >= 0`, `k <= len(v)`; it held, but `pop v` (line 16) may change the length");
    assert!(is_trap(&m, "main", &[0]));
}

#[test]
fn guard_on_another_vec_of_the_same_type_stays() {
    let src = r#"
fn f(a: vec<i64>, b: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len a
    c = sgt n, 0
    brif c, have, none
have:
    x = pop b
    ret x
none:
    ret -1
}
fn main(k: i64) -> i64 {
    var a: vec<i64>
    var b: vec<i64>
    var r: i64
entry:
    a = new vec<i64>
    b = new vec<i64>
    push a, k
    r = call f(a, b)
    ret r
}
"#;
    let (m, r) = bce(src, &[("main", &[3])]);
    assert!(func(&m, "f").contains("    x = pop b\n"));
    assert_remark(
        &r,
        RemarkKind::Missed,
        "pop check kept: only len(a) > 0 is known, and `a` is not known to be `b`",
    );
    assert!(is_trap(&m, "main", &[3]));
}

#[test]
fn push_pop_call_between_guard_and_pop() {
    let src = r#"
fn g(w: vec<i64>) {
entry:
    pop w
    ret
}
fn f(v: vec<i64>, w: vec<i64>, which: i64) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, have, none
have:
    c = eq which, 0
    brif c, popw, next1
popw:
    pop w
    x = pop v
    ret x
next1:
    c = eq which, 1
    brif c, callg, next2
callg:
    call g(w)
    x = pop v
    ret x
next2:
    c = eq which, 2
    brif c, pushw, twice
pushw:
    push w, 5
    x = pop v
    ret x
twice:
    x = pop v
    x = pop v
    ret x
none:
    ret -1
}
fn main(which: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 42
    r = call f(v, v, which)
    ret r
}
"#;
    let runs: Runs<'_> = &[
        ("main", &[0]),
        ("main", &[1]),
        ("main", &[2]),
        ("main", &[3]),
    ];
    let (m, r) = bce(src, runs);
    let f = func(&m, "f");
    // After `push w`, lengths only grew: the pop stays unchecked-able.
    assert!(
        f.contains("pushw:\n    push w, 5\n    x = pop.unchecked v\n"),
        "{f}"
    );
    // After `pop w` (w may be v) and after a call: kept.
    assert!(f.contains("popw:\n    pop w\n    x = pop v\n"), "{f}");
    assert!(f.contains("callg:\n    call g(w)\n    x = pop v\n"), "{f}");
    // Pop after a pop of the same vec: the first goes, the second stays.
    assert!(
        f.contains("twice:\n    x = pop.unchecked v\n    x = pop v\n"),
        "{f}"
    );
    assert_remark(
        &r,
        RemarkKind::Missed,
        "pop check kept: nothing proves len(v) > 0 here; it held, but `pop w` (line",
    );
    assert_remark(
        &r,
        RemarkKind::Missed,
        "pop check kept: nothing proves len(v) > 0 here; it held, but `call g(w)`",
    );
    assert_remark(
        &r,
        RemarkKind::Missed,
        "pop check kept: nothing proves len(v) > 0 here; it held, but `x = pop v` (line",
    );
    // The checks that stayed do trap at run time (w is v).
    assert!(is_trap(&m, "main", &[0]));
    assert!(is_trap(&m, "main", &[1]));
    assert!(!is_trap(&m, "main", &[2]));
    assert!(is_trap(&m, "main", &[3]));
}

#[test]
fn guard_that_does_not_dominate() {
    let src = r#"
fn f(v: vec<i64>, p: bool) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    brif p, guarded, join
guarded:
    n = len v
    c = sgt n, 0
    brif c, join, out
join:
    x = pop v
    ret x
out:
    ret -1
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var p: bool
    var r: i64
entry:
    v = new vec<i64>
    p = eq k, 0
    r = call f(v, p)
    ret r
}
"#;
    let (m, r) = bce(src, &[("main", &[0]), ("main", &[1])]);
    assert!(func(&m, "f").contains("    x = pop v\n"));
    assert_remark(
        &r,
        RemarkKind::Missed,
        "pop check kept: nothing proves len(v) > 0 here; it holds on the path from `guarded` but not on the path from `entry`",
    );
    assert!(is_trap(&m, "main", &[1]));
}

#[test]
fn len_ge_zero_guard_proves_nothing() {
    let src = r#"
fn f(v: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sge n, 0
    brif c, go, out
go:
    x = pop v
    ret x
out:
    ret -1
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    r = call f(v)
    ret r
}
"#;
    let (m, r) = bce(src, &[("main", &[0])]);
    assert!(func(&m, "f").contains("    x = pop v\n"));
    assert_remark(
        &r,
        RemarkKind::Missed,
        "pop check kept: nothing proves len(v) > 0 here",
    );
    assert_eq!(stat(&r, "bounds-check-elim", "checks_removed"), 0);
}

#[test]
fn upper_bound_only_may_be_negative() {
    let src = r#"
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = slt i, n
    brif c, go, out
go:
    x = get v[i]
    ret x
out:
    ret -1
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    r = call f(v, k)
    ret r
}
"#;
    let (m, r) = bce(src, &[("main", &[0]), ("main", &[-1]), ("main", &[3])]);
    assert!(func(&m, "f").contains("    x = get v[i]\n"));
    assert_remark(
        &r,
        RemarkKind::Missed,
        "index check kept: needs `i >= 0`: `i` may be negative (only `i < len(v)` is known)",
    );
    assert!(is_trap(&m, "main", &[-1]));
}

#[test]
fn unsigned_test_bounds_both_sides() {
    let src = r#"
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = uge i, n
    brif c, out, go
go:
    x = get v[i]
    ret x
out:
    ret -1
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    r = call f(v, k)
    ret r
}
"#;
    let (m, _) = bce(src, &[("main", &[0]), ("main", &[-1]), ("main", &[3])]);
    assert!(func(&m, "f").contains("    x = get.unchecked v[i]\n"));
}

#[test]
fn index_redefined_after_the_test() {
    let src = r#"
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = uge i, n
    brif c, out, go
go:
    i = add i, 1
    x = get v[i]
    ret x
out:
    ret -1
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    r = call f(v, k)
    ret r
}
"#;
    let (m, r) = bce(src, &[("main", &[0]), ("main", &[-1])]);
    assert!(func(&m, "f").contains("    x = get v[i]\n"));
    // `i + 1` is non-negative (i < len(v) rules out overflow) but may equal len(v).
    assert_remark(
        &r,
        RemarkKind::Missed,
        "index check kept: needs `i < len(v)`; known: `i >= 1`, `i <= len(v)`; it held, but `i = add i, 1`",
    );
    assert!(is_trap(&m, "main", &[0]));
}

#[test]
fn constant_index_and_last_element() {
    let src = r#"
fn f(v: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
    var y: i64
    var j: i64
entry:
    n = len v
    c = sgt n, 1
    brif c, go, out
go:
    x = get v[1]
    y = get v[2]
    j = sub n, 1
    y = get v[j]
    x = add x, y
    ret x
out:
    ret -1
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    push v, k
    r = call f(v)
    ret r
}
"#;
    let (m, r) = bce(src, &[("main", &[7])]);
    let f = func(&m, "f");
    assert!(f.contains("    x = get.unchecked v[1]\n"), "{f}");
    assert!(f.contains("    y = get v[2]\n"), "{f}");
    assert!(f.contains("    y = get.unchecked v[j]\n"), "{f}");
    assert_remark(
        &r,
        RemarkKind::Missed,
        "index check kept: nothing proves len(v) > 2 here",
    );
}

#[test]
fn narrow_compare_gives_no_length_facts() {
    let src = r#"
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var n32: i32
    var i32v: i32
    var c: bool
    var x: i64
entry:
    n = len v
    n32 = trunc n
    i32v = trunc i
    c = ult i32v, n32
    brif c, go, out
go:
    x = get v[i]
    ret x
out:
    ret -1
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    r = call f(v, k)
    ret r
}
"#;
    let big = 1i64 << 32;
    let (m, _) = bce(src, &[("main", &[0]), ("main", &[big])]);
    assert!(func(&m, "f").contains("    x = get v[i]\n"));
    assert!(is_trap(&m, "main", &[big]));
}

#[test]
fn odd_shapes_do_not_panic() {
    let src = r#"
fn f(v: vec<i64>, p: bool) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, same, same
same:
    brif p, spin, done
spin:
    pop v
    brif p, spin, done
done:
    x = len v
    ret x
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
    var p: bool
entry:
    v = new vec<i64>
    push v, 1
    p = eq k, 0
    r = call f(v, p)
    ret r
}
"#;
    let (m, _) = opt(
        src,
        &["range-check-fold", "bounds-check-elim"],
        &[("main", &[1]), ("main", &[0])],
    );
    assert!(func(&m, "f").contains("    pop v\n"));
}

// ---------------------------------------------------------------------------------------------
// range-check-fold

fn rcf(src: &str, runs: Runs<'_>) -> (Module, PassReport) {
    opt(src, &["range-check-fold"], runs)
}

const SHORT_CIRCUIT: &str = r#"
fn store(v: vec<i64>, i: i64, x: i64) -> i64 {
    var n: i64
    var c: bool
entry:
    c = slt i, 0
    brif c, bad, hi
hi:
    n = len v
    c = sge i, n
    brif c, bad, ok
ok:
    set v[i], x
    ret i
bad:
    ret -1
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
    var y: i64
entry:
    v = new vec<i64>
    push v, 1
    push v, 2
    r = call store(v, k, 9)
    y = get v[1]
    r = add r, y
    ret r
}
"#;

const SC_RUNS: Runs<'static> = &[
    ("main", &[-5]),
    ("main", &[-1]),
    ("main", &[0]),
    ("main", &[1]),
    ("main", &[2]),
    ("main", &[i64::MIN]),
];

#[test]
fn short_circuit_fold_then_check_goes() {
    let (m, r) = rcf(SHORT_CIRCUIT, SC_RUNS);
    let f = func(&m, "store");
    assert!(
        f.contains(
            "entry:\n    c = slt i, 0\n    n = len v\n    c = uge i, n\n    brif c, bad, ok\n"
        ),
        "{f}"
    );
    assert!(!f.contains("hi:"), "{f}");
    assert_remark(
        &r,
        RemarkKind::Applied,
        "range check `i < 0 || i >= n` folded to `i >=u n`",
    );
    assert_eq!(stat(&r, "range-check-fold", "compares_folded"), 1);

    // The folded compare dominates the store: its check goes.
    let (m, r) = opt(
        SHORT_CIRCUIT,
        &["range-check-fold", "bounds-check-elim"],
        SC_RUNS,
    );
    assert!(func(&m, "store").contains("    set.unchecked v[i], x\n"));
    // `store` pushes, pops and drops nothing, so the call keeps `len(v) > 1` from the two
    // pushes in `main`: the check of `v[1]` after it goes too.
    assert!(func(&m, "main").contains("    y = get.unchecked v[1]\n"));
    assert_eq!(stat(&r, "bounds-check-elim", "checks_removed"), 2);
}

#[test]
fn short_circuit_other_spellings_and_widths() {
    let src = r#"
fn f(i: i32, n: i32) -> i64 {
    var c: bool
    var d: bool
    var m: i32
entry:
    m = copy 10
    c = sle 0, i
    brif c, hi, bad
hi:
    d = sgt m, i
    brif d, good, bad
good:
    ret 1
bad:
    ret 0
}
fn main(k: i64) -> i64 {
    var r: i64
    var i: i32
entry:
    i = trunc k
    r = call f(i, 3)
    ret r
}
"#;
    let runs: Runs<'_> = &[
        ("main", &[-1]),
        ("main", &[0]),
        ("main", &[9]),
        ("main", &[10]),
        ("main", &[-2147483648]),
    ];
    let (m, r) = rcf(src, runs);
    let f = func(&m, "f");
    assert!(
        f.contains("    d = ugt m, i\n    brif d, good, bad\n"),
        "{f}"
    );
    assert_remark(
        &r,
        RemarkKind::Applied,
        "range check `i >= 0 && i < m` folded to `i <u m`",
    );
}

#[test]
fn short_circuit_with_possibly_negative_bound_stays() {
    let src = r#"
fn f(i: i64, n: i64) -> i64 {
    var c: bool
entry:
    c = slt i, 0
    brif c, bad, hi
hi:
    c = sge i, n
    brif c, bad, good
good:
    ret 1
bad:
    ret 0
}
fn main(k: i64) -> i64 {
    var r: i64
entry:
    r = call f(k, -3)
    ret r
}
"#;
    let (m, r) = rcf(src, &[("main", &[-1]), ("main", &[0])]);
    assert!(func(&m, "f").contains("hi:\n    c = sge i, n\n"));
    assert_remark(
        &r,
        RemarkKind::Missed,
        "range check `i < 0 || i >= n` not folded: `n` may be negative",
    );
    assert_eq!(stat(&r, "range-check-fold", "compares_folded"), 0);
}

#[test]
fn short_circuit_defs_live_at_fail_block_stay() {
    let src = r#"
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
entry:
    n = copy 100
    c = slt i, 0
    brif c, bad, hi
hi:
    n = len v
    c = sge i, n
    brif c, bad, good
good:
    ret 1
bad:
    ret n
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 1
    r = call f(v, k)
    ret r
}
"#;
    let (m, r) = rcf(src, &[("main", &[-1]), ("main", &[0]), ("main", &[1])]);
    assert!(func(&m, "f").contains("hi:\n"));
    assert_remark(
        &r,
        RemarkKind::Missed,
        "not folded: `n` (assigned in `hi`) is live at `bad`",
    );
}

#[test]
fn short_circuit_with_impure_second_block_stays() {
    let src = r#"
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
entry:
    c = slt i, 0
    brif c, bad, hi
hi:
    push v, 3
    n = len v
    c = sge i, n
    brif c, bad, good
good:
    ret 1
bad:
    ret 0
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    r = call f(v, k)
    ret r
}
"#;
    let (m, r) = rcf(src, &[("main", &[-1]), ("main", &[0]), ("main", &[1])]);
    assert!(func(&m, "f").contains("hi:\n"));
    assert_remark(
        &r,
        RemarkKind::Missed,
        "not folded: `hi` has an instruction with side effects (`push v, 3`)",
    );
}

#[test]
fn second_block_with_other_predecessor_is_kept() {
    let src = r#"
fn f(v: vec<i64>, i: i64, p: bool) -> i64 {
    var n: i64
    var c: bool
entry:
    brif p, test, hi
test:
    c = slt i, 0
    brif c, bad, hi
hi:
    n = len v
    c = sge i, n
    brif c, bad, good
good:
    ret 1
bad:
    ret 0
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
    var p: bool
entry:
    v = new vec<i64>
    push v, 1
    p = sgt k, -10
    r = call f(v, k, p)
    ret r
}
"#;
    let (m, r) = rcf(
        src,
        &[
            ("main", &[-11]),
            ("main", &[-1]),
            ("main", &[0]),
            ("main", &[1]),
        ],
    );
    let f = func(&m, "f");
    assert!(
        f.contains("test:\n    c = slt i, 0\n    n = len v\n    c = uge i, n\n"),
        "{f}"
    );
    assert!(f.contains("hi:\n    n = len v\n    c = sge i, n\n"), "{f}");
    assert_eq!(stat(&r, "range-check-fold", "compares_folded"), 1);
}

#[test]
fn bitwise_fold() {
    let src = r#"
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c1: bool
    var c2: bool
    var c3: bool
    var x: i64
entry:
    n = len v
    c1 = slt i, 0
    c2 = sge i, n
    c3 = or c1, c2
    brif c3, bad, good
good:
    x = get v[i]
    ret x
bad:
    ret -1
}
fn g(i: i64, n: i64) -> i64 {
    var c1: bool
    var c2: bool
    var c3: bool
    var r: i64
entry:
    c1 = sge i, 0
    c2 = slt i, n
    c3 = and c2, c1
    r = zext c3
    ret r
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
    var s: i64
entry:
    v = new vec<i64>
    push v, 4
    r = call f(v, k)
    s = call g(k, 1)
    r = add r, s
    ret r
}
"#;
    let (m, r) = opt(
        src,
        &["range-check-fold", "bounds-check-elim"],
        &[
            ("main", &[-1]),
            ("main", &[0]),
            ("main", &[1]),
            ("main", &[i64::MIN]),
        ],
    );
    let f = func(&m, "f");
    assert!(f.contains("    c3 = uge i, n\n"), "{f}");
    assert!(f.contains("    x = get.unchecked v[i]\n"), "{f}");
    assert_remark(
        &r,
        RemarkKind::Applied,
        "range check `i < 0 || i >= n` folded to `i >=u n`",
    );
    // g's bound is a parameter: may be negative.
    assert!(func(&m, "g").contains("    c3 = and c2, c1\n"));
    assert_remark(
        &r,
        RemarkKind::Missed,
        "range check not folded: `n` may be negative",
    );
}

#[test]
fn full_pipelines_run() {
    for level in [poolopt_passes::OptLevel::O1, poolopt_passes::OptLevel::O2] {
        for src in [alloc().as_str(), LOOP, SHORT_CIRCUIT] {
            let before = module(src);
            let mut after = before.clone();
            run_both_ways(&mut after, || PassManager::for_level(level));
            let limits = RunLimits::default();
            for k in [-2, -1, 0, 1, 2, 5] {
                assert_eq!(
                    poolopt_interp::run(&before, "main", &[k], &limits),
                    poolopt_interp::run(&after, "main", &[k], &limits)
                );
            }
        }
    }
}
