//! The command line of the `toy` example, parsed with clap's derive API:
//! `toy FILE [--entry NAME] [--args A,B] [-O0|-O1|-O2] [--cl-opt none|speed] [--emit ir|clif|asm]
//! [--remarks] [--interp]`, into [`Options`]. `--help` prints the usage; a malformed command
//! line is a [`UsageError`] (exit 2).

use clap::{Parser, ValueEnum};
use poolopt::{ClOpt, OptLevel};

/// What `--emit` prints instead of running.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Emit {
    /// The optimized poolopt IR.
    Ir,
    /// The Cranelift IR.
    Clif,
    /// The x86-64 assembly.
    Asm,
}

/// Cranelift's optimization level.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum ClOptArg {
    None,
    Speed,
}

/// Runs a toy program through poolopt: compile, optimize, then JIT or interpret.
#[derive(Debug, Parser)]
#[command(name = "toy", args_override_self = true)]
struct Cli {
    /// The toy program to run.
    file: String,
    /// The function to run.
    #[arg(long, default_value = "main")]
    entry: String,
    /// The entry's i64 arguments, comma-separated.
    #[arg(
        long,
        value_name = "A,B,...",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    args: Vec<i64>,
    /// The poolopt optimization level: -O0, -O1 or -O2.
    #[arg(short = 'O', value_name = "LEVEL", value_parser = ["0", "1", "2"], default_value = "2")]
    level: String,
    /// Cranelift's optimization level.
    #[arg(long = "cl-opt", value_enum, default_value = "speed")]
    cl_opt: ClOptArg,
    /// Print this form of the program instead of running it.
    #[arg(long, value_enum)]
    emit: Option<Emit>,
    /// Print the passes' remarks (in toy terms) on stderr.
    #[arg(long)]
    remarks: bool,
    /// Run in the reference interpreter instead of the JIT.
    #[arg(long)]
    interp: bool,
}

/// Parsed options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub file: String,
    pub entry: String,
    pub args: Vec<i64>,
    pub level: OptLevel,
    pub cl_opt: ClOpt,
    pub emit: Option<Emit>,
    pub remarks: bool,
    pub interp: bool,
}

/// A command line that does not run a program: a usage error, or `--help`.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(clap::Error);

impl UsageError {
    /// `--help`: the text is the help, to print on stdout with exit code 0.
    pub fn is_help(&self) -> bool {
        matches!(
            self.0.kind(),
            clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
        )
    }
}

/// Parses the arguments after the program name.
pub fn parse_args(args: &[String]) -> Result<Options, UsageError> {
    let argv = std::iter::once("toy".to_string()).chain(args.iter().cloned());
    let cli = Cli::try_parse_from(argv).map_err(UsageError)?;
    Ok(Options {
        file: cli.file,
        entry: cli.entry,
        args: cli.args,
        level: match cli.level.as_str() {
            "0" => OptLevel::O0,
            "1" => OptLevel::O1,
            _ => OptLevel::O2,
        },
        cl_opt: match cli.cl_opt {
            ClOptArg::None => ClOpt::None,
            ClOptArg::Speed => ClOpt::Speed,
        },
        emit: cli.emit,
        remarks: cli.remarks,
        interp: cli.interp,
    })
}
