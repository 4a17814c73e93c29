//! The command line of the `toy` example:
//! `toy FILE [--entry NAME] [--args A,B] [-O0|-O1|-O2] [--cl-opt none|speed] [--emit ir|clif|asm]
//! [--remarks] [--interp]`, parsed by hand (the root package has no argument-parsing
//! dependency) into [`Options`], with typed errors.

use poolopt::{ClOpt, OptLevel};
use thiserror::Error;

/// What `--emit` prints instead of running.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Emit {
    Ir,
    Clif,
    Asm,
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

/// A malformed command line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum UsageError {
    #[error("missing the program file")]
    NoFile,
    #[error("more than one program file: `{0}` and `{1}`")]
    TwoFiles(String, String),
    #[error("`{0}` needs a value")]
    MissingValue(String),
    #[error("unknown option `{0}`")]
    UnknownOption(String),
    #[error("`--args`: `{0}` is not an i64")]
    BadArg(String),
    #[error("`--emit`: expected ir, clif or asm, found `{0}`")]
    BadEmit(String),
    #[error("`--cl-opt`: expected none or speed, found `{0}`")]
    BadClOpt(String),
}

/// The usage line.
pub const USAGE: &str = "usage: toy FILE [--entry NAME] [--args A,B,...] [-O0|-O1|-O2] \
[--cl-opt none|speed] [--emit ir|clif|asm] [--remarks] [--interp]";

/// Parses the arguments after the program name.
pub fn parse_args(args: &[String]) -> Result<Options, UsageError> {
    let mut file: Option<String> = None;
    let mut opts = Options {
        file: String::new(),
        entry: "main".to_string(),
        args: Vec::new(),
        level: OptLevel::O2,
        cl_opt: ClOpt::Speed,
        emit: None,
        remarks: false,
        interp: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| UsageError::MissingValue(name.to_string()))
        };
        match arg.as_str() {
            "-O0" => opts.level = OptLevel::O0,
            "-O1" => opts.level = OptLevel::O1,
            "-O2" => opts.level = OptLevel::O2,
            "--remarks" => opts.remarks = true,
            "--interp" => opts.interp = true,
            "--entry" => opts.entry = value("--entry")?,
            "--args" => {
                let list = value("--args")?;
                opts.args = list
                    .split(',')
                    .filter(|s| !s.trim().is_empty())
                    .map(|s| {
                        s.trim()
                            .parse::<i64>()
                            .map_err(|_| UsageError::BadArg(s.to_string()))
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--emit" => {
                let v = value("--emit")?;
                opts.emit = Some(match v.as_str() {
                    "ir" => Emit::Ir,
                    "clif" => Emit::Clif,
                    "asm" => Emit::Asm,
                    _ => return Err(UsageError::BadEmit(v)),
                });
            }
            "--cl-opt" => {
                let v = value("--cl-opt")?;
                opts.cl_opt = match v.as_str() {
                    "none" => ClOpt::None,
                    "speed" => ClOpt::Speed,
                    _ => return Err(UsageError::BadClOpt(v)),
                };
            }
            other if other.starts_with('-') && other.len() > 1 => {
                return Err(UsageError::UnknownOption(other.to_string()))
            }
            other => {
                if let Some(first) = file.replace(other.to_string()) {
                    return Err(UsageError::TwoFiles(first, other.to_string()));
                }
            }
        }
    }
    opts.file = file.ok_or(UsageError::NoFile)?;
    Ok(opts)
}
