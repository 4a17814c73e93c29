//! Transfer functions: what each instruction and each branch edge does to the constraints.
//!
//! Every rule below derives constraints about the *exact* values after the instruction from the
//! constraints before it; the soundness argument of each is next to it and in docs/passes.md
//! ("Facts and bounds-check elimination"). Values are `i64` and arithmetic wraps, so a rule for
//! `add`/`sub`/`mul` first proves from the facts that the exact result fits in an `i64`; when
//! it cannot, the destination gets no constraint.
//!
//! Loop induction variables need no rule of their own: the analysis is a must-dataflow, so at a
//! loop header a constraint survives only if it holds on entry and after every back edge. For
//! `i = start; while i < n { ...; i = i + step }` the update rewrites the old `i`'s constraints
//! with the step (`0 <= i` becomes `0 <= i - step`, i.e. `step <= i`), only when the facts at
//! the update rule out overflow (`i + 2` needs `i <= i64::MAX - 2`, which any bound `i <=
//! len(v) + c` with a small `c` gives, lengths being at most 2^62; `i < n` for any value `n`
//! gives `i <= i64::MAX - 1`, enough for a step of 1, values being at most `i64::MAX`; an
//! unbounded `i` gets no constraint); the meet at the header then keeps `0 <= i` for a
//! non-negative start and a positive step (count-down loops keep `i <= len(a)`), and widening
//! drops bounds that grow each iteration. Whether the *step can skip the bound* needs no special case either: the
//! accesses are proved from the constraints at the access (`i += 2` under `i + 1 < len(a)`
//! proves `a[i + 1]`; under `i < len(a)` it does not, and under `i != len(a)` the `ne` rule only
//! fires when `i <= len(a)` holds at the head, which a step of 2 breaks).
//!
//! `d = x sdiv k` for a constant `k >= 1` also records a quotient fact ([`QuotientFact`]): not
//! a constraint, but while neither `d` nor `x` is reassigned, a bound `d >= 1` (or `d <= -1`)
//! gives `x >= k` (`x <= -k`), since truncating division by `k` keeps the sign and `|x| >= k *
//! |d|`.

use super::constraints::{
    fit, lowers_of_values, upper_and_dist, uppers_of_values, CmpFact, FactQueries, FactSet,
    FactView, QuotientFact, Term,
};
use super::relevance::Tracked;
use super::CallKills;
use crate::analysis::compare_bounds::{compare_consequences, Premise};
use poolopt_ir::{
    BinaryOp, Block, Check, CmpOp, Function, Inst, InstKind, Local, Operand, Terminator, Type,
    UnaryOp,
};
use smallvec::SmallVec;

fn is_i64(func: &Function, l: Local) -> bool {
    func.local_ty(l) == Type::I64
}

fn is_vec(func: &Function, l: Local) -> bool {
    matches!(func.local_ty(l), Type::Vec(_))
}

/// Whether two vec locals may hold the same vec: same vec type.
pub fn may_alias(func: &Function, v: Local, w: Local) -> bool {
    v == w || (is_vec(func, v) && func.local_ty(v) == func.local_ty(w))
}

/// An `i64` operand as a term plus a constant: a local is itself plus 0, a constant is 0 plus
/// itself. `None` for operands of other types.
fn term_of(func: &Function, o: Operand) -> Option<(Term, i128)> {
    match o {
        Operand::Local(l) if is_i64(func, l) => Some((Term::value(l), 0)),
        Operand::Local(_) => None,
        Operand::Const(k) => Some((Term::ZERO, k as i128)),
    }
}

/// An operand as a term plus a constant.
type TermPlus = (Term, i128);

/// Constraints to add, as `(a, b, c)` for `a <= b + c` (on the stack for the usual few).
pub(super) type Gen = SmallVec<[(Term, Term, i128); 8]>;

/// `x <= y + c` for operand terms.
fn le(gen: &mut Gen, x: (Term, i128), y: (Term, i128), c: i128) {
    if x.0 != y.0 {
        gen.push((x.0, y.0, y.1 + c - x.1));
    }
}

/// `lo <= t <= hi` for constants (either side optional).
fn within(gen: &mut Gen, t: Term, lo: Option<i128>, hi: Option<i128>) {
    if let Some(lo) = lo {
        gen.push((Term::ZERO, t, -lo));
    }
    if let Some(hi) = hi {
        gen.push((t, Term::ZERO, hi));
    }
}

/// Lower bound of an operand (a constant is its own bound).
fn lower_of(s: &impl FactQueries, o: (Term, i128)) -> Option<i128> {
    if o.0 == Term::ZERO {
        return Some(o.1);
    }
    s.lower(o.0).map(|l| l + o.1)
}

/// Whether the operand `o` is known to be at least `limit`: `lower_of(s, o) >= limit`, answered
/// without a path search when a recorded bound already reaches `limit` (a length is at least 0;
/// a recorded `t >= -c` is a path of one edge, which the search would find, so the searched
/// bound is at least as large). Same answer as the search, for less: most operands a rule asks
/// about (`len` results, loop counters from 0) carry their lower bound directly.
fn at_least(s: &impl FactQueries, o: (Term, i128), limit: i128) -> bool {
    if o.0 == Term::ZERO {
        return o.1 >= limit;
    }
    let need = limit - o.1;
    if o.0.is_len() && need <= 0 {
        return true;
    }
    if s.recorded(Term::ZERO, o.0)
        .is_some_and(|c| -(c as i128) >= need)
    {
        return true;
    }
    s.lower(o.0).is_some_and(|l| l >= need)
}

/// Upper bound of an operand (a constant is its own bound).
fn upper_of(s: &impl FactQueries, o: (Term, i128)) -> Option<i128> {
    if o.0 == Term::ZERO {
        return Some(o.1);
    }
    s.upper(o.0).map(|u| u + o.1)
}

/// A lower and an upper bound, each if known.
type Bounds = (Option<i128>, Option<i128>);

/// The bounds of the local operands `x` and `y` of an `add` (value terms plus 0), when they
/// prove that `x + y` fits an `i64` (each sum of two bounds on one side fits, or one operand's
/// bound on that side is on the side of 0 the other moves away from); `None` when they do
/// not. The upper bounds are asked for first (both by one walk): without them the lower ones
/// are not needed.
fn sum_bounds(s: &impl FactQueries, x: TermPlus, y: TermPlus) -> Option<(Bounds, Bounds)> {
    debug_assert!(x.1 == 0 && y.1 == 0);
    let (hx, hy) = uppers_of_values(s.view(), x.0, y.0);
    let up = in_i64(hx.zip(hy).map(|(a, b)| a + b))
        || hy.is_some_and(|h| h <= 0)
        || hx.is_some_and(|h| h <= 0);
    if !up {
        return None;
    }
    let (lx, ly) = lowers_of_values(s.view(), x.0, y.0);
    let nonneg = |l: Option<i128>| l.is_some_and(|l| l >= 0);
    let down = in_i64(lx.zip(ly).map(|(a, b)| a + b)) || nonneg(lx) || nonneg(ly);
    down.then_some(((lx, hx), (ly, hy)))
}

fn in_i64(x: Option<i128>) -> bool {
    x.is_some_and(|x| fit(x).is_some())
}

/// Applies one instruction to `s`; a call kills the length facts its callee may change.
pub(super) fn transfer_with(
    func: &Function,
    calls: &CallKills,
    tracked: &Tracked,
    inst: Inst,
    s: &mut FactSet,
) {
    let kind = func.inst(inst);
    if let Some(d) = untracked_write(func, tracked, kind) {
        s.kill_untracked_local(d);
    } else if let Some((d, cmp)) = untracked_compare(func, tracked, kind) {
        s.kill_untracked_local(d);
        if let Some(f) = cmp {
            s.add_cmp(f);
        }
    } else if !is_idle_store(func, tracked, kind) {
        transfer_rules(func, calls, tracked, kind, s);
    }
}

/// Whether a vec access with this index and check proves something when it does not trap
/// (what rule 1 of [`transfer_rules`] records): a checked access with a tracked `i64` index
/// local (`0 <= i < len(v)`) or a constant index `k >= 0` (`len(v) > k`).
fn access_proves(func: &Function, tracked: &Tracked, index: Operand, check: Check) -> bool {
    check.is_checked()
        && match index {
            Operand::Local(i) => is_i64(func, i) && tracked.local(i),
            Operand::Const(k) => k >= 0,
        }
}

/// Whether `kind` is a store that changes no fact: `set` writes no local and changes no
/// length, so [`transfer_rules`] would do nothing for it unless its check proves something
/// ([`access_proves`]). Most stores the analysis replays at `-O2` were proved already:
/// 10 of the 17 it replays on slot_pool_8 are `set.unchecked`.
fn is_idle_store(func: &Function, tracked: &Tracked, kind: &InstKind) -> bool {
    matches!(*kind, InstKind::VecSet { index, check, .. } if !access_proves(func, tracked, index, check))
}

/// The destination of a compare no constraint is about (untracked, not a vec), and the
/// compare it then holds (none when it reads its own destination): all [`transfer_rules`]
/// would do is drop the compares that mention it and record this one, which is what the
/// caller does, without the rules' other steps (a compare proves no access, changes no
/// length, derives no constraint and records no quotient). Compares are most of the
/// instructions the short way of [`untracked_write`] leaves to the rules: 65 of the 233 the
/// fact analysis replays on slot_pool_8 at `-O2`.
fn untracked_compare(
    func: &Function,
    tracked: &Tracked,
    kind: &InstKind,
) -> Option<(Local, Option<CmpFact>)> {
    let InstKind::Compare { dst, op, lhs, rhs } = *kind else {
        return None;
    };
    if tracked.local(dst) || is_vec(func, dst) {
        return None;
    }
    let lo = Operand::Local(dst);
    let cmp = (lhs != lo && rhs != lo).then_some(CmpFact {
        c: dst,
        op,
        lhs,
        rhs,
    });
    Some((dst, cmp))
}

/// The destination of `kind` when all the instruction does to the facts is write it, a local
/// no constraint is about (untracked, not a vec): no rule derives facts about an untracked
/// destination (nor a quotient), and the instruction changes no vec length, proves no
/// access and records no compare, so [`transfer_rules`] would only drop the compares that
/// mention it ([`FactSet::kill_untracked_local`]), for less. Many instructions write such a
/// local (a struct, a field, a sum no check depends on): 125 of the 358 instructions the
/// fact analysis replays on slot_pool_8 at `-O2`.
fn untracked_write(func: &Function, tracked: &Tracked, kind: &InstKind) -> Option<Local> {
    match *kind {
        InstKind::Copy { dst, .. }
        | InstKind::Binary { dst, .. }
        | InstKind::Cast { dst, .. }
        | InstKind::Make { dst, .. }
        | InstKind::GetField { dst, .. }
        | InstKind::SetField { dst, .. }
        | InstKind::VecLen { dst, .. } => {
            (!tracked.local(dst) && !is_vec(func, dst)).then_some(dst)
        }
        // A load whose check proves nothing (rule 1), and an operation on one value other
        // than the `not` of a bool (which may record the negated compare), only write.
        InstKind::VecGet {
            dst, index, check, ..
        } if !access_proves(func, tracked, index, check) => {
            (!tracked.local(dst) && !is_vec(func, dst)).then_some(dst)
        }
        InstKind::Unary { dst, op, .. }
            if !(op == UnaryOp::Not && func.local_ty(dst) == Type::BOOL) =>
        {
            (!tracked.local(dst) && !is_vec(func, dst)).then_some(dst)
        }
        _ => None,
    }
}

/// Every rule of the module applied to `s` for the instruction `kind`.
fn transfer_rules(
    func: &Function,
    calls: &CallKills,
    tracked: &Tracked,
    kind: &InstKind,
    s: &mut FactSet,
) {
    // 1. A checked access that did not trap proves `0 <= i < len(v)` (a constant index `k`:
    //    `len(v) > k`); the operands are read before the destination is written.
    match *kind {
        InstKind::VecGet {
            vec, index, check, ..
        }
        | InstKind::VecSet {
            vec, index, check, ..
        } if check.is_checked() => match index {
            Operand::Local(i) if is_i64(func, i) && tracked.local(i) => {
                s.add(Term::ZERO, Term::value(i), 0);
                s.add(Term::value(i), Term::len(vec), -1);
            }
            Operand::Const(k) if k >= 0 => s.add_wide(Term::ZERO, Term::len(vec), -(k as i128) - 1),
            _ => {}
        },
        _ => {}
    }
    // 2. Facts about the destination's new value, from the pre-state.
    let mut gen = Gen::new();
    let cmp = def_facts(func, tracked, kind, s, &mut gen);
    // 3. Effects on vec lengths.
    match *kind {
        // push: len(vec) grows by exactly 1; a vec that may alias it grows by 0 or 1 (when
        // none may, only constraints on len(vec) are looked at).
        InstKind::VecPush { vec, .. } if calls.alone(vec) => {
            let len = Term::len(vec);
            s.shift(|t| (t == len).then_some((1, 1)))
        }
        InstKind::VecPush { vec, .. } => s.shift(|t| {
            let v = t.len_of()?;
            if v == vec {
                Some((1, 1))
            } else {
                calls.may_alias(func, v, vec).then_some((0, 1))
            }
        }),
        // pop (checked: it did not trap; unchecked: proven non-empty): by exactly -1 / -1 or 0.
        InstKind::VecPop { vec, .. } if calls.alone(vec) => {
            let len = Term::len(vec);
            s.shift(|t| (t == len).then_some((-1, -1)))
        }
        InstKind::VecPop { vec, .. } => s.shift(|t| {
            let v = t.len_of()?;
            if v == vec {
                Some((-1, -1))
            } else {
                calls.may_alias(func, v, vec).then_some((-1, 0))
            }
        }),
        // drop: the vec is now empty; a may-alias vec is either it or unchanged.
        InstKind::VecDrop { vec } => {
            for t in s.terms() {
                if t.len_of()
                    .is_some_and(|v| v != vec && calls.may_alias(func, v, vec))
                {
                    s.eliminate(t);
                }
            }
            s.eliminate(Term::len(vec));
            s.add(Term::len(vec), Term::ZERO, 0);
        }
        // A callee reaches a caller's vec only through a vec argument (vecs hold no vecs,
        // struct fields are scalars, there are no globals), and can change its length only if
        // its summary (or a callee's) pushes, pops or drops a vec of that type; so the length
        // of `v` may change only if an argument may alias `v` and the callee may change vecs
        // of that type.
        InstKind::Call {
            func: callee,
            ref args,
            ..
        } => {
            let changed: Vec<Local> = args
                .iter()
                .filter_map(|a| a.as_local())
                .filter(|&w| is_vec(func, w) && calls.may_change(callee, func.local_ty(w)))
                .collect();
            if !changed.is_empty() {
                for t in s.terms() {
                    if t.len_of()
                        .is_some_and(|v| changed.iter().any(|&w| calls.may_alias(func, v, w)))
                    {
                        s.eliminate(t);
                    }
                }
            }
        }
        _ => {}
    }
    // A vec just pushed to holds at least one element, whatever was known of it before
    // (its old length was at least 0): this is what proves `push v, x; y = pop v` on a vec
    // parameter or call result.
    if let InstKind::VecPush { vec, .. } = *kind {
        if tracked.term(Term::len(vec)) {
            s.add(Term::ZERO, Term::len(vec), -1);
        }
    }
    // 4. The destination's old value is eliminated; its new facts are added. The value
    //    term of an untracked local is in no constraint (each rule that adds one about a
    //    value asks `tracked`; meets, shifts and eliminations only combine terms already
    //    there), so an untracked scalar destination has only compares to drop. (A vec's
    //    length may be recorded untracked: a checked access or a `drop` records it.)
    if let Some(d) = kind.def() {
        // A vec local has only a length term, any other local only a value term.
        if is_vec(func, d) {
            s.kill_term(Term::len(d));
        } else if tracked.local(d) {
            s.kill_term(Term::value(d));
        } else {
            s.kill_untracked_local(d);
        }
    }
    for &(a, b, c) in &gen {
        if tracked.term(a) && tracked.term(b) {
            s.add_wide(a, b, c);
        }
    }
    if let Some(f) = cmp {
        s.add_cmp(f);
    }
    // 5. `d = x sdiv k` for a constant `k >= 1`: `d` holds the quotient of `x`'s current value
    //    (`x` is read before `d` is written; `d == x` would change `x`, so it records nothing).
    if let Some(q) = quotient_of(func, kind) {
        if tracked.term(Term::value(q.d)) && tracked.term(Term::value(q.x)) {
            s.add_quotient(q);
        }
    }
}

/// The quotient fact `kind` establishes, if it is `d = x sdiv k` on `i64` locals with a
/// constant `k >= 1` and `d != x`.
pub(super) fn quotient_of(func: &Function, kind: &InstKind) -> Option<QuotientFact> {
    match *kind {
        InstKind::Binary {
            dst,
            op: BinaryOp::SDiv,
            lhs: Operand::Local(x),
            rhs: Operand::Const(k),
            ..
        } if k >= 1 && x != dst && is_i64(func, dst) && is_i64(func, x) => {
            Some(QuotientFact { d: dst, x, k })
        }
        _ => None,
    }
}

/// Constraints about the destination of `kind` after it runs, from the pre-state `s`; none of
/// them mentions the destination's old value, pushed to `gen` (filled in place: a `Gen` is
/// a few hundred bytes, and returning one copied it). Returns the compare a bool destination
/// holds.
fn def_facts(
    func: &Function,
    tracked: &Tracked,
    kind: &InstKind,
    s: &impl FactQueries,
    gen: &mut Gen,
) -> Option<CmpFact> {
    let mut cmp = None;
    // Constraints about an untracked destination would be dropped: none are derived (their
    // bounds queries are the costly part). Compares are kept whatever their destination.
    let derive = kind.def().is_none_or(|d| tracked.term(Term::value(d)));
    if !derive && !matches!(kind, InstKind::Compare { .. } | InstKind::Unary { .. }) {
        return cmp;
    }
    match *kind {
        InstKind::Copy { dst, src } => match src {
            Operand::Const(k) if is_i64(func, dst) => {
                gen.push((Term::value(dst), Term::ZERO, k as i128));
                gen.push((Term::ZERO, Term::value(dst), -(k as i128)));
            }
            Operand::Local(j) if j != dst && is_i64(func, dst) && is_i64(func, j) => {
                rename(gen, s, Term::value(j), Term::value(dst), 0, dst);
            }
            // A vec handle copy: both locals hold the same vec.
            Operand::Local(j) if j != dst && is_vec(func, dst) && is_vec(func, j) => {
                rename(gen, s, Term::len(j), Term::len(dst), 0, dst);
            }
            _ => {}
        },
        InstKind::VecNew { dst, .. } => {
            gen.push((Term::len(dst), Term::ZERO, 0));
            gen.push((Term::ZERO, Term::len(dst), 0));
        }
        InstKind::VecLen { dst, vec } => {
            gen.push((Term::value(dst), Term::len(vec), 0));
            gen.push((Term::len(vec), Term::value(dst), 0));
            gen.push((Term::ZERO, Term::value(dst), 0));
        }
        InstKind::Compare { dst, op, lhs, rhs } => {
            let lo = Operand::Local(dst);
            if lhs != lo && rhs != lo {
                cmp = Some(CmpFact {
                    c: dst,
                    op,
                    lhs,
                    rhs,
                });
            }
        }
        InstKind::Unary {
            dst,
            op: UnaryOp::Not,
            arg: Operand::Local(c),
        } if func.local_ty(dst) == Type::BOOL => {
            if let Some((op, lhs, rhs)) = s.cmp_of(c) {
                let lo = Operand::Local(dst);
                if lhs != lo && rhs != lo {
                    cmp = Some(CmpFact {
                        c: dst,
                        op: op.negate(),
                        lhs,
                        rhs,
                    });
                }
            }
        }
        // A bit count of an i64 is in 0..=64.
        InstKind::Unary {
            dst,
            op: UnaryOp::Ctz | UnaryOp::Clz | UnaryOp::Popcnt,
            ..
        } if is_i64(func, dst) => within(gen, Term::value(dst), Some(0), Some(64)),
        InstKind::Binary {
            dst, op, lhs, rhs, ..
        } if is_i64(func, dst) => {
            if let (Some(x), Some(y)) = (term_of(func, lhs), term_of(func, rhs)) {
                binary_facts(gen, s, Term::value(dst), op, x, y);
            }
        }
        _ => {}
    }
    cmp
}

/// `dst = src + k` exactly: every constraint about `src` holds of `dst` with the offset
/// shifted by `k`, plus `dst == src + k` itself (when `src` is another local). Constraints
/// that mention the destination's old value are skipped, and so are those relating `src` to a
/// term of its own kind (a value to another value, a length to another length): they stay
/// reachable through `dst == src + k` (one more edge for a query), and copying them made every
/// copy of a local related to every earlier copy — `i1 = copy i0; i2 = copy i0; ...` grew the
/// set quadratically and the analysis cubically (200 copies: 1.2 G instructions). The bounds
/// (against 0) and the relations between a value and a length, which the checks ask about,
/// are copied.
fn rename(gen: &mut Gen, s: &impl FactQueries, src: Term, dst: Term, k: i128, dst_local: Local) {
    let old = |t: Term| t.local() == Some(dst_local);
    let same_kind = |t: Term| t != Term::ZERO && t.len_of().is_some() == src.len_of().is_some();
    for c in s.constraints_mentioning(src) {
        if same_kind(c.a) && same_kind(c.b) {
            continue;
        }
        if c.a == src && !old(c.b) {
            // src <= b + c  ⇒  dst = src + k <= b + c + k.
            gen.push((dst, c.b, c.c as i128 + k));
        } else if c.b == src && !old(c.a) {
            // a <= src + c  ⇒  a <= dst - k + c.
            gen.push((c.a, dst, c.c as i128 - k));
        }
    }
    if src != dst && !old(src) {
        gen.push((dst, src, k));
        gen.push((src, dst, -k));
    }
}

/// Facts about `d = x op y` for `i64` operands (as terms plus constants).
fn binary_facts(
    gen: &mut Gen,
    s: &impl FactQueries,
    d: Term,
    op: BinaryOp,
    x: (Term, i128),
    y: (Term, i128),
) {
    let Some(dst_local) = d.local() else { return };
    // Bounds are searched for only where a rule needs them (each is a path query).
    let lx = || lower_of(s, x);
    let hx = || upper_of(s, x);
    match op {
        BinaryOp::Add | BinaryOp::Sub => {
            // y' = the second operand as added (negated for sub).
            let y = if op == BinaryOp::Sub { (y.0, -y.1) } else { y };
            let sub_local = op == BinaryOp::Sub && y.0 != Term::ZERO;
            let pairs: &[(TermPlus, TermPlus)] = if op == BinaryOp::Add {
                &[(x, y), (y, x)]
            } else {
                &[(x, y)]
            };
            // The bounds of `x` and `y`, in that order, once asked for (`None`: the sum is not
            // known to fit, whichever order).
            let mut both: Option<Option<(Bounds, Bounds)>> = None;
            for &(p, q) in pairs {
                if p.0 == Term::ZERO {
                    continue;
                }
                if q.0 == Term::ZERO {
                    // d = p + k: no overflow when p's bound on the side k moves towards fits.
                    let k = q.1;
                    let fits = if k >= 0 {
                        s.upper_at_most(p.0, i64::MAX as i128 - k)
                    } else {
                        s.lower_at_least(p.0, i64::MIN as i128 - k)
                    };
                    if fits {
                        rename(gen, s, p.0, d, k, dst_local);
                    }
                    continue;
                }
                if sub_local {
                    continue; // handled below
                }
                // d = p + q for locals: exact when every sum of bounds fits. The two orders
                // ask for the same two operands' bounds (four path searches), and whether the
                // sum fits does not depend on the order: once.
                let Some((bx, by)) = *both.get_or_insert_with(|| sum_bounds(s, x, y)) else {
                    continue;
                };
                let (lq, hq) = if p == x { by } else { bx };
                if p.0 != d {
                    if let Some(h) = hq {
                        gen.push((d, p.0, h));
                    }
                    if let Some(l) = lq {
                        gen.push((p.0, d, -l));
                    }
                }
            }
            // d = x - y (y a local here, `y` holds -y): every constraint below relates `d`
            // to `x` or to 0, and needs `d != x` (`x = x - y` derives nothing).
            if sub_local && x.0 != d {
                // Exact when x - y fits, which needs both lower bounds: `(lx >= 0 && ly >= 0)
                // || (lx - hy and hx - ly fit)`. The bounds are asked for in the order that
                // lets a missing one end the rule; for a local `x`, both lower bounds by one
                // walk, and each upper bound with the distance to the other operand by one.
                let (lx, ly) = if x.0 == Term::ZERO {
                    (lx(), lower_of(s, (y.0, 0)))
                } else {
                    lowers_of_values(s.view(), x.0, y.0)
                };
                let (Some(lx), Some(ly)) = (lx, ly) else {
                    return;
                };
                // From y: hi(y) and the distance y -> x; from x: hi(x) and x -> y.
                let mut from_y_known = None;
                let mut from_y = || {
                    *from_y_known.get_or_insert_with(|| {
                        if x.0 == Term::ZERO {
                            // y -> 0 is y's upper bound.
                            let hy = upper_of(s, (y.0, 0));
                            (hy, hy)
                        } else {
                            upper_and_dist(s.view(), y.0, x.0)
                        }
                    })
                };
                let mut from_x_known = None;
                let mut from_x = || {
                    *from_x_known.get_or_insert_with(|| {
                        if x.0 == Term::ZERO {
                            // A constant is its own upper bound; 0 -> y is -lo(y).
                            (Some(x.1), Some(-ly))
                        } else {
                            upper_and_dist(s.view(), x.0, y.0)
                        }
                    })
                };
                let fits = (lx >= 0 && ly >= 0)
                    || (in_i64(from_y().0.map(|h| lx - h)) && in_i64(from_x().0.map(|h| h - ly)));
                if !fits {
                    return;
                }
                let hy = from_y().0;
                if x.0 != Term::ZERO {
                    // d <= x - lo(y); x <= d + hi(y).
                    gen.push((d, x.0, x.1 - ly));
                    if let Some(h) = hy {
                        gen.push((x.0, d, h - x.1));
                    }
                }
                // y <= x + c ⇒ 0 <= x - y + c = d + c; x <= y + c ⇒ d <= c. For a constant
                // `x` (0 plus x.1), the paths are y's bounds: `y <= 0 + hi(y)`, `0 <= y - lo(y)`.
                if y.0 != d {
                    let (to_x, from_x) = (from_y().1, from_x().1);
                    if let Some(c) = to_x {
                        gen.push((Term::ZERO, d, c - x.1));
                    }
                    if let Some(c) = from_x {
                        gen.push((d, Term::ZERO, c + x.1));
                    }
                }
            }
        }
        // d = x * k (or x << s) for a bounded non-negative x and a small positive k: the
        // product fits, 0 <= d <= hi(x) * k, and d >= x.
        BinaryOp::Mul | BinaryOp::Shl => {
            let (p, k) = match (op, x.0 == Term::ZERO, y.0 == Term::ZERO) {
                (BinaryOp::Mul, false, true) => (x, y.1),
                (BinaryOp::Mul, true, false) => (y, x.1),
                (BinaryOp::Shl, false, true) if (1..=20).contains(&y.1) => (x, 1i128 << y.1),
                _ => return,
            };
            if !(1..=1 << 20).contains(&k) || p.0 == d {
                return;
            }
            // Both bounds are needed; the upper one (missing for most loop counters, which
            // are bounded by a local) is searched for first.
            let Some(hp) = upper_of(s, p) else { return };
            if let Some(lp) = lower_of(s, p) {
                if lp >= 0 && in_i64(Some(hp * k)) {
                    within(gen, d, Some(lp * k), Some(hp * k));
                    gen.push((p.0, d, 0));
                }
            }
        }
        // And with a non-negative operand is between 0 and that operand.
        BinaryOp::And => {
            let mut any = false;
            for o in [x, y] {
                // Only the lower bound is searched for: the upper one is used for a constant.
                if at_least(s, o, 0) {
                    any = true;
                    if o.0 == Term::ZERO {
                        within(gen, d, None, Some(o.1));
                    } else if o.0 != d {
                        gen.push((d, o.0, 0));
                    }
                }
            }
            if any {
                within(gen, d, Some(0), None);
            }
        }
        // A logical shift by 1..63 clears the sign bit: 0 <= d <= u64::MAX >> s (the value is
        // read as unsigned: `-1 lshr 63` is 1, not `i64::MAX >> 63` = 0), and d <= x for
        // x >= 0.
        BinaryOp::LShr if y.0 == Term::ZERO && y.1.rem_euclid(64) != 0 => {
            within(
                gen,
                d,
                Some(0),
                Some((u64::MAX >> y.1.rem_euclid(64)) as i128),
            );
            if at_least(s, x, 0) && x.0 != d && x.0 != Term::ZERO {
                gen.push((d, x.0, 0));
            }
        }
        // d = x >> s (arithmetic) of x >= 0: 0 <= d <= x.
        BinaryOp::AShr if at_least(s, x, 0) => {
            within(gen, d, Some(0), hx());
            if x.0 != d && x.0 != Term::ZERO {
                gen.push((d, x.0, 0));
            }
        }
        // Unsigned remainder: it did not trap, so y != 0 and d <u y; with y >= 0 (signed),
        // 0 <= d <= y - 1. For x >= 0, d <= x too.
        BinaryOp::URem => {
            if at_least(s, y, 0) {
                within(gen, d, Some(0), None);
                if y.0 == Term::ZERO {
                    within(gen, d, None, Some(y.1 - 1));
                } else if y.0 != d {
                    gen.push((d, y.0, -1));
                }
            }
            if at_least(s, x, 0) {
                within(gen, d, Some(0), None);
                if x.0 != d && x.0 != Term::ZERO {
                    gen.push((d, x.0, 0));
                }
            }
        }
        // Unsigned division of x >= 0: 0 <= d <= x.
        BinaryOp::UDiv if at_least(s, x, 0) => {
            within(gen, d, Some(0), hx());
            if x.0 != d && x.0 != Term::ZERO {
                gen.push((d, x.0, 0));
            }
        }
        // Signed remainder of x >= 0: the result has x's sign and |d| < |y|, |d| <= x; so
        // 0 <= d <= x, and d <= y - 1 for y >= 0 (y != 0: it did not trap).
        BinaryOp::SRem if at_least(s, x, 0) => {
            within(gen, d, Some(0), hx());
            if x.0 != d && x.0 != Term::ZERO {
                gen.push((d, x.0, 0));
            }
            if y.0 == Term::ZERO {
                if y.1 != 0 {
                    within(gen, d, None, Some(y.1.abs() - 1));
                }
            } else if at_least(s, y, 0) && y.0 != d {
                gen.push((d, y.0, -1));
            }
        }
        // Signed division of x >= 0 by y >= 0 (so y >= 1: it did not trap): 0 <= d <= x.
        BinaryOp::SDiv if at_least(s, x, 0) && at_least(s, y, 0) => {
            within(gen, d, Some(0), hx());
            if x.0 != d && x.0 != Term::ZERO {
                gen.push((d, x.0, 0));
            }
        }
        _ => {}
    }
}

/// What the edge `from → to` adds to the facts `out` at the end of `from`: the constraints that
/// follow from the branch condition being true (or false) on that edge, pushed to `gen`.
pub(super) fn edge_extra(
    func: &Function,
    from: Block,
    to: Block,
    out: FactView<'_>,
    gen: &mut Gen,
) {
    let Some(Terminator::BrIf {
        cond: Operand::Local(c),
        then_block,
        else_block,
    }) = func.terminator(from)
    else {
        return;
    };
    if then_block == else_block {
        return;
    }
    let Some((op, lhs, rhs)) = out.cmp_of(*c) else {
        return;
    };
    let op = if to == *then_block { op } else { op.negate() };
    let (Some(x), Some(y)) = (term_of(func, lhs), term_of(func, rhs)) else {
        return;
    };
    relation(gen, &out, op, x, y);
}

/// The constraints that `x op y` being true gives (the shared rule table,
/// [`compare_consequences`]; a premise holds when the facts imply it).
fn relation(gen: &mut Gen, s: &impl FactQueries, op: CmpOp, x: (Term, i128), y: (Term, i128)) {
    compare_consequences(
        op,
        x,
        y,
        Term::ZERO,
        (),
        &mut |premise| {
            let holds = match premise {
                Premise::NonNegative(o) => at_least(s, o, 0),
                Premise::AtMost(p, q) => {
                    p.0 != q.0 && fit(q.1 - p.1).is_some_and(|c| s.implies(p.0, q.0, c))
                }
            };
            holds.then_some(())
        },
        &mut |a, b, c, ()| le(gen, a, b, c),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::facts::constraints::tests::Rng;
    use poolopt_ir::EntityRef;

    /// Calls `f` with every instruction of the repository's programs, as parsed and after the
    /// O2 pipeline, and the facts the analysis has before it.
    fn replay_every_instruction(
        mut f: impl FnMut(&Function, &crate::analysis::facts::FactAnalysis, Inst, &FactSet),
    ) {
        use crate::analysis::cfg::Cfg;
        use crate::analysis::facts::FactAnalysis;
        let mut funcs = crate::test_programs::functions();
        funcs.extend(crate::test_programs::optimized_functions());
        for func in funcs {
            let cfg = Cfg::compute(&func);
            let fa = FactAnalysis::compute(&func, &cfg);
            for &b in cfg.rpo() {
                fa.replay(&func, b, |_, inst, before| f(&func, &fa, inst, before));
            }
        }
    }

    /// Where [`untracked_write`] takes the short way, the full rules change the facts the
    /// same way: on every instruction of the repository's programs, from the facts the
    /// analysis has before it (some of them compares the write drops).
    #[test]
    fn an_untracked_write_does_what_the_rules_do() {
        let (mut short, mut dropped) = (0, 0);
        replay_every_instruction(|func, fa, inst, before| {
            let kind = func.inst(inst);
            let Some(d) = untracked_write(func, &fa.tracked, kind) else {
                return;
            };
            let mut quick = before.clone();
            quick.kill_untracked_local(d);
            let mut full = before.clone();
            transfer_rules(func, &fa.calls, &fa.tracked, kind, &mut full);
            assert_eq!(quick, full, "{}: {inst}", func.name);
            short += 1;
            dropped += usize::from(quick != *before);
        });
        assert!(
            short > 1000 && dropped > 0,
            "{short} short, {dropped} dropping"
        );
    }

    /// A store [`is_idle_store`] skips changes nothing under the full rules: on every `set`
    /// of the repository's programs that it skips, from the facts the analysis has before it
    /// (and the stores it does not skip are the checked ones that prove an access).
    #[test]
    fn an_idle_store_does_what_the_rules_do() {
        let (mut idle, mut proving) = (0, 0);
        replay_every_instruction(|func, fa, inst, before| {
            let kind = func.inst(inst);
            if !matches!(kind, InstKind::VecSet { .. }) {
                return;
            }
            let mut full = before.clone();
            transfer_rules(func, &fa.calls, &fa.tracked, kind, &mut full);
            if is_idle_store(func, &fa.tracked, kind) {
                assert_eq!(full, *before, "{}: {inst}", func.name);
                idle += 1;
            } else {
                proving += usize::from(full != *before);
            }
        });
        assert!(idle > 100 && proving > 10, "{idle} idle, {proving} proving");
    }

    /// Where [`untracked_compare`] takes the short way, the full rules change the facts the
    /// same way: on every compare of the repository's programs that takes it, from the facts
    /// the analysis has before it.
    #[test]
    fn an_untracked_compare_does_what_the_rules_do() {
        let mut short = 0;
        replay_every_instruction(|func, fa, inst, before| {
            let kind = func.inst(inst);
            let Some((d, cmp)) = untracked_compare(func, &fa.tracked, kind) else {
                return;
            };
            let mut quick = before.clone();
            quick.kill_untracked_local(d);
            if let Some(f) = cmp {
                quick.add_cmp(f);
            }
            let mut full = before.clone();
            transfer_rules(func, &fa.calls, &fa.tracked, kind, &mut full);
            assert_eq!(quick, full, "{}: {inst}", func.name);
            short += 1;
        });
        assert!(short > 500, "{short} short");
    }

    /// Killing the one term a destination's type allows ([`FactSet::kill_term`], what the
    /// rules do) changes the facts as [`FactSet::kill_local`] (both terms) does: for the
    /// destination of every instruction of the repository's programs, from the facts the
    /// analysis has before it.
    #[test]
    fn killing_the_destination_s_term_is_killing_the_local() {
        let (mut kills, mut changed) = (0, 0);
        replay_every_instruction(|func, _, inst, before| {
            let Some(d) = func.inst(inst).def() else {
                return;
            };
            let mut by_term = before.clone();
            by_term.kill_term(if is_vec(func, d) {
                Term::len(d)
            } else {
                Term::value(d)
            });
            let mut by_local = before.clone();
            by_local.kill_local(d);
            assert_eq!(by_term, by_local, "{}: {inst}", func.name);
            kills += 1;
            changed += usize::from(by_term != *before);
        });
        assert!(
            kills > 1000 && changed > 30,
            "{kills} kills, {changed} changed"
        );
    }

    /// The `add`/`sub` rules as they were before they asked for bounds in the order that lets
    /// a missing one end the rule: four bounds for two locals, `dist` for a constant minus a
    /// local.
    fn add_sub_as_before(
        gen: &mut Gen,
        s: &impl FactQueries,
        d: Term,
        op: BinaryOp,
        x: TermPlus,
        y: TermPlus,
    ) {
        let dst_local = d.local().unwrap();
        let bounds = |o: TermPlus| (lower_of(s, o), upper_of(s, o));
        let nonneg = |l: Option<i128>| l.is_some_and(|l| l >= 0);
        let y = if op == BinaryOp::Sub { (y.0, -y.1) } else { y };
        let sub_local = op == BinaryOp::Sub && y.0 != Term::ZERO;
        let pairs: &[(TermPlus, TermPlus)] = if op == BinaryOp::Add {
            &[(x, y), (y, x)]
        } else {
            &[(x, y)]
        };
        let mut both: Option<(Bounds, Bounds)> = None;
        for &(p, q) in pairs {
            if p.0 == Term::ZERO {
                continue;
            }
            if q.0 == Term::ZERO {
                let k = q.1;
                let fits = if k >= 0 {
                    s.upper_at_most(p.0, i64::MAX as i128 - k)
                } else {
                    s.lower_at_least(p.0, i64::MIN as i128 - k)
                };
                if fits {
                    rename(gen, s, p.0, d, k, dst_local);
                }
                continue;
            }
            if sub_local {
                continue;
            }
            let (bx, by) = *both.get_or_insert_with(|| (bounds(x), bounds(y)));
            let ((lp, hp), (lq, hq)) = if p == x { (bx, by) } else { (by, bx) };
            let up = in_i64(hp.zip(hq).map(|(a, b)| a + b))
                || hq.is_some_and(|h| h <= 0)
                || hp.is_some_and(|h| h <= 0);
            let down = in_i64(lp.zip(lq).map(|(a, b)| a + b)) || nonneg(lp) || nonneg(lq);
            if up && down && p.0 != d {
                if let Some(h) = hq {
                    gen.push((d, p.0, h));
                }
                if let Some(l) = lq {
                    gen.push((p.0, d, -l));
                }
            }
        }
        if sub_local {
            let (ly, hy) = bounds((y.0, 0));
            let (lx, hx) = bounds(x);
            let fits = (nonneg(lx) && nonneg(ly))
                || (in_i64(lx.zip(hy).map(|(a, b)| a - b))
                    && in_i64(hx.zip(ly).map(|(a, b)| a - b)));
            if fits {
                if x.0 != d && x.0 != Term::ZERO {
                    if let Some(l) = ly {
                        gen.push((d, x.0, x.1 - l));
                    }
                    if let Some(h) = hy {
                        gen.push((x.0, d, h - x.1));
                    }
                }
                if x.0 != d && y.0 != d {
                    if let Some(c) = s.dist(y.0, x.0) {
                        gen.push((Term::ZERO, d, c - x.1));
                    }
                    if let Some(c) = s.dist(x.0, y.0) {
                        gen.push((d, Term::ZERO, c + x.1));
                    }
                }
            }
        }
    }

    /// The `add`/`sub` rules derive what the earlier ones did, on random sets (with bounds
    /// near the ends of the `i64` range, so that sums that may overflow are among them), for
    /// every mix of locals and constants, the destination one of the operands or another.
    #[test]
    fn add_and_sub_facts_are_those_of_the_earlier_rules() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let values = [0, 1, 2, 3].map(|l| Term::value(Local::new(l)));
        let consts = [0, 1, -1, 7, -7, i64::MAX as i128, i64::MIN as i128, 1 << 62];
        let wide = [i64::MAX, i64::MIN, 1 << 62, -(1 << 62), i64::MAX - 3, 0];
        let (mut derived, mut sub_locals) = (0, 0);
        for round in 0..6000 {
            let mut set = rng.set(14);
            for _ in 0..rng.next() % 4 {
                let t = values[(rng.next() % 4) as usize];
                let c = wide[(rng.next() % wide.len() as u64) as usize];
                if rng.next().is_multiple_of(2) {
                    set.add(t, Term::ZERO, c);
                } else {
                    set.add(Term::ZERO, t, c);
                }
            }
            let operand = |rng: &mut Rng| {
                if rng.next().is_multiple_of(4) {
                    (
                        Term::ZERO,
                        consts[(rng.next() % consts.len() as u64) as usize],
                    )
                } else {
                    (values[(rng.next() % 4) as usize], 0)
                }
            };
            let (x, y) = (operand(&mut rng), operand(&mut rng));
            let d = match rng.next() % 3 {
                0 if x.0 != Term::ZERO => x.0,
                1 if y.0 != Term::ZERO => y.0,
                _ => values[(rng.next() % 4) as usize],
            };
            let op = if round % 2 == 0 {
                BinaryOp::Add
            } else {
                BinaryOp::Sub
            };
            let (mut now, mut before) = (Gen::new(), Gen::new());
            binary_facts(&mut now, &set, d, op, x, y);
            add_sub_as_before(&mut before, &set, d, op, x, y);
            assert_eq!(now, before, "{d:?} = {x:?} {op:?} {y:?} in {set:?}");
            derived += usize::from(!now.is_empty());
            sub_locals += usize::from(op == BinaryOp::Sub && y.0 != Term::ZERO && !now.is_empty());
        }
        assert!(derived > 1000 && sub_locals > 200, "{derived} {sub_locals}");
    }

    /// `at_least` answers exactly what the bound search does, on random sets (lengths, values
    /// and 0 among the terms; recorded bounds of every sign; offsets and limits around them).
    #[test]
    fn at_least_agrees_with_the_searched_lower_bound() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut shortcuts = 0;
        for _ in 0..3000 {
            let set = rng.set(12);
            let o = (rng.term(), (rng.next() % 21) as i128 - 10);
            let limit = (rng.next() % 21) as i128 - 10;
            let searched = lower_of(&set, o).is_some_and(|l| l >= limit);
            assert_eq!(
                at_least(&set, o, limit),
                searched,
                "{o:?} >= {limit} in {set:?}"
            );
            let need = limit - o.1;
            if o.0 != Term::ZERO
                && ((o.0.is_len() && need <= 0)
                    || set
                        .recorded(Term::ZERO, o.0)
                        .is_some_and(|c| -(c as i128) >= need))
            {
                shortcuts += 1;
            }
        }
        // The shortcuts were taken (the sets are not all empty of bounds).
        assert!(shortcuts > 300, "{shortcuts}");
    }
}
