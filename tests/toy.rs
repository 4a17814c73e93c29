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
#[path = "../examples/toy/names.rs"]
mod names;
#[path = "../examples/toy/parser.rs"]
mod parser;
#[path = "../examples/toy/typed.rs"]
mod typed;

use driver::{compile, run_command, run_source, Outcome, ToyError};
use poolopt::{ClOpt, OptLevel, PassManager, RunLimits, Session, VerifiedModule};
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
    assert_eq!(files.len(), 5);
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
    assert_eq!(files.len(), 7);
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
    let session = Session::new(module)
        .optimize(&PassManager::for_level(OptLevel::O2).collect_remarks(true))
        .unwrap();
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

/// An `else if` chain is one statement, one level of nesting however many arms it has (it
/// was an `if` nested in the `else` of the one before, so 100 arms passed the nesting bound
/// and were refused). Each arm's value is picked by its own test, with falls-through, a
/// `return` arm and the final `else`, at every level and in the interpreter.
#[test]
fn else_if_chains_of_thousands_of_arms_compile() {
    let arms = 2_000;
    let mut src =
        String::from("fn main(x: i64) -> i64 {\n    let r = 0;\n    if x == 0 { r = 1; }\n");
    for k in 1..arms {
        if k == 77 {
            src.push_str("    else if x == 77 { return 7777; }\n");
        } else {
            src.push_str(&format!("    else if x == {k} {{ r = {}; }}\n", 3 * k));
        }
    }
    src.push_str("    else { r = -1; }\n    return r + 1;\n}\n");
    let module = compile_ok("chain", &src);
    for (x, want) in [
        (0, 2),
        (1, 4),
        (77, 7777),
        (1_000, 3_001),
        (1_999, 5_998),
        (2_000, 0),
    ] {
        assert_eq!(run_everywhere(&module, "main", &[x]), Ok(want), "x = {x}");
    }
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
            "1:27: literal `9223372036854775808` does not fit `i64`",
        ),
        (
            "struct S { a: S } fn main() -> i64 { return 0; }",
            "1:12: field `a` must be an i64, i32, u64, u32, bool or vec",
        ),
        (
            "fn main() -> i64 { return \"x\"; }",
            "1:27: expected an expression, found a string",
        ),
        (
            "struct S { a: i64, b: i64, a: i32 } fn main() -> i64 { return 0; }",
            "1:28: field `a` is declared twice",
        ),
        (
            "struct S { a: i64, b: i64 } fn main(s: S) -> i64 { return s.b + s.c; }",
            "1:67: struct `S` has no field `c`",
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
    // Long left-deep chains are an error too: the parser builds them in a loop, but the
    // checker, the lowering and dropping the tree recurse over them (100,000 `+`: a stack
    // overflow before).
    let sum = |n: usize| {
        format!(
            "fn main(x: i64) -> i64 {{ return {}; }}",
            vec!["x"; n].join(" + ")
        )
    };
    let casts = format!(
        "fn main(x: i64) -> i64 {{ return x{}; }}",
        " as i64".repeat(100_000)
    );
    let indexes = format!(
        "fn main(v: vec<i64>) -> i64 {{ return v{}; }}",
        "[0]".repeat(100_000)
    );
    let fields = format!(
        "struct S {{ a: i64 }}\nfn main(s: S) -> i64 {{ return s{}; }}",
        ".a".repeat(100_000)
    );
    for chain in [sum(100_000), sum(1_002), casts, indexes, fields] {
        assert!(compile_error(&chain).contains("chains more than 1000 operators"));
    }
    // A chain at the bound compiles and computes (999 links: a debug build's checker and
    // lowering recurse 999 levels deep, which the front end's own thread has room for).
    let module = compile_ok("sum", &sum(1_000));
    assert_eq!(run_everywhere(&module, "main", &[2]), Ok(2_000));
    // Every prefix of every shipped program compiles or reports an error.
    for name in [
        "slot_pool_8.toy",
        "bitmap_slab.toy",
        "gen_pool.toy",
        "bitmap_alloc.toy",
        "stats_pool.toy",
        "unsigned_hash.toy",
    ] {
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
    // Remarks come on stderr, each `FILE:LINE: remark: ...` in toy terms, followed by the
    // toy source line it is about.
    let remark_head = format!("{file}:");
    assert!(
        out.stderr
            .lines()
            .all(|l| l.starts_with(&remark_head) || l.starts_with("    ")),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains(&format!(
            "{file}:18: remark: sparse-bounds-check-elim: applied: in alloc: pop check removed: \
             p.free.len() > 0 holds on every path here (p.free.len() > 0 from \
             `if p.free.len() > 0` (line 17))\n    18 |         let i = p.free.pop();\n"
        )),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "2999155661484216252\n");
    // A missing entry, bad arguments and usage errors exit 2.
    assert_eq!(command(&[file]).code, 2);
    assert_eq!(command(&[file, "--entry", "lifo", "--args", "1"]).code, 2);
    for bad in [
        &[][..],
        &[file, "--args", "x"],
        &[file, "-O3"],
        &[file, "--emit"],
        &[file, "--emit", "obj"],
        &[file, "--cl-opt", "fast"],
        &[file, "--frobnicate"],
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

// ------------------------------------------------------------------ the language additions

/// bitmap_alloc.toy in Rust: the same LCG, the same first-free-word scan and `ctz`.
fn bitmap_alloc_reference() -> i64 {
    let (mut free, mut value): (Vec<u64>, Vec<i64>) = (Vec::new(), Vec::new());
    let mut live: Vec<usize> = Vec::new();
    let (mut h, mut seed) = (0i64, 12345u64);
    for r in 0..300i64 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        if (seed >> 33) % 8 < 5 || live.is_empty() {
            let w = match free.iter().position(|&m| m != 0) {
                Some(w) => w,
                None => {
                    free.push(u64::MAX);
                    value.extend([0; 64]);
                    free.len() - 1
                }
            };
            let slot = w * 64 + free[w].trailing_zeros() as usize;
            free[w] &= free[w] - 1;
            value[slot] = r;
            live.push(slot);
            h = h.wrapping_mul(31).wrapping_add(slot as i64);
        } else {
            let at = ((seed >> 17) % live.len() as u64) as usize;
            let slot = live.swap_remove(at);
            assert_eq!(free[slot / 64] & (1 << (slot % 64)), 0, "double free");
            free[slot / 64] |= 1 << (slot % 64);
            h = h.wrapping_mul(31).wrapping_add(value[slot]);
        }
    }
    let in_use: i64 = free.iter().map(|m| 64 - i64::from(m.count_ones())).sum();
    h.wrapping_mul(1000).wrapping_add(in_use)
}

/// stats_pool.toy in Rust: the counters are plain mutable locals here.
fn stats_pool_reference() -> i64 {
    #[derive(Clone, Copy)]
    struct Buf {
        id: i64,
        size: i64,
    }
    let (mut pool, mut held): (Vec<Buf>, Vec<Buf>) = (Vec::new(), Vec::new());
    let (mut next_id, mut hits, mut misses, mut puts, mut rejects) = (1i64, 0i64, 0i64, 0i64, 0i64);
    let (mut h, mut x) = (0i64, 7i64);
    for _ in 0..500 {
        x = (x * 1103515245 + 12345) % 2147483648;
        if x % 5 < 3 || held.is_empty() {
            let size = 1 + (x >> 8) % 80;
            let buf = match (0..pool.len()).rev().find(|&k| pool[k].size >= size) {
                Some(k) => {
                    hits += 1;
                    pool.swap_remove(k)
                }
                None => {
                    misses += 1;
                    next_id += 1;
                    Buf {
                        id: next_id - 1,
                        size,
                    }
                }
            };
            held.push(buf);
            h = h.wrapping_mul(31).wrapping_add(buf.id);
        } else {
            let b = held.pop().unwrap();
            if b.size > 64 || pool.len() >= 8 {
                rejects += 1;
            } else {
                pool.push(b);
                puts += 1;
            }
            h = h.wrapping_mul(31).wrapping_add(b.size);
        }
    }
    assert!(rejects > 0 && puts > 0 && hits > 0 && misses > 0);
    h ^ (hits << 48) ^ (misses << 32) ^ (puts << 16) ^ rejects
}

/// unsigned_hash.toy in Rust, on Rust's own u64/u32.
fn unsigned_hash_reference() -> i64 {
    fn mix64(x: u64) -> u64 {
        let mut z = x.wrapping_add(0x9E3779B97F4A7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    fn fnv1a32(x: u64) -> u32 {
        (0..8).fold(2166136261u32, |h, k| {
            (h ^ ((x >> (k * 8)) & 255) as u32).wrapping_mul(16777619)
        })
    }
    let mut buckets = [0u64; 61];
    let (mut key, mut high) = (1u64, 0i64);
    for _ in 0..1000 {
        key = mix64(key);
        if key >= 1 << 63 {
            high += 1;
        }
        let h = (u64::from(fnv1a32(key)) << 32) | (key >> 32);
        let at = (h % 61) as usize;
        buckets[at] = buckets[at].wrapping_add((key >> 60) + 1);
    }
    let mut acc = 14695981039346656037u64;
    for v in buckets {
        acc = (acc ^ v).wrapping_mul(1099511628211);
        acc = acc
            .wrapping_add(u64::from(v.leading_zeros()))
            .wrapping_add(u64::from(v.count_ones()) * 64)
            .wrapping_add(acc / 3 % 1000);
    }
    ((acc >> 1) as i64) + high
}

/// The three programs written with the additions (unsigned types, `ctz`/`popcnt`, `break`,
/// multiple return values) agree with their Rust references in the interpreter and the JIT
/// at O0/O1/O2 × `none`/`speed`, and through the command at each level and `--interp`.
#[test]
fn new_programs_match_their_rust_references_everywhere() {
    for (name, want) in [
        ("bitmap_alloc.toy", bitmap_alloc_reference()),
        ("stats_pool.toy", stats_pool_reference()),
        ("unsigned_hash.toy", unsigned_hash_reference()),
    ] {
        let source = read(name);
        let module = compile_ok(name, &source);
        assert_eq!(run_everywhere(&module, "main", &[]), Ok(want), "{name}");
        for extra in [&["-O0"][..], &["-O1"], &["-O2"], &["--interp"]] {
            let out = run_source(&options(name, extra), &source);
            assert_eq!(
                (out.stdout, out.code),
                (format!("{want}\n"), 0),
                "{name} {extra:?}: {}",
                out.stderr
            );
        }
    }
}

#[test]
fn unsigned_types_divide_compare_shift_and_widen_unsigned() {
    let src = "fn main() -> i64 {
        let big: u64 = 18446744073709551615;       // 2^64 - 1
        let m: i64 = -1;
        if big != m as u64 { return 1; }            // same width: the same bits
        if big / 2 != 9223372036854775807 { return 2; }   // udiv, not sdiv (-1 / 2 = 0)
        if big % 10 != 5 { return 3; }              // urem: 18446744073709551615 % 10
        if !(big > 1) { return 4; }                 // unsigned compare
        if (big >> 60) != 15 { return 5; }          // logical shift right
        if (m >> 60) != -1 { return 6; }            // i64 keeps the arithmetic shift
        let w: u32 = 4294967295;
        if (w as u64) != 4294967295 { return 7; }   // u32 -> u64 zero-extends
        if (w as i64) != 4294967295 { return 8; }   // u32 -> i64 zero-extends
        if ((w as i32) as i64) != -1 { return 9; }  // i32 -> i64 sign-extends
        if (w as i32) as u64 != big { return 10; }  // i32 -> u64 sign-extends (as Rust)
        if w / 16 != 268435455 || w % 7 != 3 { return 11; }  // u32 udiv/urem
        if (w + 1) != 0 { return 12; }              // u32 wraps at 32 bits
        if ((big as u32) >> 28) != 15 { return 13; }
        let s: u64 = 3;
        if s - 4 < s { return 14; }                 // 3 - 4 wraps to 2^64 - 1, which is not < 3
        return 0;
    }";
    assert_eq!(eval(src), Ok(0));
}

#[test]
fn bitwise_not_and_bit_counts_at_both_widths() {
    // Worked out by hand: ctz/clz of 0 are the width, popcnt of all ones is the width.
    let src = "fn main() -> i64 {
        let z: u64 = 0;
        let z32: u32 = 0;
        if ~z != 18446744073709551615 || ~5 != -6 { return 1; }
        if ctz(z) != 64 || clz(z) != 64 || popcnt(z) != 0 { return 2; }
        if ctz(z32) != 32 || clz(z32) != 32 || popcnt(~z32) != 32 { return 3; }
        if ctz(~z) != 0 || clz(~z) != 0 || popcnt(~z) != 64 { return 4; }
        let m1: i32 = -1;
        if ctz(m1) != 0 || clz(m1) != 0 || popcnt(m1) != 32 { return 5; }
        if ctz(40) != 3 || clz(1) != 63 || popcnt(255) != 8 { return 6; }
        let x: u64 = 0x00F0000000000000;
        if clz(x) != 8 || ctz(x) != 52 || popcnt(x) != 4 { return 7; }
        return 0;
    }";
    assert_eq!(eval(src), Ok(0));
}

#[test]
fn break_leaves_and_continue_restarts_the_innermost_loop() {
    let src = "fn main() -> i64 {
        let total = 0;
        let i = 0;
        while i < 10 {
            i = i + 1;
            if i % 2 == 0 { continue; }      // only odd i from here
            let j = 0;
            while true {
                if j == i { break; }          // leaves the inner loop only
                total = total + 1;
                j = j + 1;
            }
            if i == 7 { break; }
            total = total + 1000;
        }
        return total * 100 + i;
    }";
    // Odd i = 1, 3, 5, 7: the inner loop adds i each time (16); 1000 is added for 1, 3, 5.
    assert_eq!(eval(src), Ok((16 + 3000) * 100 + 7));
}

#[test]
fn multiple_return_values_destructure_swap_and_skip() {
    let src = "fn divmod(a: u64, b: u64) -> (u64, u64) { return (a / b, a % b); }
    fn mixed(x: i32) -> (i32, bool, i64) { return (x * 2, x > 0, x as i64 - 1); }
    fn pass(a: i64, b: i64) -> (i64, i64) { return twice(a, b); }
    fn twice(a: i64, b: i64) -> (i64, i64) { return (a * 2, b * 2); }
    fn main() -> i64 {
        let (q, r) = divmod(47, 5);
        let (d, pos, m) = mixed(-4);
        let (_, e) = pass(1, 20);
        let a = 1;
        let b = 2;
        (a, b) = (b, a);
        let v = new vec<i64>;
        v.push(0);
        (v[0], _) = pass(3, 4);
        if pos { return -1; }
        return (q as i64) * 1000000 + (r as i64) * 10000 + (d as i64) * 100 + m + e * 10
            + a * 7 + b + v[0] * 3;
    }";
    // 47 / 5 = 9 rem 2; mixed(-4) = (-8, false, -5); pass(1, 20).1 = 40; (a, b) = (2, 1);
    // pass(3, 4).0 = 6.
    assert_eq!(
        eval(src),
        Ok(9 * 1_000_000 + 2 * 10_000 - 8 * 100 - 5 + 400 + 14 + 1 + 18)
    );
}

#[test]
fn language_addition_errors_are_located() {
    for (src, want) in [
        (
            "fn main() -> i64 { break; }",
            "1:20: `break` outside of a loop",
        ),
        (
            "fn main() -> i64 { if true { continue; } return 0; }",
            "1:30: `continue` outside of a loop",
        ),
        (
            "fn main() -> i64 { let x: u64 = -1; return 0; }",
            "1:33: literal `-1` does not fit `u64`",
        ),
        (
            "fn main() -> i64 { let x: u32 = 4294967296; return 0; }",
            "1:33: literal `4294967296` does not fit `u32`",
        ),
        (
            "fn main() -> i64 { let x: u64 = 1; let y = -x; return 0; }",
            "1:44: cannot negate `u64`",
        ),
        (
            "fn main() -> i64 { let b = ~true; return 0; }",
            "1:28: `~` needs an integer, found `bool` (use `!`)",
        ),
        (
            "fn main() -> i64 { let x: u64 = 1; return x; }",
            "1:43: expected `i64`, found `u64`",
        ),
        (
            "fn main() -> i64 { let x: u64 = 1; let y = 2; return x < y; }",
            "1:56: `<` needs operands of one type, found `u64` and `i64`",
        ),
        (
            "fn main() -> i64 { return ctz(true); }",
            "1:31: `ctz` needs an integer, found `bool`",
        ),
        (
            "fn main() -> i64 { return popcnt(1, 2); }",
            "1:27: `popcnt` takes 1 argument, 2 given",
        ),
        (
            "fn clz(x: i64) -> i64 { return x; } fn main() -> i64 { return 0; }",
            "1:1: `clz` is a built-in function",
        ),
        (
            "fn f() -> (i64, i64) { return (1, 2); } fn main() -> i64 { let x = f(); return 0; }",
            "1:68: this is `(i64, i64)`: destructure it with `let (a, b, ...) = ...`",
        ),
        (
            "fn f() -> (i64, i64) { return (1, 2); } fn main() -> i64 { let (a, b, c) = f(); return 0; }",
            "1:76: `(i64, i64)` has 2 parts, 3 given",
        ),
        (
            "fn f() -> (i64, bool) { return (1, 2); } fn main() -> i64 { return 0; }",
            "1:36: expected `bool`, found `i64`",
        ),
        (
            "fn f(p: (i64, i64)) -> i64 { return 0; } fn main() -> i64 { return 0; }",
            "1:6: a tuple type is only a function's return type (destructure the result with `let (a, b) = ...`)",
        ),
        (
            "fn main() -> i64 { let (a, b) = 5; return 0; }",
            "1:33: expected several values (a call of a function returning a tuple, or `(a, b)`), found `i64`",
        ),
    ] {
        assert_eq!(compile_error(src), want, "{src}");
    }
}

/// Every remark the driver prints for every shipped program is in toy terms: no IR
/// temporary (`t4`) or lowering block name (`then2`) is left, and each one quotes its line.
#[test]
fn remarks_speak_in_toy_terms() {
    let mut checked = 0;
    for name in [
        "slot_pool_8.toy",
        "slot_pool_128.toy",
        "bitmap_slab.toy",
        "object_pool.toy",
        "gen_pool.toy",
        "bitmap_alloc.toy",
        "stats_pool.toy",
        "unsigned_hash.toy",
    ] {
        let source = read(name);
        let out = run_source(
            &options(name, &["--remarks", "-O2", "--emit", "ir"]),
            &source,
        );
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        let lines: Vec<&str> = out.stderr.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with("    ") {
                continue;
            }
            assert!(line.starts_with(&format!("{name}:")), "{line}");
            for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                let ir_temp = word.len() > 1
                    && word.starts_with('t')
                    && word[1..].chars().all(|c| c.is_ascii_digit());
                let block = ["then", "else", "endif", "while", "do", "wend", "and", "or"]
                    .iter()
                    .any(|b| {
                        word.strip_prefix(b).is_some_and(|rest| {
                            !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit())
                        })
                    });
                assert!(!ir_temp && !block, "{name}: `{word}` in: {line}");
            }
            // A remark with a line number is followed by that toy line.
            if let Some(n) = line
                .strip_prefix(&format!("{name}:"))
                .and_then(|rest| rest.split(':').next())
                .and_then(|n| n.parse::<usize>().ok())
            {
                let quoted = format!(
                    "    {n} | {}",
                    source.lines().nth(n - 1).unwrap().trim_end()
                );
                assert_eq!(lines.get(i + 1), Some(&quoted.as_str()), "{line}");
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} remarks");
}

/// The range-check-fold remark of slot_pool_8's `alloc`, exactly, in toy terms.
#[test]
fn a_remark_names_the_toy_expression() {
    let name = "slot_pool_8.toy";
    let out = run_source(&options(name, &["--remarks"]), &read(name));
    assert!(
        out.stderr.contains(
            "slot_pool_8.toy:19: remark: range-check-fold: applied: in alloc: range check \
             `i < 0 || i >= p.items.len()` folded to `i >= p.items.len()` (unsigned)\n    \
             19 |         if i < 0 || i >= p.items.len() {\n"
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn help_prints_the_usage_and_exits_0() {
    let out = command(&["--help"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("Usage: toy [OPTIONS] <FILE>"),
        "{}",
        out.stdout
    );
    for flag in [
        "--entry",
        "--args",
        "-O",
        "--cl-opt",
        "--emit",
        "--remarks",
        "--interp",
    ] {
        assert!(out.stdout.contains(flag), "{flag} in {}", out.stdout);
    }
    // Negative arguments and repeated levels (the last wins) still parse.
    let opts = options("x.toy", &["--args", "-3,4", "-O0", "-O1"]);
    assert_eq!(opts.args, vec![-3, 4]);
    assert_eq!(opts.level, OptLevel::O1);
}

#[test]
fn source_spans_are_cut_by_character_and_never_panic() {
    use poolopt::ir::Loc;
    let src = "let x = a +\n    (b * 2);\nlet é = f(x);\n";
    // An expression over two lines reads as one, its whitespace collapsed.
    assert_eq!(
        names::source_text(src, Loc::new(1, 9), Loc::new(2, 12)),
        Some("a + (b * 2)".to_string())
    );
    // Columns count characters, not bytes.
    assert_eq!(
        names::source_text(src, Loc::new(3, 9), Loc::new(3, 13)),
        Some("f(x)".to_string())
    );
    // Unknown, reversed, zero-column or out-of-range spans give nothing or a clipped text.
    assert_eq!(names::source_text(src, Loc::UNKNOWN, Loc::new(1, 3)), None);
    assert_eq!(
        names::source_text(src, Loc::new(2, 5), Loc::new(1, 1)),
        None
    );
    assert_eq!(
        names::source_text(src, Loc::new(9, 1), Loc::new(9, 4)),
        None
    );
    assert_eq!(
        names::source_text(src, Loc::new(1, 0), Loc::new(1, 200)),
        Some("let x = a +".to_string())
    );
    assert_eq!(names::source_line(src, 0), None);
}
