//! The differential check of tests/differential.rs on fuzzer bytes: the bytes drive the same
//! program generator (tests/gen), and the program must give the interpreter's outcome under
//! every level, pass, pass pair and Cranelift level.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/gen/mod.rs"]
mod gen;

fuzz_target!(|data: &[u8]| {
    let case = gen::generate(data);
    let module = poolopt::VerifiedModule::new(case.module.clone()).unwrap_or_else(|e| {
        panic!(
            "generator bug: {e:?}\n{}",
            poolopt::ir::print_module(&case.module)
        )
    });
    if let Err(why) = gen::check::check(&module, case.entry, &case.args, &gen::LIMITS) {
        panic!("{why}\n{}", poolopt::ir::print_module(module.module()));
    }
});
