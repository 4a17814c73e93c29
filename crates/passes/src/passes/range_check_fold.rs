//! `range-check-fold`: folds a two-sided range test `i < 0 || i >= n` into one unsigned
//! compare `i >=u n` (and `i >= 0 && i < n` into `i <u n`), at any integer width, when `n` is
//! known to be non-negative.
//!
//! Two shapes are recognised:
//!
//! - **Short-circuit**: block `A` ends `brif c1, ...` where `c1` tests `i` against 0 (any
//!   spelling and polarity); the non-negative side goes to block `B`, which holds only pure
//!   instructions and ends `brif c2, ...` where `c2` is a signed compare of `i` with `n`; the
//!   "`i` negative" side of `A` and the "`i` too large" side of `B` are the same block `F`.
//!   `A` gets copies of `B`'s instructions (the compare made unsigned) and `B`'s terminator;
//!   `c1`'s definition stays (dead-local elimination removes it). `B` is removed when nothing
//!   else branches to it.
//! - **Bitwise**: `c3 = or c1, c2` with `c1 = i < 0` and `c2 = i >= n` (or `and` of the in-range
//!   forms) becomes `c3 = uge i, n` (`ult i, n`).
//!
//! Soundness: for `n >= 0` (signed) and any `i` of the same width, `i >=u n` equals
//! `i < 0 || i >= n`: when `i >= 0` both sides are ordinary compares of non-negative values,
//! which agree signed and unsigned; when `i < 0` its unsigned value is at least 2^(w-1), which
//! exceeds every non-negative `n`, so the unsigned compare says "out of range", as the original
//! did. The fact analysis supplies (a) that `c1`/`c2` still hold their compares of the current
//! `i` and `n` (a `CmpIs` fact dies when either operand is reassigned), and (b) that `n` is
//! non-negative at the compare on every path (`len` results, non-negative constants,
//! `NonNeg` facts; for narrow types, a local whose every assignment is a non-negative
//! constant). For the short-circuit shape, `B`'s instructions are pure (no trap, no memory
//! effect), so running them on the `A → F` path as well is unobservable except through the
//! locals they assign, which must not be live on entry to `F`; `i` must not be reassigned in
//! `B`, so every compare sees the same `i` as `c1`.
//!
//! Several folds per round: the short-circuit folds of one round are all decided on one fact
//! analysis, liveness and CFG of the function before the round, and applied together when
//! their blocks are disjoint (no block is the `A` or `B` of two folds). A fold rewrites only its
//! `A` and `B`, so another fold still sees its own `A` and `B` as they were analysed. What it
//! read about the rest stays true: (1) the facts at its `A` and `B` are must-facts of the
//! program states reaching them, and an earlier fold changes no state on any path except the
//! locals its `B` assigns on the `A → F` path, which are dead at `F` — so every path from `F`
//! to a later point where one of them is live assigns it again first, and a fact about it
//! there is about that new value; (2) liveness at block entries does not grow (a fold adds no
//! edge; the instructions it copies into `A` read only locals live at the end of `A` already,
//! through the edge to `B`), so a local found dead at `F` or `S` stays dead; (3) no block but
//! the bypassed `B` becomes unreachable (`A` reaches `B`'s successors directly). A range check
//! whose fold was held back, or that the stale facts could not prove, is retried on fresh
//! analyses in the next round; the round that folds nothing reports the near misses. A
//! function with `k` range checks thus takes one or two analyses, not `k + 1`.
//!
//! Without the analysis: each round is first decided on the blocks alone, and the fact
//! analysis is computed only when that folds nothing. The two facts a fold needs have a
//! syntactic sufficient condition that covers what front ends emit: `c1` holds its compare at
//! the end of `A` when `A` itself assigns `c1` a compare last and assigns neither operand after
//! it (exactly when the analysis keeps its `CmpIs` fact through the rest of `A`); `n` is
//! non-negative on every path when it is a non-negative constant or a local, not a parameter,
//! whose every assignment is a length, a non-negative constant or a sign-clearing mask (what
//! the analysis' answer also accepts). The rest of the conditions are checked as in a round
//! with the analysis. Such a round folds a subset of what the analysis' round would, with the
//! same rewrite, so the result is the same; the near misses are still reported by the round
//! with the analysis that folds nothing. The analysis the next pass (`bounds-check-elim`)
//! needs is then computed once, on the folded function, instead of once before the folds and
//! once after (O2 on `slot_pool_8.pir`: 2,827,027 → 2,766,137 instructions).

use crate::analysis::facts::{FactAnalysis, FactQueries, FactView};
use crate::analysis::Cfg;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_inst, BinaryOp, Block, CmpOp, EntityRef, Function, Inst, InstKind, Local, Operand,
    SecondaryMap, Terminator, Type,
};

/// The pass.
pub struct RangeCheckFold;

/// Upper bound on rounds of short-circuit folding per function (each round folds at least
/// one range check and needs fresh analyses).
const MAX_ROUNDS: usize = 10_000;

impl Pass for RangeCheckFold {
    fn name(&self) -> &'static str {
        "range-check-fold"
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O1
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        // The blocks reachable before the pass, taken before the first fold of a branch (most
        // functions have none, and pay nothing): the bitwise shape rewrites instructions only,
        // so the CFG then is the one the pass started from.
        let mut reachable_before: Option<SecondaryMap<Block, bool>> = None;
        let mut changed = fold_bitwise(func, cx);
        if changed {
            cx.invalidate();
        }
        // Each round folds every range check it can whose two blocks no other fold of the
        // round touches, all decided on one fact analysis (see "Several folds per round" in
        // the module docs); the round that folds nothing reports the near misses.
        for _ in 0..MAX_ROUNDS {
            if !func
                .layout
                .iter()
                .any(|&a| short_circuit_candidate(func, a))
            {
                break;
            }
            // Most range checks read a compare written just before their branch and a bound
            // that is a length: a round decided without the fact analysis folds those, and
            // the analysis is computed only for what is left (see "Without the analysis").
            let defs = NonNegativeDefs::of(func);
            let (folds, missed) = match round(func, cx, None, &defs) {
                (folds, _) if !folds.is_empty() => (folds, Vec::new()),
                _ => {
                    let fa = cx.facts(func);
                    round(func, cx, Some(&fa), &defs)
                }
            };
            if folds.is_empty() {
                for (block, inst, why) in missed {
                    let loc = func.insts[inst].loc;
                    cx.missed(func, block, loc, why);
                }
                break;
            }
            if reachable_before.is_none() {
                let mut reachable: SecondaryMap<Block, bool> = func.block_map();
                for &b in cx.cfg(func).rpo() {
                    reachable[b] = true;
                }
                reachable_before = Some(reachable);
            }
            for f in folds {
                apply(func, cx, f);
            }
            changed = true;
            cx.invalidate();
        }
        if let Some(reachable_before) = reachable_before {
            // Blocks only the folded branches reached are now unreachable; the verifier rejects
            // those, so remove them (only ones this pass made unreachable).
            let cfg = cx.fresh_cfg(func);
            func.layout
                .retain(|&b| cfg.is_reachable(b) || !reachable_before[b]);
            cx.return_cfg(cfg);
            cx.invalidate();
        }
        changed
    }
}

/// The folds of one round and its near misses: every range check decided on `fa` (or, without
/// it, on the blocks alone, leaving every check that needs a fact for a round with it), the
/// folds' blocks disjoint (see "Several folds per round").
fn round(
    func: &Function,
    cx: &mut PassContext<'_>,
    fa: Option<&FactAnalysis>,
    defs: &NonNegativeDefs,
) -> (Vec<Fold>, Vec<(Block, Inst, String)>) {
    let cfg = cx.shared_cfg(func);
    let mut folds: Vec<Fold> = Vec::new();
    let mut missed: Vec<(Block, Inst, String)> = Vec::new();
    let mut touched: SecondaryMap<Block, bool> = func.block_map();
    for &a in &func.layout {
        if touched[a] || !cfg.is_reachable(a) {
            continue;
        }
        match short_circuit(func, cx, (fa, defs), &cfg, a) {
            Some(Ok(f)) => {
                let (fa_block, fb_block) = f.blocks();
                if !touched[fa_block] && !touched[fb_block] {
                    touched[fa_block] = true;
                    touched[fb_block] = true;
                    folds.push(f);
                }
            }
            Some(Err((inst, why))) => missed.push((a, inst, why)),
            None => {}
        }
    }
    (folds, missed)
}

/// The compare `c` holds at the end of block `a` when `a` itself computes it: the last
/// assignment of `c` in `a` is a compare, and nothing after it in `a` assigns one of its
/// operands (what the fact analysis' `CmpIs` fact says at the end of `a`, read off the block).
fn compare_at_end(func: &Function, a: Block, c: Local) -> Option<(CmpOp, Operand, Operand)> {
    let insts = &func.blocks[a].insts;
    let q = insts.iter().rposition(|&d| func.inst(d).def() == Some(c))?;
    let InstKind::Compare { op, lhs, rhs, .. } = *func.inst(insts[q]) else {
        return None;
    };
    let reads_itself = [lhs, rhs].contains(&Operand::Local(c));
    let operand_reassigned = insts[q + 1..].iter().any(|&d| {
        func.inst(d)
            .def()
            .is_some_and(|w| [lhs, rhs].contains(&Operand::Local(w)))
    });
    (!reads_itself && !operand_reassigned).then_some((op, lhs, rhs))
}

/// `i` tested against 0: returns `(i, true)` when the compare is true exactly when `i < 0`,
/// `(i, false)` when true exactly when `i >= 0`.
fn zero_test(op: CmpOp, lhs: Operand, rhs: Operand) -> Option<(Local, bool)> {
    let (op, i, c) = match (lhs, rhs) {
        (Operand::Local(i), Operand::Const(c)) => (op, i, c),
        (Operand::Const(c), Operand::Local(i)) => (op.swap(), i, c),
        _ => return None,
    };
    match (op, c) {
        (CmpOp::Slt, 0) | (CmpOp::Sle, -1) => Some((i, true)),
        (CmpOp::Sge, 0) | (CmpOp::Sgt, -1) => Some((i, false)),
        _ => None,
    }
}

/// A signed compare of `i` with some other operand `n`, normalized to `i op n`.
fn bound_test(op: CmpOp, lhs: Operand, rhs: Operand, i: Local) -> Option<(CmpOp, Operand)> {
    let il = Operand::Local(i);
    let (op, n) = if lhs == il && rhs != il {
        (op, rhs)
    } else if rhs == il && lhs != il {
        (op.swap(), lhs)
    } else {
        return None;
    };
    op.is_signed().then_some((op, n))
}

fn unsigned(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Slt => CmpOp::Ult,
        CmpOp::Sle => CmpOp::Ule,
        CmpOp::Sgt => CmpOp::Ugt,
        CmpOp::Sge => CmpOp::Uge,
        other => other,
    }
}

fn sym(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Slt => "<",
        CmpOp::Sle => "<=",
        CmpOp::Sgt => ">",
        CmpOp::Sge => ">=",
        CmpOp::Ult => "<u",
        CmpOp::Ule => "<=u",
        CmpOp::Ugt => ">u",
        CmpOp::Uge => ">=u",
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
    }
}

/// Whether a normalized `i op n` is true for large `i` (the "too large" side).
fn fails_high(op: CmpOp) -> bool {
    matches!(op, CmpOp::Sgt | CmpOp::Sge)
}

fn op_text(func: &Function, o: Operand) -> String {
    match o {
        Operand::Local(l) => func.local_name(l).to_string(),
        Operand::Const(c) => c.to_string(),
    }
}

/// The test as written (`i < 0 || i >= n`) and folded (`i >=u n`), for `i op n` normalized.
fn texts(func: &Function, i: Local, op: CmpOp, n: Operand) -> (String, String) {
    let (i, n) = (func.local_name(i), op_text(func, n));
    let written = if fails_high(op) {
        format!("`{i} < 0 || {i} {} {n}`", sym(op))
    } else {
        format!("`{i} >= 0 && {i} {} {n}`", sym(op))
    };
    (written, format!("`{i} {} {n}`", sym(unsigned(op))))
}

/// `` `i < 0 || i >= n` folded to `i >=u n` ``.
fn describe(func: &Function, i: Local, op: CmpOp, n: Operand) -> String {
    let (written, folded) = texts(func, i, op, n);
    format!("{written} folded to {folded}")
}

/// Whether `n` is non-negative at a point with facts `facts`.
fn non_negative(
    func: &Function,
    defs: &NonNegativeDefs,
    facts: &impl FactQueries,
    n: Operand,
) -> bool {
    let by_facts = n
        .as_local()
        .is_some_and(|n| facts.non_neg(n) || facts.len_of(n).is_some());
    by_facts || defs.holds(func, n)
}

/// Which locals are non-negative wherever they are read, by their definitions alone: a local
/// (not a parameter) whose every assignment is a length, a non-negative constant or a mask
/// that clears the sign bit (and it has one). Narrow types carry no facts, so this is also how
/// their bounds are known. One walk of the function answers every question of a round (a walk
/// per candidate made a function of many range checks quadratic: 12,500 of them took 4 s).
struct NonNegativeDefs {
    /// Per local: no assignment yet (0), only non-negative ones (1), another one (2).
    state: Vec<u8>,
}

impl NonNegativeDefs {
    fn of(func: &Function) -> NonNegativeDefs {
        let mut state = vec![0u8; func.locals.len()];
        for &b in &func.layout {
            for &inst in &func.blocks[b].insts {
                let kind = func.inst(inst);
                let Some(d) = kind.def() else { continue };
                let non_negative = match *kind {
                    InstKind::Copy {
                        src: Operand::Const(k),
                        ..
                    } => k >= 0,
                    InstKind::VecLen { .. } => true,
                    // A mask whose sign bit (at the local's width) is clear.
                    InstKind::Binary {
                        op: BinaryOp::And,
                        lhs,
                        rhs,
                        ..
                    } => [lhs, rhs].into_iter().any(|o| {
                        o.as_const()
                            .is_some_and(|k| mask_clears_sign(func.local_ty(d), k))
                    }),
                    _ => false,
                };
                if let Some(slot) = state.get_mut(d.index()) {
                    *slot = if non_negative && *slot != 2 { 1 } else { 2 };
                }
            }
        }
        NonNegativeDefs { state }
    }

    /// Whether `n` is non-negative wherever it is read, by its definitions alone: a
    /// non-negative constant, or a local of the kind above.
    fn holds(&self, func: &Function, n: Operand) -> bool {
        match n {
            Operand::Const(k) => k >= 0,
            Operand::Local(n) => !func.params.contains(&n) && self.state.get(n.index()) == Some(&1),
        }
    }
}

/// Whether `x & k` is non-negative for every `x` of type `ty`: `k`'s sign bit at `ty`'s width
/// is clear.
fn mask_clears_sign(ty: Type, k: i64) -> bool {
    let bits = match ty.as_int() {
        Some(int) => int.bits(),
        None => return false,
    };
    (k >> (bits - 1)) & 1 == 0
}

fn same_int_type(func: &Function, i: Local, n: Operand) -> bool {
    let ty = func.local_ty(i);
    ty.as_int().is_some()
        && match n {
            Operand::Local(n) => func.local_ty(n) == ty,
            Operand::Const(_) => true,
        }
}

/// Whether `block` has an `or`/`and` of two locals (a candidate for the bitwise shape).
fn block_has_bitwise(func: &Function, block: Block) -> bool {
    func.blocks[block].insts.iter().any(|&i| {
        matches!(
            func.inst(i),
            InstKind::Binary {
                op: BinaryOp::Or | BinaryOp::And,
                lhs: Operand::Local(_),
                rhs: Operand::Local(_),
                ..
            }
        )
    })
}

/// The bitwise shape, everywhere in `func`. Returns whether anything changed.
fn fold_bitwise(func: &mut Function, cx: &mut PassContext<'_>) -> bool {
    // Only blocks with a candidate are replayed; no analysis when none has one.
    let candidates: Vec<Block> = func
        .layout
        .iter()
        .copied()
        .filter(|&b| block_has_bitwise(func, b))
        .collect();
    if candidates.is_empty() {
        return false;
    }
    let fa = cx.facts(func);
    let defs = NonNegativeDefs::of(func);
    let mut rewrites: Vec<(Block, Inst, InstKind, RangeTest)> = Vec::new();
    let mut missed: Vec<(Block, Inst, String)> = Vec::new();
    for &block in &candidates {
        fa.replay(func, block, |_, inst, before| {
            let InstKind::Binary {
                dst,
                op: bop @ (BinaryOp::Or | BinaryOp::And),
                lhs: Operand::Local(x),
                rhs: Operand::Local(y),
                ..
            } = *func.inst(inst)
            else {
                return;
            };
            if func.local_ty(dst) != Type::BOOL {
                return;
            }
            let (Some(cx_), Some(cy)) = (before.cmp_of(x), before.cmp_of(y)) else {
                return;
            };
            for (z, b) in [(cx_, cy), (cy, cx_)] {
                let Some((i, neg)) = zero_test(z.0, z.1, z.2) else {
                    continue;
                };
                let Some((op, n)) = bound_test(b.0, b.1, b.2, i) else {
                    continue;
                };
                // `or` of "negative" and "too large"; `and` of "non-negative" and "in range".
                let fits = match bop {
                    BinaryOp::Or => neg && fails_high(op),
                    _ => !neg && !fails_high(op),
                };
                if !fits || !same_int_type(func, i, n) {
                    continue;
                }
                if !non_negative(func, &defs, before, n) {
                    missed.push((
                        block,
                        inst,
                        format!(
                            "range check not folded: `{}` may be negative",
                            op_text(func, n)
                        ),
                    ));
                    return;
                }
                let kind = InstKind::Compare {
                    dst,
                    op: unsigned(op),
                    lhs: Operand::Local(i),
                    rhs: n,
                };
                rewrites.push((block, inst, kind, (i, op, n)));
                return;
            }
        });
    }
    for (block, inst, why) in missed {
        let loc = func.insts[inst].loc;
        cx.missed(func, block, loc, why);
    }
    let changed = !rewrites.is_empty();
    for (block, inst, kind, (i, op, n)) in rewrites {
        func.insts[inst].kind = kind;
        let loc = func.insts[inst].loc;
        cx.stat("compares_folded", 1);
        cx.applied_with(func, block, loc, || {
            format!("range check {}", describe(func, i, op, n))
        });
    }
    changed
}

impl Fold {
    /// The two blocks the fold rewrites: `a` (which gets the folded test) and `b` (which it
    /// bypasses).
    fn blocks(&self) -> (Block, Block) {
        match *self {
            Fold::ZeroFirst { a, b, .. } | Fold::BoundFirst { a, b, .. } => (a, b),
        }
    }
}

/// A range test `i op n` (normalized: `op` is the signed bound test of `i` against `n`), kept
/// so that a remark describing a fold is formatted only when remarks are collected.
type RangeTest = (Local, CmpOp, Operand);

/// A short-circuit fold ready to apply.
enum Fold {
    /// The zero test ends `a`, the bound test ends `b`: `a` gets copies of `b`'s instructions
    /// (the compare at `cmp_index` made unsigned) and `b`'s terminator.
    ZeroFirst {
        a: Block,
        b: Block,
        cmp_index: usize,
        test: RangeTest,
    },
    /// The bound test ends `a`, the zero test ends `b`: `a`'s compare `c` becomes unsigned and
    /// the edge `a → b` goes straight to `ok`, `b`'s in-range successor.
    BoundFirst {
        a: Block,
        b: Block,
        ok: Block,
        c: Local,
        cmp: (CmpOp, Operand, Operand),
        test: RangeTest,
    },
}

/// A syntactic filter, checked before any fact analysis is computed: `a` and one of its
/// successors `b` both end in a `brif` on a compare defined in the block ([`block_test`]),
/// `a`'s other successor is one of `b`'s targets, and one of the two compares tests a local
/// against a constant in `-1..=1` (a sign test or its near miss). [`short_circuit`] answers
/// `None` for every block this rejects — each of its answers needs these compares, and the
/// fact it reads for `c1` (a `CmpIs` fact) is the compare that defines `c1` in `a`, or absent —
/// so the filter changes no fold and no remark, only whether a function with no such shape
/// pays for an analysis.
fn short_circuit_candidate(func: &Function, a: Block) -> bool {
    let Some((_, _, op1, l1, r1, x, y)) = block_test(func, a) else {
        return false;
    };
    let tests_sign =
        |op, l, r| zero_test(op, l, r).is_some() || loose_zero_test(op, l, r).is_some();
    let a_tests_sign = tests_sign(op1, l1, r1);
    [x, y].into_iter().filter(|&b| b != a).any(|b| {
        block_test(func, b).is_some_and(|(_, _, op2, l2, r2, t2, e2)| {
            let f_of_a = other(x, y, b);
            (f_of_a == t2 || f_of_a == e2) && (a_tests_sign || tests_sign(op2, l2, r2))
        })
    })
}

/// The compare that `b`'s `brif` tests, defined in `b` itself: `(position, cond, op, lhs, rhs,
/// then, else)`.
type BlockTest = (usize, Local, CmpOp, Operand, Operand, Block, Block);

fn block_test(func: &Function, b: Block) -> Option<BlockTest> {
    let Some(Terminator::BrIf {
        cond: Operand::Local(c),
        then_block,
        else_block,
    }) = func.terminator(b)
    else {
        return None;
    };
    if then_block == else_block {
        return None;
    }
    let insts = &func.blocks[b].insts;
    let p = insts
        .iter()
        .rposition(|&d| func.inst(d).def() == Some(*c))?;
    let InstKind::Compare { op, lhs, rhs, .. } = *func.inst(insts[p]) else {
        return None;
    };
    Some((p, *c, op, lhs, rhs, *then_block, *else_block))
}

/// A signed compare of a local with a constant in `-1..=1` that is *not* a test of the sign
/// (`i > 0`, `i <= 0`, `i >= 1`, ...): the near miss of [`zero_test`]. Returns the local.
fn loose_zero_test(op: CmpOp, lhs: Operand, rhs: Operand) -> Option<Local> {
    let (i, c) = match (lhs, rhs) {
        (Operand::Local(i), Operand::Const(c)) | (Operand::Const(c), Operand::Local(i)) => (i, c),
        _ => return None,
    };
    ((-1..=1).contains(&c) && op.is_signed() && zero_test(op, lhs, rhs).is_none()).then_some(i)
}

fn cmp_text(func: &Function, op: CmpOp, lhs: Operand, rhs: Operand) -> String {
    format!(
        "`{} {} {}`",
        op_text(func, lhs),
        sym(op),
        op_text(func, rhs)
    )
}

/// The other successor of a two-way branch.
fn other(then_block: Block, else_block: Block, one: Block) -> Block {
    if one == then_block {
        else_block
    } else {
        then_block
    }
}

/// Looks for a short-circuit range check ending block `a`, in either order (the test of `i`
/// against 0 first, or the test against the bound first). `None`: no candidate; `Some(Err)`:
/// a candidate that cannot be folded (the instruction to report and why).
fn short_circuit(
    func: &Function,
    cx: &mut PassContext<'_>,
    (fa, defs): (Option<&FactAnalysis>, &NonNegativeDefs),
    cfg: &Cfg,
    a: Block,
) -> Option<Result<Fold, (Inst, String)>> {
    let (pa, c1, _, _, _, x, y) = block_test(func, a)?;
    // The facts (or, without them, `a`'s own instructions) must confirm that `c1` still
    // holds its compare at the branch.
    let (op1, l1, r1) = match fa {
        Some(fa) => fa.block_out(a)?.cmp_of(c1)?,
        None => compare_at_end(func, a, c1)?,
    };
    let a_cmp_inst = func.blocks[a].insts[pa];
    let mut near_miss: Option<(Inst, String)> = None;
    for b in [x, y] {
        if b == a || !cfg.is_reachable(b) {
            continue;
        }
        let Some((pb, _, op2, l2, r2, t2, e2)) = block_test(func, b) else {
            continue;
        };
        let f_of_a = other(x, y, b);
        if f_of_a != t2 && f_of_a != e2 {
            continue;
        }
        let b_cmp_inst = func.blocks[b].insts[pb];
        // Zero test first.
        if let Some((i, neg)) = zero_test(op1, l1, r1) {
            let f = if neg { x } else { y };
            if f != f_of_a {
                continue;
            }
            match bound_test(op2, l2, r2, i) {
                Some((op, n)) if same_int_type(func, i, n) => {
                    let fail2 = if fails_high(op) { t2 } else { e2 };
                    if fail2 != f {
                        near_miss.get_or_insert((
                            b_cmp_inst,
                            format!(
                                "range check not folded: {} and {} fail to different blocks",
                                cmp_text(func, op1, l1, r1),
                                cmp_text(func, op2, l2, r2)
                            ),
                        ));
                        continue;
                    }
                    return Some(zero_first(func, cx, (fa, defs), a, b, f, pb, i, op, n));
                }
                _ if op2.is_signed()
                    && l2 != Operand::Local(i)
                    && r2 != Operand::Local(i)
                    && (l2.as_local().is_some() || r2.as_local().is_some()) =>
                {
                    near_miss.get_or_insert((
                        b_cmp_inst,
                        format!(
                            "range check not folded: the lower test {} is on `{}` but the upper test {} does not compare it",
                            cmp_text(func, op1, l1, r1),
                            func.local_name(i),
                            cmp_text(func, op2, l2, r2)
                        ),
                    ));
                }
                _ => {}
            }
            continue;
        }
        // Bound test first: `b` tests `i` against 0, `a` tests `i` against the bound.
        if let Some((i, neg)) = zero_test(op2, l2, r2) {
            let fail2 = if neg { t2 } else { e2 };
            if fail2 != f_of_a {
                continue;
            }
            let Some((op, n)) = bound_test(op1, l1, r1, i) else {
                if op1.is_signed() {
                    near_miss.get_or_insert((
                        a_cmp_inst,
                        format!(
                            "range check not folded: the lower test {} is on `{}` but the upper test {} does not compare it",
                            cmp_text(func, op2, l2, r2),
                            func.local_name(i),
                            cmp_text(func, op1, l1, r1)
                        ),
                    ));
                }
                continue;
            };
            if !same_int_type(func, i, n) {
                continue;
            }
            // `c1` is true exactly when `i op n`: the failing side for `>`/`>=`.
            let fail1 = if fails_high(op) { x } else { y };
            if fail1 != f_of_a {
                continue;
            }
            let ok = other(t2, e2, fail2);
            if ok == b {
                continue;
            }
            return Some(bound_first(
                func,
                cx,
                (fa, defs),
                a,
                b,
                f_of_a,
                ok,
                (c1, op1, l1, r1),
                i,
                op,
                n,
            ));
        }
        // Near misses: a test against a small constant that is not a sign test.
        let loose = loose_zero_test(op1, l1, r1)
            .filter(|&i| bound_test(op2, l2, r2, i).is_some())
            .map(|_| (a_cmp_inst, cmp_text(func, op1, l1, r1)))
            .or_else(|| {
                loose_zero_test(op2, l2, r2)
                    .filter(|&i| bound_test(op1, l1, r1, i).is_some())
                    .map(|_| (b_cmp_inst, cmp_text(func, op2, l2, r2)))
            });
        if let Some((inst, text)) = loose {
            near_miss.get_or_insert((
                inst,
                format!(
                    "range check not folded: the lower test {text} is not a sign test (`< 0` or `>= 0`)"
                ),
            ));
        }
    }
    near_miss.map(Err)
}

/// What both shapes need of the block `b` the fold merges or skips: it does not reassign `i`
/// and has no side effect. Otherwise the first offending instruction, with the remark
/// (`prefix` names the check).
fn pure_and_keeps(
    func: &Function,
    cx: &PassContext<'_>,
    b: Block,
    i: Local,
    prefix: &impl Fn() -> String,
) -> Result<(), (Inst, String)> {
    let insts = &func.blocks[b].insts;
    let (iname, bname) = (func.local_name(i), &func.blocks[b].name);
    if let Some(&d) = insts.iter().find(|&&d| func.inst(d).def() == Some(i)) {
        return Err((d, {
            let prefix = prefix();
            format!("{prefix}: `{iname}` is reassigned in `{bname}`")
        }));
    }
    if let Some(&d) = insts.iter().find(|&&d| !func.inst(d).is_pure()) {
        return Err((d, {
            let prefix = prefix();
            format!(
                "{prefix}: `{bname}` has an instruction with side effects (`{}`)",
                display_inst(cx.module, func, d)
            )
        }));
    }
    Ok(())
}

/// The zero-first shape matched: `a` ends `brif (i < 0)`, its non-negative side `b` ends
/// `brif (i op n)`, both failing to `f`. Checks the remaining conditions.
#[allow(clippy::too_many_arguments)]
fn zero_first(
    func: &Function,
    cx: &mut PassContext<'_>,
    (fa, defs): (Option<&FactAnalysis>, &NonNegativeDefs),
    a: Block,
    b: Block,
    f: Block,
    p: usize,
    i: Local,
    op: CmpOp,
    n: Operand,
) -> Result<Fold, (Inst, String)> {
    let insts = &func.blocks[b].insts;
    let cmp_inst = insts[p];
    let bname = &func.blocks[b].name;
    let prefix = || format!("range check {} not folded", texts(func, i, op, n).0);
    pure_and_keeps(func, cx, b, i, &prefix)?;
    // The facts just before the compare at position `p` of `b` *without* `a`'s branch: the
    // fold runs `b`'s instructions right after `a`'s, for negative `i` too, so `n >= 0` must
    // not rest on `i >= 0` (`n = copy i` in `b` is non-negative only on that edge).
    let n_non_negative = match fa {
        Some(fa) => {
            let Some(start) = fa.block_out(a).map(FactView::to_set) else {
                return Err((cmp_inst, {
                    let prefix = prefix();
                    format!("{prefix}: no facts at `{bname}`")
                }));
            };
            let mut cursor = fa.cursor_from(func, b, start);
            for _ in 0..p {
                cursor.advance();
            }
            non_negative(func, defs, cursor.facts(), n)
        }
        None => defs.holds(func, n),
    };
    if !n_non_negative {
        return Err((cmp_inst, {
            let prefix = prefix();
            format!("{prefix}: `{}` may be negative", op_text(func, n))
        }));
    }
    let live = cx.liveness(func).live_in(f).to_set();
    for &d in insts {
        if let Some(l) = func.inst(d).def() {
            if live.contains(l) {
                return Err((d, {
                    let prefix = prefix();
                    format!(
                        "{prefix}: `{}` (assigned in `{bname}`) is live at `{}`",
                        func.local_name(l),
                        func.blocks[f].name
                    )
                }));
            }
        }
    }
    Ok(Fold::ZeroFirst {
        a,
        b,
        cmp_index: p,
        test: (i, op, n),
    })
}

/// The bound-first shape matched: `a` ends `brif (i op n)` (as `c`), its in-range side `b` ends
/// `brif (i < 0)`, both failing to `f`; `b`'s in-range side is `ok`. The fold skips `b`, so its
/// instructions must be pure and assign nothing live at `f` or `ok`, and `c` (whose value
/// changes for negative `i`) must not be live there either.
#[allow(clippy::too_many_arguments)]
fn bound_first(
    func: &Function,
    cx: &mut PassContext<'_>,
    (fa, defs): (Option<&FactAnalysis>, &NonNegativeDefs),
    a: Block,
    b: Block,
    f: Block,
    ok: Block,
    (c, op1, l1, r1): (Local, CmpOp, Operand, Operand),
    i: Local,
    op: CmpOp,
    n: Operand,
) -> Result<Fold, (Inst, String)> {
    let insts = &func.blocks[b].insts;
    let a_insts = &func.blocks[a].insts;
    let cmp_inst = a_insts
        .iter()
        .rev()
        .copied()
        .find(|&d| func.inst(d).def() == Some(c))
        .unwrap_or_else(|| insts[0]);
    let iname = func.local_name(i);
    let bname = &func.blocks[b].name;
    let prefix = || {
        let written = if fails_high(op) {
            format!("`{iname} {} {} || {iname} < 0`", sym(op), op_text(func, n))
        } else {
            format!("`{iname} {} {} && {iname} >= 0`", sym(op), op_text(func, n))
        };
        format!("range check {written} not folded")
    };
    pure_and_keeps(func, cx, b, i, &prefix)?;
    let n_non_negative = match fa {
        Some(fa) => {
            let Some(out) = fa.block_out(a) else {
                return Err((cmp_inst, {
                    let prefix = prefix();
                    format!("{prefix}: no facts at `{bname}`")
                }));
            };
            non_negative(func, defs, &out, n)
        }
        None => defs.holds(func, n),
    };
    if !n_non_negative {
        return Err((cmp_inst, {
            let prefix = prefix();
            format!("{prefix}: `{}` may be negative", op_text(func, n))
        }));
    }
    let live_f = cx.liveness(func).live_in(f).to_set();
    let live_ok = cx.liveness(func).live_in(ok).to_set();
    let defs = insts
        .iter()
        .filter_map(|&d| func.inst(d).def().map(|l| (d, l)))
        .chain(std::iter::once((cmp_inst, c)));
    for (d, l) in defs {
        for (live, at) in [(&live_f, f), (&live_ok, ok)] {
            if live.contains(l) {
                return Err((d, {
                    let prefix = prefix();
                    format!(
                        "{prefix}: `{}` is live at `{}`",
                        func.local_name(l),
                        func.blocks[at].name
                    )
                }));
            }
        }
    }
    Ok(Fold::BoundFirst {
        a,
        b,
        ok,
        c,
        cmp: (unsigned(op1), l1, r1),
        test: (i, op, n),
    })
}

fn apply(func: &mut Function, cx: &mut PassContext<'_>, fold: Fold) {
    match fold {
        Fold::ZeroFirst {
            a,
            b,
            cmp_index,
            test: (i, op, n),
        } => {
            let b_insts = func.blocks[b].insts.clone();
            let mut cmp_loc = func.blocks[b].term_loc;
            for (k, &src) in b_insts.iter().enumerate() {
                let mut kind = func.insts[src].kind.clone();
                let loc = func.insts[src].loc;
                if k == cmp_index {
                    // Same operands, unsigned counterpart of the signed compare: the folded test.
                    if let InstKind::Compare { op, .. } = &mut kind {
                        *op = unsigned(*op);
                    }
                    cmp_loc = loc;
                }
                let new = func.make_inst(kind, loc);
                func.blocks[a].insts.push(new);
            }
            let term = func.blocks[b].terminator.clone();
            let term_loc = func.blocks[b].term_loc;
            func.blocks[a].terminator = term;
            func.blocks[a].term_loc = term_loc;
            cx.stat("compares_folded", 1);
            cx.applied_with(func, a, cmp_loc, || {
                format!("range check {}", describe(func, i, op, n))
            });
        }
        Fold::BoundFirst {
            a,
            b,
            ok,
            c,
            cmp: (op, lhs, rhs),
            test: (i, test_op, n),
        } => {
            let kind = InstKind::Compare {
                dst: c,
                op,
                lhs,
                rhs,
            };
            // Rewrite `c`'s last definition in `a` in place when nothing after it in `a`
            // reads `c`; else recompute `c` just before the branch (the facts said `c` still
            // holds the compare of the current operands there).
            let insts = func.blocks[a].insts.clone();
            let def_pos = insts.iter().rposition(|&d| func.inst(d).def() == Some(c));
            let read_after = def_pos.is_some_and(|p| {
                insts[p + 1..].iter().any(|&d| {
                    let mut reads = false;
                    func.inst(d)
                        .for_each_use(|o| reads |= o == Operand::Local(c));
                    reads
                })
            });
            let loc = match def_pos {
                Some(p) if !read_after => {
                    func.insts[insts[p]].kind = kind;
                    func.insts[insts[p]].loc
                }
                _ => {
                    let loc = func.blocks[a].term_loc;
                    let new = func.make_inst(kind, loc);
                    func.blocks[a].insts.push(new);
                    loc
                }
            };
            if let Some(Terminator::BrIf {
                then_block,
                else_block,
                ..
            }) = &mut func.blocks[a].terminator
            {
                if *then_block == b {
                    *then_block = ok;
                } else if *else_block == b {
                    *else_block = ok;
                }
            }
            cx.stat("compares_folded", 1);
            cx.applied_with(func, a, loc, || {
                format!("range check {}", describe(func, i, test_op, n))
            });
        }
    }
}
