//! Pruned phi placement ([`place_phis`]): for each variable, phis at the iterated dominance
//! frontier of every block that defines it ([`for_each_def`]), pruned by liveness (none where
//! the variable is dead); a `bool` phi holds no compare.

use super::relevance::{for_each_def, Var};
use super::{fill, group_by, take, Built};
use crate::analysis::facts::CallKills;
use crate::analysis::Cfg;
use poolopt_ir::dominators::DomTree;
use poolopt_ir::{EntityRef, Function, InstKind, Local, Operand, Terminator};

/// The phis of pruned-by-relevance SSA: for each variable, at the iterated dominance frontier
/// of the blocks that define it. Returns `(block, variable)` pairs sorted by block, and each
/// block's range.
#[inline(never)]
pub(super) fn place_phis(
    func: &Function,
    cfg: &Cfg,
    dom: &DomTree,
    calls: &CallKills,
    s: &mut Built,
) {
    let (vars, vecs) = (&s.t.vars[..], &s.t.vecs[..]);
    let nb = func.blocks.len();
    // (variable, block) for every block that defines a variable, sorted.
    // And, for liveness, each block's upward-exposed uses and its definitions (bit sets of
    // `w` words by block). A read-modify-write of a length (an aliasing `push`, `pop` or
    // `drop`, a call) is a use too: every read the builder makes of a variable's current
    // value is a use here (more is harmless: a phi too many).
    // The bits: the variables (locals that are not `Var::None`), numbered densely.
    let mut bit_of = take(&mut s.bit_of, vars.len());
    let mut nv = 0u32;
    bit_of.extend(vars.iter().map(|&v| {
        if v == Var::None {
            u32::MAX
        } else {
            nv += 1;
            nv - 1
        }
    }));
    let w = (nv as usize).div_ceil(64).max(1);
    let mut defs = take(&mut s.defs, func.insts.len());
    let mut ue = fill(&mut s.ue, nb * w, 0u64);
    let mut kill = fill(&mut s.kill, nb * w, 0u64);
    for &b in cfg.rpo() {
        let at = b.index() * w;
        let (ue_b, kill_b) = (&mut ue[at..at + w], &mut kill[at..at + w]);
        let used = |l: Local, ue_b: &mut [u64], kill_b: &[u64]| {
            let i = bit_of[l.index()] as usize;
            if i != u32::MAX as usize && kill_b[i / 64] & (1 << (i % 64)) == 0 {
                ue_b[i / 64] |= 1 << (i % 64);
            }
        };
        for &inst in &func.blocks[b].insts {
            let kind = func.inst(inst);
            // Every operand read (as `InstKind::for_each_use`, inlined).
            let mut op = |o: Operand| {
                if let Operand::Local(l) = o {
                    used(l, ue_b, kill_b);
                }
            };
            match kind {
                InstKind::Copy { src: a, .. }
                | InstKind::Unary { arg: a, .. }
                | InstKind::Cast { arg: a, .. } => op(*a),
                InstKind::Binary { lhs, rhs, .. } | InstKind::Compare { lhs, rhs, .. } => {
                    op(*lhs);
                    op(*rhs);
                }
                InstKind::Make { fields: ops, .. } | InstKind::Call { args: ops, .. } => {
                    ops.iter().for_each(|&o| op(o))
                }
                InstKind::GetField { src, .. } => op(Operand::Local(*src)),
                InstKind::SetField { dst, value, .. } => {
                    op(Operand::Local(*dst));
                    op(*value);
                }
                InstKind::VecNew { .. } => {}
                InstKind::VecLen { vec, .. }
                | InstKind::VecPop { vec, .. }
                | InstKind::VecDrop { vec } => op(Operand::Local(*vec)),
                InstKind::VecPush { vec, value: a } | InstKind::VecGet { vec, index: a, .. } => {
                    op(Operand::Local(*vec));
                    op(*a);
                }
                InstKind::VecSet {
                    vec, index, value, ..
                } => {
                    op(Operand::Local(*vec));
                    op(*index);
                    op(*value);
                }
            }
            let def = kind.def();
            for_each_def(func, vars, calls, vecs, kind, |l| {
                if Some(l) != def {
                    used(l, ue_b, kill_b);
                }
                let i = bit_of[l.index()] as usize;
                kill_b[i / 64] |= 1 << (i % 64);
                defs.push((l.index() as u32, b))
            });
        }
        match func.terminator(b) {
            Some(Terminator::BrIf {
                cond: Operand::Local(l),
                ..
            })
            | Some(Terminator::Ret(Some(Operand::Local(l)))) => used(*l, ue_b, kill_b),
            _ => {}
        }
    }
    // Live-in sets: backwards to a fixed point.
    let mut live = fill(&mut s.live, nb * w, 0u64);
    let mut changed = true;
    while changed {
        changed = false;
        if w == 1 {
            // One word a block (at most 64 locals): the common case.
            for &b in cfg.rpo().iter().rev() {
                let out = cfg
                    .succs(b)
                    .iter()
                    .fold(0u64, |o, &succ| o | live[succ.index()]);
                let v = ue[b.index()] | (out & !kill[b.index()]);
                if v != live[b.index()] {
                    live[b.index()] = v;
                    changed = true;
                }
            }
            continue;
        }
        for &b in cfg.rpo().iter().rev() {
            let at = b.index() * w;
            for k in 0..w {
                let mut out = 0u64;
                for &succ in cfg.succs(b) {
                    out |= live[succ.index() * w + k];
                }
                let v = ue[at + k] | (out & !kill[at + k]);
                if v != live[at + k] {
                    live[at + k] = v;
                    changed = true;
                }
            }
        }
    }
    let mut range = take(&mut s.range, func.locals.len());
    group_by(
        func.locals.len(),
        &mut defs,
        &mut s.defs_tmp,
        &mut range,
        |&(l, _)| l as usize,
    );
    s.range = range;
    // Dominance frontiers (Cooper, Harvey, Kennedy), as (block, frontier block) pairs
    // sorted by block, with each block's range.
    let mut df = take(&mut s.df, 2 * nb);
    for &b in cfg.rpo() {
        // The entry block also has the function's start as a predecessor.
        let preds = cfg.preds(b);
        if preds.len() + usize::from(Some(b) == func.entry()) < 2 {
            continue;
        }
        let idom = dom.idom(b);
        for &p in preds {
            if !cfg.is_reachable(p) {
                continue;
            }
            let mut runner = p;
            while Some(runner) != idom {
                df.push((runner, b));
                match dom.idom(runner) {
                    Some(d) => runner = d,
                    None => break,
                }
            }
        }
    }
    let mut df_range = take(&mut s.df_range, nb);
    group_by(nb, &mut df, &mut s.pairs_tmp, &mut df_range, |&(r, _)| {
        r.index()
    });
    // Phis at the iterated frontiers: (block, variable), sorted by block.
    let mut phis = take(&mut s.t.phis, 2 * nb);
    if !df.is_empty() {
        let mut stamp = fill(&mut s.stamp, nb, u32::MAX);
        let mut work = take(&mut s.blocks, nb);
        for group in defs.chunk_by(|a, b| a.0 == b.0) {
            let li = group[0].0;
            work.clear();
            work.extend(group.iter().map(|&(_, b)| b));
            while let Some(b) = work.pop() {
                let (lo, hi) = df_range[b.index()];
                for &(_, y) in &df[lo as usize..hi as usize] {
                    if stamp[y.index()] != li {
                        stamp[y.index()] = li;
                        // Pruned: no phi where the variable is dead (nothing would read it).
                        let i = bit_of[li as usize] as usize;
                        let bit = live[y.index() * w + i / 64] >> (i % 64) & 1;
                        if bit != 0 {
                            phis.push((y, Local::new(li as usize)));
                            work.push(y);
                        }
                    }
                }
            }
        }
        s.stamp = stamp;
        s.blocks = work;
    }
    let mut phi_range = take(&mut s.t.phi_range, nb);
    group_by(nb, &mut phis, &mut s.phis_tmp, &mut phi_range, |&(b, _)| {
        b.index()
    });
    s.t.phis = phis;
    s.t.phi_range = phi_range;
    s.defs = defs;
    s.ue = ue;
    s.bit_of = bit_of;
    s.kill = kill;
    s.live = live;
    s.df = df;
    s.df_range = df_range;
}
