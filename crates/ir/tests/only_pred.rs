//! `Cfg::only_pred`: the block every execution of a block comes from.

use poolopt_ir::cfg::Cfg;
use poolopt_ir::parse;

#[test]
fn the_entry_and_merges_have_no_only_predecessor() {
    // `entry` has one CFG predecessor (`back`), but the function's start enters it too;
    // `c` merges two edges; `no` and `back` are entered from one block each; `out` from two.
    let src = "fn main(n: i64) -> i64 {
    var t: bool
    var u: bool
    var k: i64
entry:
    k = add k, 1
    u = slt k, 2
    brif u, c, side
side:
    br c
c:
    brif t, yes, no
yes:
    ret k
no:
    t = slt k, n
    brif t, back, out
back:
    brif t, entry, out
out:
    ret 0
}";
    assert_only_preds(
        src,
        &[
            ("entry", None),
            ("side", Some("entry")),
            ("c", None),
            ("yes", Some("c")),
            ("no", Some("c")),
            ("back", Some("no")),
            ("out", None),
        ],
    );
}

#[test]
fn an_unreachable_block_has_no_only_predecessor() {
    // `dead2`'s only predecessor is `dead1`, but neither runs; `live` is entered from the
    // entry only.
    let src = "fn main(n: i64) -> i64 {
entry:
    br live
live:
    ret n
dead1:
    br dead2
dead2:
    ret 0
}";
    assert_only_preds(
        src,
        &[
            ("entry", None),
            ("live", Some("entry")),
            ("dead1", None),
            ("dead2", None),
        ],
    );
}

/// Each block of the one function of `src`, in layout order, has the only predecessor
/// `want` names for it.
fn assert_only_preds(src: &str, want: &[(&str, Option<&str>)]) {
    let module = parse(src).expect("the test program parses");
    let func = module.funcs.values().next().expect("one function");
    let cfg = Cfg::compute(func);
    let got: Vec<(&str, Option<&str>)> = func
        .layout
        .iter()
        .map(|&b| {
            let p = cfg.only_pred(b).map(|p| func.blocks[p].name.as_str());
            (func.blocks[b].name.as_str(), p)
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn a_branch_to_one_block_on_both_sides_is_one_edge() {
    // `brif t, next, next` enters `next` from `entry` only: one successor, one predecessor.
    let src = "fn main(n: i64) -> i64 {
    var t: bool
entry:
    t = slt n, 2
    brif t, next, next
next:
    ret n
}";
    let module = parse(src).expect("parses");
    let func = module.funcs.values().next().expect("function");
    let cfg = Cfg::compute(func);
    let block = |name: &str| {
        func.blocks
            .iter()
            .find(|(_, d)| d.name == name)
            .map(|(b, _)| b)
            .expect("block")
    };
    let (entry, next) = (block("entry"), block("next"));
    assert_eq!(cfg.succs(entry), &[next]);
    assert_eq!(cfg.preds(next), &[entry]);
    assert_eq!(cfg.only_pred(next), Some(entry));
}
