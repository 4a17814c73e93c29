//! Structure-aware fuzzing in the test suite: programs over the whole text format (unchecked
//! forms included, see `tests/grammar/mod.rs`) either are refused by the verifier (always, when
//! they hold an unchecked operation) or run to the interpreter's value or trap in the JIT at
//! every level and Cranelift level, in this process: a signal would kill the test.
//!
//! `POOLOPT_GRAMMAR_CASES=N` sets the number of programs (default 150); the libFuzzer target
//! `fuzz/fuzz_targets/grammar.rs` runs the same property on coverage-guided inputs.

mod grammar;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use std::cell::Cell;

#[test]
fn grammar_programs_are_refused_or_agree_everywhere() {
    let cases = std::env::var("POOLOPT_GRAMMAR_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(150);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x6a7a),
        ..Config::default()
    });
    let (verified, refused, unchecked) = (Cell::new(0), Cell::new(0), Cell::new(0));
    runner
        .run(&proptest::collection::vec(any::<u8>(), 0..2000), |bytes| {
            let mut u = arbitrary::Unstructured::new(&bytes);
            let Ok(program) = grammar::program(&mut u) else {
                return Ok(());
            };
            if program.has_unchecked {
                unchecked.set(unchecked.get() + 1);
            }
            if grammar::check_program(&program) {
                verified.set(verified.get() + 1);
            } else {
                refused.set(refused.get() + 1);
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "grammar fuzz: {} programs verified and agreed everywhere, {} refused ({} held an \
         unchecked operation)",
        verified.get(),
        refused.get(),
        unchecked.get()
    );
    // The generator must reach both sides of the property.
    assert!(
        verified.get() * 10 >= cases as usize,
        "too few programs verify"
    );
    assert!(
        unchecked.get() > 0,
        "no program held an unchecked operation"
    );
}
