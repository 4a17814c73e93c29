//! The fact set: its storage and its edits.
//!
//! A [`FactSet`] holds at most one constraint per ordered pair of terms (the strongest, smallest
//! `c`) in one flat vector sorted by the pair, plus the compares known for bool locals
//! ([`CmpFact`]), so the meet is one merge and a copy is one slice copy. A stored state is the
//! same three sorted slices borrowed from shared buffers ([`FactView`]); the queries are
//! written once for both ([`FactQueries`]).
//!
//! No set records what the implicit edge `0 -> len(v)` of every length already says (`0 <=
//! len(v) + c` with `c >= 0`): [`FactSet::add`], a shift and a meet leave it out, and the
//! operations that read a length's in-edges directly (eliminating or composing through it,
//! pinning it at a loop header) add the implicit one. Every query answers the same; the sets
//! are smaller, and a header no longer flips between `len(v) >= 0` and nothing when a loop
//! pops.
//!
//! Removing a term ([`FactSet::eliminate`], when a local dies or is reassigned, or a length
//! changes by an unknown amount) first composes every pair of constraints through it (`x <= t +
//! c1` and `t <= y + c2` give `x <= y + c1 + c2`: Fourier–Motzkin elimination, exact for
//! difference constraints), so what the term linked stays known.

use super::terms::packed_pair;
use super::{fit, CmpFact, Constraint, Fact, FactQueries, QuotientFact, Term};
use poolopt_ir::Local;
use smallvec::SmallVec;

/// Past this many compositions, eliminating a term just drops its constraints (always sound).
pub(super) const MAX_COMPOSITIONS: usize = 64;

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
pub(super) const INLINE_TERMS: usize = 16;

/// Sets at most this long are searched by a scan from the start instead of by halving.
pub(super) const SCAN_AT_MOST: usize = 8;

/// Where the pair `key` ([`packed_pair`]) is in `cons` (sorted by pair), or where it would go:
/// what `binary_search_by_key` answers. Most sets hold a few constraints (seven on average
/// where slot_pool_8 adds one at `-O2`); up to [`SCAN_AT_MOST`] a scan to the first pair not
/// below `key` takes fewer steps than halving, each cheaper.
#[inline]
pub(super) fn find_pair(cons: &[Constraint], key: u64) -> Result<usize, usize> {
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
pub(super) type ConstraintBuf = SmallVec<[Constraint; INLINE_TERMS]>;

/// Adds to `ins`, the constraints into term `t` gathered to compose through it, the bound
/// `0 <= len(v)` every length has and no set records ([`Constraint::implied_by_length`]),
/// unless a recorded lower bound of `t` is there.
pub(super) fn add_implicit_lower_bound(t: Term, ins: &mut ConstraintBuf) {
    if t.is_len() && !ins.iter().any(|k| k.a == Term::ZERO) {
        ins.push(Constraint::new(Term::ZERO, t, 0));
    }
}

/// The facts holding at one program point (see the module docs).
#[derive(Debug, Default)]
pub struct FactSet {
    /// Sorted by `(a, b)`, one per pair.
    pub(super) cons: Vec<Constraint>,
    /// Sorted by the bool local, one per local.
    pub(super) cmps: Vec<CmpFact>,
    /// Sorted, one per quotient local (usually none).
    pub(super) quotients: Vec<QuotientFact>,
    /// When `Some`, every fact added (`true`) or removed (`false`) is appended.
    pub(in crate::analysis::facts) log: Option<Vec<(Fact, bool)>>,
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
    pub(in crate::analysis::facts) fn copy_keeping_cmps(
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

    pub(super) fn note(&mut self, fact: Fact, added: bool) {
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
    /// fact analysis records values only of tracked locals
    /// ([`super::relevance`](crate::analysis::facts::relevance)), so for an untracked one only
    /// the compares that mention it go, without a scan of the constraints (once per
    /// instruction, that scan made a set of thousands of facts quadratic).
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
}

/// A fact set kept elsewhere than in a [`FactSet`] of its own: a block's entry or exit state,
/// stored with the other blocks' states in shared buffers (see `BlockStates`). It answers the
/// same queries ([`FactQueries`]) and is copied into a working set to be changed.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FactView<'a> {
    pub(super) cons: &'a [Constraint],
    pub(super) cmps: &'a [CmpFact],
    pub(super) quotients: &'a [QuotientFact],
}

impl<'a> FactView<'a> {
    /// The view of three sorted slices, as a [`FactSet`] holds them.
    pub(in crate::analysis::facts) fn new(
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
