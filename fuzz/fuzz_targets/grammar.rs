//! Structure-aware fuzzing of the whole text format: the bytes become a program over every
//! instruction form, unchecked forms included (tests/grammar), and the property of
//! `tests/grammar_fuzz.rs` must hold: the verifier refuses it (always, when it holds an
//! unchecked operation), or it runs to the interpreter's value or trap in the JIT at every
//! level and Cranelift level — no panic, no signal.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/grammar/mod.rs"]
mod grammar;

fuzz_target!(|data: &[u8]| {
    let mut u = arbitrary::Unstructured::new(data);
    if let Ok(program) = grammar::program(&mut u) {
        grammar::check_program(&program);
    }
});
