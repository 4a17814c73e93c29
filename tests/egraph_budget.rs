//! Which functions the JIT compiles without Cranelift's e-graph pass at `--cl-opt speed`
//! (`crates/jit/src/elaboration.rs`): the pass puts every pure instruction back where it is
//! first needed, which recomputes a chain read only in the arms of diamonds in every arm
//! (800 diamonds took 46 s and 640 MB to compile, 400 checked divisions 1.9 s) and sinks the
//! sum of many loads past all of them (6,000 reads: 1.3 s). Such a function is compiled at
//! `opt_level=none`; a function of the same size and kind without the hazard keeps `speed`.
//! Results are the interpreter's either way.

use poolopt::ir::{parse, verify, RunLimits};
use poolopt::jit::tier::Tier;
use poolopt::jit::{ClOpt, CompiledModule, JitOptions};

/// `chain(m)`: `n` diamonds on `m < k`, whose arms each read the running sum `s` and whose
/// join adds the arm's value to it; with `anchored`, the join also stores `s` into `v[0]`, so
/// every link of the chain is used where it is computed (the near miss). (A `push` would not
/// do: its fast and slow paths each store the value, two sibling blocks again, and the chain
/// is recomputed in both: 400 such diamonds made 3.4 MB of code in 8.5 s.)
fn diamond_chain(n: usize, anchored: bool) -> String {
    let mut src = String::from(
        "fn chain(m: i64) -> i64 {\n    var s: i64\n    var t: i64\n    var c: bool\n    var v: vec<i64>\nentry:\n    v = new vec<i64>\n    push v, m\n    s = copy m\n",
    );
    for k in 0..n {
        src.push_str(&format!(
            "    c = slt m, {k}\n    brif c, a{k}, b{k}\na{k}:\n    t = add s, 1\n    br j{k}\nb{k}:\n    t = sub s, 2\n    br j{k}\nj{k}:\n    s = add s, t\n"
        ));
        if anchored {
            src.push_str("    set v[0], s\n");
        }
    }
    src.push_str("    ret s\n}\n");
    src
}

/// `divs(m)`: `s = s + s / m`, `n` times (each division checked: `m` may be 0 or -1).
fn division_chain(n: usize) -> String {
    let mut src = String::from(
        "fn divs(m: i64) -> i64 {\n    var s: i64\n    var x: i64\nentry:\n    s = copy m\n",
    );
    for _ in 0..n {
        src.push_str("    x = sdiv s, m\n    s = add s, x\n");
    }
    src.push_str("    ret s\n}\n");
    src
}

/// `reads(m)`: fills a vec with `0..n`, then sums `v[k]` for every `k`, each read checked.
fn summed_reads(n: usize) -> String {
    let mut src = format!(
        "fn reads(m: i64) -> i64 {{\n    var v: vec<i64>\n    var i: i64\n    var s: i64\n    var x: i64\n    var c: bool\nentry:\n    v = new vec<i64>\n    i = copy 0\n    br fill\nfill:\n    push v, i\n    i = add i, 1\n    c = slt i, {n}\n    brif c, fill, start\nstart:\n    s = copy m\n"
    );
    for k in 0..n {
        src.push_str(&format!("    x = get v[{k}]\n    s = add s, x\n"));
    }
    src.push_str("    ret s\n}\n");
    src
}

/// Compiles `src` at both Cranelift levels; asserts that `entry` is compiled in the normal
/// tier at `want_at_speed` when `speed` is asked for (and at `none` when `none` is), and that
/// `entry(7)` gives what the interpreter gives.
fn assert_level_and_result(src: &str, entry: &str, want_at_speed: ClOpt, what: &str) {
    let module = parse(src).expect("parses");
    verify(&module).expect("verifies");
    let interpreted = poolopt::interp::run(&module, entry, &[7], &RunLimits::default());
    let interpreted = interpreted.expect("the interpreter runs it");
    for cl_opt in [ClOpt::None, ClOpt::Speed] {
        let options = JitOptions {
            cl_opt,
            fuel: false,
        };
        let compiled = CompiledModule::compile(&module, &options).expect("compiles");
        assert_eq!(compiled.tier_of(entry), Some(Tier::Normal), "{what}");
        let want = if cl_opt == ClOpt::None {
            ClOpt::None
        } else {
            want_at_speed
        };
        assert_eq!(compiled.cl_opt_of(entry), Some(want), "{what} at {cl_opt}");
        let got = compiled.run(entry, &[7], &RunLimits::default());
        assert_eq!(got.ok(), Some(interpreted), "{what}: JIT at {cl_opt}");
    }
}

#[test]
fn a_chain_read_only_in_the_arms_of_diamonds_compiles_without_the_egraph() {
    assert_level_and_result(
        &diamond_chain(10, false),
        "chain",
        ClOpt::Speed,
        "10 diamonds",
    );
    assert_level_and_result(
        &diamond_chain(400, false),
        "chain",
        ClOpt::None,
        "400 diamonds",
    );
}

#[test]
fn a_chain_used_where_it_is_computed_keeps_the_egraph() {
    // Near miss: the same 400 diamonds, but each join stores the sum, so elaboration computes
    // every link where the store needs it, which dominates the next diamond's arms, and
    // copies nothing into them.
    assert_level_and_result(
        &diamond_chain(400, true),
        "chain",
        ClOpt::Speed,
        "400 anchored diamonds",
    );
}

#[test]
fn many_checked_divisions_into_one_sum_compile_without_the_egraph() {
    assert_level_and_result(&division_chain(20), "divs", ClOpt::Speed, "20 divisions");
    assert_level_and_result(&division_chain(400), "divs", ClOpt::None, "400 divisions");
}

#[test]
fn many_checked_reads_into_one_sum_compile_without_the_egraph() {
    assert_level_and_result(&summed_reads(20), "reads", ClOpt::Speed, "20 reads");
    assert_level_and_result(&summed_reads(2_000), "reads", ClOpt::None, "2,000 reads");
}

/// Whether `entry` of `src` is compiled at `none` when `speed` is asked for.
fn downgraded(src: &str, entry: &str) -> bool {
    let module = parse(src).expect("parses");
    let options = JitOptions {
        cl_opt: ClOpt::Speed,
        fuel: false,
    };
    let compiled = CompiledModule::compile(&module, &options).expect("compiles");
    compiled.cl_opt_of(entry) == Some(ClOpt::None)
}

/// The smallest `n` in `lo..=hi` whose `make(n)` is downgraded, by bisection (the replay's
/// counts grow with `n`), or `None`.
fn first_downgraded(
    make: impl Fn(usize) -> String,
    entry: &str,
    lo: usize,
    hi: usize,
) -> Option<usize> {
    if !downgraded(&make(hi), entry) {
        return None;
    }
    let (mut lo, mut hi) = (lo, hi);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if downgraded(&make(mid), entry) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

#[test]
fn the_replay_switches_near_where_the_blowup_starts() {
    // Where each shape first compiles at `none` (found by bisection): with the lowering as it
    // is, diamonds and divisions cross the 512-instruction floor and the copy budget together
    // (48 and 46 when this was written), summed reads the stretch budget (385). Each is where
    // the shape starts to cost more at `speed` than the e-graph can save (docs/jit.md, "The
    // elaboration budget"). The ranges leave room for the lowering to change a little; a
    // budget or a purity rule that changes much moves a switch out of its range.
    let diamonds = first_downgraded(|n| diamond_chain(n, false), "chain", 1, 400);
    assert!(matches!(diamonds, Some(40..=60)), "diamonds: {diamonds:?}");
    let divisions = first_downgraded(division_chain, "divs", 1, 400);
    assert!(
        matches!(divisions, Some(40..=60)),
        "divisions: {divisions:?}"
    );
    let reads = first_downgraded(summed_reads, "reads", 1, 2_000);
    assert!(matches!(reads, Some(300..=480)), "reads: {reads:?}");
    // The near miss never switches, however long.
    let anchored = first_downgraded(|n| diamond_chain(n, true), "chain", 1, 1_000);
    assert_eq!(anchored, None);
}
