//! The distance search over difference constraints: how a query reads a set as a graph.
//!
//! Queries ([`FactQueries::implies`]) read the set as a graph — an edge `a → b` of weight `c`
//! per constraint — and look for a short path (a bounded Bellman–Ford of [`SEARCH_DEPTH`]
//! rounds from the source; a forward walk first indexes the set's constraints by their first
//! term, once for all the walks a meet or a widening takes over one side): a path of total
//! weight `w` from `a` to `b` proves `a <= b + w`, because difference constraints compose by
//! addition. Two implicit edges model what is always true of a length: `0 <= len(v)` and
//! `len(v) <= 2^62` ([`MAX_LEN`]). A contradictory set (a negative cycle) only arises on paths
//! that cannot execute, where any answer is sound; the bounded search terminates regardless.
//!
//! The work spaces (a per-thread [`Search`], the single-source tables [`SourceDistances`] of
//! the meets and widenings) are kept across queries, so a query allocates nothing once they
//! have grown to the function's terms.

use super::{Constraint, FactQueries, FactView, Term, MAX_LEN};
use std::cell::RefCell;

/// How many edges a query path may have. Deep enough for `i → t → n → len(v)` (an index, a
/// temporary derived from it, a local holding the length, the length).
pub const SEARCH_DEPTH: usize = 5;

thread_local! {
    /// The work space of [`FactSet::dist`](FactQueries::dist), kept across queries.
    static SEARCH: RefCell<Search> = RefCell::new(Search::default());
}

/// The length a table indexed by term grows to so that it holds index `at`: at least twice
/// as long, and at first room for the terms of 63 locals (a function's terms come in
/// increasing order as its sets are searched, and a table grown one entry at a time was
/// reallocated at each new term).
fn table_len(at: usize) -> usize {
    (at + 1).next_power_of_two().max(128)
}

/// Room a search's frontier lists get at their first use (they grew four times to it).
const FRONTIER_ROOM: usize = 32;

/// Distances indexed by term, cleared in O(1): an entry counts only if it carries the table's
/// current generation.
#[derive(Default)]
struct StampedDistances {
    generation: u32,
    entries: Vec<(u32, i128)>,
}

impl StampedDistances {
    /// Forgets every entry.
    fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.entries.iter_mut().for_each(|e| e.0 = 0);
            self.generation = 1;
        }
    }

    /// The distance recorded for `t`, if any.
    fn get(&self, t: Term) -> Option<i128> {
        self.entries
            .get(t.0 as usize)
            .filter(|e| e.0 == self.generation)
            .map(|e| e.1)
    }

    /// Records `d` for `t` if `t` has none or a larger one; whether it did.
    fn lower(&mut self, t: Term, d: i128) -> bool {
        let at = t.0 as usize;
        let e = match self.entries.get_mut(at) {
            Some(e) => e,
            None => {
                self.entries.resize(table_len(at), (0, 0));
                &mut self.entries[at]
            }
        };
        if e.0 != self.generation || d < e.1 {
            *e = (self.generation, d);
            true
        } else {
            false
        }
    }
}

/// The state of one shortest-path query, reusable across queries.
#[derive(Default)]
pub(super) struct Search {
    /// The shortest walk found from the start to each term (backward: from it to the goal).
    dist: StampedDistances,
    frontier: Vec<(Term, i128)>,
    next: Vec<(Term, i128)>,
    /// For a backward walk, per round: the smallest distance of each term among the round's
    /// frontier entries.
    in_frontier: StampedDistances,
    /// For a forward walk: where each term's out-edges lie in the set (see [`OutEdges`]).
    out_edges: OutEdges,
}

/// The constraints of one set grouped by their first term, indexed by term, cleared in O(1)
/// (as [`StampedDistances`]): a forward walk finds a frontier term's out-edges with one
/// lookup instead of a binary search over the set, and the lengths with out-edges (the terms
/// 0's implicit edges lead on to) are listed once.
#[derive(Default)]
struct OutEdges {
    generation: u32,
    /// Per term: the generation that recorded it, and its constraints' range in the set.
    ranges: Vec<(u32, u32, u32)>,
    /// The lengths with an out-edge, in the set's order.
    lens: Vec<Term>,
}

impl OutEdges {
    /// Indexes `cons` (sorted by pair).
    fn index(&mut self, cons: &[Constraint]) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.ranges.iter_mut().for_each(|e| e.0 = 0);
            self.generation = 1;
        }
        self.lens.clear();
        // The set is sorted by first term: the last one is the largest, so the table grows
        // (if it must) once, and a run's range is closed when the next run starts.
        let Some(last) = cons.last() else { return };
        let top = last.a.0 as usize;
        if top >= self.ranges.len() {
            self.ranges.resize(table_len(top), (0, 0, 0));
        }
        let generation = self.generation;
        let mut run = cons[0].a;
        let mut start = 0;
        for (at, k) in cons.iter().enumerate().skip(1) {
            if k.a != run {
                self.ranges[run.0 as usize] = (generation, start as u32, at as u32);
                if run.is_len() {
                    self.lens.push(run);
                }
                run = k.a;
                start = at;
            }
        }
        self.ranges[run.0 as usize] = (generation, start as u32, cons.len() as u32);
        if run.is_len() {
            self.lens.push(run);
        }
    }

    /// The constraints of `cons` (the set indexed last) with `t` on the left.
    fn of<'c>(&self, cons: &'c [Constraint], t: Term) -> &'c [Constraint] {
        match self.ranges.get(t.0 as usize) {
            Some(&(g, lo, hi)) if g == self.generation => &cons[lo as usize..hi as usize],
            _ => &[],
        }
    }
}

impl Search {
    /// The shortest walk from `a` to `b` of at most [`SEARCH_DEPTH`] edges, searched forward
    /// from `a`, from 0 (a lower bound) too: the walks (hence the answer) are those of the
    /// backward search from `b`, and on the sets the analysis asks about a forward walk
    /// through the indexed out-edges costs less than a backward one, which scans the whole
    /// set each round (slot_pool_8 at `-O2`: 2,260 instructions fewer over the analysis).
    pub(super) fn run(&mut self, set: FactView<'_>, a: Term, b: Term) -> Option<i128> {
        self.walk(set, a, b, false)
    }

    /// A frontier-based Bellman–Ford from `a` along edges (or from `b` against them, when
    /// `backward`): round `r` relaxes the edges of the terms improved in round `r - 1`.
    pub(super) fn walk(
        &mut self,
        set: FactView<'_>,
        a: Term,
        b: Term,
        backward: bool,
    ) -> Option<i128> {
        let (start, goal) = if backward { (b, a) } else { (a, b) };
        self.relax_rounds(set, start, Some(goal), backward, false);
        self.dist.get(goal)
    }

    /// The rounds of [`Search::walk`] from `start`, leaving the distances in `self.dist`.
    /// Without a `goal` (forward only) the walk reaches every term it can and returns the
    /// smallest distance of 0 over walks of fewer than [`SEARCH_DEPTH`] edges, the only
    /// thing the goal changes: a goal length not otherwise reached from 0 gets it through
    /// the implicit edge `0 -> len` (see [`SourceDistances::get`]).
    ///
    /// `indexed` says that `self.out_edges` already indexes `set` (a table that serves one
    /// set for a while: [`SourceDistances`]).
    fn relax_rounds(
        &mut self,
        set: FactView<'_>,
        start: Term,
        goal: Option<Term>,
        backward: bool,
        indexed: bool,
    ) -> Option<i128> {
        let Search {
            dist,
            frontier,
            next,
            in_frontier,
            out_edges,
        } = self;
        dist.clear();
        if !backward && !indexed {
            out_edges.index(set.cons);
        }
        let relax = |dist: &mut StampedDistances, u: Term, nd: i128, next: &mut Vec<_>| {
            if dist.lower(u, nd) {
                next.push((u, nd));
            }
        };
        let mut zero_within: Option<i128> = None;
        if frontier.capacity() == 0 {
            frontier.reserve(FRONTIER_ROOM);
            next.reserve(FRONTIER_ROOM);
        }
        frontier.clear();
        relax(dist, start, 0, frontier);
        // Only a length goal gets an implicit edge of its own from 0.
        let len_goal = goal.filter(|g| g.is_len());
        for _ in 0..SEARCH_DEPTH {
            next.clear();
            // The implicit edges: len(v) -> 0 of weight MAX_LEN (len(v) <= MAX_LEN) and
            // 0 -> len(w) of weight 0 (0 <= len(w)). From 0, only the lengths a walk can
            // go on from: forward, those with an out-edge and the goal; backward, those
            // with an in-edge and the goal. (Each direction in a loop of its own, with the
            // term's kind read from its bits: the walks and their relaxations are those of
            // one loop over both.)
            if backward {
                // The edges k.a -> t into the frontier's terms, in one pass over the set: each
                // term's smallest frontier distance is marked first (a larger one of the same
                // term could not win a relaxation the smallest one makes).
                // A frontier of one term (the first round's) is compared with directly.
                if let &[(t, d)] = frontier.as_slice() {
                    for k in set.cons {
                        if k.b == t {
                            relax(dist, k.a, d + k.c as i128, next);
                        }
                    }
                } else {
                    in_frontier.clear();
                    for &(t, d) in frontier.iter() {
                        in_frontier.lower(t, d);
                    }
                    for k in set.cons {
                        if let Some(d) = in_frontier.get(k.b) {
                            relax(dist, k.a, d + k.c as i128, next);
                        }
                    }
                }
                for &(t, d) in frontier.iter() {
                    if t.is_len() {
                        relax(dist, Term::ZERO, d, next);
                    } else if t == Term::ZERO {
                        zero_within = Some(zero_within.map_or(d, |z| z.min(d)));
                        let through = d + MAX_LEN as i128;
                        let mut last = None;
                        for k in set.cons {
                            let u = k.b;
                            if u.is_len() && last != Some(u) {
                                last = Some(u);
                                relax(dist, u, through, next);
                            }
                        }
                        if let Some(goal) = len_goal {
                            relax(dist, goal, through, next);
                        }
                    }
                }
            } else {
                for &(t, d) in frontier.iter() {
                    for k in out_edges.of(set.cons, t) {
                        relax(dist, k.b, d + k.c as i128, next);
                    }
                    if t.is_len() {
                        relax(dist, Term::ZERO, d + MAX_LEN as i128, next);
                    } else if t == Term::ZERO {
                        zero_within = Some(zero_within.map_or(d, |z| z.min(d)));
                        for &u in &out_edges.lens {
                            relax(dist, u, d, next);
                        }
                        if let Some(goal) = len_goal {
                            relax(dist, goal, d, next);
                        }
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            std::mem::swap(frontier, next);
        }
        zero_within
    }
}

/// The shortest walks of at most [`SEARCH_DEPTH`] edges from one source to every term of a
/// set: what [`FactSet::dist`](FactQueries::dist) answers pair by pair, for the many pairs
/// with one source that a meet or a widening asks about (their constraints are sorted by
/// source).
///
/// Between two [`SourceDistances::reset`]s a table serves one set (a meet's side, a
/// widening's old state), which does not change meanwhile: its search indexes the set's
/// out-edges once for all the walks it takes.
#[derive(Default)]
pub(super) struct SourceDistances {
    /// The source the table holds, if any.
    pub(super) source: Option<Term>,
    search: Search,
    /// The smallest distance of 0 over walks of fewer than [`SEARCH_DEPTH`] edges.
    zero_within: Option<i128>,
    /// Whether `search` has indexed the set this table serves.
    indexed: bool,
}

impl SourceDistances {
    /// Forgets the table and the set it served: the next question may be about another set.
    pub(super) fn reset(&mut self) {
        self.source = None;
        self.indexed = false;
    }

    /// Fills the table with the walks from `a` in `set` (forward, as every search from a
    /// source: see [`Search::run`]).
    pub(super) fn fill(&mut self, set: FactView<'_>, a: Term) {
        self.zero_within = self.search.relax_rounds(set, a, None, false, self.indexed);
        self.indexed = true;
        self.source = Some(a);
    }

    /// `set.dist(a, b)` by one search in this table's work space (the table then holds no
    /// source: the pairs come sorted, so no later question is about the one it held), forward
    /// from `a` as [`Search::run`] (from 0 too: the set's out-edges are indexed once for all
    /// the searches and fills the table serves, where a backward search scanned the set each
    /// round).
    fn search(&mut self, set: FactView<'_>, a: Term, b: Term) -> Option<i128> {
        if a == b {
            return Some(0);
        }
        if no_path(set, a, b) {
            return None;
        }
        self.source = None;
        self.search
            .relax_rounds(set, a, Some(b), false, self.indexed);
        self.indexed = true;
        self.search.dist.get(b)
    }

    /// `set.dist(source, b)` for the set the table was filled from. A length goal is also
    /// reached through 0 and its implicit edge `0 -> len(v)` of weight 0, which the
    /// goal-free walk takes only towards lengths with an out-edge.
    pub(super) fn get(&self, b: Term) -> Option<i128> {
        if self.source == Some(b) {
            return Some(0);
        }
        let d = self.search.dist.get(b);
        match (b.len_of(), d, self.zero_within) {
            (Some(_), Some(d), Some(z)) => Some(d.min(z)),
            (Some(_), None, z) => z,
            _ => d,
        }
    }

    /// `set.dist(a, b)`, from the table when it holds `a`; otherwise filled first when
    /// `more` queries from `a` are expected, or answered by one search.
    pub(super) fn dist(&mut self, set: FactView<'_>, a: Term, b: Term, more: bool) -> Option<i128> {
        if self.source == Some(a) {
            return self.get(b);
        }
        if more {
            self.fill(set, a);
            return self.get(b);
        }
        self.search(set, a, b)
    }
}

/// Runs `f` with the thread's search work space (a fresh one if it is in use further up the
/// stack).
pub(super) fn with_search<R>(f: impl FnOnce(&mut Search) -> R) -> R {
    SEARCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut search) => f(&mut search),
        Err(_) => f(&mut Search::default()),
    })
}

/// `(set.lower(x), set.lower(y))` for two value terms, by one walk forward from 0 instead of
/// one backward from each (a walk without a goal reaches every value term the goal-directed
/// ones would, by the same walks of at most [`SEARCH_DEPTH`] edges: the goal only matters
/// when it is a length). No walk when neither has an in-edge (see [`no_path`]).
pub(in crate::analysis::facts) fn lowers_of_values(
    set: FactView<'_>,
    x: Term,
    y: Term,
) -> (Option<i128>, Option<i128>) {
    debug_assert!(x.is_value() && y.is_value());
    if no_path(set, Term::ZERO, x) && no_path(set, Term::ZERO, y) {
        return (None, None);
    }
    with_search(|search| {
        search.relax_rounds(set, Term::ZERO, None, false, false);
        let lower = |t: Term| search.dist.get(t).map(|d| -d);
        (lower(x), lower(y))
    })
}

/// `(set.upper(x), set.upper(y))` for two value terms, by one walk backward from 0 instead
/// of one forward from each (the same walks, as in [`lowers_of_values`]).
pub(in crate::analysis::facts) fn uppers_of_values(
    set: FactView<'_>,
    x: Term,
    y: Term,
) -> (Option<i128>, Option<i128>) {
    debug_assert!(x.is_value() && y.is_value());
    if no_path(set, x, Term::ZERO) && no_path(set, y, Term::ZERO) {
        return (None, None);
    }
    with_search(|search| {
        search.relax_rounds(set, Term::ZERO, None, true, false);
        (search.dist.get(x), search.dist.get(y))
    })
}

/// `(set.upper(a), set.dist(a, b))` for two value terms, by one walk forward from `a` (the
/// walks `dist` takes towards 0 and towards `b`: neither goal is a length).
pub(in crate::analysis::facts) fn upper_and_dist(
    set: FactView<'_>,
    a: Term,
    b: Term,
) -> (Option<i128>, Option<i128>) {
    debug_assert!(a.is_value() && b.is_value());
    if a == b {
        return (set.upper(a), Some(0));
    }
    if no_path(set, a, Term::ZERO) {
        // No out-edge: no walk from `a` at all.
        return (None, None);
    }
    with_search(|search| {
        search.relax_rounds(set, a, None, false, false);
        (search.dist.get(Term::ZERO), search.dist.get(b))
    })
}

/// Whether `set` has no walk from `a` to `b` that a search would have to look for: a value
/// term has no implicit edge, so without a recorded edge out of `a` (or into `b`) there is
/// none.
pub(super) fn no_path(set: FactView<'_>, a: Term, b: Term) -> bool {
    let no_out = |t: Term| t.is_value() && set.constraints_from(t).is_empty();
    let no_in = |t: Term| t.is_value() && !set.cons.iter().any(|k| k.b == t);
    no_out(a) || no_in(b)
}
