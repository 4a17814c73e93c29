//! The machine-readable form of a benchmark run (`--format json`, and `bench.json` under
//! `--out`, which `--baseline` reads back). The schema is documented in docs/benchmarks.md;
//! [`SCHEMA`] names its version.

use super::error::BenchError;
use super::metric::MetricInfo;
use super::protocol::{Measurements, Variant};
use super::report::{Figures, RatioTable};
use super::spread::{Estimate, Verdict};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The schema identifier every document carries.
pub const SCHEMA: &str = "poolopt-bench/1";

/// A whole run.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct BenchDoc {
    pub schema: String,
    pub metric: MetricInfo,
    /// Unit of every sample value: `ns`, `instructions` or `cycles`.
    pub unit: String,
    pub warmups: usize,
    pub reps: usize,
    /// The environment: command, date, git revisions, Cranelift, build profile, CPU, cores,
    /// OS, rustc.
    pub fingerprint: BTreeMap<String, String>,
    pub cases: Vec<CaseDoc>,
    pub configs: Vec<ConfigDoc>,
    pub samples: Vec<SampleDoc>,
    #[serde(default)]
    pub tables: Vec<TableDoc>,
    #[serde(default)]
    pub targets: Vec<TargetDoc>,
}

/// A workload at one slot size and problem size, with its expected checksum.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct CaseDoc {
    pub workload: String,
    pub bytes: u32,
    pub n: i64,
    pub rounds: i64,
    pub expected: i64,
}

/// A configuration: a case at a level (`O0`, `O1`, `O2`, or `native`) and Cranelift level
/// (`none`, `speed`; `null` for native).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct ConfigDoc {
    pub case: usize,
    pub level: String,
    pub cl_opt: Option<String>,
}

/// One measured run: its phases in the metric's unit and its result.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SampleDoc {
    pub config: usize,
    /// 1-based sample index (= measured round).
    pub sample: usize,
    pub result: i64,
    pub parse: u64,
    pub passes: u64,
    pub compile: u64,
    pub run: u64,
    pub total: u64,
}

/// A ratio table: one row per case plus the geometric mean.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct TableDoc {
    pub title: String,
    /// `run` (execution) or `total` (JIT total).
    pub phase: String,
    /// Column labels: `O1 none`, …, and last `O2 speed / native`.
    pub columns: Vec<String>,
    pub rows: Vec<RowDoc>,
    pub geomean: Vec<Option<Estimate>>,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct RowDoc {
    pub case: usize,
    /// One per column; `null` where not measured.
    pub cells: Vec<Option<Estimate>>,
}

/// A target and its verdict.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct TargetDoc {
    pub id: String,
    pub name: String,
    pub figure: Option<Estimate>,
    pub limit: f64,
    pub verdict: Verdict,
}

fn config_doc(m: &Measurements, i: usize) -> ConfigDoc {
    let c = m.configs[i];
    ConfigDoc {
        case: c.case,
        level: c.variant.level_name().to_string(),
        cl_opt: match c.variant {
            Variant::Jit { cl_opt, .. } => Some(cl_opt.name().to_string()),
            Variant::Native => None,
        },
    }
}

pub fn case_docs(cases: &[super::workloads::Case]) -> Vec<CaseDoc> {
    cases
        .iter()
        .map(|c| CaseDoc {
            workload: c.workload.name().to_string(),
            bytes: c.elem.bytes(),
            n: c.n,
            rounds: c.rounds,
            expected: c.expected,
        })
        .collect()
}

fn table_doc(t: &RatioTable) -> TableDoc {
    let (title, _) = super::report::ratio_title(t.phase);
    let mut columns: Vec<String> = t
        .columns
        .iter()
        .map(|(l, c)| format!("{} {c}", l.name()))
        .collect();
    columns.push("native".to_string());
    TableDoc {
        title: title.to_string(),
        phase: t.phase.name().to_string(),
        rows: t
            .rows
            .iter()
            .enumerate()
            .map(|(row, r)| RowDoc {
                case: r.case,
                cells: (0..columns.len()).map(|col| t.cell(row, col)).collect(),
            })
            .collect(),
        geomean: (0..columns.len()).map(|col| t.geomean(col)).collect(),
        columns,
    }
}

/// The document of a run.
pub fn document(
    m: &Measurements,
    figures: &Figures,
    fingerprint: &[(String, String)],
    warmups: usize,
    reps: usize,
) -> BenchDoc {
    BenchDoc {
        schema: SCHEMA.to_string(),
        metric: m.metric,
        unit: m.metric.unit().to_string(),
        warmups,
        reps,
        fingerprint: fingerprint.iter().cloned().collect(),
        cases: case_docs(&m.cases),
        configs: (0..m.configs.len()).map(|i| config_doc(m, i)).collect(),
        samples: m
            .samples
            .iter()
            .map(|s| SampleDoc {
                config: s.config,
                sample: s.index + 1,
                result: s.result,
                parse: s.phases.parse,
                passes: s.phases.passes,
                compile: s.phases.compile,
                run: s.phases.run,
                total: s.phases.total(),
            })
            .collect(),
        tables: vec![table_doc(&figures.exec), table_doc(&figures.total)],
        targets: figures
            .targets
            .iter()
            .map(|t| TargetDoc {
                id: t.id.clone(),
                name: t.name.clone(),
                figure: t.figure,
                limit: t.limit,
                verdict: t.verdict,
            })
            .collect(),
    }
}

/// Reads `DIR/bench.json` (or a JSON file given directly).
pub fn load(path: &Path) -> Result<BenchDoc, BenchError> {
    let file = if path.is_dir() {
        path.join("bench.json")
    } else {
        path.to_path_buf()
    };
    let text = std::fs::read_to_string(&file).map_err(|e| {
        BenchError::Usage(format!(
            "--baseline: cannot read {}: {e} (a baseline is a directory written by `poolopt \
             bench --out DIR`)",
            file.display()
        ))
    })?;
    let doc: BenchDoc = serde_json::from_str(&text).map_err(|e| {
        BenchError::Usage(format!(
            "--baseline: {} is not a bench document: {e}",
            file.display()
        ))
    })?;
    if doc.schema != SCHEMA {
        return Err(BenchError::Usage(format!(
            "--baseline: {} has schema `{}`; this poolopt reads `{SCHEMA}`",
            file.display(),
            doc.schema
        )));
    }
    Ok(doc)
}
