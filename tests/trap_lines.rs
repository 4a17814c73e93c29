//! Trap lines: every trap (its kind, message, function *and* source line) is identical in the
//! interpreter and in the JIT at O0, O1 and O2 under both Cranelift levels, through `run` and
//! through a typed entry; each kind reports the line docs/ir.md says it does.

mod common;

use common::*;
use poolopt::{JitOptions, RunLimits, TrapKind};
use poolopt_test_support::{line_of, trap_everywhere};

#[test]
fn trap_examples_report_the_line_of_the_trapping_instruction() {
    for (file, kind, needle) in [
        ("pop_empty", TrapKind::PopEmpty, "y = pop v"),
        ("index_oob", TrapKind::IndexOob, "x = get v[n]"),
        ("div_zero", TrapKind::DivZero, "q = sdiv a, b"),
        ("explicit", TrapKind::Explicit, "trap \""),
        ("use_after_drop", TrapKind::UseAfterDrop, "push v, 2"),
        ("out_of_memory", TrapKind::OutOfMemory, "push v, k"),
    ] {
        let rel = format!("examples/traps/{file}.pir");
        let src = std::fs::read_to_string(root().join(&rel)).unwrap();
        let module = load(&rel);
        let limits = RunLimits {
            max_memory: 1 << 20,
            ..RunLimits::default()
        };
        let trap = trap_everywhere(&module, "main", &[], &limits);
        assert_eq!(trap.kind, kind, "{rel}");
        assert_eq!(trap.line, line_of(&src, needle), "{rel}: {trap}");
        assert!(
            trap.to_string()
                .ends_with(&format!(" at line {}", trap.line)),
            "{trap}"
        );
    }
}

const RECURSIVE: &str = "\
fn main(n: i64) -> i64 {
    var r: i64
entry:
    r = call down(n)
    ret r
}

fn down(n: i64) -> i64 {
    var c: bool
    var r: i64
entry:
    c = sle n, 0
    brif c, base, rec
base:
    ret 0
rec:
    n = sub n, 1
    r = call down(n)
    r = add r, 1
    ret r
}
";

#[test]
fn stack_overflow_reports_the_callee_fn_line_and_out_of_fuel_none() {
    let module = load_str("recursive.pir", RECURSIVE);
    let deep = RunLimits {
        max_depth: 50,
        ..RunLimits::default()
    };
    let trap = trap_everywhere(&module, "main", &[100], &deep);
    assert_eq!((trap.kind, trap.line), (TrapKind::StackOverflow, 8));
    assert_eq!(trap.function, "down");

    let fuel = RunLimits {
        fuel: Some(20),
        ..RunLimits::default()
    };
    // Where fuel runs out differs between levels by design: check each engine on its own.
    for level in LEVELS {
        let session = optimize(&module, level);
        let interp = session.interpret("main", &[100], &fuel).unwrap_err();
        let jit = session
            .compile_for_entry(
                "main",
                &JitOptions {
                    fuel: true,
                    ..JitOptions::default()
                },
            )
            .unwrap()
            .run("main", &[100], &fuel)
            .unwrap_err();
        for trap in [interp.as_trap().cloned(), jit.as_trap().cloned()] {
            let trap = trap.expect("a trap");
            assert_eq!(
                (trap.kind, trap.line),
                (TrapKind::OutOfFuel, 0),
                "{level:?}"
            );
            assert!(!trap.to_string().contains(" at line "), "{trap}");
        }
    }
}

#[test]
fn typed_entries_report_the_same_trap_as_run() {
    let module = load_str("recursive.pir", RECURSIVE);
    let limits = RunLimits {
        max_depth: 50,
        ..RunLimits::default()
    };
    let want = trap_everywhere(&module, "main", &[100], &limits);
    for level in LEVELS {
        let compiled = optimize(&module, level)
            .compile_for_entry("main", &JitOptions::default())
            .unwrap();
        let main = compiled
            .entry_with_limits::<(i64,), i64>("main", &limits)
            .unwrap();
        assert_eq!(main.call((100,)), Err(want.clone()), "{level:?}");
        assert_eq!(main.call((10,)), Ok(10), "{level:?}");
    }
}

/// Division checks that `div-check-elim` keeps, hoists or versions around trap with the same
/// kind and line at every level: a zero divisor in the original loop of a versioned one, a
/// divisor assigned in the loop, a guard that lets 0 through, and a checked access before the
/// division in the unchecked copy.
#[test]
fn division_traps_keep_their_line_through_div_check_elim() {
    for (file, args, kind, needle) in [
        (
            "div_loop_zero_divisor",
            &[4, 0][..],
            TrapKind::DivZero,
            "q = urem i, k",
        ),
        (
            "div_loop_divisor_assigned",
            &[100, 3][..],
            TrapKind::DivZero,
            "q = sdiv x, k",
        ),
        (
            "div_guarded_nonneg_zero",
            &[100, 0][..],
            TrapKind::DivZero,
            "q = sdiv x, k",
        ),
        (
            "div_loop_trap_before_division",
            &[5][..],
            TrapKind::IndexOob,
            "x = get v[i]",
        ),
    ] {
        let rel = format!("tests/passes/{file}.pir");
        let src = std::fs::read_to_string(root().join(&rel)).unwrap();
        let module = load(&rel);
        let trap = trap_everywhere(&module, "main", args, &RunLimits::default());
        assert_eq!(trap.kind, kind, "{rel}");
        assert_eq!(trap.line, line_of(&src, needle), "{rel}: {trap}");
    }
}
