//! Helpers of the integration tests that know this repository's layout: loading its programs and
//! the expected workload results. Running a program everywhere (interpreter, JIT at every level
//! and Cranelift level) comes from `poolopt-test-support`.

#![allow(dead_code, unused_imports)]

use poolopt::{parse_and_verify, VerifiedModule};
use std::path::{Path, PathBuf};

pub use poolopt_test_support::{
    interp_outcome, jit_outcome, load_str, optimize, optimize_both_ways, run_everywhere, Outcome,
    CL_OPTS, LEVELS,
};

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

/// Every `.pir` file under the given repository folders.
pub fn pir_files(dirs: &[&str]) -> Vec<PathBuf> {
    let dirs: Vec<PathBuf> = dirs.iter().map(|d| root().join(d)).collect();
    poolopt_test_support::pir_files_below(&dirs)
}

pub fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}
