//! `poolopt bench`: the benchmark matrix on the built-in workloads.

use super::Failure;
use clap::Args;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct BenchArgs {}

pub fn run(_args: BenchArgs) -> Result<ExitCode, Failure> {
    Err(Failure::internal("error: bench is not built yet"))
}
