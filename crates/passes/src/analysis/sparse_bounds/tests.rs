//! Unit tests of the sparse prover: the decisions it makes on small functions.

use super::{decide, DivisorProof, SparseDecisions};
use crate::analysis::facts::CallKills;
use crate::analysis::{Cfg, DomTree};
use poolopt_ir::{InstKind, Module};

/// The first function of `src` and the prover's decisions for it.
fn decide_first(src: &str) -> (Module, SparseDecisions) {
    let module = poolopt_ir::parse(src).unwrap();
    let func = module.funcs.values().next().unwrap();
    let cfg = Cfg::compute(func);
    let dom = DomTree::compute(&cfg);
    let calls = CallKills::of(func, None);
    let decisions = decide(func, &cfg, &dom, &calls, true);
    (module, decisions)
}

/// Whether each checked operation is proved, in layout order.
fn checks(src: &str) -> Vec<bool> {
    let (module, d) = decide_first(src);
    let func = module.funcs.values().next().unwrap();
    let mut out = Vec::new();
    for &b in &func.layout {
        for &i in &func.blocks[b].insts {
            if let Some(&(_, _, ok)) = d.checks.iter().find(|&&(_, j, _)| j == i) {
                out.push(ok);
            }
        }
    }
    out
}

/// The prover's answer for each checked division by an `i64` local, in layout order.
fn divisions(src: &str) -> Vec<Option<DivisorProof>> {
    let (module, d) = decide_first(src);
    let func = module.funcs.values().next().unwrap();
    let mut out = Vec::new();
    for &b in &func.layout {
        for &i in &func.blocks[b].insts {
            if let Some(&(_, _, proof)) = d.divisions.iter().find(|&&(_, j, _)| j == i) {
                out.push(proof);
            }
        }
    }
    out
}

/// Whether each explicit check is decided, in layout order.
fn explicit(src: &str) -> Vec<bool> {
    let (module, d) = decide_first(src);
    let func = module.funcs.values().next().unwrap();
    func.layout
        .iter()
        .filter_map(|&b| d.explicit.iter().find(|&&(c, _)| c == b).map(|&(_, ok)| ok))
        .collect()
}

#[test]
fn a_guarded_pop_is_proved() {
    let src = "
fn f(v: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, reuse, other
reuse:
    x = pop v
    ret x
other:
    x = pop v
    ret x
}";
    assert_eq!(checks(src), vec![true, false]);
}

/// `for (i = 0; i CMP len(v); i++) s += v[i]`.
fn indexing_loop(cmp: &str) -> String {
    format!(
        "
fn f(v: vec<i64>) -> i64 {{
    var i: i64
    var n: i64
    var s: i64
    var x: i64
    var c: bool
entry:
    i = copy 0
    n = len v
    br head
head:
    c = {cmp} i, n
    brif c, body, exit
body:
    x = get v[i]
    s = add s, x
    i = add i, 1
    br head
exit:
    ret s
}}"
    )
}

#[test]
fn an_index_below_the_length_in_a_loop_is_proved() {
    assert_eq!(checks(&indexing_loop("slt")), vec![true]);
}

/// The near miss: `i <= len(v)` lets `i` reach the length.
#[test]
fn an_index_at_most_the_length_is_kept() {
    assert_eq!(checks(&indexing_loop("sle")), vec![false]);
}

/// A loop that pushes while it indexes: the length grows by one per iteration, the index by
/// one, and the bound was checked against the length read in the loop.
#[test]
fn a_loop_that_pushes_keeps_its_proof() {
    let src = "
fn f(v: vec<i64>, m: i64) -> i64 {
    var i: i64
    var n: i64
    var x: i64
    var c: bool
entry:
    br head
head:
    n = len v
    c = slt i, n
    brif c, body, exit
body:
    x = get v[i]
    push v, x
    i = add i, 1
    c = slt i, m
    brif c, head, exit
exit:
    ret i
}";
    assert_eq!(checks(src), vec![true]);
}

/// `x + 1` may wrap for `x >= 0` alone (`x = i64::MAX`), so `x + 1 > 0` is not proved; with
/// `x < 100` it cannot wrap.
#[test]
fn a_wrapping_add_proves_nothing() {
    let wrap = "
fn f(x: i64) -> i64 {
    var y: i64
    var c: bool
entry:
    c = sge x, 0
    brif c, pos, out
pos:
    y = add x, 1
    c = sgt y, 0
    brif c, out, bad
bad:
    trap \"overflow\"
out:
    ret x
}";
    assert_eq!(explicit(wrap), vec![false]);
    let bounded = wrap.replace(
        "    y = add x, 1",
        "    c = slt x, 100\n    brif c, small, out\nsmall:\n    y = add x, 1",
    );
    assert_eq!(explicit(&bounded), vec![true]);
}

/// A `pop` of a vec that may alias `v` (same type, both parameters) may empty it; one of
/// another type cannot; a `push` to an alias cannot shrink it.
#[test]
fn an_alias_pop_kills_the_guard_and_a_push_does_not() {
    let src = "
fn f(v: vec<i64>, w: vec<i64>, u: vec<i32>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, guarded, out
guarded:
    OP
    x = pop v
    ret x
out:
    ret 0
}";
    assert_eq!(checks(&src.replace("OP", "pop w")), vec![false, false]);
    assert_eq!(checks(&src.replace("OP", "pop u")), vec![false, true]);
    assert_eq!(checks(&src.replace("OP", "push w, 1")), vec![true]);
}

/// A call may change the length of a vec it is passed (no summary here): the guard is lost.
#[test]
fn a_call_kills_the_lengths_it_may_change() {
    let src = "
fn f(v: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, guarded, out
guarded:
    call g(v)
    x = pop v
    ret x
out:
    ret 0
}

fn g(v: vec<i64>) {
entry:
    ret
}";
    assert_eq!(checks(src), vec![false]);
}

/// The explicit check of a front end, `if i >= len(v) { trap }`, after `0 <= i` is known.
#[test]
fn an_explicit_check_is_decided() {
    let src = "
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    c = slt i, 0
    brif c, out, nonneg
nonneg:
    n = len v
    c = sge i, n
    brif c, bad, ok
bad:
    trap \"index\"
ok:
    n = len v
    c = sge i, n
    brif c, bad2, ok2
bad2:
    trap \"index\"
ok2:
    x = get v[i]
    ret x
out:
    ret 0
}";
    assert_eq!(explicit(src), vec![false, true]);
    assert_eq!(checks(src), vec![true]);
    // The instructions exist as described.
    let module = poolopt_ir::parse(src).unwrap();
    let func = module.funcs.values().next().unwrap();
    assert!(func
        .insts
        .values()
        .any(|d| matches!(d.kind, InstKind::VecGet { .. })));
}

/// An entry block that is also a loop header: the initial values (a local starts at 0) hold
/// only on the first entry, so `i == 0` is not decided there; the guard of a `pop` still
/// proves it on every iteration, and a second `pop` stays.
#[test]
fn an_entry_block_in_a_loop_merges_the_initial_values() {
    let src = "
fn f(v: vec<i64>, m: i64) -> i64 {
    var i: i64
    var n: i64
    var c: bool
    var x: i64
entry:
    c = sge i, 0
    brif c, ok, bad
bad:
    trap \"negative\"
ok:
    c = eq i, 0
    brif c, first, bad2
bad2:
    trap \"not first\"
first:
    n = len v
    c = sgt n, 0
    brif c, body, out
body:
    x = pop v
    x = pop v
    i = add i, 1
    c = slt i, m
    brif c, entry, out
out:
    ret i
}";
    assert_eq!(explicit(src), vec![true, false]);
    assert_eq!(checks(src), vec![true, false]);
}

/// A branch whose condition is false of constants is never taken: the block it guards never
/// runs, and its checks cannot fail (`v` is new and empty, so `len(v) > 0` is false).
#[test]
fn a_block_behind_a_branch_that_constants_decide_never_runs() {
    let src = "
fn f(w: vec<i64>) -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var x: i64
entry:
    v = new vec<i64>
    n = len v
    c = sgt n, 0
    brif c, never, other
never:
    x = pop v
    ret x
other:
    x = pop w
    ret x
}";
    assert_eq!(checks(src), vec![true, false]);
}

/// A branch on `not c` learns the negation of `c` on each side: only the side where `i < n`
/// holds may index (the near miss is the other side).
#[test]
fn a_negated_compare_learns_the_opposite_on_each_side() {
    let src = "
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var d: bool
    var g: bool
    var x: i64
entry:
    n = len v
    g = slt i, 0
    brif g, neg, nonneg
nonneg:
    c = slt i, n
    d = not c
    brif d, out, inside
out:
    x = get v[i]
    ret x
inside:
    x = get v[i]
    ret x
neg:
    ret 0
}";
    assert_eq!(checks(src), vec![false, true]);
}

/// A divisor guarded by `d > 0` is at least 1; on the other side it may be 0 (the near miss).
/// The destination may be the divisor: the query is about its value before.
#[test]
fn a_guarded_divisor_is_at_least_one() {
    let src = "
fn f(x: i64, d: i64) -> i64 {
    var q: i64
    var c: bool
entry:
    c = sgt d, 0
    brif c, pos, other
pos:
    q = sdiv x, d
    d = urem x, d
    ret d
other:
    q = udiv x, d
    ret q
}";
    use DivisorProof::AtLeastOne;
    assert_eq!(
        divisions(src),
        vec![Some(AtLeastOne), Some(AtLeastOne), None]
    );
}

/// A divisor at most -1 passes `urem`'s test (not 0) but not `sdiv`'s (`MIN / -1`): the
/// near miss; at most -2 passes both.
#[test]
fn a_negative_divisor_passes_sdiv_only_below_minus_one() {
    let src = "
fn f(x: i64, d: i64, e: i64) -> i64 {
    var q: i64
    var c: bool
entry:
    c = sle d, -1
    brif c, neg, out
neg:
    q = urem x, d
    q = sdiv x, d
    c = slt e, -1
    brif c, neg2, out
neg2:
    q = sdiv x, e
    q = srem x, e
    ret q
out:
    ret 0
}";
    use DivisorProof::AtMostUpper;
    assert_eq!(
        divisions(src),
        vec![
            Some(AtMostUpper),
            None,
            Some(AtMostUpper),
            Some(AtMostUpper)
        ]
    );
}

/// A divisor that is 5 or 7 where the paths merge is at least 1; one that is 5 on one path
/// and a parameter on the other is not (the near miss: bounded on one path only).
#[test]
fn a_divisor_bounded_on_every_path_is_proved_and_on_one_path_is_not() {
    let src = "
fn f(x: i64, p: i64, c: bool) -> i64 {
    var d: i64
    var e: i64
    var q: i64
entry:
    brif c, a, b
a:
    d = copy 5
    e = copy 5
    br join
b:
    d = copy 7
    e = copy p
    br join
join:
    q = sdiv x, d
    q = sdiv x, e
    ret q
}";
    assert_eq!(divisions(src), vec![Some(DivisorProof::AtLeastOne), None]);
}

/// A divisor that counts up from 1 in a loop stays at least 1 (ABCD's cycle rule); one that
/// counts down from 1 does not.
#[test]
fn a_loop_counter_from_one_is_a_divisor_that_passes() {
    let src = "
fn f(x: i64, n: i64) -> i64 {
    var i: i64
    var j: i64
    var q: i64
    var c: bool
entry:
    i = copy 1
    j = copy 1
    br head
head:
    c = slt i, n
    brif c, body, done
body:
    q = sdiv x, i
    q = sdiv x, j
    i = add i, 1
    j = sub j, 1
    br head
done:
    ret q
}";
    assert_eq!(divisions(src), vec![Some(DivisorProof::AtLeastOne), None]);
}

/// `half = n sdiv 2` with `half >= 1` gives `n >= 2` (a quotient witness); `half <= -1`
/// gives `n <= -2`, enough for `sdiv`. Near misses: `half >= 0` (n may be 0 or 1), and a
/// witness of `n` before it was reassigned.
#[test]
fn a_quotient_of_the_divisor_bounds_it() {
    let src = "
fn f(x: i64, n: i64) -> i64 {
    var half: i64
    var q: i64
    var c: bool
entry:
    half = sdiv n, 2
    c = sge half, 1
    brif c, pos, other
pos:
    q = srem x, n
    n = add n, -5
    q = srem x, n
    ret q
other:
    c = sle half, -1
    brif c, neg, zero
neg:
    q = sdiv x, n
    ret q
zero:
    c = sge half, 0
    brif c, nonneg, out
nonneg:
    q = udiv x, n
    ret q
out:
    ret 0
}";
    use poolopt_ir::EntityRef;
    // `half` is the third local (after the parameters).
    let w = |below, bound| {
        Some(DivisorProof::Quotient {
            q: poolopt_ir::Local::new(2),
            below,
            bound,
        })
    };
    assert_eq!(divisions(src), vec![w(false, 2), None, w(true, -2), None]);
}

/// `x - y` for `x < y`, `d = x - y <= -1` needs the distance `x <= y - 1` (the fact
/// analysis's `sub_ordered_upper`); with both operands in 0..=100 the subtraction cannot wrap.
fn distance(bounds: &str, order: &str) -> String {
    format!(
        "
fn f(x: i64, y: i64) -> i64 {{
    var d: i64
    var g: bool
    var c: bool
entry:
{bounds}
    g = {order} x, y
    brif g, sub, out
sub:
    d = sub x, y
    c = sgt d, -1
    brif c, fail, ok
fail:
    trap \"sgt d, -1\"
ok:
    c = slt d, -100
    brif c, fail, ok2
ok2:
    ret d
out:
    ret -1
}}"
    )
}

/// Both bounds of `x - y`, from the distance between `x` and `y` (`x < y`: `d <= -1`) and
/// from their bounds (`d >= -100`).
#[test]
fn a_distance_between_two_locals_bounds_their_difference() {
    let bounded = "    g = sge x, 0
    brif g, g1, out
g1:
    g = sle x, 100
    brif g, g2, out
g2:
    g = sge y, 0
    brif g, g3, out
g3:
    g = sle y, 100
    brif g, g4, out
g4:";
    assert_eq!(explicit(&distance(bounded, "slt")), vec![true, true]);
    // The near misses: `x <= y` gives only `d <= 0`; unbounded operands may wrap
    // (`MIN - 1` is `MAX`).
    assert_eq!(explicit(&distance(bounded, "sle")), vec![false, true]);
    assert_eq!(explicit(&distance("", "slt")), vec![false, false]);
}

/// A branch on a `bool` already tested on the edge into its block: `k < 2` holds there (the
/// compare follows the π of `k`), so the edge where `k >= 2` is never taken and its block's
/// checks (a pop, a division, an explicit check) cannot fail. The near misses: the edge that
/// can be taken (`then`) and the loop's exit, whose checks stay.
#[test]
fn an_edge_refuted_by_a_dominating_branch_never_runs() {
    let src = "
fn f(v: vec<i64>, w: vec<i64>, k: i64, d: i64) -> i64 {
    var c: bool
    var e: bool
    var x: i64
entry:
    c = slt k, 2
    brif c, body, exit
body:
    brif c, then, else
then:
    x = get v[k]
    ret x
else:
    x = pop w
    x = sdiv x, d
    e = slt x, 0
    brif e, bad, ok
bad:
    trap \"negative\"
ok:
    ret x
exit:
    x = pop w
    ret x
}";
    assert_eq!(checks(src), vec![false, true, false]);
    assert_eq!(divisions(src), vec![Some(DivisorProof::NeverRuns)]);
    assert_eq!(explicit(src), vec![true]);
}

/// The same with the local on the right of the compare (`1 < k`): the second branch reads
/// `k` as the π copy the first one made, whichever side of the compare it is on. The near
/// misses are the same: the side that can be taken and the loop's exit.
#[test]
fn an_edge_refuted_through_the_right_operand_never_runs() {
    let src = "
fn f(v: vec<i64>, w: vec<i64>, k: i64) -> i64 {
    var c: bool
    var x: i64
entry:
    c = slt 1, k
    brif c, body, exit
body:
    brif c, then, else
then:
    x = get v[k]
    ret x
else:
    x = pop w
    ret x
exit:
    x = pop w
    ret x
}";
    assert_eq!(checks(src), vec![false, true, false]);
}

/// `len(v)` is exactly 1 after one push onto a new vec: the edge where `len(v) >= 4` is never
/// taken, so `v[1]` behind it cannot fail, nor in a block that edge's target dominates
/// (`inner`). The near misses: the other side, and a block (`join`) that the refuted edge's
/// target reaches but another, feasible, edge does too.
#[test]
fn a_block_behind_a_refuted_edge_never_runs_and_a_merge_does() {
    let src = "
fn f(p: bool) -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var x: i64
entry:
    v = new vec<i64>
    push v, 7
    n = len v
    c = sge n, 4
    brif c, never, other
never:
    x = get v[1]
    brif p, inner, join
inner:
    x = get v[2]
    br join
other:
    x = get v[1]
    br join
join:
    x = get v[1]
    ret x
}";
    assert_eq!(checks(src), vec![true, true, false, false]);
}

/// A condition refuted on one path to the branch only (`k` is 1 or 5 where `k >= 4` is
/// asked) decides nothing: both sides may run.
#[test]
fn a_condition_refuted_on_one_path_only_decides_nothing() {
    let src = "
fn f(v: vec<i64>, p: bool) -> i64 {
    var k: i64
    var c: bool
    var x: i64
entry:
    brif p, a, b
a:
    k = copy 1
    br m
b:
    k = copy 5
    br m
m:
    c = sge k, 4
    brif c, hi, lo
hi:
    x = get v[k]
    ret x
lo:
    x = get v[k]
    ret x
}";
    assert_eq!(checks(src), vec![false, false]);
}
