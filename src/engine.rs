//! How an entry is executed: JIT-compiled, or run in the reference interpreter.
//!
//! Compiling costs time and memory in proportion to the code compiled; interpreting costs in
//! proportion to the work the run does. For ordinary programs the JIT wins at once. For a
//! program whose entry reaches a huge amount of code it does not: the JIT compiles one
//! generated function of 1,000,000 IR instructions in about 20 s and 2.1 GB (even in its huge
//! tier, `poolopt_jit::tier`), while the interpreter runs the same call in 3.2 s and 409 MB
//! (docs/benchmarks.md, "Huge functions"). For a host that compiles what it is given, a
//! compile of that cost is a denial of service.
//!
//! [`Engine::Auto`] therefore interprets an entry when the functions it reaches through calls
//! hold more than [`RunOptions::interpret_above`] IR instructions (terminators included;
//! [`DEFAULT_INTERPRET_ABOVE`] unless `POOLOPT_INTERPRET_ABOVE` says otherwise), and compiles
//! it otherwise. Results and traps are the same either way: the interpreter is the reference
//! semantics every JIT test compares against. The price is speed when such a program's hot
//! code runs for long; [`Engine::Jit`] always compiles, [`Engine::Interpreter`] never does.
//! [`Ran::engine`] says which one ran (`poolopt run` prints a note when it interprets).

use crate::session::{Error, Session};
use poolopt_interp::InterpError;
use poolopt_ir::call_graph::reachable_functions;
use poolopt_ir::{EntityRef, RunLimits, Trap};
use poolopt_jit::{JitOptions, RunError};
use std::sync::OnceLock;

/// Which engine runs an entry.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The JIT, unless the entry reaches more code than [`RunOptions::interpret_above`].
    #[default]
    Auto,
    /// Always the JIT.
    Jit,
    /// Always the reference interpreter.
    Interpreter,
}

/// The engine that ran (or would run) an entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Executed {
    Jit,
    Interpreter,
}

/// Above this many IR instructions reachable from the entry, [`Engine::Auto`] interprets.
/// At this size the JIT's huge tier takes about 4 s and 0.5 GB to compile.
pub const DEFAULT_INTERPRET_ABOVE: usize = 250_000;

/// The environment variable that overrides [`DEFAULT_INTERPRET_ABOVE`] (read once per
/// process).
pub const INTERPRET_ABOVE_ENV: &str = "POOLOPT_INTERPRET_ABOVE";

fn interpret_above_default() -> usize {
    static ABOVE: OnceLock<usize> = OnceLock::new();
    *ABOVE.get_or_init(|| {
        std::env::var(INTERPRET_ABOVE_ENV)
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(DEFAULT_INTERPRET_ABOVE)
    })
}

/// Options of [`Session::run`].
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub engine: Engine,
    /// How the JIT compiles, when it is the engine.
    pub jit: JitOptions,
    /// [`Engine::Auto`] interprets an entry that reaches more IR instructions than this.
    pub interpret_above: usize,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            engine: Engine::Auto,
            jit: JitOptions::default(),
            interpret_above: interpret_above_default(),
        }
    }
}

impl RunOptions {
    /// The engine these options choose for an entry that reaches `reachable` IR instructions
    /// ([`Session::reachable_instructions`]).
    pub fn engine_for_size(&self, reachable: usize) -> Executed {
        match self.engine {
            Engine::Jit => Executed::Jit,
            Engine::Interpreter => Executed::Interpreter,
            Engine::Auto if reachable > self.interpret_above => Executed::Interpreter,
            Engine::Auto => Executed::Jit,
        }
    }
}

/// The outcome of [`Session::run`]: the entry's result or its trap, and the engine that ran.
#[derive(Clone, Debug, PartialEq)]
pub struct Ran {
    pub result: Result<i64, Trap>,
    pub engine: Executed,
}

impl Session {
    /// IR instructions (terminators included) of the functions `entry` reaches through calls,
    /// itself included; 0 for an unknown name.
    pub fn reachable_instructions(&self, entry: &str) -> usize {
        let module = self.module().module();
        let Some(root) = module.func_by_name(entry) else {
            return 0;
        };
        let reached = reachable_functions(module, &[root]);
        module
            .funcs
            .iter()
            .filter(|(id, _)| reached.get(id.index()).copied().unwrap_or(false))
            .map(|(_, f)| f.inst_count())
            .sum()
    }

    /// The engine `options` choose for `entry` (see the module docs).
    pub fn engine_for(&self, entry: &str, options: &RunOptions) -> Executed {
        let reachable = match options.engine {
            Engine::Auto => self.reachable_instructions(entry),
            Engine::Jit | Engine::Interpreter => 0, // not needed: the engine is forced
        };
        options.engine_for_size(reachable)
    }

    /// Runs `entry(args)` on the engine `options` choose: JIT-compiled (only what the entry
    /// reaches) or interpreted. A trap is a result ([`Ran::result`]); an error is a failure to
    /// compile or to start the run (an unknown entry, bad arguments, a fuel limit without
    /// fuel compiled in).
    pub fn run(
        &self,
        entry: &str,
        args: &[i64],
        limits: &RunLimits,
        options: &RunOptions,
    ) -> Result<Ran, Error> {
        self.run_on(
            self.engine_for(entry, options),
            entry,
            args,
            limits,
            &options.jit,
        )
    }

    /// Runs `entry(args)` on `engine` (chosen already, e.g. with
    /// [`RunOptions::engine_for_size`]); `jit` says how the JIT compiles.
    pub fn run_on(
        &self,
        engine: Executed,
        entry: &str,
        args: &[i64],
        limits: &RunLimits,
        jit: &JitOptions,
    ) -> Result<Ran, Error> {
        let result = match engine {
            Executed::Interpreter => match self.interpret(entry, args, limits) {
                Ok(v) => Ok(v),
                Err(InterpError::Trap(trap)) => Err(trap),
                Err(other) => return Err(other.into()),
            },
            Executed::Jit => {
                // A fuel limit needs fuel compiled in.
                let jit = JitOptions {
                    fuel: jit.fuel || limits.fuel.is_some(),
                    ..*jit
                };
                let compiled = self.compile_for_entry(entry, &jit)?;
                match compiled.run(entry, args, limits) {
                    Ok(v) => Ok(v),
                    Err(RunError::Trap(trap)) => Err(trap),
                    Err(other) => return Err(other.into()),
                }
            }
        };
        Ok(Ran { result, engine })
    }
}
