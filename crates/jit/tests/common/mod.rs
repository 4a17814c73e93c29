//! Helpers shared by the JIT integration tests: compile at both Cranelift levels, run, compare,
//! and the "as if optimized" rewrite (packed struct locals, unchecked vec operations).
#![allow(dead_code)]

use poolopt_ir::{Check, InstKind, Module, RunLimits, Trap, TrapKind, Type};
use poolopt_jit::{ClOpt, CompiledModule, JitOptions, RunError};

/// Compiles `module` at both Cranelift optimization levels.
pub fn compile_both(module: &Module, fuel: bool) -> Vec<CompiledModule> {
    [ClOpt::None, ClOpt::Speed]
        .into_iter()
        .map(|cl_opt| {
            CompiledModule::compile(module, &JitOptions { cl_opt, fuel })
                .unwrap_or_else(|e| panic!("compile at {cl_opt}: {e}"))
        })
        .collect()
}

/// Runs `entry` at both levels with `limits`, asserts both agree, returns the result.
pub fn run_limits(
    module: &Module,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
    fuel: bool,
) -> Result<i64, RunError> {
    let results: Vec<_> = compile_both(module, fuel)
        .iter()
        .map(|c| c.run(entry, args, limits))
        .collect();
    assert_eq!(
        results[0], results[1],
        "none and speed disagree on {entry}{args:?}"
    );
    results[0].clone()
}

/// Runs with default limits at both levels.
pub fn run(module: &Module, entry: &str, args: &[i64]) -> Result<i64, RunError> {
    run_limits(module, entry, args, &RunLimits::default(), false)
}

/// Unwraps a trap of the expected kind.
pub fn expect_trap(r: Result<i64, RunError>, kind: TrapKind) -> Trap {
    match r {
        Err(RunError::Trap(t)) if t.kind == kind => t,
        other => panic!("expected a {kind} trap, got {other:?}"),
    }
}

/// The module as the passes could leave it: every packable struct local `packed`, every vec
/// check `Unchecked` (only valid for programs whose checks never fail).
pub fn packed_unchecked(module: &Module) -> Module {
    let mut m = packed(module);
    for f in m.funcs.values_mut() {
        for inst in f.insts.values_mut() {
            match &mut inst.kind {
                InstKind::VecPop { check, .. }
                | InstKind::VecGet { check, .. }
                | InstKind::VecSet { check, .. } => *check = Check::Unchecked,
                _ => {}
            }
        }
    }
    m
}

/// Only the packing half of [`packed_unchecked`]: every packable struct local `packed`.
pub fn packed(module: &Module) -> Module {
    let mut m = module.clone();
    let packable: Vec<bool> = m
        .structs
        .keys()
        .map(|s| module.packable(s).is_ok())
        .collect();
    for f in m.funcs.values_mut() {
        for l in f.locals.values_mut() {
            if let Type::Struct(s) = l.ty {
                l.packed = packable[s.as_u32() as usize];
            }
        }
    }
    m
}

/// Runs `entry(args)` in the interpreter and in the JIT at both levels; asserts they agree
/// (result, or trap kind, message and function) and returns the interpreter's outcome as
/// `Ok(value)` or `Err((kind, function))`.
pub fn agree(
    m: &Module,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
) -> Result<i64, (TrapKind, String)> {
    let oracle = match poolopt_interp::run(m, entry, args, limits) {
        Ok(v) => Ok(v),
        Err(e) => {
            let t = e
                .as_trap()
                .unwrap_or_else(|| panic!("interpreter error on {entry}{args:?}: {e}"))
                .clone();
            Err(t)
        }
    };
    for c in compile_both(m, false) {
        let got = match c.run(entry, args, limits) {
            Ok(v) => Ok(v),
            Err(RunError::Trap(t)) => Err(t),
            Err(e) => panic!("JIT error on {entry}{args:?}: {e}"),
        };
        assert_eq!(got, oracle, "{entry}{args:?} under {limits:?}");
    }
    oracle.map_err(|t| (t.kind, t.function))
}
