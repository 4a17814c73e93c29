//! What each subcommand does.

pub mod bench;

use crate::cli::{CheckArgs, Cli, Command, EmitArgs, EmitKind, OptArgs, OptOptions, RunArgs};
use poolopt::{
    parse_and_verify, InterpError, JitOptions, OptLevel, PassManager, RunError, RunLimits, Session,
    Trap,
};
use std::process::ExitCode;

/// A failed command: what to print on stderr and the exit code.
pub struct Failure {
    pub message: String,
    pub code: u8,
}

impl Failure {
    fn usage(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 2,
        }
    }

    fn internal(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 1,
        }
    }

    fn trap(trap: &Trap) -> Failure {
        Failure {
            // `trap: <kind>: <message> in <function>`, then ` at line N` when the line is known.
            message: trap.to_string(),
            code: 3,
        }
    }
}

pub fn dispatch(cli: Cli) -> Result<ExitCode, Failure> {
    match cli.command {
        Command::Run(args) => run(args),
        Command::Opt(args) => opt(args),
        Command::Emit(args) => emit(args),
        Command::Check(args) => check(args),
        Command::Bench(args) => bench::run(args),
    }
}

/// Reads and verifies a file; errors are `FILE:LINE:COL: error: ...` with a snippet (exit 2).
fn load(path: &std::path::Path) -> Result<Session, Failure> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::usage(format!("{name}: error: cannot read file: {e}")))?;
    let source = String::from_utf8(bytes)
        .map_err(|e| Failure::usage(format!("{name}: error: file is not UTF-8: {e}")))?;
    let module = parse_and_verify(&name, &source).map_err(|d| Failure::usage(d.to_string()))?;
    Ok(Session::new(module))
}

/// The pass manager of `opt`; remarks are collected only when they will be printed.
fn pass_manager(opt: &OptOptions, remarks: bool) -> Result<PassManager, Failure> {
    let manager = match &opt.passes {
        Some(names) => {
            PassManager::from_names(names).map_err(|e| Failure::usage(format!("error: {e}")))?
        }
        None => {
            let level: OptLevel = opt
                .level
                .parse()
                .map_err(|e: String| Failure::usage(format!("error: {e}")))?;
            PassManager::for_level(level)
        }
    };
    Ok(manager
        .verify_each(opt.verify_each || cfg!(debug_assertions))
        .collect_remarks(remarks))
}

fn optimize(session: Session, manager: &PassManager) -> Result<Session, Failure> {
    session
        .optimize(manager)
        .map_err(|e| Failure::internal(format!("error: {e}")))
}

fn run(args: RunArgs) -> Result<ExitCode, Failure> {
    let session = load(&args.file)?;
    let session = optimize(session, &pass_manager(&args.opt, false)?)?;
    let defaults = RunLimits::default();
    let limits = RunLimits {
        max_memory: args.max_memory.unwrap_or(defaults.max_memory),
        fuel: args.fuel,
        max_depth: args.max_depth.unwrap_or(defaults.max_depth),
    };
    let result = if args.interp {
        session
            .interpret(&args.entry, &args.args, &limits)
            .map_err(|e| match e {
                InterpError::Trap(trap) => Failure::trap(&trap),
                other => Failure::usage(format!("error: {other}")),
            })
    } else {
        let options = JitOptions {
            cl_opt: args.cl_opt.into(),
            fuel: args.fuel.is_some(),
        };
        let compiled = session
            .compile_for_entry(&args.entry, &options)
            .map_err(|e| Failure::internal(format!("error: {e}")))?;
        compiled
            .run(&args.entry, &args.args, &limits)
            .map_err(|e| match e {
                RunError::Trap(trap) => Failure::trap(&trap),
                other => Failure::usage(format!("error: {other}")),
            })
    }?;
    println!("{result}");
    Ok(ExitCode::SUCCESS)
}

fn opt(args: OptArgs) -> Result<ExitCode, Failure> {
    let session = load(&args.file)?;
    let manager =
        pass_manager(&args.opt, args.remarks)?.record_dumps(args.print_after_all || args.diff);
    let session = optimize(session, &manager)?;
    let report = session.report();
    for dump in &report.dumps {
        if args.print_after_all {
            eprintln!("; IR after {} on {}", dump.pass, dump.function);
            eprint!("{}", dump.after);
        }
        if args.diff && !dump.diff.is_empty() {
            eprint!("{}", dump.diff);
        }
    }
    if args.remarks {
        for remark in &report.remarks {
            eprintln!("remark: {remark}");
        }
    }
    if args.stats {
        eprint!("{}", report.stats);
    }
    print!("{}", poolopt::ir::print_module(session.module().module()));
    Ok(ExitCode::SUCCESS)
}

fn emit(args: EmitArgs) -> Result<ExitCode, Failure> {
    let session = load(&args.file)?;
    let session = optimize(session, &pass_manager(&args.opt, false)?)?;
    let text = match args.emit {
        EmitKind::Ir => poolopt::ir::print_module(session.module().module()),
        EmitKind::Clif => session
            .emit_clif(args.cl_opt.into())
            .map_err(|e| Failure::internal(format!("error: {e}")))?,
        EmitKind::Asm => session
            .emit_asm(args.cl_opt.into())
            .map_err(|e| Failure::internal(format!("error: {e}")))?,
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

fn check(args: CheckArgs) -> Result<ExitCode, Failure> {
    let session = load(&args.file)?;
    let funcs = session.module().module().funcs.len();
    println!("{}: ok ({funcs} functions)", args.file.display());
    Ok(ExitCode::SUCCESS)
}
