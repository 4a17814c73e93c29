//! Command-line syntax (clap). Kept apart from what the commands do.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "poolopt",
    version,
    about = "Optimization passes for pool-style array code, JIT-compiled through Cranelift"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Colour diagnostics: `auto` (when stderr is a terminal), `always` or `never`.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto)]
    pub color: ColorArg,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

impl ColorArg {
    /// Whether to colour what goes to stderr.
    pub fn enabled(self) -> bool {
        use std::io::IsTerminal;
        match self {
            ColorArg::Auto => std::io::stderr().is_terminal(),
            ColorArg::Always => true,
            ColorArg::Never => false,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Compile and run a function; prints its i64 result as the last line of stdout.
    Run(RunArgs),
    /// Optimize and print the optimized IR.
    Opt(OptArgs),
    /// Print the IR, Cranelift IR or x86-64 assembly of a program.
    Emit(EmitArgs),
    /// Parse and verify only.
    Check(CheckArgs),
    /// Run the benchmark matrix on the built-in workloads.
    Bench(crate::commands::bench::BenchArgs),
}

/// Optimization options shared by `run`, `opt` and `emit`.
#[derive(Args, Debug, Clone)]
pub struct OptOptions {
    /// Optimization level: -O0, -O1 or -O2.
    #[arg(short = 'O', value_name = "LEVEL", default_value = "2")]
    pub level: String,
    /// Run exactly these passes, in this order (comma-separated), instead of a level's pipeline.
    #[arg(long, value_delimiter = ',', value_name = "PASS,...")]
    pub passes: Option<Vec<String>>,
    /// Verify the IR after every pass.
    #[arg(long)]
    pub verify_each: bool,
    /// Accept unchecked operations (`pop.unchecked`, `get.unchecked`, `set.unchecked`) in
    /// the input. Like Rust's `unsafe`: you vouch that none of them can fail (for example IR
    /// printed by `poolopt opt`); a wrong index then reads or writes out of bounds.
    #[arg(long)]
    pub trust_unchecked: bool,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    pub file: PathBuf,
    /// The function to run.
    #[arg(long, default_value = "main")]
    pub entry: String,
    /// Arguments of the entry function (comma-separated integers).
    #[arg(
        long,
        value_delimiter = ',',
        allow_negative_numbers = true,
        value_name = "A,B,..."
    )]
    pub args: Vec<i64>,
    #[command(flatten)]
    pub opt: OptOptions,
    /// Cranelift's own optimization level.
    #[arg(long, value_enum, default_value_t = ClOptArg::Speed)]
    pub cl_opt: ClOptArg,
    /// Run in the reference interpreter instead of the JIT.
    #[arg(long)]
    pub interp: bool,
    /// Stop with an `out_of_fuel` trap after this many block entries.
    #[arg(long, value_name = "N")]
    pub fuel: Option<u64>,
    /// Memory limit for vec buffers and headers, in bytes.
    #[arg(long, value_name = "BYTES")]
    pub max_memory: Option<u64>,
    /// Call-depth limit (`stack_overflow` trap beyond it).
    #[arg(long, value_name = "N")]
    pub max_depth: Option<u32>,
}

#[derive(Args, Debug)]
pub struct OptArgs {
    pub file: PathBuf,
    #[command(flatten)]
    pub opt: OptOptions,
    /// Print what each pass changed and what it left, with the reason (stderr).
    #[arg(long)]
    pub remarks: bool,
    /// Print one line per pass counter: `<pass> <counter> <value>` (stderr).
    #[arg(long)]
    pub stats: bool,
    /// Print the IR after every pass (stderr).
    #[arg(long)]
    pub print_after_all: bool,
    /// Print a unified diff of what every pass changed (stderr).
    #[arg(long)]
    pub diff: bool,
    /// Print per pass and per analysis: wall time, runs, changes, recomputations (stderr).
    #[arg(long)]
    pub time_passes: bool,
}

#[derive(Args, Debug)]
pub struct EmitArgs {
    pub file: PathBuf,
    #[command(flatten)]
    pub opt: OptOptions,
    /// What to print.
    #[arg(long, value_enum)]
    pub emit: EmitKind,
    /// Cranelift's own optimization level (for clif and asm).
    #[arg(long, value_enum, default_value_t = ClOptArg::Speed)]
    pub cl_opt: ClOptArg,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    pub file: PathBuf,
    /// Accept unchecked operations in the input (see `run --help`).
    #[arg(long)]
    pub trust_unchecked: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmitKind {
    Ir,
    Clif,
    Asm,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClOptArg {
    None,
    Speed,
}

impl From<ClOptArg> for poolopt::ClOpt {
    fn from(c: ClOptArg) -> Self {
        match c {
            ClOptArg::None => poolopt::ClOpt::None,
            ClOptArg::Speed => poolopt::ClOpt::Speed,
        }
    }
}
