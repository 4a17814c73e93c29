//! Helpers shared by the pass tests: parse and verify a program, run passes through the
//! manager (verifying after each) with the interpreter checking that results and traps do not
//! change, and read the printed functions and remarks.

#![allow(dead_code)]

use poolopt_ir::{parse, print_function, print_module, verify, Module, RunLimits};
use poolopt_passes::{PassManager, PassReport, RemarkKind};

/// (entry, args) pairs to run before and after the passes.
pub type Runs<'a> = &'a [(&'a str, &'a [i64])];

/// Parses and verifies `src`.
pub fn module(src: &str) -> Module {
    let m = parse(src).unwrap_or_else(|e| panic!("parse error: {e}\n{src}"));
    verify(&m).unwrap_or_else(|e| panic!("verify error: {e:?}\n{src}"));
    m
}

/// Runs `passes` (verifying after each) over `src`; checks that the result prints back to
/// itself and that every (entry, args) gives the same result or trap before and after; returns
/// the optimized module and the report.
pub fn opt(src: &str, passes: &[&str], runs: Runs<'_>) -> (Module, PassReport) {
    let before = module(src);
    let mut after = before.clone();
    let report = PassManager::from_names(passes)
        .unwrap()
        .verify_each(true)
        .run(&mut after)
        .unwrap_or_else(|e| panic!("{e}\n{}", print_module(&after)));
    verify(&after).unwrap();
    let reparsed = module(&print_module(&after));
    assert_eq!(print_module(&reparsed), print_module(&after));
    let limits = RunLimits::default();
    for (entry, args) in runs {
        let a = poolopt_interp::run(&before, entry, args, &limits);
        let b = poolopt_interp::run(&after, entry, args, &limits);
        assert_eq!(a, b, "{entry}{args:?} changed\n{}", print_module(&after));
    }
    (after, report)
}

/// The printed text of function `name`.
pub fn func(m: &Module, name: &str) -> String {
    print_function(m, &m.funcs[m.func_by_name(name).unwrap()])
}

/// The messages of the remarks of one kind.
pub fn remarks(r: &PassReport, kind: RemarkKind) -> Vec<String> {
    r.remarks
        .iter()
        .filter(|x| x.kind == kind)
        .map(|x| x.message.clone())
        .collect()
}

/// A `main(k)` that drives an `alloc(items, free, v)` of the slot pool: two appends, a release
/// of index `k` through the free list, a third alloc reading back the slot it got.
pub const ALLOC_MAIN: &str = r#"fn main(k: i64) -> i64 {
    var items: vec<S8>
    var free: vec<i64>
    var v: S8
    var r: i64
    var x: i32
    var a: i64
entry:
    items = new vec<S8>
    free = new vec<i64>
    v = make S8(1, 2)
    r = call alloc(items, free, v)
    r = call alloc(items, free, v)
    push free, k
    r = call alloc(items, free, v)
    x = get items[r].b
    a = sext x
    r = add r, a
    ret r
}
"#;
