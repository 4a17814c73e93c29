//! Where the pipeline's time goes: per pass (runs, changes, wall time) and per analysis (how
//! many times it was computed, wall time). `poolopt opt --time-passes` prints these, after
//! LLVM's `-time-passes`; the counts show whether analyses are recomputed needlessly.
//!
//! The counts are always kept; the clock is read only when asked for
//! ([`crate::PassManager::time_passes`]), as remarks are collected only when asked for: a JIT
//! that only wants the code pays no clock read per pass and analysis.

use std::fmt;
use std::time::{Duration, Instant};

/// The analyses the pass context computes and caches.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Analysis {
    Cfg,
    DomTree,
    Liveness,
    Facts,
    CallGraph,
}

impl Analysis {
    pub const ALL: [Analysis; 5] = [
        Analysis::CallGraph,
        Analysis::Cfg,
        Analysis::DomTree,
        Analysis::Liveness,
        Analysis::Facts,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Analysis::Cfg => "cfg",
            Analysis::DomTree => "dominators",
            Analysis::Liveness => "liveness",
            Analysis::Facts => "facts",
            Analysis::CallGraph => "call-graph",
        }
    }
}

/// How often one pass or analysis ran and how long it took in all.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Timing {
    /// Runs of a pass (one per function), or computations of an analysis.
    pub runs: u64,
    /// Runs that changed the function (passes only).
    pub changed: u64,
    pub time: Duration,
}

impl Timing {
    fn add(&mut self, other: &Timing) {
        self.runs += other.runs;
        self.changed += other.changed;
        self.time += other.time;
    }
}

/// A start time, taken only when timing is on: [`Stopwatch::elapsed`] is then zero.
#[derive(Copy, Clone, Debug)]
pub struct Stopwatch(Option<Instant>);

impl Stopwatch {
    /// Starts now when `on`.
    pub fn start(on: bool) -> Stopwatch {
        Stopwatch(on.then(Instant::now))
    }

    /// The time since the start; zero when timing is off.
    pub fn elapsed(self) -> Duration {
        self.0.map_or(Duration::ZERO, |t| t.elapsed())
    }
}

/// Timings of a pipeline run: passes in pipeline order, then analyses.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PassTimings {
    pub passes: Vec<(&'static str, Timing)>,
    pub analyses: Vec<(Analysis, Timing)>,
}

/// Whether two pass or counter names are equal; names are `&'static str` literals, so the
/// pointer test almost always answers.
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    std::ptr::eq(a, b) || a == b
}

/// The index of the first item `is` accepts, searching from `hint` on and then from the
/// start: merging two lists kept in the same order costs one test per item.
pub(crate) fn find_from<T>(items: &[T], hint: usize, is: impl Fn(&T) -> bool) -> Option<usize> {
    let hint = hint.min(items.len());
    (hint..items.len()).chain(0..hint).find(|&i| is(&items[i]))
}

impl PassTimings {
    /// Records one run of `pass`.
    pub fn record_pass(&mut self, pass: &'static str, changed: bool, time: Duration) {
        self.record_pass_at(0, pass, changed, time);
    }

    /// [`PassTimings::record_pass`] for the pass at position `position` of the pipeline,
    /// where its record is looked for first: the records are kept in pipeline order, so the
    /// first probe finds it (a pass listed twice shares one record, found further on).
    pub fn record_pass_at(
        &mut self,
        position: usize,
        pass: &'static str,
        changed: bool,
        time: Duration,
    ) {
        let t = Timing {
            runs: 1,
            changed: u64::from(changed),
            time,
        };
        self.add_pass_at(position, pass, &t);
    }

    /// Adds `t` (any number of runs) to the record of `pass`, at position `position` of the
    /// pipeline, as [`PassTimings::record_pass_at`] adds one run.
    pub fn add_pass_at(&mut self, position: usize, pass: &'static str, t: &Timing) {
        match find_from(&self.passes, position, |(p, _)| same_name(p, pass)) {
            Some(at) => self.passes[at].1.add(t),
            None => {
                // Room for a whole pipeline at once (O2 has 14 passes), not four growths.
                if self.passes.capacity() == 0 {
                    self.passes.reserve(16);
                }
                self.passes.push((pass, *t))
            }
        }
    }

    /// Records one computation of `analysis` that started at `start`.
    pub fn record_analysis(&mut self, analysis: Analysis, start: Stopwatch) {
        let t = Timing {
            runs: 1,
            changed: 0,
            time: start.elapsed(),
        };
        self.add_analysis(analysis, &t);
    }

    fn add_analysis(&mut self, analysis: Analysis, t: &Timing) {
        match self.analyses.iter_mut().find(|(a, _)| *a == analysis) {
            Some((_, acc)) => acc.add(t),
            None => {
                if self.analyses.capacity() == 0 {
                    self.analyses.reserve(Analysis::ALL.len());
                }
                self.analyses.push((analysis, *t))
            }
        }
    }

    /// Adds another run's timings (same pipeline: a pass is looked for at its own position
    /// first, so merging costs one comparison per pass).
    pub fn merge(&mut self, other: &PassTimings) {
        if self.passes.is_empty() && self.analyses.is_empty() {
            // The common first merge into an empty report: one allocation per list.
            self.passes.clone_from(&other.passes);
            self.analyses.clone_from(&other.analyses);
            return;
        }
        for (k, (pass, t)) in other.passes.iter().enumerate() {
            match find_from(&self.passes, k, |(p, _)| same_name(p, pass)) {
                Some(i) => self.passes[i].1.add(t),
                None => self.passes.push((pass, *t)),
            }
        }
        for (a, t) in &other.analyses {
            self.add_analysis(*a, t);
        }
    }

    /// How many times `analysis` was computed.
    pub fn computed(&self, analysis: Analysis) -> u64 {
        self.analyses
            .iter()
            .find(|(a, _)| *a == analysis)
            .map_or(0, |(_, t)| t.runs)
    }

    /// Total time of the passes (their analyses included).
    pub fn pass_total(&self) -> Duration {
        self.passes.iter().map(|(_, t)| t.time).sum()
    }
}

impl fmt::Display for PassTimings {
    /// A table like LLVM's `-time-passes`: one row per pass and per analysis.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.pass_total().as_secs_f64().max(f64::MIN_POSITIVE);
        writeln!(f, "===== pass execution timing report =====")?;
        writeln!(
            f,
            "{:>12} {:>7} {:>6} {:>8}  name",
            "wall (ms)", "%", "runs", "changed"
        )?;
        for (pass, t) in &self.passes {
            let s = t.time.as_secs_f64();
            writeln!(
                f,
                "{:>12.3} {:>6.1}% {:>6} {:>8}  {pass}",
                s * 1e3,
                100.0 * s / total,
                t.runs,
                t.changed
            )?;
        }
        writeln!(f, "{:>12.3} {:>6.1}%  total", total * 1e3, 100.0)?;
        writeln!(
            f,
            "===== analyses (computed, inside the passes' time) ====="
        )?;
        writeln!(f, "{:>12} {:>8}  name", "wall (ms)", "computed")?;
        for a in Analysis::ALL {
            let t = self
                .analyses
                .iter()
                .find(|(x, _)| *x == a)
                .map_or(Timing::default(), |(_, t)| *t);
            writeln!(
                f,
                "{:>12.3} {:>8}  {}",
                t.time.as_secs_f64() * 1e3,
                t.runs,
                a.name()
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_names_at_different_addresses_are_one_name() {
        let copy = String::from("dead-local-elim");
        assert!(same_name("dead-local-elim", &copy));
        assert!(!same_name("dead-local-elim", "copy-prop"));
    }

    #[test]
    fn merging_adds_runs_changes_times_and_computations() {
        let ms = Duration::from_millis;
        let mut first = PassTimings::default();
        first.record_pass("copy-prop", true, ms(2));
        first.record_pass("copy-prop", false, ms(3));
        first.add_analysis(
            Analysis::Cfg,
            &Timing {
                runs: 1,
                changed: 0,
                time: ms(1),
            },
        );
        first.record_analysis(Analysis::Cfg, Stopwatch::start(true));
        let mut second = PassTimings::default();
        // Its own name, not the literal: merging compares the text.
        let name: &'static str = String::from("copy-prop").leak();
        second.record_pass(name, true, ms(5));
        second.record_pass("simplify-cfg", false, ms(7));
        second.record_analysis(Analysis::Liveness, Stopwatch::start(true));
        second.record_analysis(Analysis::Cfg, Stopwatch::start(true));
        let mut all = PassTimings::default();
        all.merge(&first);
        all.merge(&second);
        assert_eq!(all.passes.len(), 2, "{:?}", all.passes);
        let (pass, t) = all.passes[0];
        assert_eq!(
            (pass, t.runs, t.changed, t.time),
            ("copy-prop", 3, 2, ms(10))
        );
        assert_eq!(all.passes[1].1.runs, 1);
        assert_eq!(all.pass_total(), ms(17));
        assert_eq!(all.computed(Analysis::Cfg), 3);
        assert_eq!(all.computed(Analysis::Liveness), 1);
        assert_eq!(all.computed(Analysis::Facts), 0);
        assert!(all.analyses[0].1.time >= ms(1));
    }

    #[test]
    fn a_pass_listed_twice_shares_one_record_whatever_its_position() {
        // `--passes copy-prop,simplify-cfg,copy-prop`, run on two functions: the third
        // position's hint points past the records, and its name is found at the first.
        let mut t = PassTimings::default();
        for _ in 0..2 {
            for (position, pass) in ["copy-prop", "simplify-cfg", "copy-prop"]
                .into_iter()
                .enumerate()
            {
                t.record_pass_at(position, pass, position == 2, Duration::ZERO);
            }
        }
        let runs: Vec<(&str, u64, u64)> = t
            .passes
            .iter()
            .map(|(p, t)| (*p, t.runs, t.changed))
            .collect();
        assert_eq!(runs, [("copy-prop", 4, 2), ("simplify-cfg", 2, 0)]);
        // A wrong hint only costs probes: the record is still found.
        t.record_pass_at(7, "simplify-cfg", true, Duration::ZERO);
        assert_eq!(t.passes[1].1.changed, 1);
    }

    #[test]
    fn the_report_names_every_analysis_with_its_count() {
        let mut t = PassTimings::default();
        t.record_pass("inline", false, Duration::ZERO);
        for _ in 0..4 {
            t.record_analysis(Analysis::DomTree, Stopwatch::start(true));
        }
        let text = t.to_string();
        let row = |name: &str| {
            text.lines()
                .find(|l| l.ends_with(&format!("  {name}")))
                .unwrap_or_else(|| panic!("no row for {name}:\n{text}"))
                .split_whitespace()
                .nth(1)
                .map(str::to_owned)
        };
        assert_eq!(row("dominators").as_deref(), Some("4"));
        for name in ["cfg", "liveness", "facts", "call-graph"] {
            assert_eq!(row(name).as_deref(), Some("0"), "{name}");
        }
        let inline = text.lines().find(|l| l.ends_with("  inline")).unwrap();
        assert_eq!(inline.split_whitespace().nth(2), Some("1"), "{inline}");
    }
}
