//! Tests of the check passes (bounds-check-elim, range-check-fold) and the fact analysis, one
//! case file each in `crates/passes/tests/checks/*.pir`. A case is a program with a header that
//! says which passes to run, on which calls, and what must hold afterwards:
//!
//! ```text
//! ; passes: range-check-fold, bounds-check-elim      (the pipeline, verified after each pass)
//! ; runs: main(0) main(-1) main(i64::MIN)             (same result or trap before and after)
//! ; contains: f |     set.unchecked v[i], x\n         (a substring of function f's printed IR)
//! ; lacks: f | hi:                                    (not a substring)
//! ; applied: range check `i < 0 || i >= n` folded     (an applied remark containing this)
//! ; missed: index check kept: `r` is the result       (a missed remark containing this)
//! ; no-remark: propagated: 0 later reads              (no remark of any kind contains this)
//! ; stat: bounds-check-elim checks_removed = 2        (a counter's value)
//! ; traps: main(2)                                    (the optimized program traps on this call)
//! ; returns: main(0)                                  (and returns a value on this one)
//! ```
//!
//! `\n` in a `contains`/`lacks` pattern is a line break. Other `;` lines are comments, and line
//! numbers in remarks are the case file's own. Every case also runs (`common::opt`) with remarks
//! on and off (the IR after each pass must not differ), prints back to itself, and runs its
//! calls after the O1 and O2 pipelines with the same results as before. A case with no
//! expectation fails: adding the near miss of a new rule is one small file.

mod common;

use common::{func, module, opt, remarks, run_both_ways};
use poolopt_ir::RunLimits;
use poolopt_passes::{OptLevel, PassManager, RemarkKind};
use std::path::{Path, PathBuf};

/// One expectation of a case file.
#[derive(Debug)]
enum Expectation {
    Contains(String, String),
    Lacks(String, String),
    Remark(RemarkKind, String),
    NoRemark(String),
    Stat(String, String, u64),
    Traps(String, Vec<i64>),
    Returns(String, Vec<i64>),
}

/// A parsed case file.
struct Case {
    passes: Vec<String>,
    runs: Vec<(String, Vec<i64>)>,
    expect: Vec<Expectation>,
}

fn parse_arg(a: &str) -> Result<i64, String> {
    match a.trim() {
        "i64::MIN" => Ok(i64::MIN),
        "i64::MAX" => Ok(i64::MAX),
        other => other
            .parse()
            .map_err(|e| format!("bad argument `{other}`: {e}")),
    }
}

/// `main(1, -2)` → ("main", [1, -2]).
fn parse_call(s: &str) -> Result<(String, Vec<i64>), String> {
    let (name, rest) = s
        .trim()
        .split_once('(')
        .ok_or_else(|| format!("`{s}` is not a call such as main(1)"))?;
    let args = rest
        .strip_suffix(')')
        .ok_or_else(|| format!("`{s}`: no closing parenthesis"))?;
    let args = args
        .split(',')
        .filter(|a| !a.trim().is_empty())
        .map(parse_arg)
        .collect::<Result<_, _>>()?;
    Ok((name.trim().to_string(), args))
}

/// `f | pattern` with `\n` unescaped.
fn parse_pattern(s: &str) -> Result<(String, String), String> {
    let (f, pat) = s
        .split_once(" | ")
        .ok_or_else(|| format!("`{s}`: expected `FUNCTION | TEXT`"))?;
    Ok((f.trim().to_string(), pat.replace("\\n", "\n")))
}

fn parse_case(src: &str) -> Result<Case, String> {
    let mut case = Case {
        passes: Vec::new(),
        runs: Vec::new(),
        expect: Vec::new(),
    };
    for line in src.lines().map_while(|l| l.strip_prefix("; ")) {
        let Some((key, value)) = line.split_once(": ") else {
            continue;
        };
        let value = value.trim_end();
        match key {
            "passes" => {
                case.passes = value.split(',').map(|p| p.trim().to_string()).collect();
            }
            "runs" => {
                for call in value.split(") ") {
                    let call = if call.ends_with(')') {
                        call.to_string()
                    } else {
                        format!("{call})")
                    };
                    case.runs.push(parse_call(&call)?);
                }
            }
            "contains" => {
                let (f, p) = parse_pattern(value)?;
                case.expect.push(Expectation::Contains(f, p));
            }
            "lacks" => {
                let (f, p) = parse_pattern(value)?;
                case.expect.push(Expectation::Lacks(f, p));
            }
            "applied" => case
                .expect
                .push(Expectation::Remark(RemarkKind::Applied, value.to_string())),
            "missed" => case
                .expect
                .push(Expectation::Remark(RemarkKind::Missed, value.to_string())),
            "no-remark" => case.expect.push(Expectation::NoRemark(value.to_string())),
            "stat" => {
                let (name, n) = value
                    .split_once(" = ")
                    .ok_or_else(|| format!("stat `{value}`: expected `PASS COUNTER = N`"))?;
                let (pass, counter) = name
                    .split_once(' ')
                    .ok_or_else(|| format!("stat `{value}`: expected `PASS COUNTER = N`"))?;
                let n = n.parse().map_err(|e| format!("stat `{value}`: {e}"))?;
                case.expect
                    .push(Expectation::Stat(pass.into(), counter.into(), n));
            }
            "traps" => {
                let (f, args) = parse_call(value)?;
                case.expect.push(Expectation::Traps(f, args));
            }
            "returns" => {
                let (f, args) = parse_call(value)?;
                case.expect.push(Expectation::Returns(f, args));
            }
            _ => {} // a comment
        }
    }
    if case.passes.is_empty() {
        return Err("no `; passes:` line".into());
    }
    if case.runs.is_empty() {
        return Err("no `; runs:` line".into());
    }
    if case.expect.is_empty() {
        return Err(
            "no expectation (contains, lacks, applied, missed, no-remark, stat, traps, returns)"
                .into(),
        );
    }
    Ok(case)
}

fn case_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/checks");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pir"))
        .collect();
    files.sort();
    files
}

/// Runs one case; returns what did not hold.
fn check_case(src: &str) -> Result<(), String> {
    let case = parse_case(src)?;
    let passes: Vec<&str> = case.passes.iter().map(String::as_str).collect();
    let runs: Vec<(&str, &[i64])> = case
        .runs
        .iter()
        .map(|(e, a)| (e.as_str(), a.as_slice()))
        .collect();
    let (m, report) = opt(src, &passes, &runs);
    let limits = RunLimits::default();
    let mut failures = Vec::new();
    for e in &case.expect {
        let ok = match e {
            Expectation::Contains(f, p) => func(&m, f).contains(p.as_str()),
            Expectation::Lacks(f, p) => !func(&m, f).contains(p.as_str()),
            Expectation::Remark(kind, needle) => remarks(&report, *kind)
                .iter()
                .any(|r| r.contains(needle.as_str())),
            Expectation::NoRemark(needle) => !report
                .remarks
                .iter()
                .any(|r| r.message.contains(needle.as_str())),
            Expectation::Stat(pass, counter, n) => report.stats.get(pass, counter) == *n,
            Expectation::Traps(f, args) => poolopt_interp::run(&m, f, args, &limits).is_err(),
            Expectation::Returns(f, args) => poolopt_interp::run(&m, f, args, &limits).is_ok(),
        };
        if !ok {
            failures.push(format!("{e:?}"));
        }
    }
    if !failures.is_empty() {
        let mut text = String::new();
        for f in m.funcs.values() {
            text.push_str(&func(&m, &f.name));
        }
        return Err(format!(
            "did not hold:\n  {}\noptimized IR:\n{text}\nremarks: {:#?}\nstats: {:?}",
            failures.join("\n  "),
            report.remarks,
            report.stats
        ));
    }
    // The full pipelines keep every call's result or trap.
    let before = module(src);
    for level in [OptLevel::O1, OptLevel::O2] {
        let mut after = before.clone();
        run_both_ways(&mut after, || PassManager::for_level(level));
        for (entry, args) in &runs {
            let a = poolopt_interp::run(&before, entry, args, &limits);
            let b = poolopt_interp::run(&after, entry, args, &limits);
            if a != b {
                return Err(format!(
                    "{level:?}: {entry}{args:?} gave {b:?}, before {a:?}"
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn check_cases() {
    let files = case_files();
    assert!(files.len() >= 20, "only {} case files", files.len());
    let mut failed = Vec::new();
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let result = std::panic::catch_unwind(|| check_case(&src))
            .unwrap_or_else(|_| Err("panicked (see above)".to_string()));
        if let Err(why) = result {
            failed.push(format!("{name}: {why}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

/// The case format is strict where a typo would silently weaken a case.
#[test]
fn case_format_errors_are_reported() {
    let body = "fn main() -> i64 {\nentry:\n    ret 0\n}\n";
    for (header, error) in [
        ("; runs: main()\n; stat: x y = 1\n", "no `; passes:` line"),
        (
            "; passes: simplify-cfg\n; stat: x y = 1\n",
            "no `; runs:` line",
        ),
        ("; passes: simplify-cfg\n; runs: main()\n", "no expectation"),
        (
            "; passes: simplify-cfg\n; runs: main(x)\n; stat: a b = 1\n",
            "bad argument `x`",
        ),
        (
            "; passes: simplify-cfg\n; runs: main()\n; contains: main\n",
            "FUNCTION | TEXT",
        ),
        (
            "; passes: simplify-cfg\n; runs: main()\n; stat: a = 1\n",
            "PASS COUNTER = N",
        ),
    ] {
        let err = parse_case(&format!("{header}{body}"))
            .err()
            .unwrap_or_default();
        assert!(err.contains(error), "{header:?}: {err:?}");
    }
    // An expectation that does not hold fails the case.
    let src = format!("; passes: simplify-cfg\n; runs: main()\n; contains: main | nope\n{body}");
    assert!(check_case(&src).unwrap_err().contains("Contains"));
    let src = format!("; passes: simplify-cfg\n; runs: main()\n; traps: main()\n{body}");
    assert!(check_case(&src).unwrap_err().contains("Traps"));
}
