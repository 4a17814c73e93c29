//! The renaming walk over the dominator tree ([`Builder`]): the graph's nodes and constraints
//! for every definition, phi operands, π-nodes, and the queries.
//!
//! π-nodes are value-identical copies made where something is learnt about a value: on the
//! edge of a conditional branch into a block whose only predecessor is the branch's block
//! (the compare's operands), and after a checked `pop`/`get`/`set` (which did not trap).
//! Every variable whose current value is the refined one is renamed to the π. A π needs no
//! phi where its scope ends: the value it copies is the same.

use super::relevance::{call_changes, Var};
use super::{CheckQuery, Cmp, DivQuery, ExplicitQuery, Need, Rels, Tables, TermPlus, Witness};
use crate::analysis::compare_bounds::{compare_consequences, Premise};
use crate::analysis::facts::demand::explicit_check_sides;
use crate::analysis::facts::CallKills;
use crate::analysis::sparse_bounds::graph::{when, Conds, Node, ALWAYS, ZERO};
use crate::analysis::Cfg;
use poolopt_ir::{
    BinaryOp, Block, CmpOp, EntityRef, Function, Inst, InstKind, Local, Operand, Terminator,
    UnaryOp,
};
use smallvec::SmallVec;

/// The renaming walk over the dominator tree, filling [`Tables`].
pub(super) struct Builder<'a> {
    pub(super) func: &'a Function,
    pub(super) calls: &'a CallKills,
    pub(super) cfg: &'a Cfg,
    pub(super) t: &'a mut Tables,
}

impl Builder<'_> {
    #[inline]
    fn var(&self, l: Local) -> Var {
        self.t.vars[l.index()]
    }

    /// Restores the values and the compares set since the undo logs had these lengths (two
    /// logs: they restore different tables, so their interleaving does not matter).
    pub(super) fn undo_to(&mut self, len: usize, len_cmp: usize) {
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

    /// The value `n` copies: itself, or for a π-node the first value that is not one.
    #[inline]
    fn origin(&self, n: Node) -> Node {
        self.t.graph.nodes[n as usize].origin
    }

    /// `c` in the latest copies of its operands: an operand read from a local that now holds
    /// a π copy of it (a branch or a check since the compare refined it) becomes that copy,
    /// which has the same value wherever it is defined, so the compare's value is unchanged
    /// and a decision of it sees what the π knows.
    fn refreshed(&self, c: Cmp) -> Cmp {
        let latest = |t: TermPlus, l: Option<Local>| match l {
            Some(l) if t.0 != ZERO => {
                let now = self.t.cur[l.index()];
                (
                    if self.origin(now) == self.origin(t.0) {
                        now
                    } else {
                        t.0
                    },
                    t.1,
                )
            }
            _ => t,
        };
        Cmp {
            lhs: latest(c.lhs, c.locals[0]),
            rhs: latest(c.rhs, c.locals[1]),
            ..c
        }
    }

    /// The quotient witnesses of a division by `d` here ([`super::Witness`]): every tracked
    /// local holding (a π copy of) `q = x sdiv k` where `x` is (a copy of) `d`. Returns
    /// their range in `witnesses`.
    fn witnesses(&mut self, d: Node) -> (u32, u32) {
        let at = self.t.witnesses.len() as u32;
        if self.t.quotients.is_empty() {
            return (at, 0);
        }
        let od = self.origin(d);
        for i in 0..self.t.quotients.len() {
            let (qn, xo, k) = self.t.quotients[i];
            if xo != od {
                continue;
            }
            for j in 0..self.t.tracked.len() {
                let l = self.t.tracked[j];
                let value = self.t.cur[l.index()];
                if self.var(l) == Var::Value && self.origin(value) == qn {
                    self.t.witnesses.push(Witness { q: l, value, k });
                }
            }
        }
        (at, self.t.witnesses.len() as u32 - at)
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
        let p = self.t.graph.copy_of(block, old);
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

    pub(super) fn block(&mut self, b: Block) {
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
                    self.t.entry_edge[b.index()] = Some((p, *then_block == b));
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
                self.t.cmp[c.index()].map(|c| self.refreshed(c))
            } else {
                None
            };
            self.t.end_cmp[b.index()] = cmp;
            if let Some((trap_when, _)) = explicit_check_sides(func, *then_block, *else_block) {
                self.t.explicit.push(ExplicitQuery {
                    block: b,
                    dead: self.t.dead[b.index()],
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
                // A checked division by an `i64` local: its divisor's value before `dst` is
                // assigned (`dst` may be the divisor).
                if let Some((_, Operand::Local(d))) = kind.checked_division() {
                    if self.var(d) == Var::Value {
                        let d = self.t.cur[d.index()];
                        let witnesses = self.witnesses(d);
                        self.t.divisions.push(DivQuery {
                            block: b,
                            dead: self.t.dead[b.index()],
                            inst,
                            op,
                            d,
                            witnesses,
                        });
                    }
                }
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
                    (Some(x), Some(y)) if self.var(dst) == Var::Bool => Some(Cmp {
                        op,
                        lhs: x,
                        rhs: y,
                        locals: [lhs, rhs].map(|o| o.as_local()),
                    }),
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
                self.aliases_move(b, vec, Some(0), 1);
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
                self.aliases_move(b, vec, Some(-1), 0);
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
                self.aliases_move(b, vec, None, 0);
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
    /// After a `push` (`lo` 0, `hi` 1), `pop` (-1, 0) or `drop` (none, 0) of `vec`: each other
    /// vec that may alias it gets a new length between its old one plus `lo` (when given) and
    /// plus `hi`, as it is `vec` (changed) or not (unchanged).
    fn aliases_move(&mut self, b: Block, vec: Local, lo: Option<i128>, hi: i128) {
        let func = self.func;
        for i in 0..self.t.vecs.len() {
            let v = self.t.vecs[i];
            if v == vec || !self.calls.may_alias(func, v, vec) {
                continue;
            }
            let old = self.t.cur[v.index()];
            let n = self.t.graph.length(b);
            if let Some(lo) = lo {
                self.t.graph.lower(n, old, lo, ALWAYS);
            }
            self.t.graph.upper(n, old, hi, ALWAYS);
            self.set(v, n);
        }
    }

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
        // A quotient by a constant k >= 1, for the division checks' witnesses.
        if let (BinaryOp::SDiv, true, (ZERO, k)) = (op, x.0 != ZERO && x.1 == 0, y) {
            if (1..=i64::MAX as i128).contains(&k) {
                let origin = self.origin(x.0);
                self.t.quotients.push((n, origin, k as i64));
            }
        }
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
