//! The fact analysis's safety nets on the generated shapes they exist for (shared with
//! `benches/pass_scaling.rs` through `poolopt_test_support::shapes`): the work budget, exact at
//! its edge, on copies of one vec pushed in a loop; and the cap on a set's pairs, on one block
//! of checked reads whose indices stay live.

use poolopt::ir::cfg::Cfg;
use poolopt::ir::{parse, verify_with, Function, Module, VerifyOptions};
use poolopt::passes::analysis::facts::constraints::MAX_SET_FACTS;
use poolopt::passes::analysis::facts::{FactLimits, FactQueries, GaveUp, MAX_WORK_BASE};
use poolopt::passes::analysis::{FactAnalysis, Liveness};
use poolopt_test_support::{aliased_vecs, kept_reads};

fn module(src: &str) -> Module {
    let m = parse(src).expect("the program parses");
    verify_with(&m, &VerifyOptions::TRUSTED).expect("the program verifies");
    m
}

/// The fact analysis of `func` under `limits`.
fn facts(func: &Function, limits: FactLimits) -> FactAnalysis {
    let cfg = Cfg::compute(func);
    let live = Liveness::compute(func, &cfg);
    FactAnalysis::compute_with_limits(func, &cfg, &live, None, limits)
}

fn aliased_vecs_facts(n: usize, limits: FactLimits) -> FactAnalysis {
    let module = module(&aliased_vecs(n));
    facts(module.funcs.values().next().unwrap(), limits)
}

/// The work safety net: the analysis counts its set steps and gives up past the budget (base
/// plus a share per instruction), exactly at its edge; ordinary functions stay far below it.
#[test]
fn the_work_budget_is_exact_and_far_above_ordinary_functions() {
    let limits = |base| FactLimits {
        work_base: base,
        work_per_inst: 0,
        ..FactLimits::default()
    };
    let full = aliased_vecs_facts(40, limits(u64::MAX));
    assert_eq!(full.gave_up(), None);
    let work = full.work();
    // The cost model pinned: every part of it (edges, meets' and widenings' path questions,
    // the replay) counts in this loop; a change to it shows here. (67,945 while sets still
    // recorded `len(v) >= 0` for each of the 40 vecs.)
    assert_eq!(work, 47_325, "the set steps of 40 aliased vecs");
    assert_eq!(aliased_vecs_facts(40, limits(work)).gave_up(), None);
    assert_eq!(
        aliased_vecs_facts(40, limits(work - 1)).gave_up(),
        Some(GaveUp::Work)
    );
    // The default budget: an ordinary function (the passes crate's shrinking loop, which needs
    // the strict widening) uses a tiny fraction of it. (16,000 aliased vecs exhaust it:
    // docs/benchmarks.md; too slow for a debug test.)
    let shrinking = module(include_str!(
        "../crates/passes/tests/checks/shrinking_loop_counts_down.pir"
    ));
    let f = &shrinking.funcs[shrinking.func_by_name("f").expect("f")];
    let ordinary = facts(f, FactLimits::default());
    assert!(ordinary.work() * 1000 < MAX_WORK_BASE);
}

/// A set records at most `MAX_SET_FACTS` pairs: a block that establishes more (a checked read
/// of each of many distinct indices, all kept to the end) stops recording new ones when full,
/// so a read whose fact was never recorded is not known to be in range there, while the
/// first ones are; the set never holds more.
#[test]
fn a_full_set_records_no_new_pair() {
    // Each read adds `0 <= i` and `i < len(v)`: past half the cap, new reads find no room.
    let n = MAX_SET_FACTS / 2 + 100;
    let module = module(&kept_reads(n));
    let func = module.funcs.values().next().unwrap();
    let cfg = Cfg::compute(func);
    let facts = FactAnalysis::compute(func, &cfg);
    assert_eq!(facts.gave_up(), None);
    let again = facts
        .block_in(func.block_by_name("again").unwrap())
        .unwrap();
    assert_eq!(again.constraints().len(), MAX_SET_FACTS);
    let v = func.local_by_name("v").unwrap();
    let index = |k: usize| func.local_by_name(&format!("i{k}")).unwrap();
    assert!(again.non_neg(index(0)) && again.lt_len(index(0), v));
    assert!(!again.non_neg(index(n - 1)) && !again.lt_len(index(n - 1), v));
}
