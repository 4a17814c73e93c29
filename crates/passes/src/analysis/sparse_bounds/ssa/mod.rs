//! SSA construction with π-nodes: the inequality graph of one function, and the questions
//! `bounds-check-elim` asks, in terms of its nodes.
//!
//! The *variables* are the `i64` locals (their values) and the vec locals (their lengths);
//! `bool` locals are followed too, as the compare they hold (operands as SSA values), so that
//! a branch on them can refine its operands. Phis are placed at the iterated dominance
//! frontier of every block that defines a variable ([`for_each_def`]: an assignment, and for a
//! length every `push`/`pop`/`drop` of a vec that may alias it and every call that may change
//! it), pruned by liveness (none where the variable is dead); a `bool` phi holds no compare.
//! Renaming walks the dominator tree. The tables live in a work space ([`Built`]) kept across
//! functions.
//!
//! π-nodes are value-identical copies made where something is learnt about a value: on the
//! edge of a conditional branch into a block whose only predecessor is the branch's block
//! (the compare's operands), and after a checked `pop`/`get`/`set` (which did not trap).
//! Every variable whose current value is the refined one is renamed to the π. A π needs no
//! phi where its scope ends: the value it copies is the same.

use super::graph::{room, when, Conds, Graph, Node, ALWAYS, ZERO};
use crate::analysis::compare_bounds::{compare_consequences, Premise};
use crate::analysis::facts::demand::{ends_in_explicit_check, is_trap_block};
use crate::analysis::facts::CallKills;
use crate::analysis::Cfg;
use poolopt_ir::dominators::DomTree;
use poolopt_ir::{
    BinaryOp, Block, CmpOp, EntityRef, Function, Inst, InstKind, Local, Operand, Terminator, Type,
    UnaryOp,
};
use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;

/// Constraints `x <= y + c` between terms, each usable under its conditions.
type Rels = SmallVec<[(TermPlus, TermPlus, i128, Conds); 4]>;

/// An SSA value plus a constant.
pub(super) type TermPlus = (Node, i128);

/// A compare of two `i64` operands, as SSA values.
#[derive(Copy, Clone, Debug)]
pub(super) struct Cmp {
    pub op: CmpOp,
    pub lhs: TermPlus,
    pub rhs: TermPlus,
}

/// What a checked operation needs, in SSA values.
#[derive(Copy, Clone, Debug)]
pub(super) enum Need {
    /// `len > 0`.
    Pop { len: Node },
    /// `0 <= i < len`.
    Index { i: Node, len: Node },
    /// `k < len`.
    Const { len: Node, k: i64 },
}

/// A checked operation to decide.
pub(super) struct CheckQuery {
    pub block: Block,
    /// The block never runs: the check never fails.
    pub dead: bool,
    pub inst: Inst,
    pub need: Need,
}

/// An explicit check to decide: `brif c, ..` ending `block`, trapping when `c == trap_when`.
pub(super) struct ExplicitQuery {
    pub block: Block,
    /// The block never runs: the trap edge is never taken.
    pub dead: bool,
    pub cmp: Option<Cmp>,
    pub trap_when: bool,
}

/// The tables the renaming walk ([`Builder`]) fills for one function: the graph, the
/// queries, and the walk's own state. Kept across functions (cleared, not reallocated).
#[derive(Default)]
struct Tables {
    graph: Graph,
    checks: Vec<CheckQuery>,
    explicit: Vec<ExplicitQuery>,
    /// What each local is to the SSA form.
    vars: Vec<Var>,
    /// The `i64` and vec locals.
    tracked: Vec<Local>,
    vecs: Vec<Local>,
    /// Current value of each value or length variable, by local.
    cur: Vec<Node>,
    /// Current compare of each bool local.
    cmp: Vec<Option<Cmp>>,
    undo: Vec<(Local, Node)>,
    undo_cmp: Vec<(Local, Option<Cmp>)>,
    /// (block, variable) of each phi, sorted by block; each block's range; each phi's node,
    /// once made.
    phis: Vec<(Block, Local)>,
    phi_range: Vec<(u32, u32)>,
    phi_nodes: Vec<Node>,
    consts: HashMap<i128, Node>,
    /// The value of each constant node.
    const_of: HashMap<Node, i128>,
    /// The compare a block's `brif` branches on, as the block ends.
    end_cmp: Vec<Option<Cmp>>,
    /// Blocks that never run (see `pi`).
    dead: Vec<bool>,
    /// Scratch: the vecs a call changes.
    changed: Vec<Local>,
}

/// The graph and the queries of the last function built, and the tables [`build`] works in:
/// kept across functions (cleared, not reallocated).
#[derive(Default)]
pub(super) struct Built {
    t: Tables,
    // Scratch.
    on: Vec<bool>,
    explicit_conds: Vec<bool>,
    links: Vec<(u32, u32)>,
    links_tmp: Vec<(u32, u32)>,
    bool_copies: Vec<(u32, u32)>,
    compares: Vec<(Local, [Option<Local>; 2])>,
    work: Vec<u32>,
    range: Vec<(u32, u32)>,
    defs: Vec<(u32, Block)>,
    defs_tmp: Vec<(u32, Block)>,
    ue: Vec<u64>,
    bit_of: Vec<u32>,
    kill: Vec<u64>,
    live: Vec<u64>,
    df: Vec<(Block, Block)>,
    pairs_tmp: Vec<(Block, Block)>,
    df_range: Vec<(u32, u32)>,
    phis_tmp: Vec<(Block, Local)>,
    stamp: Vec<u32>,
    blocks: Vec<Block>,
    children: Vec<(Block, Block)>,
    child_range: Vec<(u32, u32)>,
    stack: Vec<Step>,
}

impl Built {
    /// The inequality graph of the last function built.
    pub fn graph(&self) -> &Graph {
        &self.t.graph
    }

    /// Its checked operations.
    pub fn checks(&self) -> &[CheckQuery] {
        &self.t.checks
    }

    /// Its explicit checks.
    pub fn explicit(&self) -> &[ExplicitQuery] {
        &self.t.explicit
    }
}

enum Step {
    Enter(Block),
    Exit(usize, usize),
}

/// `v`, cleared and filled with `n` copies of `x`.
fn fill<T: Clone>(v: &mut Vec<T>, n: usize, x: T) -> Vec<T> {
    let mut v = std::mem::take(v);
    room(&mut v, n);
    v.resize(n, x);
    v
}

/// Clears `v` and fills it with `n` copies of `x`, in place.
fn refill<T: Clone>(v: &mut Vec<T>, n: usize, x: T) {
    room(v, n);
    v.resize(n, x);
}

#[derive(Copy, Clone, PartialEq, Eq, Default)]
enum Var {
    #[default]
    None,
    Value,
    Length,
    Bool,
}

/// What each local is to the SSA form: only the `i64` and vec locals a check may depend on
/// are followed (see [`relevant_vars`]), and every `bool`.
#[inline(never)]
fn relevant_vars(func: &Function, s: &mut Built) {
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
                InstKind::Binary { dst, lhs, rhs, .. } => {
                    for l in [lhs, rhs].into_iter().filter_map(|o| o.as_local()) {
                        links.push((dst.index() as u32, l.index() as u32));
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
fn call_changes(
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
fn for_each_def(
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

/// The renaming walk over the dominator tree, filling [`Tables`].
struct Builder<'a> {
    func: &'a Function,
    calls: &'a CallKills,
    cfg: &'a Cfg,
    t: &'a mut Tables,
}

/// `v`, emptied.
fn take<T>(v: &mut Vec<T>, n: usize) -> Vec<T> {
    let mut v = std::mem::take(v);
    room(&mut v, n);
    v
}

/// Builds the graph and the queries into `s` (`false` for a function without blocks). An
/// entry block with predecessors (a loop back to it) gets phis whose last operand is the
/// initial value.
pub(super) fn build(
    func: &Function,
    cfg: &Cfg,
    dom: &DomTree,
    calls: &CallKills,
    s: &mut Built,
) -> bool {
    let Some(entry) = func.entry() else {
        return false;
    };
    let n = func.locals.len();
    relevant_vars(func, s);
    let t = &mut s.t;
    room(&mut t.tracked, n);
    t.tracked.extend(
        func.locals
            .keys()
            .filter(|&l| matches!(t.vars[l.index()], Var::Value | Var::Length)),
    );
    room(&mut t.vecs, n);
    t.vecs.extend(
        t.tracked
            .iter()
            .copied()
            .filter(|&l| t.vars[l.index()] == Var::Length),
    );
    let nb = func.blocks.len();
    place_phis(func, cfg, dom, calls, s);
    let t = &mut s.t;
    let phis_len = t.phis.len();
    let insts: usize = cfg.rpo().iter().map(|&b| func.blocks[b].insts.len()).sum();
    t.graph.reset(entry);
    t.consts.clear();
    t.consts.reserve(32);
    t.const_of.clear();
    t.const_of.reserve(32);
    refill(&mut t.cur, n, ZERO);
    refill(&mut t.cmp, n, None);
    room(&mut t.undo, 4 * insts + phis_len + 16);
    room(&mut t.undo_cmp, insts + 16);
    refill(&mut t.phi_nodes, phis_len, u32::MAX);
    refill(&mut t.end_cmp, nb, None);
    room(&mut t.checks, 16);
    room(&mut t.explicit, 16);
    refill(&mut t.dead, nb, false);
    room(&mut t.changed, 8);
    t.graph
        .reserve(insts + phis_len + func.params.len() + 1, 3 * phis_len);
    // Initial values: parameters are unknown, other locals are zero (a vec local never
    // assigned has length 0).
    for &p in &func.params {
        match t.vars[p.index()] {
            Var::Value => t.cur[p.index()] = t.graph.plain(entry),
            Var::Length => t.cur[p.index()] = t.graph.length(entry),
            _ => {}
        }
    }
    let Built {
        t,
        children,
        child_range,
        stack,
        pairs_tmp,
        ..
    } = s;
    // The dominator tree, children in reverse post-order.
    room(children, nb);
    children.extend(
        cfg.rpo()
            .iter()
            .filter_map(|&b| dom.idom(b).map(|d| (d, b))),
    );
    // Stable: each parent's children stay in reverse post-order.
    room(child_range, nb);
    group_by(nb, children, pairs_tmp, child_range, |&(d, _)| d.index());
    room(stack, 2 * nb);
    let mut builder = Builder {
        func,
        calls,
        cfg,
        t,
    };
    stack.push(Step::Enter(entry));
    while let Some(step) = stack.pop() {
        match step {
            Step::Exit(len, len_cmp) => builder.undo_to(len, len_cmp),
            Step::Enter(b) => {
                stack.push(Step::Exit(builder.t.undo.len(), builder.t.undo_cmp.len()));
                // A block only reached through a block that never runs never runs.
                if let Some(d) = dom.idom(b) {
                    builder.t.dead[b.index()] = builder.t.dead[d.index()];
                }
                builder.block(b);
                let (lo, hi) = child_range[b.index()];
                for &(_, c) in children[lo as usize..hi as usize].iter().rev() {
                    stack.push(Step::Enter(c));
                }
            }
        }
    }
    builder.t.graph.finish();
    true
}

/// The phis of pruned-by-relevance SSA: for each variable, at the iterated dominance frontier
/// of the blocks that define it. Returns `(block, variable)` pairs sorted by block, and each
/// block's range.
#[inline(never)]
fn place_phis(func: &Function, cfg: &Cfg, dom: &DomTree, calls: &CallKills, s: &mut Built) {
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

/// Groups `items` by `key` (in `0..n`) with a stable counting sort (through `tmp`), and sets
/// `range` to each key's `(start, end)` range in the grouped list.
fn group_by<T: Copy>(
    n: usize,
    items: &mut Vec<T>,
    tmp: &mut Vec<T>,
    range: &mut Vec<(u32, u32)>,
    key: impl Fn(&T) -> usize,
) {
    room(range, n);
    range.resize(n, (0, 0));
    for it in items.iter() {
        range[key(it)].1 += 1;
    }
    let mut at = 0u32;
    for r in range.iter_mut() {
        let len = r.1;
        *r = (at, at);
        at += len;
    }
    if let Some(&first) = items.first() {
        room(tmp, items.len());
        tmp.resize(items.len(), first);
        for it in items.iter() {
            let r = &mut range[key(it)];
            tmp[r.1 as usize] = *it;
            r.1 += 1;
        }
        std::mem::swap(items, tmp);
    }
}

impl Builder<'_> {
    #[inline]
    fn var(&self, l: Local) -> Var {
        self.t.vars[l.index()]
    }

    /// Restores the values and the compares set since the undo logs had these lengths (two
    /// logs: they restore different tables, so their interleaving does not matter).
    fn undo_to(&mut self, len: usize, len_cmp: usize) {
        while self.t.undo.len() > len {
            if let Some((l, v)) = self.t.undo.pop() {
                self.t.cur[l.index()] = v;
            }
        }
        while self.t.undo_cmp.len() > len_cmp {
            if let Some((l, c)) = self.t.undo_cmp.pop() {
                self.t.cmp[l.index()] = c;
            }
        }
    }

    #[inline]
    fn set(&mut self, l: Local, v: Node) {
        self.t.undo.push((l, self.t.cur[l.index()]));
        self.t.cur[l.index()] = v;
    }

    #[inline]
    fn set_cmp(&mut self, l: Local, c: Option<Cmp>) {
        self.t.undo_cmp.push((l, self.t.cmp[l.index()]));
        self.t.cmp[l.index()] = c;
    }

    /// The node of the `i`-th phi, made on first use.
    #[inline]
    fn phi_node(&mut self, i: usize) -> Node {
        if self.t.phi_nodes[i] == u32::MAX {
            let b = self.t.phis[i].0;
            // The entry's phis have one more operand: the initial value.
            let preds = self.cfg.preds(b).len() + usize::from(Some(b) == self.func.entry());
            self.t.phi_nodes[i] = self.t.graph.phi(b, preds);
        }
        self.t.phi_nodes[i]
    }

    #[inline]
    fn constant(&mut self, k: i128) -> Node {
        if k == 0 {
            return ZERO;
        }
        if let Some(&n) = self.t.consts.get(&k) {
            return n;
        }
        let entry = self.t.graph.nodes[ZERO as usize].block;
        let n = self.t.graph.plain(entry);
        self.t.graph.set_global(n);
        self.t.graph.exact(n, ZERO, k, ALWAYS);
        self.t.consts.insert(k, n);
        self.t.const_of.insert(n, k);
        n
    }

    #[inline]
    fn term(&self, o: Operand) -> Option<TermPlus> {
        match o {
            // A local holding a constant is that constant.
            Operand::Local(l) if self.var(l) == Var::Value => {
                let n = self.t.cur[l.index()];
                Some(match self.t.const_of.get(&n) {
                    Some(&k) => (ZERO, k),
                    None => (n, 0),
                })
            }
            Operand::Local(_) => None,
            Operand::Const(k) => Some((ZERO, k as i128)),
        }
    }

    /// Makes π copies of the operands of `rels` (each `x <= y + c`, usable when its
    /// condition holds) with those constraints, and renames every variable holding an
    /// operand to its π.
    /// Returns whether one of the unconditional constraints is false of constants (the
    /// branch edge that would give it is never taken).
    fn pi(&mut self, block: Block, rels: &[(TermPlus, TermPlus, i128, Conds)]) -> bool {
        let mut pis: SmallVec<[(Node, Node); 4]> = SmallVec::new();
        let mut impossible = false;
        for &(x, y, c, cond) in rels {
            if x.0 == y.0 {
                impossible |= cond == ALWAYS && y.1 + c - x.1 < 0;
                continue;
            }
            // x.0 <= y.0 + (y.1 + c - x.1)
            let off = y.1 + c - x.1;
            if x.0 != ZERO {
                let p = self.pi_of(block, &mut pis, x.0);
                self.t.graph.upper(p, y.0, off, cond);
            }
            if y.0 != ZERO {
                let p = self.pi_of(block, &mut pis, y.0);
                self.t.graph.lower(p, x.0, -off, cond);
            }
        }
        for (old, new) in pis {
            for i in 0..self.t.tracked.len() {
                let l = self.t.tracked[i];
                if self.t.cur[l.index()] == old {
                    self.set(l, new);
                }
            }
        }
        impossible
    }

    #[inline]
    fn pi_of(&mut self, block: Block, pis: &mut SmallVec<[(Node, Node); 4]>, old: Node) -> Node {
        if let Some(&(_, p)) = pis.iter().find(|&&(o, _)| o == old) {
            return p;
        }
        let p = self.t.graph.plain(block);
        self.t.graph.exact(p, old, 0, ALWAYS);
        pis.push((old, p));
        p
    }

    /// A condition `x <= y + c` on terms: `Some(None)` when it always holds, `None` when it
    /// never can be used.
    fn cond(&mut self, x: TermPlus, y: TermPlus, c: i128) -> Option<Conds> {
        let off = y.1 + c - x.1;
        if x.0 == y.0 {
            return (off >= 0).then_some(ALWAYS);
        }
        Some(when(self.t.graph.cond(x.0, y.0, off)))
    }

    /// The constraints `x op y` being true gives (the shared rule table,
    /// [`compare_consequences`]; a premise is a condition on the graph).
    fn relation(&mut self, op: CmpOp, x: TermPlus, y: TermPlus, out: &mut Rels) {
        compare_consequences(
            op,
            x,
            y,
            ZERO,
            ALWAYS,
            &mut |premise| match premise {
                Premise::NonNegative(o) => self.cond((ZERO, 0), o, 0),
                Premise::AtMost(p, q) => self.cond(p, q, 0),
            },
            &mut |a, b, c, k| out.push((a, b, c, k)),
        );
    }

    fn block(&mut self, b: Block) {
        let func = self.func;
        let (lo, hi) = self.t.phi_range[b.index()];
        for i in lo as usize..hi as usize {
            let l = self.t.phis[i].1;
            match self.var(l) {
                Var::Bool => self.set_cmp(l, None),
                _ => {
                    let n = self.phi_node(i);
                    if Some(b) == func.entry() {
                        let k = self.cfg.preds(b).len();
                        let initial = self.t.cur[l.index()];
                        self.t.graph.set_phi_op(n, k, initial);
                    }
                    self.set(l, n);
                }
            }
        }
        // The branch into a block with one predecessor (not the entry, which the start of
        // the function reaches too).
        if let (false, [p]) = (Some(b) == func.entry(), self.cfg.preds(b)) {
            let p = *p;
            if let (
                Some(Terminator::BrIf {
                    then_block,
                    else_block,
                    ..
                }),
                Some(c),
            ) = (func.terminator(p), self.t.end_cmp[p.index()])
            {
                if then_block != else_block {
                    let op = if *then_block == b {
                        c.op
                    } else {
                        c.op.negate()
                    };
                    let mut rels = Rels::new();
                    self.relation(op, c.lhs, c.rhs, &mut rels);
                    // An edge whose condition is false of constants is never taken: its
                    // block (the edge is its only way in) never runs.
                    if self.pi(b, &rels) {
                        self.t.dead[b.index()] = true;
                    }
                }
            }
        }
        for &inst in &func.blocks[b].insts {
            self.inst(b, inst);
        }
        // The compare the terminator branches on.
        if let Some(Terminator::BrIf {
            cond: Operand::Local(c),
            then_block,
            else_block,
        }) = func.terminator(b)
        {
            let cmp = if self.var(*c) == Var::Bool {
                self.t.cmp[c.index()]
            } else {
                None
            };
            self.t.end_cmp[b.index()] = cmp;
            let trap_when = match (
                is_trap_block(func, *then_block),
                is_trap_block(func, *else_block),
            ) {
                (true, false) => Some(true),
                (false, true) => Some(false),
                _ => None,
            };
            if let Some(trap_when) = trap_when {
                self.t.explicit.push(ExplicitQuery {
                    block: b,
                    dead: self.t.dead[b.index()],
                    cmp,
                    trap_when,
                });
            }
        }
        // Phi operands of the successors.
        for &s in self.cfg.succs(b) {
            let (lo, hi) = self.t.phi_range[s.index()];
            if lo == hi {
                continue;
            }
            let Some(k) = self.cfg.preds(s).iter().position(|&p| p == b) else {
                continue;
            };
            for i in lo as usize..hi as usize {
                let l = self.t.phis[i].1;
                if self.var(l) == Var::Bool {
                    continue;
                }
                let phi = self.phi_node(i);
                let v = self.t.cur[l.index()];
                self.t.graph.set_phi_op(phi, k, v);
            }
        }
    }

    /// A fresh node for the new value of `l` (nothing known but what its type gives).
    #[inline]
    fn unknown(&mut self, b: Block, l: Local) {
        match self.var(l) {
            Var::Value => {
                let n = self.t.graph.plain(b);
                self.set(l, n);
            }
            Var::Length => {
                let n = self.t.graph.length(b);
                self.set(l, n);
            }
            Var::Bool => self.set_cmp(l, None),
            Var::None => {}
        }
    }

    fn inst(&mut self, b: Block, inst: Inst) {
        let func = self.func;
        let kind = func.inst(inst);
        match *kind {
            InstKind::Copy { dst, src } => match (self.var(dst), src) {
                (Var::Value, Operand::Const(k)) => {
                    let n = self.constant(k as i128);
                    self.set(dst, n);
                }
                (Var::Value | Var::Length, Operand::Local(j)) => {
                    let n = self.t.cur[j.index()];
                    self.set(dst, n);
                }
                (Var::Bool, Operand::Local(j)) => {
                    let c = self.t.cmp[j.index()];
                    self.set_cmp(dst, c);
                }
                _ => self.unknown(b, dst),
            },
            InstKind::Unary { dst, op, arg } => match (self.var(dst), op, arg) {
                (Var::Bool, UnaryOp::Not, Operand::Local(c)) => {
                    let c = self.t.cmp[c.index()].map(|c| Cmp {
                        op: c.op.negate(),
                        ..c
                    });
                    self.set_cmp(dst, c);
                }
                // A bit count of an i64 is in 0..=64.
                (Var::Value, UnaryOp::Ctz | UnaryOp::Clz | UnaryOp::Popcnt, _) => {
                    let n = self.t.graph.plain(b);
                    self.t.graph.lower(n, ZERO, 0, ALWAYS);
                    self.t.graph.upper(n, ZERO, 64, ALWAYS);
                    self.set(dst, n);
                }
                _ => self.unknown(b, dst),
            },
            InstKind::Binary {
                dst, op, lhs, rhs, ..
            } => {
                if self.var(dst) != Var::Value {
                    self.unknown(b, dst);
                    return;
                }
                match (self.term(lhs), self.term(rhs)) {
                    (Some(x), Some(y)) => {
                        let n = self.binary(b, op, x, y);
                        self.set(dst, n);
                    }
                    _ => self.unknown(b, dst),
                }
            }
            InstKind::Compare { dst, op, lhs, rhs } => {
                let c = match (self.term(lhs), self.term(rhs)) {
                    (Some(lhs), Some(rhs)) if self.var(dst) == Var::Bool => {
                        Some(Cmp { op, lhs, rhs })
                    }
                    _ => None,
                };
                if self.var(dst) == Var::Bool {
                    self.set_cmp(dst, c);
                }
            }
            InstKind::VecNew { dst, .. } => self.set(dst, ZERO),
            InstKind::VecLen { dst, vec } => {
                if self.var(dst) == Var::Value {
                    let n = self.t.cur[vec.index()];
                    self.set(dst, n);
                }
            }
            InstKind::VecPush { vec, .. } => {
                // len(vec) grows by exactly 1; a vec that may alias it by 0 or 1.
                for i in 0..self.t.vecs.len() {
                    let v = self.t.vecs[i];
                    if v == vec || !self.calls.may_alias(func, v, vec) {
                        continue;
                    }
                    let old = self.t.cur[v.index()];
                    let n = self.t.graph.length(b);
                    self.t.graph.lower(n, old, 0, ALWAYS);
                    self.t.graph.upper(n, old, 1, ALWAYS);
                    self.set(v, n);
                }
                let old = self.t.cur[vec.index()];
                let n = self.t.graph.length(b);
                self.t.graph.exact(n, old, 1, ALWAYS);
                self.set(vec, n);
            }
            InstKind::VecPop { dst, vec, check } => {
                if check.is_checked() {
                    let len = self.t.cur[vec.index()];
                    self.t.checks.push(CheckQuery {
                        block: b,
                        dead: self.t.dead[b.index()],
                        inst,
                        need: Need::Pop { len },
                    });
                    // It did not trap: len >= 1.
                    self.pi(b, &[((ZERO, 1), (len, 0), 0, ALWAYS)]);
                }
                for i in 0..self.t.vecs.len() {
                    let v = self.t.vecs[i];
                    if v == vec || !self.calls.may_alias(func, v, vec) {
                        continue;
                    }
                    let old = self.t.cur[v.index()];
                    let n = self.t.graph.length(b);
                    self.t.graph.lower(n, old, -1, ALWAYS);
                    self.t.graph.upper(n, old, 0, ALWAYS);
                    self.set(v, n);
                }
                let old = self.t.cur[vec.index()];
                let n = self.t.graph.length(b);
                self.t.graph.exact(n, old, -1, ALWAYS);
                self.set(vec, n);
                if let Some(d) = dst {
                    self.unknown(b, d);
                }
            }
            InstKind::VecGet {
                vec, index, check, ..
            }
            | InstKind::VecSet {
                vec, index, check, ..
            } => {
                if check.is_checked() {
                    let len = self.t.cur[vec.index()];
                    match index {
                        Operand::Local(i) if self.var(i) == Var::Value => {
                            let iv = self.t.cur[i.index()];
                            self.t.checks.push(CheckQuery {
                                block: b,
                                dead: self.t.dead[b.index()],
                                inst,
                                need: Need::Index { i: iv, len },
                            });
                            // It did not trap: 0 <= i < len.
                            self.pi(
                                b,
                                &[
                                    ((ZERO, 0), (iv, 0), 0, ALWAYS),
                                    ((iv, 0), (len, 0), -1, ALWAYS),
                                ],
                            );
                        }
                        Operand::Const(k) => {
                            self.t.checks.push(CheckQuery {
                                block: b,
                                dead: self.t.dead[b.index()],
                                inst,
                                need: Need::Const { len, k },
                            });
                            if k >= 0 {
                                self.pi(b, &[((ZERO, k as i128), (len, 0), -1, ALWAYS)]);
                            }
                        }
                        Operand::Local(_) => {}
                    }
                }
                if let InstKind::VecGet { dst, .. } = *kind {
                    self.unknown(b, dst);
                }
            }
            InstKind::VecDrop { vec } => {
                // The vec is now empty; a may-alias vec is either it or unchanged.
                for i in 0..self.t.vecs.len() {
                    let v = self.t.vecs[i];
                    if v == vec || !self.calls.may_alias(func, v, vec) {
                        continue;
                    }
                    let old = self.t.cur[v.index()];
                    let n = self.t.graph.length(b);
                    self.t.graph.upper(n, old, 0, ALWAYS);
                    self.set(v, n);
                }
                self.set(vec, ZERO);
            }
            InstKind::Call {
                dst,
                func: callee,
                ref args,
            } => {
                let mut changed = std::mem::take(&mut self.t.changed);
                changed.clear();
                call_changes(func, self.calls, &self.t.vecs, callee, args, |v| {
                    changed.push(v)
                });
                for &v in &changed {
                    self.unknown(b, v);
                }
                self.t.changed = changed;
                if let Some(d) = dst {
                    self.unknown(b, d);
                }
            }
            InstKind::Cast { dst, .. }
            | InstKind::Make { dst, .. }
            | InstKind::GetField { dst, .. }
            | InstKind::SetField { dst, .. } => self.unknown(b, dst),
        }
    }

    /// The value of `x op y` for `i64` operands.
    fn binary(&mut self, b: Block, op: BinaryOp, x: TermPlus, y: TermPlus) -> Node {
        const MAX: i128 = i64::MAX as i128;
        const MIN: i128 = i64::MIN as i128;
        // Constants fold (wrapping).
        if x.0 == ZERO && y.0 == ZERO && matches!(op, BinaryOp::Add | BinaryOp::Sub) {
            let (a, c) = (x.1 as i64, y.1 as i64);
            let v = if op == BinaryOp::Add {
                a.wrapping_add(c)
            } else {
                a.wrapping_sub(c)
            };
            return self.constant(v as i128);
        }
        let n = self.t.graph.plain(b);
        match op {
            // d = x - y for locals x, y >= 0 (it cannot wrap): d <= x, and d >= 0 when y <= x.
            // (And, with constant bounds, the rules of `Prover::materialize`.)
            BinaryOp::Sub if x.0 != ZERO && y.0 != ZERO => {
                let (kx, ky) = (
                    self.t.graph.cond(ZERO, x.0, 0),
                    self.t.graph.cond(ZERO, y.0, 0),
                );
                self.t.graph.upper(n, x.0, 0, [Some(kx), Some(ky)]);
                let ordered = self.t.graph.cond(y.0, x.0, 0);
                self.t.graph.lower(n, ZERO, 0, [Some(ordered), Some(ky)]);
                // y < x: d >= 1.
                let before = self.t.graph.cond(y.0, x.0, -1);
                self.t.graph.lower(n, ZERO, 1, [Some(before), Some(ky)]);
                self.t.graph.lazy(n, op, x, y);
            }
            // k - y, x + y for locals, x * k, x << s: from constant bounds, on demand.
            BinaryOp::Sub | BinaryOp::Add | BinaryOp::Mul | BinaryOp::Shl
                if (op == BinaryOp::Sub && y.0 != ZERO)
                    || (op == BinaryOp::Add && x.0 != ZERO && y.0 != ZERO)
                    || matches!(op, BinaryOp::Mul | BinaryOp::Shl) =>
            {
                self.t.graph.lazy(n, op, x, y);
            }
            BinaryOp::Add | BinaryOp::Sub => {
                let y = if op == BinaryOp::Sub { (y.0, -y.1) } else { y };
                // d = p + k for a local p and a constant k: exact when it cannot wrap.
                let (p, k) = match (x.0 == ZERO, y.0 == ZERO) {
                    (false, true) => (x.0, y.1),
                    (true, false) if op == BinaryOp::Add => (y.0, x.1),
                    _ => return n,
                };
                let cond = if k >= 0 {
                    self.t.graph.cond(p, ZERO, MAX - k)
                } else {
                    self.t.graph.cond(ZERO, p, k - MIN)
                };
                self.t.graph.exact(n, p, k, when(cond));
            }
            // And with a non-negative operand is between 0 and that operand.
            BinaryOp::And => {
                for o in [x, y] {
                    if o.0 == ZERO {
                        if o.1 >= 0 {
                            self.t.graph.lower(n, ZERO, 0, ALWAYS);
                            self.t.graph.upper(n, ZERO, o.1, ALWAYS);
                        }
                    } else {
                        let k = self.t.graph.cond(ZERO, o.0, 0);
                        self.t.graph.lower(n, ZERO, 0, when(k));
                        self.t.graph.upper(n, o.0, 0, when(k));
                    }
                }
            }
            // Unsigned remainder by y >= 0 (not 0: it did not trap): 0 <= d <= y - 1; of
            // x >= 0: 0 <= d <= x.
            BinaryOp::URem => {
                if y.0 == ZERO {
                    if y.1 > 0 {
                        self.t.graph.lower(n, ZERO, 0, ALWAYS);
                        self.t.graph.upper(n, ZERO, y.1 - 1, ALWAYS);
                    }
                } else {
                    let k = self.t.graph.cond(ZERO, y.0, 0);
                    self.t.graph.lower(n, ZERO, 0, when(k));
                    self.t.graph.upper(n, y.0, -1, when(k));
                }
                if x.0 != ZERO {
                    let k = self.t.graph.cond(ZERO, x.0, 0);
                    self.t.graph.lower(n, ZERO, 0, when(k));
                    self.t.graph.upper(n, x.0, 0, when(k));
                }
            }
            // Signed remainder of x >= 0: 0 <= d <= x, and d <= |k| - 1 for a constant k.
            BinaryOp::SRem if x.0 != ZERO => {
                let k = self.t.graph.cond(ZERO, x.0, 0);
                self.t.graph.lower(n, ZERO, 0, when(k));
                self.t.graph.upper(n, x.0, 0, when(k));
                if y.0 == ZERO && y.1 != 0 {
                    self.t.graph.upper(n, ZERO, y.1.abs() - 1, when(k));
                } else if y.0 != ZERO {
                    // |d| < |y|: d <= y - 1 for y >= 0.
                    let ky = self.t.graph.cond(ZERO, y.0, 0);
                    self.t.graph.upper(n, y.0, -1, [Some(k), Some(ky)]);
                }
            }
            // Division of x >= 0 (signed: by a positive constant; unsigned: by anything):
            // 0 <= d <= x.
            BinaryOp::UDiv | BinaryOp::SDiv
                if x.0 != ZERO && (op == BinaryOp::UDiv || (y.0 == ZERO && y.1 >= 1)) =>
            {
                let k = self.t.graph.cond(ZERO, x.0, 0);
                self.t.graph.lower(n, ZERO, 0, when(k));
                self.t.graph.upper(n, x.0, 0, when(k));
            }
            // Signed division of x >= 0 by a local y >= 0 (so y >= 1: it did not trap).
            BinaryOp::SDiv if x.0 != ZERO && y.0 != ZERO => {
                let (kx, ky) = (
                    self.t.graph.cond(ZERO, x.0, 0),
                    self.t.graph.cond(ZERO, y.0, 0),
                );
                self.t.graph.lower(n, ZERO, 0, [Some(kx), Some(ky)]);
                self.t.graph.upper(n, x.0, 0, [Some(kx), Some(ky)]);
            }
            // Arithmetic shift of x >= 0: 0 <= d <= x.
            BinaryOp::AShr if x.0 != ZERO => {
                let k = self.t.graph.cond(ZERO, x.0, 0);
                self.t.graph.lower(n, ZERO, 0, when(k));
                self.t.graph.upper(n, x.0, 0, when(k));
            }
            // A logical shift by 1..63 clears the sign bit.
            BinaryOp::LShr if y.0 == ZERO && y.1.rem_euclid(64) != 0 => {
                self.t.graph.lower(n, ZERO, 0, ALWAYS);
                self.t
                    .graph
                    .upper(n, ZERO, (u64::MAX >> y.1.rem_euclid(64)) as i128, ALWAYS);
                if x.0 != ZERO {
                    let k = self.t.graph.cond(ZERO, x.0, 0);
                    self.t.graph.upper(n, x.0, 0, when(k));
                }
            }
            _ => {}
        }
        n
    }
}
