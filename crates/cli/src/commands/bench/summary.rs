//! Reducing samples to figures: medians per configuration and phase, ratios of medians, and
//! geometric means of ratios (each case weighs the same).

use super::protocol::{Measurements, Phases, Variant};
use std::time::Duration;

/// Which time of a run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    Parse,
    Passes,
    Compile,
    Run,
    /// Parse + passes + compile + run.
    Total,
}

impl Phase {
    pub const ALL: [Phase; 5] = [
        Phase::Parse,
        Phase::Passes,
        Phase::Compile,
        Phase::Run,
        Phase::Total,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Parse => "parse",
            Phase::Passes => "passes",
            Phase::Compile => "compile",
            Phase::Run => "run",
            Phase::Total => "total",
        }
    }

    pub fn of(self, phases: &Phases) -> Duration {
        match self {
            Phase::Parse => phases.parse,
            Phase::Passes => phases.passes,
            Phase::Compile => phases.compile,
            Phase::Run => phases.run,
            Phase::Total => phases.total(),
        }
    }
}

/// The median of `values` (mean of the middle two for an even count); `None` when empty.
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

/// The geometric mean of positive finite `values`; `None` when there are none.
pub fn geomean(values: &[f64]) -> Option<f64> {
    let logs: Vec<f64> = values
        .iter()
        .filter(|v| v.is_finite() && **v > 0.0)
        .map(|v| v.ln())
        .collect();
    if logs.is_empty() || logs.len() != values.len() {
        return None;
    }
    Some((logs.iter().sum::<f64>() / logs.len() as f64).exp())
}

/// Median `phase` time, in nanoseconds, of the configuration of `case` with `variant`.
pub fn median_ns(m: &Measurements, case: usize, variant: Variant, phase: Phase) -> Option<f64> {
    let config = m.config_index(case, variant)?;
    let mut values: Vec<f64> = m
        .samples_of(config)
        .map(|s| phase.of(&s.phases).as_nanos() as f64)
        .collect();
    median(&mut values)
}

/// median(`num`) / median(`den`) of `phase` for `case`; `None` when either is missing or the
/// denominator is zero.
pub fn ratio(
    m: &Measurements,
    case: usize,
    num: Variant,
    den: Variant,
    phase: Phase,
) -> Option<f64> {
    let n = median_ns(m, case, num, phase)?;
    let d = median_ns(m, case, den, phase)?;
    (d > 0.0).then(|| n / d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn geomeans() {
        assert_eq!(geomean(&[]), None);
        let g = geomean(&[0.5, 2.0]).unwrap();
        assert!((g - 1.0).abs() < 1e-12);
        assert_eq!(geomean(&[1.0, 0.0]), None);
    }
}
