//! Helpers shared by the pass tests: parse and verify a program, run passes through the
//! manager (verifying after each) with the interpreter checking that results and traps do not
//! change and the IR after each pass not depending on whether remarks are collected, and read
//! the printed functions and remarks.

#![allow(dead_code)]

use poolopt_ir::{
    parse, print_function, print_module, verify_with, Module, RunLimits, VerifyOptions,
};
use poolopt_passes::{PassManager, PassReport, RemarkKind};

/// (entry, args) pairs to run before and after the passes.
pub type Runs<'a> = &'a [(&'a str, &'a [i64])];

/// Parses and verifies `src`; unchecked operations are trusted (the tests feed the passes'
/// own output back in).
pub fn module(src: &str) -> Module {
    let m = parse(src).unwrap_or_else(|e| panic!("parse error: {e}\n{src}"));
    verify_with(&m, &VerifyOptions::TRUSTED)
        .unwrap_or_else(|e| panic!("verify error: {e:?}\n{src}"));
    m
}

/// Runs the pipeline `manager()` makes over `module` with remarks collected and again without,
/// recording the IR after each pass; asserts that both runs leave the same IR after every pass
/// (the decisions must not depend on whether they are explained). Returns the run with remarks.
pub fn run_both_ways(module: &mut Module, manager: impl Fn() -> PassManager) -> PassReport {
    let mut quiet = module.clone();
    let quiet_report = manager()
        .verify_each(true)
        .record_dumps(true)
        .collect_remarks(false)
        .run(&mut quiet)
        .unwrap_or_else(|e| panic!("{e}\n{}", print_module(&quiet)));
    let report = manager()
        .verify_each(true)
        .record_dumps(true)
        .collect_remarks(true)
        .run(module)
        .unwrap_or_else(|e| panic!("{e}\n{}", print_module(module)));
    assert_eq!(report.dumps.len(), quiet_report.dumps.len());
    for (loud, quiet) in report.dumps.iter().zip(&quiet_report.dumps) {
        assert_eq!((loud.pass, &loud.function), (quiet.pass, &quiet.function));
        assert_eq!(
            loud.after, quiet.after,
            "{} on {} gives other IR when remarks are not collected",
            loud.pass, loud.function
        );
    }
    assert_eq!(print_module(module), print_module(&quiet));
    report
}

/// Runs `passes` (verifying after each) over `src`; checks that the result prints back to
/// itself and that every (entry, args) gives the same result or trap before and after; returns
/// the optimized module and the report.
pub fn opt(src: &str, passes: &[&str], runs: Runs<'_>) -> (Module, PassReport) {
    let before = module(src);
    let mut after = before.clone();
    let report = run_both_ways(&mut after, || PassManager::from_names(passes).unwrap());
    verify_with(&after, &VerifyOptions::TRUSTED).unwrap();
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

/// `n` vecs, each created and pushed once in the entry block, then popped one after the other,
/// each pop under its own `len > 0` guard: every vec's length fact stays live until its guard,
/// so the sets stored at the `2n` block boundaries hold about `2n * 2n` facts in all.
pub fn guarded_pops_of_many_vecs(n: usize) -> String {
    let mut src = String::from("fn main(x: i64) -> i64 {\n    var acc: i64\n    var t: i64\n");
    src.push_str("    var n: i64\n    var c: bool\n");
    for k in 0..n {
        src.push_str(&format!("    var v{k}: vec<i64>\n"));
    }
    src.push_str("entry:\n    acc = copy 0\n");
    for k in 0..n {
        src.push_str(&format!("    v{k} = new vec<i64>\n    push v{k}, x\n"));
    }
    src.push_str("    br b0\n");
    for k in 0..n {
        src.push_str(&format!(
            "b{k}:\n    n = len v{k}\n    c = sgt n, 0\n    brif c, p{k}, b{next}\n\
             p{k}:\n    t = pop v{k}\n    acc = add acc, t\n    br b{next}\n",
            next = k + 1
        ));
    }
    src.push_str(&format!("b{n}:\n    ret acc\n}}\n"));
    src
}
