//! The lowering's own SSA construction (`crates/jit/src/ssa.rs`): locals assigned in more than
//! one place, across diamonds, loops, nested loops, irreducible control flow, reads that can
//! see a local's initial zero, and blocks nothing branches to. Each program runs in the
//! interpreter and in the JIT at both Cranelift levels (whose verifier, on in debug builds,
//! checks every use against its definition and every branch against its target's
//! parameters), and the results must agree.

mod common;

use poolopt_ir::{RunLimits, TrapKind};

fn agree(src: &str, args: &[i64]) -> Result<i64, (TrapKind, String)> {
    let m = poolopt_ir::parse(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    common::agree(&m, "main", args, &RunLimits::default())
}

/// The CLIF of `src`'s functions before Cranelift's optimizations.
fn clif(src: &str) -> String {
    let m = poolopt_ir::parse(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    poolopt_jit::emit::emit_clif(&m, poolopt_jit::ClOpt::None).unwrap()
}

#[test]
fn a_diamond_joins_two_assignments() {
    let src = "fn main(n: i64) -> i64 {\n    var x: i64\n    var t: bool\n\
         entry:\n    x = add n, 1\n    t = slt n, 5\n    brif t, small, join\n\
         small:\n    x = add n, 2\n    br join\n\
         join:\n    x = mul x, 3\n    ret x\n}\n";
    assert_eq!(agree(src, &[2]), Ok(12));
    assert_eq!(agree(src, &[9]), Ok(30));
}

#[test]
fn a_loop_counter_and_accumulator() {
    let src = "fn main(n: i64) -> i64 {\n    var i: i64\n    var s: i64\n    var t: bool\n\
         entry:\n    br head\n\
         head:\n    t = slt i, n\n    brif t, body, done\n\
         body:\n    s = add s, i\n    i = add i, 1\n    br head\n\
         done:\n    ret s\n}\n";
    assert_eq!(agree(src, &[0]), Ok(0));
    assert_eq!(agree(src, &[10]), Ok(45));
}

#[test]
fn nested_loops_with_a_local_assigned_only_in_the_outer_one() {
    let src = "fn main(n: i64) -> i64 {\n    var i: i64\n    var j: i64\n    var s: i64\n\
         \x20   var k: i64\n    var t: bool\n\
         entry:\n    br outer\n\
         outer:\n    t = slt i, n\n    brif t, start, done\n\
         start:\n    j = copy 0\n    k = mul i, 100\n    br inner\n\
         inner:\n    t = slt j, i\n    brif t, step, next\n\
         step:\n    s = add s, k\n    s = add s, j\n    j = add j, 1\n    br inner\n\
         next:\n    i = add i, 1\n    br outer\n\
         done:\n    ret s\n}\n";
    // s = sum over i < n, j < i of (100 i + j).
    let expect = |n: i64| -> i64 { (0..n).flat_map(|i| (0..i).map(move |j| 100 * i + j)).sum() };
    for n in [0, 1, 4, 7] {
        assert_eq!(agree(src, &[n]), Ok(expect(n)), "n = {n}");
    }
}

#[test]
fn a_read_of_a_local_never_assigned_on_some_path_sees_zero() {
    let src = "fn main(n: i64) -> i64 {\n    var x: i64\n    var t: bool\n\
         entry:\n    t = slt n, 5\n    brif t, small, join\n\
         small:\n    x = add n, 2\n    br join\n\
         join:\n    x = add x, 1\n    ret x\n}\n";
    assert_eq!(agree(src, &[2]), Ok(5));
    assert_eq!(agree(src, &[9]), Ok(1));
}

#[test]
fn a_local_never_assigned_anywhere_is_zero_made_once_at_the_top_of_the_entry() {
    let src = "fn main(n: i64) -> i64 {\n    var x: i64\n    var s: i64\n    var t: bool\n\
         entry:\n    br head\n\
         head:\n    s = add s, x\n    s = add s, 1\n    t = slt s, n\n    brif t, head, done\n\
         done:\n    ret s\n}\n";
    assert_eq!(agree(src, &[5]), Ok(5));
    let text = clif(src);
    // One zero for `x` and one for `s`, both at the top of the entry block, and only `s`
    // is a parameter of the loop header.
    let entry = text.split("block0").nth(1).unwrap();
    assert_eq!(
        entry
            .lines()
            .take_while(|l| !l.contains("jump"))
            .filter(|l| l.contains("iconst.i64 0"))
            .count(),
        2,
        "{text}"
    );
    let header: Vec<&str> = text.lines().filter(|l| l.starts_with("block1(")).collect();
    assert_eq!(header.len(), 1, "{text}");
    assert_eq!(header[0].matches(": i64").count(), 1, "{text}");
}

#[test]
fn irreducible_control_flow() {
    // Two blocks that branch to each other, each entered from the entry.
    let src = "fn main(n: i64) -> i64 {\n    var x: i64\n    var c: i64\n    var t: bool\n\
         entry:\n    t = slt n, 3\n    brif t, a, b\n\
         a:\n    x = add x, 1\n    c = add c, 1\n    t = slt c, 6\n    brif t, b, done\n\
         b:\n    x = mul x, 2\n    c = add c, 1\n    t = slt c, 6\n    brif t, a, done\n\
         done:\n    ret x\n}\n";
    assert_eq!(agree(src, &[1]), Ok(14));
    assert_eq!(agree(src, &[5]), Ok(7));
}

/// (Unreachable blocks are not valid IR, see below; the lowering still takes them.)
#[test]
fn a_block_nothing_branches_to_reads_zero() {
    let src = "fn main(n: i64) -> i64 {\n    var x: i64\n    var t: bool\n\
         entry:\n    x = add n, 1\n    t = slt n, 5\n    brif t, a, b\n\
         a:\n    x = add x, 1\n    br b\n\
         dead:\n    x = add x, 7\n    br b\n\
         b:\n    ret x\n}\n";
    assert_eq!(agree(src, &[2]), Ok(4));
    assert_eq!(agree(src, &[9]), Ok(10));
}

/// Blocks nothing branches to are sealed at the end: a read there is a zero made at the top
/// of the block, not a parameter no branch ever passes. (Unreachable blocks are not valid IR.)
#[test]
fn a_read_in_a_block_nothing_branches_to_is_a_zero_not_a_parameter() {
    let src = "fn main(n: i64) -> i64 {\n    var x: i64\n    var t: bool\n\
         entry:\n    t = slt n, 5\n    brif t, a, b\n\
         a:\n    x = add n, 1\n    br b\n\
         dead:\n    x = add x, 7\n    br b\n\
         b:\n    ret x\n}\n";
    assert_eq!(agree(src, &[2]), Ok(3));
    assert_eq!(agree(src, &[9]), Ok(0));
    let text = clif(src);
    // Apart from the entry block (the function's parameters) and the cold trap blocks, only
    // the join `b` has a parameter: `x`.
    let with_params: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("block") && l.contains('(') && !l.starts_with("block0("))
        .filter(|l| !l.ends_with("cold:"))
        .collect();
    assert_eq!(with_params.len(), 1, "{text}");
    assert_eq!(with_params[0].matches(": i64").count(), 1, "{text}");
}

#[test]
fn a_loop_header_laid_out_after_its_body() {
    // The body comes before the header in the layout: its reads are lowered while the
    // header is not yet sealed.
    let src = "fn main(n: i64) -> i64 {\n    var i: i64\n    var s: i64\n    var t: bool\n\
         entry:\n    br head\n\
         body:\n    s = add s, i\n    i = add i, 1\n    br head\n\
         head:\n    t = slt i, n\n    brif t, body, done\n\
         done:\n    ret s\n}\n";
    assert_eq!(agree(src, &[6]), Ok(15));
}

#[test]
fn a_loop_back_to_the_entry_block() {
    // The entry block is a loop header: the prologue runs in a start block of its own.
    let src = "fn main(n: i64) -> i64 {\n    var i: i64\n    var t: bool\n\
         entry:\n    i = add i, 3\n    t = slt i, n\n    brif t, entry, done\n\
         done:\n    ret i\n}\n";
    assert_eq!(agree(src, &[10]), Ok(12));
    assert_eq!(agree(src, &[1]), Ok(3));
}

#[test]
fn a_parameter_reassigned_in_a_loop() {
    let src = "fn main(n: i64, m: i64) -> i64 {\n    var t: bool\n\
         entry:\n    br head\n\
         head:\n    t = sgt n, 0\n    brif t, body, done\n\
         body:\n    m = mul m, 2\n    n = sub n, 1\n    br head\n\
         done:\n    ret m\n}\n";
    assert_eq!(agree(src, &[5, 3]), Ok(96));
}

#[test]
fn a_read_whose_walk_runs_around_an_unreachable_cycle() {
    // `a` and `b` branch only to each other (no path from the entry reaches them) and
    // `after` is entered from `a` alone: its read walks after -> a -> b -> a. The IR verifier
    // rejects unreachable blocks; the lowering must still take them without panicking.
    let src = "fn main(n: i64) -> i64 {\n    var x: i64\n    var y: i64\n    var t: bool\n\
         entry:\n    x = add n, 1\n    ret x\n\
         a:\n    y = udiv n, 3\n    t = slt y, 0\n    brif t, b, after\n\
         b:\n    br a\n\
         after:\n    x = add x, 1\n    ret x\n}\n";
    assert_eq!(agree(src, &[5]), Ok(6));
}

/// One SSA predecessor per branch, even when both of a `brif`'s targets are the join: the
/// join's parameter then gets its argument on both edges.
#[test]
fn a_brif_with_both_targets_the_join_passes_the_value_on_both() {
    let src = "fn main(n: i64) -> i64 {\n    var x: i64\n    var t: bool\n\
         entry:\n    x = add n, 1\n    t = slt n, 5\n    brif t, a, join\n\
         a:\n    x = mul x, 3\n    t = slt n, 2\n    brif t, join, join\n\
         join:\n    x = add x, 1\n    ret x\n}\n";
    assert_eq!(agree(src, &[1]), Ok(7));
    assert_eq!(agree(src, &[3]), Ok(13));
    assert_eq!(agree(src, &[9]), Ok(11));
    let text = clif(src);
    let both = text
        .lines()
        .filter(|l| l.trim_start().starts_with("brif") && l.matches("(v").count() == 2)
        .count();
    assert_eq!(both, 1, "{text}");
}

/// A block is sealed as soon as the last branch into it is emitted, so a read there walks
/// straight to its predecessor's value: no placeholder parameter is made and aliased away
/// later (an alias `vN -> vM` in the CLIF would show one).
#[test]
fn a_read_after_every_branch_in_is_emitted_makes_no_placeholder() {
    let src = "fn main(n: i64) -> i64 {\n    var x: i64\n    var t: bool\n\
         entry:\n    x = add n, 1\n    t = slt n, 5\n    brif t, a, b\n\
         a:\n    x = add x, 2\n    ret x\n\
         b:\n    x = mul x, 3\n    ret x\n}\n";
    assert_eq!(agree(src, &[2]), Ok(5));
    assert_eq!(agree(src, &[9]), Ok(30));
    let text = clif(src);
    let alias = |l: &str| {
        let l = l.trim();
        l.starts_with('v') && l.contains(" -> v") && !l.contains('=')
    };
    assert!(!text.lines().any(alias), "{text}");
}
