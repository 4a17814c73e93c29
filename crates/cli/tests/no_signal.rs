//! The built `poolopt` binary on a few hundred mutated programs (byte flips, truncations, token
//! deletions and swaps of every `.pir` under examples/ and tests/): `check`, `opt` and `run
//! --fuel 100000 --max-memory 1000000` exit with 0, 2 or 3 only, never with a signal or a
//! panic (Rust's panic exit code is 101).
//!
//! `POOLOPT_CLI_MUTANTS=N` sets the number of mutated files (default 240).

use poolopt_test_support::{header, pir_files, pir_files_below, Expect, XorShift};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn all_pir_files() -> Vec<PathBuf> {
    pir_files_below(&[root().join("examples"), root().join("tests")])
}

fn mutate(src: &[u8], rng: &mut XorShift) -> Vec<u8> {
    let mut out = src.to_vec();
    if out.is_empty() {
        return out;
    }
    match rng.below(5) {
        0 => {
            let i = rng.below(out.len());
            out[i] ^= 1 << rng.below(8);
        }
        1 => out.truncate(rng.below(out.len())),
        2 => {
            // Delete a run of bytes.
            let i = rng.below(out.len());
            let n = 1 + rng.below(8);
            out.drain(i..(i + n).min(out.len()));
        }
        3 => {
            // Swap two whitespace-separated words.
            let text = String::from_utf8_lossy(&out).into_owned();
            let mut words: Vec<&str> = text.split(' ').collect();
            let (a, b) = (rng.below(words.len()), rng.below(words.len()));
            words.swap(a, b);
            out = words.join(" ").into_bytes();
        }
        _ => {
            let i = rng.below(out.len());
            out[i] = [b'0', b'-', b'\n', b'}', b'x', 0xc3][rng.below(6)];
        }
    }
    out
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_poolopt")
}

#[test]
fn mutated_programs_exit_0_2_or_3() {
    let count: usize = std::env::var("POOLOPT_CLI_MUTANTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(240);
    let files = all_pir_files();
    assert!(!files.is_empty());
    let dir = std::env::temp_dir().join(format!("poolopt-no-signal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = XorShift::new(0x1234_5678_9abc_def1);
    let mut codes = std::collections::BTreeMap::new();
    for k in 0..count {
        let original = &files[k % files.len()];
        let src = std::fs::read(original).unwrap();
        let mutant = mutate(&src, &mut rng);
        let path = dir.join(format!("m{k}.pir"));
        std::fs::write(&path, &mutant).unwrap();
        let commands: [&[&str]; 3] = [
            &["check"],
            &["opt"],
            &["run", "--fuel", "100000", "--max-memory", "1000000"],
        ];
        for args in commands {
            let out = Command::new(bin())
                .args(args)
                .arg(&path)
                .output()
                .expect("run poolopt");
            let code = out.status.code();
            assert!(
                matches!(code, Some(0 | 2 | 3)),
                "poolopt {args:?} on a mutant of {} exited with {:?}\nstderr: {}\ninput:\n{}",
                original.display(),
                out.status,
                String::from_utf8_lossy(&out.stderr),
                String::from_utf8_lossy(&mutant)
            );
            *codes.entry((args[0], code.unwrap())).or_insert(0) += 1;
        }
        let _ = std::fs::remove_file(&path);
    }
    let _ = std::fs::remove_dir(&dir);
    eprintln!("exit codes: {codes:?}");
    // Some mutants must get through to a run, or this test proves little.
    assert!(
        codes.get(&("run", 0)).copied().unwrap_or(0) + codes.get(&("run", 3)).copied().unwrap_or(0)
            > 0
    );
}

/// One case of tests/untrusted/: a program and its header (`; entry:`, `; args:`, `; flags:`,
/// `; expect:` and optionally `; expect-interp:`).
struct UntrustedCase {
    path: PathBuf,
    src: String,
}

impl UntrustedCase {
    fn header(&self, key: &str) -> Option<&str> {
        header(&self.src, key)
    }

    /// The `run` command line, without the level options.
    fn run_args(&self) -> Vec<String> {
        let mut args = vec![
            "run".to_string(),
            self.path.display().to_string(),
            "--entry".to_string(),
            self.header("entry").unwrap_or("main").to_string(),
        ];
        if let Some(a) = self.header("args").filter(|a| !a.is_empty()) {
            args.push(format!("--args={a}"));
        }
        if let Some(flags) = self.header("flags") {
            args.extend(flags.split_whitespace().map(str::to_string));
        }
        args
    }
}

fn untrusted_cases() -> Vec<UntrustedCase> {
    let paths = pir_files(&root().join("tests/untrusted"));
    assert!(paths.len() >= 10, "tests/untrusted/ has only {paths:?}");
    paths
        .into_iter()
        .map(|path| UntrustedCase {
            src: std::fs::read_to_string(&path).unwrap(),
            path,
        })
        .collect()
}

/// Asserts that a finished `poolopt` process matches `expect` (`value N`, `trap KIND` or
/// `error MESSAGE`) and was not killed by a signal.
fn assert_outcome(out: &std::process::Output, expect: &str, what: &str) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    assert!(
        code.is_some(),
        "{what}: killed by {:?}\nstderr: {stderr}",
        out.status
    );
    match Expect::parse(expect).unwrap_or_else(|e| panic!("{what}: {e}")) {
        Expect::Value(v) => {
            assert_eq!(code, Some(0), "{what}: stderr: {stderr}");
            assert_eq!(
                stdout.lines().last(),
                Some(v.to_string().as_str()),
                "{what}"
            );
        }
        Expect::Trap(kind) => {
            assert_eq!(code, Some(3), "{what}: stdout: {stdout} stderr: {stderr}");
            assert!(
                stderr.starts_with(&format!("trap: {kind}: ")),
                "{what}: {stderr}"
            );
        }
        Expect::Error(message) => {
            assert_eq!(code, Some(2), "{what}: stdout: {stdout} stderr: {stderr}");
            assert!(stderr.contains(&message), "{what}: {stderr}");
        }
    }
}

/// Runs `cmd` to completion, killing it (and failing) after `limit`: a hang is a failure too.
fn output_within(mut cmd: Command, limit: std::time::Duration, what: &str) -> std::process::Output {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start poolopt");
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out_pipe.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err_pipe.read_to_end(&mut buf);
        buf
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for poolopt") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?} (a hang), killed");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    std::process::Output {
        status,
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

/// Every program of tests/untrusted/ (the audit of the ways input reaches memory: unchecked
/// operations, never-assigned and dropped vecs, huge and negative indices, wide elements under
/// the largest memory limit, narrow parameters given wide arguments, huge call-depth limits,
/// callees that trap before returning a vec, a struct or a loop bound) gives its expected value,
/// trap or error in the JIT (without fuel) at every level and Cranelift level and in the
/// interpreter, and never dies of a signal or hangs.
#[test]
fn untrusted_programs_give_their_outcome_at_every_level() {
    let limit = std::time::Duration::from_secs(60);
    for case in untrusted_cases() {
        let name = case.path.file_name().unwrap().to_string_lossy().to_string();
        let expect = case
            .header("expect")
            .unwrap_or_else(|| panic!("{name}: no `; expect:` header"));
        for level in ["-O0", "-O1", "-O2"] {
            for cl in ["none", "speed"] {
                let what = format!("{name} {level} --cl-opt {cl}");
                let mut cmd = Command::new(bin());
                cmd.args(case.run_args()).args([level, "--cl-opt", cl]);
                let out = output_within(cmd, limit, &what);
                assert_outcome(&out, expect, &what);
            }
        }
        let mut cmd = Command::new(bin());
        cmd.args(case.run_args()).arg("--interp");
        let out = output_within(cmd, limit, &format!("{name} --interp"));
        let expect_interp = case.header("expect-interp").unwrap_or(expect);
        assert_outcome(&out, expect_interp, &format!("{name} --interp"));
    }
}

/// Writes `src` to a fresh file of this test process and returns its path.
fn temp_program(name: &str, src: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("poolopt-untrusted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, src).unwrap();
    path
}

/// The witness: `check` and `run` refuse it at the unchecked instruction's line (exit
/// 2, `FILE:LINE:COL: error:`); with `--trust-unchecked` `check` accepts it and the interpreter
/// reports the violation as an error (the JIT is not run: the flag is the user's promise).
#[test]
fn unchecked_witness_is_refused_unless_trusted() {
    let path = root().join("tests/untrusted/unchecked_get_set_witness.pir");
    let file = path.display().to_string();
    let out = Command::new(bin())
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with(&format!(
            "{file}:12:5: error: `get.unchecked` is not allowed"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "{file}:13:5: error: `set.unchecked` is not allowed"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("--trust-unchecked"), "{stderr}");

    let out = Command::new(bin())
        .args(["check", "--trust-unchecked"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");

    let out = Command::new(bin())
        .args([
            "run",
            "--trust-unchecked",
            "--interp",
            "--args",
            "100000000",
        ])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("unchecked"));
}

/// An unchecked division in the input: `run` refuses it at its line (exit 2, naming the flag)
/// at every level and in the interpreter; with `--trust-unchecked` the interpreter reports the
/// violated precondition (divisor 0) as an error, not a `div_zero` trap. The JIT is not run on
/// it: the flag is the user's promise, and by 0 the division would fault.
#[test]
fn unchecked_division_is_refused_unless_trusted() {
    let path = root().join("tests/untrusted/unchecked_sdiv_zero.pir");
    let file = path.display().to_string();
    for extra in [&["-O0"][..], &["-O2"][..], &["--interp"][..]] {
        let out = Command::new(bin())
            .arg("run")
            .arg(&path)
            .args(["--args", "0"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with(&format!(
                "{file}:9:5: error: `sdiv.unchecked` is not allowed in untrusted IR"
            )),
            "{extra:?}: {stderr}"
        );
        assert!(stderr.contains("--trust-unchecked"), "{stderr}");
    }
    let out = Command::new(bin())
        .args(["run", "--trust-unchecked", "--interp", "--args", "0"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unchecked operation violated its precondition: sdiv.unchecked by 0"),
        "{stderr}"
    );
    // A divisor that meets the precondition runs, in the JIT too.
    let out = Command::new(bin())
        .args(["run", "--trust-unchecked", "-O0", "--args", "2"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "3");
}

/// `poolopt opt` output (which holds the passes' unchecked operations) is refused as input
/// without `--trust-unchecked` and gives the original result with it, at every level.
#[test]
fn optimized_ir_round_trips_with_trust_unchecked() {
    let workload = root().join("examples/workloads/slot_pool_8.pir");
    let out = Command::new(bin())
        .args(["opt", "-O2"])
        .arg(&workload)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let optimized = String::from_utf8(out.stdout).unwrap();
    assert!(optimized.contains(".unchecked"), "{optimized}");
    let path = temp_program("slot_pool_8_o2.pir", &optimized);

    let run = |file: &Path, extra: &[&str]| {
        Command::new(bin())
            .arg("run")
            .arg(file)
            .args(["--entry", "lifo", "--args", "10,5"])
            .args(extra)
            .output()
            .unwrap()
    };
    let reference = run(&workload, &["-O0"]);
    assert_eq!(reference.status.code(), Some(0));
    let refused = run(&path, &[]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains(".unchecked` is not allowed"));
    for level in ["-O0", "-O1", "-O2"] {
        let trusted = run(&path, &["--trust-unchecked", level]);
        assert_eq!(trusted.status.code(), Some(0), "{trusted:?}");
        assert_eq!(trusted.stdout, reference.stdout, "{level}");
    }
    let _ = std::fs::remove_file(&path);
}
