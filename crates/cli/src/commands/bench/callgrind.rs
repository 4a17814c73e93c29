//! Exact instruction counts through Valgrind's callgrind, for machines without hardware
//! counters.
//!
//! Each sample re-runs this binary's hidden `bench-cell` subcommand (one configuration, one
//! run) under `valgrind --tool=callgrind --smc-check=all` (`--smc-check=all` makes Valgrind
//! see the JIT's freshly written code). The cell calls [`phase_mark`] before and after every
//! phase, and `--dump-before=poolopt_bench_phase_mark` makes callgrind write the instructions
//! counted since the previous mark to a numbered file at each one. File 1 is process start-up
//! up to the first mark (discarded); files 2.. are the phases. Start-up, argument parsing and
//! exit are thereby subtracted exactly, as the zero-work subtraction of `measuring` describes.

use super::error::BenchError;
use super::metric::Meter;
use super::protocol::{run_jit, run_native, Variant};
use super::workloads::Case;
use crate::cli::ClOptArg;
use poolopt::jit::RunStats;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The symbol callgrind dumps before; [`phase_mark`] is that function.
const MARK_SYMBOL: &str = "poolopt_bench_phase_mark";

/// A phase boundary for callgrind: an exported, never-inlined function with an observable
/// effect, so every call stays in the binary under this exact name.
#[no_mangle]
#[inline(never)]
pub extern "C" fn poolopt_bench_phase_mark() {
    std::hint::black_box(());
}

/// A meter for `bench-cell`: marks a phase boundary and reads nothing.
pub struct MarkMeter;

impl Meter for MarkMeter {
    fn read(&mut self) -> Result<u64, BenchError> {
        poolopt_bench_phase_mark();
        Ok(0)
    }
}

/// `valgrind --version`, if valgrind runs.
pub fn valgrind_version() -> Option<String> {
    let out = Command::new("valgrind").arg("--version").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The counts of one cell run under callgrind.
pub struct Counted {
    /// Instructions of each phase, in order (4 for a JIT configuration, 1 for native).
    pub phases: Vec<u64>,
    pub result: i64,
    pub stats: Option<RunStats>,
}

/// The error for a cell that marked an unexpected number of phases.
pub fn phase_count_error(phases: &[u64], expected: usize) -> BenchError {
    BenchError::Meter(format!(
        "callgrind reported {} phase(s) where {expected} were expected",
        phases.len()
    ))
}

/// The `bench-cell` arguments that run `case` as `variant`.
fn cell_args(case: &Case, variant: Variant) -> Vec<String> {
    let mut args = vec![
        "bench-cell".to_string(),
        "--workload".into(),
        case.workload.name().into(),
        "--bytes".into(),
        case.elem.bytes().to_string(),
        "--n".into(),
        case.n.to_string(),
        "--rounds".into(),
        case.rounds.to_string(),
        "--calls".into(),
        case.calls.name().into(),
    ];
    match variant {
        Variant::Jit { level, cl_opt } => {
            args.extend(["--level".into(), level.name().into()]);
            args.extend(["--cl-opt".into(), cl_opt.name().into()]);
        }
        Variant::Native => args.push("--native".into()),
    }
    args
}

/// A fresh scratch directory for one callgrind run's dump files.
fn scratch_dir() -> Result<PathBuf, BenchError> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "poolopt-callgrind-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).map_err(|source| BenchError::Io {
        path: dir.clone(),
        source,
    })?;
    Ok(dir)
}

/// The `totals:` (or `summary:`) count of one callgrind output file.
fn total_of(path: &Path) -> Result<u64, BenchError> {
    let text = std::fs::read_to_string(path).map_err(|source| BenchError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_total(&text).ok_or_else(|| {
        BenchError::Meter(format!(
            "{}: no `totals:` line in the callgrind output",
            path.display()
        ))
    })
}

/// The instruction total of a callgrind output text.
fn parse_total(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

/// The child's stdout: the result line, then `stats <growths> <allocated> <copied>` for a JIT
/// configuration.
fn parse_cell_stdout(stdout: &str) -> Option<(i64, Option<RunStats>)> {
    let mut result = None;
    let mut stats = None;
    for line in stdout.lines() {
        if let Some(rest) = line.strip_prefix("stats ") {
            let v: Vec<u64> = rest
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .ok()?;
            if let [vec_growths, bytes_allocated, bytes_copied] = v[..] {
                stats = Some(RunStats {
                    vec_growths,
                    bytes_allocated,
                    bytes_copied,
                });
            }
        } else if let Ok(r) = line.trim().parse::<i64>() {
            result = Some(r);
        }
    }
    Some((result?, stats))
}

/// Runs `case` as `variant` once under callgrind and returns its per-phase counts.
pub fn measure(case: &Case, variant: Variant) -> Result<Counted, BenchError> {
    let exe = std::env::current_exe()
        .map_err(|e| BenchError::Meter(format!("cannot find this executable to re-run it: {e}")))?;
    let dir = scratch_dir()?;
    let out_file = dir.join("callgrind.out");
    let output = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg("--smc-check=all")
        .arg(format!("--dump-before={MARK_SYMBOL}"))
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg(&exe)
        .args(cell_args(case, variant))
        .output()
        .map_err(|e| BenchError::Meter(format!("cannot run valgrind: {e}")));
    let counted = output.and_then(|output| {
        if !output.status.success() {
            return Err(BenchError::Meter(format!(
                "valgrind {} {} failed ({}): {}",
                exe.display(),
                cell_args(case, variant).join(" "),
                output.status,
                String::from_utf8_lossy(&output.stderr)
                    .lines()
                    .filter(|l| !l.starts_with("=="))
                    .collect::<Vec<_>>()
                    .join("\n")
            )));
        }
        let stdout = String::from_utf8_lossy(&output.stdout);
        let (result, stats) = parse_cell_stdout(&stdout).ok_or_else(|| {
            BenchError::Meter(format!("bench-cell printed no result: `{stdout}`"))
        })?;
        // Dump i (1-based) holds the instructions before mark i.
        let mut totals = Vec::new();
        for i in 1.. {
            let path = dir.join(format!("callgrind.out.{i}"));
            if !path.exists() {
                break;
            }
            totals.push(total_of(&path)?);
        }
        let phases = totals.into_iter().skip(1).collect();
        Ok(Counted {
            phases,
            result,
            stats,
        })
    });
    let _ = std::fs::remove_dir_all(&dir);
    counted
}

/// The hidden `bench-cell` subcommand: one run of one configuration with phase marks.
#[derive(clap::Args, Debug)]
pub struct CellArgs {
    #[arg(long, value_enum)]
    pub workload: super::workloads::Workload,
    #[arg(long)]
    pub bytes: u32,
    #[arg(long, allow_negative_numbers = true)]
    pub n: i64,
    #[arg(long, allow_negative_numbers = true)]
    pub rounds: i64,
    #[arg(long, value_enum, ignore_case = true)]
    pub level: Option<super::LevelArg>,
    #[arg(long, value_enum)]
    pub cl_opt: Option<ClOptArg>,
    #[arg(long, conflicts_with_all = ["level", "cl_opt"])]
    pub native: bool,
    #[arg(long, value_enum, default_value_t = super::workloads::CallMode::Natural)]
    pub calls: super::workloads::CallMode,
}

/// Runs one cell and prints its result (and counters) on stdout.
pub fn run_cell(args: &CellArgs) -> Result<String, BenchError> {
    let elem = super::workloads::ElemSize::ALL
        .into_iter()
        .find(|e| e.bytes() == args.bytes)
        .ok_or_else(|| BenchError::Usage(format!("--bytes {}: expected 8 or 128", args.bytes)))?;
    let case = Case {
        workload: args.workload,
        elem,
        n: args.n,
        rounds: args.rounds,
        expected: 0,
        calls: args.calls,
    };
    let round = super::error::Round::Sample(0);
    let mut meter = MarkMeter;
    if args.native {
        let outcome = run_native(&case, round, &mut meter)?;
        return Ok(format!("{}\n", outcome.result));
    }
    let (Some(level), Some(cl_opt)) = (args.level, args.cl_opt) else {
        return Err(BenchError::Usage(
            "bench-cell needs --level and --cl-opt, or --native".into(),
        ));
    };
    let outcome = run_jit(&case, level.into(), cl_opt.into(), round, &mut meter)?;
    let stats = outcome.stats.unwrap_or_default();
    Ok(format!(
        "{}\nstats {} {} {}\n",
        outcome.result, stats.vec_growths, stats.bytes_allocated, stats.bytes_copied
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_are_read_from_callgrind_output() {
        assert_eq!(
            parse_total("events: Ir\nsummary: 789544\ntotals: 789544\n"),
            Some(789544)
        );
        assert_eq!(parse_total("events: Ir\n"), None);
    }

    #[test]
    fn cell_output_is_result_then_counters() {
        let (r, s) = parse_cell_stdout("-12\nstats 1 2 3\n").unwrap();
        assert_eq!(r, -12);
        assert_eq!(s.unwrap().bytes_copied, 3);
        assert_eq!(parse_cell_stdout("7\n").unwrap(), (7, None));
        assert!(parse_cell_stdout("").is_none());
    }
}
