//! `simplify-cfg`: control-flow cleanup.
//!
//! Repeated until nothing changes:
//!
//! 1. Branch folding: `brif c, X, X` becomes `br X`; `brif` on a constant becomes `br` to the
//!    taken target.
//! 2. Jump threading through empty blocks: a block other than the entry, with no instructions,
//!    ending in `br T`, forwards its predecessors: each edge into it is retargeted to the final
//!    block of the chain of such forwarders. A chain that runs into a cycle of empty blocks
//!    stops where the cycle closes (an empty infinite loop stays an infinite loop).
//! 3. Unreachable blocks (from the entry) are removed from the layout.
//! 4. Block merging: a block B other than the entry whose only predecessor P ends in `br B`
//!    (and P != B) is appended to P: P takes B's instructions and terminator; B goes.
//!
//! The entry block is never removed, merged away or moved: it stays first in the layout.
//!
//! Soundness: folding a `brif` whose targets agree, or whose condition is a constant, picks the
//! successor every execution took anyway (a `brif` reads its condition without side effects).
//! An empty block ending in `br T` does nothing before reaching `T`, so entering `T` directly
//! skips no instruction. An unreachable block never executes. Merging B into its only
//! predecessor P, which always continues into B, executes exactly the same instructions in the
//! same order, and nothing else could enter B.

use crate::analysis::Cfg;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_terminator, Block, EntityRef, Function, Operand, SecondaryMap, Terminator,
};

/// The CFG simplification pass.
pub struct SimplifyCfg;

impl Pass for SimplifyCfg {
    fn name(&self) -> &'static str {
        "simplify-cfg"
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O1
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        if func.layout.is_empty() {
            return false;
        }
        let mut changed = false;
        // Each round strictly shrinks the function or folds a branch, so this terminates; the
        // bound is a guard against surprises, not a limit ever reached. At most `n + 1` rounds
        // run for `n` blocks: a round that threads a jump also removes a block (every edge
        // into a threaded forwarder is retargeted, so it becomes unreachable); a round that
        // removes nothing therefore only folded branches, which creates no forwarder (an empty
        // block turned into one is threaded in the same round) and leaves nothing to merge or
        // remove that its own later steps did not see, so the next round changes nothing. The
        // entry is never removed: at most `n - 1` removing rounds, one folding, one idle.
        let bound = 4 * (func.layout.len() + 4);
        let mut own = cx.spare_cfg();
        for round_index in 0..bound {
            let mut round = fold_branches(func, cx);
            round |= thread_jumps(func, cx);
            // One CFG per round serves both: it is taken after the terminators changed, and
            // merging counts only reachable predecessors, which are exactly the predecessors
            // left once the unreachable blocks are gone. Before any change (the usual case:
            // most functions have nothing to simplify) it is the context's cached CFG.
            let shared;
            let cfg: &Cfg = if round_index == 0 && !round {
                shared = cx.shared_cfg(func);
                &shared
            } else {
                cx.recompute_cfg(func, &mut own);
                &own
            };
            round |= remove_unreachable(func, cx, cfg);
            round |= merge_blocks(func, cx, cfg);
            if !round {
                break;
            }
            changed = true;
        }
        if changed {
            cx.invalidate();
        }
        cx.return_cfg(own);
        changed
    }
}

fn fold_branches(func: &mut Function, cx: &mut PassContext<'_>) -> bool {
    let mut changed = false;
    for index in 0..func.layout.len() {
        let block = func.layout[index];
        // Read in place: a clone of every terminator would copy each `trap`'s message.
        let Some(Terminator::BrIf {
            cond,
            then_block,
            else_block,
        }) = func.blocks[block].terminator
        else {
            continue;
        };
        let (target, why) = if then_block == else_block {
            (then_block, "both targets are the same block")
        } else if let Operand::Const(c) = cond {
            let t = if c != 0 { then_block } else { else_block };
            (t, "the condition is a constant")
        } else {
            continue;
        };
        let before = cx.remarks_enabled().then(|| {
            display_terminator(
                func,
                &Terminator::BrIf {
                    cond,
                    then_block,
                    else_block,
                },
            )
        });
        func.blocks[block].terminator = Some(Terminator::Br(target));
        let loc = func.blocks[block].term_loc;
        cx.applied_with(func, block, loc, || {
            format!(
                "`{}` became `br {}`: {why}",
                before.unwrap_or_default(),
                func.blocks[target].name
            )
        });
        cx.stat("branches_simplified", 1);
        changed = true;
    }
    changed
}

/// Whether `block` is an empty forwarder (`br T` and nothing else), giving `T`.
fn forward_target(func: &Function, entry: Block, block: Block) -> Option<Block> {
    if block == entry {
        return None;
    }
    let data = &func.blocks[block];
    match data.terminator {
        Some(Terminator::Br(t)) if data.insts.is_empty() && t != block => Some(t),
        _ => None,
    }
}

fn thread_jumps(func: &mut Function, cx: &mut PassContext<'_>) -> bool {
    let Some(entry) = func.entry() else {
        return false;
    };
    // Final destination of each forwarder chain; chains that run into a cycle of empty
    // blocks are left alone.
    let Some(dest) = chain_destinations(func, entry) else {
        return false;
    };
    let mut changed = false;
    for index in 0..func.layout.len() {
        let block = func.layout[index];
        // Only a terminator with a successor to thread is copied and rewritten.
        let Some(term) = func.blocks[block].terminator.as_ref() else {
            continue;
        };
        if !term.successors().any(|s| dest[s].is_some()) {
            continue;
        }
        let mut term = term.clone();
        let before = cx
            .remarks_enabled()
            .then(|| display_terminator(func, &term));
        let mut n = 0;
        for succ in term.successors_mut() {
            if let Some(d) = dest[*succ] {
                *succ = d;
                n += 1;
            }
        }
        if n > 0 {
            let after = cx
                .remarks_enabled()
                .then(|| display_terminator(func, &term));
            func.blocks[block].terminator = Some(term);
            let loc = func.blocks[block].term_loc;
            cx.applied_with(func, block, loc, || {
                format!(
                    "`{}` threaded to `{}` past empty blocks",
                    before.unwrap_or_default(),
                    after.unwrap_or_default()
                )
            });
            cx.stat("branches_simplified", n);
            changed = true;
        }
    }
    changed
}

/// Where each forwarder's chain of forwarders ends (`None` for a block that is no forwarder, or
/// whose chain runs into a cycle of forwarders). Each block is walked once: a chain's blocks all
/// get the answer found at its end, and a later chain that joins one already resolved stops
/// there. (Following every forwarder's chain to its end separately was quadratic: 100,000
/// empty blocks in a row took 10.5 s.) `None` when no chain ends anywhere; the tables grow
/// only when a forwarder is found (most rounds find none).
fn chain_destinations(func: &Function, entry: Block) -> Option<SecondaryMap<Block, Option<Block>>> {
    /// Not yet walked; on the chain being walked; resolved.
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut dest: SecondaryMap<Block, Option<Block>> = SecondaryMap::new();
    let mut state: SecondaryMap<Block, u8> = SecondaryMap::new();
    let mut path: Vec<Block> = Vec::new();
    let mut any = false;
    for &start in &func.layout {
        if state[start] != NEW || forward_target(func, entry, start).is_none() {
            continue;
        }
        let mut at = start;
        let end = loop {
            match state[at] {
                // A forwarder already resolved: its answer (`None` if it leads into a cycle).
                DONE => break dest[at],
                // Back on this chain: a cycle of forwarders.
                ON_PATH => break None,
                _ => match forward_target(func, entry, at) {
                    Some(next) => {
                        state[at] = ON_PATH;
                        path.push(at);
                        at = next;
                    }
                    // A block that is no forwarder ends the chain.
                    None => break Some(at),
                },
            }
        };
        any |= end.is_some();
        for b in path.drain(..) {
            state[b] = DONE;
            dest[b] = end;
        }
    }
    any.then_some(dest)
}

/// Drops the blocks `cfg` finds unreachable from the layout (also used by `branch-threading`,
/// which can leave a join with no way in; the verifier refuses unreachable blocks).
pub(crate) fn remove_unreachable(func: &mut Function, cx: &mut PassContext<'_>, cfg: &Cfg) -> bool {
    let dead: Vec<Block> = func
        .layout
        .iter()
        .copied()
        .skip(1)
        .filter(|&b| !cfg.is_reachable(b))
        .collect();
    if dead.is_empty() {
        return false;
    }
    for &b in &dead {
        let loc = func.blocks[b].loc;
        cx.applied_with(func, b, loc, || {
            format!("unreachable block `{}` removed", func.blocks[b].name)
        });
        cx.stat("blocks_removed", 1);
    }
    // The entry is reachable by definition, so it stays first.
    func.layout.retain(|&b| cfg.is_reachable(b));
    true
}

/// Step 4: appends each block other than the entry whose only reachable predecessor ends in
/// `br` to it to that predecessor (also used by the inliner). `cfg` is `func`'s current CFG.
pub(crate) fn merge_blocks(func: &mut Function, cx: &mut PassContext<'_>, cfg: &Cfg) -> bool {
    let Some(entry) = func.entry() else {
        return false;
    };
    // Most calls find nothing to merge: look before making the tables. The count stops at
    // a second predecessor: a join of `n` blocks that all end in `br` to it is asked `n`
    // times (counting all its predecessors made that quadratic).
    let one_pred = |b: Block| {
        cfg.preds(b)
            .iter()
            .filter(|&&p| cfg.is_reachable(p))
            .take(2)
            .count()
            == 1
    };
    let candidate = func.layout.iter().any(|&p| {
        matches!(func.blocks[p].terminator, Some(Terminator::Br(b)) if b != p && b != entry && one_pred(b))
    });
    if !candidate {
        return false;
    }
    let mut npreds = vec![0u32; func.blocks.len()];
    for &b in &func.layout {
        npreds[b.index()] = cfg
            .preds(b)
            .iter()
            .filter(|&&p| cfg.is_reachable(p))
            .count() as u32;
    }
    merge_into_only_predecessors(func, cx, &mut npreds)
}

/// The merging of [`merge_blocks`], given for each block of the layout (by index) its number
/// of distinct reachable predecessor blocks, `npreds`, which the merges keep up to date.
pub(crate) fn merge_into_only_predecessors(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    npreds: &mut [u32],
) -> bool {
    let Some(entry) = func.entry() else {
        return false;
    };
    let mut merged = 0;
    for index in 0..func.layout.len() {
        let p = func.layout[index];
        // Merged into an earlier block of the layout.
        if npreds[p.index()] == MERGED {
            continue;
        }
        while let Some(Terminator::Br(b)) = func.blocks[p].terminator {
            // B has no other predecessor, so it has no edge to itself either: after the merge
            // P's new terminator never targets B, and B's successors just trade B for P.
            if b == p || b == entry || npreds[b.index()] != 1 {
                break;
            }
            let moved = std::mem::take(&mut func.blocks[b].insts);
            let term = func.blocks[b].terminator.take();
            let term_loc = func.blocks[b].term_loc;
            let data = &mut func.blocks[p];
            data.insts.extend(moved);
            data.terminator = term;
            data.term_loc = term_loc;
            let loc = func.blocks[b].loc;
            cx.applied_with(func, p, loc, || {
                format!(
                    "block `{}` merged into its only predecessor `{}`",
                    func.blocks[b].name, func.blocks[p].name
                )
            });
            npreds[b.index()] = MERGED;
            merged += 1;
        }
    }
    if merged == 0 {
        return false;
    }
    // One bump for all: the counter comes out the same as with one per merge.
    cx.stat("blocks_merged", merged);
    func.layout.retain(|&b| npreds[b.index()] != MERGED);
    true
}

/// The predecessor count [`merge_into_only_predecessors`] gives a block it merged away.
const MERGED: u32 = u32::MAX;
