//! `poolopt run --engine`: `auto` interprets an entry that reaches more IR instructions than
//! the bound (`POOLOPT_INTERPRET_ABOVE`, 250,000 by default) and says so on stderr; results,
//! traps and exit codes are those of the JIT.

use poolopt_test_support::cli::{run_cli_with_env, write_program, CliOutput};
use std::path::PathBuf;
use std::sync::OnceLock;

const PROGRAM: &str = "
fn sum(n: i64) -> i64 {
    var v: vec<i64>
    var i: i64
    var s: i64
    var c: bool
entry:
    v = new vec<i64>
    i = copy 0
    s = copy 0
    br head
head:
    c = slt i, n
    brif c, body, done
body:
    push v, i
    s = add s, i
    i = add i, 1
    br head
done:
    i = get v[n]
    ret s
}

fn main(n: i64) -> i64 {
    var r: i64
entry:
    r = call sum(n)
    ret r
}
";

fn program() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| write_program("engine", "sum.pir", PROGRAM))
}

/// `poolopt run` with `args`, and `POOLOPT_INTERPRET_ABOVE` set when `bound` is given.
fn run(bound: Option<&str>, args: &[&str]) -> CliOutput {
    let path = program().to_string_lossy().into_owned();
    let mut all = vec!["run", path.as_str()];
    all.extend_from_slice(args);
    run_cli_with_env(
        env!("CARGO_BIN_EXE_poolopt"),
        &all,
        &[("POOLOPT_INTERPRET_ABOVE", bound)],
    )
}

#[test]
fn auto_interprets_above_the_bound_with_the_jits_results_and_traps() {
    for level in ["-O0", "-O2"] {
        // `get v[n]` past the last element: a trap after the loop.
        let jit = run(None, &["--args", "5", level, "--engine", "jit"]);
        let auto_small = run(None, &["--args", "5", level]);
        let auto_interp = run(Some("5"), &["--args", "5", level]);
        assert_eq!(jit.code, Some(3), "{jit:?}");
        assert!(jit.stderr.contains("trap: index_oob"), "{jit:?}");
        for other in [&auto_small, &auto_interp] {
            assert_eq!(
                (other.code, &other.stdout),
                (jit.code, &jit.stdout),
                "{other:?}"
            );
            let trap_line = |o: &CliOutput| {
                o.stderr
                    .lines()
                    .find(|l| l.starts_with("trap:"))
                    .map(str::to_owned)
            };
            assert_eq!(trap_line(other), trap_line(&jit), "{other:?}");
        }
        assert!(!auto_small.stderr.contains("interpreter"), "{auto_small:?}");
        assert!(
            auto_interp.stderr.contains("runs in the interpreter"),
            "{auto_interp:?}"
        );
        // `--engine jit` compiles whatever the bound.
        let forced = run(Some("5"), &["--args", "5", level, "--engine", "jit"]);
        assert!(!forced.stderr.contains("interpreter"), "{forced:?}");
        assert_eq!(forced.code, Some(3));
    }
}

#[test]
fn interp_and_engine_cannot_both_be_given() {
    let out = run(None, &["--args", "5", "--interp", "--engine", "jit"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("cannot be used with"), "{out:?}");
}
