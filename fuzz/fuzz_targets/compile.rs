//! parse + verify + O2 (verifying after every pass) + lowering and JIT compilation under both
//! Cranelift levels: no panic anywhere, and every verified module optimizes and compiles.
#![no_main]

use libfuzzer_sys::fuzz_target;
use poolopt::{ClOpt, JitOptions, OptLevel, PassManager, Session};

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(module) = poolopt::parse_and_verify("fuzz.pir", src) else {
        return;
    };
    let session = Session::new(module)
        .optimize(&PassManager::for_level(OptLevel::O2).verify_each(true))
        .expect("O2 on a verified module");
    for cl_opt in [ClOpt::None, ClOpt::Speed] {
        session
            .compile_with(&JitOptions { cl_opt, fuel: true })
            .expect("compiling a verified module");
    }
});
