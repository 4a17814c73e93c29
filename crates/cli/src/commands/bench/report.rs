//! The report: the ratio tables (execution and JIT total) with the spread of every cell,
//! absolute medians per phase, per-operation counters, and the project's targets evaluated on
//! the ranges (met / NOT met / inconclusive). Every table names the metric it shows.

use super::markdown::Table;
use super::metric::MetricInfo;
use super::protocol::{Measurements, Variant};
use super::spread::{geomean_across, max_across, paired, Estimate, Verdict};
use super::summary::{median_of, series, Phase};
use poolopt::jit::RunStats;
use poolopt::{ClOpt, OptLevel};

/// The columns of the matrix: the levels compared with O0 and the Cranelift levels.
#[derive(Clone, Debug)]
pub struct Columns {
    pub levels: Vec<OptLevel>,
    pub cl_opts: Vec<ClOpt>,
}

impl Columns {
    /// The ratio columns, Cranelift level outer: O1 none, O2 none, O1 speed, O2 speed.
    pub fn ratio_columns(&self) -> Vec<(OptLevel, ClOpt)> {
        self.cl_opts
            .iter()
            .flat_map(|&cl| self.levels.iter().map(move |&level| (level, cl)))
            .collect()
    }

    /// The highest level measured (the one the absolute table and the native column show).
    pub fn top(&self) -> OptLevel {
        self.levels.iter().copied().max().unwrap_or(OptLevel::O0)
    }

    /// The Cranelift level of the native comparison: `speed` when measured.
    pub fn native_cl(&self) -> ClOpt {
        if self.cl_opts.contains(&ClOpt::Speed) {
            ClOpt::Speed
        } else {
            self.cl_opts.last().copied().unwrap_or(ClOpt::Speed)
        }
    }

    pub fn top_native(&self) -> Variant {
        Variant::Jit {
            level: self.top(),
            cl_opt: self.native_cl(),
        }
    }
}

/// One case's row of a ratio table: the paired per-sample ratios of each column, then those
/// of the native column.
pub struct RatioRow {
    pub case: usize,
    pub cells: Vec<Option<Vec<f64>>>,
    pub native: Option<Vec<f64>>,
}

/// A ratio table in numbers (also what the chart and the JSON output show).
pub struct RatioTable {
    pub phase: Phase,
    pub columns: Vec<(OptLevel, ClOpt)>,
    pub rows: Vec<RatioRow>,
}

impl RatioTable {
    /// Cell = `phase` at level/cl ÷ `phase` at O0/cl, sample by sample; native = `phase` at
    /// the top level and native cl ÷ the native run, sample by sample.
    pub fn new(m: &Measurements, columns: &Columns, phase: Phase) -> RatioTable {
        let cols = columns.ratio_columns();
        let rows = (0..m.cases.len())
            .map(|case| {
                let cells = cols
                    .iter()
                    .map(|&(level, cl_opt)| {
                        let num = series(m, case, Variant::Jit { level, cl_opt }, phase)?;
                        let o0 = Variant::Jit {
                            level: OptLevel::O0,
                            cl_opt,
                        };
                        paired(&num, &series(m, case, o0, phase)?)
                    })
                    .collect();
                let native = series(m, case, columns.top_native(), phase)
                    .and_then(|num| paired(&num, &series(m, case, Variant::Native, Phase::Run)?));
                RatioRow {
                    case,
                    cells,
                    native,
                }
            })
            .collect();
        RatioTable {
            phase,
            columns: cols,
            rows,
        }
    }

    /// The per-sample series of column `col` (`columns.len()` = the native column), per case.
    fn column(&self, col: usize) -> Option<Vec<Vec<f64>>> {
        self.rows
            .iter()
            .map(|r| {
                if col < self.columns.len() {
                    r.cells[col].clone()
                } else {
                    r.native.clone()
                }
            })
            .collect()
    }

    /// The cell of row `row`, column `col` (`columns.len()` = native).
    pub fn cell(&self, row: usize, col: usize) -> Option<Estimate> {
        let r = &self.rows[row];
        let s = if col < self.columns.len() {
            r.cells[col].as_ref()
        } else {
            r.native.as_ref()
        };
        Estimate::of(s?)
    }

    /// Geometric mean over the cases of column `col`, per sample.
    pub fn geomean(&self, col: usize) -> Option<Estimate> {
        Estimate::of(&geomean_across(&self.column(col)?)?)
    }

    /// Worst (largest) case of column `col`, per sample.
    pub fn max(&self, col: usize) -> Option<Estimate> {
        Estimate::of(&max_across(&self.column(col)?)?)
    }
}

fn fmt_estimate(e: Option<Estimate>) -> String {
    e.map_or_else(|| "n/a".to_string(), |e| e.to_string())
}

/// How raw values of a metric are shown: small phases (parse, passes, compile) and the run.
struct Units {
    small: (&'static str, f64, usize),
    large: (&'static str, f64, usize),
    per_op: &'static str,
}

fn units(metric: MetricInfo) -> Units {
    if metric.metric.is_time() {
        Units {
            small: ("µs", 1e3, 1),
            large: ("ms", 1e6, 3),
            per_op: "ns/op",
        }
    } else {
        let per_op = if metric.unit() == "cycles" {
            "cycles/op"
        } else {
            "instr/op"
        };
        Units {
            small: ("k", 1e3, 1),
            large: ("M", 1e6, 3),
            per_op,
        }
    }
}

fn fmt_scaled(v: Option<f64>, (_, divisor, decimals): (&str, f64, usize)) -> String {
    v.map_or_else(
        || "n/a".to_string(),
        |v| format!("{:.*}", decimals, v / divisor),
    )
}

fn case_cells(m: &Measurements, case: usize) -> Vec<String> {
    let c = &m.cases[case];
    vec![
        c.workload.name().to_string(),
        c.elem.bytes().to_string(),
        c.n.to_string(),
        c.rounds.to_string(),
    ]
}

fn case_header() -> Vec<String> {
    ["workload", "bytes", "n", "rounds"]
        .into_iter()
        .map(String::from)
        .collect()
}

/// The title and description of a ratio table of `phase`.
pub fn ratio_title(phase: Phase) -> (&'static str, &'static str) {
    match phase {
        Phase::Total => (
            "JIT total: optimized / O0",
            "parse + verify + passes + Cranelift compile + run",
        ),
        _ => ("Execution: optimized / O0", "run of the compiled entry"),
    }
}

/// Renders a ratio table as markdown.
pub fn ratio_markdown(m: &Measurements, columns: &Columns, table: &RatioTable) -> Table {
    let (title, what) = ratio_title(table.phase);
    let native = columns.top_native();
    let caption = format!(
        "Metric: {}. Each cell: {what} at the level / at O0 under the same Cranelift level, \
         sample by sample (same round); the median of those paired ratios and, in parentheses, \
         their range (min–max) over {} sample(s). Smaller is better. Last column: {} {} / \
         native Rust run.",
        m.metric.label(),
        samples_per_config(m),
        native.level_name(),
        native.cl_name()
    );
    let mut header = case_header();
    header.extend(
        table
            .columns
            .iter()
            .map(|(level, cl)| format!("{} {}", level.name(), cl)),
    );
    header.push(format!(
        "{} {} / native",
        native.level_name(),
        native.cl_name()
    ));
    let mut t = Table::new(title, caption, header, 2);
    for (row, r) in table.rows.iter().enumerate() {
        let mut cells = case_cells(m, r.case);
        cells.extend((0..=table.columns.len()).map(|col| fmt_estimate(table.cell(row, col))));
        t.push(cells);
    }
    let mut row = vec![
        "geomean".to_string(),
        String::new(),
        String::new(),
        String::new(),
    ];
    row.extend((0..=table.columns.len()).map(|col| fmt_estimate(table.geomean(col))));
    t.push(row);
    t
}

/// The number of samples of the first configuration (all have the same).
pub fn samples_per_config(m: &Measurements) -> usize {
    m.samples_of(0).count()
}

/// Absolute medians: per case and Cranelift level, parse, passes, compile and run at O0 and
/// at the top level, the passes' share of compile, and the native run.
pub fn absolute_markdown(m: &Measurements, columns: &Columns) -> Table {
    let top = columns.top();
    let u = units(m.metric);
    let mut header = case_header();
    header.push("cl_opt".into());
    header.push(format!("parse {}", u.small.0));
    for level in [OptLevel::O0, top] {
        let l = level.name();
        header.extend([
            format!("{l} passes {}", u.small.0),
            format!("{l} compile {}", u.small.0),
            format!("{l} run {}", u.large.0),
        ]);
    }
    header.push(format!("{} passes / compile", top.name()));
    header.push(format!("native run {}", u.large.0));
    let mut t = Table::new(
        "Absolute medians",
        format!(
            "Metric: {}. Medians per phase. `passes` is the poolopt pipeline (no verification \
             between passes); `compile` is lowering plus Cranelift code generation.",
            m.metric.label()
        ),
        header,
        5,
    );
    for case in 0..m.cases.len() {
        for &cl_opt in &columns.cl_opts {
            let at = |level, phase| median_of(m, case, Variant::Jit { level, cl_opt }, phase);
            let mut row = case_cells(m, case);
            row.push(cl_opt.name().to_string());
            row.push(fmt_scaled(at(OptLevel::O0, Phase::Parse), u.small));
            for level in [OptLevel::O0, top] {
                row.push(fmt_scaled(at(level, Phase::Passes), u.small));
                row.push(fmt_scaled(at(level, Phase::Compile), u.small));
                row.push(fmt_scaled(at(level, Phase::Run), u.large));
            }
            let share = match (at(top, Phase::Passes), at(top, Phase::Compile)) {
                (Some(p), Some(c)) if c > 0.0 => format!("{:.1}%", 100.0 * p / c),
                _ => "n/a".into(),
            };
            row.push(share);
            row.push(fmt_scaled(
                median_of(m, case, Variant::Native, Phase::Run),
                u.large,
            ));
            t.push(row);
        }
    }
    t
}

/// The counters of every JIT configuration of `case`, if they all agree.
fn agreed_stats(m: &Measurements, case: usize) -> (Option<RunStats>, bool) {
    let all: Vec<RunStats> = m
        .configs
        .iter()
        .zip(&m.stats)
        .filter(|(c, _)| c.case == case)
        .filter_map(|(_, s)| *s)
        .collect();
    let first = all.first().copied();
    (first, all.iter().all(|s| Some(*s) == first))
}

/// Per-operation figures: cost per pool operation beside the run-time counters.
pub fn per_op_markdown(m: &Measurements, columns: &Columns) -> Table {
    let top = columns.top();
    let cl_opt = columns.native_cl();
    let u = units(m.metric);
    let mut header = case_header();
    header.extend([
        "ops".to_string(),
        format!("O0 {cl_opt} {}", u.per_op),
        format!("{} {cl_opt} {}", top.name(), u.per_op),
        format!("native {}", u.per_op),
        "vec growths/op".to_string(),
        "bytes allocated/op".to_string(),
        "bytes copied/op".to_string(),
    ]);
    let mut t = Table::new(
        "Per operation",
        format!(
            "Metric: {}. An operation is one alloc or one release (counted from n and rounds). \
             Counters are the JIT runtime's vec growths, bytes of grown buffers allocated and \
             bytes copied by growth, per operation; they are identical at every level unless \
             marked `*`.",
            m.metric.label()
        ),
        header,
        2,
    );
    for case in 0..m.cases.len() {
        let ops = m.cases[case].operations().max(1) as f64;
        let per_op = |variant| median_of(m, case, variant, Phase::Run).map(|v| v / ops);
        let (stats, agree) = agreed_stats(m, case);
        let mark = if agree { "" } else { "*" };
        let counter = |f: fn(&RunStats) -> u64| {
            stats.map_or_else(
                || "n/a".to_string(),
                |s| format!("{:.4}{mark}", f(&s) as f64 / ops),
            )
        };
        let mut row = case_cells(m, case);
        row.push(m.cases[case].operations().to_string());
        let fmt_v = |v: Option<f64>| v.map_or_else(|| "n/a".to_string(), |v| format!("{v:.2}"));
        row.push(fmt_v(per_op(Variant::Jit {
            level: OptLevel::O0,
            cl_opt,
        })));
        row.push(fmt_v(per_op(Variant::Jit { level: top, cl_opt })));
        row.push(fmt_v(per_op(Variant::Native)));
        row.push(counter(|s| s.vec_growths));
        row.push(counter(|s| s.bytes_allocated));
        row.push(counter(|s| s.bytes_copied));
        t.push(row);
    }
    t
}

/// One of the project's targets evaluated on this run.
#[derive(Clone, Debug)]
pub struct Target {
    /// Stable id, e.g. `exec-geomean-speed` (what `--check=ID,...` names).
    pub id: String,
    pub name: String,
    pub figure: Option<Estimate>,
    pub limit: f64,
    pub verdict: Verdict,
}

/// Samples a noisy metric (wall, cpu, hardware counters) needs before a target's range can
/// decide it; with fewer, the verdict is inconclusive. Callgrind counts decide from one.
pub const MIN_SAMPLES_FOR_VERDICT: usize = 3;

/// The ids of every target (without the Cranelift-level suffix): for `--check` validation.
pub const TARGET_KINDS: [&str; 6] = [
    "exec-geomean",
    "exec-worst",
    "total-geomean",
    "total-worst",
    "passes-share",
    "native",
];

/// The project's benchmark targets evaluated on this run (O2 only; empty without O2).
pub fn targets(
    m: &Measurements,
    columns: &Columns,
    exec: &RatioTable,
    total: &RatioTable,
) -> Vec<Target> {
    let mut out = Vec::new();
    if !columns.levels.contains(&OptLevel::O2) {
        return out;
    }
    // A range of one or two samples of a noisy metric says nothing about the spread.
    let deterministic = m.metric.source.is_deterministic();
    let mut add = |id: String, name: String, figure: Option<Estimate>, limit: f64| {
        let verdict = match figure {
            Some(f) if !deterministic && f.samples < MIN_SAMPLES_FOR_VERDICT => {
                Verdict::Inconclusive
            }
            _ => Verdict::at_most(figure, limit),
        };
        out.push(Target {
            id,
            name,
            figure,
            limit,
            verdict,
        });
    };
    for (col, &(level, cl)) in exec.columns.iter().enumerate() {
        if level != OptLevel::O2 {
            continue;
        }
        add(
            format!("exec-geomean-{cl}"),
            format!("execution O2/O0 geomean, {cl}"),
            exec.geomean(col),
            0.85,
        );
        add(
            format!("exec-worst-{cl}"),
            format!("execution O2/O0 worst workload, {cl}"),
            exec.max(col),
            1.0,
        );
        add(
            format!("total-geomean-{cl}"),
            format!("JIT total O2/O0 geomean, {cl}"),
            total.geomean(col),
            1.0,
        );
        add(
            format!("total-worst-{cl}"),
            format!("JIT total O2/O0 worst workload, {cl}"),
            total.max(col),
            1.0,
        );
        let v = Variant::Jit { level, cl_opt: cl };
        let shares: Option<Vec<Vec<f64>>> = (0..m.cases.len())
            .map(|case| {
                paired(
                    &series(m, case, v, Phase::Passes)?,
                    &series(m, case, v, Phase::Compile)?,
                )
            })
            .collect();
        add(
            format!("passes-share-{cl}"),
            format!("O2 passes / Cranelift compile, worst, {cl}"),
            shares.and_then(|s| Estimate::of(&max_across(&s)?)),
            0.05,
        );
    }
    if columns.native_cl() == ClOpt::Speed {
        add(
            "native-speed".to_string(),
            "execution O2 speed / native, geomean".to_string(),
            exec.geomean(exec.columns.len()),
            1.5,
        );
    }
    out
}

/// The targets as a markdown table.
pub fn targets_markdown(m: &Measurements, targets: &[Target]) -> Option<Table> {
    if targets.is_empty() {
        return None;
    }
    let mut t = Table::new(
        "Targets",
        format!(
            "Metric: {}. The project's targets (docs/benchmarks.md), stated for the reference \
             sizes, evaluated on this run: `measured` is the median of the per-sample figure \
             and its range; *met* when the whole range is within the limit, *NOT met* when it \
             is entirely beyond, *inconclusive* when it straddles the limit (or, for a metric other \
             than callgrind's, rests on fewer than 3 samples).",
            m.metric.label()
        ),
        vec![
            "target".into(),
            "id".into(),
            "measured".into(),
            "limit".into(),
            "verdict".into(),
        ],
        2,
    );
    for target in targets {
        t.push(vec![
            target.name.clone(),
            target.id.clone(),
            fmt_estimate(target.figure),
            format!("{}", target.limit),
            target.verdict.name().to_string(),
        ]);
    }
    Some(t)
}

/// The report's figures: both ratio tables and the targets.
pub struct Figures {
    pub exec: RatioTable,
    pub total: RatioTable,
    pub targets: Vec<Target>,
}

impl Figures {
    pub fn new(m: &Measurements, columns: &Columns) -> Figures {
        let exec = RatioTable::new(m, columns, Phase::Run);
        let total = RatioTable::new(m, columns, Phase::Total);
        let targets = targets(m, columns, &exec, &total);
        Figures {
            exec,
            total,
            targets,
        }
    }
}

/// Every table of the report, in print order.
pub fn tables(m: &Measurements, columns: &Columns, figures: &Figures) -> Vec<Table> {
    let mut tables = vec![
        ratio_markdown(m, columns, &figures.exec),
        ratio_markdown(m, columns, &figures.total),
        absolute_markdown(m, columns),
        per_op_markdown(m, columns),
    ];
    tables.extend(targets_markdown(m, &figures.targets));
    tables
}
