//! Tests of the CFG's loop queries on parsed programs: which blocks lie in loops and how deeply.

use poolopt_ir::cfg::Cfg;
use poolopt_ir::parse;

/// The loop depth of every block of `main` in `src`, by block name, in layout order.
fn depths(src: &str) -> Vec<(String, u32)> {
    let module = parse(src).expect("the test program parses");
    let func = module
        .funcs
        .values()
        .find(|f| f.name == "main")
        .expect("a function `main`");
    let cfg = Cfg::compute(func);
    let depth = cfg.loop_depths();
    let in_loop = cfg.blocks_in_loops();
    func.layout
        .iter()
        .map(|&b| {
            assert_eq!(
                in_loop[b],
                depth[b] > 0,
                "blocks_in_loops and loop_depths disagree on `{}`",
                func.blocks[b].name
            );
            (func.blocks[b].name.to_string(), depth[b])
        })
        .collect()
}

fn named(pairs: &[(&str, u32)]) -> Vec<(String, u32)> {
    pairs.iter().map(|&(n, d)| (n.to_string(), d)).collect()
}

#[test]
fn nested_loops_count_each_enclosing_loop_once() {
    // An outer loop whose body holds an inner loop with two back edges (`step` and `skip`),
    // and an exit from the inner loop's body straight out of both loops (`out`).
    let src = "fn main(n: i64) -> i64 {
    var i: i64
    var k: i64
    var c: bool
entry:
    i = copy 0
    br outer
outer:
    c = slt i, n
    brif c, pre, done
pre:
    k = copy 0
    br inner
inner:
    c = slt k, n
    brif c, body, next
body:
    c = eq k, 7
    brif c, out, test
test:
    c = eq k, 3
    brif c, skip, step
skip:
    k = add k, 2
    br inner
step:
    k = add k, 1
    br inner
next:
    i = add i, 1
    br outer
out:
    ret k
done:
    ret i
}
";
    assert_eq!(
        depths(src),
        named(&[
            ("entry", 0),
            ("outer", 1),
            ("pre", 1),
            ("inner", 2),
            ("body", 2),
            ("test", 2),
            ("skip", 2),
            ("step", 2),
            ("next", 1),
            ("out", 0),
            ("done", 0),
        ])
    );
}

#[test]
fn a_self_loop_and_straight_line_code() {
    let src = "fn main(n: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = copy 0
    br spin
spin:
    i = add i, 1
    c = slt i, n
    brif c, spin, after
after:
    ret i
}
";
    assert_eq!(
        depths(src),
        named(&[("entry", 0), ("spin", 1), ("after", 0)])
    );
}

#[test]
fn a_loop_back_to_the_entry_block_counts() {
    // The entry block heads a loop (its back edge from `again`); `done` is outside it.
    let src = "fn main(n: i64) -> i64 {
    var c: bool
entry:
    n = sub n, 1
    c = sgt n, 0
    brif c, again, done
again:
    br entry
done:
    ret n
}";
    assert_eq!(
        depths(src),
        named(&[("entry", 1), ("again", 1), ("done", 0)])
    );
}
