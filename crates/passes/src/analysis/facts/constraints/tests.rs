//! Unit tests of the fact language: the searches against a plain dynamic program, the set's
//! edits and lattice operations against earlier versions and random valuations, and the
//! small generator of random sets the transfer rules' tests use too.

use super::search::{Search, SourceDistances};
use super::set::{
    add_implicit_lower_bound, find_pair, ConstraintBuf, INLINE_TERMS, MAX_COMPOSITIONS,
    SCAN_AT_MOST,
};
use super::terms::packed_pair;
use super::*;
use poolopt_ir::{CmpOp, EntityRef, Local, Operand};

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
                            || fit(sum).is_some_and(|c| Constraint::implied_by_length(i.a, o.b, c)),
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
        if k.a.is_len() && k.b == Term::ZERO && k.c == 0 && set.recorded(Term::ZERO, k.a).is_none()
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
    let offset = |a: usize, b: usize| cons.iter().find(|k| k.key() == (t(a), t(b))).map(|k| k.c);
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
