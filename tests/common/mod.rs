//! Helpers shared by the integration tests: loading programs, the expected workload results,
//! and running a program everywhere (interpreter, JIT at every level and Cranelift level).

#![allow(dead_code)]

use poolopt::{
    parse_and_verify, ClOpt, InterpError, OptLevel, PassManager, RunError, RunLimits, Session,
    Trap, VerifiedModule,
};
use std::path::{Path, PathBuf};

pub const LEVELS: [OptLevel; 3] = [OptLevel::O0, OptLevel::O1, OptLevel::O2];
pub const CL_OPTS: [ClOpt; 2] = [ClOpt::None, ClOpt::Speed];

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Parses and verifies a program of the repository (path relative to the root).
pub fn load(rel: &str) -> VerifiedModule {
    let path = root().join(rel);
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    parse_and_verify(rel, &src).unwrap_or_else(|d| panic!("{d}"))
}

/// Parses and verifies program text.
pub fn load_str(name: &str, src: &str) -> VerifiedModule {
    parse_and_verify(name, src).unwrap_or_else(|d| panic!("{d}"))
}

/// One line of examples/workloads/expected.txt.
#[derive(Clone, Debug)]
pub struct Expected {
    pub workload: String,
    pub size: u32,
    pub n: i64,
    pub rounds: i64,
    pub result: i64,
}

impl Expected {
    pub fn file(&self) -> String {
        format!("examples/workloads/slot_pool_{}.pir", self.size)
    }
}

/// The expected results of the reference workloads (examples/workloads/expected.txt).
pub fn expected_results() -> Vec<Expected> {
    let text = std::fs::read_to_string(root().join("examples/workloads/expected.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let parts: Vec<&str> = line.split_whitespace().collect();
            let (workload, size) = parts[0].rsplit_once('_').unwrap();
            Expected {
                workload: workload.to_string(),
                size: size.parse().unwrap(),
                n: parts[1].parse().unwrap(),
                rounds: parts[2].parse().unwrap(),
                result: parts[3].parse().unwrap(),
            }
        })
        .collect()
}

/// The outcome of one run, comparable across engines: a value or a trap kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Value(i64),
    Trap(String),
}

impl Outcome {
    fn from_trap(t: &Trap) -> Outcome {
        Outcome::Trap(t.kind.name().to_string())
    }
}

pub fn interp_outcome(
    module: &VerifiedModule,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
) -> Outcome {
    match poolopt::interp::run(module.module(), entry, args, limits) {
        Ok(v) => Outcome::Value(v),
        Err(InterpError::Trap(t)) => Outcome::from_trap(&t),
        Err(e) => panic!("interpreter failed: {e}"),
    }
}

/// Optimizes with `level`'s pipeline (verifying after every pass).
pub fn optimize(module: &VerifiedModule, level: OptLevel) -> Session {
    Session::new(module.clone())
        .optimize(&PassManager::for_level(level).verify_each(true))
        .unwrap_or_else(|e| panic!("{e}"))
}

pub fn jit_outcome(
    session: &Session,
    cl: ClOpt,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
) -> Outcome {
    let compiled = session
        .compile(cl)
        .unwrap_or_else(|e| panic!("compile: {e}"));
    match compiled.run(entry, args, limits) {
        Ok(v) => Outcome::Value(v),
        Err(RunError::Trap(t)) => Outcome::from_trap(&t),
        Err(e) => panic!("run failed: {e}"),
    }
}

/// Runs `entry` in the interpreter (unoptimized and after each level) and in the JIT at every
/// level and Cranelift level; asserts every outcome equals the unoptimized interpreter's and
/// returns it.
pub fn run_everywhere(
    module: &VerifiedModule,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
) -> Outcome {
    let reference = interp_outcome(module, entry, args, limits);
    for level in LEVELS {
        let session = optimize(module, level);
        let optimized = interp_outcome(session.module(), entry, args, limits);
        assert_eq!(
            optimized, reference,
            "interpreter after {level:?} differs for {entry}{args:?}"
        );
        for cl in CL_OPTS {
            let got = jit_outcome(&session, cl, entry, args, limits);
            assert_eq!(
                got, reference,
                "JIT {level:?} cl={cl} differs for {entry}{args:?}"
            );
        }
    }
    reference
}

/// Every `.pir` file under the given repository folders.
pub fn pir_files(dirs: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = dirs.iter().map(|d| root().join(d)).collect();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pir") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

pub fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}
