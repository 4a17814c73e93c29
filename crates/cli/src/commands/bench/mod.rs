//! `poolopt bench`: the benchmark matrix on the built-in workloads.
//!
//! Every workload × slot size runs at O0 (the baseline) and at the chosen levels, under each
//! chosen Cranelift level, plus a native Rust reference, following the protocol of
//! [`protocol`], in the chosen [`metric`]. Markdown tables (or one JSON document) go to stdout
//! and nothing else does, progress to stderr, and with `--out` the raw samples, results,
//! counters, fingerprint, chart and emitted code to a directory ([`artifacts`]). Every ratio
//! carries its spread and every target verdict comes from it ([`spread`]); `--baseline`
//! compares with a saved run ([`baseline`]); `--check` turns a target NOT met into exit code 4.

mod artifacts;
mod baseline;
pub mod callgrind;
mod chart;
mod error;
mod fingerprint;
mod json;
mod markdown;
pub mod metric;
mod native;
mod protocol;
mod report;
mod spread;
mod summary;
mod workloads;

use super::Failure;
use crate::cli::ClOptArg;
use clap::{Args, ValueEnum};
use error::BenchError;
use indicatif::ProgressBar;
use metric::Metric;
use poolopt::{ClOpt, OptLevel};
use protocol::Plan;
use report::{Columns, Figures};
use spread::Verdict;
use std::path::PathBuf;
use std::process::ExitCode;
use workloads::{CallMode, SizeClass, Workload};

/// A poolopt optimization level on the command line.
#[derive(ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum LevelArg {
    #[value(name = "O0", alias = "0")]
    O0,
    #[value(name = "O1", alias = "1")]
    O1,
    #[value(name = "O2", alias = "2")]
    O2,
}

impl From<LevelArg> for OptLevel {
    fn from(l: LevelArg) -> OptLevel {
        match l {
            LevelArg::O0 => OptLevel::O0,
            LevelArg::O1 => OptLevel::O1,
            LevelArg::O2 => OptLevel::O2,
        }
    }
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Workloads to run (default: all).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "W,...")]
    pub workloads: Vec<Workload>,
    /// Problem sizes (default: reference; small with --quick).
    #[arg(long, value_enum)]
    pub sizes: Option<SizeClass>,
    /// Levels compared with O0, which always runs as the baseline (default: O1,O2).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        value_name = "LEVEL,...",
        ignore_case = true
    )]
    pub levels: Vec<LevelArg>,
    /// Cranelift optimization levels (default: none,speed).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "CL,...")]
    pub cl_opt: Vec<ClOptArg>,
    /// Measured samples per configuration (default: 7; 3 with --quick).
    #[arg(long, value_name = "N")]
    pub reps: Option<usize>,
    /// Discarded warm-up rounds before the samples (default: 2; 1 with --quick).
    #[arg(long, value_name = "N")]
    pub warmups: Option<usize>,
    /// Smoke run: small sizes, 3 samples, 1 warm-up (explicit options still win).
    #[arg(long)]
    pub quick: bool,
    /// Also write tables, bench.json, raw samples, results, fingerprint, chart and emitted code
    /// here.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// What the ratio tables compare: wall time, the process's CPU time, executed instructions
    /// (hardware counter, else callgrind: exact) or CPU cycles (hardware counter only).
    #[arg(long, value_enum, default_value_t = Metric::Cpu)]
    pub metric: Metric,
    /// Output format on stdout: markdown tables, or one JSON document (schema in
    /// docs/benchmarks.md).
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    pub format: Format,
    /// Exit with code 4 when a target is NOT met (its whole range beyond the limit); with IDs
    /// (`--check=exec-geomean,exec-worst`), only the targets whose id starts with one of them.
    #[arg(
        long,
        value_name = "ID,...",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "all",
        value_delimiter = ','
    )]
    pub check: Option<Vec<String>>,
    /// Compare with a run saved by `--out DIR`: prints new/old per configuration with ranges.
    /// Refused when the metric, the workload sizes or the expected checksums differ.
    #[arg(long, value_name = "DIR")]
    pub baseline: Option<PathBuf>,
    /// Call modes, each a full matrix (default: natural): `natural` (as written; poolopt's
    /// inliner and rustc decide), `boundary` (make/alloc/release kept out of line on both
    /// sides), `inline` (every non-recursive call inlined on both sides). With several modes,
    /// `--out DIR` writes each to `DIR/calls-MODE`.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "MODE,...")]
    pub calls: Vec<CallMode>,
}

/// Output format of `poolopt bench`.
#[derive(ValueEnum, Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Json,
}

/// Sorted, deduplicated, or `all` when empty.
fn selection<T: Copy + PartialEq, K: Ord>(given: &[T], all: &[T], key: impl Fn(&T) -> K) -> Vec<T> {
    let mut v: Vec<T> = if given.is_empty() {
        all.to_vec()
    } else {
        given.to_vec()
    };
    v.sort_by_key(&key);
    v.dedup();
    v
}

fn plan(args: &BenchArgs, calls: CallMode) -> Result<Plan, BenchError> {
    let workloads = selection(&args.workloads, &Workload::ALL, |w| *w);
    let size = args.sizes.unwrap_or(if args.quick {
        SizeClass::Small
    } else {
        SizeClass::Reference
    });
    let levels: Vec<OptLevel> = selection(&args.levels, &[LevelArg::O1, LevelArg::O2], |l| {
        OptLevel::from(*l)
    })
    .into_iter()
    .map(OptLevel::from)
    .filter(|l| *l != OptLevel::O0)
    .collect();
    if levels.is_empty() {
        return Err(BenchError::Usage(
            "--levels needs O1 or O2 (O0 always runs as the baseline)".into(),
        ));
    }
    let cl_opts: Vec<ClOpt> = selection(&args.cl_opt, &[ClOptArg::None, ClOptArg::Speed], |c| {
        *c == ClOptArg::Speed
    })
    .into_iter()
    .map(ClOpt::from)
    .collect();
    let default_reps = match (args.metric, args.quick) {
        (Metric::Instructions, _) => 3,
        (_, true) => 3,
        (_, false) => 7,
    };
    let reps = args.reps.unwrap_or(default_reps);
    if reps == 0 {
        return Err(BenchError::Usage("--reps must be at least 1".into()));
    }
    Ok(Plan {
        cases: workloads::cases(&workloads, size, calls)?,
        levels,
        cl_opts,
        warmups: args.warmups.unwrap_or(match (args.metric, args.quick) {
            // A callgrind sample is a fresh process: there is nothing to warm up.
            (Metric::Instructions, _) => 0,
            (_, true) => 1,
            (_, false) => 2,
        }),
        reps,
    })
}

/// The `--check` selection: every target, or those whose id starts with one of the given ids.
fn checked_targets(args: &BenchArgs) -> Result<Option<Vec<String>>, BenchError> {
    let Some(ids) = &args.check else {
        return Ok(None);
    };
    if ids.iter().any(|i| i == "all") {
        return Ok(Some(Vec::new()));
    }
    for id in ids {
        if !report::TARGET_KINDS.iter().any(|k| id.starts_with(k)) {
            let hint = crate::commands::suggest::did_you_mean(id, report::TARGET_KINDS);
            return Err(BenchError::Usage(format!(
                "--check: unknown target `{id}`{hint}; targets are {}",
                report::TARGET_KINDS.join(", ")
            )));
        }
    }
    Ok(Some(ids.clone()))
}

/// Runs the benchmark: measure, print the tables, write `--out`. Returns whether every
/// checked target is met or not NOT met.
fn bench(args: &BenchArgs, calls: CallMode, out: Option<&PathBuf>) -> Result<bool, BenchError> {
    let plan = plan(args, calls)?;
    let checked = checked_targets(args)?;
    let how = metric::choose(args.metric)?;
    let info = how.info();
    let baseline = match &args.baseline {
        Some(dir) => {
            let doc = json::load(dir)?;
            baseline::check_compatible(&doc, info, &json::case_docs(&plan.cases))?;
            Some(doc)
        }
        None => None,
    };
    if cfg!(debug_assertions) {
        err_println!(
            "warning: this is a debug build; timings are not representative (use --release)"
        );
    }
    let command = std::iter::once("poolopt".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let mut fingerprint = fingerprint::fingerprint(&command);
    fingerprint.push(("metric".into(), info.label()));
    fingerprint.push(("calls".into(), calls.name().into()));
    if matches!(how, metric::Plan::Callgrind(_)) {
        fingerprint.push((
            "valgrind".into(),
            callgrind::valgrind_version().unwrap_or_else(|| "unknown".into()),
        ));
    }
    let differences = baseline
        .as_ref()
        .map(|b| baseline::machine_differences(&b.fingerprint, &fingerprint))
        .unwrap_or_default();
    for d in &differences {
        err_println!("WARNING: the baseline ran on another machine or toolchain: {d}");
    }

    let progress = ProgressBar::new(0);
    let measured = protocol::measure(&plan, &how, &progress);
    progress.finish_and_clear();
    let m = measured?;

    let columns = Columns {
        levels: plan.levels.clone(),
        cl_opts: plan.cl_opts.clone(),
    };
    let figures = Figures::new(&m, &columns);
    let mut tables = report::tables(&m, &columns, &figures);
    if let (Some(old), Some(dir)) = (&baseline, &args.baseline) {
        tables.extend(baseline::compare_markdown(
            &m,
            old,
            &dir.display().to_string(),
            &differences,
        ));
    }
    let heading = format!(
        "## poolopt bench: {}; calls: {}; {} sample(s) after {} warm-up(s), interleaved; \
         medians with ranges (min–max)\n",
        info.label(),
        calls.name(),
        plan.reps,
        plan.warmups
    );
    let body: String = tables.iter().map(|t| format!("\n{t}")).collect();
    let doc = json::document(&m, &figures, &fingerprint, plan.warmups, plan.reps);
    let doc_text = serde_json::to_string_pretty(&doc)
        .map_err(|e| BenchError::Meter(format!("cannot serialize the results: {e}")))?;
    let shown = match args.format {
        Format::Markdown => format!("{heading}{body}"),
        Format::Json => format!("{doc_text}\n"),
    };
    super::write_stdout(&shown).map_err(|source| BenchError::Io {
        path: PathBuf::from("standard output"),
        source,
    })?;

    if let Some(dir) = out {
        let out = artifacts::OutDir::create(dir)?;
        let env: String = fingerprint
            .iter()
            .map(|(k, v)| format!("{k}: {v}\n"))
            .collect();
        out.write("environment.txt", &env)?;
        let env_md: String = fingerprint
            .iter()
            .map(|(k, v)| format!("- {k}: {v}\n"))
            .collect();
        out.write("tables.md", &format!("{heading}\n{env_md}{body}"))?;
        out.write("bench.json", &format!("{doc_text}\n"))?;
        out.write("samples.csv", &artifacts::samples_csv(&m))?;
        out.write("results.csv", &artifacts::results_csv(&m))?;
        out.write("counters.csv", &artifacts::counters_csv(&m))?;
        out.write(
            "chart.svg",
            &chart::svg(
                &m,
                &figures.exec,
                &format!(
                    "Execution, optimized / O0 (smaller is better); {}",
                    info.label()
                ),
            ),
        )?;
        artifacts::write_emitted(&out, &m)?;
        err_println!("results written to {}", dir.display());
    }

    let failed: Vec<&report::Target> = figures
        .targets
        .iter()
        .filter(|t| t.verdict == Verdict::NotMet)
        .filter(|t| match &checked {
            None => false,
            Some(ids) => ids.is_empty() || ids.iter().any(|id| t.id.starts_with(id.as_str())),
        })
        .collect();
    for t in &failed {
        err_println!(
            "check failed: {} ({}): {} > {}",
            t.name,
            t.id,
            t.figure.map_or_else(|| "n/a".into(), |f| f.to_string()),
            t.limit
        );
    }
    if checked.is_some() && !info.source.is_deterministic() {
        err_println!(
            "note: --check with --metric {} ({}) is not deterministic; gate CI on --metric \
             instructions (callgrind)",
            info.metric.name(),
            info.source.name()
        );
    }
    Ok(failed.is_empty())
}

/// `poolopt bench`: exit 0, or 4 when `--check` found a target NOT met.
pub fn run(args: BenchArgs) -> Result<ExitCode, Failure> {
    let failure = |e: BenchError| Failure {
        code: e.exit_code(),
        message: e.to_string(),
    };
    let modes = selection(&args.calls, &[CallMode::Natural], |c| *c);
    if modes.len() > 1 && args.baseline.is_some() {
        return Err(failure(BenchError::Usage(
            "--baseline compares one call mode; give one --calls value".into(),
        )));
    }
    let mut all_met = true;
    for &mode in &modes {
        let out = args.out.as_ref().map(|dir| {
            if modes.len() > 1 {
                dir.join(format!("calls-{}", mode.name()))
            } else {
                dir.clone()
            }
        });
        all_met &= bench(&args, mode, out.as_ref()).map_err(failure)?;
    }
    Ok(if all_met {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(4)
    })
}

/// The hidden `bench-cell` subcommand (one run of one configuration, for callgrind).
pub fn run_cell(args: callgrind::CellArgs) -> Result<ExitCode, Failure> {
    match callgrind::run_cell(&args) {
        Ok(text) => {
            super::to_stdout(&text)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(Failure {
            code: e.exit_code(),
            message: e.to_string(),
        }),
    }
}
