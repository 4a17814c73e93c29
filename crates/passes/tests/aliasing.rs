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
    var e2: vec<i16>
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
    ; a copy of a local with several sites: they alias (their site sets overlap)
    e2 = copy e
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
    let mut alone: Vec<&str> = ["p", "a", "b", "c", "d", "e", "g", "h", "e2"]
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
        ("e", "e2", true),
        ("e2", "e", true),
        ("e2", "g", false),
    ];
    for (v, w, expected) in cases {
        assert_eq!(may(v, w), expected, "may_alias({v}, {w})");
    }
    // Every local alone is aliased by no other vec local.
    for v in ["a", "h"] {
        for w in ["p", "a", "b", "c", "d", "e", "g", "h", "e2"] {
            if v != w {
                assert!(!may(v, w), "{v} is alone but may alias {w}");
            }
        }
    }
}

/// `f` with `a1 = copy a2`, ..., `a{n-1} = copy a{n}`, then `a{n} = new`, and `z = new` of
/// the same type: each round of the site propagation (in layout order) carries `a{n}`'s site
/// one copy further back.
fn copy_chain(n: usize) -> Function {
    let mut src = String::from("fn f() -> i64 {\n");
    for k in 1..=n {
        src += &format!("    var a{k}: vec<i32>\n");
    }
    src += "    var z: vec<i32>\nentry:\n";
    for k in 1..n {
        src += &format!("    a{k} = copy a{}\n", k + 1);
    }
    src += &format!("    a{n} = new vec<i32>\n    z = new vec<i32>\n    ret 0\n}}\n");
    common::module(&src).funcs.values().next().unwrap().clone()
}

/// The site propagation gives up after a bounded number of rounds: then every site is
/// unknown, and every two vecs of one type may alias (sound, only weaker).
#[test]
fn site_propagation_gives_up_after_its_round_bound() {
    let knows = |n: usize| {
        let func = copy_chain(n);
        let kills = CallKills::of(&func, None);
        let (a1, z) = (local(&func, "a1"), local(&func, "z"));
        !kills.may_alias(&func, a1, z)
    };
    // 63 propagation rounds and the round that finds nothing new: within the bound of 64.
    assert!(knows(63));
    assert!(!knows(64));
    assert!(!knows(100));
}

/// Past 16 sites, a local's sites count as unknown.
#[test]
fn sixteen_sites_are_known_and_seventeen_are_not() {
    let with_sites = |n: usize| {
        let mut src =
            String::from("fn f() -> i64 {\n    var e: vec<i16>\n    var z: vec<i16>\nentry:\n");
        for _ in 0..n {
            src += "    e = new vec<i16>\n";
        }
        src += "    z = new vec<i16>\n    ret 0\n}\n";
        let func = common::module(&src).funcs.values().next().unwrap().clone();
        let kills = CallKills::of(&func, None);
        kills.may_alias(&func, local(&func, "e"), local(&func, "z"))
    };
    assert!(!with_sites(16));
    assert!(with_sites(17));
}
