//! `value-numbering`: a second computation of the same pure expression becomes a copy of the
//! local that still holds the first, so facts about one attach to the other.
//!
//! Numbered expressions: unary, binary (division and remainder included), compare and cast
//! instructions, and `len v`, keyed by operator, operands (commutative operators and `eq`/`ne`
//! with sorted operands) and destination type. The scan runs over *extended basic blocks*: a
//! block with exactly one predecessor starts with the expressions still available at the end
//! of that predecessor, any other block with none; so every path to a numbered instruction runs
//! through the first computation with only scanned instructions in between. (A full dominator-
//! tree scope would also need every path between a dominator and the use checked for
//! reassignments, since the IR is not SSA; extended blocks need no such check.)
//!
//! An available expression `h = e` dies when
//!
//! - `h` is reassigned (it no longer holds `e`), or an operand of `e` is (the same spelling
//!   now denotes another value);
//! - for `len v`: a `push`, `pop` or `drop` of a handle that may alias `v`, or a call that
//!   receives a handle of `v`'s type (a callee reaches vecs only through its arguments).
//!
//! **Soundness.** At the second computation `d = e`, `h` was assigned `e` on every path
//! (extended block) and neither `h` nor any operand of `e` changed since, nor (for `len`) the
//! length; pure expressions depend on nothing else, so `e` now equals `h`. A division or
//! remainder traps only for a divisor that also made the first one trap, which would not have
//! let execution reach the second: replacing it by a copy hides no trap.

use super::extended_blocks;
use crate::analysis::facts::may_alias;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_inst, BinaryOp, Block, CmpOp, Function, Inst, InstKind, Local, Operand, Type,
};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// The pass.
pub struct ValueNumbering;

/// A pure expression, with its destination type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Expr {
    Unary(poolopt_ir::UnaryOp, Operand, Type),
    Binary(BinaryOp, Operand, Operand, Type),
    Compare(CmpOp, Operand, Operand),
    Cast(poolopt_ir::CastOp, Operand, Type),
    Len(Local),
}

impl Expr {
    fn mentions(self, l: Local) -> bool {
        let o = Operand::Local(l);
        match self {
            Expr::Unary(_, a, _) | Expr::Cast(_, a, _) => a == o,
            Expr::Binary(_, a, b, _) | Expr::Compare(_, a, b) => a == o || b == o,
            Expr::Len(v) => v == l,
        }
    }
}

fn operand_key(o: Operand) -> (u8, i64) {
    match o {
        Operand::Local(l) => (0, poolopt_ir::EntityRef::index(l) as i64),
        Operand::Const(c) => (1, c),
    }
}

fn sorted(a: Operand, b: Operand) -> (Operand, Operand) {
    if operand_key(a) <= operand_key(b) {
        (a, b)
    } else {
        (b, a)
    }
}

/// The expression `kind` computes, if it is numbered.
fn expr_of(func: &Function, kind: &InstKind) -> Option<(Local, Expr)> {
    Some(match *kind {
        InstKind::Unary { dst, op, arg } => (dst, Expr::Unary(op, arg, func.local_ty(dst))),
        InstKind::Binary {
            dst, op, lhs, rhs, ..
        } => {
            let (lhs, rhs) = match op {
                BinaryOp::Add | BinaryOp::Mul | BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                    sorted(lhs, rhs)
                }
                _ => (lhs, rhs),
            };
            (dst, Expr::Binary(op, lhs, rhs, func.local_ty(dst)))
        }
        InstKind::Compare { dst, op, lhs, rhs } => {
            let (lhs, rhs) = match op {
                CmpOp::Eq | CmpOp::Ne => sorted(lhs, rhs),
                _ => (lhs, rhs),
            };
            (dst, Expr::Compare(op, lhs, rhs))
        }
        InstKind::Cast { dst, op, arg } => (dst, Expr::Cast(op, arg, func.local_ty(dst))),
        InstKind::VecLen { dst, vec } => (dst, Expr::Len(vec)),
        _ => return None,
    })
}

#[derive(Clone, Copy)]
struct Avail {
    expr: Expr,
    holder: Local,
    inst: Inst,
}

/// The expressions available at a point of an extended block.
///
/// Indexed so that every step costs what it touches, not the number of available
/// expressions (a long block used to make the pass quadratic): an expression's slots by the
/// expression, by the locals it reads and writes, and the `len` slots apart. Slots are never
/// reused within a state; a dead one is `None`, and index entries that point at dead slots are
/// dropped when next met.
#[derive(Clone, Default)]
struct State {
    slots: Vec<Option<Avail>>,
    /// Live slots of each expression, oldest first (two can be live at once only when the
    /// second computation's destination has another type).
    by_expr: FxHashMap<Expr, SmallVec<[u32; 1]>>,
    /// Slots whose holder or an operand is the local (some may be dead).
    by_local: FxHashMap<Local, SmallVec<[u32; 2]>>,
    /// Slots of `len` expressions (some may be dead).
    lens: Vec<u32>,
    /// Expressions that were available until the reason given (kept only when remarks are
    /// collected: the text is made only for them).
    killed: FxHashMap<Expr, String>,
    explain: bool,
}

impl State {
    /// The oldest available computation of `expr`.
    fn find(&self, expr: Expr) -> Option<Avail> {
        let slots = self.by_expr.get(&expr)?;
        slots.iter().find_map(|&s| self.slots[s as usize])
    }

    fn push(&mut self, a: Avail) {
        let slot = self.slots.len() as u32;
        self.slots.push(Some(a));
        self.by_expr.entry(a.expr).or_default().push(slot);
        let mut index = |l: Local| {
            let list = self.by_local.entry(l).or_default();
            if list.last() != Some(&slot) {
                list.push(slot);
            }
        };
        index(a.holder);
        match a.expr {
            Expr::Unary(_, x, _) | Expr::Cast(_, x, _) => x.as_local().into_iter().for_each(index),
            Expr::Binary(_, x, y, _) | Expr::Compare(_, x, y) => {
                x.as_local().into_iter().for_each(&mut index);
                y.as_local().into_iter().for_each(index);
            }
            Expr::Len(v) => {
                index(v);
                self.lens.push(slot);
            }
        }
    }

    /// Kills slot `slot` if it is live, recording `why` for remarks.
    fn kill_slot(&mut self, slot: u32, why: &mut Option<String>, reason: &dyn Fn() -> String) {
        let Some(a) = self.slots[slot as usize].take() else {
            return;
        };
        if let Some(list) = self.by_expr.get_mut(&a.expr) {
            list.retain(|s| *s != slot);
            if list.is_empty() {
                self.by_expr.remove(&a.expr);
            }
        }
        if self.explain {
            let text = why.get_or_insert_with(reason).clone();
            self.killed.insert(a.expr, text);
        }
    }

    /// Kills every expression held in or reading `local`.
    fn kill_local(&mut self, local: Local, reason: &dyn Fn() -> String) {
        let Some(list) = self.by_local.remove(&local) else {
            return;
        };
        let mut why = None;
        for slot in list {
            self.kill_slot(slot, &mut why, reason);
        }
    }

    /// Kills every `len v` for which `dies(v)` holds.
    fn kill_lens(&mut self, reason: &dyn Fn() -> String, dies: impl Fn(Local) -> bool) {
        let mut why = None;
        let mut lens = std::mem::take(&mut self.lens);
        lens.retain(|&slot| match self.slots[slot as usize] {
            Some(Avail {
                expr: Expr::Len(v), ..
            }) if dies(v) => {
                self.kill_slot(slot, &mut why, reason);
                false
            }
            Some(_) => true,
            None => false,
        });
        self.lens = lens;
    }
}

impl Pass for ValueNumbering {
    fn name(&self) -> &'static str {
        "value-numbering"
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O2
    }

    fn preserves_cfg(&self) -> bool {
        true
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        extended_blocks::walk(
            func,
            cx,
            |state: &mut State, explain| state.explain = explain,
            visit,
        )
    }
}

fn visit(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    block: Block,
    inst: Inst,
    state: &mut State,
) -> bool {
    let mut changed = false;
    let numbered = expr_of(func, func.inst(inst));
    if let Some((dst, expr)) = numbered {
        if let Some(a) = state.find(expr) {
            if a.holder != dst && func.local_ty(a.holder) == func.local_ty(dst) {
                let before = if cx.remarks_enabled() {
                    display_inst(cx.module, func, inst)
                } else {
                    String::new()
                };
                let first_line = func.insts[a.inst].loc.line;
                func.insts[inst].kind = InstKind::Copy {
                    dst,
                    src: Operand::Local(a.holder),
                };
                changed = true;
                cx.stat("expressions_numbered", 1);
                let loc = func.insts[inst].loc;
                let holder = func.local_name(a.holder).to_string();
                cx.applied_with(func, block, loc, || {
                    format!("`{before}` is the value `{holder}` holds since line {first_line}: now a copy")
                });
            }
        } else if let Some(why) = state.killed.get(&expr) {
            let why = why.clone();
            let loc = func.insts[inst].loc;
            cx.missed_with(func, block, loc, || {
                format!(
                    "`{}` not numbered: {why}",
                    display_inst(cx.module, func, inst)
                )
            });
        }
    }
    let kind = func.inst(inst);
    let text = || display_inst(cx.module, func, inst);
    match *kind {
        InstKind::VecPush { vec, .. }
        | InstKind::VecPop { vec, .. }
        | InstKind::VecDrop { vec } => {
            state.kill_lens(
                &|| format!("`{}` between may change the length", text()),
                |v| may_alias(func, v, vec),
            );
        }
        InstKind::Call { ref args, .. } => {
            let receives = |t: Type| {
                args.iter()
                    .filter_map(|a| a.as_local())
                    .any(|l| func.local_ty(l) == t)
            };
            state.kill_lens(
                &|| format!("`{}` between receives a vec of that type", text()),
                |v| receives(func.local_ty(v)),
            );
        }
        _ => {}
    }
    if let Some(d) = kind.def() {
        state.kill_local(d, &|| {
            format!(
                "`{}` is reassigned between (`{}`)",
                func.local_name(d),
                text()
            )
        });
        if let Some((dst, expr)) = expr_of(func, kind) {
            // `i = add i, 1` computes from the old `i`: not available afterwards.
            if !expr.mentions(dst) {
                state.push(Avail {
                    expr,
                    holder: dst,
                    inst,
                });
            }
        }
    }
    changed
}
