//! Tests of the data passes (temp-elision, copy-prop, dead-local-elim, simplify-cfg, scalarize):
//! printed IR, remarks and stats, with the reference interpreter checking that results and
//! traps are unchanged.

mod common;

use common::{func, module, opt, remarks, run_both_ways};
use poolopt_ir::{print_module, RunLimits};
use poolopt_passes::{PassManager, PassReport, RemarkKind};

fn has(r: &PassReport, kind: RemarkKind, needle: &str) -> bool {
    remarks(r, kind).iter().any(|m| m.contains(needle))
}

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
    var t1: S8
    var s: S8
entry:
    n = len free
    c = sgt n, 0
    brif c, reuse, append
reuse:
    t0 = pop free
    i = copy t0
    t1 = get items[i]
    s = copy t1
    set items[i], v
    ret i
append:
    i = len items
    t1 = copy v
    push items, t1
    ret i
}
"#;

#[test]
fn temp_elision_alloc() {
    let runs: &[(&str, &[i64])] = &[("main", &[0]), ("main", &[1]), ("main", &[5])];
    let (m, r) = opt(&alloc(), &["temp-elision"], runs);
    let f = func(&m, "alloc");
    assert!(f.contains("    i = pop free\n"), "{f}");
    assert!(f.contains("    s = get items[i]\n"), "{f}");
    assert!(f.contains("    push items, v\n"), "{f}");
    assert!(!f.contains("copy"), "{f}");
    assert_eq!(r.stats.get("temp-elision", "temps_elided"), 3);
    assert!(has(
        &r,
        RemarkKind::Applied,
        "temporary `t1` elided: `get items[i]` now writes `s` directly"
    ));
    assert!(has(
        &r,
        RemarkKind::Applied,
        "temporary `t0` elided: `pop free` now writes `i` directly"
    ));
    assert!(has(
        &r,
        RemarkKind::Applied,
        "temporary `t1` elided: `push items, v` now reads `v` directly"
    ));

    // With the cleanup, the temporaries' declarations go too.
    let (m, r) = opt(&alloc(), &["temp-elision", "dead-local-elim"], runs);
    let f = func(&m, "alloc");
    assert!(!f.contains("var t0") && !f.contains("var t1"), "{f}");
    assert_eq!(r.stats.get("dead-local-elim", "locals_removed"), 2);
}

#[test]
fn temp_used_twice_stays() {
    let src = r#"
struct S8 { a: i32, b: i32 }
fn f(k: i64) -> i64 {
    var items: vec<S8>
    var t: S8
    var s: S8
    var x: i32
    var r: i64
entry:
    items = new vec<S8>
    s = make S8(3, 4)
    push items, s
    t = get items[0]
    s = copy t
    push items, t
    setfield s.a, 9
    x = getfield s.b
    r = len items
    r = add r, k
    ret r
}
"#;
    let (m, r) = opt(src, &["temp-elision"], &[("f", &[7])]);
    let f = func(&m, "f");
    assert!(
        f.contains("t = get items[0]") && f.contains("s = copy t"),
        "{f}"
    );
    assert!(f.contains("push items, t"), "{f}");
    assert!(has(
        &r,
        RemarkKind::Missed,
        "temporary `t` kept: it is used more than once"
    ));
    assert_eq!(r.stats.get("temp-elision", "temps_elided"), 0);
}

#[test]
fn temp_source_redefined_stays() {
    let src = r#"
fn f(x: i64) -> i64 {
    var v: vec<i64>
    var t: i64
    var r: i64
entry:
    v = new vec<i64>
    t = copy x
    x = add x, 1
    push v, t
    r = pop v
    ret r
}
"#;
    let (m, r) = opt(src, &["temp-elision"], &[("f", &[41])]);
    let f = func(&m, "f");
    assert!(f.contains("t = copy x") && f.contains("push v, t"), "{f}");
    assert!(has(
        &r,
        RemarkKind::Missed,
        "temporary `t` kept: its source `x` is redefined between the copy and the use"
    ));
}

#[test]
fn temp_destination_touched_between_stays() {
    let src = r#"
fn f(a: i64, d: i64) -> i64 {
    var t: i64
    var e: i64
entry:
    t = mul a, 3
    e = add d, 1
    d = copy t
    d = add d, e
    ret d
}
"#;
    let (m, r) = opt(src, &["temp-elision"], &[("f", &[2, 5])]);
    let f = func(&m, "f");
    // The forward form is refused; the backward form then elides `d = copy t` itself.
    assert!(
        f.contains("t = mul a, 3") && f.contains("d = add t, e"),
        "{f}"
    );
    assert!(has(
        &r,
        RemarkKind::Missed,
        "`d` is read or written between its definition and the copy"
    ));
}

#[test]
fn temp_elision_scalar_forms() {
    // Forward through an operand that reads the destination; backward into a terminator and
    // a compare; a constant source into `ret` but not into a cast.
    let src = r#"
fn f(a: i64, i: i64) -> i64 {
    var v: vec<i64>
    var t: i64
    var u: i64
    var k: i64
    var c: bool
    var n: i8
    var m: i64
entry:
    v = new vec<i64>
    push v, a
    push v, 9
    t = get v[i]
    i = copy t
    u = copy i
    c = slt u, 10
    k = copy 3
    n = trunc a
    m = sext n
    brif c, small, big
small:
    t = copy 5
    ret t
big:
    u = copy m
    ret u
}
"#;
    let runs: &[(&str, &[i64])] = &[
        ("f", &[1, 0]),
        ("f", &[20, 0]),
        ("f", &[1, 1]),
        ("f", &[1, 7]),
    ];
    let (m, r) = opt(src, &["temp-elision", "dead-local-elim"], runs);
    let f = func(&m, "f");
    assert!(f.contains("    u = get v[i]\n"), "{f}");
    assert!(f.contains("    c = slt u, 10\n"), "{f}");
    assert!(!f.contains("var t") && !f.contains("var k"), "{f}");
    assert!(f.contains("    ret 5\n"), "{f}");
    assert!(f.contains("    ret m\n"), "{f}");
    assert!(
        r.stats.get("temp-elision", "temps_elided") >= 4,
        "{:?}",
        r.stats
    );
}

#[test]
fn copy_prop_scalars() {
    let src = r#"
fn f(a: i64, b: i64) -> i64 {
    var d: i64
    var e: i64
    var k: i64
    var c: bool
    var c2: bool
    var n: i32
    var w: i64
entry:
    d = copy a
    e = add d, b
    a = add a, 1
    e = add e, d
    k = copy 7
    e = mul e, k
    c = slt k, 7
    c2 = slt d, k
    n = trunc e
    w = sext n
    e = add e, w
    brif c2, yes, no
yes:
    ret e
no:
    ret k
}
"#;
    let runs: &[(&str, &[i64])] = &[("f", &[1, 2]), ("f", &[10, -3])];
    let (m, r) = opt(src, &["copy-prop"], runs);
    let f = func(&m, "f");
    assert!(f.contains("e = add a, b"), "{f}");
    // `a` was redefined: the later read of `d` stays.
    assert!(f.contains("e = add e, d"), "{f}");
    assert!(f.contains("e = mul e, 7"), "{f}");
    // A compare keeps one local operand.
    assert!(f.contains("c = slt k, 7"), "{f}");
    assert!(f.contains("c2 = slt d, 7"), "{f}");
    // Not across blocks.
    assert!(f.contains("ret k"), "{f}");
    assert!(r.stats.get("copy-prop", "copies_propagated") >= 3);
    assert!(has(&r, RemarkKind::Applied, "copy `d = copy a` propagated"));
}

#[test]
fn dead_local_elim_keeps_traps() {
    let src = r#"
fn f(a: i64, b: i64, unused: i64) -> i64 {
    var v: vec<i64>
    var c: bool
    var q: i64
    var p: i64
    var g: i64
    var s: i64
    var never: i64
entry:
    v = new vec<i64>
    push v, a
    c = slt a, b
    s = add a, b
    s = mul s, 2
    q = sdiv a, b
    p = pop v
    g = get v[0]
    ret a
}
"#;
    // b = 0: the dead division traps; the dead get traps after the pop empties v.
    let runs: &[(&str, &[i64])] = &[("f", &[1, 0, 0]), ("f", &[1, 2, 0])];
    let (m, r) = opt(src, &["dead-local-elim"], runs);
    let f = func(&m, "f");
    assert!(!f.contains("slt") && !f.contains("var c"), "{f}");
    assert!(!f.contains(" s = ") && !f.contains("var s"), "{f}");
    assert!(f.contains("q = sdiv a, b"), "{f}");
    assert!(f.contains("    pop v\n") && !f.contains("var p"), "{f}");
    assert!(f.contains("g = get v[0]"), "{f}");
    assert!(!f.contains("never"), "{f}");
    assert!(f.starts_with("fn f(a: i64, b: i64, unused: i64)"), "{f}");
    assert_eq!(r.stats.get("dead-local-elim", "insts_removed"), 3);
    assert_eq!(r.stats.get("dead-local-elim", "locals_removed"), 4);
    assert!(has(
        &r,
        RemarkKind::Missed,
        "`q = sdiv a, b` kept although `q` is never read"
    ));
    assert!(has(&r, RemarkKind::Missed, "`g = get v[0]` kept"));
}

#[test]
fn dead_local_elim_across_blocks_and_loops() {
    let src = r#"
fn f(n: i64) -> i64 {
    var i: i64
    var j: i64
    var c: bool
entry:
    i = copy 0
    j = copy 0
    k = add n, 1
    br loop
loop:
    i = add i, 1
    j = mul i, 2
    h = add k, i
    acc = add acc, i
    c = slt i, n
    brif c, loop, exit
exit:
    ret i
}
"#;
    let src = src.replace(
        "    var c: bool\n",
        "    var c: bool\n    var k: i64\n    var h: i64\n    var acc: i64\n",
    );
    let (m, r) = opt(&src, &["dead-local-elim"], &[("f", &[5]), ("f", &[-1])]);
    let f = func(&m, "f");
    // `j` is dead everywhere; `h` dies, then `k` (live into the loop only for `h`) dies too.
    assert!(
        !f.contains("j") && !f.contains(" h") && !f.contains(" k"),
        "{f}"
    );
    // `acc` only feeds itself around the loop: strong liveness sees that nothing else reads
    // it, so the dead cycle goes too.
    assert!(!f.contains("acc"), "{f}");
    assert_eq!(r.stats.get("dead-local-elim", "insts_removed"), 5);
    assert_eq!(r.stats.get("dead-local-elim", "locals_removed"), 4);
}

#[test]
fn simplify_cfg_diamond() {
    let src = r#"
fn f(a: i64) -> i64 {
    var c: bool
entry:
    c = slt a, 0
    brif c, then, else
then:
    br join
else:
    br join
join:
    a = add a, 1
    ret a
}
"#;
    let (m, r) = opt(src, &["simplify-cfg"], &[("f", &[-3]), ("f", &[3])]);
    let f = func(&m, "f");
    assert_eq!(
        f,
        "fn f(a: i64) -> i64 {\n    var c: bool\nentry:\n    c = slt a, 0\n    a = add a, 1\n    ret a\n}\n"
    );
    assert_eq!(r.stats.get("simplify-cfg", "blocks_removed"), 2);
    assert_eq!(r.stats.get("simplify-cfg", "blocks_merged"), 1);
    assert!(r.stats.get("simplify-cfg", "branches_simplified") >= 1);
}

#[test]
fn simplify_cfg_loops_and_constants() {
    let src = r#"
fn f(n: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = add i, 1
    c = slt i, n
    brif c, entry, next
next:
    brif 1, body, dead
dead:
    i = copy 99
    br body
body:
    brif c, spin, out
spin:
    br spin
out:
    br tail
tail:
    ret i
}
"#;
    let (m, r) = opt(src, &["simplify-cfg"], &[("f", &[0]), ("f", &[4])]);
    let f = func(&m, "f");
    assert!(
        f.starts_with("fn f(n: i64) -> i64 {\n    var i: i64\n    var c: bool\nentry:\n"),
        "{f}"
    );
    // `next` folds to an empty `br body` and is threaded past; `dead` becomes unreachable.
    assert!(f.contains("brif c, entry, body"), "{f}");
    assert!(
        !f.contains("dead:") && !f.contains("next:") && !f.contains("out:"),
        "{f}"
    );
    assert!(f.contains("spin:\n    br spin\n"), "{f}");
    assert!(f.contains("brif c, spin, tail"), "{f}");
    assert!(r.stats.get("simplify-cfg", "blocks_removed") >= 1);
}

#[test]
fn simplify_cfg_empty_cycle_and_entry_forwarder() {
    let src = r#"
fn f(a: i64) -> i64 {
    var c: bool
entry:
    br start
start:
    c = slt a, 0
    brif c, e1, done
e1:
    br e2
e2:
    br e1
done:
    ret a
}
"#;
    // Only run the non-looping input.
    let (m, _) = opt(src, &["simplify-cfg"], &[("f", &[3])]);
    let f = func(&m, "f");
    assert!(f.contains("entry:\n    c = slt a, 0\n"), "{f}");
    // The empty cycle folds into one empty self-loop; it is never threaded through.
    assert!(f.contains("brif c, e1, done"), "{f}");
    assert!(f.contains("e1:\n    br e1\n") && !f.contains("e2"), "{f}");
}

#[test]
fn simplify_cfg_brif_same_target() {
    let src = r#"
fn f(a: i64) -> i64 {
    var c: bool
entry:
    c = slt a, 0
    brif c, x, x
x:
    ret a
}
"#;
    let (m, r) = opt(src, &["simplify-cfg"], &[("f", &[1])]);
    let f = func(&m, "f");
    assert!(!f.contains("brif") && !f.contains("x:"), "{f}");
    assert!(has(
        &r,
        RemarkKind::Applied,
        "both targets are the same block"
    ));
}

#[test]
fn scalarize_marks_small_structs() {
    let src = r#"
struct S8 { a: i32, b: i32 }
struct S128 { f0: i64, f1: i64, f2: i64, f3: i64, f4: i64, f5: i64, f6: i64, f7: i64, f8: i64, f9: i64, f10: i64, f11: i64, f12: i64, f13: i64, f14: i64, f15: i64 }
fn f(v: S8, k: i64) -> i64 {
    var s: S8
    var big: S128
    var x: i32
    var r: i64
entry:
    s = copy v
    setfield s.a, 5
    big = make S128(k, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    x = getfield s.b
    r = sext x
    ret r
}
fn main(k: i64) -> i64 {
    var v: S8
    var r: i64
entry:
    v = make S8(1, -2)
    r = call f(v, k)
    ret r
}
"#;
    let (m, r) = opt(src, &["scalarize"], &[("main", &[3])]);
    let f = func(&m, "f");
    assert!(f.contains("    packed v\n"), "{f}");
    assert!(f.contains("    var s: S8 packed\n"), "{f}");
    assert!(f.contains("    var big: S128\n"), "{f}");
    assert!(has(
        &r,
        RemarkKind::Applied,
        "`s` (S8, 8 bytes) held as one i64"
    ));
    assert!(has(
        &r,
        RemarkKind::Missed,
        "`big` not scalarized: struct `S128` is 128 bytes, more than the 8 that fit one integer"
    ));
    assert_eq!(r.stats.get("scalarize", "locals_scalarized"), 3);
}

#[test]
fn all_data_passes_on_workloads() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/workloads");
    let passes = [
        "simplify-cfg",
        "temp-elision",
        "copy-prop",
        "dead-local-elim",
        "simplify-cfg",
        "scalarize",
    ];
    for file in ["slot_pool_8.pir", "slot_pool_128.pir"] {
        let Ok(src) = std::fs::read_to_string(format!("{dir}/{file}")) else {
            continue;
        };
        let runs: &[(&str, &[i64])] = &[
            ("append", &[50, 3]),
            ("lifo", &[10, 5]),
            ("scattered", &[10, 3]),
        ];
        let (m, r) = opt(&src, &passes, runs);
        assert!(r.stats.get("temp-elision", "temps_elided") > 0, "{file}");
        let text = print_module(&m);
        assert!(text.len() < src.len(), "{file}");
    }
}

#[test]
fn passes_are_idempotent_enough() {
    // A second run of the whole set changes nothing more.
    let passes = [
        "temp-elision",
        "copy-prop",
        "dead-local-elim",
        "simplify-cfg",
        "scalarize",
    ];
    let (m, _) = opt(&alloc(), &passes, &[("main", &[0])]);
    let mut again = m.clone();
    run_both_ways(&mut again, || PassManager::from_names(&passes).unwrap());
    assert_eq!(print_module(&again), print_module(&m));
}

#[test]
fn trap_examples_keep_their_traps() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/traps");
    let passes = [
        "temp-elision",
        "copy-prop",
        "dead-local-elim",
        "simplify-cfg",
        "scalarize",
    ];
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "pir") {
            continue;
        }
        let src = std::fs::read_to_string(&path).unwrap();
        let before = module(&src);
        let (after, _) = opt(&src, &passes, &[]);
        // A small memory limit keeps the out-of-memory example fast.
        let limits = RunLimits {
            max_memory: 1 << 20,
            ..RunLimits::default()
        };
        let expected = poolopt_interp::run(&before, "main", &[], &limits);
        assert!(
            expected.is_err(),
            "{}: no trap to begin with",
            path.display()
        );
        let result = poolopt_interp::run(&after, "main", &[], &limits);
        assert_eq!(result, expected, "{}", path.display());
    }
}

#[test]
fn degenerate_shapes_do_not_panic() {
    let src = r#"
fn spin() {
entry:
    br entry
}
fn one(a: i64) -> i64 {
entry:
    ret a
}
fn cond(a: i64) -> i64 {
    var c: bool
    var t: i64
entry:
    c = slt a, 0
    t = copy a
    brif c, entry, entry
}
"#;
    let passes = [
        "temp-elision",
        "copy-prop",
        "dead-local-elim",
        "simplify-cfg",
        "scalarize",
    ];
    let (m, _) = opt(src, &passes, &[("one", &[4])]);
    let f = func(&m, "cond");
    assert!(f.contains("br entry") && !f.contains("brif"), "{f}");
    assert!(func(&m, "spin").contains("entry:\n    br entry\n"));
}
