//! Optimization remarks (what a pass changed, and what it looked at and left, with the reason)
//! and per-pass statistics counters.

use crate::timing::{find_from, same_name};
use poolopt_ir::Loc;
use std::fmt;

/// Whether a remark reports a change or a missed opportunity.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum RemarkKind {
    /// The pass transformed the code here.
    Applied,
    /// The pass looked at this code and left it, for the stated reason.
    Missed,
}

impl RemarkKind {
    pub fn name(self) -> &'static str {
        match self {
            RemarkKind::Applied => "applied",
            RemarkKind::Missed => "missed",
        }
    }
}

/// One remark: which pass, what kind, where (function, block, source location), and why.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Remark {
    pub pass: &'static str,
    pub kind: RemarkKind,
    pub function: String,
    pub block: String,
    pub loc: Loc,
    pub message: String,
}

impl fmt::Display for Remark {
    /// `line 14: bounds-check-elim: applied: in alloc/reuse: pop check removed: ...`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.loc.is_known() {
            write!(f, "line {}: ", self.loc.line)?;
        }
        write!(
            f,
            "{}: {}: in {}/{}: {}",
            self.pass,
            self.kind.name(),
            self.function,
            self.block,
            self.message
        )
    }
}

/// Counters by (pass, counter name), kept in the order they were first bumped.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Stats {
    entries: Vec<(&'static str, &'static str, u64)>,
}

impl Stats {
    /// Adds `n` to counter `counter` of pass `pass`.
    pub fn add(&mut self, pass: &'static str, counter: &'static str, n: u64) {
        self.add_from(0, pass, counter, n);
    }

    /// [`Stats::add`], looking from position `hint` on first; returns the counter's position.
    pub(crate) fn add_from(
        &mut self,
        hint: usize,
        pass: &'static str,
        counter: &'static str,
        n: u64,
    ) -> usize {
        let found = find_from(&self.entries, hint, |&(p, c, _)| {
            same_name(c, counter) && same_name(p, pass)
        });
        match found {
            Some(i) => {
                self.entries[i].2 += n;
                i
            }
            None => {
                self.entries.push((pass, counter, n));
                self.entries.len() - 1
            }
        }
    }

    /// The value of one counter (0 when never bumped).
    pub fn get(&self, pass: &str, counter: &str) -> u64 {
        self.entries
            .iter()
            .find(|(p, c, _)| *p == pass && *c == counter)
            .map_or(0, |e| e.2)
    }

    /// All counters as (pass, counter, value).
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &'static str, u64)> + '_ {
        self.entries.iter().copied()
    }

    /// Orders the counters by the position of their pass in `passes` (pipeline order), keeping
    /// the first-bumped order within a pass.
    pub fn sort_by_pass(&mut self, passes: &[&str]) {
        // Each counter's rank once (not once per comparison), then a sort by (rank, position):
        // the stable order, without comparing names in the sort.
        // Consecutive counters are mostly a single pass's: its rank is tried first.
        let mut last = 0;
        let mut rank = |p: &str| {
            if passes.get(last).is_some_and(|q| same_name(q, p)) {
                return last;
            }
            last = passes
                .iter()
                .position(|q| same_name(q, p))
                .unwrap_or(passes.len());
            last
        };
        let mut keyed: Vec<(usize, usize)> = self
            .entries
            .iter()
            .enumerate()
            .map(|(at, (p, _, _))| (rank(p), at))
            .collect();
        if keyed.windows(2).all(|w| w[0] <= w[1]) {
            return;
        }
        keyed.sort_unstable();
        self.entries = keyed.into_iter().map(|(_, at)| self.entries[at]).collect();
    }

    /// Whether no counter was bumped.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many counters were bumped.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Merges another set of counters into this one.
    pub fn merge(&mut self, other: &Stats) {
        if self.entries.is_empty() {
            self.entries.clone_from(&other.entries);
            return;
        }
        self.entries.reserve(other.entries.len());
        // Counters are bumped in much the same order for every function: each is looked for
        // right after the previous one first.
        let mut hint = 0;
        for (p, c, n) in other.iter() {
            hint = self.add_from(hint, p, c, n) + 1;
        }
    }
}

impl fmt::Display for Stats {
    /// One line per counter: `<pass-name> <counter> <value>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (p, c, n) in self.iter() {
            writeln!(f, "{p} {c} {n}")?;
        }
        Ok(())
    }
}
