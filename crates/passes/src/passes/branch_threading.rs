//! `branch-threading`: an edge on which a branch's condition is already known goes straight to
//! the target the branch would take.
//!
//! Front ends lower `a && b` and `a || b` to a join block that copies the last test's result
//! and branches on it again:
//!
//! ```text
//! entry:  t = slt i, n
//!         brif t, and0, join          ; on this edge t is false
//! and0:   t = eq x, y
//!         br join
//! join:   r = copy t
//!         brif t, then, else
//! ```
//!
//! On the edge `entry -> join` the join's branch is decided (`t` is false), so the edge goes
//! to a new block `r = copy t; br else` instead; `join` is then entered only from `and0`, and
//! `then` only through `and0`, where `i < n` holds. Without this, the dominator-based facts of
//! the check passes see `then` reached from a join of two paths and know nothing there.
//!
//! **Which branches.** A block `B` (not a loop header) starting a *chain*: `B` and the blocks
//! after it, each the only successor of the one before and with it as its only predecessor,
//! holding nothing but `copy` instructions ([`MAX_COPIES`] at most), the last ending in
//! `brif c, T, F`. Simulating the copies gives `c` as a constant or as the value some local
//! `x` had on entry to `B`. For each predecessor `P` of `B`, the value of `x` on the edge
//! `P -> B` is *known* when, walking back from the end of `P`:
//!
//! - `P` ends in `brif x, ...` with `B` as exactly one of its targets (then `x` is true or
//!   false on that edge);
//! - the last write of `x` in `P` is `x = copy k` for a constant `k`;
//! - the last write of `x` in `P` is `x = copy y` with `y` not written after it in `P`: then
//!   `x` on the edge is `y` on the edge, asked again;
//! - `x` is not written in `P` and `P` has a single predecessor and is not the function's
//!   entry block (which is also entered when the function starts): asked again on that edge;
//!
//! up to [`MAX_DEPTH`] steps. A known edge is *threaded*: it is retargeted to a new block
//! holding copies of the chain's instructions and ending in `br` to the target that the value
//! selects (or straight to that target when the chain has no instructions).
//!
//! **Soundness.** The chain executes only copies (no trap, no memory access, no call), so an
//! execution entering `B` from `P` runs those copies and then takes the branch that `c`'s value
//! selects; `c` is, by the simulation, the value `x` had on entry to `B`, which the walk proved
//! equal to the known value on every execution that takes the edge `P -> B` (a `brif` on `x`
//! at the end of `P` sends only executions with that value of `x` along that edge; a copy
//! from a local not written afterwards carries that local's value to the end of the block; a
//! block other than the entry with one predecessor and no write of `x` passes `x` through:
//! every execution entering it comes along that edge, while the entry is also entered at the
//! function's start, where no edge says anything about `x`). The new block runs the
//! same copies in the same order and continues where the branch would have gone, so every
//! execution runs the same instructions and reaches the same block; executions entering `B`
//! from other predecessors are unchanged. Loop headers are left alone, so no loop gains a
//! second entry. Blocks left without a way in (a join all of whose edges were threaded) are
//! removed, as `simplify-cfg` would.

use super::names::{joined, Names};
use crate::analysis::Cfg;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{Block, EntityRef, Function, Inst, InstKind, Local, Operand, Terminator};

/// Chains with more copies than this are not duplicated.
pub const MAX_COPIES: usize = 8;
/// Steps of the backward walk that decides whether a value is known on an edge.
pub const MAX_DEPTH: usize = 6;
/// Blocks followed after the first one when collecting a chain.
const MAX_CHAIN: usize = 4;

/// The branch threading pass.
pub struct BranchThreading;

impl Pass for BranchThreading {
    fn name(&self) -> &'static str {
        "branch-threading"
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O1
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        if func.layout.len() < 3 {
            return false;
        }
        let mut changed = false;
        let mut cfg = cx.spare_cfg();
        // Each round threads edges found on the CFG of the round before (a threaded edge can
        // make another branch decidable); a handful of rounds reach what matters. The first
        // round reads the context's cached CFG: nothing has changed yet.
        for round_index in 0..4 {
            let threaded = if round_index == 0 {
                let shared = cx.shared_cfg(func);
                thread_round(func, cx, &shared)
            } else {
                cx.recompute_cfg(func, &mut cfg);
                thread_round(func, cx, &cfg)
            };
            if !threaded {
                break;
            }
            changed = true;
        }
        if changed {
            // Every edge into a join may have been threaded: drop what no longer has a way in.
            cx.recompute_cfg(func, &mut cfg);
            super::simplify_cfg::remove_unreachable(func, cx, &cfg);
            cx.invalidate();
        }
        cx.return_cfg(cfg);
        changed
    }
}

/// The copies and final branch of a chain starting at some block.
struct Chain {
    copies: Vec<Inst>,
    cond: Local,
    then_block: Block,
    else_block: Block,
}

/// Blocks whose predecessors changed in this round (the round's CFG is stale for them), and
/// the names of the function's blocks, for new ones.
struct Round {
    dirty: Vec<bool>,
    names: Option<Names>,
}

impl Round {
    fn is_dirty(&self, b: Block) -> bool {
        self.dirty.get(b.index()).copied().unwrap_or(true)
    }

    fn mark(&mut self, b: Block) {
        if let Some(d) = self.dirty.get_mut(b.index()) {
            *d = true;
        }
    }
}

fn thread_round(func: &mut Function, cx: &mut PassContext<'_>, cfg: &Cfg) -> bool {
    let mut changed = false;
    let mut round = Round {
        dirty: vec![false; func.blocks.len()],
        names: None,
    };
    let blocks: Vec<Block> = cfg.rpo().to_vec();
    for block in blocks {
        if round.is_dirty(block) {
            continue;
        }
        let Some(index) = cfg.rpo_index(block) else {
            continue;
        };
        let preds = cfg.preds(block);
        if preds.len() < 2
            || preds
                .iter()
                .any(|&p| cfg.rpo_index(p).is_some_and(|pi| pi >= index))
        {
            // One way in: nothing to separate. A retreating edge: a loop header.
            continue;
        }
        let Some(chain) = chain_from(func, cfg, &round, block) else {
            continue;
        };
        let decided_by = match simulate(func, &chain) {
            Sym::Entry(x) => x,
            // A constant condition: simplify-cfg folds the branch.
            Sym::Const(_) => continue,
        };
        for &pred in preds {
            if !cfg.is_reachable(pred) {
                continue;
            }
            let Some(value) = known_on_edge(func, cfg, &round, pred, block, decided_by, MAX_DEPTH)
            else {
                continue;
            };
            let target = if value != 0 {
                chain.then_block
            } else {
                chain.else_block
            };
            thread_edge(func, &mut round, pred, block, target, &chain.copies);
            cx.stat("edges_threaded", 1);
            let loc = func.blocks[pred].term_loc;
            cx.applied_with(func, pred, loc, || {
                format!(
                    "edge `{}` -> `{}` threaded to `{}`: `{}` is {} on it",
                    func.blocks[pred].name,
                    func.blocks[block].name,
                    func.blocks[target].name,
                    func.locals[decided_by].name,
                    if value != 0 { "true" } else { "false" }
                )
            });
            changed = true;
        }
    }
    changed
}

/// The chain starting at `block`: copies only, through single-predecessor successors, ending
/// in a `brif` on a local.
fn chain_from(func: &Function, cfg: &Cfg, round: &Round, block: Block) -> Option<Chain> {
    let mut copies = Vec::new();
    let mut cur = block;
    for step in 0..=MAX_CHAIN {
        let data = &func.blocks[cur];
        for &inst in &data.insts {
            if !matches!(func.insts[inst].kind, InstKind::Copy { .. }) {
                return None;
            }
            copies.push(inst);
        }
        if copies.len() > MAX_COPIES {
            return None;
        }
        match data.terminator.as_ref()? {
            Terminator::BrIf {
                cond: Operand::Local(cond),
                then_block,
                else_block,
            } if then_block != else_block => {
                return Some(Chain {
                    copies,
                    cond: *cond,
                    then_block: *then_block,
                    else_block: *else_block,
                });
            }
            Terminator::Br(next)
                if step < MAX_CHAIN
                    && *next != block
                    && !round.is_dirty(*next)
                    && cfg.preds(*next) == [cur] =>
            {
                cur = *next;
            }
            _ => return None,
        }
    }
    None
}

/// A value in terms of the chain's entry state.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Sym {
    /// The value the local had on entry to the chain.
    Entry(Local),
    Const(i64),
}

/// The chain's condition, after its copies, in terms of the entry state.
fn simulate(func: &Function, chain: &Chain) -> Sym {
    // Walk the copies backward from the branch: the condition is whatever its last writer
    // read, as of that point, and so on.
    let mut want = chain.cond;
    for &inst in chain.copies.iter().rev() {
        if let InstKind::Copy { dst, src } = func.insts[inst].kind {
            if dst == want {
                match src {
                    Operand::Const(c) => return Sym::Const(c),
                    Operand::Local(s) => want = s,
                }
            }
        }
    }
    Sym::Entry(want)
}

/// The value `x` has on every execution that takes the edge `from -> to`, if the walk back
/// from the end of `from` proves one.
fn known_on_edge(
    func: &Function,
    cfg: &Cfg,
    round: &Round,
    from: Block,
    to: Block,
    x: Local,
    depth: usize,
) -> Option<i64> {
    if depth == 0 {
        return None;
    }
    let data = &func.blocks[from];
    if let Some(Terminator::BrIf {
        cond: Operand::Local(c),
        then_block,
        else_block,
    }) = data.terminator
    {
        if c == x && then_block != else_block {
            if to == then_block {
                return Some(1);
            }
            if to == else_block {
                return Some(0);
            }
        }
    }
    let last_write = data
        .insts
        .iter()
        .rposition(|&i| func.insts[i].kind.def() == Some(x));
    match last_write {
        Some(pos) => match func.insts[data.insts[pos]].kind {
            InstKind::Copy {
                src: Operand::Const(k),
                ..
            } => Some(k),
            InstKind::Copy {
                src: Operand::Local(y),
                ..
            } if y != x
                && !data.insts[pos + 1..]
                    .iter()
                    .any(|&i| func.insts[i].kind.def() == Some(y)) =>
            {
                known_on_edge(func, cfg, round, from, to, y, depth - 1)
            }
            _ => None,
        },
        // A block whose predecessors changed this round: the CFG does not know them.
        None if round.is_dirty(from) => None,
        // Not the entry block: the function's start enters it too, and says nothing of `x`.
        None => cfg
            .only_pred(from)
            .and_then(|only| known_on_edge(func, cfg, round, only, from, x, depth - 1)),
    }
}

/// Retargets the edge `pred -> block` to `target`, through a new block holding copies of
/// `copies` when there are any.
fn thread_edge(
    func: &mut Function,
    round: &mut Round,
    pred: Block,
    block: Block,
    target: Block,
    copies: &[Inst],
) {
    round.mark(block);
    round.mark(target);
    let dest = if copies.is_empty() {
        target
    } else {
        let names = round.names.get_or_insert_with(|| Names::of(func));
        let name = names.block(joined(&func.blocks[block].name, "thread"));
        let new_block = func.add_block(name);
        let loc = func.blocks[block].term_loc;
        for &inst in copies {
            let data = func.insts[inst].clone();
            let copy = func.make_inst(data.kind, data.loc);
            func.blocks[new_block].insts.push(copy);
        }
        func.blocks[new_block].terminator = Some(Terminator::Br(target));
        func.blocks[new_block].term_loc = loc;
        new_block
    };
    if let Some(term) = func.blocks[pred].terminator.as_mut() {
        for succ in term.successors_mut() {
            if *succ == block {
                *succ = dest;
            }
        }
    }
}
