//! `dead-local-elim`: removes instructions whose only effect is to write a local nobody reads,
//! then the declarations of locals no instruction mentions any more.
//!
//! 1. A *pure* instruction ([`InstKind::is_pure`]: no trap, no memory access, no effect besides
//!    its destination) whose destination is not live right after it is deleted. Liveness comes
//!    from the shared analysis at block ends and is tracked backwards through each block; the
//!    sweep repeats until nothing changes (deleting one dead instruction can kill its operands).
//!    A `pop` or `call` whose result is dead keeps running but stops writing the local
//!    (`t = pop v` becomes `pop v`): the trap and the memory effect stay, only the dead write
//!    goes. Everything else that may trap or touch memory (a checked `get`, a division, `new`)
//!    stays, with a missed remark saying why.
//! 2. Locals that no placed instruction or terminator mentions are removed from the function,
//!    parameters never. A `PrimaryMap` cannot delete an entry, so the pass rebuilds the locals
//!    map with the survivors in their original order and renumbers every reference (placed
//!    instructions, terminators, parameters). The instruction arena is compacted at the same
//!    time (instructions no block holds any more are dropped), so no stale instruction can
//!    refer to a removed local. Cached analyses keyed by locals are invalidated.
//!
//! Soundness: a pure instruction computes a value and writes one local; if that local is not
//! live after it, no execution reads the value, and since the instruction cannot trap, deleting
//! it changes neither results nor traps. Dropping the destination of a `pop`/`call` removes only
//! a write nobody reads. Removing an unmentioned local, and renaming locals consistently,
//! changes no execution.

use crate::analysis::{Liveness, LocalSet};
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_inst_kind, Block, Function, Inst, InstData, InstKind, Local, LocalData, Operand,
    PrimaryMap, SecondaryMap,
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
        let mut changed = false;
        // Sweep to a fixpoint; the final sweep changes nothing and reports what stays.
        loop {
            let swept = sweep(func, cx, false);
            if !swept {
                break;
            }
            changed = true;
            // Only instructions went: the CFG stays valid, liveness does not.
            cx.invalidate_dataflow();
        }
        if cx.remarks_enabled() {
            // A last sweep that changes nothing and reports what stays, and why.
            sweep(func, cx, true);
        }
        if remove_unused_locals(func, cx) {
            changed = true;
            cx.invalidate();
        }
        changed
    }
}

/// Why an instruction with a dead destination must stay.
fn kept_reason(kind: &InstKind) -> &'static str {
    match kind {
        InstKind::VecGet { .. } => "it may trap (the index check)",
        InstKind::Binary { .. } => "it may trap (division by zero)",
        InstKind::VecNew { .. } => "it allocates (and may run out of memory)",
        InstKind::VecPop { .. } => "it may trap (pop of an empty vec)",
        InstKind::Call { .. } => "the call may have effects",
        _ => "it has effects",
    }
}

/// One backward sweep over every reachable block. Returns whether anything was removed.
fn sweep(func: &mut Function, cx: &mut PassContext<'_>, report: bool) -> bool {
    let blocks: Vec<Block> = cx.cfg(func).rpo().to_vec();
    let live_out: Vec<LocalSet> = {
        let live: &Liveness = cx.liveness(func);
        blocks.iter().map(|&b| live.live_out(b).to_set()).collect()
    };
    let mut changed = false;
    for (block, mut live) in blocks.into_iter().zip(live_out) {
        if let Some(Operand::Local(l)) = func.blocks[block]
            .terminator
            .as_ref()
            .and_then(|t| t.used_operand())
        {
            live.insert(l);
        }
        let insts = func.blocks[block].insts.clone();
        let mut keep = vec![true; insts.len()];
        for (pos, &inst) in insts.iter().enumerate().rev() {
            let kind = &func.insts[inst].kind;
            if let Some(d) = kind.def() {
                if !live.contains(d) {
                    if kind.is_pure() {
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
                            cx.stat("insts_removed", 1);
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
                        cx.stat("results_dropped", 1);
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
                    live.remove(d);
                }
            }
            kind.for_each_use(|op| {
                if let Operand::Local(l) = op {
                    live.insert(l);
                }
            });
        }
        if keep.iter().any(|k| !k) {
            let kept = insts
                .iter()
                .zip(&keep)
                .filter(|(_, &k)| k)
                .map(|(&i, _)| i)
                .collect();
            func.blocks[block].insts = kept;
        }
    }
    changed
}

/// Calls `f` on every local reference of an instruction (destination and operands).
fn for_each_local_mut(kind: &mut InstKind, mut f: impl FnMut(&mut Local)) {
    if let Some(d) = kind.def_mut() {
        f(d);
    }
    kind.for_each_use_mut(|op| {
        if let Operand::Local(l) = op {
            f(l);
        }
    });
}

/// Removes locals nothing mentions (parameters excepted), renumbering the rest, and compacts
/// the instruction arena. Returns whether any local was removed.
fn remove_unused_locals(func: &mut Function, cx: &mut PassContext<'_>) -> bool {
    let mut used: SecondaryMap<Local, bool> = SecondaryMap::new();
    for &p in &func.params {
        used[p] = true;
    }
    let mut placed: Vec<Inst> = Vec::new();
    for &block in &func.layout {
        let data = &func.blocks[block];
        for &inst in &data.insts {
            placed.push(inst);
            let kind = &func.insts[inst].kind;
            if let Some(d) = kind.def() {
                used[d] = true;
            }
            kind.for_each_use(|op| {
                if let Operand::Local(l) = op {
                    used[l] = true;
                }
            });
        }
        if let Some(Operand::Local(l)) = data.terminator.as_ref().and_then(|t| t.used_operand()) {
            used[l] = true;
        }
    }
    let dead: Vec<Local> = func.locals.keys().filter(|&l| !used[l]).collect();
    if dead.is_empty() {
        return false;
    }
    let entry = func.entry();
    for &l in &dead {
        let data = &func.locals[l];
        let msg = || format!("unused local `{}` removed", data.name);
        if let Some(entry) = entry {
            cx.applied_with(func, entry, data.loc, msg);
        }
        cx.stat("locals_removed", 1);
    }

    // Renumber the survivors in their original order.
    let mut new_locals: PrimaryMap<Local, LocalData> = PrimaryMap::new();
    let mut remap: SecondaryMap<Local, Option<Local>> = SecondaryMap::new();
    for (l, data) in func.locals.iter() {
        if used[l] {
            remap[l] = Some(new_locals.push(data.clone()));
        }
    }
    let fix = |l: &mut Local| {
        if let Some(n) = remap[*l] {
            *l = n;
        }
    };
    // Compact the arena: only placed instructions survive, renumbered in placement order.
    let mut new_insts: PrimaryMap<Inst, InstData> = PrimaryMap::new();
    let mut inst_map: SecondaryMap<Inst, Option<Inst>> = SecondaryMap::new();
    for inst in placed {
        if inst_map[inst].is_some() {
            continue; // placed twice: the verifier rejects this; keep one copy
        }
        let mut data = func.insts[inst].clone();
        for_each_local_mut(&mut data.kind, fix);
        inst_map[inst] = Some(new_insts.push(data));
    }
    for &block in &func.layout.clone() {
        let data = &mut func.blocks[block];
        for inst in data.insts.iter_mut() {
            if let Some(n) = inst_map[*inst] {
                *inst = n;
            }
        }
        if let Some(Operand::Local(l)) = data.terminator.as_mut().and_then(|t| t.used_operand_mut())
        {
            fix(l);
        }
    }
    for p in func.params.iter_mut() {
        fix(p);
    }
    // Blocks not in the layout (removed earlier) are never executed or printed; empty their
    // instruction lists so they cannot point into the compacted arena, and keep their
    // terminators well-formed.
    let in_layout: std::collections::HashSet<Block> = func.layout.iter().copied().collect();
    for (b, data) in func.blocks.iter_mut() {
        if !in_layout.contains(&b) {
            data.insts.clear();
            if let Some(op) = data.terminator.as_mut().and_then(|t| t.used_operand_mut()) {
                if let Operand::Local(l) = *op {
                    *op = remap[l].map_or(Operand::Const(0), Operand::Local);
                }
            }
        }
    }
    func.locals = new_locals;
    func.insts = new_insts;
    true
}
