//! Which vec locals may hold the same vec (`CallKills::may_alias`) and which no other local
//! may alias (`CallKills::alone`), asked directly.
//!
//! `alone` is a shortcut: a `push v` on a vec no other local may hold shifts only `len(v)`,
//! without asking `may_alias` for every length in the fact set. A wrong `false` costs time
//! only (the slow path asks `may_alias` and finds nothing), so the pass tests' decisions cannot
//! see it; a wrong `true` would be unsound. Both directions are checked here.

mod common;

use poolopt_ir::Function;
use poolopt_passes::analysis::facts::CallKills;

const VECS: &str = r#"
fn f(p: vec<i64>, k: i64) -> i64 {
    var a: vec<i32>
    var b: vec<i32>
    var c: vec<i32>
    var d: vec<i64>
    var e: vec<i16>
    var g: vec<i16>
    var h: vec<i8>
    var t: bool
entry:
    ; one `new`, no copy, in a type where every local's sites are known: alone
    a = new vec<i32>
    ; one `new` that two locals hold (`c = copy b`): neither is alone, they alias
    b = new vec<i32>
    c = copy b
    ; one `new`, but a parameter of the same type may be anything: not alone
    d = new vec<i64>
    ; `e` from two `new`s (several sites), `g` from a third: disjoint, but `g` is not alone
    ; (its type has a local with several sites)
    t = slt k, 0
    brif t, one, two
one:
    e = new vec<i16>
    br join
two:
    e = new vec<i16>
    br join
join:
    g = new vec<i16>
    ; the only local of its type, one `new`: alone
    h = new vec<i8>
    ret k
}
"#;

/// The program's one function and its `CallKills`.
fn vecs() -> (Function, CallKills) {
    let module = common::module(VECS);
    let func = module.funcs.values().next().unwrap().clone();
    let kills = CallKills::of(&func, None);
    (func, kills)
}

fn local(func: &Function, name: &str) -> poolopt_ir::Local {
    func.local_by_name(name)
        .unwrap_or_else(|| panic!("no local {name}"))
}

#[test]
fn a_vec_is_alone_only_when_no_other_local_may_hold_it() {
    let (func, kills) = vecs();
    let func = &func;
    let mut alone: Vec<&str> = ["p", "a", "b", "c", "d", "e", "g", "h"]
        .into_iter()
        .filter(|name| kills.alone(local(func, name)))
        .collect();
    alone.sort();
    assert_eq!(alone, ["a", "h"]);
    // Not a vec: never alone.
    assert!(!kills.alone(local(func, "k")));
}

#[test]
fn may_alias_follows_types_and_sites() {
    let (func, kills) = vecs();
    let func = &func;
    let may = |v: &str, w: &str| kills.may_alias(func, local(func, v), local(func, w));
    let cases = [
        ("a", "a", true),
        ("a", "b", false),
        ("b", "c", true),
        ("c", "b", true),
        ("a", "c", false),
        ("d", "p", true),
        ("p", "d", true),
        ("a", "d", false),
        ("e", "g", false),
        ("g", "e", false),
        ("e", "e", true),
        ("h", "a", false),
    ];
    for (v, w, expected) in cases {
        assert_eq!(may(v, w), expected, "may_alias({v}, {w})");
    }
    // Every local alone is aliased by no other vec local.
    for v in ["a", "h"] {
        for w in ["p", "a", "b", "c", "d", "e", "g", "h"] {
            if v != w {
                assert!(!may(v, w), "{v} is alone but may alias {w}");
            }
        }
    }
}
