//! The report: the ratio tables (execution and JIT total), absolute medians, per-operation
//! counters, and the project's targets evaluated on the measured figures.

use super::markdown::Table;
use super::protocol::{Measurements, Variant};
use super::summary::{geomean, median_ns, ratio, Phase};
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

    fn top_native(&self) -> Variant {
        Variant::Jit {
            level: self.top(),
            cl_opt: self.native_cl(),
        }
    }
}

/// A ratio table in numbers (also what the chart draws).
pub struct RatioTable {
    pub phase: Phase,
    pub columns: Vec<(OptLevel, ClOpt)>,
    /// Per case: one ratio per column, then the native ratio.
    pub rows: Vec<(usize, Vec<Option<f64>>, Option<f64>)>,
}

impl RatioTable {
    /// Cell = median(`phase` at level/cl) / median(`phase` at O0/cl); native = median(`phase`
    /// at top level, native cl) / median(native run).
    pub fn new(m: &Measurements, columns: &Columns, phase: Phase) -> RatioTable {
        let cols = columns.ratio_columns();
        let rows = (0..m.cases.len())
            .map(|case| {
                let cells = cols
                    .iter()
                    .map(|&(level, cl_opt)| {
                        ratio(
                            m,
                            case,
                            Variant::Jit { level, cl_opt },
                            Variant::Jit {
                                level: OptLevel::O0,
                                cl_opt,
                            },
                            phase,
                        )
                    })
                    .collect();
                let num = median_ns(m, case, columns.top_native(), phase);
                let den = median_ns(m, case, Variant::Native, Phase::Run);
                let native = match (num, den) {
                    (Some(n), Some(d)) if d > 0.0 => Some(n / d),
                    _ => None,
                };
                (case, cells, native)
            })
            .collect();
        RatioTable {
            phase,
            columns: cols,
            rows,
        }
    }

    /// Geometric mean of column `col` (`columns.len()` = the native column).
    pub fn geomean(&self, col: usize) -> Option<f64> {
        let values: Option<Vec<f64>> = self
            .rows
            .iter()
            .map(|(_, cells, native)| {
                if col < self.columns.len() {
                    cells[col]
                } else {
                    *native
                }
            })
            .collect();
        geomean(&values?)
    }

    /// Largest value of column `col` over the cases.
    pub fn max(&self, col: usize) -> Option<f64> {
        self.rows
            .iter()
            .filter_map(|(_, cells, _)| cells.get(col).copied().flatten())
            .reduce(f64::max)
    }
}

fn fmt_ratio(r: Option<f64>) -> String {
    r.map_or_else(|| "n/a".to_string(), |r| format!("{r:.3}"))
}

fn fmt_scaled(ns: Option<f64>, divisor: f64, decimals: usize) -> String {
    ns.map_or_else(
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

/// Renders a ratio table as markdown.
pub fn ratio_markdown(m: &Measurements, columns: &Columns, table: &RatioTable) -> Table {
    let (title, what) = match table.phase {
        Phase::Total => (
            "JIT total: optimized / O0",
            "parse + verify + passes + Cranelift compile + run",
        ),
        _ => (
            "Execution: optimized / O0",
            "run time of the compiled entry",
        ),
    };
    let native = columns.top_native();
    let caption = format!(
        "Each cell: median({what}) at the level / median at O0, same Cranelift level; smaller is \
         better. Last column: median at {} {} / median native Rust run.",
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
    for (case, cells, native) in &table.rows {
        let mut row = case_cells(m, *case);
        row.extend(cells.iter().map(|c| fmt_ratio(*c)));
        row.push(fmt_ratio(*native));
        t.push(row);
    }
    let mut row = vec![
        "geomean".to_string(),
        String::new(),
        String::new(),
        String::new(),
    ];
    row.extend((0..=table.columns.len()).map(|col| fmt_ratio(table.geomean(col))));
    t.push(row);
    t
}

/// Absolute medians: per case and Cranelift level, parse, passes, compile and run at O0 and
/// at the top level, and the native run.
pub fn absolute_markdown(m: &Measurements, columns: &Columns) -> Table {
    let top = columns.top();
    let mut header = case_header();
    header.push("cl_opt".into());
    header.push("parse µs".into());
    for level in [OptLevel::O0, top] {
        let l = level.name();
        header.extend([
            format!("{l} passes µs"),
            format!("{l} compile µs"),
            format!("{l} run ms"),
        ]);
    }
    header.push(format!("{} passes / compile", top.name()));
    header.push("native run ms".into());
    let mut t = Table::new(
        "Absolute medians",
        "Median wall times per phase. `passes` is the poolopt pipeline (no verification between \
         passes); `compile` is lowering plus Cranelift code generation.",
        header,
        5,
    );
    for case in 0..m.cases.len() {
        for &cl_opt in &columns.cl_opts {
            let at = |level, phase| median_ns(m, case, Variant::Jit { level, cl_opt }, phase);
            let mut row = case_cells(m, case);
            row.push(cl_opt.name().to_string());
            row.push(fmt_scaled(at(OptLevel::O0, Phase::Parse), 1e3, 1));
            for level in [OptLevel::O0, top] {
                row.push(fmt_scaled(at(level, Phase::Passes), 1e3, 1));
                row.push(fmt_scaled(at(level, Phase::Compile), 1e3, 1));
                row.push(fmt_scaled(at(level, Phase::Run), 1e6, 3));
            }
            let share = match (at(top, Phase::Passes), at(top, Phase::Compile)) {
                (Some(p), Some(c)) if c > 0.0 => format!("{:.1}%", 100.0 * p / c),
                _ => "n/a".into(),
            };
            row.push(share);
            row.push(fmt_scaled(
                median_ns(m, case, Variant::Native, Phase::Run),
                1e6,
                3,
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

/// Per-operation figures: time per pool operation beside the run-time counters.
pub fn per_op_markdown(m: &Measurements, columns: &Columns) -> Table {
    let top = columns.top();
    let cl_opt = columns.native_cl();
    let mut header = case_header();
    header.extend([
        "ops".to_string(),
        format!("O0 {cl_opt} ns/op"),
        format!("{} {cl_opt} ns/op", top.name()),
        "native ns/op".to_string(),
        "vec growths/op".to_string(),
        "bytes allocated/op".to_string(),
        "bytes copied/op".to_string(),
    ]);
    let mut t = Table::new(
        "Per operation",
        "An operation is one alloc or one release (counted from n and rounds). Counters are the \
         JIT runtime's vec growths, bytes of grown buffers allocated and bytes copied by growth, \
         per operation; they are identical at every level unless marked `*`.",
        header,
        2,
    );
    for case in 0..m.cases.len() {
        let ops = m.cases[case].operations().max(1) as f64;
        let per_op = |variant| median_ns(m, case, variant, Phase::Run).map(|ns| ns / ops);
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
        let fmt_ns = |v: Option<f64>| v.map_or_else(|| "n/a".to_string(), |v| format!("{v:.2}"));
        row.push(fmt_ns(per_op(Variant::Jit {
            level: OptLevel::O0,
            cl_opt,
        })));
        row.push(fmt_ns(per_op(Variant::Jit { level: top, cl_opt })));
        row.push(fmt_ns(per_op(Variant::Native)));
        row.push(counter(|s| s.vec_growths));
        row.push(counter(|s| s.bytes_allocated));
        row.push(counter(|s| s.bytes_copied));
        t.push(row);
    }
    t
}

fn verdict(value: Option<f64>, limit: f64) -> (String, String) {
    match value {
        Some(v) => (
            format!("{v:.3}"),
            if v <= limit { "met" } else { "NOT met" }.to_string(),
        ),
        None => ("n/a".to_string(), "not measured".to_string()),
    }
}

/// The project's benchmark targets evaluated on this run (O2 only; `None` without O2).
pub fn targets_markdown(
    m: &Measurements,
    columns: &Columns,
    exec: &RatioTable,
    total: &RatioTable,
) -> Option<Table> {
    if !columns.levels.contains(&OptLevel::O2) {
        return None;
    }
    let mut t = Table::new(
        "Targets",
        "The project's targets (docs/benchmarks.md) evaluated on this run's medians. They are \
         stated for the reference sizes.",
        vec![
            "target".into(),
            "measured".into(),
            "limit".into(),
            "verdict".into(),
        ],
        1,
    );
    let mut add = |name: String, value: Option<f64>, limit: f64| {
        let (measured, v) = verdict(value, limit);
        t.push(vec![name, measured, format!("{limit}"), v]);
    };
    for (col, &(level, cl)) in exec.columns.iter().enumerate() {
        if level != OptLevel::O2 {
            continue;
        }
        add(
            format!("execution O2/O0 geomean, {cl}"),
            exec.geomean(col),
            0.85,
        );
        add(
            format!("execution O2/O0 worst workload, {cl}"),
            exec.max(col),
            1.0,
        );
        add(
            format!("JIT total O2/O0 geomean, {cl}"),
            total.geomean(col),
            1.0,
        );
        add(
            format!("JIT total O2/O0 worst workload, {cl}"),
            total.max(col),
            1.0,
        );
        let worst_share = (0..m.cases.len())
            .filter_map(|case| {
                let v = Variant::Jit { level, cl_opt: cl };
                let p = median_ns(m, case, v, Phase::Passes)?;
                let c = median_ns(m, case, v, Phase::Compile)?;
                (c > 0.0).then(|| p / c)
            })
            .reduce(f64::max);
        add(
            format!("O2 passes / Cranelift compile, worst, {cl}"),
            worst_share,
            0.10,
        );
    }
    if columns.native_cl() == ClOpt::Speed {
        add(
            "execution O2 speed / native, geomean".to_string(),
            exec.geomean(exec.columns.len()),
            1.5,
        );
    }
    Some(t)
}

/// Every table of the report, in print order.
pub fn tables(m: &Measurements, columns: &Columns) -> (Vec<Table>, RatioTable) {
    let exec = RatioTable::new(m, columns, Phase::Run);
    let total = RatioTable::new(m, columns, Phase::Total);
    let mut tables = vec![
        ratio_markdown(m, columns, &exec),
        ratio_markdown(m, columns, &total),
        absolute_markdown(m, columns),
        per_op_markdown(m, columns),
    ];
    tables.extend(targets_markdown(m, columns, &exec, &total));
    (tables, exec)
}
