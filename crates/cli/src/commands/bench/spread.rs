//! Spreads and verdicts: a figure is never a single number but the median of a per-sample
//! series with its range.
//!
//! Ratios are *paired*: sample `i` of a configuration is divided by sample `i` of its
//! baseline, which ran in the same round, seconds apart, so slow drifts of the machine cancel.
//! A figure over cases (geomean, worst case) is computed per round over the paired ratios, so
//! it gets a series, a median and a range too. A target is *met* when the whole range is
//! within its limit, *NOT met* when the whole range is outside, and *inconclusive* otherwise.

use super::summary::{geomean, median};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The median of a per-sample series and its range (min–max).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub value: f64,
    pub min: f64,
    pub max: f64,
    /// Number of samples behind the figure.
    pub samples: usize,
}

impl Estimate {
    /// The median and range of `series`; `None` when it is empty or not finite.
    pub fn of(series: &[f64]) -> Option<Estimate> {
        if series.is_empty() || series.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let mut sorted = series.to_vec();
        let value = median(&mut sorted)?;
        Some(Estimate {
            value,
            min: sorted[0],
            max: sorted[sorted.len() - 1],
            samples: series.len(),
        })
    }
}

impl fmt::Display for Estimate {
    /// `0.735 (0.721–0.760)`: the median and the range, three decimals each.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.3} ({:.3}–{:.3})", self.value, self.min, self.max)
    }
}

/// `num[i] / den[i]` for every sample; `None` when the lengths differ or a denominator is 0.
pub fn paired(num: &[f64], den: &[f64]) -> Option<Vec<f64>> {
    if num.len() != den.len() || num.is_empty() || den.iter().any(|d| *d <= 0.0) {
        return None;
    }
    Some(num.iter().zip(den).map(|(n, d)| n / d).collect())
}

/// Per sample index, `combine` applied to that sample of every series (all of equal length).
pub fn across(series: &[Vec<f64>], combine: impl Fn(&[f64]) -> Option<f64>) -> Option<Vec<f64>> {
    let len = series.first()?.len();
    if series.iter().any(|s| s.len() != len) {
        return None;
    }
    (0..len)
        .map(|i| combine(&series.iter().map(|s| s[i]).collect::<Vec<_>>()))
        .collect()
}

/// Geometric mean per sample index.
pub fn geomean_across(series: &[Vec<f64>]) -> Option<Vec<f64>> {
    across(series, geomean)
}

/// Largest value per sample index.
pub fn max_across(series: &[Vec<f64>]) -> Option<Vec<f64>> {
    across(series, |v| v.iter().copied().reduce(f64::max))
}

/// A target's verdict from the range of its figure.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every sample is within the limit.
    Met,
    /// Every sample is beyond the limit.
    NotMet,
    /// The range straddles the limit: more samples or a quieter metric are needed.
    Inconclusive,
    /// The figure was not measured in this run.
    NotMeasured,
}

impl Verdict {
    /// The verdict of "`figure` ≤ `limit`".
    pub fn at_most(figure: Option<Estimate>, limit: f64) -> Verdict {
        match figure {
            None => Verdict::NotMeasured,
            Some(e) if e.max <= limit => Verdict::Met,
            Some(e) if e.min > limit => Verdict::NotMet,
            Some(_) => Verdict::Inconclusive,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Met => "met",
            Verdict::NotMet => "NOT met",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NotMeasured => "not measured",
        }
    }
}

/// How a figure moved against a baseline (critcmp/benchstat style).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// new/old is below 1 over the whole range.
    Smaller,
    /// new/old is above 1 over the whole range.
    Larger,
    /// The range of new/old contains 1.
    Unchanged,
}

impl Change {
    pub fn of(ratio: &Estimate) -> Change {
        if ratio.max < 1.0 {
            Change::Smaller
        } else if ratio.min > 1.0 {
            Change::Larger
        } else {
            Change::Unchanged
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Change::Smaller => "smaller",
            Change::Larger => "LARGER",
            Change::Unchanged => "no change",
        }
    }
}

/// new/old of two independent runs: the ratio of medians, ranging from min(new)/max(old) to
/// max(new)/min(old) (the runs are not paired, so the range is the widest one).
pub fn unpaired_ratio(new: &[f64], old: &[f64]) -> Option<Estimate> {
    let n = Estimate::of(new)?;
    let o = Estimate::of(old)?;
    if o.min <= 0.0 {
        return None;
    }
    Some(Estimate {
        value: n.value / o.value,
        min: n.min / o.max,
        max: n.max / o.min,
        samples: n.samples.min(o.samples),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_are_median_and_range() {
        let e = Estimate::of(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!((e.value, e.min, e.max, e.samples), (2.0, 1.0, 3.0, 3));
        assert!(Estimate::of(&[]).is_none());
        assert!(Estimate::of(&[f64::NAN]).is_none());
        assert_eq!(e.to_string(), "2.000 (1.000–3.000)");
        assert_eq!(
            Estimate::of(&[0.5, 0.5]).unwrap().to_string(),
            "0.500 (0.500–0.500)"
        );
    }

    #[test]
    fn paired_ratios_divide_sample_by_sample() {
        assert_eq!(paired(&[2.0, 3.0], &[4.0, 3.0]), Some(vec![0.5, 1.0]));
        assert_eq!(paired(&[2.0], &[4.0, 3.0]), None);
        assert_eq!(paired(&[2.0], &[0.0]), None);
    }

    #[test]
    fn figures_over_cases_are_per_sample() {
        let s = vec![vec![0.5, 1.0], vec![2.0, 1.0]];
        assert_eq!(geomean_across(&s), Some(vec![1.0, 1.0]));
        assert_eq!(max_across(&s), Some(vec![2.0, 1.0]));
    }

    #[test]
    fn verdicts_come_from_the_range() {
        let e = |min, max| {
            Some(Estimate {
                value: (min + max) / 2.0,
                min,
                max,
                samples: 3,
            })
        };
        assert_eq!(Verdict::at_most(e(0.8, 0.9), 1.0), Verdict::Met);
        assert_eq!(Verdict::at_most(e(1.01, 1.2), 1.0), Verdict::NotMet);
        assert_eq!(Verdict::at_most(e(0.58, 1.03), 1.0), Verdict::Inconclusive);
        assert_eq!(Verdict::at_most(None, 1.0), Verdict::NotMeasured);
    }

    #[test]
    fn baseline_changes() {
        let r = unpaired_ratio(&[90.0, 95.0], &[100.0, 101.0]).unwrap();
        assert_eq!(Change::of(&r), Change::Smaller);
        let r = unpaired_ratio(&[90.0, 110.0], &[100.0, 101.0]).unwrap();
        assert_eq!(Change::of(&r), Change::Unchanged);
    }
}
