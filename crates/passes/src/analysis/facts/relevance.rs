//! Which locals the fact analysis tracks: those connected to a check or a divisor.
//!
//! Only a few questions are ever asked of the facts: is an index within its vec's length, is a
//! vec non-empty before a pop, does an explicit range check or a folded compare hold, is a
//! divisor non-zero. A
//! constraint between two locals that no chain of definitions and compares links to such a
//! question can never contribute to an answer, yet it costs time in every meet, query and
//! elimination. So the analysis only records constraints whose terms are *tracked*.
//!
//! Tracked locals, to a fixpoint:
//! - the index and vec of every checked `get`/`set`, the vec of every checked `pop`;
//! - both operands of a compare that a branch with a trapping successor tests (an explicit
//!   check), or that an `and`/`or` combines (a range-check-fold candidate);
//! - the operands of the definition of a tracked value local (`copy`, unary, binary);
//! - `n = len v`: `n` and `v` together; and every `n = len w` that a branch's compare reads
//!   and whose `w` may hold the same vec as a tracked vec ([`CallKills::may_alias`]: a guard
//!   on a vec that may or may not be the checked one, which the kept check's remark names);
//! - a vec copy: source and destination together;
//! - a compare with one tracked operand: the other one too (its branch links them);
//! - the divisor of every checked division (is it non-zero: `div-check-prove` asks that of
//!   this analysis), with one more link: `d = x sdiv k` (a constant `k >= 1`) with `x`
//!   tracked tracks `d`, whose bounds its quotient fact turns into bounds of `x`.
//!
//! One analysis then answers both the check passes and `div-check-prove`, which runs right
//! after `bounds-check-elim` on the analysis it kept. Tracking the divisors there costs little
//! (the O2 analyses of `scattered`'s functions: 599,440 → 601,718 instructions), while a second
//! analysis of the same function, however few locals it tracks, paid the fixpoint's cost per
//! block again (201,785). `div-check-elim`, at the end of O2 and when run alone, computes its
//! own over [`Tracked::of_divisors`]: the divisors and the same propagation only.
//!
//! Soundness: dropping a constraint only makes the facts weaker, and every check decision
//! reads the facts as "proved" or "not proved"; an untracked local simply never appears in a
//! constraint.

use poolopt_ir::{BinaryOp, EntityRef, Function, InstKind, Local, Operand, Terminator, Type};

use super::constraints::Term;
use super::transfer::quotient_of;
use super::CallKills;

/// The tracked locals of one function (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Tracked {
    locals: Vec<bool>,
}

impl Tracked {
    /// Every local tracked (for callers without a function at hand).
    pub fn all() -> Tracked {
        Tracked { locals: Vec::new() }
    }

    /// Whether constraints about term `t` are recorded.
    pub fn term(&self, t: Term) -> bool {
        t.local().is_none_or(|l| self.local(l))
    }

    /// Whether constraints about local `l` (its value or its length) are recorded.
    pub fn local(&self, l: Local) -> bool {
        self.locals.get(l.index()).is_none_or(|&b| b)
    }

    /// The tracked locals of `func`.
    pub fn of(func: &Function, calls: &CallKills) -> Tracked {
        let n = func.locals.len();
        let mut on = vec![false; n];
        let mark = |on: &mut Vec<bool>, o: Operand| {
            if let Operand::Local(l) = o {
                if let Some(slot) = on.get_mut(l.index()) {
                    *slot = true;
                }
            }
        };
        // Bool locals that an explicit check's branch or an and/or reads.
        let mut tested = vec![false; n];
        // Bool locals a conditional branch reads (their compares' operands are guarded).
        let mut branch_cond = vec![false; n];
        for &b in &func.layout {
            if let Some(Terminator::BrIf {
                cond: Operand::Local(c),
                then_block,
                else_block,
            }) = func.terminator(b)
            {
                branch_cond[c.index()] = true;
                let traps = |t| matches!(func.terminator(t), Some(Terminator::Trap(_)));
                if traps(*then_block) || traps(*else_block) {
                    tested[c.index()] = true;
                }
            }
            for &inst in &func.blocks[b].insts {
                if let InstKind::Binary {
                    op: BinaryOp::And | BinaryOp::Or,
                    lhs,
                    rhs,
                    ..
                } = *func.inst(inst)
                {
                    for o in [lhs, rhs] {
                        if let Operand::Local(l) = o {
                            tested[l.index()] = true;
                        }
                    }
                }
            }
        }
        // Seeds (checked accesses, explicit checks' compares, checked divisions' divisors), the
        // locals a branch's compare reads, and every `n = len w` (judged below, once the
        // checked vecs are known), in one walk.
        let mut guarded = vec![false; n];
        let mut lens: Vec<(Local, Local)> = Vec::new();
        for &b in &func.layout {
            for &inst in &func.blocks[b].insts {
                match *func.inst(inst) {
                    InstKind::Compare { dst, lhs, rhs, .. } => {
                        if branch_cond[dst.index()] {
                            for l in [lhs, rhs].into_iter().filter_map(Operand::as_local) {
                                guarded[l.index()] = true;
                            }
                        }
                        if tested[dst.index()] {
                            mark(&mut on, lhs);
                            mark(&mut on, rhs);
                        }
                    }
                    InstKind::VecGet {
                        vec, index, check, ..
                    }
                    | InstKind::VecSet {
                        vec, index, check, ..
                    } if check.is_checked() => {
                        mark(&mut on, Operand::Local(vec));
                        mark(&mut on, index);
                    }
                    InstKind::VecPop { vec, check, .. } if check.is_checked() => {
                        mark(&mut on, Operand::Local(vec));
                    }
                    InstKind::Binary {
                        op,
                        rhs: Operand::Local(d),
                        check,
                        ..
                    } if check.is_checked() && op.is_division() => {
                        mark(&mut on, Operand::Local(d));
                    }
                    InstKind::VecLen { dst, vec } => lens.push((dst, vec)),
                    _ => {}
                }
            }
        }
        // `n = len w` where `w` may be a checked vec: a guard that may be about the wrong vec,
        // which the kept check's remark names ("only len(a) > 0 is known"). The checked vecs
        // are the seeds' vec locals (a divisor or a compare's operand is never a vec).
        let checked_vecs: Vec<Local> = (0..n)
            .map(Local::new)
            .filter(|&l| on[l.index()] && matches!(func.local_ty(l), Type::Vec(_)))
            .collect();
        for (dst, vec) in lens {
            if !guarded[dst.index()] {
                continue;
            }
            // A vec no other local may alias is a checked vec's only when it is one.
            let checked = if calls.alone(vec) {
                checked_vecs.binary_search(&vec).is_ok()
            } else {
                checked_vecs.iter().any(|&w| calls.may_alias(func, vec, w))
            };
            if checked {
                on[dst.index()] = true;
                on[vec.index()] = true;
            }
        }
        Tracked::propagate(func, on, true)
    }

    /// The locals linked to a checked division's divisor: each divisor, then the propagation
    /// of [`Tracked::of`].
    pub fn of_divisors(func: &Function) -> Tracked {
        let mut on = vec![false; func.locals.len()];
        mark_divisors(func, &mut on);
        Tracked::propagate(func, on, true)
    }

    /// Adds, to a fixpoint, the locals linked to the tracked ones `on` (module docs); with
    /// `quotients`, a quotient `d = x sdiv k` ([`quotient_of`]) also links a tracked `x` to
    /// `d`: a bound on the quotient bounds `x` away from zero.
    fn propagate(func: &Function, mut on: Vec<bool>, quotients: bool) -> Tracked {
        // Propagation to a fixpoint (each round only adds; at most one round per local).
        let is = |on: &Vec<bool>, o: Operand| o.as_local().is_some_and(|l| on[l.index()]);
        let mut changed = true;
        while changed {
            changed = false;
            // Backwards: most links run from a definition's destination to its operands,
            // defined earlier, so a backward sweep follows a whole chain at once (the least
            // fixpoint, hence the result, does not depend on the order).
            for &b in func.layout.iter().rev() {
                for &inst in func.blocks[b].insts.iter().rev() {
                    let mut add: [Option<Operand>; 2] = [None, None];
                    if let Some(q) = quotients
                        .then(|| quotient_of(func, func.inst(inst)))
                        .flatten()
                    {
                        if on[q.x.index()] && !on[q.d.index()] {
                            add[0] = Some(Operand::Local(q.d));
                        }
                    }
                    match *func.inst(inst) {
                        InstKind::Copy { dst, src } => {
                            if on[dst.index()] && !is(&on, src) {
                                add[0] = Some(src);
                            } else if is(&on, src) && !on[dst.index()] {
                                add[0] = Some(Operand::Local(dst));
                            }
                        }
                        InstKind::Unary { dst, arg, .. } if on[dst.index()] => add[0] = Some(arg),
                        InstKind::Binary { dst, lhs, rhs, .. } if on[dst.index()] => {
                            add = [Some(lhs), Some(rhs)];
                        }
                        InstKind::VecLen { dst, vec } if on[dst.index()] != on[vec.index()] => {
                            add = [Some(Operand::Local(dst)), Some(Operand::Local(vec))];
                        }
                        InstKind::Compare { lhs, rhs, .. } if is(&on, lhs) || is(&on, rhs) => {
                            add = [Some(lhs), Some(rhs)];
                        }
                        _ => {}
                    }
                    for o in add.into_iter().flatten() {
                        if let Operand::Local(l) = o {
                            if !on[l.index()] {
                                on[l.index()] = true;
                                changed = true;
                            }
                        }
                    }
                }
            }
        }
        Tracked { locals: on }
    }
}

/// Marks the divisor of every checked division.
fn mark_divisors(func: &Function, on: &mut [bool]) {
    for &b in &func.layout {
        for &inst in &func.blocks[b].insts {
            if let InstKind::Binary {
                op,
                rhs: Operand::Local(d),
                check,
                ..
            } = *func.inst(inst)
            {
                if check.is_checked() && op.is_division() {
                    if let Some(slot) = on.get_mut(d.index()) {
                        *slot = true;
                    }
                }
            }
        }
    }
}
