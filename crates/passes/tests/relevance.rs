//! Which locals the fact analysis tracks (`analysis::facts::relevance`): every rule of the
//! module's list with its near miss, checked as the exact set of tracked locals.
//!
//! Tracking is a cost decision: an untracked local's constraints can never decide a check, so
//! tracking too much changes no result — only the analysis's time and the stored-facts bound.
//! That is why the decisions of the pass tests cannot tell a tracker that tracks everything
//! from the real one, and this test asks the tracker directly.

mod common;

use poolopt_ir::{EntityRef, Function, Local};
use poolopt_passes::analysis::facts::relevance::Tracked;
use poolopt_passes::analysis::facts::{CallKills, FactQueries, FactView, Term};
use poolopt_passes::analysis::{Cfg, FactAnalysis};

/// The names of the locals `tracked` says constraints are recorded about, sorted.
fn tracked_names(func: &Function, tracked: &Tracked) -> Vec<String> {
    let mut names: Vec<String> = func
        .locals
        .iter()
        .filter(|&(l, _)| {
            let term = match func.local_ty(l) {
                poolopt_ir::Type::Vec(_) => Term::len(l),
                _ => Term::value(l),
            };
            tracked.term(term)
        })
        .map(|(_, data)| data.name.to_string())
        .collect();
    names.sort();
    names
}

fn function<'m>(module: &'m poolopt_ir::Module, name: &str) -> &'m Function {
    let id = module
        .func_by_name(name)
        .unwrap_or_else(|| panic!("no function {name}"));
    &module.funcs[id]
}

fn assert_tracked(src: &str, name: &str, expected: &[&str]) {
    let module = common::module(src);
    let func = function(&module, name);
    let tracked = Tracked::of(func, &CallKills::of(func, None));
    let mut expected: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(
        tracked_names(func, &tracked),
        expected,
        "tracked locals of {name}"
    );
}

/// Every seed and propagation rule, each beside a local that the rule does not reach.
const RULES: &str = r#"
fn f(v: vec<i64>, pv: vec<i64>, h: vec<i64>, h3: vec<i64>, e: vec<i32>, x: i64, y: i64, a: i64, b: i64, p: i64, q: i64, s: i64, z: i64, gg: i64) -> i64 {
    var w: vec<i64>
    var u: vec<i64>
    var i: i64
    var k: i64
    var g: i64
    var m: i64
    var n2: i64
    var n3: i64
    var n4: i64
    var n5: i64
    var r: i64
    var t: bool
    var c3: bool
    var c4: bool
    var c5: bool
    var c6: bool
    var c7: bool
    var e1: bool
    var e2: bool
    var e3: bool
    var d: i64
    var o: i64
    var b2: i64
    var b3: i64
    var x3: i64
    var y2: i64
    var nb: i64
    var n6: i64
    var a2: i64
    var w2: vec<i64>
    var ip: i64
    var pc: i64
entry:
    ; a vec copy: `w` and its source `v` together (v is popped, checked)
    w = copy v
    u = new vec<i64>
    push u, 1
    ; unchecked accesses (the passes' output, or vouched for by the front end) ask nothing
    b2 = get.unchecked u[b]
    set.unchecked u[b2], 5
    b3 = pop.unchecked u
    ; `m = len u` with `u` untracked and `m` read by nothing tracked: neither
    m = len u
    ; the index of a checked get, and through `copy`, `add` and `neg` what defines it
    y2 = neg y
    k = add x, y2
    i = copy k
    r = get w[i]
    ip = add i, 1
    ; a compare with one tracked operand: the other one too (`g`), and what defines it (`gg`)
    g = sub gg, 0
    c7 = slt g, i
    ; values nothing tracked reads: not tracked, whatever their definition
    d = mul a, b
    nb = neg b
    a2 = copy d
    ; the length of a tracked vec: tracked with it
    n6 = len w
    ; a copy of a tracked vec that nothing checks: tracked too (a copy links both ways)
    w2 = copy v
    ; a vec only a checked pop reads
    x3 = pop pv
    ; a compare a branch with a trapping successor tests: both operands
    t = slt p, q
    brif t, bad, next
next:
    x = pop v
    ; `n2 = len h`, read by a branch's compare, `h` may be `v` (both parameters): tracked
    n2 = len h
    c3 = sgt n2, 0
    brif c3, l1, l2
l1:
    ; the near misses: a guarded length of a vec of another type (`e`), and a length of a
    ; vec that may be `v` but that no branch reads (`h3`)
    n3 = len e
    c5 = sgt n3, 0
    brif c5, l2, l2b
l2b:
    n4 = len h3
    c4 = sgt n4, 0
    ret d
l2:
    ; an `or` of two compares (a range-check-fold candidate): both compares' operands
    e1 = slt s, 0
    n5 = len h3
    e2 = sge s, z
    e3 = or e1, e2
    ; a compare whose branch does not trap, of an untracked local: not tracked (and no
    ; constraint `a < 0` on its edges); `ip` (after the get: defined from a tracked local,
    ; and not tracked, so no constraint `ip == i + 1`)
    c6 = slt a, 0
    brif c6, l3, l4
l3:
    ; an untracked bit count: no constraint `0 <= pc <= 64`
    pc = popcnt a
    ret pc
l4:
    ret ip
bad:
    trap "explicit"
}
"#;

#[test]
fn each_rule_tracks_its_locals_and_no_others() {
    assert_tracked(
        RULES,
        "f",
        &[
            "v", "pv", "w", "w2", "i", "k", "x", "y2", "g", "gg", "y", "p", "q", "h", "n2", "n6",
            "s", "z",
        ],
    );
}

/// The analysis records constraints only between tracked terms: at every program point of
/// the rules' function, every constraint's two terms are tracked (0 always is).
#[test]
fn the_fact_sets_hold_constraints_between_tracked_terms_only() {
    let module = common::module(RULES);
    let func = function(&module, "f");
    let tracked = Tracked::of(func, &CallKills::of(func, None));
    let cfg = Cfg::compute(func);
    let facts = FactAnalysis::compute(func, &cfg);
    let mut seen = 0;
    let mut check = |where_: &str, set: FactView<'_>| {
        for k in set.constraints() {
            seen += 1;
            assert!(
                tracked.term(k.a) && tracked.term(k.b),
                "{where_}: {} is about an untracked local",
                k.describe(func)
            );
        }
    };
    for &b in cfg.rpo() {
        let name = &func.blocks[b].name;
        let (Some(entry), Some(exit)) = (facts.block_in(b), facts.block_out(b)) else {
            // Only a sink (no instructions, no successors) has no state.
            assert!(
                func.blocks[b].insts.is_empty() && cfg.succs(b).is_empty(),
                "{name}"
            );
            continue;
        };
        check(&format!("entry of {name}"), entry);
        check(&format!("exit of {name}"), exit);
        facts.replay(func, b, |i, _, set| {
            check(&format!("{name}, instruction {i}"), set.view())
        });
    }
    assert!(
        seen > 0,
        "the analysis recorded nothing: the test would prove nothing"
    );
}

/// Divisors: `Tracked::of_divisors` starts from the divisor of each checked division, not
/// from the accesses; `Tracked::of` starts from both.
const DIVISORS: &str = r#"
fn f(v: vec<i64>, x: i64, y: i64, a: i64, i: i64) -> i64 {
    var d: i64
    var q: i64
    var r: i64
    var q2: i64
entry:
    d = add y, 1
    q = sdiv x, d
    ; an unchecked division (its divisor proved or vouched for) asks nothing
    q2 = udiv.unchecked x, a
    r = get v[i]
    ret q
}
"#;

#[test]
fn the_checks_track_the_divisors_and_the_divisor_tracker_only_them() {
    let module = common::module(DIVISORS);
    let func = function(&module, "f");
    // `div-check-elim`'s own analysis: the checked division's divisor and its definition.
    let divisors = Tracked::of_divisors(func);
    assert_eq!(tracked_names(func, &divisors), ["d", "y"]);
    // The check passes' analysis, which `div-check-prove` shares: the access and the divisor
    // (not the unchecked division's `a`).
    let checks = Tracked::of(func, &CallKills::of(func, None));
    assert_eq!(tracked_names(func, &checks), ["d", "i", "v", "y"]);
}

#[test]
fn the_all_tracker_tracks_every_term() {
    let all = Tracked::all();
    assert!(all.term(Term::value(Local::new(0))));
    assert!(all.term(Term::len(Local::new(7))));
}
