//! Random-program differential testing: programs from the generator in `tests/gen` run in the
//! interpreter (the oracle) and in the JIT at O0/O1/O2, under each pass alone and each ordered
//! pair of passes, with Cranelift `none` and `speed`; every outcome must be the oracle's, and
//! no optimized module may violate an unchecked operation's precondition in the interpreter.
//!
//! `POOLOPT_DIFF_CASES=N` sets the number of random programs (default 64). A failure shrinks to
//! a minimal program, which is written to `differential-failure.pir` in Cargo's temporary
//! directory for integration tests (`CARGO_TARGET_TMPDIR`, under the target directory) in the
//! format of the saved cases under `tests/regressions/`; the panic message names the file and
//! the command that replays it (`POOLOPT_DIFF_REPLAY=FILE`). Copy it to `tests/regressions/`
//! with a descriptive name to keep it.

mod gen;

use gen::check::{check, check_configs, interp, Config as CheckConfig, Outcome};
use gen::coverage::Coverage;
use gen::{generate, LIMITS};
use poolopt::ir::print_module;
use poolopt::{OptLevel, PassManager, Session, TrapKind, VerifiedModule};
use poolopt_test_support::{header, pir_files, XorShift};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cases() -> u32 {
    std::env::var("POOLOPT_DIFF_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(64)
}

/// Generates and verifies the program of `bytes` (a program that does not verify is a
/// generator bug).
fn program(bytes: &[u8]) -> (VerifiedModule, Vec<i64>, Vec<&'static str>) {
    let case = generate(bytes);
    let args = case.args.clone();
    match VerifiedModule::new(case.module.clone()) {
        Ok(m) => (m, args, case.shapes),
        Err(errors) => panic!(
            "generator bug: the program does not verify: {errors:?}\n{}",
            print_module(&case.module)
        ),
    }
}

/// The text of a saved regression case.
fn regression_text(module: &VerifiedModule, args: &[i64], expect: &str, why: &str) -> String {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    format!(
        "; {why}\n; entry: main\n; args: {}\n; expect: {expect}\n{}",
        args.join(","),
        print_module(module.module())
    )
}

/// Where a failing program is written: Cargo's per-target temporary directory (it exists
/// wherever `CARGO_TARGET_DIR` points).
fn failure_file() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("differential-failure.pir")
}

/// The command that replays a failure file.
fn replay_command(path: &std::path::Path) -> String {
    format!(
        "POOLOPT_DIFF_REPLAY={} cargo test -p poolopt --test differential \
         saved_regressions_agree_everywhere -- --nocapture",
        path.display()
    )
}

/// Writes a failing program as a saved case to `path` (creating its directory); the error says
/// what could not be written.
fn write_failure(path: &std::path::Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[test]
fn random_programs_agree_everywhere() {
    let n = cases();
    // A fixed seed by default, so CI checks the same programs every run (and a failure there
    // reproduces); POOLOPT_DIFF_SEED=random (or a number) explores new ones.
    let rng_seed = match std::env::var("POOLOPT_DIFF_SEED").ok().as_deref() {
        Some("random") => proptest::test_runner::RngSeed::Random,
        Some(n) => proptest::test_runner::RngSeed::Fixed(n.parse().unwrap_or(0x5eed)),
        None => proptest::test_runner::RngSeed::Fixed(0x5eed),
    };
    let mut runner = TestRunner::new(Config {
        cases: n,
        failure_persistence: None,
        max_shrink_iters: 4096,
        rng_seed,
        ..Config::default()
    });
    let failure_file = failure_file();
    let write_error = std::cell::RefCell::new(None::<String>);
    let start = std::time::Instant::now();
    let total_jit = std::cell::Cell::new(0usize);
    let total_distinct = std::cell::Cell::new(0usize);
    let coverage = std::cell::RefCell::new(Coverage::default());
    let result = runner.run(&proptest::collection::vec(any::<u8>(), 0..700), |bytes| {
        let (module, args, shapes) = program(&bytes);
        match check(&module, "main", &args, &LIMITS) {
            Ok((_, stats)) => {
                let o2 = Session::new(module)
                    .optimize(&PassManager::for_level(OptLevel::O2).collect_remarks(true))
                    .map_err(|e| TestCaseError::fail(format!("O2: {e}")))?;
                coverage.borrow_mut().record(o2.report());
                coverage.borrow_mut().record_shapes(&shapes);
                total_jit.set(total_jit.get() + stats.jit_runs);
                total_distinct.set(total_distinct.get() + stats.distinct_modules);
                Ok(())
            }
            Err(why) => {
                let expect = interp(&module, "main", &args, &LIMITS)
                    .map(|o| o.summary())
                    .unwrap_or_else(|e| e);
                let text = regression_text(&module, &args, &expect, &why);
                *write_error.borrow_mut() = write_failure(&failure_file, &text).err();
                Err(TestCaseError::fail(why))
            }
        }
    });
    if let Err(e) = result {
        match write_error.into_inner() {
            Some(error) => panic!("{e}\nTHE FAILING PROGRAM WAS NOT SAVED: {error}"),
            None => panic!(
                "{e}\nthe minimal failing program is in {}\nreplay it with: {}\n\
                 keep it by copying it to tests/regressions/<what-it-shows>.pir",
                failure_file.display(),
                replay_command(&failure_file)
            ),
        }
    }
    eprintln!(
        "differential: {n} programs clean ({} distinct optimized modules, \
         {} JIT compilations and runs) in {:.1?}",
        total_distinct.get(),
        total_jit.get(),
        start.elapsed()
    );
    // Shrinking re-runs programs, so a count may exceed the number of programs.
    eprintln!("rule coverage:\n{}", coverage.borrow());
}

/// A fixed stream of byte strings (xorshift), so the health check below is deterministic.
fn seeded_inputs(count: usize) -> Vec<Vec<u8>> {
    XorShift::new(0x9e37_79b9_7f4a_7c15).byte_strings(count, 600)
}

/// The generator is healthy (200 seeded programs): its programs verify, never run out of fuel, end in values and in
/// traps of several kinds, and give the passes work (O2 turns checked operations unchecked and
/// folds range checks in some of them, and leaves checks in others).
#[test]
fn generator_produces_a_useful_mix() {
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    let mut unchecked = 0;
    let mut with_kept_checks = 0;
    let mut applied: BTreeMap<&str, usize> = BTreeMap::new();
    let mut coverage = Coverage::default();
    let inputs = seeded_inputs(200);
    for bytes in &inputs {
        let (module, args, shapes) = program(bytes);
        coverage.record_shapes(&shapes);
        let outcome = interp(&module, "main", &args, &LIMITS).unwrap();
        assert!(
            !matches!(outcome, Outcome::Trap(TrapKind::OutOfFuel, ..)),
            "generator bug: out of fuel\n{}",
            print_module(module.module())
        );
        let key = match &outcome {
            Outcome::Value(_) => "value".to_string(),
            Outcome::Trap(kind, ..) => kind.name().to_string(),
        };
        *outcomes.entry(key).or_default() += 1;
        let o2 = Session::new(module)
            .optimize(&PassManager::for_level(OptLevel::O2).collect_remarks(true))
            .unwrap();
        coverage.record(o2.report());
        for r in &o2.report().remarks {
            if r.kind == poolopt::passes::RemarkKind::Applied {
                *applied.entry(r.pass).or_default() += 1;
            }
        }
        let text = print_module(o2.module().module());
        if text.contains(".unchecked") {
            unchecked += 1;
        }
        if text.contains(" = get ") || text.contains("    set ") || text.contains("= pop ") {
            with_kept_checks += 1;
        }
    }
    eprintln!(
        "outcomes of {} programs: {outcomes:?}; O2 removed checks in {unchecked}, kept some in {with_kept_checks}; \
         applied remarks per pass: {applied:?}",
        inputs.len()
    );
    eprintln!("rule coverage of the seeded programs:\n{coverage}");
    // Every rule is reached by some program.
    assert_eq!(
        coverage.unreached(),
        Vec::<String>::new(),
        "rules no generated program reaches:\n{coverage}"
    );
    // Every pass of O2 has something to do in some program.
    for pass in PassManager::for_level(OptLevel::O2).pass_names() {
        assert!(
            applied.get(pass).copied().unwrap_or(0) > 0,
            "O2's `{pass}` never applied: {applied:?}"
        );
    }
    let values = outcomes.get("value").copied().unwrap_or(0);
    assert!(
        values >= inputs.len() / 5,
        "too few programs end in a value: {outcomes:?}"
    );
    assert!(
        outcomes.len() >= 5,
        "too few kinds of outcome: {outcomes:?}"
    );
    assert!(
        unchecked >= inputs.len() / 10,
        "O2 removed checks in only {unchecked} programs"
    );
    assert!(with_kept_checks >= inputs.len() / 10);
}

/// A saved case: the module and how to run it.
struct Saved {
    name: String,
    module: VerifiedModule,
    entry: String,
    args: Vec<i64>,
    expect: String,
}

/// The saved cases of tests/regressions/, plus the file `POOLOPT_DIFF_REPLAY` names (a failure
/// file to replay), which must exist.
fn saved_cases() -> Vec<Saved> {
    let mut paths = pir_files(&root().join("tests/regressions"));
    if let Some(replay) = std::env::var_os("POOLOPT_DIFF_REPLAY") {
        let replay = PathBuf::from(replay);
        assert!(
            replay.is_file(),
            "POOLOPT_DIFF_REPLAY: no file {}",
            replay.display()
        );
        paths.insert(0, replay);
    }
    paths
        .iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let src =
                std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let module = poolopt::parse_and_verify(&name, &src).unwrap_or_else(|d| panic!("{d}"));
            let entry = header(&src, "entry").unwrap_or("main").to_string();
            let args = header(&src, "args")
                .unwrap_or("")
                .split(',')
                .filter(|s| !s.trim().is_empty())
                .map(|s| s.trim().parse().unwrap())
                .collect();
            let expect = header(&src, "expect")
                .unwrap_or_else(|| panic!("{name}: no `; expect:` header"))
                .to_string();
            Saved {
                name,
                module,
                entry,
                args,
                expect,
            }
        })
        .collect()
}

/// Every saved failing case (tests/regressions/*.pir) now agrees everywhere, and the oracle
/// still gives the outcome recorded in its header.
#[test]
fn saved_regressions_agree_everywhere() {
    let cases = saved_cases();
    for case in &cases {
        let (outcome, _) = check(&case.module, &case.entry, &case.args, &LIMITS)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(outcome.summary(), case.expect, "{}", case.name);
    }
    eprintln!("{} saved regression cases agree everywhere", cases.len());
}

/// The failure file is written where the panic message says, its directory created if
/// missing, in the format the replay reads back; an unwritable path is an error, not silence.
#[test]
fn failure_file_is_written_and_replayable() {
    let path = failure_file();
    let _ = std::fs::remove_file(&path);
    let (module, args, _) = program(&seeded_inputs(1)[0]);
    let expect = interp(&module, "main", &args, &LIMITS).unwrap().summary();
    let text = regression_text(&module, &args, &expect, "self-test of the failure file");
    write_failure(&path, &text).unwrap();
    let back = std::fs::read_to_string(&path).unwrap();
    assert_eq!(back, text);
    assert_eq!(header(&back, "expect"), Some(expect.as_str()));
    poolopt::parse_and_verify("differential-failure.pir", &back).unwrap_or_else(|d| panic!("{d}"));
    assert!(replay_command(&path).contains(&path.display().to_string()));
    // A path under a regular file cannot be created: the error says so.
    let blocked = path.join("below-a-file.pir");
    let err = write_failure(&blocked, &text).unwrap_err();
    assert!(err.contains("cannot create"), "{err}");
    std::fs::remove_file(&path).unwrap();
}

/// Writes a few generated programs as saved cases (`cargo test --test differential --
/// --ignored save_sample_cases`): the first of the seeded programs that ends in a value, and
/// the first that ends in each of `index_oob` and `pop_empty`, among those where O2 removes
/// some checks (so a check kept next to a removed one is on record).
#[test]
#[ignore = "writes files under tests/regressions"]
fn save_sample_cases() {
    let mut wanted = vec!["value", "index_oob", "pop_empty"];
    for (k, bytes) in seeded_inputs(300).iter().enumerate() {
        let (module, args, _) = program(bytes);
        let outcome = interp(&module, "main", &args, &LIMITS).unwrap();
        let key = match &outcome {
            Outcome::Value(_) => "value",
            Outcome::Trap(kind, ..) => kind.name(),
        };
        let o2 = Session::new(module.clone())
            .optimize(&PassManager::for_level(OptLevel::O2).collect_remarks(true))
            .unwrap();
        if !print_module(o2.module().module()).contains(".unchecked") {
            continue;
        }
        if let Some(pos) = wanted.iter().position(|w| *w == key) {
            wanted.remove(pos);
            let why = format!(
                "generated program (seeded input {k} of tests/differential.rs); O2 removes some checks"
            );
            let path = root().join(format!("tests/regressions/sample_{key}.pir"));
            std::fs::write(
                path,
                regression_text(&module, &args, &outcome.summary(), &why),
            )
            .unwrap();
        }
    }
}

/// Deliberately unsound passes, to show the check catches what it is meant to catch.
mod unsound {
    use poolopt::ir::{Check, Function, InstKind};
    use poolopt::passes::{OptLevel, Pass, PassContext};
    use poolopt::PassManager;

    /// Turns every checked `pop` into `pop.unchecked`, guarded or not.
    pub struct AllPopsUnchecked;

    impl Pass for AllPopsUnchecked {
        fn name(&self) -> &'static str {
            "all-pops-unchecked"
        }
        fn min_level(&self) -> OptLevel {
            OptLevel::O2
        }
        fn run(&self, func: &mut Function, _: &mut PassContext<'_>) -> bool {
            let mut changed = false;
            for &b in &func.layout {
                for &i in &func.blocks[b].insts {
                    if let InstKind::VecPop { check, .. } = &mut func.insts[i].kind {
                        changed |= *check == Check::Checked;
                        *check = Check::Unchecked;
                    }
                }
            }
            changed
        }
    }

    /// Drops the first instruction of every block that writes a local (a miscompile that
    /// leaves every check in place).
    pub struct DropFirstWrite;

    impl Pass for DropFirstWrite {
        fn name(&self) -> &'static str {
            "drop-first-write"
        }
        fn min_level(&self) -> OptLevel {
            OptLevel::O2
        }
        fn run(&self, func: &mut Function, _: &mut PassContext<'_>) -> bool {
            let mut changed = false;
            for &b in &func.layout.clone() {
                let insts = &mut func.blocks[b].insts;
                let first = insts.iter().position(|&i| {
                    matches!(
                        func.insts[i].kind,
                        InstKind::Binary { .. } | InstKind::Copy { .. }
                    )
                });
                if let Some(k) = first {
                    insts.remove(k);
                    changed = true;
                }
            }
            changed
        }
    }

    pub fn pops() -> PassManager {
        PassManager::new(vec![Box::new(AllPopsUnchecked)]).verify_each(true)
    }

    pub fn writes() -> PassManager {
        PassManager::new(vec![Box::new(DropFirstWrite)]).verify_each(true)
    }
}

/// The harness can fail: an unsound check removal is reported (as an unchecked-precondition
/// violation in the interpreter) and so is a miscompile (a different value), on the same
/// seeded programs the generator health check uses.
#[test]
fn the_check_catches_unsound_passes() {
    let mut caught_unchecked = 0;
    let mut caught_value = 0;
    for bytes in seeded_inputs(60) {
        let (module, args, _) = program(&bytes);
        let configs = vec![
            CheckConfig::Custom("all-pops-unchecked", unsound::pops),
            CheckConfig::Custom("drop-first-write", unsound::writes),
        ];
        if let Err(why) = check_configs(&module, "main", &args, &LIMITS, configs) {
            if why.contains("unchecked operation violated") {
                caught_unchecked += 1;
            } else if why.contains("expected") {
                caught_value += 1;
            }
        }
    }
    assert!(
        caught_unchecked > 0,
        "an unsound check removal went unnoticed"
    );
    assert!(caught_value > 0, "a miscompile went unnoticed");
}
