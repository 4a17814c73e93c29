//! Reducing samples to figures: medians per configuration and phase, the per-sample series of
//! a configuration, and geometric means (each case weighs the same).

use super::protocol::{Measurements, Phases, Variant};

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

    /// This phase's value in a run's phases (metric units).
    pub fn of(self, phases: &Phases) -> u64 {
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

/// The `phase` values of the configuration of `case` with `variant`, in sample order.
pub fn series(m: &Measurements, case: usize, variant: Variant, phase: Phase) -> Option<Vec<f64>> {
    let config = m.config_index(case, variant)?;
    let values: Vec<f64> = m
        .samples_of(config)
        .map(|s| phase.of(&s.phases) as f64)
        .collect();
    (!values.is_empty()).then_some(values)
}

/// Median `phase` value (metric units) of the configuration of `case` with `variant`.
pub fn median_of(m: &Measurements, case: usize, variant: Variant, phase: Phase) -> Option<f64> {
    median(&mut series(m, case, variant, phase)?)
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
