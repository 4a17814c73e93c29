//! The pass-developer tools on the built binary: `poolopt passes`, `--passes` with pipeline
//! names, `--func`, `-` for stdin, `-o` (`-o -` for stdout), `--print-changed`, `--diff` headers, `--remarks=json`
//! and `--remarks-filter`, `completions`, `--version` and the `--help` of every positional
//! argument — with their errors (exit 2, a clear message, "did you mean").

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

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

/// Runs poolopt with `input` on stdin (`None`: stdin is /dev/null).
fn poolopt_stdin(args: &[&str], input: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_poolopt"))
        .args(args)
        .current_dir(root())
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the poolopt binary runs");
    if let Some(text) = input {
        let mut stdin = child.stdin.take().expect("piped stdin");
        stdin.write_all(text.as_bytes()).expect("stdin written");
    }
    child.wait_with_output().expect("poolopt finishes")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const POOL8: &str = "examples/workloads/slot_pool_8.pir";

/// Asserts exit code 2 and that stderr contains every one of `needles`.
fn assert_usage_error(o: &Output, needles: &[&str]) {
    assert_eq!(o.status.code(), Some(2), "stderr: {}", stderr(o));
    for needle in needles {
        assert!(
            stderr(o).contains(needle),
            "`{needle}` missing in stderr: {}",
            stderr(o)
        );
    }
}

#[test]
fn passes_lists_every_pass_with_levels_and_a_description() {
    let o = poolopt(&["passes"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    for (pass, levels) in [
        ("temp-elision", "O2"),
        ("copy-prop", "O2"),
        ("range-check-fold", "O1,O2"),
        ("sparse-bounds-check-elim", "O1,O2"),
        ("bounds-check-elim", "opt-in"),
        ("dead-local-elim", "O1,O2"),
        ("simplify-cfg", "O1,O2"),
        ("scalarize", "O2"),
    ] {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(pass))
            .unwrap_or_else(|| panic!("{pass} not listed:\n{out}"));
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[1], levels, "{line}");
        assert!(fields.len() > 4, "{pass} has a description: {line}");
        assert!(!line.contains("(no description)"), "{line}");
    }
    assert!(out.contains("  O0: (no passes)"), "{out}");
}

#[test]
fn passes_option_expands_pipeline_names() {
    // `O1,scalarize` runs the O1 pipeline, then scalarize.
    let o = poolopt(&["opt", POOL8, "--passes", "O1,scalarize", "--stats"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("scalarize "), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("sparse-bounds-check-elim "),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("temp-elision "), "{}", stderr(&o));
    // `-O2` alone is the O2 pipeline: the same IR as -O2.
    let a = poolopt(&["opt", POOL8, "--passes=-O2"]);
    let b = poolopt(&["opt", POOL8, "-O2"]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    assert_eq!(stdout(&a), stdout(&b));
}

#[test]
fn unknown_pass_names_the_position_and_a_suggestion() {
    let o = poolopt(&["opt", POOL8, "--passes", "O1,rang-check-fold"]);
    assert_usage_error(
        &o,
        &[
            "item 2 of 2",
            "unknown pass `rang-check-fold`",
            "did you mean `range-check-fold`?",
        ],
    );
    let o = poolopt(&["opt", POOL8, "--passes", "O1,,scalarize"]);
    assert_usage_error(&o, &["item 2 of 3 is empty"]);
}

#[test]
fn func_restricts_the_output_to_one_function() {
    let o = poolopt(&["opt", POOL8, "--func", "alloc"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        out.matches("\nfn ").count() + usize::from(out.starts_with("fn ")),
        1
    );
    assert!(out.starts_with("fn alloc("), "{out}");

    for kind in ["clif", "asm"] {
        let o = poolopt(&["emit", POOL8, "--emit", kind, "--func", "release"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = stdout(&o);
        assert_eq!(out.matches("; function ").count(), 1, "{kind}: {out}");
        assert!(out.starts_with("; function release"), "{kind}: {out}");
    }
    let o = poolopt(&["emit", POOL8, "--emit", "ir", "--func", "mix"]);
    assert!(stdout(&o).starts_with("fn mix("), "{}", stdout(&o));

    // Remarks and diffs of the other functions are left out.
    let o = poolopt(&["opt", POOL8, "--func", "alloc", "--remarks", "--diff"]);
    assert_eq!(o.status.code(), Some(0));
    for line in stderr(&o).lines() {
        if line.starts_with("remark: ") {
            assert!(line.contains(" in alloc/"), "{line}");
        }
        if line.starts_with("--- ") || line.starts_with("+++ ") {
            assert!(line[4..].starts_with("alloc "), "{line}");
        }
    }
}

#[test]
fn entry_prints_what_run_compiles() {
    // Only what `scattered` reaches after its pipeline: the callees inlined everywhere
    // (make8, alloc, release, mix, and checksum, whose only call site among what the entry
    // reaches is in scattered_owner) and the other entries' functions are not printed.
    let o = poolopt(&["opt", POOL8, "--entry", "scattered"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let names: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("fn "))
        .map(|l| l.split('(').next().unwrap_or(""))
        .collect();
    assert_eq!(names, ["scattered_owner", "scattered"], "{out}");
    assert!(out.starts_with("struct S8 "), "{out}");
    // The printed module parses, verifies and runs what the whole module runs.
    let dir = std::env::temp_dir().join(format!("poolopt-entry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("scattered.pir");
    std::fs::write(&file, &out).expect("written");
    let file = file.to_str().expect("utf-8 path");
    let ran = poolopt(&[
        "run",
        file,
        "--trust-unchecked",
        "--entry",
        "scattered",
        "--args",
        "10,3",
    ]);
    let whole = poolopt(&["run", POOL8, "--entry", "scattered", "--args", "10,3"]);
    assert_eq!(ran.status.code(), Some(0), "{}", stderr(&ran));
    assert_eq!(stdout(&ran), stdout(&whole));
    let _ = std::fs::remove_dir_all(&dir);
    // The whole module keeps the call: checksum has three call sites there (one per owner).
    let alone = poolopt(&["opt", POOL8, "--func", "scattered_owner"]);
    assert!(
        stdout(&alone).contains("call checksum("),
        "{}",
        stdout(&alone)
    );
    assert!(!out.contains("call checksum("), "{out}");
    // A function the inliner's choices do not touch is what the whole-module pipeline makes
    // of it.
    let alone = poolopt(&["opt", POOL8, "--func", "scattered"]);
    assert!(out.contains(&stdout(&alone)), "{out}");
    // An unknown entry is a usage error with a suggestion.
    let o = poolopt(&["opt", POOL8, "--entry", "scatered"]);
    assert_usage_error(&o, &["--entry", "did you mean `scattered`?"]);
    // `--func` shows one of the functions the entry reaches (a callee inlined everywhere is
    // one: it was optimized before its callers inlined it); another is a usage error.
    let o = poolopt(&["opt", POOL8, "--entry", "scattered", "--func", "alloc"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("fn alloc("), "{}", stdout(&o));
    let o = poolopt(&["opt", POOL8, "--entry", "scattered", "--func", "lifo_owner"]);
    assert_usage_error(
        &o,
        &[
            "--func",
            "`lifo_owner` is not reached from `--entry scattered`",
        ],
    );
}

#[test]
fn unknown_function_names_suggest_the_closest() {
    let o = poolopt(&["opt", POOL8, "--func", "aloc"]);
    assert_usage_error(
        &o,
        &[
            "--func",
            "no function named `aloc`",
            "did you mean `alloc`?",
        ],
    );
    let o = poolopt(&["emit", POOL8, "--emit", "asm", "--func", "relase"]);
    assert_usage_error(&o, &["did you mean `release`?"]);
    let o = poolopt(&["run", POOL8, "--entry", "lifoo", "--args", "1,1"]);
    assert_usage_error(
        &o,
        &[
            "--entry",
            "no function named `lifoo`",
            "did you mean `lifo`?",
        ],
    );
    // Nothing close: no suggestion, but the list of functions.
    let o = poolopt(&["run", POOL8, "--entry", "zzzzzzzz"]);
    assert_usage_error(&o, &["the functions are: make8, alloc"]);
    assert!(!stderr(&o).contains("did you mean"));
}

#[test]
fn dash_reads_the_program_from_stdin() {
    let source = std::fs::read_to_string(root().join(POOL8)).unwrap();
    let o = poolopt_stdin(
        &["run", "-", "--entry", "lifo", "--args", "10,5"],
        Some(&source),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().last(), Some("2999155661484216252"));

    let from_file = poolopt(&["opt", POOL8]);
    let from_stdin = poolopt_stdin(&["opt", "-"], Some(&source));
    assert_eq!(stdout(&from_stdin), stdout(&from_file));

    let o = poolopt_stdin(&["check", "-"], Some(&source));
    assert_eq!(stdout(&o).trim(), "<stdin>: ok (11 functions)");

    // Errors in stdin input are located in `<stdin>`.
    let o = poolopt_stdin(
        &["check", "-"],
        Some("fn f() -> i64 {\nentry:\n    ret x\n}\n"),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("<stdin>:3:"), "{}", stderr(&o));
}

#[test]
fn closed_or_empty_stdin_and_missing_files_are_usage_errors() {
    for command in [&["run", "-"][..], &["opt", "-"][..], &["check", "-"][..]] {
        let o = poolopt_stdin(command, None);
        assert_usage_error(&o, &["<stdin>: error: no input"]);
    }
    let o = poolopt(&["opt", "examples/no_such_file.pir"]);
    assert_usage_error(&o, &["examples/no_such_file.pir: error: cannot read file"]);
    let o = poolopt(&["emit", "examples/no_such_file.pir", "--emit", "ir"]);
    assert_usage_error(&o, &["cannot read file"]);
}

#[test]
fn output_file_receives_what_stdout_would() {
    let dir = std::env::temp_dir().join(format!("poolopt-tools-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("out.pir");
    let o = poolopt(&["opt", POOL8, "-o", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written, stdout(&poolopt(&["opt", POOL8])));

    let asm = dir.join("out.s");
    let o = poolopt(&[
        "emit",
        POOL8,
        "--emit",
        "asm",
        "--output",
        asm.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(std::fs::read_to_string(&asm)
        .unwrap()
        .starts_with("; function "));

    let bad = dir.join("no/such/dir/out.pir");
    let o = poolopt(&["opt", POOL8, "-o", bad.to_str().unwrap()]);
    assert_usage_error(&o, &["error: cannot write"]);

    // `-o -` is stdout, as `-` is stdin: no file named `-` appears.
    let pool8 = root().join(POOL8);
    let o = Command::new(env!("CARGO_BIN_EXE_poolopt"))
        .args(["opt", pool8.to_str().unwrap(), "-o", "-"])
        .current_dir(&dir)
        .output()
        .expect("the poolopt binary runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&poolopt(&["opt", POOL8])));
    assert!(!dir.join("-").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn print_changed_shows_only_passes_that_changed_the_function() {
    let o = poolopt(&["opt", POOL8, "--print-changed"]);
    assert_eq!(o.status.code(), Some(0));
    let err = stderr(&o);
    let headers: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("; IR after "))
        .collect();
    assert!(!headers.is_empty());
    for h in &headers {
        assert!(h.ends_with(" (changed)") && h.contains(" on "), "{h}");
    }
    // Every changed (pass, function) has a diff, and the other way round.
    let d = poolopt(&["opt", POOL8, "--diff"]);
    let diff_headers: Vec<String> = stderr(&d)
        .lines()
        .filter_map(|l| l.strip_prefix("+++ "))
        .map(|l| {
            let (function, pass) = l.split_once(" after ").expect("`+++ F after P`");
            format!("; IR after {pass} on {function} (changed)")
        })
        .collect();
    assert_eq!(headers, diff_headers);
    // The unchanged pairs are left out: fewer headers than --print-after-all prints.
    let all = poolopt(&["opt", POOL8, "--print-after-all"]);
    let all_headers = stderr(&all)
        .lines()
        .filter(|l| l.starts_with("; IR after "))
        .count();
    assert!(headers.len() < all_headers);
}

/// The documented fields of a JSON remark.
fn check_remark_schema(line: &str) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("not one JSON object per line ({e}): {line}"));
    let obj = v.as_object().expect("an object");
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["block", "column", "function", "kind", "line", "message", "pass"],
        "{line}"
    );
    for key in ["pass", "function", "block", "message"] {
        assert!(obj[key].is_string(), "{key} in {line}");
    }
    assert!(
        matches!(obj["kind"].as_str(), Some("applied" | "missed")),
        "{line}"
    );
    for key in ["line", "column"] {
        assert!(obj[key].is_u64() || obj[key].is_null(), "{key} in {line}");
    }
    v
}

#[test]
fn remarks_json_is_one_object_per_remark() {
    let text = poolopt(&["opt", POOL8, "--remarks"]);
    let json = poolopt(&["opt", POOL8, "--remarks=json"]);
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    let lines: Vec<String> = stderr(&json).lines().map(String::from).collect();
    assert_eq!(lines.len(), stderr(&text).lines().count());
    let mut passes = std::collections::BTreeSet::new();
    for line in &lines {
        let v = check_remark_schema(line);
        passes.insert(v["pass"].as_str().unwrap().to_string());
    }
    assert!(passes.contains("sparse-bounds-check-elim"), "{passes:?}");
    // The IR still goes to stdout.
    assert_eq!(stdout(&json), stdout(&text));
}

#[test]
fn remarks_filter_keeps_the_named_passes() {
    let o = poolopt(&[
        "opt",
        POOL8,
        "--remarks=json",
        "--remarks-filter",
        "bounds-check-elim,range-check-fold",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<String> = stderr(&o).lines().map(String::from).collect();
    assert!(!lines.is_empty());
    for line in &lines {
        let v = check_remark_schema(line);
        assert!(
            matches!(
                v["pass"].as_str(),
                Some("bounds-check-elim" | "range-check-fold")
            ),
            "{line}"
        );
    }
    // Text format, implied by the filter alone.
    let o = poolopt(&["opt", POOL8, "--remarks-filter", "scalarize"]);
    let err = stderr(&o);
    assert!(!err.is_empty());
    assert!(err.lines().all(|l| l.contains(": scalarize: ")), "{err}");

    let o = poolopt(&["opt", POOL8, "--remarks-filter", "bound-check-elim"]);
    assert_usage_error(
        &o,
        &[
            "unknown pass `bound-check-elim`",
            "did you mean `bounds-check-elim`?",
        ],
    );
    let o = poolopt(&["opt", POOL8, "--remarks=yaml"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let o = poolopt(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let script = stdout(&o);
        assert!(script.contains("poolopt"), "{shell}");
        assert!(
            script.contains("remarks-filter"),
            "{shell}: options are completed"
        );
    }
    let o = poolopt(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn version_names_the_git_revision() {
    let o = poolopt(&["--version"]);
    let out = stdout(&o);
    assert!(out.starts_with("poolopt 0."), "{out}");
    assert!(out.contains(" (git "), "{out}");
}

#[test]
fn every_positional_argument_is_described_in_help() {
    for (command, text) in [
        ("run", "The IR program"),
        ("opt", "The IR program to optimize"),
        ("emit", "The IR program to compile"),
        ("check", "The IR program to parse and verify"),
        ("completions", "The shell to complete for"),
    ] {
        let o = poolopt(&[command, "--help"]);
        assert_eq!(o.status.code(), Some(0));
        assert!(
            stdout(&o).contains(text),
            "{command} --help: {}",
            stdout(&o)
        );
    }
    // The hidden subcommand is not listed.
    assert!(!stdout(&poolopt(&["--help"])).contains("bench-cell"));
}

#[test]
fn time_passes_prints_a_row_per_pass_with_measured_times() {
    let o = poolopt(&["opt", POOL8, "-O2", "--time-passes", "-o", "/dev/null"]);
    assert_eq!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert!(
        err.contains("===== pass execution timing report ====="),
        "{err}"
    );
    let total = err
        .lines()
        .find(|l| l.trim_end().ends_with(" total"))
        .expect("a total row");
    let ms: f64 = total.split_whitespace().next().unwrap().parse().unwrap();
    // The clock must run when the table is asked for (a whole O2 pipeline is never 0 ms
    // to the microsecond).
    assert!(ms > 0.0, "{total}");
    for pass in ["inline", "sparse-bounds-check-elim", "simplify-cfg"] {
        assert!(
            err.lines().any(|l| l.ends_with(&format!("  {pass}"))),
            "{err}"
        );
    }
    // The prover decides every check of slot_pool_8: no fact analysis runs, except to word
    // the remarks when they are asked for.
    let facts_computed = |err: &str| -> u64 {
        let facts = err
            .lines()
            .find(|l| l.ends_with("  facts"))
            .expect("facts row");
        facts.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    assert_eq!(facts_computed(&err), 0, "{err}");
    let o = poolopt(&[
        "opt",
        POOL8,
        "-O2",
        "--time-passes",
        "--remarks",
        "-o",
        "/dev/null",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(facts_computed(&stderr(&o)) >= 1, "{}", stderr(&o));
}
