//! What each subcommand does.

pub mod bench;
mod pipeline;
mod remarks;
pub mod suggest;

use crate::cli::{
    CheckArgs, Cli, Command, CompletionsArgs, EmitArgs, EmitKind, OptArgs, OptOptions,
    OutputOptions, RemarkFormat, RunArgs,
};
use poolopt::{
    parse_and_verify_with, Engine, Executed, JitOptions, OptLevel, PassManager, RunLimits,
    RunOptions, Session, Trap, VerifyOptions,
};
use std::io::{Read as _, Write as _};
use std::path::Path;
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

/// Whether diagnostics are coloured (`--color`), set once by [`dispatch`].
static COLOR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub fn dispatch(cli: Cli) -> Result<ExitCode, Failure> {
    COLOR.store(cli.color.enabled(), std::sync::atomic::Ordering::Relaxed);
    match cli.command {
        Command::Run(args) => run(args),
        Command::Opt(args) => opt(args),
        Command::Emit(args) => emit(args),
        Command::Check(args) => check(args),
        Command::Bench(args) => bench::run(args),
        Command::Passes => passes(),
        Command::Completions(args) => completions(args),
        Command::BenchCell(args) => bench::run_cell(args),
    }
}

/// The text of `path`, or of standard input for `-` (an empty or closed stdin is an error).
fn read_input(path: &Path) -> Result<(String, Vec<u8>), Failure> {
    if path.as_os_str() == "-" {
        let name = "<stdin>".to_string();
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| {
            Failure::usage(format!("{name}: error: cannot read standard input: {e}"))
        })?;
        if bytes.is_empty() {
            return Err(Failure::usage(format!(
                "{name}: error: no input: standard input is empty or closed"
            )));
        }
        return Ok((name, bytes));
    }
    let name = path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::usage(format!("{name}: error: cannot read file: {e}")))?;
    Ok((name, bytes))
}

/// Reads and verifies a file (`-`: stdin); errors are `FILE:LINE:COL: error: ...` with a
/// snippet (exit 2). Unchecked operations are refused unless `trust_unchecked`
/// (`--trust-unchecked`).
fn load(path: &Path, trust_unchecked: bool) -> Result<Session, Failure> {
    let (name, bytes) = read_input(path)?;
    let source = String::from_utf8(bytes)
        .map_err(|e| Failure::usage(format!("{name}: error: file is not UTF-8: {e}")))?;
    let options = VerifyOptions { trust_unchecked };
    let color = COLOR.load(std::sync::atomic::Ordering::Relaxed);
    let module = parse_and_verify_with(&name, &source, &options)
        .map_err(|d| Failure::usage(d.render(color)))?;
    Ok(Session::new(module))
}

/// Fails with "did you mean" unless `module` has a function called `name` (`what` is the
/// option that named it).
fn require_function(session: &Session, name: &str, what: &str) -> Result<(), Failure> {
    let module = session.module().module();
    if module.func_by_name(name).is_some() {
        return Ok(());
    }
    let names: Vec<&str> = module.funcs.values().map(|f| f.name.as_str()).collect();
    Err(Failure::usage(format!(
        "error: {what}: no function named `{name}`{}; the functions are: {}",
        suggest::did_you_mean(name, names.iter().copied()),
        if names.is_empty() {
            "(none)".to_string()
        } else {
            names.join(", ")
        }
    )))
}

/// Writes `text` to `-o FILE`, or to stdout.
fn write_output(output: &OutputOptions, text: &str) -> Result<(), Failure> {
    write_with(output, |out| out.write_all(text.as_bytes()))
}

/// Writes the module's struct declarations and the functions `keep` accepts (as
/// `print_module_with` prints them) to `-o FILE`, or to stdout, one function at a time: the
/// printed module is never held whole (gigabytes for a large module at O2).
fn write_module_output(
    output: &OutputOptions,
    module: &poolopt::ir::Module,
    keep: impl Fn(poolopt::ir::FuncId) -> bool,
) -> Result<(), Failure> {
    write_with(output, |out| {
        poolopt::ir::write_module_with(out, module, keep)
    })
}

/// Runs `write` on `-o FILE` (buffered), or on stdout as [`write_stdout`] does (no `-o`, or
/// `-o -`, as `-` reads stdin), and reports a failed write: `cannot write FILE` (exit code 2)
/// or `cannot write to standard output` (1).
fn write_with(
    output: &OutputOptions,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<(), Failure> {
    match &output.output {
        Some(path) if path.as_os_str() != "-" => {
            let cannot = |e: std::io::Error| {
                Failure::usage(format!("error: cannot write {}: {e}", path.display()))
            };
            let mut file = std::io::BufWriter::new(std::fs::File::create(path).map_err(cannot)?);
            write(&mut file).and_then(|()| file.flush()).map_err(cannot)
        }
        _ => stdout_with(write).map_err(stdout_failure),
    }
}

/// Writes `text` to stdout, reporting a write error (exit code 1); see [`write_stdout`].
pub(crate) fn to_stdout(text: &str) -> Result<(), Failure> {
    write_stdout(text).map_err(stdout_failure)
}

/// The failure of a write to stdout.
fn stdout_failure(e: std::io::Error) -> Failure {
    Failure::internal(format!("error: cannot write to standard output: {e}"))
}

/// Writes `text` to stdout (see [`stdout_with`]).
pub(crate) fn write_stdout(text: &str) -> std::io::Result<()> {
    stdout_with(|out| out.write_all(text.as_bytes()))
}

/// Runs `write` on stdout (buffered). A reader that stopped early (`poolopt opt F | head`)
/// closed the pipe after taking what it wanted: that ends the output quietly, as it does for
/// other tools (`print!` would panic).
fn stdout_with(
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        done => done,
    }
}

/// The pass manager of `opt`; remarks and counters are collected only when they will be
/// printed.
fn pass_manager(opt: &OptOptions, remarks: bool, stats: bool) -> Result<PassManager, Failure> {
    let manager = match &opt.passes {
        Some(items) => PassManager::new(
            pipeline::resolve(items).map_err(|e| Failure::usage(format!("error: {e}")))?,
        ),
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
        .collect_remarks(remarks)
        .collect_stats(stats))
}

fn optimize(session: Session, manager: &PassManager) -> Result<Session, Failure> {
    session
        .optimize(manager)
        .map_err(|e| Failure::internal(format!("error: {e}")))
}

fn run(args: RunArgs) -> Result<ExitCode, Failure> {
    let session = load(&args.file, args.opt.trust_unchecked)?;
    require_function(&session, &args.entry, "--entry")?;
    // Only what the entry reaches is optimized (and compiled: `compile_for_entry` below).
    let session = session
        .optimize_for_entries(
            &pass_manager(&args.opt, false, false)?,
            &[args.entry.as_str()],
        )
        .map_err(|e| Failure::internal(format!("error: {e}")))?;
    let defaults = RunLimits::default();
    let limits = RunLimits {
        max_memory: args.max_memory.unwrap_or(defaults.max_memory),
        fuel: args.fuel,
        max_depth: args.max_depth.unwrap_or(defaults.max_depth),
    };
    let options = RunOptions {
        engine: if args.interp {
            Engine::Interpreter
        } else {
            args.engine.into()
        },
        jit: JitOptions {
            cl_opt: args.cl_opt.into(),
            fuel: args.fuel.is_some(),
        },
        ..RunOptions::default()
    };
    // The size only matters when the engine is chosen by it (counted once, for the choice
    // and the note).
    let reachable = if options.engine == Engine::Auto {
        session.reachable_instructions(&args.entry)
    } else {
        0
    };
    let engine = options.engine_for_size(reachable);
    if options.engine == Engine::Auto && engine == Executed::Interpreter {
        err_println!(
            "note: `{}` reaches {reachable} IR instructions, more than {}: it runs in the \
             interpreter (compiling that much costs more than it saves; `--engine jit` compiles \
             it anyway)",
            args.entry,
            options.interpret_above
        );
    }
    let ran = session
        .run_on(engine, &args.entry, &args.args, &limits, &options.jit)
        .map_err(|e| match e {
            poolopt::Error::Run(_) | poolopt::Error::Interp(_) => {
                Failure::usage(format!("error: {e}"))
            }
            other => Failure::internal(format!("error: {other}")),
        })?;
    let result = ran.result.map_err(|trap| Failure::trap(&trap))?;
    to_stdout(&format!("{result}\n"))?;
    Ok(ExitCode::SUCCESS)
}

/// `--- FUNCTION before PASS` / `+++ FUNCTION after PASS` for a diff's header lines.
fn diff_with_function(diff: &str, function: &str, pass: &str) -> String {
    let mut out = String::with_capacity(diff.len() + 2 * function.len());
    for (i, line) in diff.split_inclusive('\n').enumerate() {
        match i {
            0 if line.starts_with("--- ") => {
                out.push_str(&format!("--- {function} before {pass}\n"))
            }
            1 if line.starts_with("+++ ") => {
                out.push_str(&format!("+++ {function} after {pass}\n"))
            }
            _ => out.push_str(line),
        }
    }
    out
}

fn opt(args: OptArgs) -> Result<ExitCode, Failure> {
    let remark_format = args
        .remarks
        .or(args.remarks_filter.as_ref().map(|_| RemarkFormat::Text));
    let pass_filter = match &args.remarks_filter {
        Some(names) => Some(remarks::check_filter(names)?),
        None => None,
    };
    let session = load(&args.file, args.opt.trust_unchecked)?;
    if let Some(func) = &args.output.func {
        require_function(&session, func, "--func")?;
    }
    if let Some(entry) = &args.entry {
        require_function(&session, entry, "--entry")?;
        if let Some(func) = &args.output.func {
            let module = session.module().module();
            let reached = module
                .func_by_name(func)
                .is_some_and(reached_from(module, entry));
            if !reached {
                return Err(Failure::usage(format!(
                    "error: --func: `{func}` is not reached from `--entry {entry}`: it is neither optimized nor compiled for that entry"
                )));
            }
        }
    }
    let manager = pass_manager(&args.opt, remark_format.is_some(), args.stats)?
        .record_dumps(args.print_after_all || args.diff || args.print_changed)
        .record_diffs(args.diff)
        .time_passes(args.time_passes);
    let session = match &args.entry {
        Some(entry) => session
            .optimize_for_entries(&manager, &[entry.as_str()])
            .map_err(|e| Failure::internal(format!("error: {e}")))?,
        None => optimize(session, &manager)?,
    };
    let report = session.report();
    let shown = |function: &str| args.output.func.as_deref().is_none_or(|f| f == function);
    for dump in report.dumps.iter().filter(|d| shown(&d.function)) {
        if args.print_after_all {
            err_println!("; IR after {} on {}", dump.pass, dump.function);
            err_print!("{}", dump.after);
        }
        if args.print_changed && dump.changed {
            err_println!("; IR after {} on {} (changed)", dump.pass, dump.function);
            err_print!("{}", dump.after);
        }
        if args.diff && !dump.diff.is_empty() {
            err_print!(
                "{}",
                diff_with_function(&dump.diff, &dump.function, dump.pass)
            );
        }
    }
    if let Some(format) = remark_format {
        let selected = report.remarks.iter().filter(|r| {
            shown(&r.function)
                && pass_filter
                    .as_ref()
                    .is_none_or(|passes| passes.contains(&r.pass))
        });
        for remark in selected {
            match format {
                RemarkFormat::Text => err_println!("remark: {remark}"),
                RemarkFormat::Json => err_println!("{}", remarks::json_line(remark)),
            }
        }
    }
    if args.stats {
        err_print!("{}", report.stats);
    }
    if args.time_passes {
        err_print!("{}", report.timings);
    }
    let module = session.module().module();
    match (&args.output.func, &args.entry) {
        (Some(name), _) => {
            let text = match module.func_by_name(name) {
                Some(id) => poolopt::ir::print_function(module, &module.funcs[id]),
                None => String::new(),
            };
            write_output(&args.output, &text)?;
        }
        (None, Some(entry)) => {
            write_module_output(&args.output, module, reached_from(module, entry))?
        }
        (None, None) => write_module_output(&args.output, module, |_| true)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether a function is reached through calls from the function called `entry` (none is
/// when there is no such function).
fn reached_from(module: &poolopt::ir::Module, entry: &str) -> impl Fn(poolopt::ir::FuncId) -> bool {
    let reached = module.func_by_name(entry).map_or_else(Vec::new, |root| {
        poolopt::ir::call_graph::reachable_functions(module, &[root])
    });
    move |f| {
        reached
            .get(poolopt::ir::EntityRef::index(f))
            .copied()
            .unwrap_or(false)
    }
}

/// The section of `text` under the `; function NAME` header (CLIF and assembly listings).
fn function_section(text: &str, name: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in text.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("; function ") {
            inside = rest.split_whitespace().next() == Some(name);
        }
        if inside {
            out.push_str(line);
        }
    }
    out
}

fn emit(args: EmitArgs) -> Result<ExitCode, Failure> {
    let session = load(&args.file, args.opt.trust_unchecked)?;
    if let Some(func) = &args.output.func {
        require_function(&session, func, "--func")?;
    }
    let session = optimize(session, &pass_manager(&args.opt, false, false)?)?;
    let module = session.module().module();
    let text = match args.emit {
        EmitKind::Ir => match args
            .output
            .func
            .as_deref()
            .and_then(|f| module.func_by_name(f))
        {
            Some(id) => poolopt::ir::print_function(module, &module.funcs[id]),
            None => {
                write_module_output(&args.output, module, |_| true)?;
                return Ok(ExitCode::SUCCESS);
            }
        },
        EmitKind::Clif => session
            .emit_clif(args.cl_opt.into())
            .map_err(|e| Failure::internal(format!("error: {e}")))?,
        EmitKind::Asm => session
            .emit_asm(args.cl_opt.into())
            .map_err(|e| Failure::internal(format!("error: {e}")))?,
    };
    let text = match (&args.output.func, args.emit) {
        (Some(name), EmitKind::Clif | EmitKind::Asm) => function_section(&text, name),
        _ => text,
    };
    write_output(&args.output, &text)?;
    Ok(ExitCode::SUCCESS)
}

/// `poolopt passes`: every pass, its levels and description, then the pipelines.
fn passes() -> Result<ExitCode, Failure> {
    use poolopt::passes::{all_passes, pass_description, pipeline};
    let all = all_passes();
    let width = all.iter().map(|p| p.name().len()).max().unwrap_or(4).max(4);
    let mut out = format!("{:width$}  {:6}  DESCRIPTION\n", "PASS", "LEVELS");
    for pass in &all {
        // An opt-in pass runs only where `--passes` names it.
        let levels: Vec<&str> = [OptLevel::O1, OptLevel::O2]
            .into_iter()
            .filter(|l| !pass.opt_in() && *l >= pass.min_level())
            .map(OptLevel::name)
            .collect();
        out.push_str(&format!(
            "{:width$}  {:6}  {}\n",
            pass.name(),
            if pass.opt_in() {
                "opt-in".to_string()
            } else {
                levels.join(",")
            },
            pass_description(pass.name()).unwrap_or("(no description)")
        ));
    }
    out.push_str("\nPipelines (`-O1`, or `--passes O1` expanded in a list):\n");
    for level in [OptLevel::O0, OptLevel::O1, OptLevel::O2] {
        let names: Vec<&str> = pipeline(level).iter().map(|p| p.name()).collect();
        out.push_str(&format!(
            "  {}: {}\n",
            level.name(),
            if names.is_empty() {
                "(no passes)".to_string()
            } else {
                names.join(", ")
            }
        ));
    }
    to_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// `poolopt completions SHELL`: the completion script on stdout.
fn completions(args: CompletionsArgs) -> Result<ExitCode, Failure> {
    use clap::CommandFactory;
    let mut command = Cli::command();
    clap_complete::generate(args.shell, &mut command, "poolopt", &mut std::io::stdout());
    Ok(ExitCode::SUCCESS)
}

fn check(args: CheckArgs) -> Result<ExitCode, Failure> {
    let session = load(&args.file, args.trust_unchecked)?;
    let funcs = session.module().module().funcs.len();
    let name = if args.file.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        args.file.display().to_string()
    };
    to_stdout(&format!("{name}: ok ({funcs} functions)\n"))?;
    Ok(ExitCode::SUCCESS)
}
