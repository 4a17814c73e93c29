//! The lattice operations on fact sets: the meet of two sets where control flow joins, and the
//! widenings at loop headers, with the work space they keep across calls.

use super::search::SourceDistances;
use super::{Constraint, FactQueries, FactSet, FactView, MAX_LEN};
use std::cell::RefCell;

/// Visits of a loop header after which its widening is [`FactSet::widen_strict`].
pub const STRICT_AFTER: u32 = 4;

thread_local! {
    /// The work space of meets and widenings ([`MeetScratch`]), kept across calls so that
    /// they allocate nothing once its tables and buffer have grown to the function's terms.
    static MEET_SCRATCH: RefCell<MeetScratch> = RefCell::default();
}

/// Runs `f` with the thread's meet work space, its tables emptied (a fresh one if it is in
/// use further up the stack).
fn with_meet_scratch<R>(f: impl FnOnce(&mut MeetScratch) -> R) -> R {
    MEET_SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => {
            scratch.mine.reset();
            scratch.theirs.reset();
            f(&mut scratch)
        }
        Err(_) => f(&mut MeetScratch::default()),
    })
}

/// The work space of a meet or a widening, kept across calls: a single-source table per side
/// and the buffer the meet's result is built in (it then swaps with the set's own, so a meet
/// allocates nothing once the buffers have grown).
#[derive(Default)]
struct MeetScratch {
    mine: SourceDistances,
    theirs: SourceDistances,
    cons: Vec<Constraint>,
}

impl FactSet {
    /// `self ∩ other`: for every pair of terms that either side constrains, the weaker of the
    /// two sides' bounds, where a side that does not record the pair contributes what its
    /// constraints imply by a path (so `i == 0` on one side and `i <= len(a)` on the other
    /// keep `i <= len(a)`, which `i <= 0 <= len(a)` implies); a pair that one side does not
    /// bound at all goes. A compare stays when both have it.
    ///
    /// Returns how many path questions it asked (a pair one side does not record): each is
    /// at most a bounded search over a set, what the fact analysis's work budget charges.
    pub fn meet_with(&mut self, other: FactView<'_>) -> usize {
        with_meet_scratch(|scratch| self.meet_using(other, scratch))
    }

    /// [`FactSet::meet_with`], asking each side's paths through a single-source table (the
    /// pairs come sorted by source, so one walk answers a run of them).
    fn meet_using(&mut self, other: FactView<'_>, scratch: &mut MeetScratch) -> usize {
        let MeetScratch {
            mine: mine_paths,
            theirs: their_paths,
            cons: out,
        } = scratch;
        out.clear();
        let mut questions = 0;
        let (mut i, mut j) = (0, 0);
        loop {
            let (key, mine, theirs) = match (self.cons.get(i), other.cons.get(j)) {
                (Some(x), Some(y)) if x.packed_key() == y.packed_key() => {
                    i += 1;
                    j += 1;
                    (x.key(), Some(x.c as i128), Some(y.c as i128))
                }
                (Some(x), y) if y.is_none_or(|y| x.packed_key() < y.packed_key()) => {
                    i += 1;
                    questions += 1;
                    let more = self.cons.get(i).is_some_and(|n| n.a == x.a);
                    let theirs = their_paths.dist(other, x.a, x.b, more);
                    (x.key(), Some(x.c as i128), theirs)
                }
                (_, Some(y)) => {
                    j += 1;
                    questions += 1;
                    let more = other.cons.get(j).is_some_and(|n| n.a == y.a);
                    (
                        y.key(),
                        mine_paths.dist(self.view(), y.a, y.b, more),
                        Some(y.c as i128),
                    )
                }
                _ => break,
            };
            if let (Some(m), Some(t)) = (mine, theirs) {
                // Offsets beyond ±MAX_LEN only restate `len <= MAX_LEN` and would make loop
                // headers flip between sweeps: not kept.
                let c = m.max(t);
                if c.abs() <= MAX_LEN as i128 / 2
                    && !Constraint::implied_by_length(key.0, key.1, c as i64)
                {
                    out.push(Constraint::new(key.0, key.1, c as i64));
                }
            }
        }
        std::mem::swap(&mut self.cons, out);
        self.cmps.retain(|f| other.cmps.contains(f));
        self.quotients.retain(|q| other.quotients.contains(q));
        questions
    }

    /// Widening at a loop header: a constraint stays only if the last visit's state bounded
    /// its pair at least as tightly (directly or by a path); one that grew, or that the old
    /// state did not bound at all, is dropped rather than weakened step by step, so loops
    /// reach a fixpoint after a bounded number of sweeps. Returns how many path questions it
    /// asked (as [`FactSet::meet_with`]).
    pub fn widen(&mut self, old: FactView<'_>) -> usize {
        with_meet_scratch(|scratch| {
            let mut questions = 0;
            let paths = &mut scratch.mine;
            // The kept constraints are moved down in place (each decision reads only `k`,
            // the pair after it, still unmoved, and `old`).
            let mut kept = 0;
            // Where `k`'s pair is in the old state's constraints (both sorted by pair: one
            // merge instead of a binary search per constraint).
            let mut o = 0;
            for at in 0..self.cons.len() {
                let k = self.cons[at];
                let key = k.packed_key();
                while old.cons.get(o).is_some_and(|r| r.packed_key() < key) {
                    o += 1;
                }
                let recorded = old.cons.get(o).filter(|r| r.packed_key() == key);
                // The old state's recorded offset bounds its shortest path: a smaller one
                // there already rejects `k` without a search.
                let keep = if recorded.is_some_and(|r| r.c < k.c) {
                    false
                } else {
                    let more = self.cons.get(at + 1).is_some_and(|n| n.a == k.a);
                    questions += 1;
                    paths
                        .dist(old, k.a, k.b, more)
                        .is_some_and(|d| k.c as i128 <= d)
                };
                if keep {
                    self.cons[kept] = k;
                    kept += 1;
                }
            }
            self.cons.truncate(kept);
            questions
        })
    }

    /// The strict widening used once a header has been visited [`STRICT_AFTER`] times (the
    /// default of `FactLimits::strict_after`): a constraint stays only if the old state
    /// recorded its pair directly with an offset at least as large, so the pairs only shrink
    /// from then on.
    pub fn widen_strict(&mut self, old: FactView<'_>) {
        self.cons.retain(|k| {
            old.cons
                .binary_search_by_key(&k.packed_key(), Constraint::packed_key)
                .is_ok_and(|at| old.cons[at].c >= k.c)
        });
    }
}
