//! A host that survives every program: each resource limit (memory, call depth, fuel) ends a
//! runaway program with a clean trap in the interpreter and in the JIT, at every level and
//! Cranelift level, and the host (and the same compiled module) can run again afterwards.

use poolopt::{
    parse_and_verify, ClOpt, InterpError, JitOptions, OptLevel, PassManager, RunError, RunLimits,
    Session, TrapKind, VerifiedModule,
};

const LEVELS: [OptLevel; 3] = [OptLevel::O0, OptLevel::O1, OptLevel::O2];
const CL_OPTS: [ClOpt; 2] = [ClOpt::None, ClOpt::Speed];

fn load(name: &str, src: &str) -> VerifiedModule {
    parse_and_verify(name, src).unwrap_or_else(|d| panic!("{d}"))
}

/// Runs `entry(args)` under `limits` in the interpreter (before and after each level) and the
/// JIT (each level, each Cranelift level, fuel compiled in iff `limits.fuel` is set); asserts
/// every run ends with the trap `kind`; then runs `entry(ok_args)` on the same compiled module
/// and asserts it gives the interpreter's value (the host and the module survive the trap).
fn traps_everywhere(
    module: &VerifiedModule,
    entry: &str,
    args: &[i64],
    ok_args: Option<&[i64]>,
    limits: &RunLimits,
    kind: TrapKind,
) {
    for level in LEVELS {
        let session = Session::new(module.clone())
            .optimize(&PassManager::for_level(level).verify_each(true))
            .unwrap();
        match session.interpret(entry, args, limits) {
            Err(InterpError::Trap(t)) => assert_eq!(t.kind, kind, "interpreter {level:?}: {t}"),
            other => panic!("interpreter {level:?}: expected a {kind} trap, got {other:?}"),
        }
        let expected_ok = ok_args.map(|a| session.interpret(entry, a, limits).unwrap());
        for cl_opt in CL_OPTS {
            let compiled = session
                .compile_with(&JitOptions {
                    cl_opt,
                    fuel: limits.fuel.is_some(),
                })
                .unwrap();
            for round in 0..2 {
                match compiled.run(entry, args, limits) {
                    Err(RunError::Trap(t)) => {
                        assert_eq!(t.kind, kind, "JIT {level:?} {cl_opt} round {round}: {t}")
                    }
                    other => {
                        panic!("JIT {level:?} {cl_opt}: expected a {kind} trap, got {other:?}")
                    }
                }
                if let (Some(a), Some(v)) = (ok_args, expected_ok) {
                    assert_eq!(compiled.run(entry, a, limits), Ok(v), "after the trap");
                }
            }
        }
    }
}

const GROW: &str = "
struct Big { a: i64, b: i64, c: i64, d: i64 }

; Pushes `n` elements of 32 bytes each (n < 0: forever).
fn main(n: i64) -> i64 {
    var v: vec<Big>
    var s: Big
    var i: i64
    var c: bool
entry:
    v = new vec<Big>
    s = make Big(1, 2, 3, 4)
    i = copy 0
    br head
head:
    c = eq i, n
    brif c, done, body
body:
    push v, s
    i = add i, 1
    br head
done:
    ret i
}
";

#[test]
fn memory_limit_traps_out_of_memory() {
    let module = load("grow.pir", GROW);
    let limits = RunLimits {
        max_memory: 1 << 20,
        ..RunLimits::default()
    };
    // 1 MiB holds 16K elements of 32 bytes at most (less, with the doubling): 100_000 cannot
    // fit, 1000 can.
    traps_everywhere(
        &module,
        "main",
        &[100_000],
        Some(&[1000]),
        &limits,
        TrapKind::OutOfMemory,
    );
    // Unbounded growth traps too (64 MiB: the default 1 GiB works the same way, only slower).
    let limits = RunLimits {
        max_memory: 64 << 20,
        ..RunLimits::default()
    };
    traps_everywhere(&module, "main", &[-1], None, &limits, TrapKind::OutOfMemory);
}

const RECURSE: &str = "
; Recurses `n` times (n < 0: forever), keeping a vec and a struct alive in every frame.
struct S { a: i32, b: i32 }

fn down(n: i64, v: vec<i64>) -> i64 {
    var c: bool
    var m: i64
    var r: i64
    var s: S
    var x: i32
entry:
    c = eq n, 0
    brif c, base, rec
base:
    ret 0
rec:
    push v, n
    s = make S(1, 2)
    m = sub n, 1
    r = call down(m, v)
    x = getfield s.b
    r = add r, 1
    ret r
}

fn main(n: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    r = call down(n, v)
    ret r
}
";

#[test]
fn call_depth_limit_traps_stack_overflow() {
    let module = load("recurse.pir", RECURSE);
    traps_everywhere(
        &module,
        "main",
        &[-1],
        Some(&[500]),
        &RunLimits::default(),
        TrapKind::StackOverflow,
    );
}

#[test]
fn deep_call_depth_limit_traps_without_a_signal() {
    // 100_000 frames: the JIT's run thread gets a stack sized for the depth limit, so the limit
    // traps before the machine stack runs out (a SIGSEGV would kill this test process).
    let module = load("recurse.pir", RECURSE);
    let limits = RunLimits {
        max_depth: 100_000,
        ..RunLimits::default()
    };
    traps_everywhere(
        &module,
        "main",
        &[-1],
        Some(&[50_000]),
        &limits,
        TrapKind::StackOverflow,
    );
}

const SPIN: &str = "
; Loops `n` times (n < 0: forever); also an empty infinite loop.
fn main(n: i64) -> i64 {
    var i: i64
    var c: bool
entry:
    i = copy 0
    br head
head:
    c = eq i, n
    brif c, done, body
body:
    i = add i, 1
    br head
done:
    ret i
}

fn empty() -> i64 {
entry:
    br spin
spin:
    br spin
}
";

#[test]
fn fuel_limit_traps_out_of_fuel() {
    let module = load("spin.pir", SPIN);
    let limits = RunLimits {
        fuel: Some(100_000),
        ..RunLimits::default()
    };
    traps_everywhere(
        &module,
        "main",
        &[-1],
        Some(&[10]),
        &limits,
        TrapKind::OutOfFuel,
    );
    traps_everywhere(&module, "empty", &[], None, &limits, TrapKind::OutOfFuel);
}

#[test]
fn fuel_limit_needs_fuel_compiled_in() {
    let module = load("spin.pir", SPIN);
    let compiled = Session::new(module)
        .compile_with(&JitOptions {
            cl_opt: ClOpt::Speed,
            fuel: false,
        })
        .unwrap();
    let limits = RunLimits {
        fuel: Some(10),
        ..RunLimits::default()
    };
    assert_eq!(
        compiled.run("main", &[-1], &limits),
        Err(RunError::FuelNotCompiled)
    );
    assert_eq!(compiled.run("main", &[7], &RunLimits::default()), Ok(7));
}

#[test]
fn limits_combine_and_the_first_one_reached_wins() {
    // Recursion that also grows a vec: with a small memory limit the growth traps first, with
    // a small depth limit the depth does, with little fuel the fuel does.
    let module = load("recurse.pir", RECURSE);
    let cases = [
        (
            RunLimits {
                max_memory: 4096,
                max_depth: 100_000,
                fuel: None,
            },
            TrapKind::OutOfMemory,
        ),
        (
            RunLimits {
                max_memory: 1 << 30,
                max_depth: 50,
                fuel: None,
            },
            TrapKind::StackOverflow,
        ),
        (
            RunLimits {
                max_memory: 1 << 30,
                max_depth: 100_000,
                fuel: Some(1000),
            },
            TrapKind::OutOfFuel,
        ),
    ];
    for (limits, kind) in cases {
        traps_everywhere(&module, "main", &[-1], Some(&[20]), &limits, kind);
    }
}
