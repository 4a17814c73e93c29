//! Per-pass case files (tests/passes/*.pir): each names the passes it exercises, an entry, its
//! arguments and the expected outcome in a header. For each case this test
//!
//! - snapshots (insta) the unified diff of the IR before/after those passes, their remarks and
//!   their counters, so a reviewer sees exactly what each pass changed and why;
//! - checks soundness: the expected outcome (a value or a trap kind, derived by hand from the
//!   IR semantics) holds in the interpreter and in the JIT at O0, O1, O2 under both Cranelift
//!   levels, and after exactly the case's passes;
//! - checks that every pipeline gives the same IR with and without remark collection.
//!
//! Near-miss cases are programs where a transformation would be wrong; they must trap (or
//! compute) exactly as at O0.

mod common;

use common::*;
use poolopt::{PassManager, RunLimits, Session};
use poolopt_test_support::{header, Expect};

struct Case {
    passes: Vec<String>,
    entry: String,
    args: Vec<i64>,
    expect: Outcome,
}

fn parse_case(name: &str, src: &str) -> Case {
    let list = |s: String| -> Vec<String> {
        s.split(',')
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect()
    };
    let passes = list(
        header(src, "passes")
            .map(str::to_string)
            .unwrap_or_else(|| panic!("{name}: no `; passes:`")),
    );
    let entry = header(src, "entry").unwrap_or("main").to_string();
    let args = header(src, "args")
        .map(|a| list(a.to_string()))
        .unwrap_or_default()
        .iter()
        .map(|a| {
            a.parse()
                .unwrap_or_else(|e| panic!("{name}: bad arg {a}: {e}"))
        })
        .collect();
    let expect = header(src, "expect").unwrap_or_else(|| panic!("{name}: no `; expect:`"));
    let expect = match Expect::parse(expect).unwrap_or_else(|e| panic!("{name}: {e}")) {
        Expect::Value(v) => Outcome::Value(v),
        Expect::Trap(kind) => Outcome::Trap(kind),
        Expect::Error(e) => panic!("{name}: a pass case cannot expect an error ({e})"),
    };
    Case {
        passes,
        entry,
        args,
        expect,
    }
}

#[test]
fn pass_cases() {
    let files = pir_files(&["tests/passes"]);
    assert!(files.len() >= 20, "only {} case files", files.len());
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let case = parse_case(&name, &src);
        let module = load(&rel(&path));
        let limits = RunLimits::default();

        // What the case's passes do, for review.
        let before = poolopt::ir::print_module(module.module());
        let manager = PassManager::from_names(&case.passes)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .verify_each(true)
            .collect_remarks(true);
        let session = Session::new(module.clone())
            .optimize(&manager)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        // The same passes without remarks (the `run` path) give the same IR.
        let quiet = optimize_both_ways(&module, || {
            PassManager::from_names(&case.passes).expect("the passes parsed above")
        });
        assert_eq!(
            poolopt::ir::print_module(quiet.module().module()),
            poolopt::ir::print_module(session.module().module()),
            "{name}: remarks change the code"
        );
        let after = poolopt::ir::print_module(session.module().module());
        let report = session.report();
        let mut snap = format!("passes: {}\n\n", case.passes.join(", "));
        snap += &poolopt::passes::unified_diff(&before, &after, &case.passes.join(","));
        snap += "\nremarks:\n";
        for remark in &report.remarks {
            snap += &format!("  {remark}\n");
        }
        snap += "\nstats:\n";
        for (pass, counter, value) in report.stats.iter() {
            snap += &format!("  {pass} {counter} {value}\n");
        }
        insta::assert_snapshot!(format!("case_{name}"), snap);

        // Soundness: the hand-derived outcome everywhere.
        let got = run_everywhere(&module, &case.entry, &case.args, &limits);
        assert_eq!(got, case.expect, "{name}: levels");
        assert_eq!(
            interp_outcome(session.module(), &case.entry, &case.args, &limits),
            case.expect,
            "{name}: interpreter after its passes"
        );
        for cl in CL_OPTS {
            assert_eq!(
                jit_outcome(&session, cl, &case.entry, &case.args, &limits),
                case.expect,
                "{name}: JIT ({cl}) after its passes"
            );
        }
    }
}
