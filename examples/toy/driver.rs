//! The pipeline of the toy compiler, from source text to a result: lex, parse, check, lower
//! (through the builder), verify, optimize, then JIT or interpret. [`compile`] stops at
//! verified IR; [`run_command`] is the whole command with the `poolopt run` output contract,
//! returning what to print and the exit code instead of printing, so tests check it exactly.

use crate::args::{parse_args, Emit, Options};
use crate::error::CompileError;
use crate::names::{render_remark, ToyNames};
use crate::{check, lexer, lower, parser};
use poolopt::{
    Engine, JitOptions, PassManager, RunLimits, RunOptions, Session, Trap, VerifiedModule,
};

/// Why a program could not be turned into verified IR.
#[derive(Debug, thiserror::Error)]
pub enum ToyError {
    /// An error in the toy program.
    #[error("{0}")]
    Source(CompileError),
    /// The front end built IR that does not verify: a bug in this compiler.
    #[error("internal error: the generated IR does not verify: {}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
    Verify(Vec<poolopt::ir::VerifyError>),
}

impl ToyError {
    /// `FILE:LINE:COL: error: ...` with a snippet, for each error.
    pub fn render(&self, file: &str, source: &str) -> String {
        match self {
            ToyError::Source(e) => e.render(file, source).to_string(),
            ToyError::Verify(errors) => errors
                .iter()
                .map(|e| {
                    CompileError::new(e.loc, format!("internal error: generated IR: {e}"))
                        .render(file, source)
                        .to_string()
                })
                .collect(),
        }
    }
}

/// Compiles toy source to verified, unoptimized IR (the tests' entry point).
#[allow(dead_code)]
pub fn compile(source: &str) -> Result<VerifiedModule, ToyError> {
    compile_with_names(source).map(|(module, _)| module)
}

/// The stack of the thread the front end runs on. The parser, the checker and the lowering
/// recurse over the syntax tree, whose depth the parser bounds (`parser::MAX_DEPTH`); a debug
/// build needs about 25 KB of stack a level (a sum of 90 terms overflowed a 2 MiB test thread),
/// so the front end does not run on its caller's stack, whatever that is.
const FRONT_END_STACK: usize = 64 << 20;

/// Compiles toy source to verified, unoptimized IR and what its locals are in the toy source,
/// on a thread of its own ([`FRONT_END_STACK`]).
pub fn compile_with_names(source: &str) -> Result<(VerifiedModule, ToyNames), ToyError> {
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("toy front end".into())
            .stack_size(FRONT_END_STACK)
            .spawn_scoped(scope, || front_end(source));
        match spawned {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had (a resource limit): the caller's stack then.
            Err(_) => front_end(source),
        }
    })
}

/// [`compile_with_names`] on the current thread.
fn front_end(source: &str) -> Result<(VerifiedModule, ToyNames), ToyError> {
    let tokens = lexer::lex(source).map_err(ToyError::Source)?;
    let ast = parser::parse(&tokens).map_err(ToyError::Source)?;
    let typed = check::check(&ast).map_err(ToyError::Source)?;
    let (module, names) = lower::lower(&typed).map_err(ToyError::Source)?;
    Ok((
        VerifiedModule::new(module).map_err(|e| ToyError::Verify(e.into_vec()))?,
        names,
    ))
}

/// What a command prints and how it exits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub code: u8,
}

impl Outcome {
    fn fail(mut self, code: u8, message: impl AsRef<str>) -> Outcome {
        self.stderr.push_str(message.as_ref());
        if !self.stderr.ends_with('\n') {
            self.stderr.push('\n');
        }
        self.code = code;
        self
    }

    /// `FILE:LINE: trap: <kind>: <message> in <function>` (the toy source line the lowering
    /// gave the trapping operation), or without the `FILE:LINE: ` when the line is unknown.
    fn trap(self, file: &str, trap: &Trap) -> Outcome {
        let what = format!("trap: {}: {} in {}", trap.kind, trap.message, trap.function);
        match trap.line {
            0 => self.fail(3, what),
            line => self.fail(3, format!("{file}:{line}: {what}")),
        }
    }
}

/// Runs the whole command on its arguments (without the program name).
pub fn run_command(args: &[String]) -> Outcome {
    let mut out = Outcome::default();
    let opts = match parse_args(args) {
        Ok(o) => o,
        Err(e) if e.is_help() => {
            out.stdout = e.to_string();
            return out;
        }
        Err(e) => return out.fail(2, e.to_string()),
    };
    let source = match std::fs::read(&opts.file) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(_) => return out.fail(2, format!("{}: error: file is not UTF-8", opts.file)),
        },
        Err(e) => return out.fail(2, format!("{}: error: cannot read file: {e}", opts.file)),
    };
    run_source(&opts, &source)
}

/// Runs the command on a program given as text (`opts.file` names it in messages).
pub fn run_source(opts: &Options, source: &str) -> Outcome {
    let mut out = Outcome::default();
    let (module, names) = match compile_with_names(source) {
        Ok(m) => m,
        Err(e @ ToyError::Source(_)) => return out.fail(2, e.render(&opts.file, source)),
        Err(e) => return out.fail(1, e.render(&opts.file, source)),
    };
    let manager = PassManager::for_level(opts.level)
        .verify_each(cfg!(debug_assertions))
        .collect_remarks(opts.remarks);
    let session = match Session::new(module).optimize(&manager) {
        Ok(s) => s,
        Err(e) => return out.fail(1, format!("error: {e}")),
    };
    if opts.remarks {
        let optimized = session.module().module();
        for remark in &session.report().remarks {
            let text = render_remark(remark, &opts.file, source, optimized, &names);
            out.stderr.push_str(&text);
        }
    }
    if let Some(emit) = opts.emit {
        let text = match emit {
            Emit::Ir => Ok(poolopt::ir::print_module(session.module().module())),
            Emit::Clif => session.emit_clif(opts.cl_opt),
            Emit::Asm => session.emit_asm(opts.cl_opt),
        };
        return match text {
            Ok(t) => {
                out.stdout = t;
                out
            }
            Err(e) => out.fail(1, format!("error: {e}")),
        };
    }
    let limits = RunLimits::default();
    // The engine choice of `poolopt run`: the JIT, or the interpreter for an entry that
    // reaches more code than compiling is worth (docs/jit.md, "Huge entries").
    let options = RunOptions {
        engine: if opts.interp {
            Engine::Interpreter
        } else {
            Engine::Auto
        },
        jit: JitOptions {
            cl_opt: opts.cl_opt,
            fuel: false,
        },
        ..RunOptions::default()
    };
    let result = match session.run(&opts.entry, &opts.args, &limits, &options) {
        Ok(ran) => ran.result.map_err(Err),
        Err(e @ (poolopt::Error::Run(_) | poolopt::Error::Interp(_))) => Err(Ok(e.to_string())),
        Err(e) => return out.fail(1, format!("error: {e}")),
    };
    match result {
        Ok(v) => {
            out.stdout = format!("{v}\n");
            out
        }
        Err(Err(trap)) => out.trap(&opts.file, &trap),
        Err(Ok(message)) => out.fail(2, format!("error: {message}")),
    }
}
