//! The CLI contract of design.md, exercised on the built binary: outputs and exit codes of
//! `run`, `opt`, `emit` and `check`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn poolopt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_poolopt"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the poolopt binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const POOL8: &str = "examples/workloads/slot_pool_8.pir";

#[test]
fn run_prints_the_result_as_the_last_stdout_line() {
    for level in ["-O0", "-O1", "-O2"] {
        for cl in ["none", "speed"] {
            let o = poolopt(&[
                "run", POOL8, "--entry", "lifo", "--args", "10,5", level, "--cl-opt", cl,
            ]);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            assert_eq!(stdout(&o).lines().last(), Some("2999155661484216252"));
        }
    }
    let o = poolopt(&[
        "run",
        POOL8,
        "--entry",
        "scattered",
        "--args",
        "10,3",
        "--interp",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).lines().last(), Some("-9018781896735347076"));
}

#[test]
fn a_trap_prints_its_kind_and_exits_3() {
    for (file, kind, function, line) in [
        ("examples/traps/pop_empty.pir", "pop_empty", "main", 10),
        ("examples/traps/index_oob.pir", "index_oob", "main", 12),
        ("examples/traps/div_zero.pir", "div_zero", "divide", 5),
        ("examples/traps/explicit.pir", "explicit", "check", 8),
        (
            "examples/traps/use_after_drop.pir",
            "use_after_drop",
            "main",
            9,
        ),
    ] {
        for engine in [&[][..], &["--interp"][..]] {
            let mut args = vec!["run", file];
            args.extend_from_slice(engine);
            let o = poolopt(&args);
            assert_eq!(o.status.code(), Some(3), "{file}");
            assert!(
                stderr(&o).starts_with(&format!("trap: {kind}: ")),
                "{file}: {}",
                stderr(&o)
            );
            // The IR text line of the trapping instruction or terminator follows.
            assert!(
                stderr(&o)
                    .trim_end()
                    .ends_with(&format!(" in {function} at line {line}")),
                "{file}: {}",
                stderr(&o)
            );
            // A parser written for `trap: <kind>: <message> in <function>` still finds the kind.
            assert_eq!(parse_trap_kind(&stderr(&o)), Some(kind), "{file}");
        }
    }
    let o = poolopt(&[
        "run",
        "examples/traps/out_of_memory.pir",
        "--max-memory",
        "100000",
    ]);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        stderr(&o).starts_with("trap: out_of_memory: "),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).trim_end().ends_with(" in main at line 12"),
        "{}",
        stderr(&o)
    );
}

/// How a script reads the trap line of the contract: `trap: <kind>: ...` on stderr.
fn parse_trap_kind(stderr: &str) -> Option<&str> {
    let line = stderr.lines().find(|l| l.starts_with("trap: "))?;
    line.strip_prefix("trap: ")?
        .split_once(": ")
        .map(|(kind, _)| kind)
}

#[test]
fn out_of_fuel_reports_no_line_and_stack_overflow_the_callee_fn_line() {
    let o = poolopt(&[
        "run",
        "examples/workloads/slot_pool_8.pir",
        "--entry",
        "lifo",
        "--args",
        "10,5",
        "--fuel",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.starts_with("trap: out_of_fuel: "), "{err}");
    assert!(!err.contains(" at line "), "{err}");
    assert_eq!(parse_trap_kind(&err), Some("out_of_fuel"));
    // Only the entry frame and frames of recursive functions count (docs/ir.md, the depth
    // rule): with `--max-depth 0`, entering `lifo`, declared at line 405, exceeds it.
    for extra in [&["-O0"][..], &["-O2"], &["-O2", "--interp"]] {
        let mut args = vec![
            "run",
            "examples/workloads/slot_pool_8.pir",
            "--entry",
            "lifo",
            "--args",
            "10,5",
            "--max-depth",
            "0",
        ];
        args.extend_from_slice(extra);
        let o = poolopt(&args);
        assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
        assert_eq!(
            stderr(&o).trim_end(),
            "trap: stack_overflow: call depth limit exceeded in lifo at line 405",
            "{extra:?}"
        );
    }
}

#[test]
fn source_errors_are_located_and_exit_2() {
    let o = poolopt(&["run", "tests/malformed/undefined_local.pir"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.starts_with("tests/malformed/undefined_local.pir:4:13: error: undefined local `y`"),
        "{err}"
    );
    assert!(err.contains("x = add y, 1"), "snippet missing: {err}");
    let o = poolopt(&["check", "tests/malformed/type_mismatch_add.pir"]);
    assert_eq!(o.status.code(), Some(2));
    // The primary span is the offending operand (`y`), not the whole instruction.
    assert!(stderr(&o).starts_with("tests/malformed/type_mismatch_add.pir:5:16: error: "));
}

#[test]
fn every_parse_error_is_printed_and_colour_follows_the_flag() {
    let file = "tests/malformed/many_errors_with_hints.pir";
    let o = poolopt(&["check", file, "--color", "never"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let headlines: Vec<&str> = err.lines().filter(|l| l.starts_with(file)).collect();
    assert_eq!(headlines.len(), 4, "{err}");
    assert!(err.contains("= help: did you mean `helper`?"), "{err}");
    assert!(!err.contains('\x1b'), "{err}");
    // Not a terminal: `auto` is plain too.
    assert!(!stderr(&poolopt(&["check", file])).contains('\x1b'));
    let o = poolopt(&["--color", "always", "check", file]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("\x1b[1;31merror\x1b[0m"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(poolopt(&["run"]).status.code(), Some(2));
    assert_eq!(poolopt(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        poolopt(&["run", POOL8, "--cl-opt", "fast"]).status.code(),
        Some(2)
    );
    assert_eq!(poolopt(&["run", "no/such/file.pir"]).status.code(), Some(2));
    assert_eq!(poolopt(&["run", POOL8, "-O7"]).status.code(), Some(2));
    let o = poolopt(&["run", POOL8, "--entry", "nope"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = poolopt(&["opt", POOL8, "--passes", "bounds-check-elim,nonsense"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown pass `nonsense`"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("range-check-fold"),
        "valid passes are listed"
    );
}

#[test]
fn check_and_emit() {
    let o = poolopt(&["check", POOL8]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("ok"));
    let o = poolopt(&["emit", POOL8, "-O0", "--emit", "ir"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("fn alloc(items: vec<S8>, free: vec<i64>, v: S8) -> i64 {"));
    let o = poolopt(&["emit", POOL8, "--emit", "clif"]);
    assert!(stdout(&o).contains("function u0:"));
    let o = poolopt(&["emit", POOL8, "--emit", "asm", "--cl-opt", "none"]);
    assert!(stdout(&o).contains("retq"));
}

#[test]
fn opt_stats_show_every_pass_at_work() {
    let o = poolopt(&["opt", POOL8, "-O2", "--stats", "--remarks"]);
    assert_eq!(o.status.code(), Some(0));
    let err = stderr(&o);
    let counter = |pass: &str, name: &str| -> u64 {
        err.lines()
            .find_map(|l| l.strip_prefix(&format!("{pass} {name} ")))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    };
    assert!(
        counter("sparse-bounds-check-elim", "checks_removed") > 0,
        "{err}"
    );
    assert!(counter("temp-elision", "temps_elided") > 0);
    assert!(counter("scalarize", "locals_scalarized") > 0);
    assert!(counter("range-check-fold", "compares_folded") > 0);
    assert!(
        err.contains("`i` was popped from `free`; nothing bounds it"),
        "{err}"
    );
    // The optimized IR is on stdout and parses back.
    assert!(stdout(&o).contains("pop.unchecked free"));

    let o = poolopt(&[
        "opt",
        "examples/workloads/slot_pool_128.pir",
        "-O2",
        "--remarks",
    ]);
    let err = stderr(&o);
    assert!(
        err.contains("not scalarized: struct `S128` is 128 bytes"),
        "{err}"
    );
    assert!(
        !err.contains("held as one i64"),
        "nothing is scalarized at 128 bytes"
    );
}

#[test]
fn print_after_all_and_diff() {
    let o = poolopt(&[
        "opt",
        POOL8,
        "--passes",
        "range-check-fold",
        "--print-after-all",
        "--diff",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert!(
        err.contains("; IR after range-check-fold on alloc"),
        "{err}"
    );
    assert!(err.contains("+    t5 = uge i, t4"), "{err}");
}

/// A module of `n` small functions as text: its printed forms (IR, dumps) are much more than
/// a pipe buffers, so a writer is still writing when a reader closes the pipe.
fn many_functions(n: usize) -> String {
    let mut big = String::new();
    for k in 0..n {
        big.push_str(&format!(
            "fn f{k}(x: i64) -> i64 {{\n    var t: i64\nentry:\n    t = add x, {k}\n    ret t\n}}\n\n"
        ));
    }
    big
}

/// Runs `poolopt ARGS FILE` (FILE holding `text`), reads one line of its stdout (or stderr)
/// and closes that pipe; returns the line and the finished process's output.
fn read_one_line_then_close(args: &[&str], text: &str, from_stderr: bool) -> (String, Output) {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let dir = std::env::temp_dir().join(format!(
        "poolopt-pipe-{}-{}",
        std::process::id(),
        from_stderr
    ));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("big.pir");
    std::fs::write(&file, text).expect("the input is written");
    let mut child = Command::new(env!("CARGO_BIN_EXE_poolopt"))
        .args(args)
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the poolopt binary runs");
    let pipe: Box<dyn Read> = if from_stderr {
        Box::new(child.stderr.take().expect("piped stderr"))
    } else {
        Box::new(child.stdout.take().expect("piped stdout"))
    };
    let mut first = String::new();
    BufReader::new(pipe)
        .read_line(&mut first)
        .expect("a first line");
    // The reader is dropped here: the pipe closes.
    let out = child.wait_with_output().expect("poolopt exits");
    let _ = std::fs::remove_dir_all(&dir);
    (first, out)
}

/// `poolopt opt FILE | head -1`: the reader closes the pipe after its line. The rest of the
/// output is dropped quietly and the exit code is 0 (it used to panic, exit code 101).
#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    let (first, out) = read_one_line_then_close(&["opt", "-O0"], &many_functions(4000), false);
    assert_eq!(first, "fn f0(x: i64) -> i64 {\n");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

/// `poolopt opt FILE --print-after-all -o /dev/null 2>&1 | head -1`: the same for stderr,
/// where the dumps, remarks and statistics go.
#[test]
fn a_reader_of_stderr_that_stops_early_ends_it_quietly() {
    let (first, out) = read_one_line_then_close(
        &["opt", "-O2", "--print-after-all", "-o", "/dev/null"],
        &many_functions(300),
        true,
    );
    assert!(first.starts_with("; IR after "), "{first}");
    assert_eq!(out.status.code(), Some(0));
}

/// Output to a full device is an error with a message and exit code 1, not a panic.
#[test]
fn a_failed_write_to_stdout_is_reported() {
    let Ok(full) = std::fs::File::create("/dev/full") else {
        return; // no /dev/full on this system
    };
    let o = Command::new(env!("CARGO_BIN_EXE_poolopt"))
        .args(["opt", POOL8])
        .current_dir(root())
        .stdout(full)
        .output()
        .expect("the poolopt binary runs");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("error: cannot write to standard output"),
        "{}",
        stderr(&o)
    );
}
