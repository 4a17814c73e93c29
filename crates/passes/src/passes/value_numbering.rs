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
//! Before the walk, one scan finds the numbered instructions whose expression another numbered
//! instruction of the same extended block computes too (`Numbered`): only they are looked up
//! and made available, and the walk visits only their blocks and the blocks those start from.
//! A lookup can only find such an expression, so leaving the others out changes nothing but the
//! work (while no extended block holds more than `MAX_AVAILABLE_EXPRS` numbered instructions
//! along one path; past that every one is kept, since what the bound forgets depends on all).
//! In a visited block, an instruction that is not kept and can kill no available expression
//! (it assigns no local one mentions, or none is available) is passed over after that test.
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
use crate::analysis::cfg::Cfg;
use crate::analysis::facts::may_alias;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_inst, BinaryOp, Block, CmpOp, EntityRef, Function, Inst, InstKind, Local, Operand, Type,
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

/// Whether the binary operator's operands commute (its expression has them [`sorted`]).
fn commutes(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Add | BinaryOp::Mul | BinaryOp::And | BinaryOp::Or | BinaryOp::Xor
    )
}

/// Whether the comparison's operands commute (its expression has them [`sorted`]).
fn compare_commutes(op: CmpOp) -> bool {
    matches!(op, CmpOp::Eq | CmpOp::Ne)
}

/// The expression `kind` computes, if it is numbered.
fn expr_of(func: &Function, kind: &InstKind) -> Option<(Local, Expr)> {
    Some(match *kind {
        InstKind::Unary { dst, op, arg } => (dst, Expr::Unary(op, arg, func.local_ty(dst))),
        InstKind::Binary {
            dst, op, lhs, rhs, ..
        } => {
            let (lhs, rhs) = if commutes(op) {
                sorted(lhs, rhs)
            } else {
                (lhs, rhs)
            };
            (dst, Expr::Binary(op, lhs, rhs, func.local_ty(dst)))
        }
        InstKind::Compare { dst, op, lhs, rhs } => {
            let (lhs, rhs) = if compare_commutes(op) {
                sorted(lhs, rhs)
            } else {
                (lhs, rhs)
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
    /// The instruction's [`key_of`]: a lookup compares it first, one integer instead of the
    /// expression's operands and types.
    key: u64,
    holder: Local,
    inst: Inst,
}

/// A fingerprint of the expression `kind` computes, if it is numbered ([`expr_of`]): equal
/// expressions have equal fingerprints. It is read off the instruction, without making the
/// expression (the scan before the walk takes one of every numbered instruction, and makes the
/// expressions of the few kept ones only): the destination type is left out, and the operands
/// of a commutative operator are ordered by their words here (any one order makes equal
/// operand pairs equal). Expressions that differ only there, or whose fingerprints collide,
/// are told apart when compared.
fn key_of(kind: &InstKind) -> Option<u64> {
    // FxHash's multiplier: odd, and a product's top bits (the bucket of `Numbered::buckets`)
    // depend on every bit below them.
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let word = |o: Operand| match o {
        Operand::Local(l) => ((poolopt_ir::EntityRef::index(l) as u64) << 1) | 1,
        Operand::Const(c) => (c as u64) << 1,
    };
    let ordered = |a: Operand, b: Operand, commutes: bool| {
        let (a, b) = (word(a), word(b));
        if commutes && b < a {
            (b, a)
        } else {
            (a, b)
        }
    };
    let (op, (a, b)) = match *kind {
        InstKind::Unary { op, arg, .. } => (op as u64, (word(arg), 0)),
        InstKind::Binary { op, lhs, rhs, .. } => {
            (0x100 | op as u64, ordered(lhs, rhs, commutes(op)))
        }
        InstKind::Compare { op, lhs, rhs, .. } => {
            (0x200 | op as u64, ordered(lhs, rhs, compare_commutes(op)))
        }
        InstKind::Cast { op, arg, .. } => (0x300 | op as u64, (word(arg), 0)),
        InstKind::VecLen { vec, .. } => (0x400, (word(Operand::Local(vec)), 0)),
        _ => return None,
    };
    let h = (op.wrapping_mul(K) ^ a).wrapping_mul(K);
    Some((h.rotate_left(26) ^ b).wrapping_mul(K))
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
        if !self.explain {
            // No remark asks what died.
            self.live.retain(|a| !dies(a));
        } else {
            let mut gone: Vec<Expr> = Vec::new();
            self.live.remove_where(dies, |a| gone.push(a.expr));
            if let Some(why) = (!gone.is_empty()).then(&why) {
                for expr in gone {
                    self.remember_killed(expr, why.clone());
                }
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
        let mut numbered: Numbered = cx.take_scratch();
        let changed = numbered.find_repeats(func, cx.cfg(func))
            && extended_blocks::walk_in(
                func,
                cx,
                &numbered.order,
                |state: &mut State, explain| state.explain = explain,
                |func, cx, block, inst, state| visit(func, cx, block, inst, state, &numbered),
            );
        cx.give_scratch(numbered);
        changed
    }
}

/// No entry in [`Numbered::slot`], no block in [`Ebb::parent`].
const NONE: u32 = u32::MAX;

/// The numbered instructions of a function whose expression another instruction of the same
/// extended block computes too, found before the walk, and the blocks the walk needs. The scan
/// takes every numbered instruction's fingerprint ([`key_of`]); only the kept ones get their
/// expression made.
///
/// Only those instructions can be numbered: a lookup finds an available expression equal to
/// its own, made available earlier in the same extended block by another instruction. So only
/// they are looked up and made available (their expression computed once, here), as long as no
/// extended block holds more than [`MAX_AVAILABLE_EXPRS`] numbered instructions from its first
/// block to any of its blocks: then no state, and no list of killed expressions, reaches its
/// bound, and leaving the others out changes nothing but the work. Otherwise every numbered
/// instruction is kept (what the bound forgets depends on all of them).
///
/// The walk visits only the blocks that hold a kept instruction or start some block that does
/// (a block's state reaches only the blocks that start from it): what the visits of the other
/// blocks would make available or kill, no kept instruction would ever look up.
struct Numbered {
    /// Per instruction of the arena: its entry in `kept` when it is kept, or [`NONE`].
    slot: Vec<u32>,
    /// Every numbered instruction.
    found: Vec<Found>,
    /// The kept instructions' destinations, expressions and fingerprints.
    kept: Vec<(Local, Expr, u64)>,
    /// An open-addressing table over the keys ([`Found::group`]) of `found`, to find repeats:
    /// per bucket, the first entry with that key plus one, or 0 (empty).
    buckets: Vec<u32>,
    /// Per block.
    ebbs: Vec<Ebb>,
    /// The wanted blocks in reverse post-order, each with the position here of the block it
    /// starts from (its parent, wanted too), or [`extended_blocks::NO_BLOCK`]: the walk's
    /// order ([`extended_blocks::walk_in`]).
    order: Vec<(Block, u32)>,
}

/// A numbered instruction.
#[derive(Clone, Copy)]
struct Found {
    inst: Inst,
    block: Block,
    /// Its [`key_of`].
    key: u64,
    /// `key` mixed with the first block of the instruction's extended block: equal for equal
    /// expressions in one extended block.
    group: u64,
}

/// A block's place in its extended block.
#[derive(Clone, Copy, Default)]
struct Ebb {
    /// The block it starts from ([`extended_blocks::walk`]): its only predecessor, or [`NONE`].
    parent: u32,
    /// The first block of its extended block.
    first: u32,
    /// The numbered instructions from `first` to the end of the block.
    along: u32,
    /// Whether the walk visits it.
    wanted: bool,
    /// Its position in [`Numbered::order`], when wanted.
    at: u32,
}

/// The room the tables start with: enough for an ordinary function, rather than growing step
/// by step (a reallocation each) over the first few.
const MIN_ROOM: usize = 64;

impl Default for Numbered {
    fn default() -> Numbered {
        Numbered {
            slot: Vec::with_capacity(4 * MIN_ROOM),
            found: Vec::with_capacity(MIN_ROOM),
            kept: Vec::with_capacity(MIN_ROOM),
            buckets: Vec::with_capacity(2 * MIN_ROOM),
            ebbs: Vec::with_capacity(MIN_ROOM),
            order: Vec::with_capacity(MIN_ROOM),
        }
    }
}

impl Numbered {
    /// Finds the kept instructions and the wanted blocks among the blocks the walk visits.
    /// Returns whether any instruction is kept.
    fn find_repeats(&mut self, func: &Function, cfg: &Cfg) -> bool {
        if self.collect(func, cfg) > MAX_AVAILABLE_EXPRS {
            self.keep_all(func);
        } else {
            self.keep_repeats(func);
        }
        // A wanted block's parent is wanted: backwards, reverse post-order meets a block
        // before its parent.
        for &block in cfg.rpo().iter().rev() {
            let ebb = self.ebbs[block.index()];
            if ebb.wanted {
                if let Some(parent) = self.ebbs.get_mut(ebb.parent as usize) {
                    parent.wanted = true;
                }
            }
        }
        self.order.clear();
        for &block in cfg.rpo() {
            let ebb = self.ebbs[block.index()];
            if ebb.wanted {
                let from = self.ebbs.get(ebb.parent as usize);
                let from = from.map_or(extended_blocks::NO_BLOCK, |parent| parent.at);
                self.ebbs[block.index()].at = self.order.len() as u32;
                self.order.push((block, from));
            }
        }
        !self.order.is_empty()
    }

    /// Fills `found` and `ebbs` (nothing kept, no block wanted yet) from the blocks of `cfg`'s
    /// reverse post-order. Returns the most numbered instructions from the first block of an
    /// extended block to the end of one of its blocks.
    fn collect(&mut self, func: &Function, cfg: &Cfg) -> usize {
        self.slot.clear();
        self.slot.resize(func.insts.len(), NONE);
        self.found.clear();
        self.kept.clear();
        self.ebbs.clear();
        self.ebbs.resize(func.blocks.len(), Ebb::default());
        let mut longest = 0;
        for &block in cfg.rpo() {
            let before = self.found.len();
            let ebb = match cfg.only_pred(block) {
                Some(p) => Ebb {
                    parent: p.index() as u32,
                    ..self.ebbs[p.index()]
                },
                None => Ebb {
                    parent: NONE,
                    first: block.index() as u32,
                    ..Ebb::default()
                },
            };
            let salt = u64::from(ebb.first).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            for &inst in &func.blocks[block].insts {
                if let Some(key) = key_of(func.inst(inst)) {
                    self.found.push(Found {
                        inst,
                        block,
                        key,
                        group: key ^ salt,
                    });
                }
            }
            let along = ebb.along + (self.found.len() - before) as u32;
            longest = longest.max(along);
            self.ebbs[block.index()] = Ebb { along, ..ebb };
        }
        longest as usize
    }

    /// Keeps every instruction of `found`, and wants their blocks.
    fn keep_all(&mut self, func: &Function) {
        for at in 0..self.found.len() {
            self.keep(func, at);
        }
    }

    /// Keeps `found[at]` (once), making its expression, and wants its block.
    fn keep(&mut self, func: &Function, at: usize) {
        let found = self.found[at];
        let slot = &mut self.slot[found.inst.index()];
        if *slot != NONE {
            return;
        }
        // A numbered instruction has an expression.
        if let Some((dst, expr)) = expr_of(func, func.inst(found.inst)) {
            *slot = self.kept.len() as u32;
            self.kept.push((dst, expr, found.key));
            self.ebbs[found.block.index()].wanted = true;
        }
    }

    /// Keeps the instructions of `found` that share their group with another (by an
    /// open-addressing table over the groups), and wants their blocks.
    fn keep_repeats(&mut self, func: &Function) {
        // At least twice as many buckets as entries; a bucket is chosen by the top bits.
        let bits = (2 * self.found.len())
            .next_power_of_two()
            .trailing_zeros()
            .max(1);
        let mask = (1usize << bits) - 1;
        self.buckets.clear();
        self.buckets.resize(1 << bits, 0);
        for at in 0..self.found.len() {
            let group = self.found[at].group;
            let mut bucket = (group >> (64 - bits)) as usize;
            loop {
                match self.buckets[bucket] {
                    0 => {
                        self.buckets[bucket] = at as u32 + 1;
                        break;
                    }
                    first => {
                        let first = first as usize - 1;
                        if self.found[first].group == group {
                            self.keep(func, first);
                            self.keep(func, at);
                            break;
                        }
                        bucket = (bucket + 1) & mask;
                    }
                }
            }
        }
    }

    /// The destination, expression and fingerprint of `inst`, if it is kept.
    fn get(&self, inst: Inst) -> Option<(Local, Expr, u64)> {
        let at = *self.slot.get(inst.index())?;
        self.kept.get(at as usize).copied()
    }
}

/// Visits `inst`: numbers it when it is kept and its expression is available, and updates
/// what is available after it.
fn visit(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    block: Block,
    inst: Inst,
    state: &mut State,
    numbered: &Numbered,
) -> bool {
    let numbered = numbered.get(inst);
    if numbered.is_none() && !may_kill(func.inst(inst), state) {
        return false;
    }
    visit_effective(func, cx, block, inst, state, numbered)
}

/// Whether `kind`, an instruction that is not kept (so never looked up nor made available),
/// may kill an available expression of `state`. Otherwise its visit changes nothing: most
/// instructions of a visited block are such, and they skip the rest of the visit. (A kill that
/// removes nothing only recomputes [`State::mentioned`], a filter that may stay larger.)
fn may_kill(kind: &InstKind, state: &State) -> bool {
    if state.live.is_empty() {
        return false;
    }
    match kind {
        InstKind::VecPush { .. }
        | InstKind::VecPop { .. }
        | InstKind::VecDrop { .. }
        | InstKind::Call { .. } => true,
        _ => kind.def().is_some_and(|d| state.mentioned & bit(d) != 0),
    }
}

/// [`visit`] of an instruction that is kept or may kill something (`numbered`: its
/// destination, expression and fingerprint when kept).
#[inline(never)]
fn visit_effective(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    block: Block,
    inst: Inst,
    state: &mut State,
    numbered: Option<(Local, Expr, u64)>,
) -> bool {
    let mut changed = false;
    if let Some((dst, expr, key)) = numbered {
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
        let own = if changed { None } else { numbered };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Remark, Stats};
    use poolopt_ir::{print_function, Module};

    /// Value numbering of a copy of `func`, with the shortcuts (`full` false) or as the full
    /// walk (every numbered instruction kept, every block visited, every instruction visited
    /// in full, without [`may_kill`]): whether it changed the function, the function printed,
    /// the remarks and the counters.
    fn number(module: &Module, func: &Function, full: bool) -> (bool, String, Vec<Remark>, Stats) {
        number_with(module, func, full, true)
    }

    /// [`number`], collecting remarks or not (`explain`).
    fn number_with(
        module: &Module,
        func: &Function,
        full: bool,
        explain: bool,
    ) -> (bool, String, Vec<Remark>, Stats) {
        let mut func = func.clone();
        let (mut remarks, mut stats) = (Vec::new(), Stats::default());
        let mut cx = PassContext::new(module, &func.name, &mut remarks, &mut stats);
        cx.set_remarks_enabled(explain);
        cx.set_pass("value-numbering");
        let changed = if full {
            let mut numbered = Numbered::default();
            numbered.collect(&func, cx.cfg(&func));
            numbered.keep_all(&func);
            extended_blocks::walk(
                &mut func,
                &mut cx,
                |state: &mut State, explain| state.explain = explain,
                |func, cx, block, inst, state| {
                    let kept = numbered.get(inst);
                    visit_effective(func, cx, block, inst, state, kept)
                },
            )
        } else {
            ValueNumbering.run(&mut func, &mut cx)
        };
        (changed, print_function(module, &func), remarks, stats)
    }

    /// `func` after the passes the pipeline runs before value numbering (but `inline`), as
    /// the pass manager runs them.
    fn prepared(module: &Module, func: &Function) -> Function {
        let mut func = func.clone();
        let (mut remarks, mut stats) = (Vec::new(), Stats::default());
        let mut cx = PassContext::new(module, &func.name, &mut remarks, &mut stats);
        let before = [
            "temp-elision",
            "global-copy-prop",
            "copy-prop",
            "branch-threading",
            "store-load-forward",
        ];
        for name in before {
            let pass = crate::pass_by_name(name).unwrap();
            cx.set_pass(pass.name());
            if pass.run(&mut func, &mut cx) {
                if pass.preserves_cfg() {
                    cx.invalidate_dataflow();
                } else {
                    cx.invalidate();
                }
            }
        }
        func
    }

    /// On every function of the repository's programs, as parsed and as the pipeline hands it
    /// to value numbering, the shortcut numbers, reports and counts what the full walk does.
    #[test]
    fn the_shortcut_numbers_what_the_full_walk_numbers() {
        let (mut checked, mut changed) = (0, 0);
        for (path, module) in crate::test_programs::modules_with_paths() {
            for func in module.funcs.values() {
                for func in [func.clone(), prepared(&module, func)] {
                    let quick = number(&module, &func, false);
                    let full = number(&module, &func, true);
                    assert_eq!(quick, full, "{} {}", path.display(), func.name);
                    // Without remarks, kills take another way (`State::kill`).
                    let quiet = number_with(&module, &func, false, false);
                    assert_eq!(
                        (&quiet.0, &quiet.1, &quiet.3),
                        (&quick.0, &quick.1, &quick.3),
                        "{} {}",
                        path.display(),
                        func.name
                    );
                    checked += 1;
                    changed += usize::from(quick.0);
                }
            }
        }
        assert!(checked > 400 && changed > 10, "{checked} {changed}");
    }

    /// On every instruction of the repository's programs, [`key_of`] fingerprints exactly the
    /// numbered ones, equal expressions alike; and expressions that differ by more than the
    /// destination type (which it leaves out) differently: none collides with another.
    #[test]
    fn fingerprints_tell_the_expressions_apart() {
        let without_type = |expr: Expr| match expr {
            Expr::Unary(op, a, _) => Expr::Unary(op, a, Type::I64),
            Expr::Binary(op, a, b, _) => Expr::Binary(op, a, b, Type::I64),
            Expr::Cast(op, a, _) => Expr::Cast(op, a, Type::I64),
            other => other,
        };
        let mut numbered = 0;
        for module in crate::test_programs::modules() {
            for func in module.funcs.values() {
                let mut by_key = std::collections::HashMap::new();
                let mut by_expr = std::collections::HashMap::new();
                for data in func.insts.values() {
                    let key = key_of(&data.kind);
                    let expr = expr_of(func, &data.kind);
                    assert_eq!(key.is_some(), expr.is_some(), "{}", func.name);
                    let (Some(key), Some((_, expr))) = (key, expr) else {
                        continue;
                    };
                    numbered += 1;
                    assert_eq!(*by_expr.entry(expr).or_insert(key), key, "{}", func.name);
                    let first = *by_key.entry(key).or_insert(without_type(expr));
                    assert_eq!(first, without_type(expr), "{}: {key:x}", func.name);
                }
            }
        }
        assert!(numbered > 1000, "{numbered} numbered instructions");
    }

    /// The names of the destinations of `func`'s kept instructions, and of its wanted blocks.
    fn kept_and_wanted(src: &str) -> (Vec<String>, Vec<String>, bool) {
        let module = poolopt_ir::parse(src).unwrap();
        let func = module.funcs.values().next().unwrap();
        let cfg = Cfg::compute(func);
        let mut numbered = Numbered::default();
        let any = numbered.find_repeats(func, &cfg);
        let mut kept = Vec::new();
        for &block in &func.layout {
            for &inst in &func.blocks[block].insts {
                if let Some((dst, ..)) = numbered.get(inst) {
                    kept.push(func.local_name(dst).to_string());
                }
            }
        }
        // Each wanted block with the position of the block it starts from.
        let wanted = numbered.order.iter();
        let wanted = wanted.map(|&(b, from)| format!("{}<-{}", func.blocks[b].name, from as i32));
        let wanted = wanted.collect();
        (kept, wanted, any)
    }

    #[test]
    fn kept_are_the_expressions_repeated_in_one_extended_block() {
        let src = "
fn f(a: i64, b: i64, c: bool) -> i64 {
    var x: i64
    var y: i64
    var z: i64
    var w: i64
    var u: i64
    var v: i64
entry:
    x = add a, b
    y = mul a, b
    brif c, left, right
left:
    z = add b, a
    w = sub a, b
    br join
right:
    u = sub a, b
    br join
join:
    v = mul a, b
    ret v
}
";
        // `y` and `v` compute the same in two extended blocks (`join` has two ways in): no
        // lookup can find one from the other. `w` and `u` lie on two paths of one extended
        // block: kept (the walk finds nothing, as the full walk would).
        let (kept, wanted, any) = kept_and_wanted(src);
        assert_eq!(kept, ["x", "z", "w", "u"]);
        assert_eq!(wanted, ["entry<--1", "right<-0", "left<-0"]);
        assert!(any);
        // Nothing repeated within an extended block: no walk.
        let src = src.replace("z = add b, a", "z = add b, 1");
        let src = src.replace("u = sub a, b", "u = sub b, a");
        let (kept, wanted, any) = kept_and_wanted(&src);
        assert!(kept.is_empty() && wanted.is_empty() && !any);
    }

    #[test]
    fn an_extended_block_past_the_bound_keeps_every_numbered_instruction() {
        let lines = |n: usize| {
            let vars: String = (0..n).map(|k| format!("    var t{k}: i64\n")).collect();
            let insts: String = (0..n).map(|k| format!("    t{k} = add a, {k}\n")).collect();
            format!(
                "fn f(a: i64) -> i64 {{\n{vars}    var r: i64\nentry:\n{insts}    r = add a, 0\n    ret r\n}}\n"
            )
        };
        // 64 numbered instructions and the repeat: within the bound.
        let (kept, ..) = kept_and_wanted(&lines(MAX_AVAILABLE_EXPRS - 1));
        assert_eq!(kept, ["t0", "r"]);
        let (kept, wanted, any) = kept_and_wanted(&lines(MAX_AVAILABLE_EXPRS));
        assert_eq!(kept.len(), MAX_AVAILABLE_EXPRS + 1);
        assert_eq!((wanted, any), (vec!["entry<--1".to_string()], true));
        // The same split over two blocks of one extended block: counted along the path.
        let split = lines(MAX_AVAILABLE_EXPRS).replacen(
            "    t32 = add a, 32\n",
            "    br next\nnext:\n    t32 = add a, 32\n",
            1,
        );
        let (kept, ..) = kept_and_wanted(&split);
        assert_eq!(kept.len(), MAX_AVAILABLE_EXPRS + 1, "{split}");
    }
}
