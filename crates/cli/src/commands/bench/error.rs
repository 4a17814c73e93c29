//! What can make a benchmark run fail. A wrong result is an error naming the configuration
//! and the sample: no ratio is ever printed over different results.

use std::fmt;
use std::path::PathBuf;
use thiserror::Error;

/// Which timed run of a configuration: a warm-up or a measured sample (both 1-based).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Round {
    Warmup(usize),
    Sample(usize),
}

impl fmt::Display for Round {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Round::Warmup(i) => write!(f, "warm-up {}", i + 1),
            Round::Sample(i) => write!(f, "sample {}", i + 1),
        }
    }
}

#[derive(Debug, Error)]
pub enum BenchError {
    /// Bad command-line options (exit code 2).
    #[error("error: {0}")]
    Usage(String),
    /// The embedded expected-results table is malformed.
    #[error("error: examples/workloads/expected.txt:{line}: {message}")]
    ExpectedTable { line: usize, message: String },
    /// Parsing, verification, a pass or the Cranelift compilation failed.
    #[error("error: {config}: {source}")]
    Pipeline {
        config: String,
        #[source]
        source: poolopt::Error,
    },
    /// The JIT run did not produce a value (a trap or a host-side error).
    #[error("error: {config}, {round}: the run failed: {source}")]
    Run {
        config: String,
        round: Round,
        #[source]
        source: poolopt::RunError,
    },
    /// The native reference implementation hit one of the workload's checks.
    #[error("error: {config}, {round}: the native reference trapped: {message}")]
    NativeTrap {
        config: String,
        round: Round,
        message: String,
    },
    /// A run returned a value other than the expected result.
    #[error("error: {config}, {round}: result {actual} differs from the expected {expected}")]
    WrongResult {
        config: String,
        round: Round,
        expected: i64,
        actual: i64,
    },
    /// The chosen metric could not be read (a counter, the CPU clock, or callgrind failed).
    #[error("error: measuring failed: {0}")]
    Meter(String),
    /// Writing the `--out` directory failed.
    #[error("error: cannot write {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl BenchError {
    /// The process exit code: 2 for usage errors, 1 for everything else.
    pub fn exit_code(&self) -> u8 {
        match self {
            BenchError::Usage(_) => 2,
            _ => 1,
        }
    }
}
