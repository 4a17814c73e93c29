//! The high-level pipeline: parse → verify → optimize → compile → run, with a module type
//! that can only hold verified IR.

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::verify_errors::VerifyErrors;
use poolopt_interp::InterpError;
use poolopt_ir::{BuildErrors, InlineHint, Loc, Module, RunLimits, VerifyErrorKind, VerifyOptions};
use poolopt_jit::{ClOpt, CompiledModule, EntryError, JitError, JitOptions, RunError};
use poolopt_passes::{OptLevel, PassError, PassManager, PassReport};
use std::ops::Range;
use thiserror::Error;

/// Anything the embedding API can fail with, so one `?` carries each step's error. A trap is
/// not an error of the pipeline (it is a run's result), but [`RunError`] and
/// [`poolopt_ir::Trap`] convert too, for callers that treat a trap as a failure.
#[derive(Debug, Error)]
pub enum Error {
    /// Errors in text input, rendered as `FILE:LINE:COL: error: ...`.
    #[error("{0}")]
    Source(#[from] Diagnostics),
    /// Misuse of the builder.
    #[error(transparent)]
    Build(#[from] BuildErrors),
    /// The module does not verify.
    #[error(transparent)]
    Verify(#[from] VerifyErrors),
    #[error(transparent)]
    Pass(#[from] PassError),
    #[error(transparent)]
    Jit(#[from] JitError),
    /// A typed entry could not be looked up.
    #[error(transparent)]
    Entry(#[from] EntryError),
    /// A run by name failed (a trap included).
    #[error(transparent)]
    Run(#[from] RunError),
    /// A typed entry's call trapped.
    #[error(transparent)]
    Trap(#[from] poolopt_ir::Trap),
    /// The interpreter's run failed (a trap included).
    #[error(transparent)]
    Interp(#[from] InterpError),
}

/// A module that passed the verifier. Passes preserve verification (the pass manager
/// re-verifies after each pass under `verify_each`), so every module held here is verified.
#[derive(Clone, Debug)]
pub struct VerifiedModule(Module);

impl VerifiedModule {
    /// Verifies `module` as untrusted input: unchecked vec operations are refused.
    pub fn new(module: Module) -> Result<VerifiedModule, VerifyErrors> {
        VerifiedModule::with_options(module, &VerifyOptions::default())
    }

    /// Verifies `module` with explicit options. `VerifyOptions { trust_unchecked: true }` is
    /// the embedder's promise, like Rust's `unsafe`, that every unchecked operation in it
    /// cannot fail (for example IR printed by `poolopt opt`): a broken promise reads and writes
    /// out of bounds in the JIT.
    pub fn with_options(
        module: Module,
        options: &VerifyOptions,
    ) -> Result<VerifiedModule, VerifyErrors> {
        poolopt_ir::verify_with(&module, options).map_err(VerifyErrors)?;
        Ok(VerifiedModule(module))
    }

    /// Sets the inlining hint of the function called `name` (`inline` / `noinline` in the text
    /// format); hints never affect verification. Returns `false` when there is no such
    /// function.
    pub fn set_inline_hint(&mut self, name: &str, hint: InlineHint) -> bool {
        match self.0.func_by_name(name) {
            Some(id) => {
                self.0.funcs[id].inline = hint;
                true
            }
            None => false,
        }
    }

    /// The verified IR.
    pub fn module(&self) -> &Module {
        &self.0
    }

    /// Gives the IR back.
    pub fn into_module(self) -> Module {
        self.0
    }
}

/// The most verification errors [`parse_and_verify_with`] renders, the first in source order
/// (the parser's bound, [`poolopt_ir::MAX_PARSE_ERRORS`]); the last one shown says how many
/// more there are.
pub const MAX_SHOWN_VERIFY_ERRORS: usize = poolopt_ir::MAX_PARSE_ERRORS;

/// Parses and verifies untrusted text IR (unchecked operations are refused); errors are
/// rendered against `source` as `FILE:LINE:COL`. Every parse error of the file is reported (at
/// most [`poolopt_ir::MAX_PARSE_ERRORS`]), each with its "did you mean" hint; verification
/// errors carry notes on the declaration they contradict.
pub fn parse_and_verify(file: &str, source: &str) -> Result<VerifiedModule, Diagnostics> {
    parse_and_verify_with(file, source, &VerifyOptions::default())
}

/// [`parse_and_verify`] with explicit verifier options (see [`VerifiedModule::with_options`]).
pub fn parse_and_verify_with(
    file: &str,
    source: &str,
    options: &VerifyOptions,
) -> Result<VerifiedModule, Diagnostics> {
    let module = poolopt_ir::parse_all(source).map_err(|errors| {
        Diagnostics(
            errors
                .0
                .iter()
                .map(|e| {
                    let d = Diagnostic::with_span(file, source, e.loc, e.span.clone(), e.message());
                    match &e.help {
                        Some(help) => d.with_help(help),
                        None => d,
                    }
                })
                .collect(),
        )
    })?;
    if let Err(mut errors) = poolopt_ir::verify_with(&module, options) {
        // The first errors in source order, as many as a parse reports: rendering one reads
        // the source around it, so a file with an error on each of its lines must not cost
        // the square of its size (20,000 refused `get.unchecked` lines took 5 s).
        errors.sort_by_key(|e| e.loc);
        let hidden = errors.len().saturating_sub(MAX_SHOWN_VERIFY_ERRORS);
        errors.truncate(MAX_SHOWN_VERIFY_ERRORS);
        let mut diags: Vec<Diagnostic> = errors
            .iter()
            .map(|e| {
                let d = match operand_span(source, e.loc, &e.kind) {
                    Some((loc, span)) => {
                        Diagnostic::with_span(file, source, loc, span, e.message())
                    }
                    None => Diagnostic::new(file, source, e.loc, e.to_string()),
                };
                verify_notes(&module, &e.kind)
                    .into_iter()
                    .fold(d, Diagnostic::with_note)
            })
            .collect();
        diags.sort_by_key(|d| d.loc);
        if let Some(last) = diags.last_mut().filter(|_| hidden > 0) {
            let more = if hidden == 1 { "error" } else { "errors" };
            last.notes.push(format!(
                "{hidden} more verification {more} not shown (the first {MAX_SHOWN_VERIFY_ERRORS} in source order are)"
            ));
        }
        return Err(Diagnostics(diags));
    }
    Ok(VerifiedModule(module))
}

/// The operand a verification error is about, found on the instruction's line: the local a type
/// mismatch names, or the constant that does not fit. The IR keeps no operand columns; the line
/// is re-read only when there is an error to show. Returns the operand's location and byte span,
/// or `None` (the diagnostic then underlines the instruction).
fn operand_span(source: &str, loc: Loc, kind: &VerifyErrorKind) -> Option<(Loc, Range<usize>)> {
    let wanted: String = match kind {
        VerifyErrorKind::TypeMismatch { what, .. } => what.split('`').nth(1)?.to_string(),
        VerifyErrorKind::ConstantOutOfRange { value, .. }
        | VerifyErrorKind::ConstantNotAllowed { value, .. }
        | VerifyErrorKind::UntypedConstant { value, .. } => value.to_string(),
        _ => return None,
    };
    if !loc.is_known() {
        return None;
    }
    let line_start: usize = source
        .split_inclusive('\n')
        .take(loc.line as usize - 1)
        .map(str::len)
        .sum();
    let line = source.get(line_start..)?.split('\n').next()?;
    let code = line.split(';').next()?;
    // Words of the statement with their byte offsets in the line.
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut words = Vec::new();
    let mut start = None;
    for (i, c) in code
        .char_indices()
        .chain(std::iter::once((code.len(), ' ')))
    {
        match (start, is_word(c)) {
            (None, true) => start = Some(i),
            (Some(st), false) => {
                words.push((st, &code[st..i]));
                start = None;
            }
            _ => {}
        }
    }
    // Operands follow the `=` of an assignment; the destination comes before it. Argument N
    // of a call is the N-th operand after the `(`.
    let argument: Option<usize> = match kind {
        VerifyErrorKind::TypeMismatch { what, .. } => what
            .split(" (argument ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok()),
        _ => None,
    };
    let after_eq = match (argument, code.find('(')) {
        (Some(n), Some(open)) => {
            let mut offset = open + 1;
            for piece in code[open + 1..].split(',').take(n.saturating_sub(1)) {
                offset += piece.len() + 1;
            }
            offset
        }
        _ => code.find('=').map_or(0, |p| p + 1),
    };
    let mut hits = words.iter().filter(|(_, w)| *w == wanted);
    let first = *hits.clone().next()?;
    let (at, word) = hits.find(|(p, _)| *p >= after_eq).copied().unwrap_or(first);
    let col = line[..at].chars().count() as u32 + 1;
    let start = line_start + at;
    Some((Loc::new(loc.line, col), start..start + word.len()))
}

/// Notes that show the declaration a verification error is measured against: the callee's
/// signature on a call arity or result mismatch, the struct on a `make` arity mismatch.
fn verify_notes(module: &Module, kind: &VerifyErrorKind) -> Vec<String> {
    let callee = |name: &str| {
        module.func_by_name(name).map(|id| {
            let f = &module.funcs[id];
            format!(
                "`{name}` is declared at {}: `{}`",
                f.loc,
                poolopt_ir::display_signature(module, f)
            )
        })
    };
    match kind {
        VerifyErrorKind::CallArity { callee: name, .. }
        | VerifyErrorKind::VoidCallResult { callee: name, .. } => {
            callee(name).into_iter().collect()
        }
        // "`y` (argument 1 of `f`)" and "`x` (result of `f`)": the callee is the last name.
        VerifyErrorKind::TypeMismatch { what, .. }
            if what.contains(" (argument ") || what.contains(" (result of ") =>
        {
            what.rsplit('`')
                .nth(1)
                .and_then(callee)
                .into_iter()
                .collect()
        }
        VerifyErrorKind::MakeArity { strukt, .. } => module
            .struct_by_name(strukt)
            .map(|id| {
                let def = &module.structs[id];
                let fields: Vec<String> = def
                    .fields
                    .iter()
                    .map(|f| format!("{}: {}", f.name, module.type_name(f.ty)))
                    .collect();
                format!(
                    "`{strukt}` is declared at {}: `struct {strukt} {{ {} }}`",
                    def.loc,
                    fields.join(", ")
                )
            })
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

/// A verified module on its way through the passes to the JIT.
#[derive(Clone, Debug)]
pub struct Session {
    module: VerifiedModule,
    report: PassReport,
}

impl Session {
    pub fn new(module: VerifiedModule) -> Session {
        Session {
            module,
            report: PassReport::default(),
        }
    }

    /// Runs the fixed pipeline of `level`.
    pub fn optimize_level(self, level: OptLevel) -> Result<Session, Error> {
        self.optimize(&PassManager::for_level(level))
    }

    /// Runs the passes of `manager`; remarks and stats accumulate in [`Session::report`].
    pub fn optimize(mut self, manager: &PassManager) -> Result<Session, Error> {
        let mut module = self.module.into_module();
        let report = manager.run(&mut module)?;
        self.report.merge(report);
        self.module = VerifiedModule(module);
        Ok(self)
    }

    /// Runs the passes of `manager` over the functions the `entries` reach through calls only
    /// (unknown names are ignored); the others stay unoptimized. With
    /// [`Session::compile_for_entries`] of the same entries, a module's unused functions cost
    /// neither pass nor compile time.
    pub fn optimize_for_entries(
        mut self,
        manager: &PassManager,
        entries: &[&str],
    ) -> Result<Session, Error> {
        let mut module = self.module.into_module();
        let roots: Vec<_> = entries
            .iter()
            .filter_map(|e| module.func_by_name(e))
            .collect();
        let report = manager.run_reachable(&mut module, &roots)?;
        self.report.merge(report);
        self.module = VerifiedModule(module);
        Ok(self)
    }

    /// The (optimized) module.
    pub fn module(&self) -> &VerifiedModule {
        &self.module
    }

    /// Remarks, stats and dumps of the passes run so far.
    pub fn report(&self) -> &PassReport {
        &self.report
    }

    /// JIT-compiles the module.
    pub fn compile(&self, cl_opt: ClOpt) -> Result<CompiledModule, Error> {
        self.compile_with(&JitOptions {
            cl_opt,
            ..JitOptions::default()
        })
    }

    /// JIT-compiles the module with explicit options.
    pub fn compile_with(&self, options: &JitOptions) -> Result<CompiledModule, Error> {
        Ok(CompiledModule::compile(self.module.module(), options)?)
    }

    /// JIT-compiles only the functions reachable through calls from `entry` (lazy
    /// compilation: the rest of the module costs nothing). What `poolopt run --entry` does.
    pub fn compile_for_entry(
        &self,
        entry: &str,
        options: &JitOptions,
    ) -> Result<CompiledModule, Error> {
        self.compile_for_entries(&[entry], options)
    }

    /// JIT-compiles only the functions reachable through calls from `entries`.
    pub fn compile_for_entries(
        &self,
        entries: &[&str],
        options: &JitOptions,
    ) -> Result<CompiledModule, Error> {
        Ok(CompiledModule::compile_for_entries(
            self.module.module(),
            entries,
            options,
        )?)
    }

    /// Runs `entry` in the reference interpreter.
    pub fn interpret(
        &self,
        entry: &str,
        args: &[i64],
        limits: &RunLimits,
    ) -> Result<i64, InterpError> {
        poolopt_interp::run(self.module.module(), entry, args, limits)
    }

    /// The module's CLIF (before Cranelift's own optimizations).
    pub fn emit_clif(&self, cl_opt: ClOpt) -> Result<String, Error> {
        Ok(poolopt_jit::emit_clif(self.module.module(), cl_opt)?)
    }

    /// The module's x86-64 assembly for a fixed target and fixed flags.
    pub fn emit_asm(&self, cl_opt: ClOpt) -> Result<String, Error> {
        Ok(poolopt_jit::emit_asm(self.module.module(), cl_opt)?)
    }
}
