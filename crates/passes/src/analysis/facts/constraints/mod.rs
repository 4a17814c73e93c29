//! The fact language: difference constraints `a <= b + c` between terms, and the set of them
//! that holds at one program point.
//!
//! A [`Term`] is the constant 0, the value of an `i64` local, or the length of the vec a vec
//! local holds. A [`Constraint`] `a <= b + c` (with a constant `c`) is a statement about the
//! *mathematical* integers those terms denote; every fact the transfer functions add is proved
//! for the exact values, so wrapping arithmetic never enters a constraint (an `add` whose result
//! may wrap produces no constraint at all). With the zero term the language says `i >= 0`
//! (`0 <= i + 0`), `i < len(v)` (`i <= len(v) - 1`), `len(v) > k` (`0 <= len(v) - (k + 1)`),
//! `i < 10` (`i <= 0 + 9`), `n == len(v)` (two constraints), `len(v) == len(w) + c`,
//! `j == i - 1`.
//!
//! A [`FactSet`] holds at most one constraint per ordered pair of terms (the strongest, smallest
//! `c`) in one flat vector sorted by the pair, plus the compares known for bool locals
//! ([`CmpFact`]), so the meet is one merge and a copy is one slice copy. A stored state is the
//! same three sorted slices borrowed from shared buffers ([`FactView`]); the queries are
//! written once for both ([`FactQueries`]). Queries
//! ([`FactQueries::implies`]) read the set as a graph — an edge `a → b` of weight `c` per constraint
//! — and look for a short path (a bounded Bellman–Ford of [`SEARCH_DEPTH`] rounds from the
//! source; a forward walk first indexes the set's constraints by their first term, once for
//! all the walks a meet or a widening takes over one side): a path of total weight `w` from
//! `a` to `b` proves `a <= b + w`, because difference constraints compose by addition. Two
//! implicit edges model what is always true of a length: `0 <= len(v)` and `len(v) <= 2^62`
//! ([`MAX_LEN`]). A contradictory set (a negative cycle) only arises
//! on paths that cannot execute, where any answer is sound; the bounded search terminates
//! regardless. No set records what the first implicit edge already says (`0 <= len(v) + c`
//! with `c >= 0`): [`FactSet::add`], a shift and a meet leave it out, and the operations that
//! read a length's in-edges directly (eliminating or composing through it, pinning it at a
//! loop header) add the implicit one. Every query answers the same; the sets are smaller, and
//! a header no longer flips between `len(v) >= 0` and nothing when a loop pops.
//!
//! Removing a term ([`FactSet::eliminate`], when a local dies or is reassigned, or a length
//! changes by an unknown amount) first composes every pair of constraints through it (`x <= t +
//! c1` and `t <= y + c2` give `x <= y + c1 + c2`: Fourier–Motzkin elimination, exact for
//! difference constraints), so what the term linked stays known.

use poolopt_ir::{Block, CmpOp, EntityRef, Function, Local, Operand, SecondaryMap};
use smallvec::SmallVec;
use std::cell::RefCell;

/// How many edges a query path may have. Deep enough for `i → t → n → len(v)` (an index, a
/// temporary derived from it, a local holding the length, the length).
pub const SEARCH_DEPTH: usize = 5;

/// An upper bound of every vec length: 2^62. A vec's capacity is 0 or `4 * 2^k` (docs/ir.md,
/// §3.2: it starts at 4 and doubles) and its buffer of `cap * elem_size >= cap` bytes is a real
/// allocation, which cannot exceed `isize::MAX` bytes; so `len <= cap <= 2^62`. This is what
/// lets `i + 1`, `i + 2`, ... not wrap for an index below a length.
pub const MAX_LEN: i64 = 1 << 62;

/// Visits of a loop header after which its widening is [`FactSet::widen_strict`].
pub const STRICT_AFTER: u32 = 4;

/// Past this many compositions, eliminating a term just drops its constraints (always sound).
const MAX_COMPOSITIONS: usize = 64;

/// The most constraints one set holds, and the most compares: a set that is full records no
/// new pair (it still tightens the pairs it has). Not recording a fact is always sound, and
/// the bound keeps every operation on a set (an insertion, a scan, a shift) within a constant,
/// so a block of `n` instructions costs `O(n)` however many facts it could establish: 32,000
/// checked reads of distinct indices in one block, each adding two constraints kept to the
/// end, took `opt -O2` 0.7 s and grew with the square of the block. Ordinary sets hold a few
/// dozen facts at most.
pub const MAX_SET_FACTS: usize = 4096;

/// Spare room for constraints in a copied set (see `FactSet::clone`).
const CLONE_SLACK: usize = 4;

/// Terms a query or an elimination keeps on the stack before it allocates.
const INLINE_TERMS: usize = 16;

thread_local! {
    /// The work space of [`FactSet::dist`], kept across queries.
    static SEARCH: RefCell<Search> = RefCell::new(Search::default());
    /// The work space of meets and widenings ([`MeetScratch`]), kept across calls so that
    /// they allocate nothing once its tables and buffer have grown to the function's terms.
    static MEET_SCRATCH: RefCell<MeetScratch> = RefCell::default();
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
struct Search {
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
    fn run(&mut self, set: FactView<'_>, a: Term, b: Term) -> Option<i128> {
        self.walk(set, a, b, false)
    }

    /// A frontier-based Bellman–Ford from `a` along edges (or from `b` against them, when
    /// `backward`): round `r` relaxes the edges of the terms improved in round `r - 1`.
    fn walk(&mut self, set: FactView<'_>, a: Term, b: Term, backward: bool) -> Option<i128> {
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

/// The shortest walks of at most [`SEARCH_DEPTH`] edges from one source to every term of a
/// set: what [`FactSet::dist`] answers pair by pair, for the many pairs with one source that
/// a meet or a widening asks about (their constraints are sorted by source).
///
/// Between two [`SourceDistances::reset`]s a table serves one set (a meet's side, a
/// widening's old state), which does not change meanwhile: its search indexes the set's
/// out-edges once for all the walks it takes.
#[derive(Default)]
struct SourceDistances {
    /// The source the table holds, if any.
    source: Option<Term>,
    search: Search,
    /// The smallest distance of 0 over walks of fewer than [`SEARCH_DEPTH`] edges.
    zero_within: Option<i128>,
    /// Whether `search` has indexed the set this table serves.
    indexed: bool,
}

impl SourceDistances {
    /// Forgets the table and the set it served: the next question may be about another set.
    fn reset(&mut self) {
        self.source = None;
        self.indexed = false;
    }

    /// Fills the table with the walks from `a` in `set` (forward, as every search from a
    /// source: see [`Search::run`]).
    fn fill(&mut self, set: FactView<'_>, a: Term) {
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
    fn get(&self, b: Term) -> Option<i128> {
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
    fn dist(&mut self, set: FactView<'_>, a: Term, b: Term, more: bool) -> Option<i128> {
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
fn with_search<R>(f: impl FnOnce(&mut Search) -> R) -> R {
    SEARCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut search) => f(&mut search),
        Err(_) => f(&mut Search::default()),
    })
}

/// `(set.lower(x), set.lower(y))` for two value terms, by one walk forward from 0 instead of
/// one backward from each (a walk without a goal reaches every value term the goal-directed
/// ones would, by the same walks of at most [`SEARCH_DEPTH`] edges: the goal only matters
/// when it is a length). No walk when neither has an in-edge (see [`no_path`]).
pub(super) fn lowers_of_values(
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
pub(super) fn uppers_of_values(
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
pub(super) fn upper_and_dist(set: FactView<'_>, a: Term, b: Term) -> (Option<i128>, Option<i128>) {
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
fn no_path(set: FactView<'_>, a: Term, b: Term) -> bool {
    let no_out = |t: Term| t.is_value() && set.constraints_from(t).is_empty();
    let no_in = |t: Term| t.is_value() && !set.cons.iter().any(|k| k.b == t);
    no_out(a) || no_in(b)
}

/// `(a, b)` as one integer ordered as the pair is: `a` in the high half.
fn packed_pair(a: Term, b: Term) -> u64 {
    (u64::from(a.0) << 32) | u64::from(b.0)
}

/// Sets at most this long are searched by a scan from the start instead of by halving.
const SCAN_AT_MOST: usize = 8;

/// Where the pair `key` ([`packed_pair`]) is in `cons` (sorted by pair), or where it would go:
/// what `binary_search_by_key` answers. Most sets hold a few constraints (seven on average
/// where slot_pool_8 adds one at `-O2`); up to [`SCAN_AT_MOST`] a scan to the first pair not
/// below `key` takes fewer steps than halving, each cheaper.
#[inline]
fn find_pair(cons: &[Constraint], key: u64) -> Result<usize, usize> {
    if cons.len() > SCAN_AT_MOST {
        return cons.binary_search_by_key(&key, Constraint::packed_key);
    }
    match cons.iter().position(|k| k.packed_key() >= key) {
        Some(at) if cons[at].packed_key() == key => Ok(at),
        Some(at) => Err(at),
        None => Err(cons.len()),
    }
}

/// Constraints gathered for one elimination.
type ConstraintBuf = SmallVec<[Constraint; INLINE_TERMS]>;

/// Adds to `ins`, the constraints into term `t` gathered to compose through it, the bound
/// `0 <= len(v)` every length has and no set records ([`Constraint::implied_by_length`]),
/// unless a recorded lower bound of `t` is there.
fn add_implicit_lower_bound(t: Term, ins: &mut ConstraintBuf) {
    if t.is_len() && !ins.iter().any(|k| k.a == Term::ZERO) {
        ins.push(Constraint::new(Term::ZERO, t, 0));
    }
}

/// A term of a constraint: 0, the value of an `i64` local, or `len` of a vec local.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Term(u32);

/// What a [`Term`] denotes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum TermKind {
    Zero,
    Value(Local),
    Len(Local),
}

impl Term {
    /// The constant 0.
    pub const ZERO: Term = Term(0);

    /// The value of the `i64` local `l`.
    pub fn value(l: Local) -> Term {
        Term(2 * l.index() as u32 + 1)
    }

    /// The length of the vec held in vec local `v`.
    pub fn len(v: Local) -> Term {
        Term(2 * v.index() as u32 + 2)
    }

    pub fn kind(self) -> TermKind {
        match self.0 {
            0 => TermKind::Zero,
            n if n % 2 == 1 => TermKind::Value(Local::new((n as usize - 1) / 2)),
            n => TermKind::Len(Local::new((n as usize - 2) / 2)),
        }
    }

    /// Whether the term is the value or the length of local `l`.
    fn is_of(self, l: Local) -> bool {
        // 2l + 1 and 2l + 2 are the two terms of `l`; 0 wraps to a half-range no local has.
        (self.0.wrapping_sub(1) >> 1) as usize == l.index()
    }

    /// The local the term is about (`None` for 0).
    pub fn local(self) -> Option<Local> {
        match self.kind() {
            TermKind::Zero => None,
            TermKind::Value(l) | TermKind::Len(l) => Some(l),
        }
    }

    /// Whether the term is the value of a local.
    fn is_value(self) -> bool {
        self.0 % 2 == 1
    }

    /// Whether the term is a length.
    pub fn is_len(self) -> bool {
        self.0 != 0 && self.0.is_multiple_of(2)
    }

    /// The vec whose length this is, if it is a length.
    pub fn len_of(self) -> Option<Local> {
        match self.kind() {
            TermKind::Len(v) => Some(v),
            _ => None,
        }
    }

    /// `i`, `len(v)` or `0`, with the function's local names.
    pub fn describe(self, func: &Function) -> String {
        match self.kind() {
            TermKind::Zero => "0".to_string(),
            TermKind::Value(l) => func.local_name(l).to_string(),
            TermKind::Len(v) => format!("len({})", func.local_name(v)),
        }
    }
}

/// `a <= b + c`.
///
/// Laid out `b` first, then `a` (`repr(C)`): on a little-endian machine the two terms then
/// read as one `u64` equal to `Constraint::packed_key`, so the binary searches and merges
/// over a set's sorted constraints compare a pair in one load.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(C)]
pub struct Constraint {
    pub b: Term,
    pub a: Term,
    pub c: i64,
}

impl Constraint {
    pub fn new(a: Term, b: Term, c: i64) -> Constraint {
        Constraint { a, b, c }
    }

    fn key(&self) -> (Term, Term) {
        (self.a, self.b)
    }

    /// The pair as one integer with the order of [`Constraint::key`] (one compare instead of
    /// two in the searches over a set's sorted constraints).
    fn packed_key(&self) -> u64 {
        packed_pair(self.a, self.b)
    }

    fn mentions(&self, t: Term) -> bool {
        self.a == t || self.b == t
    }

    /// Whether the constraint only restates what is true of every length (`0 <= len(v) + c`
    /// with `c >= 0`): a set never records one (see [`FactSet::add`]).
    fn implied_by_length(a: Term, b: Term, c: i64) -> bool {
        a == Term::ZERO && c >= 0 && b.is_len()
    }

    /// Readable form: `i >= 0`, `i < len(v)`, `len(v) > 3`, `t <= i + 1`, `i <= 9`.
    pub fn describe(&self, func: &Function) -> String {
        let (a, b, c) = (self.a, self.b, self.c as i128);
        let plus = |t: Term, c: i128| -> String {
            let t = t.describe(func);
            match c.cmp(&0) {
                std::cmp::Ordering::Equal => t,
                std::cmp::Ordering::Greater => format!("{t} + {c}"),
                std::cmp::Ordering::Less => format!("{t} - {}", -c),
            }
        };
        if a == Term::ZERO {
            // 0 <= b + c: b >= -c; with b a length and c < 0, len(b) > -c - 1.
            if b.len_of().is_some() && c < 0 {
                return format!("{} > {}", b.describe(func), -c - 1);
            }
            return format!("{} >= {}", b.describe(func), -c);
        }
        if b == Term::ZERO {
            return format!("{} <= {c}", a.describe(func));
        }
        if c == -1 {
            return format!("{} < {}", a.describe(func), b.describe(func));
        }
        if c < -1 {
            return format!("{} < {}", a.describe(func), plus(b, c + 1));
        }
        format!("{} <= {}", a.describe(func), plus(b, c))
    }
}

/// Bool local `c` holds `lhs op rhs` for the current values of the operands.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct CmpFact {
    pub c: Local,
    pub op: CmpOp,
    pub lhs: Operand,
    pub rhs: Operand,
}

impl CmpFact {
    fn mentions(&self, l: Local) -> bool {
        let lo = Operand::Local(l);
        self.c == l || self.lhs == lo || self.rhs == lo
    }
}

/// Local `d` holds `x sdiv k` (truncating) for the current values of `d` and `x`, with a
/// constant `k >= 1`. Not a difference constraint (`x` is about `k * d`), but it answers what
/// difference constraints cannot: a quotient of at least 1 means `x >= k`, and one of at most
/// -1 means `x <= -k` (`|x| >= k * |d|` and the signs agree), so a loop that runs while
/// `i < x / 2` knows inside that `x >= 2` ([`FactSet::quotient_bounds`]).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct QuotientFact {
    pub d: Local,
    pub x: Local,
    pub k: i64,
}

/// A bound of a dividend and the quotient local that gives it ([`FactSet::quotient_bounds`]).
pub type QuotientBound = (i64, Local);

impl QuotientFact {
    fn mentions(&self, l: Local) -> bool {
        self.d == l || self.x == l
    }
}

/// One fact, for queries, change logs and messages.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Fact {
    Le(Constraint),
    CmpIs(CmpFact),
}

impl Fact {
    /// Renders the fact with the function's local names.
    pub fn describe(&self, func: &Function) -> String {
        match self {
            Fact::Le(k) => k.describe(func),
            Fact::CmpIs(f) => {
                let op = |o: Operand| match o {
                    Operand::Local(l) => func.local_name(l).to_string(),
                    Operand::Const(c) => c.to_string(),
                };
                format!(
                    "{} == ({} {} {})",
                    func.local_name(f.c),
                    op(f.lhs),
                    f.op.name(),
                    op(f.rhs)
                )
            }
        }
    }
}

/// The facts holding at one program point (see the module docs).
#[derive(Debug, Default)]
pub struct FactSet {
    /// Sorted by `(a, b)`, one per pair.
    cons: Vec<Constraint>,
    /// Sorted by the bool local, one per local.
    cmps: Vec<CmpFact>,
    /// Sorted, one per quotient local (usually none).
    quotients: Vec<QuotientFact>,
    /// When `Some`, every fact added (`true`) or removed (`false`) is appended.
    pub(super) log: Option<Vec<(Fact, bool)>>,
}

/// Emptied buffers kept for reuse: the working sets of the analyses and the passes (an edge's
/// facts, a block's replay), the shared buffers of an analysis's stored block states
/// (`BlockStates`) and its list of deaths, and the fixpoint driver's per-block tables, so
/// that the analyses of one pipeline, function after function, allocate their storage about
/// once instead of once per block and analysis. A set taken from the pool is empty: nothing
/// of an earlier analysis is left in it.
#[derive(Debug, Default)]
pub struct FactSetPool {
    sets: Vec<FactSet>,
    /// The buffers of the last recycled analysis's stored states.
    states: super::block_states::StateBuffers,
    /// The fixpoint driver's tables and work space.
    pub(super) driver: super::driver::DriverScratch,
    /// The last recycled analysis's list of deaths and its per-block ranges.
    pub(super) deaths: DeathBuffers,
}

/// An analysis's list of deaths (`(instruction index, local)`, block after block) and each
/// block's range of it.
pub(super) type DeathBuffers = (Vec<(usize, Local)>, SecondaryMap<Block, (u32, u32)>);

impl FactSetPool {
    /// At most this many working sets are kept (the block states are not sets: they are
    /// kept in `states`).
    const MAX_SETS: usize = 4096;

    /// An empty set, with buffers when the pool has some.
    pub fn take(&mut self) -> FactSet {
        self.sets.pop().unwrap_or_default()
    }

    /// Keeps `set`'s buffers for a later [`FactSetPool::take`] (emptied first).
    pub fn give(&mut self, mut set: FactSet) {
        if set.has_buffers() && self.sets.len() < Self::MAX_SETS {
            set.clear();
            self.sets.push(set);
        }
    }

    /// The buffers for an analysis's stored states (see `BlockStates`), with room when an
    /// earlier analysis handed some back.
    pub(super) fn take_state_buffers(&mut self) -> super::block_states::StateBuffers {
        std::mem::take(&mut self.states)
    }

    /// Keeps the buffers of an analysis's stored states for the next analysis.
    pub(super) fn give_state_buffers(&mut self, buffers: super::block_states::StateBuffers) {
        self.states = buffers;
    }

    /// How many sets the pool holds.
    pub fn len(&self) -> usize {
        self.sets.len()
    }

    /// Whether the pool holds no set.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }
}

impl Clone for FactSet {
    fn clone(&self) -> FactSet {
        // With room for a few more constraints (see `copy_with_slack`): a copy is almost
        // always a working state that the next instruction or edge adds to.
        self.view().to_set()
    }
}

/// Makes `to` a copy of `from`, reusing its buffer; when the buffer must grow, with room for
/// [`CLONE_SLACK`] more (nothing is allocated for an empty `from`): an exact-size copy would
/// grow (reallocate and copy) on its first insertion.
fn copy_with_slack<T: Copy>(to: &mut Vec<T>, from: &[T]) {
    to.clear();
    if to.capacity() < from.len() {
        to.reserve_exact(from.len() + CLONE_SLACK);
    }
    to.extend_from_slice(from);
}

impl PartialEq for FactSet {
    fn eq(&self, other: &FactSet) -> bool {
        self.view() == other.view()
    }
}

impl Eq for FactSet {}

/// `x` as an `i64`, when it fits.
pub fn fit(x: i128) -> Option<i64> {
    i64::try_from(x).ok()
}

impl FactSet {
    /// The empty set (nothing known), as at the function entry.
    pub fn new() -> FactSet {
        FactSet::default()
    }

    /// Empties the set (its log too), keeping its buffers.
    pub fn clear(&mut self) {
        self.cons.clear();
        self.cmps.clear();
        self.quotients.clear();
        self.log = None;
    }

    /// Whether the set owns buffers worth keeping for reuse.
    pub(super) fn has_buffers(&self) -> bool {
        self.cons.capacity() > 0 || self.cmps.capacity() > 0
    }

    /// Makes `self` a copy of `other` (without its log), reusing `self`'s buffers.
    pub fn copy_from(&mut self, other: FactView<'_>) {
        // With room for a few more, as in `clone`, when the buffers must grow anyway.
        copy_with_slack(&mut self.cons, other.cons);
        copy_with_slack(&mut self.cmps, other.cmps);
        self.quotients.clear();
        self.quotients.extend_from_slice(other.quotients);
        self.log = None;
    }

    /// [`FactSet::copy_from`] keeping only the compares `keep` accepts.
    pub(super) fn copy_keeping_cmps(
        &mut self,
        other: FactView<'_>,
        keep: impl Fn(&CmpFact) -> bool,
    ) {
        copy_with_slack(&mut self.cons, other.cons);
        self.cmps.clear();
        if self.cmps.capacity() < other.cmps.len() {
            self.cmps.reserve_exact(other.cmps.len() + CLONE_SLACK);
        }
        self.cmps
            .extend(other.cmps.iter().filter(|f| keep(f)).copied());
        self.quotients.clear();
        self.quotients.extend_from_slice(other.quotients);
        self.log = None;
    }

    fn note(&mut self, fact: Fact, added: bool) {
        if let Some(log) = self.log.as_mut() {
            log.push((fact, added));
        }
    }

    /// Records `a <= b + c` (kept only if stronger than what is recorded for the pair).
    pub fn add(&mut self, a: Term, b: Term, c: i64) {
        if a == b || Constraint::implied_by_length(a, b, c) {
            return;
        }
        let k = Constraint::new(a, b, c);
        match find_pair(&self.cons, packed_pair(a, b)) {
            Ok(at) => {
                let old = self.cons[at];
                if c < old.c {
                    self.cons[at] = k;
                    self.note(Fact::Le(old), false);
                    self.note(Fact::Le(k), true);
                }
            }
            Err(_) if self.cons.len() >= MAX_SET_FACTS => {}
            Err(at) => {
                self.cons.insert(at, k);
                self.note(Fact::Le(k), true);
            }
        }
    }

    /// Records `a <= b + c` with a wide offset (nothing when it does not fit an `i64`).
    pub fn add_wide(&mut self, a: Term, b: Term, c: i128) {
        if let Some(c) = fit(c) {
            self.add(a, b, c);
        }
    }

    /// Records `a == b + c`.
    pub fn add_eq(&mut self, a: Term, b: Term, c: i128) {
        self.add_wide(a, b, c);
        self.add_wide(b, a, -c);
    }

    /// Records that bool `c` holds a compare (replacing the bool's old compare).
    pub fn add_cmp(&mut self, f: CmpFact) {
        match self.cmps.binary_search_by(|x| x.c.cmp(&f.c)) {
            Ok(at) => {
                let old = self.cmps[at];
                if old != f {
                    self.cmps[at] = f;
                    self.note(Fact::CmpIs(old), false);
                    self.note(Fact::CmpIs(f), true);
                }
            }
            Err(_) if self.cmps.len() >= MAX_SET_FACTS => {}
            Err(at) => {
                self.cmps.insert(at, f);
                self.note(Fact::CmpIs(f), true);
            }
        }
    }

    /// Removes the compares `kill` selects, logging each.
    ///
    /// Most calls remove nothing: the scan that finds so is inlined into the callers, the
    /// removal is not.
    #[inline]
    fn remove_cmps_where(&mut self, kill: impl Fn(&CmpFact) -> bool) {
        if self.cmps.iter().any(&kill) {
            self.remove_some_cmps_where(kill);
        }
    }

    /// [`FactSet::remove_cmps_where`] once a compare to remove is known to be there.
    #[inline(never)]
    fn remove_some_cmps_where(&mut self, kill: impl Fn(&CmpFact) -> bool) {
        if self.log.is_some() {
            let mut removed = Vec::new();
            self.cmps.retain(|f| {
                let gone = kill(f);
                if gone {
                    removed.push(*f);
                }
                !gone
            });
            for f in removed {
                self.note(Fact::CmpIs(f), false);
            }
        } else {
            self.cmps.retain(|f| !kill(f));
        }
    }

    /// Removes term `t`, first composing every pair of constraints through it (sound: the
    /// composed constraints held while `t` had its old value, and do not mention `t`).
    ///
    /// The scan for the first constraint about `t` is inlined into the callers: many terms
    /// they eliminate have none (a destination's old value, a dead temporary), and then the
    /// scan is all there is to do.
    #[inline]
    pub fn eliminate(&mut self, t: Term) {
        if let Some(first) = self.cons.iter().position(|k| k.mentions(t)) {
            self.eliminate_from(t, first);
        }
    }

    /// [`FactSet::eliminate`] of `t`, whose first constraint is at `first`.
    #[inline(never)]
    fn eliminate_from(&mut self, t: Term, first: usize) {
        let mut ins = ConstraintBuf::new();
        let mut outs = ConstraintBuf::new();
        // One pass from the first constraint that goes: what goes is gathered as it is
        // removed. The pass runs over a slice (logging in it made every step reload the
        // set's buffer).
        let cons = &mut self.cons[..];
        let mut at = first;
        for i in first..cons.len() {
            let k = cons[i];
            if k.mentions(t) {
                if k.a == t {
                    outs.push(k);
                } else {
                    ins.push(k);
                }
            } else {
                cons[at] = k;
                at += 1;
            }
        }
        self.cons.truncate(at);
        if self.log.is_some() {
            // In the set's order: the constraints out of `t` are one run among those into it.
            let before = ins.iter().take_while(|k| k.a < t).count();
            for &k in ins[..before].iter().chain(&outs).chain(&ins[before..]) {
                self.note(Fact::Le(k), false);
            }
        }
        add_implicit_lower_bound(t, &mut ins);
        if ins.len() * outs.len() > MAX_COMPOSITIONS {
            return;
        }
        for i in &ins {
            for o in &outs {
                if i.a != o.b {
                    self.add_wide(i.a, o.b, i.c as i128 + o.c as i128);
                }
            }
        }
    }

    /// Adds every constraint composed through `t` (as [`FactSet::eliminate`] does) but keeps
    /// `t`: for a local that is dead but still read by a recorded compare, so the relations
    /// it linked are explicit (and named when a later instruction kills them) while the
    /// compare can still use it.
    pub fn compose_through(&mut self, t: Term) {
        let mut ins: ConstraintBuf = self.cons.iter().filter(|k| k.b == t).copied().collect();
        add_implicit_lower_bound(t, &mut ins);
        let outs: ConstraintBuf = self.constraints_from(t).iter().copied().collect();
        if ins.is_empty() || outs.is_empty() || ins.len() * outs.len() > MAX_COMPOSITIONS {
            return;
        }
        for i in &ins {
            for o in &outs {
                if i.a != o.b {
                    self.add_wide(i.a, o.b, i.c as i128 + o.c as i128);
                }
            }
        }
    }

    /// Makes the relations between terms of known constant value explicit: `x == c1` and
    /// `y == c2` give `x == y + c1 - c2`. Used at loop headers, so that `k == 0` and
    /// `len(v) == 0` on entry become `k == len(v)`, a relation the loop body's updates
    /// (`push v; k = k + 1`) then carry along, constraint by constraint. Only terms pinned to
    /// one value take part (at most `INLINE_TERMS` of them): composing every upper bound
    /// with every lower bound would make every set at a header quadratic in its terms.
    pub fn close_through_zero(&mut self) {
        let mut pinned: SmallVec<[(Term, i64); INLINE_TERMS]> = SmallVec::new();
        // One pass over the upper bounds `t <= 0 + c`, merged with the lower bounds `0 <= t +
        // c` (the constraints from 0, which come first, sorted by `t`); an upper bound is the
        // first constraint of its term, as 0 is the smallest term.
        let lowers_end = self.cons.partition_point(|k| k.a == Term::ZERO);
        let (lowers, rest) = self.cons.split_at(lowers_end);
        let mut at = 0;
        for u in rest.iter().filter(|u| u.b == Term::ZERO) {
            let t = u.a;
            while lowers.get(at).is_some_and(|l| l.b < t) {
                at += 1;
            }
            match lowers.get(at).filter(|l| l.b == t) {
                // 0 <= t + c, i.e. t >= -c; pinned when t <= -c is recorded too.
                Some(l) => {
                    if u.c as i128 == -(l.c as i128) {
                        pinned.push((t, -l.c));
                    }
                }
                // A length is at least 0 without a recorded bound (`implied_by_length`):
                // pinned at 0 when `len <= 0` is recorded.
                None => {
                    if t.is_len() && u.c == 0 {
                        pinned.push((t, 0));
                    }
                }
            }
        }
        if pinned.len() > INLINE_TERMS {
            return;
        }
        pinned.sort_unstable_by_key(|&(t, _)| t);
        for (i, &(x, cx)) in pinned.iter().enumerate() {
            for &(y, cy) in &pinned[i + 1..] {
                self.add_eq(x, y, cx as i128 - cy as i128);
            }
        }
    }

    /// Local `l` gets a new value (or a new vec): its value and length terms are eliminated and
    /// every compare that mentions it is dropped.
    pub fn kill_local(&mut self, l: Local) {
        // One scan for both terms: most instructions define a local no constraint mentions.
        if self.cons.iter().any(|k| k.a.is_of(l) || k.b.is_of(l)) {
            self.eliminate(Term::value(l));
            self.eliminate(Term::len(l));
        }
        self.remove_cmps_where(|f| f.mentions(l));
        if !self.quotients.is_empty() {
            self.quotients.retain(|q| !q.mentions(l));
        }
    }

    /// [`FactSet::kill_local`] for a local of which only the term `t` can be in a constraint:
    /// a value term is only ever made for an `i64` local and a length only for a vec local,
    /// so the caller, knowing the local's type, names the one term. It is eliminated and the
    /// compares and quotients that mention the local are dropped, as `kill_local` does,
    /// without the scans for the other term (one to find the local, one more when it has
    /// constraints).
    #[inline]
    pub fn kill_term(&mut self, t: Term) {
        let Some(l) = t.local() else {
            return;
        };
        debug_assert!(
            {
                let other = if t.is_len() {
                    Term::value(l)
                } else {
                    Term::len(l)
                };
                !self.cons.iter().any(|k| k.mentions(other))
            },
            "a constraint about the other term of a local"
        );
        self.eliminate(t);
        self.remove_cmps_where(|f| f.mentions(l));
        if !self.quotients.is_empty() {
            self.quotients.retain(|q| !q.mentions(l));
        }
    }

    /// [`FactSet::kill_local`] for a scalar local no constraint or quotient mentions: the
    /// fact analysis records values only of tracked locals ([`super::relevance`]), so for an
    /// untracked one only the compares that mention it go, without a scan of the constraints
    /// (once per instruction, that scan made a set of thousands of facts quadratic).
    #[inline]
    pub fn kill_untracked_local(&mut self, l: Local) {
        self.debug_assert_value_unmentioned(l);
        self.remove_cmps_where(|f| f.mentions(l));
    }

    /// Debug builds check that no constraint or quotient mentions `l`'s value (a dead vec
    /// local's length may be recorded, and stays, as `forget_local` keeps it).
    fn debug_assert_value_unmentioned(&self, l: Local) {
        let value = Term::value(l);
        debug_assert!(
            !self.cons.iter().any(|k| k.a == value || k.b == value)
                && !self.quotients.iter().any(|q| q.mentions(l)),
            "a constraint about an untracked local"
        );
    }

    /// [`FactSet::forget_local`] for a local whose value no constraint or quotient mentions
    /// (see [`FactSet::kill_untracked_local`]): only a compare stored in it goes.
    pub fn forget_untracked_local(&mut self, l: Local) {
        self.debug_assert_value_unmentioned(l);
        self.remove_cmps_where(|f| f.c == l);
    }

    /// Local `l` is dead (not read before it is written again): its value term is eliminated
    /// and a compare stored in it is dropped (compares that only read it stay: they die when it
    /// is written). The length of a dead vec local stays: the local still holds that vec until
    /// it is assigned, so the length rules keep applying to it, and remarks use it to say
    /// which vec a guard was about.
    pub fn forget_local(&mut self, l: Local) {
        self.eliminate(Term::value(l));
        self.remove_cmps_where(|f| f.c == l);
        if !self.quotients.is_empty() {
            self.quotients.retain(|q| !q.mentions(l));
        }
    }

    /// Records that `q.d` holds `q.x sdiv q.k` (`q.k >= 1`; the caller has killed `q.d`'s old
    /// value).
    pub fn add_quotient(&mut self, q: QuotientFact) {
        debug_assert!(q.k >= 1 && q.d != q.x);
        if let Err(at) = self.quotients.binary_search(&q) {
            self.quotients.insert(at, q);
        }
    }

    /// Keeps only the quotients whose locals `keep` accepts (both must be live for the fact
    /// to be of use).
    pub fn retain_quotients(&mut self, keep: impl Fn(Local) -> bool) {
        if !self.quotients.is_empty() {
            self.quotients.retain(|q| keep(q.d) && keep(q.x));
        }
    }

    /// Keeps only the compares `keep` accepts.
    pub fn retain_cmps(&mut self, keep: impl Fn(&CmpFact) -> bool) {
        self.remove_cmps_where(|f| !keep(f));
    }

    /// Lengths change: `delta(t)` is the range `[lo, hi]` of `new(t) - old(t)` for each term it
    /// knows (`None`: unchanged). `a <= b + c` becomes `a <= b + c + hi(a) - lo(b)`, which
    /// holds of the new values whenever the old constraint held of the old ones.
    pub fn shift(&mut self, delta: impl Fn(Term) -> Option<(i64, i64)>) {
        let mut notes: Vec<(Fact, bool)> = Vec::new();
        let logging = self.log.is_some();
        let mut dropped = false;
        for k in self.cons.iter_mut() {
            let (da, db) = (delta(k.a), delta(k.b));
            if da.is_none() && db.is_none() {
                continue;
            }
            let hi_a = da.map_or(0, |d| d.1) as i128;
            let lo_b = db.map_or(0, |d| d.0) as i128;
            let new = fit(k.c as i128 + hi_a - lo_b);
            if new == Some(k.c) {
                continue;
            }
            if logging {
                notes.push((Fact::Le(*k), false));
            }
            match new {
                Some(c) if Constraint::implied_by_length(k.a, k.b, c) => {
                    // Now only what every length satisfies: not recorded.
                    k.b = k.a;
                    dropped = true;
                }
                Some(c) => {
                    k.c = c;
                    if logging {
                        notes.push((Fact::Le(*k), true));
                    }
                }
                None => {
                    // Marked for removal: no recorded constraint relates a term to itself.
                    k.b = k.a;
                    dropped = true;
                }
            }
        }
        if dropped {
            self.cons.retain(|k| k.a != k.b);
        }
        for (f, added) in notes {
            self.note(f, added);
        }
    }

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

/// A fact set kept elsewhere than in a [`FactSet`] of its own: a block's entry or exit state,
/// stored with the other blocks' states in shared buffers (see `BlockStates`). It answers the
/// same queries ([`FactQueries`]) and is copied into a working set to be changed.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FactView<'a> {
    cons: &'a [Constraint],
    cmps: &'a [CmpFact],
    quotients: &'a [QuotientFact],
}

impl<'a> FactView<'a> {
    /// The view of three sorted slices, as a [`FactSet`] holds them.
    pub(super) fn new(
        cons: &'a [Constraint],
        cmps: &'a [CmpFact],
        quotients: &'a [QuotientFact],
    ) -> FactView<'a> {
        FactView {
            cons,
            cmps,
            quotients,
        }
    }

    /// A working copy of the facts.
    pub fn to_set(self) -> FactSet {
        let mut set = FactSet::new();
        set.copy_from(self);
        set
    }
}

impl FactQueries for FactView<'_> {
    fn constraints(&self) -> &[Constraint] {
        self.cons
    }

    fn compares(&self) -> &[CmpFact] {
        self.cmps
    }

    fn quotient_facts(&self) -> &[QuotientFact] {
        self.quotients
    }
}

impl FactQueries for FactSet {
    fn constraints(&self) -> &[Constraint] {
        &self.cons
    }

    fn compares(&self) -> &[CmpFact] {
        &self.cmps
    }

    fn quotient_facts(&self) -> &[QuotientFact] {
        &self.quotients
    }
}

/// The queries of a fact set, answered alike by a working [`FactSet`] and a stored
/// [`FactView`]: each is written once, over the three sorted slices of facts.
pub trait FactQueries {
    /// Every constraint recorded, sorted by `(a, b)`, one per pair.
    fn constraints(&self) -> &[Constraint];

    /// The compares known for bool locals, sorted by the bool local, one per local.
    fn compares(&self) -> &[CmpFact];

    /// The quotients known, sorted, one per quotient local.
    fn quotient_facts(&self) -> &[QuotientFact];

    /// The facts as a view (what the searches and meets read).
    fn view(&self) -> FactView<'_> {
        FactView::new(self.constraints(), self.compares(), self.quotient_facts())
    }

    /// How many facts the set holds: its constraints and compares.
    fn entries(&self) -> usize {
        self.constraints().len() + self.compares().len() + self.quotient_facts().len()
    }

    /// The constraints with `a` on the left (`a <= _ + c`).
    fn constraints_from(&self, a: Term) -> &[Constraint] {
        let start = self.constraints().partition_point(|k| k.a < a);
        // A term has few constraints of its own: the end is found by a scan.
        let len = self.constraints()[start..]
            .iter()
            .take_while(|k| k.a == a)
            .count();
        &self.constraints()[start..start + len]
    }

    /// The smallest `w` found with `a <= b + w` (a path of at most [`SEARCH_DEPTH`] edges).
    ///
    /// A frontier-based Bellman–Ford: round `r` relaxes the out-edges of the terms improved in
    /// round `r - 1`, so after `r` rounds every walk of at most `r` edges has been seen. The
    /// distances live in a per-thread table indexed by term (reset by a generation stamp), so
    /// a query allocates nothing once the table has grown to the function's terms.
    fn dist(&self, a: Term, b: Term) -> Option<i128> {
        if a == b {
            return Some(0);
        }
        // Without a recorded edge out of a value `a` (or into a value `b`) the search need
        // not start.
        if no_path(self.view(), a, b) {
            return None;
        }
        with_search(|search| search.run(self.view(), a, b))
    }

    /// Whether `a <= b + c` follows from the set.
    fn implies(&self, a: Term, b: Term, c: i64) -> bool {
        if a == b {
            return c >= 0;
        }
        // A recorded constraint that is strong enough answers without a search.
        if self.recorded(a, b).is_some_and(|r| r <= c) {
            return true;
        }
        self.dist(a, b).is_some_and(|d| d <= c as i128)
    }

    /// The offset recorded for the pair `(a, b)`, if any.
    fn recorded(&self, a: Term, b: Term) -> Option<i64> {
        self.constraints()
            .binary_search_by_key(&packed_pair(a, b), Constraint::packed_key)
            .ok()
            .map(|at| self.constraints()[at].c)
    }

    /// The largest known lower bound of `t` (`t >= lower`).
    fn lower(&self, t: Term) -> Option<i128> {
        let known = self.dist(Term::ZERO, t).map(|d| -d);
        if t.len_of().is_some() {
            return Some(known.unwrap_or(0).max(0));
        }
        known
    }

    /// The smallest known upper bound of `t` (`t <= upper`).
    fn upper(&self, t: Term) -> Option<i128> {
        self.dist(t, Term::ZERO)
    }

    /// Whether `t <= limit` is known. A recorded bound against 0, a length (`len <= 2^62`) or
    /// another value (every value is at most `i64::MAX`: `t < n` for any `n` gives `t <=
    /// i64::MAX - 1`, so `t + 1` cannot wrap) that is low enough answers without a search.
    fn upper_at_most(&self, t: Term, limit: i128) -> bool {
        let direct = self.constraints_from(t).iter().any(|k| {
            let base = match k.b.kind() {
                TermKind::Zero => 0,
                TermKind::Len(_) => MAX_LEN as i128,
                TermKind::Value(_) => i64::MAX as i128,
            };
            base + k.c as i128 <= limit
        });
        direct || self.upper(t).is_some_and(|u| u <= limit)
    }

    /// Whether `t >= limit` is known (a recorded `t >= c` with `c >= limit`, a length and
    /// `limit <= 0`, or a recorded `u <= t + c` for a value `u`, which is at least `i64::MIN`,
    /// with `i64::MIN - c >= limit`, answers without a search).
    fn lower_at_least(&self, t: Term, limit: i128) -> bool {
        if t.len_of().is_some() && limit <= 0 {
            return true;
        }
        if self
            .recorded(Term::ZERO, t)
            .is_some_and(|c| -(c as i128) >= limit)
        {
            return true;
        }
        let above_a_value = |k: &Constraint| {
            k.b == t
                && matches!(k.a.kind(), TermKind::Value(_))
                && i64::MIN as i128 - k.c as i128 >= limit
        };
        if limit <= 0 && self.constraints().iter().any(above_a_value) {
            return true;
        }
        self.lower(t).is_some_and(|l| l >= limit)
    }

    /// Whether `i >= 0` is known.
    fn non_neg(&self, i: Local) -> bool {
        self.implies(Term::ZERO, Term::value(i), 0)
    }

    /// Whether `i < len(v)` is known.
    fn lt_len(&self, i: Local, v: Local) -> bool {
        self.implies(Term::value(i), Term::len(v), -1)
    }

    /// Whether `len(v) > k` is known (always for `k < 0`).
    fn len_gt(&self, v: Local, k: i64) -> bool {
        k < 0 || fit(-(k as i128) - 1).is_some_and(|c| self.implies(Term::ZERO, Term::len(v), c))
    }

    /// A vec `v` with `n == len(v)`, if any (recorded directly).
    fn len_of(&self, n: Local) -> Option<Local> {
        let t = Term::value(n);
        self.constraints_from(t).iter().find_map(|k| {
            let v = k.b.len_of()?;
            (k.c <= 0 && self.implies(k.b, t, 0)).then_some(v)
        })
    }

    /// The compare `c` is known to hold, if any.
    fn cmp_of(&self, c: Local) -> Option<(CmpOp, Operand, Operand)> {
        self.compares()
            .binary_search_by(|x| x.c.cmp(&c))
            .ok()
            .map(|at| {
                let f = self.compares()[at];
                (f.op, f.lhs, f.rhs)
            })
    }

    /// The vecs `w` with `i < len(w)` recorded directly.
    fn lt_len_vecs(&self, i: Local) -> impl Iterator<Item = Local> + '_ {
        self.constraints_from(Term::value(i))
            .iter()
            .filter(|k| k.c <= -1)
            .filter_map(|k| k.b.len_of())
    }

    /// Every `(v, k)` with `len(v) > k` recorded directly (`k >= 0`).
    fn len_gt_vecs(&self) -> impl Iterator<Item = (Local, i64)> + '_ {
        self.constraints_from(Term::ZERO)
            .iter()
            .filter(|k| k.c <= -1)
            .filter_map(|k| Some((k.b.len_of()?, -k.c - 1)))
    }

    /// Whether `fact` holds (a constraint: follows from the set; a compare: recorded).
    fn holds(&self, fact: &Fact) -> bool {
        match *fact {
            Fact::Le(k) => self.implies(k.a, k.b, k.c),
            Fact::CmpIs(f) => self.cmp_of(f.c) == Some((f.op, f.lhs, f.rhs)),
        }
    }

    /// Every fact of the set.
    fn facts(&self) -> Vec<Fact> {
        let mut out: Vec<Fact> = self.constraints().iter().copied().map(Fact::Le).collect();
        out.extend(self.compares().iter().copied().map(Fact::CmpIs));
        out
    }

    /// The constraints that mention term `t`.
    fn constraints_mentioning(&self, t: Term) -> impl Iterator<Item = &Constraint> + '_ {
        self.constraints().iter().filter(move |k| k.mentions(t))
    }

    /// Bounds of `x` that its recorded quotients give, each with the quotient local that gives
    /// it: `x >= k` when some `d = x sdiv k` is known to be at least 1, `x <= -k` when one is
    /// known to be at most -1. Sound: for truncating division by `k >= 1`, `d >= 1` needs
    /// `x >= k * d >= k`, and `d <= -1` needs `x <= k * d <= -k`.
    fn quotient_bounds(&self, x: Local) -> (Option<QuotientBound>, Option<QuotientBound>) {
        let (mut lo, mut hi) = (None::<QuotientBound>, None::<QuotientBound>);
        for q in self.quotient_facts().iter().filter(|q| q.x == x) {
            let d = Term::value(q.d);
            if self.lower_at_least(d, 1) {
                if lo.is_none_or(|(l, _)| q.k > l) {
                    lo = Some((q.k, q.d));
                }
            } else if self.upper_at_most(d, -1) && hi.is_none_or(|(h, _)| -q.k < h) {
                hi = Some((-q.k, q.d));
            }
        }
        (lo, hi)
    }

    /// Whether a recorded compare reads local `l`.
    fn cmp_reads(&self, l: Local) -> bool {
        let o = Operand::Local(l);
        self.compares().iter().any(|c| c.lhs == o || c.rhs == o)
    }

    /// Calls `f` for every local operand of a recorded compare.
    fn for_each_cmp_operand(&self, mut f: impl FnMut(Local)) {
        for c in self.compares() {
            c.lhs
                .as_local()
                .into_iter()
                .chain(c.rhs.as_local())
                .for_each(&mut f);
        }
    }

    /// Calls `f` for every local whose value is a term of the set or which holds a recorded
    /// compare (a local may come more than once). Vec locals, which only have length terms,
    /// are not visited.
    fn for_each_value_local(&self, mut f: impl FnMut(Local)) {
        for k in self.constraints() {
            for t in [k.a, k.b] {
                if let TermKind::Value(l) = t.kind() {
                    f(l);
                }
            }
        }
        self.compares().iter().for_each(|c| f(c.c));
    }

    /// The terms that appear in the set (sorted, unique).
    fn terms(&self) -> Vec<Term> {
        let mut out: Vec<Term> = self.constraints().iter().flat_map(|k| [k.a, k.b]).collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

impl Fact {
    /// `i >= 0`.
    pub fn non_neg(i: Local) -> Fact {
        Fact::Le(Constraint::new(Term::ZERO, Term::value(i), 0))
    }

    /// `i < len(v)`.
    pub fn lt_len(i: Local, v: Local) -> Fact {
        Fact::Le(Constraint::new(Term::value(i), Term::len(v), -1))
    }

    /// `len(v) > k` (`None` when `k == i64::MAX`: no length is that large).
    pub fn len_gt(v: Local, k: i64) -> Option<Fact> {
        fit(-(k as i128) - 1).map(|c| Fact::Le(Constraint::new(Term::ZERO, Term::len(v), c)))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Killing a local's term drops the quotients that mention the local, as a dividend or
    /// as a quotient, as `kill_local` does, and keeps the others (the repository's programs
    /// rarely hold a quotient when one of its locals is reassigned).
    #[test]
    fn killing_a_term_drops_the_quotients_that_mention_its_local() {
        let l = Local::new;
        let mut s = FactSet::default();
        s.add_quotient(QuotientFact {
            d: l(1),
            x: l(2),
            k: 2,
        });
        s.add_quotient(QuotientFact {
            d: l(3),
            x: l(4),
            k: 8,
        });
        s.add(Term::value(l(2)), Term::ZERO, 100);
        for killed in [l(1), l(2), l(5)] {
            let mut by_term = s.clone();
            by_term.kill_term(Term::value(killed));
            let mut by_local = s.clone();
            by_local.kill_local(killed);
            assert_eq!(by_term, by_local, "{killed:?}");
            let kept = by_term.quotient_facts();
            assert_eq!(kept.len(), if killed == l(5) { 2 } else { 1 }, "{killed:?}");
            assert!(kept.iter().all(|q| q.d != killed && q.x != killed));
        }
    }

    /// A small deterministic generator (xorshift), also for the transfer rules' tests.
    pub(in crate::analysis::facts) struct Rng(pub(in crate::analysis::facts) u64);

    impl Rng {
        pub(in crate::analysis::facts) fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        pub(in crate::analysis::facts) fn term(&mut self) -> Term {
            Term((self.next() % 9) as u32)
        }

        /// A set of fewer than `most` random constraints over the nine terms.
        pub(in crate::analysis::facts) fn set(&mut self, most: u64) -> FactSet {
            let mut set = FactSet::new();
            for _ in 0..(self.next() % most) {
                let (a, b) = (self.term(), self.term());
                let c = (self.next() % 41) as i64 - 20;
                set.add(a, b, c);
            }
            set
        }
    }

    /// Widening keeps a constraint whose offset did not grow against the old state's bound
    /// (recorded or by a path) and drops one that grew or that the old state did not bound;
    /// the strict widening looks at the old state's recorded pairs only.
    #[test]
    fn widening_keeps_what_did_not_grow() {
        let (a, b, c, d) = (Term(1), Term(2), Term(3), Term(4));
        let mut old = FactSet::new();
        old.add(a, b, 5);
        old.add(a, c, 1);
        old.add(c, d, 1);
        let mut new = FactSet::new();
        new.add(a, b, 3); // tighter than the old 5
        new.add(b, c, 0); // the old state did not bound b - c
        new.add(a, d, 2); // the old state implies a <= d + 2 by a path only
        let mut widened = new.clone();
        widened.widen(old.view());
        assert_eq!(widened.recorded(a, b), Some(3));
        assert_eq!(widened.recorded(b, c), None);
        assert_eq!(widened.recorded(a, d), Some(2));
        let mut strict = new.clone();
        strict.widen_strict(old.view());
        assert_eq!(strict.recorded(a, b), Some(3));
        assert_eq!(strict.recorded(b, c), None);
        assert_eq!(strict.recorded(a, d), None, "not recorded in the old state");
        let mut grew = FactSet::new();
        grew.add(a, b, 7);
        grew.add(a, d, 3);
        let mut strict_grew = grew.clone();
        grew.widen(old.view());
        assert_eq!(grew.constraints(), &[], "both offsets grew");
        strict_grew.widen_strict(old.view());
        assert_eq!(strict_grew.constraints(), &[]);
    }

    /// Every ordered pair of distinct terms among the nine.
    fn pairs() -> impl Iterator<Item = (Term, Term)> {
        (0..9).flat_map(|a| {
            (0..9)
                .filter(move |&b| b != a)
                .map(move |b| (Term(a), Term(b)))
        })
    }

    /// The shortest walk of at most `SEARCH_DEPTH` edges from `a` to `b`, by the plain
    /// dynamic program over every edge: the recorded ones, and for each length of the set
    /// (and `a` or `b`, if a length) `len -> 0` of weight `MAX_LEN` and `0 -> len` of weight 0.
    fn shortest_walk_by_rounds(set: &FactSet, a: Term, b: Term) -> Option<i128> {
        let mut edges: Vec<(Term, Term, i128)> = set
            .constraints()
            .iter()
            .map(|k| (k.a, k.b, k.c as i128))
            .collect();
        let mut lens: Vec<Term> = set.terms().into_iter().filter(|t| t.is_len()).collect();
        lens.extend([a, b].into_iter().filter(|t| t.is_len()));
        for &l in &lens {
            edges.push((l, Term::ZERO, MAX_LEN as i128));
            edges.push((Term::ZERO, l, 0));
        }
        let mut dist: std::collections::HashMap<Term, i128> = [(a, 0)].into();
        for _ in 0..SEARCH_DEPTH {
            let mut next = dist.clone();
            for &(u, v, w) in &edges {
                if let Some(&d) = dist.get(&u) {
                    let e = next.entry(v).or_insert(d + w);
                    *e = (*e).min(d + w);
                }
            }
            dist = next;
        }
        dist.get(&b).copied()
    }

    /// Both searches (forward, and backward from `b` for a question from 0) and the tables
    /// of the meets and widenings answer what the plain dynamic program over walks of at
    /// most `SEARCH_DEPTH` edges answers, for every pair of terms of random sets (negative
    /// cycles included).
    #[test]
    fn searches_find_the_shortest_walk_of_bounded_length() {
        let mut rng = Rng(0x3c6e_f372_fe94_f82b);
        let mut table = SourceDistances::default();
        let mut found = 0;
        for _ in 0..2000 {
            let set = rng.set(14);
            table.reset();
            for (a, b) in pairs() {
                let expected = shortest_walk_by_rounds(&set, a, b);
                assert_eq!(set.dist(a, b), expected, "{a:?} -> {b:?} in {set:?}");
                assert_eq!(
                    table.dist(set.view(), a, b, b.0.is_multiple_of(2)),
                    expected,
                    "table: {a:?} -> {b:?} in {set:?}"
                );
                found += usize::from(expected.is_some());
            }
        }
        assert!(found > 20_000, "{found}");
    }

    /// The backward search from `b` (used for queries from 0) gives what the forward search
    /// from `a` gives, on random sets over nine terms (0, four values, four lengths).
    #[test]
    fn backward_and_forward_searches_agree() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut search = Search::default();
        for _ in 0..2000 {
            let set = rng.set(14);
            for (a, b) in pairs() {
                assert_eq!(
                    search.walk(set.view(), a, b, false),
                    search.walk(set.view(), a, b, true),
                    "{a:?} -> {b:?} in {:?}",
                    set.constraints()
                );
            }
        }
    }

    /// The joint bound and distance queries answer what `lower`, `upper` and `dist` answer
    /// one by one, for every pair of value terms of random sets.
    #[test]
    fn joint_queries_agree_with_the_searched_answers() {
        let mut rng = Rng(0xbb67_ae85_84ca_a73b);
        let values = [1, 3, 5, 7].map(Term);
        let mut found = 0;
        for _ in 0..3000 {
            let set = rng.set(14);
            let view = set.view();
            for x in values {
                for y in values {
                    let lowers = lowers_of_values(view, x, y);
                    assert_eq!(
                        lowers,
                        (set.lower(x), set.lower(y)),
                        "{x:?} {y:?} in {set:?}"
                    );
                    let uppers = uppers_of_values(view, x, y);
                    assert_eq!(
                        uppers,
                        (set.upper(x), set.upper(y)),
                        "{x:?} {y:?} in {set:?}"
                    );
                    let from_x = upper_and_dist(view, x, y);
                    assert_eq!(
                        from_x,
                        (set.upper(x), set.dist(x, y)),
                        "{x:?} {y:?} in {set:?}"
                    );
                    found += usize::from(lowers.0.is_some() && uppers.1.is_some());
                    found += usize::from(from_x.0.is_some() && from_x.1.is_some());
                }
            }
        }
        assert!(found > 5000, "{found}");
    }

    /// `c` holds `i slt n`.
    fn slt(c: Local, i: Local, n: Local) -> CmpFact {
        CmpFact {
            c,
            op: CmpOp::Slt,
            lhs: Operand::Local(i),
            rhs: Operand::Local(n),
        }
    }

    /// `is_of` recognizes exactly a local's two terms.
    #[test]
    fn a_term_is_of_exactly_its_local() {
        for i in 0..50 {
            let l = Local::new(i);
            assert!(Term::value(l).is_of(l) && Term::len(l).is_of(l));
            assert!(!Term::ZERO.is_of(l));
            for j in (0..50).filter(|&j| j != i) {
                let m = Local::new(j);
                assert!(!Term::value(m).is_of(l) && !Term::len(m).is_of(l));
            }
        }
    }

    /// A single-source table answers every pair from its source as `dist` does, lengths'
    /// implicit edges and the source itself included, and a table holding another source
    /// is refilled rather than read.
    #[test]
    fn single_source_tables_agree_with_dist() {
        let mut rng = Rng(0x6a09_e667_f3bc_c909);
        let mut table = SourceDistances::default();
        for round in 0..2000 {
            let set = rng.set(if round % 2 == 0 { 8 } else { 14 });
            table.reset();
            for a in (0..9).map(Term) {
                table.fill(set.view(), a);
                for b in (0..9).map(Term) {
                    let expected = if a == b { Some(0) } else { set.dist(a, b) };
                    assert_eq!(
                        table.get(b),
                        expected,
                        "{a:?} -> {b:?} in {:?}",
                        set.constraints()
                    );
                }
            }
            // Single searches in the table's work space (its index of the set reused after
            // the fills above) answer every pair alike.
            for (a, b) in pairs() {
                assert_eq!(
                    table.dist(set.view(), a, b, false),
                    set.dist(a, b),
                    "{a:?} -> {b:?} in {:?}",
                    set.constraints()
                );
            }
            let (a, b) = (Term(1), Term(2));
            table.fill(set.view(), Term(3));
            assert_eq!(table.dist(set.view(), a, b, false), set.dist(a, b));
            assert_eq!(table.dist(set.view(), a, b, true), set.dist(a, b));
            assert_eq!(table.source, Some(a));
        }
    }

    /// `dist`'s shortcut (no path out of or into a value term without a recorded edge) gives
    /// what the search gives, lengths' implicit edges included, on the same kind of sets.
    #[test]
    fn dist_shortcut_agrees_with_the_search() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut search = Search::default();
        let mut shortcuts = 0;
        for _ in 0..2000 {
            let set = rng.set(8);
            for (a, b) in pairs() {
                let searched = search.walk(set.view(), a, b, a == Term::ZERO);
                if searched.is_none() {
                    shortcuts += 1;
                }
                assert_eq!(
                    set.dist(a, b),
                    searched,
                    "{a:?} -> {b:?} in {:?}",
                    set.constraints()
                );
            }
        }
        assert!(shortcuts > 0);
        // A length with no recorded edge still has its implicit ones.
        let set = FactSet::new();
        let (v, i) = (Term::len(Local::new(0)), Term::value(Local::new(1)));
        assert_eq!(set.dist(v, Term::ZERO), Some(MAX_LEN as i128));
        assert_eq!(set.dist(Term::ZERO, v), Some(0));
        assert_eq!(set.dist(i, Term::ZERO), None);
        assert_eq!(set.dist(Term::ZERO, i), None);
    }

    /// `close_through_zero` relates terms pinned to constants (`x == cx`, `y == cy` give
    /// `x == y + cx - cy`) with the right sign in both directions: every constraint it leaves
    /// holds for the pinned values, and both directions of the relation are stored as edges
    /// (the header's meet keeps relations, not constants). Checked with the smaller constant
    /// on either side and on terms of both kinds, so each direction of `add_eq` is the one
    /// that matters once.
    #[test]
    fn closing_through_zero_relates_pinned_terms_soundly() {
        let (i, v, k) = (Local::new(0), Local::new(1), Local::new(2));
        let cases: [&[(Term, i64)]; 3] = [
            &[(Term::value(i), 0), (Term::len(v), 3)],
            &[(Term::value(i), 5), (Term::len(v), 2)],
            &[(Term::value(i), -4), (Term::value(k), 7), (Term::len(v), 1)],
        ];
        for pinned in cases {
            let mut set = FactSet::new();
            for &(t, c) in pinned {
                set.add(t, Term::ZERO, c);
                set.add(Term::ZERO, t, -c);
            }
            set.close_through_zero();
            let value_of = |t: Term| -> i64 {
                if t == Term::ZERO {
                    return 0;
                }
                pinned.iter().find(|p| p.0 == t).expect("a pinned term").1
            };
            for k in set.constraints() {
                assert!(
                    value_of(k.a) <= value_of(k.b) + k.c,
                    "{k:?} is false for {pinned:?}"
                );
            }
            for &(x, cx) in pinned {
                for &(y, cy) in pinned {
                    if x != y {
                        let edge = Constraint::new(x, y, cx - cy);
                        assert!(
                            set.constraints().contains(&edge),
                            "{edge:?} missing for {pinned:?}: {:?}",
                            set.constraints()
                        );
                    }
                }
            }
        }
    }

    /// `len_of` names a vec only for a local known to equal its length: `n <= len(v)` and
    /// `len(v) <= n`, recorded or implied. Near misses: `n` one above or one below the length
    /// (one direction exact, the other off by one), and `n` only bounded on one side.
    #[test]
    fn len_of_names_a_vec_only_for_an_exact_length() {
        let (n, v) = (Local::new(0), Local::new(1));
        let (tn, tv) = (Term::value(n), Term::len(v));
        let with = |pairs: &[(Term, Term, i64)]| {
            let mut set = FactSet::new();
            for &(a, b, c) in pairs {
                set.add(a, b, c);
            }
            set
        };
        assert_eq!(with(&[(tn, tv, 0), (tv, tn, 0)]).len_of(n), Some(v));
        // n in [len, len + 1]: not known equal.
        assert_eq!(with(&[(tn, tv, 1), (tv, tn, 0)]).len_of(n), None);
        // n in [len - 1, len].
        assert_eq!(with(&[(tn, tv, 0), (tv, tn, 1)]).len_of(n), None);
        assert_eq!(with(&[(tn, tv, 0)]).len_of(n), None);
        assert_eq!(with(&[(tv, tn, 0)]).len_of(n), None);
    }

    /// `lower_at_least` on a length: every length is at least 0 (and so at least any negative
    /// bound), but nothing more is known without a fact; with `len(v) >= 2` recorded, 1 and 2
    /// are known and 3 is not. On a value term nothing is known without a fact.
    #[test]
    fn lower_at_least_knows_lengths_are_non_negative_and_no_more() {
        let (i, v) = (Local::new(0), Local::new(1));
        let (ti, tv) = (Term::value(i), Term::len(v));
        let empty = FactSet::new();
        assert!(empty.lower_at_least(tv, 0));
        assert!(empty.lower_at_least(tv, -5));
        assert!(!empty.lower_at_least(tv, 1));
        assert!(!empty.lower_at_least(ti, 0));
        assert!(!empty.lower_at_least(ti, i64::MIN as i128));
        let mut two = FactSet::new();
        two.add(Term::ZERO, tv, -2);
        assert!(two.lower_at_least(tv, 1));
        assert!(two.lower_at_least(tv, 2));
        assert!(!two.lower_at_least(tv, 3));
        let mut i_two = FactSet::new();
        i_two.add(Term::ZERO, ti, -2);
        assert!(i_two.lower_at_least(ti, 2));
        assert!(!i_two.lower_at_least(ti, 3));
    }

    /// Every value lies in `[i64::MIN, i64::MAX]`: `k < n` bounds `k` by `i64::MAX - 1` and
    /// `m < k` bounds it below by `i64::MIN + 1`, and no further.
    #[test]
    fn a_bound_by_another_value_is_a_bound_by_the_value_range() {
        let (k, n) = (Term::value(Local::new(0)), Term::value(Local::new(1)));
        let mut below_n = FactSet::new();
        below_n.add(k, n, -1);
        assert!(below_n.upper_at_most(k, i64::MAX as i128 - 1));
        assert!(!below_n.upper_at_most(k, i64::MAX as i128 - 2));
        assert!(!below_n.lower_at_least(k, i64::MIN as i128 + 1));
        let mut above_n = FactSet::new();
        above_n.add(n, k, -1);
        assert!(above_n.lower_at_least(k, i64::MIN as i128 + 1));
        assert!(!above_n.lower_at_least(k, i64::MIN as i128 + 2));
        assert!(!above_n.upper_at_most(k, i64::MAX as i128 - 1));
        let mut at_most_n = FactSet::new();
        at_most_n.add(k, n, 0);
        assert!(!at_most_n.upper_at_most(k, i64::MAX as i128 - 1));
    }

    /// A quotient `d = x sdiv k` bounds `x` by `k` once `d >= 1` (by `-k` once `d <= -1`),
    /// and goes with a reassignment or death of either local and with a meet that lacks it.
    #[test]
    fn quotients_bound_their_dividend_until_either_local_changes() {
        let (d, x, y) = (Local::new(0), Local::new(1), Local::new(2));
        let q = QuotientFact { d, x, k: 3 };
        let mut s = FactSet::new();
        s.add_quotient(q);
        assert_eq!(s.quotient_bounds(x), (None, None));
        let mut positive = s.clone();
        positive.add(Term::ZERO, Term::value(d), -1);
        assert_eq!(positive.quotient_bounds(x), (Some((3, d)), None));
        assert_eq!(positive.quotient_bounds(y), (None, None));
        let mut negative = s.clone();
        negative.add(Term::value(d), Term::ZERO, -1);
        assert_eq!(negative.quotient_bounds(x), (None, Some((-3, d))));
        for l in [d, x] {
            let mut killed = positive.clone();
            killed.kill_local(l);
            assert_eq!(killed.quotient_bounds(x), (None, None));
            let mut forgotten = positive.clone();
            forgotten.forget_local(l);
            assert_eq!(forgotten.quotient_bounds(x), (None, None));
        }
        let mut other = positive.clone();
        other.kill_local(y);
        assert_eq!(other.quotient_bounds(x), (Some((3, d)), None));
        let mut met = positive.clone();
        let mut without = FactSet::new();
        without.add(Term::ZERO, Term::value(d), -1);
        met.meet_with(without.view());
        assert_eq!(met.quotient_bounds(x), (None, None));
        assert_ne!(met, positive);
        let mut kept = positive.clone();
        kept.meet_with(positive.view());
        assert_eq!(kept, positive);
        let mut dead = positive.clone();
        dead.retain_quotients(|l| l != x);
        assert_eq!(dead.quotient_bounds(x), (None, None));
    }

    /// Composing through a term, eliminating it and relating pinned terms keep every
    /// constraint true: random sets of constraints that hold for random values of the nine
    /// terms (lengths non-negative, offsets often exact, so a wrong offset shows) stay true
    /// for those values after each operation, and `compose_through` records for every pair
    /// through the term an offset no weaker than the sum of the two.
    #[test]
    fn composing_and_eliminating_keep_constraints_true() {
        let mut rng = Rng(0x6a09_e667_f3bc_c908);
        for _ in 0..3000 {
            let mut values = [0i64; 9];
            for (t, v) in values.iter_mut().enumerate().skip(1) {
                let x = (rng.next() % 21) as i64;
                *v = if t % 2 == 0 { x / 2 } else { x - 10 };
            }
            let mut set = FactSet::new();
            for _ in 0..(rng.next() % 10) {
                let (a, b) = (rng.term(), rng.term());
                let slack = [0, 0, 1, 3][(rng.next() % 4) as usize];
                set.add(a, b, values[a.0 as usize] - values[b.0 as usize] + slack);
            }
            let all_true = |set: &FactSet, what: &str| {
                for k in set.constraints() {
                    assert!(
                        values[k.a.0 as usize] <= values[k.b.0 as usize] + k.c,
                        "{k:?} is false after {what} for {values:?}: {:?}",
                        set.constraints()
                    );
                }
            };
            let t = rng.term();
            let mut composed = set.clone();
            composed.compose_through(t);
            all_true(&composed, "compose_through");
            let mut ins: Vec<Constraint> = set.cons.iter().filter(|k| k.b == t).copied().collect();
            if t.is_len() && !ins.iter().any(|k| k.a == Term::ZERO) {
                // The lower bound every length has, which no set records.
                ins.push(Constraint::new(Term::ZERO, t, 0));
            }
            let outs: Vec<Constraint> = set.constraints_from(t).to_vec();
            if ins.len() * outs.len() <= MAX_COMPOSITIONS {
                for i in &ins {
                    for o in outs.iter().filter(|o| o.b != i.a) {
                        let sum = i.c as i128 + o.c as i128;
                        assert!(
                            composed
                                .recorded(i.a, o.b)
                                .is_some_and(|c| c as i128 <= sum)
                                || fit(sum)
                                    .is_some_and(|c| Constraint::implied_by_length(i.a, o.b, c)),
                            "{i:?} and {o:?} not composed: {:?}",
                            composed.constraints()
                        );
                    }
                }
            }
            let mut eliminated = set.clone();
            eliminated.eliminate(t);
            all_true(&eliminated, "eliminate");
            assert!(eliminated.constraints().iter().all(|k| !k.mentions(t)));
            let mut closed = set.clone();
            closed.close_through_zero();
            all_true(&closed, "close_through_zero");
        }
    }

    /// Eliminating or composing through a term composes every in-edge with every out-edge up
    /// to [`MAX_COMPOSITIONS`] pairs (8 × 8 = 64 here: all 64 recorded), and past it
    /// composes nothing (9 × 8 = 72: elimination just drops the term's constraints).
    #[test]
    fn compositions_stop_exactly_past_their_bound() {
        let value = |k: usize| Term::value(Local::new(k));
        let t = value(0);
        let set_with = |ins: usize| {
            let mut set = FactSet::new();
            for j in 1..=ins {
                set.add(value(j), t, 0);
            }
            for j in 1..=8 {
                set.add(t, value(100 + j), 0);
            }
            set
        };
        assert_eq!(8 * 8, MAX_COMPOSITIONS);
        let mut at_bound = set_with(8);
        at_bound.eliminate(t);
        assert_eq!(at_bound.constraints().len(), 64);
        assert!(at_bound.implies(value(3), value(105), 0));
        let mut composed = set_with(8);
        composed.compose_through(t);
        assert_eq!(composed.constraints().len(), 16 + 64);
        let mut past = set_with(9);
        past.eliminate(t);
        assert!(past.constraints().is_empty(), "{:?}", past.constraints());
        let mut not_composed = set_with(9);
        not_composed.compose_through(t);
        assert_eq!(not_composed.constraints().len(), 17);
    }

    /// The compare facts: a bool's compare is replaced by a new one for the same bool; `holds`
    /// answers for exactly the recorded compare; `facts` lists every constraint and compare;
    /// a term compared with itself is `<=` itself plus any non-negative offset.
    #[test]
    fn compare_facts_replace_and_answer_exactly() {
        let (c, i, n) = (Local::new(0), Local::new(1), Local::new(2));
        let lt = slt(c, i, n);
        let ge = CmpFact {
            op: CmpOp::Sge,
            ..lt
        };
        let mut set = FactSet::new();
        set.add_cmp(lt);
        assert!(set.holds(&Fact::CmpIs(lt)));
        assert!(!set.holds(&Fact::CmpIs(ge)));
        set.add_cmp(ge);
        assert_eq!(
            set.cmp_of(c),
            Some((CmpOp::Sge, Operand::Local(i), Operand::Local(n)))
        );
        assert!(set.holds(&Fact::CmpIs(ge)));
        assert!(!set.holds(&Fact::CmpIs(lt)));
        let k = Constraint::new(Term::value(i), Term::value(n), -1);
        set.add(k.a, k.b, k.c);
        assert_eq!(set.facts(), vec![Fact::Le(k), Fact::CmpIs(ge)]);
        let ti = Term::value(i);
        assert!(
            set.cmp_reads(i) && set.cmp_reads(n),
            "both operands are read"
        );
        assert!(
            !set.cmp_reads(c),
            "the bool holds the compare, it does not read it"
        );
        assert!(set.implies(ti, ti, 0));
        assert!(set.implies(ti, ti, 3));
        assert!(!set.implies(ti, ti, -1));
    }

    /// `lt_len_vecs` lists a vec only for a recorded `i < len(w)` (`i <= len(w) - 1`), not for
    /// `i <= len(w)` or a bound above it.
    /// No set records what every length satisfies (`0 <= len(v) + c`, `c >= 0`): `add`
    /// ignores it, a shift or a meet that weakens a length's lower bound that far drops it;
    /// yet the queries still answer it (the implicit edge `0 -> len(v)`), eliminating or
    /// composing through a length still uses it, and a length recorded `<= 0` is pinned at 0
    /// at a loop header.
    #[test]
    fn what_every_length_satisfies_is_never_recorded_but_still_used() {
        let (v, w, n) = (Local::new(0), Local::new(1), Local::new(2));
        let (lv, lw, tn) = (Term::len(v), Term::len(w), Term::value(n));
        let mut set = FactSet::new();
        set.add(Term::ZERO, lv, 0);
        set.add(Term::ZERO, lv, 5);
        assert!(set.constraints().is_empty());
        assert!(set.implies(Term::ZERO, lv, 0));
        assert_eq!(set.lower(lv), Some(0));
        // A pop weakens `len(v) > 0` to `len(v) >= 0`: dropped, not kept.
        set.add(Term::ZERO, lv, -1);
        assert_eq!(set.recorded(Term::ZERO, lv), Some(-1));
        set.shift(|t| (t == lv).then_some((-1, -1)));
        assert!(set.constraints().is_empty());
        // A meet of `len(v) > 0` with `len(v) > 3` keeps the weaker; of `len(v) > 0` with
        // nothing (its implicit `len(v) >= 0`), nothing.
        let (mut one, mut four) = (FactSet::new(), FactSet::new());
        one.add(Term::ZERO, lv, -1);
        four.add(Term::ZERO, lv, -4);
        let mut met = one.clone();
        met.meet_with(four.view());
        assert_eq!(met.recorded(Term::ZERO, lv), Some(-1));
        met.meet_with(FactSet::new().view());
        assert!(met.constraints().is_empty());
        // `len(v) <= n` and the implicit `0 <= len(v)` give `n >= 0` when `len(v)` goes, also
        // beside a recorded in-edge (`i < len(v)`, which gives `i < n`); a recorded lower
        // bound (`len(v) > 2`) replaces the implicit one.
        let ti = Term::value(Local::new(3));
        let mut bounded = FactSet::new();
        bounded.add(lv, tn, 0);
        bounded.add(ti, lv, -1);
        let mut composed = bounded.clone();
        composed.compose_through(lv);
        assert_eq!(composed.recorded(Term::ZERO, tn), Some(0));
        assert_eq!(composed.recorded(ti, tn), Some(-1));
        let mut above_two = bounded.clone();
        bounded.eliminate(lv);
        assert_eq!(
            bounded.constraints(),
            &[
                Constraint::new(Term::ZERO, tn, 0),
                Constraint::new(ti, tn, -1)
            ]
        );
        above_two.add(Term::ZERO, lv, -3);
        above_two.eliminate(lv);
        assert_eq!(above_two.recorded(Term::ZERO, tn), Some(-3));
        // `len(v) <= 0` and `len(w) <= 0` at a header: `len(v) == len(w)` made explicit.
        let mut empty = FactSet::new();
        empty.add(lv, Term::ZERO, 0);
        empty.add(lw, Term::ZERO, 0);
        empty.close_through_zero();
        assert_eq!(empty.recorded(lv, lw), Some(0));
        assert_eq!(empty.recorded(lw, lv), Some(0));
    }

    /// The earlier `close_through_zero`: each lower bound's upper bound found by a search of
    /// the set, then a second pass for the lengths recorded `<= 0`.
    fn close_through_zero_as_before(set: &mut FactSet) {
        let mut pinned: Vec<(Term, i64)> = Vec::new();
        let upper = |set: &FactSet, t: Term| {
            set.constraints_from(t)
                .iter()
                .find(|u| u.b == Term::ZERO)
                .map(|u| u.c as i128)
        };
        for k in set.constraints_from(Term::ZERO) {
            let t = k.b;
            if upper(set, t) == Some(-(k.c as i128)) {
                pinned.push((t, -k.c));
            }
        }
        for k in &set.cons {
            if k.a.is_len()
                && k.b == Term::ZERO
                && k.c == 0
                && set.recorded(Term::ZERO, k.a).is_none()
            {
                pinned.push((k.a, 0));
            }
        }
        if pinned.len() > INLINE_TERMS {
            return;
        }
        pinned.sort_unstable_by_key(|&(t, _)| t);
        for (i, &(x, cx)) in pinned.iter().enumerate() {
            for &(y, cy) in &pinned[i + 1..] {
                set.add_eq(x, y, cx as i128 - cy as i128);
            }
        }
    }

    /// The one-pass `close_through_zero` relates the terms the earlier two-pass one related,
    /// on random sets with terms pinned to constants, lengths recorded `<= 0`, and bounds
    /// that almost pin a term.
    #[test]
    fn close_through_zero_pins_what_the_two_pass_version_pins() {
        let mut rng = Rng(0x510e_527f_ade6_82d1);
        let mut related = 0;
        for _ in 0..5000 {
            let mut set = rng.set(10);
            for _ in 0..rng.next() % 5 {
                let t = rng.term();
                let v = (rng.next() % 7) as i64 - 3;
                set.add(t, Term::ZERO, v);
                if !rng.next().is_multiple_of(4) {
                    let off = i64::from(rng.next().is_multiple_of(3));
                    set.add(Term::ZERO, t, -v + off);
                }
            }
            let mut before = set.clone();
            close_through_zero_as_before(&mut before);
            let mut now = set.clone();
            now.close_through_zero();
            assert_eq!(now, before, "{set:?}");
            related += usize::from(now != set);
        }
        assert!(related > 500, "{related}");
    }

    /// At a loop header at most `INLINE_TERMS` pinned terms are related pairwise: sixteen
    /// values pinned (`x_k == k`) give `x_j == x_k + (j - k)` for every pair; a seventeenth
    /// (here a length recorded `<= 0`, pinned by its implicit lower bound) gives nothing.
    #[test]
    fn close_through_zero_relates_at_most_sixteen_pinned_terms() {
        let pinned = |n: usize, with_len: bool| {
            let mut set = FactSet::new();
            for k in 0..n {
                let t = Term::value(Local::new(k));
                set.add(t, Term::ZERO, k as i64);
                set.add(Term::ZERO, t, -(k as i64));
            }
            if with_len {
                set.add(Term::len(Local::new(n)), Term::ZERO, 0);
            }
            set.close_through_zero();
            set
        };
        let x = |k: usize| Term::value(Local::new(k));
        let sixteen = pinned(INLINE_TERMS, false);
        assert_eq!(sixteen.recorded(x(15), x(0)), Some(15));
        assert_eq!(sixteen.recorded(x(0), x(15)), Some(-15));
        assert_eq!(
            sixteen.constraints().len(),
            2 * INLINE_TERMS + INLINE_TERMS * (INLINE_TERMS - 1)
        );
        let fifteen_and_a_length = pinned(INLINE_TERMS - 1, true);
        let len = Term::len(Local::new(INLINE_TERMS - 1));
        assert_eq!(fifteen_and_a_length.recorded(len, x(3)), Some(-3));
        let seventeen = pinned(INLINE_TERMS, true);
        assert_eq!(seventeen.recorded(x(15), x(0)), None);
        assert_eq!(seventeen.constraints().len(), 2 * INLINE_TERMS + 1);
    }

    #[test]
    fn lt_len_vecs_lists_only_strict_bounds() {
        let (i, w, x, y) = (Local::new(0), Local::new(1), Local::new(2), Local::new(3));
        let mut set = FactSet::new();
        set.add(Term::value(i), Term::len(w), -1);
        set.add(Term::value(i), Term::len(x), 0);
        set.add(Term::value(i), Term::len(y), 1);
        assert_eq!(set.lt_len_vecs(i).collect::<Vec<_>>(), vec![w]);
    }

    /// With the step log on (what `step` reports), killing a local removes exactly the
    /// constraints and compares that mention it, and logs each removal.
    #[test]
    fn logged_removals_remove_what_they_log() {
        let (c, d, i, n) = (Local::new(0), Local::new(1), Local::new(2), Local::new(3));
        let on_i = CmpFact {
            c,
            op: CmpOp::Slt,
            lhs: Operand::Local(i),
            rhs: Operand::Const(4),
        };
        let on_n = CmpFact {
            c: d,
            op: CmpOp::Sge,
            lhs: Operand::Local(n),
            rhs: Operand::Const(0),
        };
        let k_i = Constraint::new(Term::value(i), Term::ZERO, 3);
        let k_n = Constraint::new(Term::ZERO, Term::value(n), 0);
        for log in [false, true] {
            let mut set = FactSet::new();
            set.add_cmp(on_i);
            set.add_cmp(on_n);
            set.add(k_i.a, k_i.b, k_i.c);
            set.add(k_n.a, k_n.b, k_n.c);
            if log {
                set.log = Some(Vec::new());
            }
            set.kill_local(i);
            assert_eq!(
                set.facts(),
                vec![Fact::Le(k_n), Fact::CmpIs(on_n)],
                "log {log}"
            );
            if log {
                let logged = set.log.take().unwrap_or_default();
                assert!(logged.contains(&(Fact::CmpIs(on_i), false)), "{logged:?}");
                assert!(logged.contains(&(Fact::Le(k_i), false)), "{logged:?}");
            }
        }
    }

    /// `find_pair` answers what the binary search does, on random sets short enough to be
    /// scanned and long enough to be halved, for pairs in them, between them and past both
    /// ends.
    #[test]
    fn finding_a_pair_agrees_with_the_binary_search() {
        let mut rng = Rng(0xa54f_f53a_5f1d_36f1);
        let mut scanned = 0;
        for _ in 0..3000 {
            let mut set = FactSet::new();
            for _ in 0..(rng.next() % 40) {
                let (a, b) = (
                    Term((rng.next() % 13) as u32),
                    Term((rng.next() % 13) as u32),
                );
                set.add(a, b, 0);
            }
            let key = packed_pair(
                Term((rng.next() % 14) as u32),
                Term((rng.next() % 14) as u32),
            );
            let halved = set.cons.binary_search_by_key(&key, Constraint::packed_key);
            assert_eq!(find_pair(&set.cons, key), halved, "{key:x} in {set:?}");
            scanned += usize::from(set.cons.len() <= SCAN_AT_MOST);
        }
        assert!(scanned > 300, "{scanned} scanned");
    }

    /// The earlier `eliminate`: one scan for the first constraint about `t`, then one pass
    /// that logs each constraint as it removes it.
    fn eliminate_as_before(set: &mut FactSet, t: Term) {
        let Some(first) = set.cons.iter().position(|k| k.mentions(t)) else {
            return;
        };
        let mut ins = ConstraintBuf::new();
        let mut outs = ConstraintBuf::new();
        let mut at = first;
        for i in first..set.cons.len() {
            let k = set.cons[i];
            if k.mentions(t) {
                if k.a == t {
                    outs.push(k);
                } else {
                    ins.push(k);
                }
                set.note(Fact::Le(k), false);
            } else {
                set.cons[at] = k;
                at += 1;
            }
        }
        set.cons.truncate(at);
        add_implicit_lower_bound(t, &mut ins);
        if ins.len() * outs.len() > MAX_COMPOSITIONS {
            return;
        }
        for i in &ins {
            for o in &outs {
                if i.a != o.b {
                    set.add_wide(i.a, o.b, i.c as i128 + o.c as i128);
                }
            }
        }
    }

    /// `eliminate` (removals logged after the pass, in the set's order) leaves the set and
    /// the log the earlier version left, on random sets with the log on and off, for every
    /// kind of term (with constraints into it before and after its own run, or none).
    #[test]
    fn eliminating_logs_and_leaves_what_it_did_before() {
        let mut rng = Rng(0x3c6e_f372_fe94_f82b);
        let mut logged = 0;
        for round in 0..4000 {
            let mut set = rng.set(20);
            if round % 2 == 1 {
                set.log = Some(Vec::new());
            }
            let t = rng.term();
            let copy = |set: &FactSet| {
                let mut copy = set.clone();
                copy.log = set.log.clone();
                copy
            };
            let mut before = copy(&set);
            eliminate_as_before(&mut before, t);
            let mut now = copy(&set);
            now.eliminate(t);
            assert_eq!(now, before, "eliminate {t:?} in {set:?}");
            assert_eq!(now.log, before.log, "eliminate {t:?} in {set:?}");
            logged += now.log.as_ref().map_or(0, |l| l.len());
        }
        assert!(logged > 5000, "{logged} logged");
    }

    /// A length change (`push`: +1) moves the constraints of the length, drops one whose
    /// new offset does not fit an `i64`, and keeps the others unchanged.
    #[test]
    fn shift_moves_drops_only_what_overflows_and_keeps_the_rest() {
        let (i, v) = (Local::new(0), Local::new(1));
        let (ti, tv) = (Term::value(i), Term::len(v));
        let mut set = FactSet::new();
        set.add(tv, Term::ZERO, i64::MAX);
        set.add(ti, tv, -1);
        set.add(Term::ZERO, ti, 0);
        set.shift(|t| (t == tv).then_some((1, 1)));
        let mut expected = vec![
            Constraint::new(Term::ZERO, ti, 0),
            Constraint::new(ti, tv, -2),
        ];
        expected.sort_by_key(|k| k.key());
        assert_eq!(set.constraints(), expected.as_slice());
    }

    /// A pooled set comes back empty, whatever the set given back held: facts of one
    /// analysis must never reach another's states.
    #[test]
    fn a_set_from_the_pool_is_empty_but_keeps_its_buffers() {
        let (i, v) = (Local::new(0), Local::new(1));
        let (ti, tv) = (Term::value(i), Term::len(v));
        let mut pool = FactSetPool::default();
        assert!(pool.take().entries() == 0 && pool.is_empty());
        let mut set = FactSet::new();
        set.add(ti, tv, -1);
        set.add(Term::ZERO, ti, 0);
        set.log = Some(vec![]);
        let capacity = set.cons.capacity();
        pool.give(set);
        // A set without buffers is not worth keeping.
        pool.give(FactSet::new());
        assert_eq!(pool.len(), 1);
        let again = pool.take();
        assert_eq!(again.entries(), 0);
        assert!(again.log.is_none());
        assert_eq!(again.cons.capacity(), capacity);
        assert!(pool.is_empty());
    }

    /// The meet walks both sides' pairs in order: pairs that only one side records,
    /// interleaved, each come out once, in order, with the weaker of the recorded offset and
    /// the other side's path (both ways round).
    #[test]
    fn meet_merges_interleaved_pairs_into_one_sorted_set() {
        // Each side records pairs the other does not, interleaved in pair order, and both
        // record one pair; every pair is bounded on the other side by a path through 0.
        let t = |k: usize| Term::value(Local::new(k));
        let mut left = FactSet::new();
        let mut right = FactSet::new();
        for k in 1..=6 {
            // Both sides pin every value: `t(k) == k` on the left, `t(k) == 2k` on the right.
            left.add_eq(t(k), Term::ZERO, k as i128);
            right.add_eq(t(k), Term::ZERO, 2 * k as i128);
        }
        for (a, b) in [(1, 2), (3, 4), (5, 6)] {
            left.add(t(a), t(b), -1);
        }
        for (a, b) in [(2, 3), (4, 5), (5, 6)] {
            right.add(t(a), t(b), -2);
        }
        let mut met = left.clone();
        met.meet_with(right.view());
        let cons = met.constraints();
        assert!(
            cons.windows(2).all(|w| w[0].key() < w[1].key()),
            "sorted, one per pair: {cons:?}"
        );
        // A pair recorded on one side keeps the weaker of its offset and the other side's path
        // (through the pinned values).
        let offset =
            |a: usize, b: usize| cons.iter().find(|k| k.key() == (t(a), t(b))).map(|k| k.c);
        assert_eq!(offset(1, 2), Some(-1), "left -1, right 2 - 4 = -2");
        assert_eq!(offset(2, 3), Some(-1), "right -2, left 2 - 3 = -1");
        assert_eq!(offset(3, 4), Some(-1), "left -1, right 6 - 8 = -2");
        assert_eq!(offset(4, 5), Some(-1), "right -2, left 4 - 5 = -1");
        assert_eq!(offset(5, 6), Some(-1), "both record it: the weaker");
        let mut other_way = right.clone();
        other_way.meet_with(left.view());
        assert_eq!(other_way.constraints(), cons, "the meet is symmetric");
    }

    /// Forgetting a dead local drops the compare stored in it and nothing else: a compare
    /// that only reads it stays, and so does every other compare.
    #[test]
    fn forgetting_a_local_drops_only_the_compare_it_holds() {
        let (c, d, i, n) = (Local::new(0), Local::new(1), Local::new(2), Local::new(3));
        let held = slt(c, i, n);
        let reads_i = CmpFact { c: d, ..held };
        let mut set = FactSet::new();
        set.add_cmp(held);
        set.add_cmp(reads_i);
        set.forget_local(i);
        assert_eq!(set.cmp_of(c), Some((CmpOp::Slt, held.lhs, held.rhs)));
        assert_eq!(set.cmp_of(d), Some((CmpOp::Slt, held.lhs, held.rhs)));
        set.forget_local(c);
        assert_eq!(set.cmp_of(c), None, "the compare c held is gone");
        assert_eq!(set.cmp_of(d), Some((CmpOp::Slt, held.lhs, held.rhs)));
        let mut only = FactSet::new();
        only.add_cmp(held);
        only.forget_local(c);
        assert_eq!(only.cmp_of(c), None, "also when it is the only compare");
    }

    /// The meet keeps a pair recorded on one side when the other side implies it by a path
    /// (`i <= len(a)` against `i == 0`, whose `i <= 0 <= len(a)` implies it), whichever side
    /// records it, and drops a pair the other side does not bound.
    #[test]
    fn meet_keeps_a_pair_one_side_implies_by_a_path() {
        let (i, a, j) = (Local::new(0), Local::new(1), Local::new(2));
        let (ti, ta, tj) = (Term::value(i), Term::len(a), Term::value(j));
        let mut recorded = FactSet::new();
        recorded.add(ti, ta, 0);
        recorded.add(tj, Term::ZERO, 5);
        let mut zero = FactSet::new();
        zero.add(ti, Term::ZERO, 0);
        zero.add(Term::ZERO, ti, 0);
        let mut left = recorded.clone();
        left.meet_with(zero.view());
        assert_eq!(left.constraints(), &[Constraint::new(ti, ta, 0)]);
        let mut right = zero.clone();
        right.meet_with(recorded.view());
        assert_eq!(right.constraints(), &[Constraint::new(ti, ta, 0)]);
    }
}
