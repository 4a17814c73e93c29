//! Tests of the toy language front end (examples/toy): every shipped program runs in the
//! interpreter and in the JIT at O0/O1/O2 with Cranelift `none` and `speed`, with identical
//! results; the trap and error programs produce their expected output and exit codes; the IR
//! the front end emits for a pool's `alloc` is snapshotted before and after O2 (with remarks).

#[path = "../examples/toy/args.rs"]
mod args;
#[path = "../examples/toy/ast.rs"]
mod ast;
#[path = "../examples/toy/check.rs"]
mod check;
#[path = "../examples/toy/driver.rs"]
mod driver;
#[path = "../examples/toy/error.rs"]
mod error;
#[path = "../examples/toy/lexer.rs"]
mod lexer;
#[path = "../examples/toy/lower.rs"]
mod lower;
#[path = "../examples/toy/parser.rs"]
mod parser;
#[path = "../examples/toy/typed.rs"]
mod typed;

use driver::{compile, run_command, run_source, Outcome, ToyError};
use poolopt::{ClOpt, OptLevel, RunLimits, Session, VerifiedModule};
use std::path::{Path, PathBuf};

const LEVELS: [OptLevel; 3] = [OptLevel::O0, OptLevel::O1, OptLevel::O2];
const CL_OPTS: [ClOpt; 2] = [ClOpt::None, ClOpt::Speed];

fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/toy/programs")
}

fn read(rel: &str) -> String {
    let path = programs_dir().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn compile_ok(name: &str, source: &str) -> VerifiedModule {
    compile(source).unwrap_or_else(|e| panic!("{}", e.render(name, source)))
}

/// Runs `entry(args)` in the interpreter and in the JIT at every level and Cranelift level;
/// returns the result or the trap line, after checking that all of them agree.
fn run_everywhere(module: &VerifiedModule, entry: &str, args: &[i64]) -> Result<i64, String> {
    let limits = RunLimits::default();
    let mut seen: Option<(String, Result<i64, String>)> = None;
    let mut record = |what: String, got: Result<i64, String>| match &seen {
        None => seen = Some((what, got)),
        Some((first, want)) => assert_eq!(&got, want, "{what} disagrees with {first}"),
    };
    for level in LEVELS {
        let session = Session::new(module.clone())
            .optimize_level(level)
            .unwrap_or_else(|e| panic!("{level:?}: {e}"));
        let got = session
            .interpret(entry, args, &limits)
            .map_err(|e| match e.as_trap() {
                Some(t) => t.to_string(),
                None => panic!("interpreter at {level:?}: {e}"),
            });
        record(format!("interp {level:?}"), got);
        for cl in CL_OPTS {
            let compiled = session.compile(cl).unwrap_or_else(|e| panic!("{e}"));
            let got = compiled.run(entry, args, &limits).map_err(|e| match e {
                poolopt::RunError::Trap(t) => t.to_string(),
                other => panic!("JIT at {level:?}/{cl}: {other}"),
            });
            record(format!("jit {level:?}/{cl}"), got);
        }
    }
    seen.map(|(_, r)| r).unwrap_or(Err("nothing ran".into()))
}

/// The expected workload results: (workload, size, n, rounds, result).
fn workload_expectations() -> Vec<(String, u32, i64, i64, i64)> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/workloads/expected.txt"),
    )
    .unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let parts: Vec<&str> = line.split_whitespace().collect();
            let (workload, size) = parts[0].rsplit_once('_').unwrap();
            (
                workload.to_string(),
                size.parse().unwrap(),
                parts[1].parse().unwrap(),
                parts[2].parse().unwrap(),
                parts[3].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn slot_pool_workloads_give_the_expected_results_everywhere() {
    let expectations: Vec<_> = workload_expectations()
        .into_iter()
        .filter(|(_, _, n, _, _)| *n <= 100)
        .collect();
    assert_eq!(expectations.len(), 6);
    for (workload, size, n, rounds, want) in expectations {
        let name = format!("slot_pool_{size}.toy");
        let module = compile_ok(&name, &read(&name));
        let got = run_everywhere(&module, &workload, &[n, rounds]);
        assert_eq!(got, Ok(want), "{name} {workload}({n}, {rounds})");
    }
}

/// The reference sizes, in the JIT at O2 (the interpreter runs them in the release suite of
/// the .pir workloads; here the point is that the toy program scales like the .pir one).
#[test]
#[ignore = "reference sizes take a while; run with --include-ignored in release"]
fn slot_pool_workloads_at_reference_sizes() {
    for (workload, size, n, rounds, want) in workload_expectations() {
        let name = format!("slot_pool_{size}.toy");
        let module = compile_ok(&name, &read(&name));
        let session = Session::new(module).optimize_level(OptLevel::O2).unwrap();
        let compiled = session.compile(ClOpt::Speed).unwrap();
        let got = compiled.run(&workload, &[n, rounds], &RunLimits::default());
        assert_eq!(got, Ok(want), "{name} {workload}({n}, {rounds})");
    }
}

/// The checksums of the other pool styles, computed independently by the Python model in
/// examples/toy/models/checksums.py (not copied from the programs' output).
#[test]
fn pool_styles_match_their_independent_model() {
    for (name, want) in [
        ("bitmap_slab.toy", -5743422993884371335i64),
        ("object_pool.toy", -7457236778206275900),
        ("gen_pool.toy", -93201594382921418),
    ] {
        let module = compile_ok(name, &read(name));
        assert_eq!(run_everywhere(&module, "main", &[]), Ok(want), "{name}");
    }
}

/// The files of a subdirectory of the programs, sorted, with their `// expect: ` line.
fn expectation_files(dir: &str) -> Vec<(String, String, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(programs_dir().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toy"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let rel = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
            let source = std::fs::read_to_string(&path).unwrap();
            let expect = source
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("// expect: "))
                .unwrap_or_else(|| panic!("{rel}: first line must be `// expect: ...`"))
                .to_string();
            (rel, source, expect)
        })
        .collect()
}

/// The driver's `FILE:LINE: trap: ...` as the trap's own Display, `trap: ... at line LINE`.
fn trap_display(expect: &str) -> String {
    let (site, what) = expect
        .split_once(": trap: ")
        .unwrap_or_else(|| panic!("`{expect}` is not `FILE:LINE: trap: ...`"));
    let (_, line) = site.rsplit_once(':').unwrap();
    format!("trap: {what} at line {line}")
}

fn options(file: &str, extra: &[&str]) -> args::Options {
    let mut argv = vec![file.to_string()];
    argv.extend(extra.iter().map(|s| s.to_string()));
    args::parse_args(&argv).unwrap()
}

#[test]
fn trap_programs_trap_the_same_everywhere() {
    let files = expectation_files("traps");
    assert_eq!(files.len(), 4);
    for (rel, source, expect) in files {
        let module = compile_ok(&rel, &source);
        assert_eq!(
            run_everywhere(&module, "main", &[]),
            Err(trap_display(&expect)),
            "{rel}"
        );
        for extra in [
            &["-O0"][..],
            &["-O2", "--interp"],
            &["-O1", "--cl-opt", "none"],
        ] {
            let out = run_source(&options(&rel, extra), &source);
            assert_eq!(
                out,
                Outcome {
                    stdout: String::new(),
                    stderr: format!("{expect}\n"),
                    code: 3
                },
                "{rel} {extra:?}"
            );
        }
    }
}

#[test]
fn error_programs_report_located_errors() {
    let files = expectation_files("errors");
    assert_eq!(files.len(), 6);
    for (rel, source, expect) in files {
        let out = run_source(&options(&rel, &[]), &source);
        assert_eq!(out.code, 2, "{rel}: {out:?}");
        assert_eq!(out.stdout, "", "{rel}");
        assert_eq!(out.stderr.lines().next(), Some(expect.as_str()), "{rel}");
        let name = Path::new(&rel)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .to_string();
        insta::assert_snapshot!(format!("error_{name}"), out.stderr);
    }
}

fn alloc_ir(session: &Session) -> String {
    let module = session.module().module();
    let id = module.func_by_name("alloc").expect("alloc exists");
    poolopt::ir::print_function(module, &module.funcs[id])
}

#[test]
fn alloc_ir_as_emitted_by_the_front_end() {
    let module = compile_ok("slot_pool_8.toy", &read("slot_pool_8.toy"));
    insta::assert_snapshot!("alloc_o0", alloc_ir(&Session::new(module)));
}

#[test]
fn alloc_ir_after_o2_with_remarks() {
    let module = compile_ok("slot_pool_8.toy", &read("slot_pool_8.toy"));
    let session = Session::new(module).optimize_level(OptLevel::O2).unwrap();
    let remarks: Vec<String> = session
        .report()
        .remarks
        .iter()
        .filter(|r| r.function == "alloc")
        .map(|r| format!("remark: {r}"))
        .collect();
    // Remarks point at toy source lines: the pop of the free list is line 18 of the program.
    assert!(
        remarks.iter().any(|r| r.starts_with("remark: line 18: ")),
        "{remarks:#?}"
    );
    insta::assert_snapshot!(
        "alloc_o2",
        format!(
            "{}\n; remarks\n{}\n",
            alloc_ir(&session),
            remarks.join("\n")
        )
    );
}

/// Runs a small program's `main` everywhere.
fn eval(source: &str) -> Result<i64, String> {
    let module = compile_ok("test.toy", source);
    run_everywhere(&module, "main", &[])
}

fn compile_error(source: &str) -> String {
    match compile(source) {
        Err(ToyError::Source(e)) => e.to_string(),
        Err(other) => panic!("internal error: {other}"),
        Ok(_) => panic!("expected a compile error"),
    }
}

#[test]
fn short_circuit_operators_skip_their_right_operand() {
    // `v[5]` would trap index_oob: `&&` and `||` must not evaluate it.
    let src = "fn main() -> i64 {
        let v = new vec<i64>;
        let r = 0;
        if v.len() > 5 && v[5] == 1 { r = r + 1; }
        if v.len() == 0 || v[5] == 1 { r = r + 10; }
        let b = v.len() > 5 && v[5] == 1;
        let c = v.len() == 0 || v[5] == 1;
        if !b && c { r = r + 100; }
        return r;
    }";
    assert_eq!(eval(src), Ok(110));
}

#[test]
fn arithmetic_wraps_and_i32_truncates() {
    let src = "fn main() -> i64 {
        let big = 9223372036854775807;
        let min = -9223372036854775808;
        let x: i32 = 2147483647;
        let y = x + 1;
        if big + 1 != min { return 1; }
        if y != -2147483648 { return 2; }
        if (4294967298 as i32) as i64 != 2 { return 3; }
        if -7 / 2 != -3 || -7 % 2 != -1 { return 4; }
        if (1 << 65) != 2 || (-16 >> 2) != -4 { return 5; }
        if (true as i64) + (false as i64) != 1 { return 6; }
        return 0;
    }";
    assert_eq!(eval(src), Ok(0));
}

#[test]
fn shadowing_scopes_and_else_if_chains() {
    let src = "fn classify(x: i64) -> i64 {
        if x < 0 { return -1; } else if x == 0 { return 0; } else { return 1; }
    }
    fn main() -> i64 {
        let x = 5;
        let total = 0;
        if x > 0 {
            let x = 100;
            total = total + x;
        }
        let k = 0;
        while k < 3 {
            let x = k * 1000;
            total = total + x;
            k = k + 1;
        }
        return total + x + classify(-3) * 10000 + classify(0) + classify(9) * 100000;
    }";
    assert_eq!(eval(src), Ok(100 + 3000 + 5 - 10000 + 100000));
}

#[test]
fn split_structs_share_vecs_and_copy_scalars() {
    // A struct with vec fields is one local per field: passing it shares the vecs (a callee's
    // push is visible), while its scalar field is copied. Swapping fields goes through temps.
    let src = "struct P { a: vec<i64>, b: vec<i64>, n: i64 }
    fn add(p: P, x: i64) { p.a.push(x); p.n = p.n + 1; }
    fn main() -> i64 {
        let p = P { a: new vec<i64>, b: new vec<i64>, n: 0 };
        add(p, 7);
        add(p, 8);
        p.b.push(1);
        p = P { a: p.b, b: p.a, n: p.n + 40 };
        let q = p;
        q.a.push(2);
        return p.a.len() * 1000 + p.b.len() * 100 + p.n + q.b[1];
    }";
    assert_eq!(eval(src), Ok(2 * 1000 + 2 * 100 + 40 + 8));
}

#[test]
fn struct_elements_are_read_and_written_by_field() {
    let src = "struct S { a: i32, b: i64, c: bool }
    fn main() -> i64 {
        let v = new vec<S>;
        v.push(S { a: 1, b: 2, c: false });
        v.push(S { b: 20, c: true, a: 10 });
        v[1].b = v[0].b + v[1].b;
        v[0] = v[1];
        let s = v[0];
        s.a = s.a * 3;
        if !s.c { return -1; }
        return (s.a as i64) * 1000 + s.b + v.pop().b;
    }";
    assert_eq!(eval(src), Ok(30 * 1000 + 22 + 22));
}

#[test]
fn type_errors_are_located() {
    for (src, want) in [
        (
            "fn main() -> i64 { return true; }",
            "1:27: expected `i64`, found `bool`",
        ),
        (
            "fn main() -> i64 { let v = new vec<i64>; v.push(true); return 0; }",
            "1:49: expected `i64`, found `bool`",
        ),
        (
            "fn main() -> i64 { return f(); }",
            "1:27: unknown function `f`",
        ),
        (
            "fn main() -> i64 { let x = 1; x.y = 2; return x; }",
            "1:33: `i64` has no fields",
        ),
        (
            "fn main() -> i64 { let v = new vec<i64>; return v.peek(); }",
            "1:51: vecs have no method `peek` (they have push, pop, len, drop)",
        ),
        (
            "fn main() -> i64 { let x: i32 = 3000000000; return 0; }",
            "1:33: literal `3000000000` does not fit `i32`",
        ),
        (
            "fn f() {} fn main() -> i64 { let x = f(); return 0; }",
            "1:38: this expression produces no value",
        ),
        (
            "fn main() -> i64 { 1 + 2; return 0; }",
            "1:20: only calls can be used as statements",
        ),
        (
            "fn main() -> i64 { return 99999999999999999999; }",
            "1:27: invalid integer literal `99999999999999999999`",
        ),
        (
            "fn main() -> i64 { return 9223372036854775808; }",
            "1:27: integer literal out of range for i64",
        ),
        (
            "struct S { a: S } fn main() -> i64 { return 0; }",
            "1:12: field `a` must be an i64, i32, bool or vec",
        ),
        (
            "fn main() -> i64 { return \"x\"; }",
            "1:27: expected an expression, found a string",
        ),
    ] {
        assert_eq!(compile_error(src), want, "{src}");
    }
}

#[test]
fn hostile_input_never_panics() {
    // Deep nesting is an error, not a stack overflow.
    let deep = format!(
        "fn main() -> i64 {{ return {}1{}; }}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    assert!(compile_error(&deep).contains("nesting deeper than"));
    let deep_blocks = format!(
        "fn main() -> i64 {{ {} return 0; }}",
        "if true { ".repeat(3000)
    );
    assert!(compile_error(&deep_blocks).contains("nesting deeper than"));
    // Every prefix of every shipped program compiles or reports an error.
    for name in ["slot_pool_8.toy", "bitmap_slab.toy", "gen_pool.toy"] {
        let source = read(name);
        for (cut, _) in source.char_indices().step_by(7) {
            let _ = compile(&source[..cut]);
        }
    }
    for junk in [
        "",
        "fn",
        "fn main(",
        "struct {",
        "fn main() -> vec<vec<i64>> {}",
        "\"",
        "\u{0}",
        "fn f() { x = ; }",
    ] {
        let _ = compile(junk);
    }
}

fn command(argv: &[&str]) -> Outcome {
    let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
    run_command(&argv)
}

#[test]
fn the_command_follows_the_poolopt_run_contract() {
    let file = programs_dir().join("slot_pool_8.toy");
    let file = file.to_str().unwrap();
    let out = command(&[file, "--entry", "lifo", "--args", "10,5", "-O1"]);
    assert_eq!(
        (out.stdout.as_str(), out.code),
        ("2999155661484216252\n", 0)
    );
    let out = command(&[file, "--entry", "lifo", "--args", "10,5", "--interp", "-O0"]);
    assert_eq!(
        (out.stdout.as_str(), out.code),
        ("2999155661484216252\n", 0)
    );
    let out = command(&[file, "--emit", "ir", "-O0"]);
    assert!(out
        .stdout
        .contains("fn alloc(p_items: vec<S8>, p_free: vec<i64>, v: S8) -> i64 {"));
    let out = command(&[file, "--emit", "clif", "--entry", "x"]);
    assert!(out.stdout.contains("function"), "{out:?}");
    let out = command(&[file, "--emit", "asm"]);
    assert_eq!(out.code, 0, "{out:?}");
    let out = command(&[file, "--entry", "lifo", "--args", "10,5", "--remarks"]);
    // Remarks come on stderr; those about instructions carry toy source lines.
    assert!(
        out.stderr.lines().all(|l| l.starts_with("remark: ")),
        "{}",
        out.stderr
    );
    assert!(out
        .stderr
        .contains("remark: line 18: bounds-check-elim: applied: in alloc/then0"));
    assert_eq!(out.stdout, "2999155661484216252\n");
    // A missing entry, bad arguments and usage errors exit 2.
    assert_eq!(command(&[file]).code, 2);
    assert_eq!(command(&[file, "--entry", "lifo", "--args", "1"]).code, 2);
    for bad in [
        &[][..],
        &[file, "--args", "x"],
        &[file, "-O3"],
        &[file, "--emit"],
        &[file, file],
    ] {
        let out = command(bad);
        assert_eq!(out.code, 2, "{bad:?}");
        assert!(out.stderr.starts_with("error: "), "{bad:?}: {}", out.stderr);
    }
    let out = command(&["/nonexistent.toy"]);
    assert_eq!(out.code, 2);
    assert!(out
        .stderr
        .starts_with("/nonexistent.toy: error: cannot read file"));
}
