//! The reference workloads (examples/workloads/*.pir, parsed from text) against the expected
//! results of examples/workloads/expected.txt, and the trap examples (examples/traps/*.pir) against the trap
//! kind each file is named after.

use poolopt_interp::run;
use poolopt_ir::{parse, verify, Module, RunLimits, TrapKind};
use std::path::PathBuf;

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

fn load_unverified(rel: &str) -> Module {
    let path = examples().join(rel);
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn load(rel: &str) -> Module {
    let module = load_unverified(rel);
    if let Err(errs) = verify(&module) {
        panic!("{rel}: {errs:?}");
    }
    module
}

/// Small sizes of examples/workloads/expected.txt (the large ones are benchmarks).
const EXPECTED: [(&str, &str, i64, i64, i64); 6] = [
    ("slot_pool_8.pir", "append", 100, 3, 5255504415335982936),
    ("slot_pool_128.pir", "append", 100, 3, 5920479129291261952),
    ("slot_pool_8.pir", "lifo", 10, 5, 2999155661484216252),
    ("slot_pool_128.pir", "lifo", 10, 5, -2132775038564764672),
    ("slot_pool_8.pir", "scattered", 10, 3, -9018781896735347076),
    (
        "slot_pool_128.pir",
        "scattered",
        10,
        3,
        -7738938275155274752,
    ),
];

#[test]
fn workloads_produce_the_expected_results() {
    for (file, entry, n, rounds, want) in EXPECTED {
        let module = load(&format!("workloads/{file}"));
        let got = run(&module, entry, &[n, rounds], &RunLimits::default());
        assert_eq!(got, Ok(want), "{file} {entry}({n}, {rounds})");
    }
}

#[test]
fn trap_examples_trap_with_their_kind() {
    // A small memory limit keeps the out_of_memory example fast.
    let limits = RunLimits {
        max_memory: 1 << 20,
        ..RunLimits::default()
    };
    let mut seen = 0;
    for kind in TrapKind::ALL {
        let rel = format!("traps/{}.pir", kind.name());
        if !examples().join(&rel).exists() {
            continue;
        }
        seen += 1;
        // The interpreter does not need a verified module; whether these verify is the
        // verifier's tests' business.
        let module = load_unverified(&rel);
        let got = run(&module, "main", &[], &limits);
        assert_eq!(
            got.as_ref().err().and_then(|e| e.trap_kind()),
            Some(kind),
            "{rel}: {got:?}"
        );
    }
    assert!(seen >= 6, "expected the trap examples, found {seen}");
}
