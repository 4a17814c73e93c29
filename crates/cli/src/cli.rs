//! Command-line syntax (clap). Kept apart from what the commands do.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// `0.1.0 (git <revision>)`: the package version and the git revision it was built from.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (git ",
    env!("POOLOPT_GIT_REVISION"),
    ")"
);

#[derive(Parser, Debug)]
#[command(
    name = "poolopt",
    version = VERSION,
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
    /// List every pass with its levels and a one-line description, and the pipelines.
    Passes,
    /// Print a shell completion script (e.g. `poolopt completions bash > /etc/bash_completion.d/poolopt`).
    Completions(CompletionsArgs),
    /// One run of one benchmark configuration with phase marks (used by `bench --metric
    /// instructions` under callgrind).
    #[command(hide = true)]
    BenchCell(crate::commands::bench::callgrind::CellArgs),
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Optimization options shared by `run`, `opt` and `emit`.
#[derive(Args, Debug, Clone)]
pub struct OptOptions {
    /// Optimization level: -O0, -O1 or -O2.
    #[arg(short = 'O', value_name = "LEVEL", default_value = "2")]
    pub level: String,
    /// Run exactly these passes, in this order, instead of a level's pipeline; an item may
    /// also be a pipeline name (`O1`, `-O2`), expanded in place: `--passes O2,range-check-fold`.
    /// `poolopt passes` lists them.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "PASS,...",
        allow_hyphen_values = true
    )]
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

/// Where the output of `opt` and `emit` goes and which function it shows.
#[derive(Args, Debug, Clone)]
pub struct OutputOptions {
    /// Write the output to FILE instead of stdout (`-`: stdout).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Show only this function (its IR, remarks, diffs, CLIF or assembly).
    #[arg(long, value_name = "NAME")]
    pub func: Option<String>,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The IR program (`.pir`; `-` reads standard input).
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
    /// Cranelift's own optimization level. At `speed`, a huge function and one whose e-graph
    /// pass would blow up are compiled at `none` (docs/jit.md).
    #[arg(long, value_enum, default_value_t = ClOptArg::Speed)]
    pub cl_opt: ClOptArg,
    /// Run in the reference interpreter instead of the JIT (the same as `--engine interp`).
    #[arg(long, conflicts_with = "engine")]
    pub interp: bool,
    /// What executes the entry: `auto` JIT-compiles it unless the functions it reaches hold
    /// more than 250,000 IR instructions (`POOLOPT_INTERPRET_ABOVE` changes the bound), then
    /// interprets it, which is far cheaper for code that large; `jit` always compiles;
    /// `interp` always interprets. Results and traps are the same.
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    pub engine: EngineArg,
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
    /// The IR program to optimize (`.pir`; `-` reads standard input).
    pub file: PathBuf,
    #[command(flatten)]
    pub opt: OptOptions,
    #[command(flatten)]
    pub output: OutputOptions,
    /// Print what each pass changed and what it left, with the reason (stderr): `text`
    /// (default), or `json` for one JSON object per line (schema in the README).
    #[arg(
        long,
        value_enum,
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "text"
    )]
    pub remarks: Option<RemarkFormat>,
    /// Only the remarks of these passes (comma-separated); implies `--remarks` (text).
    #[arg(long, value_delimiter = ',', value_name = "PASS,...")]
    pub remarks_filter: Option<Vec<String>>,
    /// Print one line per pass counter: `<pass> <counter> <value>` (stderr).
    #[arg(long)]
    pub stats: bool,
    /// Print the IR after every pass (stderr).
    #[arg(long)]
    pub print_after_all: bool,
    /// Print a unified diff of what every pass changed (stderr), the function in each header.
    #[arg(long)]
    pub diff: bool,
    /// Print per pass and per analysis: wall time, runs, changes, recomputations (stderr).
    #[arg(long)]
    pub time_passes: bool,
    /// Print the IR of a function after each pass that changed it (stderr).
    #[arg(long)]
    pub print_changed: bool,
    /// Optimize as `run --entry NAME` does and print what it compiles: only the functions
    /// NAME reaches through calls, optimized for that entry (a callee inlined everywhere is
    /// not printed). Without it every function is optimized as an entry.
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,
}

/// How `opt --remarks` prints remarks.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemarkFormat {
    Text,
    Json,
}

#[derive(Args, Debug)]
pub struct EmitArgs {
    /// The IR program to compile (`.pir`; `-` reads standard input).
    pub file: PathBuf,
    #[command(flatten)]
    pub opt: OptOptions,
    #[command(flatten)]
    pub output: OutputOptions,
    /// What to print.
    #[arg(long, value_enum)]
    pub emit: EmitKind,
    /// Cranelift's own optimization level (for clif and asm). At `speed`, a huge function and
    /// one whose e-graph pass would blow up are compiled at `none`, as `run` does.
    #[arg(long, value_enum, default_value_t = ClOptArg::Speed)]
    pub cl_opt: ClOptArg,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The IR program to parse and verify (`.pir`; `-` reads standard input).
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
pub enum EngineArg {
    Auto,
    Jit,
    Interp,
}

impl From<EngineArg> for poolopt::Engine {
    fn from(e: EngineArg) -> Self {
        match e {
            EngineArg::Auto => poolopt::Engine::Auto,
            EngineArg::Jit => poolopt::Engine::Jit,
            EngineArg::Interp => poolopt::Engine::Interpreter,
        }
    }
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
