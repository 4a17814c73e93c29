//! Which locals the SSA form follows ([`Var`], [`relevant_vars`]), and what gives a variable a
//! new value ([`for_each_def`], [`call_changes`]): the rule table that both the phi placement
//! and the renaming walk follow.
//!
//! The *variables* are the `i64` locals (their values) and the vec locals (their lengths)
//! a check may depend on (a bounds check's operands, a checked division's `i64` divisor, and
//! what those are computed from or compared with); `bool` locals are followed too, as the compare they hold (operands
//! as SSA values), so that a branch on them can refine its operands. A variable is defined by
//! an assignment, and for a length by every `push`/`pop`/`drop` of a vec that may alias it and
//! every call that may change it.

use super::{fill, group_by, take, Built};
use crate::analysis::facts::demand::ends_in_explicit_check;
use crate::analysis::facts::CallKills;
use crate::analysis::sparse_bounds::graph::room;
use poolopt_ir::{BinaryOp, EntityRef, Function, InstKind, Local, Operand, Terminator, Type};

#[derive(Copy, Clone, PartialEq, Eq, Default)]
pub(super) enum Var {
    #[default]
    None,
    Value,
    Length,
    Bool,
}

/// What each local is to the SSA form: only the `i64` and vec locals a check may depend on
/// are followed (see [`relevant_vars`]), and every `bool`.
#[inline(never)]
pub(super) fn relevant_vars(func: &Function, s: &mut Built) {
    let n = func.locals.len();
    let mut on = fill(&mut s.on, n, false);
    let is_value = |l: Local| func.local_ty(l) == Type::I64;
    let mut explicit_conds = fill(&mut s.explicit_conds, n, false);
    let mut links = take(&mut s.links, 2 * func.insts.len());
    // One walk over the instructions: the seeds (the operands of the checks); the links
    // (see below) of copies, lengths and arithmetic; the bool copies and negations, and the
    // compares, for after the walk.
    let mut bool_copies = take(&mut s.bool_copies, 16);
    let mut compares = take(&mut s.compares, 16);
    let both = |links: &mut Vec<(u32, u32)>, a: Local, b: Local| {
        links.push((a.index() as u32, b.index() as u32));
        links.push((b.index() as u32, a.index() as u32));
    };
    for &b in &func.layout {
        for &inst in &func.blocks[b].insts {
            match *func.inst(inst) {
                InstKind::VecPop { vec, check, .. } if check.is_checked() => on[vec.index()] = true,
                InstKind::VecGet {
                    vec, index, check, ..
                }
                | InstKind::VecSet {
                    vec, index, check, ..
                } if check.is_checked() => {
                    on[vec.index()] = true;
                    if let Operand::Local(i) = index {
                        on[i.index()] = true;
                    }
                }
                InstKind::Compare { dst, lhs, rhs, .. } => {
                    let locals = [lhs, rhs].map(|o| o.as_local().filter(|&l| is_value(l)));
                    compares.push((dst, locals));
                }
                InstKind::Copy {
                    dst,
                    src: Operand::Local(j),
                } => {
                    bool_copies.push((dst.index() as u32, j.index() as u32));
                    if func.local_ty(dst) != Type::BOOL {
                        both(&mut links, dst, j);
                    }
                }
                InstKind::Unary {
                    dst,
                    arg: Operand::Local(j),
                    ..
                } => bool_copies.push((dst.index() as u32, j.index() as u32)),
                InstKind::VecLen { dst, vec } => both(&mut links, dst, vec),
                InstKind::Binary {
                    dst, op, lhs, rhs, ..
                } => {
                    // A checked division's `i64` divisor is a seed: the pass decides its test.
                    if let Some((_, Operand::Local(d))) = func.inst(inst).checked_division() {
                        if is_value(d) {
                            on[d.index()] = true;
                        }
                    }
                    for l in [lhs, rhs].into_iter().filter_map(|o| o.as_local()) {
                        links.push((dst.index() as u32, l.index() as u32));
                    }
                    // A quotient `dst = x sdiv k` (k >= 1) of a relevant `x` bounds it when
                    // compared (a division's quotient witness).
                    if let (BinaryOp::SDiv, Operand::Local(x), Operand::Const(1..)) = (op, lhs, rhs)
                    {
                        links.push((x.index() as u32, dst.index() as u32));
                    }
                }
                _ => {}
            }
        }
    }
    // The bools explicit checks branch on (through copies and negations).
    for &b in &func.layout {
        if let Some(Terminator::BrIf {
            cond: Operand::Local(c),
            ..
        }) = func.terminator(b)
        {
            if ends_in_explicit_check(func, b) {
                explicit_conds[c.index()] = true;
            }
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &(dst, j) in &bool_copies {
            if explicit_conds[dst as usize] && !explicit_conds[j as usize] {
                explicit_conds[j as usize] = true;
                changed = true;
            }
        }
    }
    // Closure, by a walk over "if `a` is relevant, so is `b`" links: the operands of a
    // relevant local's definitions; every operand of a compare with a relevant operand (a
    // branch on it refines them), or of a compare an explicit check branches on; and,
    // forwards, a copy or a length of a relevant value (it holds the same value, so a compare
    // of it refines that value).
    for &(dst, locals) in &compares {
        if explicit_conds[dst.index()] {
            for l in locals.into_iter().flatten() {
                on[l.index()] = true;
            }
        } else if let [Some(a), Some(b)] = locals {
            both(&mut links, a, b);
        }
    }
    let mut work = take(&mut s.work, n);
    work.extend((0..n as u32).filter(|&i| on[i as usize]));
    s.bool_copies = bool_copies;
    s.compares = compares;
    let mut range = take(&mut s.range, n);
    group_by(n, &mut links, &mut s.links_tmp, &mut range, |&(a, _)| {
        a as usize
    });
    while let Some(a) = work.pop() {
        let (lo, hi) = range[a as usize];
        for &(_, b) in &links[lo as usize..hi as usize] {
            if !std::mem::replace(&mut on[b as usize], true) {
                work.push(b);
            }
        }
    }
    room(&mut s.t.vars, n);
    s.t.vars.extend((0..n).map(|i| {
        let l = Local::new(i);
        match func.local_ty(l) {
            Type::BOOL => Var::Bool,
            Type::I64 if on[i] => Var::Value,
            Type::Vec(_) if on[i] => Var::Length,
            _ => Var::None,
        }
    }));
    s.on = on;
    s.explicit_conds = explicit_conds;
    s.links = links;
    s.work = work;
    s.range = range;
}

/// The vec locals whose length a call may change: those that may alias a vec argument whose
/// type the callee may change (see the fact analysis's call rule).
pub(super) fn call_changes(
    func: &Function,
    calls: &CallKills,
    vecs: &[Local],
    callee: poolopt_ir::FuncId,
    args: &[Operand],
    mut f: impl FnMut(Local),
) {
    let changed = || {
        args.iter()
            .filter_map(|a| a.as_local())
            .filter(|&w| matches!(func.local_ty(w), Type::Vec(_)))
            .filter(|&w| calls.may_change(callee, func.local_ty(w)))
    };
    if changed().next().is_none() {
        return;
    }
    for &v in vecs {
        if changed().any(|w| calls.may_alias(func, v, w)) {
            f(v);
        }
    }
}

/// Every variable `kind` gives a new value (not a π: those keep the value).
pub(super) fn for_each_def(
    func: &Function,
    vars: &[Var],
    calls: &CallKills,
    vecs: &[Local],
    kind: &InstKind,
    mut f: impl FnMut(Local),
) {
    if let Some(d) = kind.def() {
        if vars[d.index()] != Var::None {
            f(d);
        }
    }
    match *kind {
        InstKind::VecPush { vec, .. }
        | InstKind::VecPop { vec, .. }
        | InstKind::VecDrop { vec } => {
            for &v in vecs {
                if calls.may_alias(func, v, vec) {
                    f(v);
                }
            }
        }
        InstKind::Call {
            func: callee,
            ref args,
            ..
        } => call_changes(func, calls, vecs, callee, args, f),
        _ => {}
    }
}
