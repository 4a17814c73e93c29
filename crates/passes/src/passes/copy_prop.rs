//! `copy-prop`: block-local copy propagation of scalar copies.
//!
//! Within a block, after `d = copy x` (with `d` of a scalar type and `x` a local or a constant),
//! later reads of `d` read `x` instead, until `d` or `x` is redefined (a `setfield` counts as a
//! redefinition of its struct, but struct locals are never propagated). The copy itself stays;
//! `dead-local-elim` removes it once nothing reads `d` any more. Struct copies are left to
//! `temp-elision`, which removes the copy instead of multiplying reads of a big value.
//!
//! Soundness: between `d = copy x` and the next redefinition of `d` or of `x`, both locals hold
//! the same value on every execution (the IR has no way to write a local other than through an
//! instruction that names it as its destination; callees cannot see the caller's locals), so a
//! read of `d` there can read `x` without changing any result. Only operands are renamed:
//! no instruction moves, appears or disappears, so traps and memory effects are untouched.
//! Constants are substituted only where the verifier accepts one (never as a cast operand,
//! never as both operands of a compare), with the type the position already demanded of `d`.

use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_operand, Block, Function, InstKind, Loc, Local, Operand, Terminator, Type,
};
use rustc_hash::FxHashMap as HashMap;

/// The copy propagation pass.
pub struct CopyProp;

/// Renames the readable operands of `kind` through `map` (a local to its replacement, or
/// `None` to keep it), substituting constants only where a constant is accepted. Returns the
/// number of operands replaced.
pub(crate) fn substitute_inst(
    kind: &mut InstKind,
    map: &mut dyn FnMut(Local) -> Option<Operand>,
) -> usize {
    let mut count = 0;
    let mut subst = |op: &mut Operand, allow_const: bool| {
        if let Operand::Local(l) = *op {
            if let Some(new) = map(l) {
                if new != *op && (allow_const || new.as_local().is_some()) {
                    *op = new;
                    count += 1;
                }
            }
        }
    };
    match kind {
        // A cast's operand must be a local (its type is the cast's source type).
        InstKind::Cast { arg, .. } => subst(arg, false),
        // A compare needs at least one local operand to type its constants.
        InstKind::Compare { lhs, rhs, .. } => {
            let (old_l, old_r) = (*lhs, *rhs);
            subst(lhs, true);
            subst(rhs, true);
            if lhs.as_const().is_some() && rhs.as_const().is_some() {
                if *rhs != old_r {
                    *rhs = old_r;
                    count -= 1;
                } else if *lhs != old_l {
                    *lhs = old_l;
                    count -= 1;
                }
            }
        }
        other => other.for_each_use_mut(|op| {
            // Struct and vec positions only ever hold locals; a constant replacement can only
            // come from a scalar local, whose positions all accept constants.
            subst(op, true)
        }),
    }
    count
}

/// Renames the operand a terminator reads, as [`substitute_inst`]. Returns the number of
/// operands replaced (0 or 1).
pub(crate) fn substitute_term(
    term: &mut Terminator,
    map: &mut dyn FnMut(Local) -> Option<Operand>,
) -> usize {
    if let Some(op) = term.used_operand_mut() {
        if let Operand::Local(l) = *op {
            if let Some(new) = map(l) {
                if new != *op {
                    *op = new;
                    return 1;
                }
            }
        }
    }
    0
}

/// The pass's tables, kept from one function to the next (`crate::scratch`): made afresh for
/// each function, they were its only allocations.
#[derive(Default)]
struct Scratch {
    /// The copies active at the current point of a block.
    active: HashMap<Local, Active>,
    /// Reverse index: `(x, d)` for the copies `d = copy x` made active, in order (some may
    /// have ended since).
    readers: Vec<(Local, Local)>,
    /// The copies of a block that ended, for its remarks.
    finished: Vec<(Local, Active)>,
    /// The operands of a rewritten instruction before and after (remarks only).
    olds: Vec<Operand>,
    news: Vec<Operand>,
}

/// One active copy `d = copy x`: where it is and how many reads it rewrote.
#[derive(Clone, Copy)]
struct Active {
    src: Operand,
    loc: Loc,
    uses: u64,
}

impl Pass for CopyProp {
    fn name(&self) -> &'static str {
        "copy-prop"
    }

    fn preserves_cfg(&self) -> bool {
        true
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O2
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        let mut changed = false;
        // Reused across blocks (cleared at each block's start) and functions; taken at the
        // first block with a copy (a function without one takes nothing).
        let mut scratch: Option<Scratch> = None;
        // How many reads each copy rewrote is told only in remarks: not counted without them.
        let count_uses = cx.remarks_enabled();
        for at_block in 0..func.layout.len() {
            let block = func.layout[at_block];
            // Without a `copy` nothing becomes active: nothing to substitute or report.
            if !has_copy(func, block) {
                continue;
            }
            let Scratch {
                active,
                readers,
                finished,
                olds,
                news,
            } = scratch.get_or_insert_with(|| cx.take_scratch());
            active.clear();
            readers.clear();
            finished.clear();
            for at in 0..func.blocks[block].insts.len() {
                let inst = func.blocks[block].insts[at];
                let mut reads_active = false;
                if !active.is_empty() {
                    func.insts[inst].kind.for_each_use(|op| {
                        reads_active |= op.as_local().is_some_and(|l| active.contains_key(&l));
                    });
                }
                if !reads_active {
                    let kind = &func.insts[inst].kind;
                    if let Some(def) = kind.def() {
                        kill(def, active, readers, finished);
                    }
                    record_copy(func, inst, active, readers);
                    continue;
                }
                let mut kind = func.insts[inst].kind.clone();
                let n = substitute_inst(&mut kind, &mut |l| active.get(&l).map(|a| a.src));
                if n > 0 {
                    if count_uses {
                        count_replaced(&func.insts[inst].kind, &kind, active, (olds, news));
                    }
                    func.insts[inst].kind = kind;
                    changed = true;
                    cx.stat("copies_propagated", n as u64);
                }
                let kind = &func.insts[inst].kind;
                if let Some(def) = kind.def() {
                    kill(def, active, readers, finished);
                }
                record_copy(func, inst, active, readers);
            }
            if let Some(mut term) = func.blocks[block].terminator.take() {
                let old = term.used_operand();
                let n = substitute_term(&mut term, &mut |l| active.get(&l).map(|a| a.src));
                if n > 0 {
                    if let Some(a) = old
                        .and_then(|o| o.as_local())
                        .and_then(|l| active.get_mut(&l))
                    {
                        a.uses += 1;
                    }
                    changed = true;
                    cx.stat("copies_propagated", n as u64);
                }
                func.blocks[block].terminator = Some(term);
            }
            finished.extend(active.drain());
            if !cx.remarks_enabled() {
                continue;
            }
            finished.sort_by_key(|(_, a)| a.loc);
            for &(d, a) in finished.iter() {
                if a.uses > 0 {
                    let msg = || {
                        format!(
                            "copy `{} = copy {}` propagated: {} later read{} of `{}` now read `{}`",
                            func.locals[d].name,
                            display_operand(func, a.src),
                            a.uses,
                            if a.uses == 1 { "" } else { "s" },
                            func.locals[d].name,
                            display_operand(func, a.src),
                        )
                    };
                    cx.applied_with(func, block, a.loc, msg);
                }
            }
        }
        if let Some(scratch) = scratch {
            cx.give_scratch(scratch);
        }
        changed
    }
}

/// Whether some instruction of `block` is a `copy` (what copy propagation and both forms of
/// temporary elision start from).
pub(super) fn has_copy(func: &Function, block: Block) -> bool {
    func.blocks[block]
        .insts
        .iter()
        .any(|&inst| matches!(func.insts[inst].kind, InstKind::Copy { .. }))
}

/// Makes `d = copy src` (a scalar copy, not of itself) active.
fn record_copy(
    func: &Function,
    inst: poolopt_ir::Inst,
    active: &mut HashMap<Local, Active>,
    readers: &mut Vec<(Local, Local)>,
) {
    if let InstKind::Copy { dst, src } = func.insts[inst].kind {
        let scalar = matches!(func.locals[dst].ty, Type::Scalar(_));
        if scalar && src != Operand::Local(dst) {
            let loc = func.insts[inst].loc;
            active.insert(dst, Active { src, loc, uses: 0 });
            if let Operand::Local(x) = src {
                readers.push((x, dst));
            }
        }
    }
}

/// Credits each replaced operand of `old` (now different in `new`) to its active copy
/// (`olds` and `news` are work space). The operands are read in place: both instructions are
/// walked the same way, so position `k` of one is position `k` of the other (a `setfield`'s
/// struct, read first, is never substituted).
fn count_replaced(
    old: &InstKind,
    new: &InstKind,
    active: &mut HashMap<Local, Active>,
    (olds, news): (&mut Vec<Operand>, &mut Vec<Operand>),
) {
    olds.clear();
    old.for_each_use(|op| olds.push(op));
    news.clear();
    new.for_each_use(|op| news.push(op));
    for (o, n) in olds.iter().zip(news.iter()) {
        if let (Operand::Local(l), true) = (*o, o != n) {
            if let Some(a) = active.get_mut(&l) {
                a.uses += 1;
            }
        }
    }
}

/// Ends every copy invalidated by a write to `def`: the copy into `def`, and copies out of it.
fn kill(
    def: Local,
    active: &mut HashMap<Local, Active>,
    readers: &mut Vec<(Local, Local)>,
    finished: &mut Vec<(Local, Active)>,
) {
    if let Some(a) = active.remove(&def) {
        finished.push((def, a));
    }
    if !readers.iter().any(|&(x, _)| x == def) {
        return;
    }
    // The copies out of `def`, in the order they were made active; their entries go.
    readers.retain(|&(x, d)| {
        if x != def {
            return true;
        }
        // `d` may have been redefined (and possibly re-copied from elsewhere) since.
        if active.get(&d).is_some_and(|a| a.src == Operand::Local(def)) {
            if let Some(a) = active.remove(&d) {
                finished.push((d, a));
            }
        }
        false
    });
}
