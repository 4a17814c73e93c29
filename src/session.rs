//! The high-level pipeline: parse → verify → optimize → compile → run, with a module type
//! that can only hold verified IR.

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::verify_errors::VerifyErrors;
use poolopt_interp::InterpError;
use poolopt_ir::{BuildErrors, Module, RunLimits};
use poolopt_jit::{ClOpt, CompiledModule, EntryError, JitError, JitOptions, RunError};
use poolopt_passes::{OptLevel, PassError, PassManager, PassReport};
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
    /// Verifies `module`.
    pub fn new(module: Module) -> Result<VerifiedModule, VerifyErrors> {
        poolopt_ir::verify(&module).map_err(VerifyErrors)?;
        Ok(VerifiedModule(module))
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

/// Parses and verifies text IR; errors are rendered against `source` as `FILE:LINE:COL`.
pub fn parse_and_verify(file: &str, source: &str) -> Result<VerifiedModule, Diagnostics> {
    let module = poolopt_ir::parse(source).map_err(|e| {
        Diagnostics(vec![Diagnostic::with_span(
            file,
            source,
            e.loc,
            e.span.clone(),
            e.to_string(),
        )])
    })?;
    VerifiedModule::new(module).map_err(|errors| {
        let mut diags: Vec<Diagnostic> = errors
            .iter()
            .map(|e| Diagnostic::new(file, source, e.loc, e.to_string()))
            .collect();
        diags.sort_by_key(|d| d.loc);
        Diagnostics(diags)
    })
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
        self.report.remarks.extend(report.remarks);
        self.report.stats.merge(&report.stats);
        self.report.dumps.extend(report.dumps);
        self.report.pass_time += report.pass_time;
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
