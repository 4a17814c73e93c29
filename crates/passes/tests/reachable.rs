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
