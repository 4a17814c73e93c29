//! The inliner's hard cap: no caller grows beyond `HARD_CAP` instructions, even through
//! callees small enough to be inlined everywhere; the unit's budget: the functions optimized
//! together grow by at most `UnitBudget`'s limit in all; and how copies are laid out: a
//! one-block callee in place of its call, any other one as blocks of its own.

mod common;

use common::{opt, remarks};
use poolopt_ir::Module;
use poolopt_passes::passes::inline::{HARD_CAP, SMALL};
use poolopt_passes::unit_budget::{UNIT_GROWTH, UNIT_MIN_BUDGET};
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
    // Every inlined body is one block ending in its one `ret`: the inliner splices each copy
    // into the block the call was in, so `main` stays one block.
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

/// A caller that calls the one-block `plus` twice between other instructions, and `twice`
/// (one block as well) whose own call of the `noinline` `leaf` must stay a call.
const SPLICED: &str = "noinline fn leaf(x: i64) -> i64 {
    var t: i64
entry:
    t = mul x, 3
    ret t
}

fn plus(a: i64, b: i64) -> i64 {
    var t: i64
entry:
    t = add a, b
    ret t
}

fn twice(x: i64) -> i64 {
    var t: i64
    var u: i64
entry:
    t = call leaf(x)
    u = add t, t
    ret u
}

fn main(n: i64) -> i64 {
    var s: i64
    var r: i64
entry:
    s = mul n, 2
    s = call plus(s, 1)
    r = sub s, n
    r = call plus(r, s)
    r = call twice(r)
    ret r
}
";

#[test]
fn a_one_block_callee_is_spliced_in_place_of_its_call() {
    let (module, report) = opt(SPLICED, &["inline"], &[("main", &[5]), ("main", &[-7])]);
    // `plus` twice and `twice` (bottom-up, `twice` has no inlinable call: `leaf` is noinline).
    assert_eq!(report.stats.get("inline", "calls_inlined"), 3);
    // No block was added, so none was merged away.
    assert_eq!(report.stats.get("inline", "blocks_merged"), 0);
    assert_eq!(
        common::func(&module, "main"),
        "fn main(n: i64) -> i64 {
    var s: i64
    var r: i64
    var plus_b: i64
    var plus_t: i64
    var plus_t_2: i64
    var twice_t: i64
    var twice_u: i64
entry:
    s = mul n, 2
    plus_b = copy 1
    plus_t = add s, plus_b
    s = copy plus_t
    r = sub s, n
    plus_t_2 = add r, s
    r = copy plus_t_2
    twice_t = call leaf(r)
    twice_u = add twice_t, twice_t
    r = copy twice_u
    ret r
}
"
    );
    // The remarks name the block the call is in, which is the block it stays in.
    let applied = remarks(&report, RemarkKind::Applied);
    assert_eq!(applied.len(), 3, "{applied:?}");
    assert!(applied.iter().all(|m| m.contains("inlined")), "{applied:?}");
    let blocks: Vec<&str> = report
        .remarks
        .iter()
        .filter(|r| r.kind == RemarkKind::Applied)
        .map(|r| r.block.as_str())
        .collect();
    assert_eq!(blocks, ["entry", "entry", "entry"]);
}

#[test]
fn a_callee_that_does_not_return_from_its_one_block_gets_blocks_of_its_own() {
    // Near miss of the splice: one block, but it ends in `trap`, so there is no `ret` to
    // continue after; the copy is laid out as a block, and the continuation that would hold
    // the code after the call has no way in: the inliner drops it (the verifier, which runs
    // after every pass here, refuses an unreachable block).
    let src = "fn fail(x: i64) -> i64 {
entry:
    trap \"always\"
}

fn main(n: i64) -> i64 {
    var s: i64
    var c: bool
entry:
    c = slt n, 0
    brif c, bad, good
bad:
    s = call fail(n)
    ret s
good:
    ret n
}
";
    let (module, report) = opt(src, &["inline"], &[("main", &[1]), ("main", &[-1])]);
    assert_eq!(report.stats.get("inline", "calls_inlined"), 1);
    let main = common::func(&module, "main");
    assert!(main.contains("bad:\n    trap \"always\"\ngood:"), "{main}");
    assert!(!main.contains("bad_after_fail"), "{main}");
    let applied = remarks(&report, RemarkKind::Applied);
    assert!(
        applied.contains(&"unreachable block `bad_after_fail` removed".to_string()),
        "{applied:?}"
    );
}

/// `f0` calls `f1` calls ... `f<n-1>`, each adding one to its argument.
fn call_chain(n: usize) -> String {
    let mut src = String::new();
    for i in 0..n {
        if i + 1 == n {
            src.push_str(&format!(
                "fn f{i}(x: i64) -> i64 {{\n    var t: i64\nentry:\n    t = add x, 1\n    ret t\n}}\n\n"
            ));
        } else {
            src.push_str(&format!(
                "fn f{i}(x: i64) -> i64 {{\n    var t: i64\n    var u: i64\nentry:\n    t = add x, 1\n    u = call f{}(t)\n    ret u\n}}\n\n",
                i + 1
            ));
        }
    }
    src
}

/// Instructions and terminators of every function of `m`.
fn module_size(m: &Module) -> usize {
    m.funcs.values().map(|f| f.inst_count()).sum()
}

#[test]
fn a_chain_of_callers_stops_at_the_unit_budget() {
    // Every caller inlines its callee, which has already inlined its own: without a unit
    // budget each of the 900 functions grows to the medium-size limit (about 80 instructions
    // each on average, 70,000 in all). With it, the module grows by at most the budget's
    // floor (its 2,699 instructions are far below it), and the calls past it stay.
    assert_eq!(UNIT_GROWTH, 1, "the arithmetic below assumes it");
    let src = call_chain(900);
    let before = module_size(&common::module(&src));
    assert_eq!(before, 3 * 899 + 2);
    let (module, report) = opt(&src, &["inline"], &[("f0", &[5])]);
    let after = module_size(&module);
    assert!(after <= before + UNIT_MIN_BUDGET, "{after}");
    // The budget counts each copy as the callee's size plus one (the call), a little more
    // than the copy adds once the call and the jumps around it are gone, so the module ends
    // somewhat below it.
    assert!(after > before + UNIT_MIN_BUDGET * 9 / 10, "{after}");
    // The bottom of the chain (optimized first) spends the budget; the callers above it
    // keep their calls with the unit's reason, the others where the callee grew too large.
    let kept = remarks(&report, RemarkKind::Missed);
    let unit = format!(
        "kept: the module's inlining budget is spent ({UNIT_MIN_BUDGET} instructions added)"
    );
    let by_unit = kept.iter().filter(|m| m.ends_with(&unit)).count();
    assert!(by_unit > 500, "{by_unit} of {kept:?}");
    assert!(
        kept.iter()
            .all(|m| m.ends_with(&unit) || m.contains("too large")),
        "{kept:?}"
    );
    assert!(kept.contains(&format!("call of `f1` {unit}")), "{kept:?}");
    // The accounting: each copy spends its callee's size plus one, and the copies made spent
    // no more than the budget; every call kept for the unit's sake had a callee too large for
    // what was left (at least the budget minus all that was spent).
    let spent: usize = remarks(&report, RemarkKind::Applied)
        .iter()
        .filter_map(|m| {
            let size = m.split_once("inlined (")?.1.split_once(" instructions")?.0;
            Some(size.parse::<usize>().expect("a size") + 1)
        })
        .sum();
    assert!(spent <= UNIT_MIN_BUDGET, "{spent}");
    for m in kept.iter().filter(|m| m.ends_with(&unit)) {
        let callee = m.split('`').nth(1).expect("a callee name");
        let size = module.funcs[module.func_by_name(callee).expect("callee")].inst_count();
        assert!(size + 1 > UNIT_MIN_BUDGET - spent, "{m}: {size} of {spent}");
    }
}

#[test]
fn a_chain_within_the_unit_budget_is_inlined_as_before() {
    // Near miss: 100 functions grow by far less than the budget's floor, so every call the
    // per-caller rules allow is inlined and no remark mentions the unit.
    let (_, report) = opt(&call_chain(100), &["inline"], &[("f0", &[5])]);
    let kept = remarks(&report, RemarkKind::Missed);
    assert!(
        kept.iter().all(|m| !m.contains("inlining budget")),
        "{kept:?}"
    );
    let inlined = report.stats.get("inline", "calls_inlined");
    let calls_kept = report.stats.get("inline", "calls_kept");
    assert_eq!(inlined + calls_kept, 99);
    assert_eq!(calls_kept, kept.len() as u64);
    // The kept ones are the per-caller rule's: a callee that grew past the medium limit.
    assert!(kept.iter().all(|m| m.contains("too large")), "{kept:?}");
    assert!(inlined > 70, "{inlined}");
}
