//! `Session::run`: the engine choice of `poolopt::engine` (JIT, or the interpreter for entries
//! that reach more code than the bound), with the same results and traps on both engines.

use poolopt::{parse_and_verify, Engine, Executed, RunLimits, RunOptions, Session, TrapKind};

const SRC: &str = "
fn leaf(x: i64) -> i64 {
    var y: i64
entry:
    y = mul x, 3
    ret y
}

fn main(x: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, x
    r = call leaf(x)
    push v, r
    r = get v[x]
    ret r
}

fn unused(x: i64) -> i64 {
    var a: i64
    var b: i64
    var c: i64
entry:
    a = add x, 1
    b = add a, 1
    c = add b, 1
    ret c
}
";

fn session() -> Session {
    Session::new(parse_and_verify("engine.pir", SRC).expect("verifies"))
}

#[test]
fn reachable_instructions_count_only_what_the_entry_calls() {
    let s = session();
    // leaf: mul, ret; main: new, push, call, push, get, ret.
    assert_eq!(s.reachable_instructions("leaf"), 2);
    assert_eq!(s.reachable_instructions("main"), 8);
    assert_eq!(s.reachable_instructions("unused"), 4);
    assert_eq!(s.reachable_instructions("nope"), 0);
}

#[test]
fn auto_interprets_strictly_above_the_bound() {
    let s = session();
    let at = |bound| RunOptions {
        interpret_above: bound,
        ..RunOptions::default()
    };
    assert_eq!(s.engine_for("main", &at(8)), Executed::Jit);
    assert_eq!(s.engine_for("main", &at(7)), Executed::Interpreter);
    let forced = RunOptions {
        engine: Engine::Jit,
        ..at(0)
    };
    assert_eq!(s.engine_for("main", &forced), Executed::Jit);
    let interp = RunOptions {
        engine: Engine::Interpreter,
        ..at(usize::MAX)
    };
    assert_eq!(s.engine_for("main", &interp), Executed::Interpreter);
}

#[test]
fn both_engines_give_the_same_values_and_traps() {
    let s = session();
    let limits = RunLimits::default();
    for engine in [Engine::Jit, Engine::Interpreter] {
        let options = RunOptions {
            engine,
            ..RunOptions::default()
        };
        let ran = s.run("main", &[1], &limits, &options).expect("runs");
        assert_eq!(ran.result, Ok(3), "{engine:?}");
        let trapped = s.run("main", &[2], &limits, &options).expect("runs");
        let trap = trapped.result.expect_err("index 2 of 2 elements");
        assert_eq!(trap.kind, TrapKind::IndexOob, "{engine:?}");
        assert!(
            s.run("nope", &[1], &limits, &options).is_err(),
            "{engine:?}"
        );
        // A fuel limit works on both (the JIT compiles fuel in when a limit is given).
        let fueled = RunLimits {
            fuel: Some(1_000),
            ..limits
        };
        assert_eq!(
            s.run("main", &[0], &fueled, &options).expect("runs").result,
            Ok(0)
        );
    }
}
