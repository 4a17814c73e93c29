//! The differential check: one verified module, run by the interpreter (the oracle) and by the
//! JIT under every configuration, must give the same outcome everywhere.

use poolopt::ir::print_module;
use poolopt::{
    ClOpt, InterpError, JitOptions, OptLevel, PassManager, RunError, RunLimits, Session, Trap,
    TrapKind, VerifiedModule,
};
use std::collections::HashSet;

/// The outcome of a run, comparable across engines: a value, or a trap (kind, message and the
/// function it happened in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Value(i64),
    Trap(TrapKind, String, String),
}

impl Outcome {
    fn trap(t: &Trap) -> Outcome {
        Outcome::Trap(t.kind, t.message.clone(), t.function.clone())
    }

    /// `value 42` or `trap index_oob` (the header line of a saved regression case).
    pub fn summary(&self) -> String {
        match self {
            Outcome::Value(v) => format!("value {v}"),
            Outcome::Trap(k, _, _) => format!("trap {}", k.name()),
        }
    }
}

/// A pass configuration: a level's pipeline or an explicit list of passes.
#[derive(Clone, Debug)]
pub enum Config {
    Level(OptLevel),
    Passes(Vec<&'static str>),
    /// A pass manager made by the test (the harness's self-test uses unsound passes).
    Custom(&'static str, fn() -> PassManager),
}

impl Config {
    pub fn label(&self) -> String {
        match self {
            Config::Level(l) => l.name().to_string(),
            Config::Passes(p) => p.join(","),
            Config::Custom(label, _) => label.to_string(),
        }
    }

    fn manager(&self) -> PassManager {
        match self {
            Config::Level(l) => PassManager::for_level(*l),
            Config::Passes(p) => PassManager::from_names(p).expect("known pass names"),
            Config::Custom(_, make) => make(),
        }
        .verify_each(true)
    }
}

/// Every configuration: O0, O1, O2, O2 with the opt-in `bounds-check-elim` (the fact
/// analysis) in place of `sparse-bounds-check-elim`, each pass alone, each ordered pair of passes
/// (`POOLOPT_DIFF_CONFIGS=levels`: the levels and the single passes only, see [`pairs`]).
pub fn configs() -> Vec<Config> {
    let names = poolopt::passes::pass_names();
    let o2_dense: Vec<&str> = PassManager::for_level(OptLevel::O2)
        .pass_names()
        .into_iter()
        .map(|p| match p {
            "sparse-bounds-check-elim" => "bounds-check-elim",
            other => other,
        })
        .collect();
    assert!(o2_dense.contains(&"bounds-check-elim"), "{o2_dense:?}");
    let mut out = vec![
        Config::Level(OptLevel::O0),
        Config::Level(OptLevel::O1),
        Config::Level(OptLevel::O2),
        Config::Passes(o2_dense),
    ];
    for a in &names {
        out.push(Config::Passes(vec![a]));
    }
    if pairs() {
        for a in &names {
            for b in &names {
                out.push(Config::Passes(vec![a, b]));
            }
        }
    }
    out
}

/// Whether the ordered pass pairs are checked: yes unless `POOLOPT_DIFF_CONFIGS=levels`. The
/// pairs are 256 of the 276 configurations and about nine tenths of the time; the long runs
/// of many programs check what users run (the levels, each under both Cranelift levels and
/// without fuel) and each pass alone, and leave the pairs to the default run and to shorter
/// long runs (docs/testing.md).
fn pairs() -> bool {
    match std::env::var("POOLOPT_DIFF_CONFIGS").ok().as_deref() {
        None | Some("all") => true,
        Some("levels") => false,
        Some(other) => panic!("POOLOPT_DIFF_CONFIGS={other}: expected `all` or `levels`"),
    }
}

pub const CL_OPTS: [ClOpt; 2] = [ClOpt::None, ClOpt::Speed];

/// `POOLOPT_DIFF_FULL=1`: run the pass pairs under both Cranelift levels too.
fn full() -> bool {
    std::env::var_os("POOLOPT_DIFF_FULL").is_some_and(|v| v != "0")
}

/// Runs `entry(args)` in the interpreter.
pub fn interp(
    module: &VerifiedModule,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
) -> Result<Outcome, String> {
    match poolopt::interp::run(module.module(), entry, args, limits) {
        Ok(v) => Ok(Outcome::Value(v)),
        Err(InterpError::Trap(t)) => Ok(Outcome::trap(&t)),
        Err(e) => Err(format!("interpreter: {e}")),
    }
}

/// Statistics of one check.
#[derive(Default, Clone, Copy, Debug)]
pub struct Stats {
    /// Distinct optimized modules (by printed IR) among the configurations.
    pub distinct_modules: usize,
    /// JIT compilations and runs.
    pub jit_runs: usize,
}

/// Checks `module` everywhere; returns the oracle's outcome, or a description of the first
/// disagreement (or of a generator bug: an `out_of_fuel` reference outcome).
pub fn check(
    module: &VerifiedModule,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
) -> Result<(Outcome, Stats), String> {
    check_configs(module, entry, args, limits, configs())
}

/// [`check`] under the given configurations.
pub fn check_configs(
    module: &VerifiedModule,
    entry: &str,
    args: &[i64],
    limits: &RunLimits,
    configs: Vec<Config>,
) -> Result<(Outcome, Stats), String> {
    let reference = interp(module, entry, args, limits)?;
    if let Outcome::Trap(TrapKind::OutOfFuel, ..) = reference {
        return Err("generator bug: the reference run ran out of fuel".to_string());
    }
    let mut stats = Stats::default();
    let mut seen = HashSet::new();
    for (n, config) in configs.into_iter().enumerate() {
        let label = config.label();
        // Levels and single passes run under both Cranelift levels; pairs under one of them,
        // alternating (pairs that differ only in Cranelift's level cost time and rarely find
        // anything the levels and the single passes do not).
        let cl_opts: &[ClOpt] = match &config {
            Config::Passes(p) if p.len() == 2 && !full() => &CL_OPTS[n % 2..n % 2 + 1],
            _ => &CL_OPTS,
        };
        let session = Session::new(module.clone())
            .optimize(&config.manager())
            .map_err(|e| format!("[{label}] pass pipeline failed: {e}"))?;
        let text = print_module(session.module().module());
        // The same pipeline without remarks (the `run` path) must make the same decisions.
        let quiet = Session::new(module.clone())
            .optimize(&config.manager().collect_remarks(false))
            .map_err(|e| format!("[{label}] pass pipeline without remarks failed: {e}"))?;
        if print_module(quiet.module().module()) != text {
            return Err(format!(
                "[{label}] the passes give other IR without remarks than with them"
            ));
        }
        if !seen.insert(text) {
            continue;
        }
        stats.distinct_modules += 1;
        let got = interp(session.module(), entry, args, limits)
            .map_err(|e| format!("[{label}] optimized module in the {e}"))?;
        if got != reference {
            return Err(format!(
                "[{label}] interpreter on the optimized module: {got:?}, expected {reference:?}"
            ));
        }
        let jit = |what: String, cl_opt: ClOpt, limits: &RunLimits| -> Result<(), String> {
            let compiled = session
                .compile_with(&JitOptions {
                    cl_opt,
                    fuel: limits.fuel.is_some(),
                })
                .map_err(|e| format!("[{what}] compile failed: {e}"))?;
            let got = match compiled.run(entry, args, limits) {
                Ok(v) => Outcome::Value(v),
                Err(RunError::Trap(t)) => Outcome::trap(&t),
                Err(e) => return Err(format!("[{what}] run failed: {e}")),
            };
            if got != reference {
                return Err(format!("[{what}] JIT: {got:?}, expected {reference:?}"));
            }
            Ok(())
        };
        for &cl_opt in cl_opts {
            jit(format!("{label} cl={cl_opt}"), cl_opt, limits)?;
            stats.jit_runs += 1;
        }
        // The levels also run compiled without fuel (the `poolopt run` default), where a trap
        // the JIT fails to propagate out of a callee would let the caller run on: every
        // generated program terminates by construction, so no fuel is needed.
        if matches!(config, Config::Level(_)) && limits.fuel.is_some() {
            let unfueled = RunLimits {
                fuel: None,
                ..*limits
            };
            jit(format!("{label} no fuel"), ClOpt::Speed, &unfueled)?;
            stats.jit_runs += 1;
        }
    }
    Ok((reference, stats))
}
