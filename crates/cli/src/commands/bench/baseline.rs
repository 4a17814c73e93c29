//! A/B against a saved run (`--baseline DIR`, after critcmp and benchstat): the same matrix is
//! measured again and every configuration's median is divided by the baseline's, with the
//! range of that ratio.
//!
//! A comparison is refused (usage error, before anything is measured) when the two runs do
//! not measure the same thing: another metric, other cases, other problem sizes or other
//! expected checksums. A different machine or toolchain is reported loudly but compared.

use super::error::BenchError;
use super::json::{BenchDoc, CaseDoc};
use super::markdown::Table;
use super::metric::MetricInfo;
use super::protocol::Measurements;
use super::spread::{unpaired_ratio, Change, Estimate};
use super::summary::Phase;
use std::collections::BTreeMap;

/// Fingerprint fields that must agree for a comparison to mean the same machine and build.
const MACHINE_KEYS: [&str; 6] = ["cpu", "cores", "os", "cranelift", "build profile", "rustc"];

/// Refuses a baseline that measured something else: metric, cases, sizes or checksums.
pub fn check_compatible(
    old: &BenchDoc,
    metric: MetricInfo,
    cases: &[CaseDoc],
) -> Result<(), BenchError> {
    if old.metric != metric {
        return Err(BenchError::Usage(format!(
            "--baseline: the baseline measured {}, this run measures {}; rerun with the \
             baseline's --metric",
            old.metric.label(),
            metric.label()
        )));
    }
    let mut problems = Vec::new();
    for case in cases {
        let label = format!("{}_{}", case.workload, case.bytes);
        match old
            .cases
            .iter()
            .find(|c| c.workload == case.workload && c.bytes == case.bytes)
        {
            None => problems.push(format!("{label} is not in the baseline")),
            Some(o) if (o.n, o.rounds) != (case.n, case.rounds) => problems.push(format!(
                "{label}: workload size differs (baseline n={} rounds={}, now n={} rounds={})",
                o.n, o.rounds, case.n, case.rounds
            )),
            Some(o) if o.expected != case.expected => problems.push(format!(
                "{label}: expected checksum differs (baseline {}, now {})",
                o.expected, case.expected
            )),
            Some(_) => {}
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(BenchError::Usage(format!(
            "--baseline: refusing to compare runs that measured different things:\n  {}",
            problems.join("\n  ")
        )))
    }
}

/// `key: baseline → now` for every machine fingerprint field that differs.
pub fn machine_differences(
    old: &BTreeMap<String, String>,
    new: &[(String, String)],
) -> Vec<String> {
    let unknown = String::from("unknown");
    MACHINE_KEYS
        .iter()
        .filter_map(|key| {
            let o = old.get(*key).unwrap_or(&unknown);
            let n = new
                .iter()
                .find(|(k, _)| k == key)
                .map_or(&unknown, |(_, v)| v);
            (o != n).then(|| format!("{key}: `{o}` (baseline) vs `{n}` (now)"))
        })
        .collect()
}

/// The baseline's values of one phase for the configuration matching `config` of `m`.
fn old_series(old: &BenchDoc, m: &Measurements, config: usize, phase: Phase) -> Option<Vec<f64>> {
    let c = m.configs[config];
    let case = &m.cases[c.case];
    let old_case = old
        .cases
        .iter()
        .position(|o| o.workload == case.workload.name() && o.bytes == case.elem.bytes())?;
    let cl = match c.variant {
        super::protocol::Variant::Jit { cl_opt, .. } => Some(cl_opt.name().to_string()),
        super::protocol::Variant::Native => None,
    };
    let old_config = old
        .configs
        .iter()
        .position(|o| o.case == old_case && o.level == c.variant.level_name() && o.cl_opt == cl)?;
    let values: Vec<f64> = old
        .samples
        .iter()
        .filter(|s| s.config == old_config)
        .map(|s| match phase {
            Phase::Parse => s.parse,
            Phase::Passes => s.passes,
            Phase::Compile => s.compile,
            Phase::Run => s.run,
            Phase::Total => s.total,
        } as f64)
        .collect();
    (!values.is_empty()).then_some(values)
}

/// Samples per side a noisy metric needs before a range that excludes 1 counts as a change:
/// with 5 against 5, all new samples fall below all old ones by chance once in 252 rows.
pub const MIN_SAMPLES_FOR_CHANGE: usize = 5;

/// `smaller`, `LARGER` or `no change`, with `?` when a noisy metric has too few samples.
fn change_label(ratio: &Estimate, deterministic: bool) -> String {
    let change = Change::of(ratio);
    if change != Change::Unchanged && !deterministic && ratio.samples < MIN_SAMPLES_FOR_CHANGE {
        format!("{}?", change.name())
    } else {
        change.name().to_string()
    }
}

/// The comparison tables: run and JIT total, one row per configuration.
pub fn compare_markdown(
    m: &Measurements,
    old: &BenchDoc,
    baseline: &str,
    differences: &[String],
) -> Vec<Table> {
    let deterministic = m.metric.source.is_deterministic();
    let warning = if differences.is_empty() {
        String::new()
    } else {
        format!(
            " **WARNING: the machines differ** ({}); the ratios mix machine and code changes.",
            differences.join("; ")
        )
    };
    [Phase::Run, Phase::Total]
        .into_iter()
        .map(|phase| {
            let what = match phase {
                Phase::Run => "execution",
                _ => "JIT total",
            };
            let mut t = Table::new(
                format!("Against the baseline: {what}, new / old"),
                format!(
                    "Metric: {}. Baseline `{baseline}` (git {}), now git {}. Each row: median \
                     now / median in the baseline, and the range min(now)/max(old) – \
                     max(now)/min(old); `smaller` or `LARGER` when the whole range is below or \
                     above 1; marked `?` when that rests on fewer than {MIN_SAMPLES_FOR_CHANGE} \
                     samples per side of a noisy metric (with 3 against 3, one row in 20 shows \
                     a change by chance).{warning}",
                    m.metric.label(),
                    old.fingerprint
                        .get("git revision")
                        .map_or("unknown", String::as_str),
                    super::fingerprint::build_revision()
                ),
                [
                    "workload",
                    "bytes",
                    "level",
                    "cl_opt",
                    &format!("old {}", m.metric.unit()),
                    &format!("new {}", m.metric.unit()),
                    "new / old",
                    "change",
                ]
                .into_iter()
                .map(String::from)
                .collect(),
                4,
            );
            for (i, c) in m.configs.iter().enumerate() {
                if phase == Phase::Total && c.variant == super::protocol::Variant::Native {
                    continue;
                }
                let case = &m.cases[c.case];
                let new: Vec<f64> = m
                    .samples_of(i)
                    .map(|s| phase.of(&s.phases) as f64)
                    .collect();
                let old_values = old_series(old, m, i, phase);
                let med = |v: &[f64]| Estimate::of(v).map(|e| e.value);
                let ratio = old_values.as_deref().and_then(|o| unpaired_ratio(&new, o));
                let fmt =
                    |v: Option<f64>| v.map_or_else(|| "n/a".to_string(), |v| format!("{v:.0}"));
                t.push(vec![
                    case.workload.name().to_string(),
                    case.elem.bytes().to_string(),
                    c.variant.level_name().to_string(),
                    c.variant.cl_name().to_string(),
                    fmt(old_values.as_deref().and_then(med)),
                    fmt(med(&new)),
                    ratio.map_or_else(|| "n/a".to_string(), |r| r.to_string()),
                    ratio.map_or_else(|| "n/a".to_string(), |r| change_label(&r, deterministic)),
                ]);
            }
            t
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_differences_name_the_field() {
        let old: BTreeMap<String, String> =
            [("cpu".to_string(), "A".to_string())].into_iter().collect();
        let new = vec![("cpu".to_string(), "B".to_string())];
        let d = machine_differences(&old, &new);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].starts_with("cpu: `A`"));
    }
}
