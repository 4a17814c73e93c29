//! What the pass manager reports about each pass, checked against what the pass did: the
//! level pipelines are the documented lists, and a pass says it changed a function exactly
//! when the function's printed IR changed (the manager invalidates analyses, and
//! `--time-passes` counts changes, on that answer). Run on every case program of this crate
//! and of `tests/passes/`, each pass alone.

mod common;

use common::module;
use poolopt_passes::{pass_names, Analysis, OptLevel, PassManager};
use std::path::{Path, PathBuf};

#[test]
fn level_pipelines_are_the_documented_ones() {
    let names = |l| PassManager::for_level(l).pass_names();
    assert_eq!(names(OptLevel::O0), Vec::<&str>::new());
    assert_eq!(
        names(OptLevel::O1),
        [
            "branch-threading",
            "range-check-fold",
            "sparse-bounds-check-elim",
            "dead-local-elim",
            "simplify-cfg"
        ]
    );
    // O2 is every pass but the opt-in `bounds-check-elim`, which `pass_names` lists where it
    // would stand in for `sparse-bounds-check-elim`, and the opt-in `div-check-prove`, which
    // follows the check pass.
    let mut all = pass_names();
    assert_eq!(
        all.iter().position(|&p| p == "sparse-bounds-check-elim"),
        all.iter()
            .position(|&p| p == "bounds-check-elim")
            .map(|at| at + 1)
    );
    assert_eq!(
        all.iter().position(|&p| p == "div-check-prove"),
        all.iter()
            .position(|&p| p == "sparse-bounds-check-elim")
            .map(|at| at + 1)
    );
    all.retain(|&p| p != "bounds-check-elim" && p != "div-check-prove");
    assert_eq!(names(OptLevel::O2), all);
    assert_eq!(
        all,
        [
            "inline",
            "temp-elision",
            "global-copy-prop",
            "copy-prop",
            "branch-threading",
            "store-load-forward",
            "value-numbering",
            "range-check-fold",
            "sparse-bounds-check-elim",
            "struct-split",
            "dead-local-elim",
            "simplify-cfg",
            "div-check-elim",
            "scalarize"
        ]
    );
}

fn case_programs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [root.join("tests/checks"), root.join("../../tests/passes")] {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        files.extend(
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "pir")),
        );
    }
    files.sort();
    files
}

#[test]
fn a_pass_reports_a_change_exactly_when_the_ir_changed() {
    let files = case_programs();
    assert!(files.len() >= 40, "only {} programs", files.len());
    let mut changed_somewhere: Vec<&str> = Vec::new();
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap();
        for pass in pass_names() {
            let mut m = module(&src);
            let report = PassManager::from_names(&[pass])
                .unwrap()
                .verify_each(true)
                .record_dumps(true)
                .run(&mut m)
                .unwrap();
            let diffs = report.dumps.iter().filter(|d| !d.diff.is_empty()).count() as u64;
            // The `changed` flag agrees with the diff; without diffs it still says it.
            assert!(report.dumps.iter().all(|d| d.changed != d.diff.is_empty()));
            let mut m2 = module(&src);
            let without_diffs = PassManager::from_names(&[pass])
                .unwrap()
                .record_dumps(true)
                .record_diffs(false)
                .run(&mut m2)
                .unwrap();
            assert!(without_diffs.dumps.iter().all(|d| d.diff.is_empty()));
            let flags = |r: &poolopt_passes::PassReport| -> Vec<(bool, String)> {
                r.dumps
                    .iter()
                    .map(|d| (d.changed, d.after.clone()))
                    .collect()
            };
            assert_eq!(flags(&without_diffs), flags(&report), "{pass}");
            let (_, timing) = report
                .timings
                .passes
                .iter()
                .find(|(p, _)| *p == pass)
                .unwrap_or_else(|| panic!("{pass} ran but has no timing"));
            assert_eq!(
                timing.changed,
                diffs,
                "{}: {pass} reported {} changed functions, the IR of {diffs} changed",
                path.display(),
                timing.changed
            );
            if diffs > 0 && !changed_somewhere.contains(&pass) {
                changed_somewhere.push(pass);
            }
        }
    }
    // The property was checked where it matters: every pass changed something somewhere.
    for pass in pass_names() {
        assert!(
            changed_somewhere.contains(&pass),
            "{pass} changed no case program"
        );
    }
}

/// A function with `k` short-circuit range checks in sequence, each `i < 0 || i >= n` with
/// `i = x & 3` and a push before, so every one folds (the entry returns early for a negative
/// `m`, a test that fails elsewhere than the range checks). The bound `n` is `len v` (non-negative
/// by its definition) or, with `bound_from_facts`, a copy of the parameter `m` that the entry
/// tested (non-negative by a fact only).
fn range_checks_in_sequence(k: usize, bound_from_facts: bool) -> String {
    let mut s = String::from(
        "fn main(x: i64, m: i64) -> i64 {\n    var v: vec<i64>\n    var i: i64\n    \
         var n: i64\n    var c: bool\n    var t: i64\nentry:\n    v = new vec<i64>\n    \
         c = slt m, 0\n    brif c, negative, b0\nnegative:\n    ret -1\n",
    );
    let bound = if bound_from_facts { "copy m" } else { "len v" };
    for j in 0..k {
        s.push_str(&format!(
            "b{j}:\n    push v, {j}\n    i = and x, 3\n    n = {bound}\n    c = slt i, 0\n    \
             brif c, bad, h{j}\nh{j}:\n    c = sge i, n\n    brif c, bad, ok{j}\nok{j}:\n    \
             t = get v[i]\n    br b{}\n",
            j + 1
        ));
    }
    s.push_str(&format!(
        "b{k}:\n    ret t\nbad:\n    trap \"index out of range\"\n}}\n"
    ));
    s
}

/// The fact analyses range-check-fold computes, and the checks it folds, on
/// [`range_checks_in_sequence`].
fn range_check_fold_analyses(k: usize, bound_from_facts: bool) -> (u64, u64) {
    let mut m = module(&range_checks_in_sequence(k, bound_from_facts));
    let report = PassManager::from_names(&["range-check-fold"])
        .unwrap()
        .verify_each(true)
        .run(&mut m)
        .unwrap();
    (
        report.stats.get("range-check-fold", "compares_folded"),
        report.timings.computed(Analysis::Facts),
    )
}

/// range-check-fold folds every independent range check of a round on one fact analysis: 40
/// checks in one function take one analysis (the round that folds them all; a round with no
/// range check left computes none), not one per folded check (40 before), which made a
/// function of 2,000 checks take 22 s.
#[test]
fn range_check_fold_folds_many_checks_per_analysis() {
    assert_eq!(range_check_fold_analyses(40, true), (40, 1));
}

/// A range check whose compares sit right before their branches and whose bound is a length
/// folds without any fact analysis (the round decided on the blocks alone), so the next pass
/// that needs the facts computes them once, on the folded function.
#[test]
fn range_checks_against_lengths_fold_without_a_fact_analysis() {
    assert_eq!(range_check_fold_analyses(40, false), (40, 0));
}

/// Past the fact analysis's stored-facts bound, bounds-check-elim keeps every check, says why
/// once per function, and counts it; results do not change.
#[test]
fn bounds_check_elim_says_when_the_fact_analysis_gave_up() {
    let n = 1100;
    let src = common::guarded_pops_of_many_vecs(n);
    let (_, report) = common::opt(&src, &["bounds-check-elim"], &[("main", &[7])]);
    let stat = |name| report.stats.get("bounds-check-elim", name);
    assert_eq!(stat("fact_analyses_given_up"), 1);
    assert_eq!(stat("pop_checks_kept"), n as u64);
    assert_eq!(stat("pop_checks_removed"), 0);
    let missed = common::remarks(&report, poolopt_passes::RemarkKind::Missed);
    let gave_up: Vec<_> = missed.iter().filter(|m| m.contains("gave up")).collect();
    assert_eq!(gave_up.len(), 1, "{gave_up:?}");
    assert!(
        gave_up[0].contains("facts stored at block boundaries"),
        "{}",
        gave_up[0]
    );
}

/// Where the fact analysis gives up, the sparse pass's remarks (which it words with the fact
/// analysis when both engines agree) are the prover's own: the guarded pops it proves, and one
/// more pop at the end that it keeps, of a vec every path has emptied.
#[test]
fn sparse_remarks_are_the_provers_where_the_fact_analysis_gave_up() {
    let n = 1100;
    let src = common::guarded_pops_of_many_vecs(n).replace(
        &format!("b{n}:\n    ret acc\n"),
        &format!("b{n}:\n    t = pop v0\n    acc = add acc, t\n    ret acc\n"),
    );
    assert!(src.contains("t = pop v0\n    acc = add acc, t\n    ret acc"));
    let (_, report) = common::opt(&src, &["sparse-bounds-check-elim"], &[("main", &[7])]);
    let stat = |name| report.stats.get("sparse-bounds-check-elim", name);
    assert_eq!(stat("pop_checks_removed"), n as u64);
    assert_eq!(stat("pop_checks_kept"), 1);
    let missed = common::remarks(&report, poolopt_passes::RemarkKind::Missed);
    assert_eq!(
        missed,
        ["pop check kept: needs `len(v0) > 0`; the sparse prover finds only `len(v0) >= 0`"]
    );
    let applied = common::remarks(&report, poolopt_passes::RemarkKind::Applied);
    assert_eq!(applied.len(), n);
    assert!(
        applied
            .iter()
            .all(|m| m.ends_with("> 0 proved by the sparse prover")),
        "{applied:?}"
    );
}

/// The inliner asks which of a callee's locals are live on entry once per inlined call; the
/// run shares one answer per callee across all call sites and callers, so inlining `g` into
/// three callers twice each computes `g`'s liveness once, as inlining it once does.
#[test]
fn a_callees_entry_liveness_is_computed_once_per_run() {
    let program = |callers: usize, calls: usize| {
        let mut s = String::from(
            "fn g(x: i64) -> i64 {\n    var t: i64\nentry:\n    t = add x, 1\n    ret t\n}\n",
        );
        for c in 0..callers {
            s += &format!("fn f{c}(x: i64) -> i64 {{\n    var r: i64\nentry:\n    r = copy x\n");
            for _ in 0..calls {
                s += "    r = call g(r)\n";
            }
            s += "    ret r\n}\n";
        }
        s
    };
    let liveness = |callers, calls| {
        let mut m = module(&program(callers, calls));
        let report = PassManager::from_names(&["inline"])
            .unwrap()
            .run(&mut m)
            .unwrap();
        assert_eq!(
            report.stats.get("inline", "calls_inlined"),
            (callers * calls) as u64
        );
        report.timings.computed(Analysis::Liveness)
    };
    assert_eq!(liveness(3, 2), liveness(1, 1));
}

/// temp-elision rewrites only around a `copy`: on a function without one it asks for no
/// liveness (a huge function of arithmetic and vec operations paid for a walk of every block);
/// one `copy` anywhere makes it compute liveness once and elide the temporary.
#[test]
fn temp_elision_skips_blocks_without_a_copy() {
    let run = |with_copy: bool| {
        let last = if with_copy {
            "u = copy t"
        } else {
            "u = add t, 2"
        };
        let src = format!(
            "fn f(x: i64) -> i64 {{\n    var t: i64\n    var u: i64\nentry:\n    t = add x, 1\n    br next\n\
             next:\n    t = mul t, 3\n    {last}\n    ret u\n}}\n"
        );
        let mut m = module(&src);
        let report = PassManager::from_names(&["temp-elision"])
            .unwrap()
            .run(&mut m)
            .unwrap();
        (
            report.timings.computed(Analysis::Liveness),
            report.stats.get("temp-elision", "temps_elided"),
        )
    };
    assert_eq!(run(false), (0, 0));
    assert_eq!(run(true), (1, 1));
}

/// Remarks are off unless asked for: a manager that was not asked collects none (nor does the
/// work of explaining), one that was asked reports what the passes did.
#[test]
fn remarks_are_collected_only_when_asked_for() {
    let src = "fn f(x: i64) -> i64 {\n    var t: i64\n    var u: i64\nentry:\n    t = add x, 1\n    u = copy t\n    ret u\n}\n";
    let remarks = |manager: PassManager| {
        let mut m = module(src);
        manager.run(&mut m).unwrap().remarks.len()
    };
    assert_eq!(remarks(PassManager::for_level(OptLevel::O2)), 0);
    assert!(remarks(PassManager::for_level(OptLevel::O2).collect_remarks(true)) > 0);
    // Off costs nothing: dead-local-elim's explaining sweep (on plain liveness) runs only
    // when remarks are collected.
    let liveness = |remarks: bool| {
        let mut m = module(src);
        let manager = PassManager::from_names(&["dead-local-elim"])
            .unwrap()
            .collect_remarks(remarks);
        let report = manager.run(&mut m).unwrap();
        report.timings.computed(Analysis::Liveness)
    };
    assert_eq!((liveness(false), liveness(true)), (0, 1));
}

/// An empty pipeline (what O0 runs) does no work at all: no call graph, no analysis, the
/// module as it was; any pass makes the manager compute the call graph once.
#[test]
fn an_empty_pipeline_computes_nothing() {
    let src = "fn g(x: i64) -> i64 {\n    var t: i64\nentry:\n    t = add x, 1\n    ret t\n}\n\
               fn f(x: i64) -> i64 {\n    var r: i64\nentry:\n    r = call g(x)\n    ret r\n}\n";
    let call_graphs = |manager: PassManager| {
        let mut m = module(src);
        let report = manager.time_passes(true).run(&mut m).unwrap();
        let printed = poolopt_ir::print_module(&m);
        (report.timings.computed(Analysis::CallGraph), printed)
    };
    let (empty, printed) = call_graphs(PassManager::for_level(OptLevel::O0));
    assert_eq!(empty, 0);
    assert_eq!(printed, poolopt_ir::print_module(&module(src)));
    let (inline, _) = call_graphs(PassManager::from_names(&["inline"]).unwrap());
    assert_eq!(inline, 1);
}

/// A pass that claims to keep liveness but does not: it rewrites `t = add t, 1` in the block
/// after the entry into `t = copy 5`, so `t` is no longer live into that block. The manager
/// checks the claim when it verifies after each pass, and reports the pass.
struct ClaimsLivenessButChangesIt;

impl poolopt_passes::Pass for ClaimsLivenessButChangesIt {
    fn name(&self) -> &'static str {
        "claims-liveness"
    }
    fn min_level(&self) -> OptLevel {
        OptLevel::O2
    }
    fn preserves_cfg(&self) -> bool {
        true
    }
    fn preserves_liveness(&self) -> bool {
        true
    }
    fn run(
        &self,
        func: &mut poolopt_ir::Function,
        cx: &mut poolopt_passes::PassContext<'_>,
    ) -> bool {
        cx.liveness(func);
        let second = func.layout[1];
        let inst = func.blocks[second].insts[0];
        let poolopt_ir::InstKind::Binary { dst, .. } = func.insts[inst].kind else {
            return false;
        };
        func.insts[inst].kind = poolopt_ir::InstKind::Copy {
            dst,
            src: poolopt_ir::Operand::Const(5),
        };
        true
    }
}

/// temp-elision keeps the liveness analysis for the next pass (one computation fewer per
/// function it changes), and the claim is checked: a pass that claims it wrongly is reported
/// when the manager verifies after each pass.
#[test]
fn a_kept_liveness_is_checked_against_a_fresh_one() {
    let src = "fn f(x: i64) -> i64 {\n    var t: i64\nentry:\n    t = add x, 1\n    br next\n\
               next:\n    t = add t, 1\n    ret t\n}\n";
    let mut m = module(src);
    let err = PassManager::new(vec![Box::new(ClaimsLivenessButChangesIt)])
        .verify_each(true)
        .run(&mut m)
        .unwrap_err();
    assert!(
        matches!(
            err,
            poolopt_passes::PassError::StaleAnalysis {
                analysis: "liveness",
                ..
            }
        ),
        "{err}"
    );
    // temp-elision then range-check-fold (which asks for liveness): one computation.
    let src =
        "fn f(x: i64, v: vec<i64>) -> i64 {\n    var i: i64\n    var t: i64\n    var n: i64\n    \
               var c: bool\nentry:\n    t = and x, 3\n    i = copy t\n    c = slt i, 0\n    \
               brif c, bad, hi\nhi:\n    n = len v\n    c = sge i, n\n    brif c, bad, ok\n\
               ok:\n    ret i\nbad:\n    trap \"index out of range\"\n}\n";
    let mut m = module(src);
    let report = PassManager::from_names(&["temp-elision", "range-check-fold"])
        .unwrap()
        .verify_each(true)
        .time_passes(true)
        .run(&mut m)
        .unwrap();
    assert_eq!(report.stats.get("range-check-fold", "compares_folded"), 1);
    assert!(
        report.stats.get("temp-elision", "temps_elided") >= 1,
        "{}",
        report.stats
    );
    assert_eq!(report.timings.computed(Analysis::Liveness), 1);
}

/// Asks for the fact analysis in the order given: `true` for every block
/// (`PassContext::facts`), `false` for the checks' blocks (`PassContext::check_facts`).
struct AsksForFacts(&'static [bool]);

impl poolopt_passes::Pass for AsksForFacts {
    fn name(&self) -> &'static str {
        "asks-for-facts"
    }
    fn min_level(&self) -> OptLevel {
        OptLevel::O2
    }
    fn run(
        &self,
        func: &mut poolopt_ir::Function,
        cx: &mut poolopt_passes::PassContext<'_>,
    ) -> bool {
        use poolopt_passes::analysis::facts::FactDemand;
        for &everywhere in self.0 {
            let (fa, want) = if everywhere {
                (cx.facts(func), FactDemand::Everywhere)
            } else {
                (cx.check_facts(func), FactDemand::AtChecks)
            };
            // An analysis of every block serves a request for the checks' blocks.
            assert!(fa.demand() == want || fa.demand() == FactDemand::Everywhere);
        }
        false
    }
}

/// The analysis of every block serves both kinds of request; the narrower one (the checks'
/// blocks) is computed again, for every block, when a pass then asks for every block.
#[test]
fn facts_at_checks_reuse_a_full_analysis_and_never_serve_a_full_request() {
    let src = "fn f(v: vec<i64>) -> i64 {\n    var n: i64\n    var c: bool\n    var x: i64\n\
               entry:\n    n = len v\n    c = sgt n, 0\n    brif c, take, out\n\
               take:\n    x = pop v\n    ret x\nout:\n    ret 0\n}\n";
    for (order, computed) in [
        (&[true, false, true][..], 1),
        (&[false, false][..], 1),
        (&[false, true, false, true][..], 2),
    ] {
        let mut m = module(src);
        let report = PassManager::new(vec![Box::new(AsksForFacts(order))])
            .time_passes(true)
            .run(&mut m)
            .unwrap();
        assert_eq!(
            report.timings.computed(Analysis::Facts),
            computed,
            "{order:?}"
        );
    }
}

/// A function whose liveness sets would take more words than the manager's bound is left as
/// it is: no pass runs on it, a missed remark of the `pass-manager` says why, and the
/// `functions_not_optimized` counter counts it. At the bound exactly it is optimized. (Two
/// blocks over a few locals: two words.)
#[test]
fn a_function_past_the_liveness_bound_is_left_as_it_is() {
    use poolopt_passes::analysis::Liveness;
    let src = "fn f(x: i64) -> i64 {
    var t: i64
    var u: i64
entry:
    t = add x, 1
    u = add x, 2
    br out
out:
    ret u
}
";
    let words = Liveness::set_words(module(src).funcs.values().next().unwrap());
    assert_eq!(words, 2);
    let run = |max: usize| {
        let mut m = module(src);
        let report = PassManager::for_level(OptLevel::O2)
            .collect_remarks(true)
            .max_liveness_words(max)
            .run(&mut m)
            .unwrap();
        (poolopt_ir::print_module(&m), report)
    };
    let (left, report) = run(words - 1);
    assert_eq!(left, poolopt_ir::print_module(&module(src)));
    assert_eq!(
        report.stats.get("pass-manager", "functions_not_optimized"),
        1
    );
    let missed = common::remarks(&report, poolopt_passes::RemarkKind::Missed);
    assert_eq!(missed.len(), 1, "{missed:?}");
    assert!(
        missed[0].contains("not optimized") && missed[0].contains("2 words"),
        "{}",
        missed[0]
    );
    let (optimized, report) = run(words);
    assert!(!optimized.contains("t = add x, 1"), "{optimized}");
    assert_eq!(
        report.stats.get("pass-manager", "functions_not_optimized"),
        0
    );
}
