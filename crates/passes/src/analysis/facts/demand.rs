//! Which blocks' facts an analysis must compute: all of them, or only those the check passes
//! read.
//!
//! `bounds-check-elim` (opt-in; in the pipelines it runs only to word
//! `sparse-bounds-check-elim`'s remarks) reads the facts of the blocks where it decides
//! something (a checked `pop`/`get`/`set`, or a branch with a trapping successor: an explicit
//! check), and, for its remarks, of their predecessors and of the blocks up a chain of single
//! predecessors; `div-check-prove` (opt-in), which reuses that analysis when it runs right
//! after `bounds-check-elim`, reads the blocks holding a checked division.
//! Every block they read can reach a *deciding* block. A block that cannot reach one — the
//! tail of a function after its last check, a loop that only sums what was stored — needs no
//! facts, yet its evaluation (and its loops' sweeps) cost as much as any other.
//!
//! [`FactDemand::AtChecks`] therefore evaluates only the blocks from which a deciding block
//! can be reached (the deciding blocks included). **Exactness:** a block's in-state is the
//! meet of its predecessors' out-states, and each predecessor of a demanded block is itself
//! demanded (it reaches the deciding block through it); so every demanded block sees exactly
//! the states the full analysis computes, and a loop nest (a strongly connected component) is
//! demanded whole or not at all. The facts of the demanded blocks are those of the full
//! analysis, decision for decision. The other blocks get no state, which the consumers read as
//! "nothing runs there" — which is why only passes that never ask about them may take this
//! analysis ([`crate::PassContext::check_facts`]). One difference with the full analysis is
//! deliberate: its safety nets (sweeps per loop nest, stored facts) count only the demanded
//! blocks, so a function whose undemanded tail would have made the full analysis give up
//! still gets its checks decided.

use crate::analysis::cfg::Cfg;
use poolopt_ir::{Block, EntityRef, Function, InstKind, Terminator};

/// Which blocks an analysis computes facts for.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum FactDemand {
    /// Every reachable block.
    #[default]
    Everywhere,
    /// The blocks from which a block with a check can be reached (module docs).
    AtChecks,
}

/// Whether `block` holds something the check passes decide with facts: a checked `pop`,
/// `get`, `set` or division, or a conditional branch with a trapping successor.
pub fn decides_in(func: &Function, block: Block) -> bool {
    let data = &func.blocks[block];
    let checked = data.insts.iter().any(|&i| match *func.inst(i) {
        InstKind::VecPop { check, .. }
        | InstKind::VecGet { check, .. }
        | InstKind::VecSet { check, .. } => check.is_checked(),
        InstKind::Binary { .. } => func.inst(i).checked_division().is_some(),
        _ => false,
    });
    checked || ends_in_explicit_check(func, block)
}

/// Whether `block` ends in a conditional branch with a successor that only traps: a front
/// end's explicit check, which `bounds-check-elim` decides on the block's out-state.
pub fn ends_in_explicit_check(func: &Function, block: Block) -> bool {
    matches!(func.blocks[block].terminator, Some(Terminator::BrIf { then_block, else_block, .. })
        if is_trap_block(func, then_block) || is_trap_block(func, else_block))
}

/// Whether `block` only traps.
pub fn is_trap_block(func: &Function, block: Block) -> bool {
    matches!(func.blocks[block].terminator, Some(Terminator::Trap(_)))
        && func.blocks[block].insts.is_empty()
}

/// The sides of an explicit check `brif c, then_block, else_block` of which exactly one only
/// traps: whether the trap is taken when `c` is true, and the block the check passes to.
pub fn explicit_check_sides(
    func: &Function,
    then_block: Block,
    else_block: Block,
) -> Option<(bool, Block)> {
    match (
        is_trap_block(func, then_block),
        is_trap_block(func, else_block),
    ) {
        (true, false) => Some((true, else_block)),
        (false, true) => Some((false, then_block)),
        _ => None,
    }
}

/// The blocks `demand` asks for, by block index, written into `on` (`work` is scratch
/// space); `false` (and `on` left alone) for every block. `decides` is [`decides_in`] of
/// `func` (the analysis reads it from the walk that found the tracked locals).
pub(super) fn demanded_blocks(
    func: &Function,
    cfg: &Cfg,
    (demand, decides): (FactDemand, impl Fn(Block) -> bool),
    on: &mut Vec<bool>,
    work: &mut Vec<Block>,
) -> bool {
    if demand == FactDemand::Everywhere {
        return false;
    }
    on.clear();
    on.resize(func.blocks.len(), false);
    work.clear();
    for &b in cfg.rpo() {
        if decides(b) {
            on[b.index()] = true;
            work.push(b);
        }
    }
    while let Some(b) = work.pop() {
        for &p in cfg.preds(b) {
            if !on[p.index()] {
                on[p.index()] = true;
                work.push(p);
            }
        }
    }
    true
}
