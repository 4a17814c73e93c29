//! The inliner's hard cap: no caller grows beyond `HARD_CAP` instructions, even through
//! callees small enough to be inlined everywhere.

mod common;

use common::{opt, remarks};
use poolopt_passes::passes::inline::{HARD_CAP, SMALL};
use poolopt_passes::RemarkKind;

/// `main` calls a callee of exactly `SMALL` instructions `calls` times in one block.
fn many_small_calls(calls: usize) -> String {
    let mut src = String::from("fn f(x: i64) -> i64 {\n    var t: i64\nentry:\n    t = copy x\n");
    // `copy`, the adds and `ret`: SMALL instructions in all.
    for k in 0..SMALL - 2 {
        src.push_str(&format!("    t = add t, {}\n", k + 1));
    }
    src.push_str(
        "    ret t\n}\n\nfn main(n: i64) -> i64 {\n    var s: i64\nentry:\n    s = copy n\n",
    );
    for _ in 0..calls {
        src.push_str("    s = call f(s)\n");
    }
    src.push_str("    ret s\n}\n");
    src
}

#[test]
fn small_callees_stop_at_the_hard_cap() {
    // 1,299 calls: the caller has 1,301 instructions, and each inlined call adds the body and
    // the parameter copy (SMALL + 1 = 17). After 1,099 of them it has 1,301 + 1,099 * 17 =
    // 19,984, and the next would make it exactly HARD_CAP = 20,000, which is allowed; after
    // that one, the next would pass the cap, so 1,100 are inlined and the other 199 stay.
    assert_eq!(
        (SMALL, HARD_CAP),
        (16, 20_000),
        "the arithmetic below assumes these"
    );
    let (module, report) = opt(&many_small_calls(1299), &["inline"], &[("main", &[3])]);
    assert_eq!(report.stats.get("inline", "calls_inlined"), 1100);
    assert_eq!(report.stats.get("inline", "calls_kept"), 199);
    let kept = remarks(&report, RemarkKind::Missed);
    assert_eq!(kept.len(), 199);
    assert!(
        kept.iter()
            .all(|m| m.ends_with("kept: the caller would exceed 20000 instructions")),
        "{:?}",
        kept.first()
    );
    // Every inlined body is one block ending in its one `ret`: the inliner merges each splice
    // back into the block it was cut from, so `main` is one block again.
    let main = &module.funcs[module.func_by_name("main").expect("main")];
    assert_eq!(main.layout.len(), 1);
}

/// `main` calls a callee with two `ret`s (so its continuation has two predecessors and stays a
/// block of its own) `calls` times in one block.
fn many_branching_calls(calls: usize) -> String {
    let mut src = String::from(
        "fn g(x: i64) -> i64 {\n    var c: bool\nentry:\n    c = slt x, 0\n    brif c, neg, pos\nneg:\n    ret 0\npos:\n    ret x\n}\n\nfn main(n: i64) -> i64 {\n    var s: i64\nentry:\n    s = copy n\n",
    );
    for _ in 0..calls {
        src.push_str("    s = call g(s)\n");
    }
    src.push_str("    ret s\n}\n");
    src
}

#[test]
fn continuation_names_do_not_grow_with_the_calls_before_them() {
    // Continuations are named after the block the calls were written in (`entry_after_g`,
    // `entry_after_g_2`, ...), not after the previous continuation: no name grows with the
    // number of calls before it.
    let (module, report) = opt(&many_branching_calls(30), &["inline"], &[("main", &[3])]);
    assert_eq!(report.stats.get("inline", "calls_inlined"), 30);
    let main = &module.funcs[module.func_by_name("main").expect("main")];
    let longest = main.layout.iter().map(|&b| main.blocks[b].name.len()).max();
    assert_eq!(longest, Some("entry_after_g_30".len()));
}
