//! `dead-local-elim`: removes instructions whose only effect is to write a local nobody reads,
//! then the declarations of locals no instruction mentions any more.
//!
//! 1. A *removable* instruction ([`InstKind::is_removable_when_dead`]: a pure one — no trap,
//!    no memory access, no effect besides its destination — or an unchecked `get`, which only
//!    reads memory) whose destination is not live right after it is deleted. Liveness here
//!    is *strong* liveness ([`Liveness::compute_strong`]): a pure instruction with a dead
//!    destination does not make its operands live, so one sweep removes chains of dead
//!    instructions (deleting one kills its operands) and dead cycles (`acc = add acc, i` in a
//!    loop with `acc` read nowhere else) without recomputing anything.
//!    A `pop` or `call` whose result is dead keeps running but stops writing the local
//!    (`t = pop v` becomes `pop v`): the trap and the memory effect stay, only the dead write
//!    goes. Everything else that may trap or touch memory (a checked `get`, a division, `new`)
//!    stays, with a missed remark saying why.
//! 2. Locals that no placed instruction or terminator mentions are removed from the function,
//!    parameters never. A `PrimaryMap` cannot delete an entry, so the pass turns the locals
//!    map into a vector, keeps the survivors in their original order (in place) and renumbers
//!    every reference (placed instructions, terminators, parameters). The instruction arena is
//!    compacted at the same time, in place, into placement order (instructions no block holds
//!    any more are dropped), so no stale instruction can refer to a removed local. Cached
//!    analyses keyed by locals are invalidated.
//!
//! Soundness: a removable instruction computes a value (reading an element whose index a pass
//! proved in range, for `get.unchecked`) and writes one local; if that local is not
//! strongly live after it, every read of the value on every path is by a pure instruction whose
//! own result is never read (or by another such instruction, transitively), so no execution
//! observes it, and since the instruction cannot trap, deleting
//! it changes neither results nor traps. Dropping the destination of a `pop`/`call` removes only
//! a write nobody reads. Removing an unmentioned local, and renaming locals consistently,
//! changes no execution.

use crate::analysis::liveness::{LiveWalk, StrongScratch};
use crate::analysis::Liveness;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_inst_kind, Block, EntityRef, Function, Inst, InstData, InstKind, Local, LocalData,
    Operand,
};

/// The dead code and dead local elimination pass.
pub struct DeadLocalElim;

impl Pass for DeadLocalElim {
    fn name(&self) -> &'static str {
        "dead-local-elim"
    }

    fn preserves_cfg(&self) -> bool {
        true
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O1
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        // One sweep under strong liveness removes everything repeated sweeps under plain
        // liveness would (and dead cycles besides).
        // Boxed: the work space is large, and the store hands it over by value.
        let mut scratch: Box<Scratch> = cx.take_scratch();
        let strong = Liveness::compute_strong_in(func, cx.cfg(func), &mut scratch.sweep.strong);
        let mut changed = sweep(func, cx, &strong, false, &mut scratch.sweep);
        scratch.sweep.strong.recycle(strong);
        if changed {
            // Only instructions went: the CFG stays valid, liveness does not.
            cx.invalidate_dataflow();
        }
        if cx.remarks_enabled() {
            // A last sweep under plain liveness that changes nothing and reports what stays,
            // and why.
            let live = cx.liveness(func).clone();
            sweep(func, cx, &live, true, &mut scratch.sweep);
        }
        if remove_unused_locals(func, cx, &mut scratch.renumber) {
            changed = true;
            // Locals were renumbered: every analysis keyed by locals goes; the CFG stays.
            cx.invalidate_dataflow();
        }
        cx.give_scratch(scratch);
        changed
    }
}

/// Why an instruction with a dead destination must stay.
fn kept_reason(kind: &InstKind) -> &'static str {
    match kind {
        InstKind::VecGet { .. } => "it may trap (the index check)",
        InstKind::Binary { check, .. } if check.is_checked() => "it may trap (division by zero)",
        // Its precondition holds where it is; it is kept like any non-pure instruction.
        InstKind::Binary { .. } => "it is an unchecked division (never moved or removed)",
        InstKind::VecNew { .. } => "it allocates (and may run out of memory)",
        InstKind::VecPop { .. } => "it may trap (pop of an empty vec)",
        InstKind::Call { .. } => "the call may have effects",
        _ => "it has effects",
    }
}

/// The pass's buffers, kept from one function to the next ([`PassContext::take_scratch`]).
#[derive(Default)]
struct Scratch {
    sweep: SweepScratch,
    renumber: RenumberScratch,
}

/// The room the pass's buffers start with: enough for an ordinary function, rather than
/// growing step by step (a reallocation each) over the first few.
const MIN_ROOM: usize = 64;

/// The buffers of [`sweep`]; every one is overwritten before it is read.
struct SweepScratch {
    /// The strong liveness's work space.
    strong: StrongScratch,
    blocks: Vec<Block>,
    live: LiveWalk,
    keep: Vec<bool>,
}

impl Default for SweepScratch {
    fn default() -> SweepScratch {
        SweepScratch {
            strong: StrongScratch::default(),
            blocks: Vec::with_capacity(MIN_ROOM),
            live: LiveWalk::default(),
            keep: Vec::with_capacity(MIN_ROOM),
        }
    }
}

/// One backward sweep over every reachable block, with `liveness` giving each block's
/// live-out set. Returns whether anything was removed.
fn sweep(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    liveness: &Liveness,
    report: bool,
    scratch: &mut SweepScratch,
) -> bool {
    let SweepScratch {
        strong,
        blocks,
        live,
        keep,
    } = scratch;
    blocks.clear();
    blocks.extend_from_slice(cx.cfg(func).rpo());
    let mut changed = false;
    // The counters, bumped once at the end in the order they were first hit (one counter
    // lookup each, not one per instruction).
    let (mut removed, mut dropped) = (0u64, 0u64);
    let mut dropped_first = false;
    for &block in blocks.iter() {
        // Without remarks the sweep only removes and rewrites; the strong liveness knows
        // which blocks hold a definition nobody reads (the same backward walk).
        if !report && !strong.has_dead_definition(block) {
            continue;
        }
        live.start(liveness, block);
        if let Some(Operand::Local(l)) = func.blocks[block]
            .terminator
            .as_ref()
            .and_then(|t| t.used_operand())
        {
            live.insert(liveness, l);
        }
        let mut insts = std::mem::take(&mut func.blocks[block].insts);
        keep.clear();
        keep.resize(insts.len(), true);
        for (pos, &inst) in insts.iter().enumerate().rev() {
            let kind = &func.insts[inst].kind;
            if let Some(d) = kind.def() {
                if !live.contains(liveness, d) {
                    if kind.is_removable_when_dead() {
                        if !report {
                            let msg = || {
                                format!(
                                    "dead `{}` removed: `{}` is never read afterwards",
                                    display_inst_kind(cx.module, func, kind),
                                    func.locals[d].name
                                )
                            };
                            let loc = func.insts[inst].loc;
                            cx.applied_with(func, block, loc, msg);
                            removed += 1;
                        }
                        keep[pos] = false;
                        changed = true;
                        continue;
                    }
                    if matches!(kind, InstKind::VecPop { .. } | InstKind::Call { .. }) {
                        let before = if cx.remarks_enabled() {
                            display_inst_kind(cx.module, func, kind)
                        } else {
                            String::new()
                        };
                        let kind = &mut func.insts[inst].kind;
                        if let InstKind::VecPop { dst, .. } | InstKind::Call { dst, .. } = kind {
                            *dst = None;
                        }
                        let msg = || {
                            format!(
                                "dead result of `{before}` dropped: `{}` stays because {}",
                                display_inst_kind(cx.module, func, &func.insts[inst].kind),
                                kept_reason(&func.insts[inst].kind)
                            )
                        };
                        let loc = func.insts[inst].loc;
                        cx.applied_with(func, block, loc, msg);
                        dropped_first |= removed == 0;
                        dropped += 1;
                        changed = true;
                    } else if report {
                        let msg = || {
                            format!(
                                "`{}` kept although `{}` is never read: {}",
                                display_inst_kind(cx.module, func, kind),
                                func.locals[d].name,
                                kept_reason(kind)
                            )
                        };
                        let loc = func.insts[inst].loc;
                        cx.missed_with(func, block, loc, msg);
                    }
                }
            }
            let kind = &func.insts[inst].kind;
            if let Some(d) = kind.def() {
                if !matches!(kind, InstKind::SetField { .. }) {
                    live.remove(liveness, d);
                }
            }
            kind.for_each_use(|op| {
                if let Operand::Local(l) = op {
                    live.insert(liveness, l);
                }
            });
        }
        let mut at = 0;
        insts.retain(|_| {
            at += 1;
            keep[at - 1]
        });
        func.blocks[block].insts = insts;
    }
    let counters = [("insts_removed", removed), ("results_dropped", dropped)];
    let order = if dropped_first { [1, 0] } else { [0, 1] };
    for k in order {
        let (name, n) = counters[k];
        if n > 0 {
            cx.stat(name, n);
        }
    }
    changed
}

/// The buffers of [`remove_unused_locals`]; every one is overwritten before it is read.
struct RenumberScratch {
    /// Per local: [`NONE`] until a parameter, placed instruction or terminator mentions it,
    /// then its number among the survivors.
    local_number: Vec<u32>,
    /// Per instruction of the old arena: where it is now, during the compaction.
    position: Vec<u32>,
    /// Per arena slot: which instruction of the old arena it holds now.
    holder: Vec<u32>,
    /// Per block: whether the layout holds it.
    in_layout: Vec<bool>,
}

impl Default for RenumberScratch {
    fn default() -> RenumberScratch {
        RenumberScratch {
            local_number: Vec::with_capacity(MIN_ROOM),
            position: Vec::with_capacity(MIN_ROOM),
            holder: Vec::with_capacity(MIN_ROOM),
            in_layout: Vec::with_capacity(MIN_ROOM),
        }
    }
}

/// No number: a local nothing mentions.
const NONE: u32 = u32::MAX;

/// Removes locals nothing mentions (parameters excepted), renumbering the rest, and compacts
/// the instruction arena. Returns whether any local was removed.
fn remove_unused_locals(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    scratch: &mut RenumberScratch,
) -> bool {
    let RenumberScratch {
        local_number,
        position,
        holder,
        in_layout,
    } = scratch;
    local_number.clear();
    local_number.resize(func.locals.len(), NONE);
    let mut mark = |l: Local| {
        if let Some(n) = local_number.get_mut(l.index()) {
            *n = 0;
        }
    };
    for &p in &func.params {
        mark(p);
    }
    for &block in &func.layout {
        let data = &func.blocks[block];
        for &inst in &data.insts {
            func.insts[inst].kind.for_each_local(&mut mark);
        }
        if let Some(Operand::Local(l)) = data.terminator.as_ref().and_then(|t| t.used_operand()) {
            mark(l);
        }
    }
    let dead = local_number.iter().filter(|&&n| n == NONE).count();
    if dead == 0 {
        return false;
    }
    if let (true, Some(entry)) = (cx.remarks_enabled(), func.entry()) {
        for (l, data) in func.locals.iter() {
            if local_number[l.index()] == NONE {
                let msg = || format!("unused local `{}` removed", data.name);
                cx.applied_with(func, entry, data.loc, msg);
            }
        }
    }
    cx.stat("locals_removed", dead as u64);

    // Renumber the survivors in their original order, in place.
    for (survivor, n) in local_number.iter_mut().filter(|n| **n != NONE).enumerate() {
        *n = survivor as u32;
    }
    let mut locals: Vec<LocalData> = std::mem::take(&mut func.locals).into();
    let mut index = 0;
    locals.retain(|_| {
        index += 1;
        local_number[index - 1] != NONE
    });
    func.locals = locals.into();
    let remapped = |l: Local| match local_number.get(l.index()) {
        Some(&n) if n != NONE => Some(Local::new(n as usize)),
        _ => None,
    };
    let fix = |l: &mut Local| {
        if let Some(n) = remapped(*l) {
            *l = n;
        }
    };
    // Compact the arena in place: only placed instructions survive, renumbered in placement
    // order. The instruction placed `n`-th is swapped into slot `n` (what held that slot goes
    // where it came from), so each moves at most once and one already in its slot not at
    // all; what is left past the placed ones (instructions no block holds) is dropped.
    let mut arena: Vec<InstData> = std::mem::take(&mut func.insts).into();
    position.clear();
    position.extend(0..arena.len() as u32);
    holder.clear();
    holder.extend(0..arena.len() as u32);
    let mut placed = 0;
    for &block in &func.layout {
        let data = &mut func.blocks[block];
        for inst in data.insts.iter_mut() {
            let Some(&at) = position.get(inst.index()) else {
                continue; // not in the arena: the verifier rejects this
            };
            let at = at as usize;
            if at < placed {
                // Placed twice (the verifier rejects this): both refer to the one copy.
                *inst = Inst::new(at);
                continue;
            }
            if at != placed {
                arena.swap(placed, at);
                let displaced = holder[placed];
                position[displaced as usize] = at as u32;
                holder[at] = displaced;
                position[inst.index()] = placed as u32;
                holder[placed] = inst.index() as u32;
            }
            arena[placed].kind.for_each_local_mut(fix);
            *inst = Inst::new(placed);
            placed += 1;
        }
        if let Some(Operand::Local(l)) = data.terminator.as_mut().and_then(|t| t.used_operand_mut())
        {
            fix(l);
        }
    }
    arena.truncate(placed);
    func.insts = arena.into();
    for p in func.params.iter_mut() {
        fix(p);
    }
    // Blocks not in the layout (removed earlier) are never executed or printed; empty their
    // instruction lists so they cannot point into the compacted arena, and keep their
    // terminators well-formed. (The layout holds each block at most once: when it is as long
    // as the block arena, it holds every block.)
    if func.layout.len() < func.blocks.len() {
        in_layout.clear();
        in_layout.resize(func.blocks.len(), false);
        for &b in &func.layout {
            in_layout[b.index()] = true;
        }
        for (b, data) in func.blocks.iter_mut() {
            if !in_layout[b.index()] {
                data.insts.clear();
                if let Some(op) = data.terminator.as_mut().and_then(|t| t.used_operand_mut()) {
                    if let Operand::Local(l) = *op {
                        *op = remapped(l).map_or(Operand::Const(0), Operand::Local);
                    }
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On every instruction of the repository's programs, as written and after the O2
    /// pipeline, `InstKind::for_each_local` gives the locals `def` and `for_each_use` give, and
    /// `for_each_local_mut` renames exactly what `def_mut` and `for_each_use_mut` rename.
    #[test]
    fn one_match_walks_are_def_and_uses() {
        let mut insts = 0;
        let optimized = crate::test_programs::optimized_functions();
        for func in crate::test_programs::functions()
            .into_iter()
            .chain(optimized)
        {
            for data in func.insts.values() {
                let kind = &data.kind;
                let mut expected: Vec<Local> = kind.def().into_iter().collect();
                kind.for_each_use(|op| expected.extend(op.as_local()));
                let mut got = Vec::new();
                kind.for_each_local(|l| got.push(l));
                expected.sort();
                expected.dedup();
                got.sort();
                got.dedup();
                assert_eq!(got, expected, "{}: {kind:?}", func.name);

                let rename = |l: &mut Local| *l = Local::new(l.index() * 7 + 3);
                let mut by_two = kind.clone();
                if let Some(d) = by_two.def_mut() {
                    rename(d);
                }
                by_two.for_each_use_mut(|op| {
                    if let Operand::Local(l) = op {
                        rename(l);
                    }
                });
                let mut by_one = kind.clone();
                by_one.for_each_local_mut(rename);
                assert_eq!(by_one, by_two, "{}: {kind:?}", func.name);
                insts += 1;
            }
        }
        assert!(insts > 5000, "{insts} instructions");
    }
}
