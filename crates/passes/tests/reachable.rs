//! `PassManager::run_reachable` optimizes only what the roots reach through calls.

use poolopt_ir::{parse, print_function};
use poolopt_passes::{OptLevel, PassManager};

const SRC: &str = r#"
fn take(v: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, have, empty
have:
    x = pop v
    ret x
empty:
    ret -1
}

fn unused(v: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, have, empty
have:
    x = pop v
    ret x
empty:
    ret -1
}

fn main() -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 3
    r = call take(v)
    ret r
}
"#;

#[test]
fn only_functions_reached_from_the_roots_are_optimized() {
    let mut all = parse(SRC).unwrap();
    PassManager::for_level(OptLevel::O1).run(&mut all).unwrap();
    let mut some = parse(SRC).unwrap();
    let main = some.func_by_name("main").unwrap();
    let report = PassManager::for_level(OptLevel::O1)
        .run_reachable(&mut some, &[main])
        .unwrap();
    let text =
        |m: &poolopt_ir::Module, f: &str| print_function(m, &m.funcs[m.func_by_name(f).unwrap()]);
    // Reached: optimized exactly as by a full run.
    assert!(text(&some, "take").contains("pop.unchecked v"));
    assert_eq!(text(&some, "take"), text(&all, "take"));
    assert_eq!(text(&some, "main"), text(&all, "main"));
    // Not reached: left as written (a full run removes its pop check too).
    assert!(text(&all, "unused").contains("pop.unchecked v"));
    assert!(text(&some, "unused").contains("    x = pop v\n"));
    assert!(report.remarks.iter().all(|r| r.function != "unused"));
}

/// `mid` is larger than the always-inlined size and not called in a loop: the inliner takes it
/// only from its single call site. The module has two sites, but `other` is not reached from
/// `entry`, so for `entry` the site in `entry` is the only one.
const TWO_SITES: &str = r#"
fn mid(a: i64) -> i64 {
    var t: i64
entry:
    t = add a, 1
    t = mul t, 3
    t = add t, 5
    t = mul t, 7
    t = add t, 11
    t = mul t, 13
    t = add t, 17
    t = mul t, 19
    t = add t, 23
    t = mul t, 29
    t = add t, 31
    t = mul t, 37
    t = add t, 41
    t = mul t, 43
    t = add t, 47
    t = mul t, 53
    t = add t, 59
    ret t
}

fn other(x: i64) -> i64 {
    var r: i64
entry:
    r = call mid(x)
    ret r
}

fn entry(x: i64) -> i64 {
    var r: i64
entry:
    r = call mid(x)
    ret r
}
"#;

#[test]
fn call_sites_count_only_in_what_the_roots_reach() {
    let text =
        |m: &poolopt_ir::Module, f: &str| print_function(m, &m.funcs[m.func_by_name(f).unwrap()]);
    let mut all = parse(TWO_SITES).unwrap();
    PassManager::for_level(OptLevel::O2).run(&mut all).unwrap();
    assert!(
        text(&all, "entry").contains("call mid"),
        "two sites in the module: kept"
    );
    let mut some = parse(TWO_SITES).unwrap();
    let entry = some.func_by_name("entry").unwrap();
    PassManager::for_level(OptLevel::O2)
        .run_reachable(&mut some, &[entry])
        .unwrap();
    assert!(
        !text(&some, "entry").contains("call mid"),
        "one reached site: inlined\n{}",
        text(&some, "entry")
    );
    // `other` is not reached: left as written.
    assert!(text(&some, "other").contains("call mid"));
}
