//! The measurement protocol: every configuration (case × poolopt level × Cranelift level, and
//! the native reference per case) is compiled from source once per sample and run once; warm-up
//! rounds come first and are discarded; then the measured rounds cycle through all
//! configurations in turn (A B C … A B C …), so slow drifts of the machine hit every
//! configuration alike. Every run's result is checked against the expected one.

use super::callgrind;
use super::error::{BenchError, Round};
use super::metric::{self, Meter, MetricInfo};
use super::native;
use super::workloads::{CallMode, Case};
use indicatif::{ProgressBar, ProgressStyle};
use poolopt::ir::InlineHint;
use poolopt::jit::RunStats;
use poolopt::{
    parse_and_verify, ClOpt, JitOptions, OptLevel, PassManager, RunLimits, Session, VerifiedModule,
};
use std::fmt;

/// How a case is executed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The IR program through the poolopt pipeline at `level` and Cranelift at `cl_opt`.
    Jit { level: OptLevel, cl_opt: ClOpt },
    /// The Rust reference implementation.
    Native,
}

impl Variant {
    /// CSV/label fields: level and Cranelift level (`native`, `-` for the reference).
    pub fn level_name(self) -> &'static str {
        match self {
            Variant::Jit { level, .. } => level.name(),
            Variant::Native => "native",
        }
    }

    pub fn cl_name(self) -> &'static str {
        match self {
            Variant::Jit { cl_opt, .. } => cl_opt.name(),
            Variant::Native => "-",
        }
    }
}

/// One column of the matrix for one case.
#[derive(Copy, Clone, Debug)]
pub struct Config {
    /// Index into the case list.
    pub case: usize,
    pub variant: Variant,
}

/// A configuration with its case, for messages.
pub struct ConfigLabel<'a>(pub &'a Case, pub Variant);

impl fmt::Display for ConfigLabel<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Variant::Jit { level, cl_opt } => {
                write!(
                    f,
                    "{} at {} with Cranelift {}",
                    self.0,
                    level.name(),
                    cl_opt
                )
            }
            Variant::Native => write!(f, "{} native reference", self.0),
        }
    }
}

/// What one run of one configuration cost, per phase, in the run's metric (nanoseconds or
/// event counts, see [`super::metric`]). The native reference has only `run`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Phases {
    /// Parsing and verification of the program text.
    pub parse: u64,
    /// The poolopt pass pipeline (verification between passes off).
    pub passes: u64,
    /// Lowering and Cranelift compilation to machine code.
    pub compile: u64,
    /// Executing the entry function.
    pub run: u64,
}

impl Phases {
    /// What a JIT user pays: parse + verify + passes + compile + run.
    pub fn total(&self) -> u64 {
        self.parse + self.passes + self.compile + self.run
    }
}

/// One measured (not warm-up) run.
#[derive(Copy, Clone, Debug)]
pub struct Sample {
    pub config: usize,
    /// 0-based index of the measured round.
    pub index: usize,
    pub phases: Phases,
    pub result: i64,
}

/// Everything one benchmark run measured.
pub struct Measurements {
    /// What the phase values are.
    pub metric: MetricInfo,
    pub cases: Vec<Case>,
    pub configs: Vec<Config>,
    pub samples: Vec<Sample>,
    /// Run-time counters of each configuration's last run (`None` for the native reference).
    pub stats: Vec<Option<RunStats>>,
}

impl Measurements {
    /// Index of the configuration of `case` with `variant`.
    pub fn config_index(&self, case: usize, variant: Variant) -> Option<usize> {
        self.configs
            .iter()
            .position(|c| c.case == case && c.variant == variant)
    }

    /// The measured samples of configuration `config`, in round order.
    pub fn samples_of(&self, config: usize) -> impl Iterator<Item = &Sample> {
        self.samples.iter().filter(move |s| s.config == config)
    }
}

/// What to measure and how often.
pub struct Plan {
    pub cases: Vec<Case>,
    /// Levels compared against O0 (O0 is always measured as the baseline).
    pub levels: Vec<OptLevel>,
    pub cl_opts: Vec<ClOpt>,
    pub warmups: usize,
    pub reps: usize,
}

impl Plan {
    /// The configurations in the order one round visits them: per case, O0 then the levels
    /// under each Cranelift level, then the native reference.
    pub fn configs(&self) -> Vec<Config> {
        let mut configs = Vec::new();
        for case in 0..self.cases.len() {
            for &cl_opt in &self.cl_opts {
                for level in std::iter::once(OptLevel::O0).chain(self.levels.iter().copied()) {
                    configs.push(Config {
                        case,
                        variant: Variant::Jit { level, cl_opt },
                    });
                }
            }
            configs.push(Config {
                case,
                variant: Variant::Native,
            });
        }
        configs
    }
}

/// Result, counters and costs of one run.
pub struct Outcome {
    pub phases: Phases,
    pub result: i64,
    pub stats: Option<RunStats>,
}

/// Parses, optimizes, compiles and runs `case` at `level`/`cl_opt`, reading `meter` before
/// and after every phase. The `bench-cell` subcommand passes a meter that marks the phase
/// boundaries for callgrind instead.
pub fn run_jit(
    case: &Case,
    level: OptLevel,
    cl_opt: ClOpt,
    round: Round,
    meter: &mut dyn Meter,
) -> Result<Outcome, BenchError> {
    let label = || ConfigLabel(case, Variant::Jit { level, cl_opt }).to_string();
    let pipeline = |source: poolopt::Error| BenchError::Pipeline {
        config: label(),
        source,
    };
    let program = case.elem.program();
    let manager = PassManager::for_level(level)
        .verify_each(false)
        .collect_remarks(false)
        .collect_stats(false);

    let start = meter.read()?;
    let module = parse_and_verify(&program.file_name(), program.source)
        .map_err(|d| pipeline(poolopt::Error::Source(d)))?;
    let module = with_call_mode(module, case.calls);
    let parsed = meter.read()?;
    // Like `poolopt run --entry`: only what the workload's entry reaches is optimized and
    // compiled, at every level.
    let entry = case.workload.name();
    let session = Session::new(module)
        .optimize_for_entries(&manager, &[entry])
        .map_err(pipeline)?;
    let optimized = meter.read()?;
    let options = JitOptions {
        cl_opt,
        ..JitOptions::default()
    };
    let compiled = session
        .compile_for_entry(entry, &options)
        .map_err(pipeline)?;
    let compiled_at = meter.read()?;
    let (result, stats) = compiled.run_with_stats(
        case.workload.name(),
        &[case.n, case.rounds],
        &RunLimits::default(),
    );
    let ran = meter.read()?;
    drop(compiled);

    let result = result.map_err(|source| BenchError::Run {
        config: label(),
        round,
        source,
    })?;
    Ok(Outcome {
        phases: Phases {
            parse: parsed.saturating_sub(start),
            passes: optimized.saturating_sub(parsed),
            compile: compiled_at.saturating_sub(optimized),
            run: ran.saturating_sub(compiled_at),
        },
        result,
        stats: Some(stats),
    })
}

/// The workload module with the inlining hints of `calls`: `boundary` marks the pool helpers
/// `noinline`, `inline` marks every function `inline` (the inliner still never inlines a call
/// on a cycle of the call graph); `natural` leaves the program as written. Hints do not change
/// what a verified module means, so the module stays verified.
fn with_call_mode(mut module: VerifiedModule, calls: CallMode) -> VerifiedModule {
    let names: Vec<String> = module
        .module()
        .funcs
        .values()
        .map(|f| f.name.clone())
        .collect();
    for name in names {
        let hint = match calls {
            CallMode::Natural => continue,
            CallMode::Boundary if CallMode::is_helper(&name) => InlineHint::Never,
            CallMode::Boundary => continue,
            CallMode::Inline => InlineHint::Always,
        };
        module.set_inline_hint(&name, hint);
    }
    module
}

/// Runs the native reference of `case`, reading `meter` around the run.
pub fn run_native(case: &Case, round: Round, meter: &mut dyn Meter) -> Result<Outcome, BenchError> {
    let start = meter.read()?;
    let result = native::run(case);
    let end = meter.read()?;
    let result = result.map_err(|trap| BenchError::NativeTrap {
        config: ConfigLabel(case, Variant::Native).to_string(),
        round,
        message: trap.0.to_string(),
    })?;
    Ok(Outcome {
        phases: Phases {
            run: end.saturating_sub(start),
            ..Phases::default()
        },
        result,
        stats: None,
    })
}

/// One run of one configuration, measured in this process or under callgrind.
fn run_config(
    case: &Case,
    variant: Variant,
    round: Round,
    how: &metric::Plan,
) -> Result<Outcome, BenchError> {
    match how {
        metric::Plan::InProcess(info) => {
            let mut meter = metric::meter(*info)?;
            match variant {
                Variant::Jit { level, cl_opt } => run_jit(case, level, cl_opt, round, &mut *meter),
                Variant::Native => run_native(case, round, &mut *meter),
            }
        }
        metric::Plan::Callgrind(_) => {
            let counted = callgrind::measure(case, variant)?;
            let phases = match variant {
                Variant::Jit { .. } => match counted.phases[..] {
                    [parse, passes, compile, run] => Phases {
                        parse,
                        passes,
                        compile,
                        run,
                    },
                    _ => return Err(callgrind::phase_count_error(&counted.phases, 4)),
                },
                Variant::Native => match counted.phases[..] {
                    [run] => Phases {
                        run,
                        ..Phases::default()
                    },
                    _ => return Err(callgrind::phase_count_error(&counted.phases, 1)),
                },
            };
            Ok(Outcome {
                phases,
                result: counted.result,
                stats: counted.stats,
            })
        }
    }
}

/// Runs the plan: `warmups` discarded rounds, then `reps` measured rounds, each round one run
/// of every configuration in turn. Fails at the first run whose result is not the expected one.
pub fn measure(
    plan: &Plan,
    how: &metric::Plan,
    progress: &ProgressBar,
) -> Result<Measurements, BenchError> {
    let configs = plan.configs();
    let rounds = plan.warmups + plan.reps;
    progress.set_length((rounds * configs.len()) as u64);
    progress.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .expect("the progress template is valid")
            .progress_chars("=> "),
    );
    let mut samples = Vec::with_capacity(plan.reps * configs.len());
    let mut stats = vec![None; configs.len()];
    for r in 0..rounds {
        let round = if r < plan.warmups {
            Round::Warmup(r)
        } else {
            Round::Sample(r - plan.warmups)
        };
        for (ci, config) in configs.iter().enumerate() {
            let case = &plan.cases[config.case];
            progress.set_message(format!("{round}: {}", ConfigLabel(case, config.variant)));
            let outcome = run_config(case, config.variant, round, how)?;
            if outcome.result != case.expected {
                return Err(BenchError::WrongResult {
                    config: ConfigLabel(case, config.variant).to_string(),
                    round,
                    expected: case.expected,
                    actual: outcome.result,
                });
            }
            stats[ci] = outcome.stats;
            if let Round::Sample(index) = round {
                samples.push(Sample {
                    config: ci,
                    index,
                    phases: outcome.phases,
                    result: outcome.result,
                });
            }
            progress.inc(1);
        }
    }
    Ok(Measurements {
        metric: how.info(),
        cases: plan.cases.clone(),
        configs,
        samples,
        stats,
    })
}
