//! A walk over extended basic blocks, shared by the forward "available" passes
//! (`store-load-forward`, `value-numbering`).
//!
//! Blocks are visited in reverse post-order. A block whose only predecessor is another block
//! (not itself, and not the entry) starts from the state that predecessor ended with, so what
//! was available at its end is still available; any other block — a merge, a loop header, the
//! entry — starts from the empty state. That is sound without a dataflow fixpoint: along an
//! extended basic block every path to an instruction passes through all the instructions
//! before it in the chain.

use crate::pass::PassContext;
use poolopt_ir::{Block, Function, Inst};

/// A walk's per-block state, recycled: the walk keeps the states it no longer needs and starts
/// later blocks (and later functions) in their storage instead of allocating afresh.
pub(crate) trait WalkState: Clone + Default + 'static {
    /// Empties the state (nothing available), keeping its storage.
    fn reset(&mut self);
    /// Makes the state a copy of `other`, in its own storage.
    fn assign(&mut self, other: &Self);
}

/// The most unneeded states a walk keeps for reuse. A block starts from at most one, so a few
/// cover the usual shapes; a function of many blocks without a successor (each ending in a
/// `ret` or a trap) would otherwise keep one state per block until the pipeline ends.
const MAX_SPARE_STATES: usize = 16;

/// Runs `visit` on every instruction of `func` by extended basic blocks; `start` prepares a
/// block's state (with whether remarks are collected). Returns whether any visit changed the
/// function.
pub(crate) fn walk<S: WalkState>(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    start: impl Fn(&mut S, bool),
    visit: impl FnMut(&mut Function, &mut PassContext<'_>, Block, Inst, &mut S) -> bool,
) -> bool {
    let cfg = cx.shared_cfg(func);
    let order: Vec<(Block, u32)> = cfg
        .rpo()
        .iter()
        .map(|&block| {
            let from = cfg.only_pred(block).and_then(|p| cfg.rpo_index(p));
            (block, from.unwrap_or(NO_BLOCK))
        })
        .collect();
    walk_in(func, cx, &order, start, visit)
}

/// In [`walk_in`]'s order: the block starts from the empty state.
pub(crate) const NO_BLOCK: u32 = u32::MAX;

/// [`walk`] over the blocks of `order` only, in its order: each with the position in `order`
/// of the block whose end state it starts from (its only predecessor, which comes earlier), or
/// [`NO_BLOCK`]. A block left out hands no state on.
pub(crate) fn walk_in<S: WalkState>(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    order: &[(Block, u32)],
    start: impl Fn(&mut S, bool),
    mut visit: impl FnMut(&mut Function, &mut PassContext<'_>, Block, Inst, &mut S) -> bool,
) -> bool {
    let mut scratch: WalkScratch<S> = cx.take_scratch();
    let WalkScratch { spare, ends } = &mut scratch;
    let fresh = |spare: &mut Vec<S>| {
        spare.pop().map_or_else(S::default, |mut s| {
            s.reset();
            s
        })
    };
    ends.clear();
    ends.resize_with(order.len(), || (0, None));
    for &(_, from) in order {
        if let Some(end) = ends.get_mut(from as usize) {
            end.0 += 1;
        }
    }
    let mut changed = false;
    for (at, &(block, from)) in order.iter().enumerate() {
        let inherited = ends.get_mut(from as usize).and_then(|(waiting, out)| {
            *waiting -= 1;
            if *waiting == 0 {
                out.take()
            } else {
                out.as_ref().map(|out| {
                    let mut copy = spare.pop().unwrap_or_default();
                    copy.assign(out);
                    copy
                })
            }
        });
        let mut state = inherited.unwrap_or_else(|| fresh(spare));
        start(&mut state, cx.remarks_enabled());
        for at in 0..func.blocks[block].insts.len() {
            let inst = func.blocks[block].insts[at];
            changed |= visit(func, cx, block, inst, &mut state);
        }
        let end = &mut ends[at];
        if end.0 > 0 {
            end.1 = Some(state);
        } else if spare.len() < MAX_SPARE_STATES {
            spare.push(state);
        }
    }
    cx.give_scratch(scratch);
    changed
}

/// The walk's tables, kept from one function to the next.
struct WalkScratch<S> {
    /// States no block needs any more.
    spare: Vec<S>,
    /// Per position of the order, how many blocks have yet to start from its end state (the
    /// last one takes it instead of a copy: a long chain of guarded blocks copies nothing),
    /// and that state; one table for both. Every state stored is taken by the end of the walk
    /// (each block waited for comes later in the order).
    ends: Vec<(u32, Option<S>)>,
}

impl<S> Default for WalkScratch<S> {
    fn default() -> WalkScratch<S> {
        WalkScratch {
            spare: Vec::new(),
            ends: Vec::new(),
        }
    }
}

/// What is available at a point of an extended block (stores, expressions), oldest first, at
/// most `limit` at once: every instruction scans the list for what it kills, and a block with
/// one predecessor starts from a copy of it, so without a bound a long block or a long chain of
/// blocks would cost quadratic time. Past the bound the oldest item is forgotten (sound for an
/// "available" pass: forgetting only means less is reused).
#[derive(Clone, Debug)]
pub(crate) struct Available<T> {
    items: Vec<T>,
    limit: usize,
}

impl<T> Available<T> {
    /// An empty list that holds at most `limit` items.
    pub(crate) fn new(limit: usize) -> Available<T> {
        Available {
            items: Vec::new(),
            limit,
        }
    }

    /// The items, oldest first.
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    /// Whether nothing is available.
    pub(crate) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Removes every item `dies` selects, handing each (oldest first) to `gone`.
    pub(crate) fn remove_where(&mut self, dies: impl Fn(&T) -> bool, mut gone: impl FnMut(T)) {
        self.items
            .extract_if(.., |item| dies(item))
            .for_each(&mut gone);
    }

    /// Keeps only the items `keep` selects ([`Available::remove_where`] of the others, when
    /// no one asks which went).
    pub(crate) fn retain(&mut self, keep: impl FnMut(&T) -> bool) {
        self.items.retain(keep);
    }

    /// Forgets every item, keeping the storage.
    pub(crate) fn clear(&mut self) {
        self.items.clear();
    }

    /// Makes this list a copy of `other`, in its own storage.
    pub(crate) fn assign(&mut self, other: &Available<T>)
    where
        T: Clone,
    {
        self.items.clone_from(&other.items);
        self.limit = other.limit;
    }

    /// Makes `item` available; returns the oldest item when the list was full and it had to go.
    pub(crate) fn push(&mut self, item: T) -> Option<T> {
        let oldest = (self.items.len() >= self.limit).then(|| self.items.remove(0));
        self.items.push(item);
        oldest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Stats;

    /// The instructions visited so far along the extended block.
    #[derive(Clone, Default)]
    struct Seen(Vec<Inst>);

    impl WalkState for Seen {
        fn reset(&mut self) {
            self.0.clear();
        }

        fn assign(&mut self, other: &Seen) {
            self.0.clone_from(&other.0);
        }
    }

    /// Per visited instruction of `f` (below) walked in `order` (all blocks when `None`), its
    /// destination and those of the instructions seen before it, sorted.
    fn visits(order: Option<&[(&str, u32)]>) -> Vec<String> {
        let src = "
fn f(a: i64, c: bool) -> i64 {
    var x: i64
    var y: i64
    var z: i64
    var w: i64
entry:
    x = add a, 1
    brif c, left, right
left:
    y = add a, 2
    br inner
inner:
    z = add a, 3
    ret z
right:
    w = add a, 4
    ret w
}
";
        let module = poolopt_ir::parse(src).unwrap();
        let mut func = module.funcs.values().next().unwrap().clone();
        let (mut remarks, mut stats) = (Vec::new(), Stats::default());
        let mut cx = PassContext::new(&module, "f", &mut remarks, &mut stats);
        let mut visits = Vec::new();
        let visit = |func: &mut Function, _: &mut PassContext<'_>, _, inst, seen: &mut Seen| {
            let name = |inst: Inst| func.local_name(func.inst(inst).def().unwrap()).to_string();
            let before: Vec<String> = seen.0.iter().map(|&i| name(i)).collect();
            visits.push(format!("{} after {before:?}", name(inst)));
            seen.0.push(inst);
            false
        };
        match order {
            None => walk(&mut func, &mut cx, |_: &mut Seen, _| {}, visit),
            Some(order) => {
                let block = |name: &str| {
                    *func
                        .layout
                        .iter()
                        .find(|&&b| func.blocks[b].name == *name)
                        .unwrap()
                };
                let order: Vec<(Block, u32)> =
                    order.iter().map(|&(b, from)| (block(b), from)).collect();
                walk_in(&mut func, &mut cx, &order, |_: &mut Seen, _| {}, visit)
            }
        };
        visits.sort();
        visits
    }

    #[test]
    fn a_block_starts_from_its_only_predecessors_end() {
        let all = [
            "w after [\"x\"]",
            "x after []",
            "y after [\"x\"]",
            "z after [\"x\", \"y\"]",
        ];
        assert_eq!(visits(None), all);
    }

    #[test]
    fn a_block_left_out_is_not_visited_and_hands_no_state_on() {
        // `inner` starts empty: the block it would start from is left out.
        let order = [("entry", NO_BLOCK), ("right", 0), ("inner", NO_BLOCK)];
        assert_eq!(
            visits(Some(&order)),
            ["w after [\"x\"]", "x after []", "z after []"]
        );
    }
}
