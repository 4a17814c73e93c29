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

use super::extended_blocks::{self, Available};
use crate::analysis::facts::may_alias;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_inst, BinaryOp, Block, CmpOp, Function, Inst, InstKind, Local, Operand, Type,
};

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
    /// The locals the expression reads (at most two).
    fn reads(self) -> [Option<Local>; 2] {
        match self {
            Expr::Unary(_, a, _) | Expr::Cast(_, a, _) => [a.as_local(), None],
            Expr::Binary(_, a, b, _) | Expr::Compare(_, a, b) => [a.as_local(), b.as_local()],
            Expr::Len(v) => [Some(v), None],
        }
    }

    fn mentions(self, l: Local) -> bool {
        self.reads().contains(&Some(l))
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
    /// `expr`'s [`fingerprint`]: a lookup compares it first, one integer instead of the
    /// expression's operands and types.
    key: u64,
    holder: Local,
    inst: Inst,
}

/// A hash of `expr` (equal expressions have equal fingerprints).
fn fingerprint(expr: &Expr) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(expr)
}

/// How many expressions are kept available at once, and how many kills are remembered for
/// remarks. Every definition checks the available expressions it may kill, and a block with one
/// predecessor starts from a copy of that predecessor's state, so without a bound a long block
/// or a long chain of guarded blocks would cost quadratic time; past it the oldest expression
/// is forgotten (sound: forgetting only numbers less).
const MAX_AVAILABLE_EXPRS: usize = 64;

/// A bit standing for `l` in [`State::mentioned`].
fn bit(l: Local) -> u64 {
    1 << (poolopt_ir::EntityRef::index(l) % 64)
}

/// The locals an available expression is held in or reads, as bits.
fn bits_of(a: &Avail) -> u64 {
    a.expr
        .reads()
        .into_iter()
        .flatten()
        .fold(bit(a.holder), |m, l| m | bit(l))
}

#[derive(Clone)]
struct State {
    /// At most [`MAX_AVAILABLE_EXPRS`], oldest first.
    live: Available<Avail>,
    /// The bits of every local a live expression mentions (a superset: a killed expression's
    /// bits stay until the next scan), so a definition of an unmentioned local scans nothing.
    mentioned: u64,
    /// Expressions that were available until the reason given, oldest first, at most
    /// [`MAX_AVAILABLE_EXPRS`] (kept only when remarks are collected: the text is made only for
    /// them).
    killed: Vec<(Expr, String)>,
    explain: bool,
}

impl Default for State {
    fn default() -> State {
        State {
            live: Available::new(MAX_AVAILABLE_EXPRS),
            mentioned: 0,
            killed: Vec::new(),
            explain: false,
        }
    }
}

impl extended_blocks::WalkState for State {
    fn reset(&mut self) {
        self.live.clear();
        self.mentioned = 0;
        self.killed.clear();
        self.explain = false;
    }

    fn assign(&mut self, other: &State) {
        self.live.assign(&other.live);
        self.mentioned = other.mentioned;
        self.killed.clone_from(&other.killed);
        self.explain = other.explain;
    }
}

impl State {
    fn kill(&mut self, why: impl Fn() -> String, dies: impl Fn(&Avail) -> bool) {
        let mut gone: Vec<Expr> = Vec::new();
        let explain = self.explain;
        self.live.remove_where(dies, |a| {
            if explain {
                gone.push(a.expr);
            }
        });
        if let Some(why) = (!gone.is_empty()).then(&why) {
            for expr in gone {
                self.remember_killed(expr, why.clone());
            }
        }
        self.mentioned = self.live.iter().fold(0, |m, a| m | bits_of(a));
    }

    /// Kills what is held in or reads `d`, which is being assigned.
    fn kill_defined(&mut self, d: Local, why: impl Fn() -> String) {
        if self.mentioned & bit(d) != 0 {
            self.kill(why, |a| a.holder == d || a.expr.mentions(d));
        }
    }

    fn remember_killed(&mut self, expr: Expr, why: String) {
        self.killed.retain(|(e, _)| *e != expr);
        if self.killed.len() == MAX_AVAILABLE_EXPRS {
            self.killed.remove(0);
        }
        self.killed.push((expr, why));
    }

    /// Makes `a` available, forgetting the oldest expression past the bound (`why` says which
    /// instruction made it one too many, for remarks).
    fn make_available(&mut self, a: Avail, why: impl Fn() -> String) {
        self.mentioned |= bits_of(&a);
        if let Some(oldest) = self.live.push(a) {
            if self.explain {
                self.remember_killed(oldest.expr, why());
            }
        }
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
    let key = numbered.map_or(0, |(_, expr)| fingerprint(&expr));
    if let Some((dst, expr)) = numbered {
        if let Some(a) = state
            .live
            .iter()
            .find(|a| a.key == key && a.expr == expr)
            .copied()
        {
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
        } else if let Some((_, why)) = state.killed.iter().rev().find(|(e, _)| *e == expr) {
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
            state.kill(
                || format!("`{}` between may change the length", text()),
                |a| matches!(a.expr, Expr::Len(v) if may_alias(func, v, vec)),
            );
        }
        InstKind::Call { ref args, .. } => {
            let receives = |t: Type| {
                args.iter()
                    .filter_map(|a| a.as_local())
                    .any(|l| func.local_ty(l) == t)
            };
            state.kill(
                || format!("`{}` between receives a vec of that type", text()),
                |a| matches!(a.expr, Expr::Len(v) if receives(func.local_ty(v))),
            );
        }
        _ => {}
    }
    if let Some(d) = kind.def() {
        state.kill_defined(d, || {
            format!(
                "`{}` is reassigned between (`{}`)",
                func.local_name(d),
                text()
            )
        });
        // Unless the instruction just became a copy, it is the expression numbered above.
        let own = if changed {
            expr_of(func, kind).map(|(dst, expr)| (dst, expr, fingerprint(&expr)))
        } else {
            numbered.map(|(dst, expr)| (dst, expr, key))
        };
        if let Some((dst, expr, key)) = own {
            // `i = add i, 1` computes from the old `i`: not available afterwards.
            if !expr.mentions(dst) {
                state.make_available(
                    Avail {
                        expr,
                        key,
                        holder: dst,
                        inst,
                    },
                    || {
                        format!(
                            "forgotten when `{}` made more than {MAX_AVAILABLE_EXPRS} \
                             expressions available",
                            text()
                        )
                    },
                );
            }
        }
    }
    changed
}
