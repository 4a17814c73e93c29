//! Running a program everywhere: the reference interpreter before and after each level's
//! pipeline, and the JIT at every level and Cranelift level. Pipelines run with and without
//! remark collection and must give the same IR.

use poolopt::{
    parse_and_verify, ClOpt, InterpError, JitOptions, OptLevel, PassManager, RunError, RunLimits,
    Session, Trap, VerifiedModule,
};

pub const LEVELS: [OptLevel; 3] = [OptLevel::O0, OptLevel::O1, OptLevel::O2];
pub const CL_OPTS: [ClOpt; 2] = [ClOpt::None, ClOpt::Speed];

/// Parses and verifies program text (as untrusted input); panics with the rendered
/// diagnostics.
pub fn load_str(name: &str, src: &str) -> VerifiedModule {
    parse_and_verify(name, src).unwrap_or_else(|d| panic!("{d}"))
}

/// The outcome of one run, comparable across engines: a value or a trap kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Value(i64),
    Trap(String),
}

impl Outcome {
    fn from_trap(t: &Trap) -> Outcome {
        Outcome::Trap(t.kind.name().to_string())
    }
}

/// Runs `entry(args)` in the interpreter; an error that is not a trap (such as a violated
/// unchecked precondition) panics.
pub fn interp_outcome(
    module: &VerifiedModule,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
) -> Outcome {
    match poolopt::interp::run(module.module(), entry, args, limits) {
        Ok(v) => Outcome::Value(v),
        Err(InterpError::Trap(t)) => Outcome::from_trap(&t),
        Err(e) => panic!("interpreter failed: {e}"),
    }
}

/// Optimizes with `level`'s pipeline (verifying after every pass), without remarks (as `poolopt
/// run` and embedders do); asserts that collecting remarks gives the same IR.
pub fn optimize(module: &VerifiedModule, level: OptLevel) -> Session {
    optimize_both_ways(module, || PassManager::for_level(level))
}

/// Runs the pipeline `manager()` makes (verifying after every pass) with remarks collected and
/// without; asserts that both give the same IR and returns the session without remarks.
pub fn optimize_both_ways(module: &VerifiedModule, manager: impl Fn() -> PassManager) -> Session {
    let run = |remarks: bool| {
        Session::new(module.clone())
            .optimize(&manager().verify_each(true).collect_remarks(remarks))
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let quiet = run(false);
    let loud = run(true);
    let text = |s: &Session| poolopt::ir::print_module(s.module().module());
    assert_eq!(
        text(&quiet),
        text(&loud),
        "the passes give other IR when remarks are collected"
    );
    quiet
}

/// Compiles `session` under `cl` (fuel compiled in iff `limits.fuel` is set) and runs
/// `entry(args)`; a run error that is not a trap panics.
pub fn jit_outcome(
    session: &Session,
    cl: ClOpt,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
) -> Outcome {
    let compiled = session
        .compile_with(&poolopt::JitOptions {
            cl_opt: cl,
            fuel: limits.fuel.is_some(),
        })
        .unwrap_or_else(|e| panic!("compile: {e}"));
    match compiled.run(entry, args, limits) {
        Ok(v) => Outcome::Value(v),
        Err(RunError::Trap(t)) => Outcome::from_trap(&t),
        Err(e) => panic!("run failed: {e}"),
    }
}

/// Runs `entry` in the interpreter (unoptimized and after each level) and in the JIT at every
/// level and Cranelift level; asserts every outcome equals the unoptimized interpreter's and
/// returns it.
pub fn run_everywhere(
    module: &VerifiedModule,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
) -> Outcome {
    let reference = interp_outcome(module, entry, args, limits);
    for level in LEVELS {
        let session = optimize(module, level);
        let optimized = interp_outcome(session.module(), entry, args, limits);
        assert_eq!(
            optimized, reference,
            "interpreter after {level:?} differs for {entry}{args:?}"
        );
        for cl in CL_OPTS {
            let got = jit_outcome(&session, cl, entry, args, limits);
            assert_eq!(
                got, reference,
                "JIT {level:?} cl={cl} differs for {entry}{args:?}"
            );
        }
    }
    reference
}

/// Runs `entry` in the interpreter and in the JIT (compiled for that entry, through `run`) after
/// each level, under both Cranelift levels; asserts that every run traps with the same trap
/// (kind, message, function and line) and returns it.
pub fn trap_everywhere(
    module: &VerifiedModule,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
) -> Trap {
    let mut seen: Option<(String, Trap)> = None;
    let mut record = |what: String, got: Trap| match &seen {
        None => seen = Some((what, got)),
        Some((first, want)) => assert_eq!(&got, want, "{what} disagrees with {first}"),
    };
    for level in LEVELS {
        let session = optimize(module, level);
        match session.interpret(entry, args, limits) {
            Err(e) => match e.as_trap() {
                Some(t) => record(format!("interp {level:?}"), t.clone()),
                None => panic!("interp {level:?}: {e}"),
            },
            Ok(v) => panic!("interp {level:?}: no trap, {v}"),
        }
        for cl_opt in CL_OPTS {
            let opts = JitOptions {
                cl_opt,
                fuel: limits.fuel.is_some(),
            };
            let compiled = session
                .compile_for_entry(entry, &opts)
                .unwrap_or_else(|e| panic!("compile {level:?}/{cl_opt}: {e}"));
            match compiled.run(entry, args, limits) {
                Err(RunError::Trap(t)) => record(format!("jit {level:?}/{cl_opt}"), t),
                other => panic!("jit {level:?}/{cl_opt}: {other:?}"),
            }
        }
    }
    seen.expect("something ran").1
}

/// The 1-based number of the first line of `src` containing `needle`.
pub fn line_of(src: &str, needle: &str) -> u32 {
    let i = src
        .lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` not in the source"));
    i as u32 + 1
}
