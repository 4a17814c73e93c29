//! The queries of a fact set ([`FactQueries`]), written once for a working
//! [`FactSet`](super::FactSet) and a stored [`FactView`]: what a bound or a relation is known
//! to be, answered from the recorded facts and, when those do not say, by the distance search
//! (`search`).

use super::search::{no_path, with_search};
use super::terms::packed_pair;
use super::{
    fit, CmpFact, Constraint, Fact, FactView, QuotientBound, QuotientFact, Term, TermKind, MAX_LEN,
};
use poolopt_ir::{CmpOp, Local, Operand};

/// The queries of a fact set, answered alike by a working [`FactSet`](super::FactSet) and a
/// stored [`FactView`]: each is written once, over the three sorted slices of facts.
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

    /// The smallest `w` found with `a <= b + w` (a path of at most
    /// [`SEARCH_DEPTH`](super::SEARCH_DEPTH) edges).
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
