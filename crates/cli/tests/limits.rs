//! The limit flags of `poolopt run`: `--fuel N`, `--max-memory BYTES` and `--max-depth N` end a
//! runaway program with exit code 3 and `trap: <kind>: ...` on stderr, with the JIT at every
//! level and with `--interp`; generous limits let the same program finish with exit code 0.

use poolopt_test_support::cli::{run_cli, write_program, CliOutput};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const PROGRAM: &str = "
fn spin(n: i64) -> i64 {
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

fn grow(n: i64) -> i64 {
    var v: vec<i64>
    var i: i64
    var c: bool
entry:
    v = new vec<i64>
    i = copy 0
    br head
head:
    c = eq i, n
    brif c, done, body
body:
    push v, i
    i = add i, 1
    br head
done:
    ret i
}

fn down(n: i64) -> i64 {
    var c: bool
    var m: i64
    var r: i64
entry:
    c = eq n, 0
    brif c, base, rec
base:
    ret 0
rec:
    m = sub n, 1
    r = call down(m)
    r = add r, 1
    ret r
}
";

/// The program file, written once per test process (tests run on parallel threads: rewriting
/// it for every run let a `poolopt` process read it half-written).
fn program() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| write_program("cli-limits", "limits.pir", PROGRAM))
}

fn run(entry: &str, arg: i64, extra: &[&str]) -> CliOutput {
    let arg = arg.to_string();
    let mut args = vec![
        "run",
        program().to_str().unwrap(),
        "--entry",
        entry,
        "--args",
        &arg,
    ];
    args.extend_from_slice(extra);
    run_cli(env!("CARGO_BIN_EXE_poolopt"), &args)
}

const MODES: [&[&str]; 4] = [
    &["-O0"],
    &["-O2", "--cl-opt", "none"],
    &["-O2"],
    &["--interp"],
];

fn assert_trap(entry: &str, arg: i64, flags: &[&str], kind: &str) {
    for mode in MODES {
        let args: Vec<&str> = flags.iter().chain(mode.iter()).copied().collect();
        let out = run(entry, arg, &args);
        assert_eq!(out.code, Some(3), "{entry} {args:?}: {}", out.stderr);
        assert!(
            out.stderr.contains(&format!("trap: {kind}: ")),
            "{entry} {args:?}: {}",
            out.stderr
        );
    }
}

fn assert_value(entry: &str, arg: i64, flags: &[&str]) {
    for mode in MODES {
        let args: Vec<&str> = flags.iter().chain(mode.iter()).copied().collect();
        let out = run(entry, arg, &args);
        assert_eq!(out.code, Some(0), "{entry} {args:?}: {}", out.stderr);
        assert_eq!(out.stdout.lines().last(), Some(arg.to_string().as_str()));
    }
}

#[test]
fn fuel_flag() {
    assert_trap("spin", -1, &["--fuel", "10000"], "out_of_fuel");
    assert_value("spin", 100, &["--fuel", "10000"]);
}

#[test]
fn max_memory_flag() {
    assert_trap("grow", -1, &["--max-memory", "100000"], "out_of_memory");
    assert_value("grow", 1000, &["--max-memory", "100000"]);
}

#[test]
fn max_depth_flag() {
    assert_trap("down", -1, &["--max-depth", "100"], "stack_overflow");
    assert_trap("down", -1, &["--max-depth", "100000"], "stack_overflow");
    assert_value("down", 90, &["--max-depth", "100"]);
}

/// A host with less memory than the limits allow: under an address-space limit of 900 MB
/// (`ulimit -v`), frames of a 1 MiB struct local recursing to the depth limit (1 GB) end the
/// interpreter's run with a `stack_overflow` trap naming the refused memory (its frame stack
/// grows on the heap; the allocation failure aborted the process), and the JIT's with an
/// error naming the stack it asked for (never a signal); a vec of them grown past what the
/// host gives (under a larger `--max-memory`) traps `out_of_memory` in both.
#[test]
fn a_host_that_refuses_memory_gets_a_trap_or_an_error() {
    let fields: Vec<String> = (0..131_072).map(|k| format!("f{k}: i64")).collect();
    let src = format!(
        "struct W {{ {} }}\nfn r(k: i64) -> i64 {{\n    var s: W\n    var c: bool\n    \
         var m: i64\nentry:\n    c = sle k, 0\n    brif c, done, more\ndone:\n    ret 0\n\
         more:\n    m = sub k, 1\n    m = call r(m)\n    ret m\n}}\n",
        fields.join(", ")
    );
    let path = write_program("cli-limits", "frames.pir", &src);
    let bin = env!("CARGO_BIN_EXE_poolopt");
    let run = |engine: &str| {
        let script = format!(
            "ulimit -v 900000; exec '{bin}' run '{}' --entry r --args 2000 -O0 --engine {engine}",
            path.display()
        );
        run_cli("sh", &["-c", &script])
    };
    let interp = run("interp");
    assert_eq!(interp.code, Some(3), "{}", interp.stderr);
    assert!(
        interp.stderr.contains("trap: stack_overflow: ")
            && interp.stderr.contains("the host refused the memory"),
        "{}",
        interp.stderr
    );
    let jit = run("jit");
    assert!(
        matches!(jit.code, Some(2 | 3)),
        "{:?}: {}",
        jit.code,
        jit.stderr
    );
    assert!(jit.stderr.contains("bytes"), "{}", jit.stderr);
    // A vec of such structs under a memory limit the host cannot give: `out_of_memory`
    // everywhere (the interpreter's element buffer aborted the process too).
    let grow = format!(
        "struct W {{ {} }}\nfn g(k: i64) -> i64 {{\n    var s: W\n    var v: vec<W>\n    \
         var c: bool\n    var i: i64\nentry:\n    v = new vec<W>\n    i = copy 0\n    br head\n\
         head:\n    c = slt i, k\n    brif c, body, done\nbody:\n    push v, s\n    \
         i = add i, 1\n    br head\ndone:\n    ret i\n}}\n",
        fields.join(", ")
    );
    let path = write_program("cli-limits", "grow_wide.pir", &grow);
    for engine in ["interp", "jit"] {
        let script = format!(
            "ulimit -v 900000; exec '{bin}' run '{}' --entry g --args 3000 -O0 \
             --max-memory 8000000000 --engine {engine}",
            path.display()
        );
        let out = run_cli("sh", &["-c", &script]);
        assert_eq!(out.code, Some(3), "{engine}: {}", out.stderr);
        assert!(
            out.stderr.contains("trap: out_of_memory: "),
            "{engine}: {}",
            out.stderr
        );
    }
}
