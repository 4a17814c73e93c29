//! `poolopt bench`: the benchmark matrix on the built-in workloads.
//!
//! Every workload × slot size runs at O0 (the baseline) and at the chosen levels, under each
//! chosen Cranelift level, plus a native Rust reference, following the protocol of
//! [`protocol`]. Markdown tables go to stdout (nothing else does), progress to stderr, and with
//! `--out` the raw samples, results, counters, fingerprint, chart and emitted code to a
//! directory ([`artifacts`]).

mod artifacts;
mod chart;
mod error;
mod fingerprint;
mod markdown;
mod native;
mod protocol;
mod report;
mod summary;
mod workloads;

use super::Failure;
use crate::cli::ClOptArg;
use clap::{Args, ValueEnum};
use error::BenchError;
use indicatif::ProgressBar;
use poolopt::{ClOpt, OptLevel};
use protocol::Plan;
use report::Columns;
use std::path::PathBuf;
use std::process::ExitCode;
use workloads::{SizeClass, Workload};

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
    /// Also write tables, raw samples, results, fingerprint, chart and emitted code here.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
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

fn plan(args: &BenchArgs) -> Result<Plan, BenchError> {
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
    let reps = args.reps.unwrap_or(if args.quick { 3 } else { 7 });
    if reps == 0 {
        return Err(BenchError::Usage("--reps must be at least 1".into()));
    }
    Ok(Plan {
        cases: workloads::cases(&workloads, size)?,
        levels,
        cl_opts,
        warmups: args.warmups.unwrap_or(if args.quick { 1 } else { 2 }),
        reps,
    })
}

/// Runs the benchmark: measure, print the tables, write `--out`.
fn bench(args: &BenchArgs) -> Result<(), BenchError> {
    let plan = plan(args)?;
    if cfg!(debug_assertions) {
        eprintln!("warning: this is a debug build; timings are not representative (use --release)");
    }
    let command = std::iter::once("poolopt".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let fingerprint = fingerprint::fingerprint(&command);

    let progress = ProgressBar::new(0);
    let measured = protocol::measure(&plan, &progress);
    progress.finish_and_clear();
    let m = measured?;

    let columns = Columns {
        levels: plan.levels.clone(),
        cl_opts: plan.cl_opts.clone(),
    };
    let (tables, exec) = report::tables(&m, &columns);
    let heading = format!(
        "## poolopt bench: {} sample(s) after {} warm-up(s), interleaved; medians\n",
        plan.reps, plan.warmups
    );
    let body: String = tables.iter().map(|t| format!("\n{t}")).collect();
    print!("{heading}{body}");

    if let Some(dir) = &args.out {
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
        out.write("samples.csv", &artifacts::samples_csv(&m))?;
        out.write("results.csv", &artifacts::results_csv(&m))?;
        out.write("counters.csv", &artifacts::counters_csv(&m))?;
        out.write(
            "chart.svg",
            &chart::svg(
                &m,
                &exec,
                "Execution time, optimized / O0 (smaller is better)",
            ),
        )?;
        artifacts::write_emitted(&out, &m)?;
        eprintln!("results written to {}", dir.display());
    }
    Ok(())
}

pub fn run(args: BenchArgs) -> Result<ExitCode, Failure> {
    match bench(&args) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => Err(Failure {
            code: e.exit_code(),
            message: e.to_string(),
        }),
    }
}
