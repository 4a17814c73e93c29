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
use poolopt_ir::{Block, Function, Inst, SecondaryMap};

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
    walk_wanted(func, cx, |_| true, start, visit)
}

/// [`walk`] over the blocks `wanted` selects only. A block left out hands no state on: a
/// selected block whose only predecessor is left out starts from the empty state.
pub(crate) fn walk_wanted<S: WalkState>(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    wanted: impl Fn(Block) -> bool,
    start: impl Fn(&mut S, bool),
    mut visit: impl FnMut(&mut Function, &mut PassContext<'_>, Block, Inst, &mut S) -> bool,
) -> bool {
    let cfg = cx.shared_cfg(func);
    // States no block needs any more, kept from one function to the next.
    let mut spare: Vec<S> = cx.take_scratch();
    let fresh = |spare: &mut Vec<S>| {
        spare.pop().map_or_else(S::default, |mut s| {
            s.reset();
            s
        })
    };
    // Per block, how many blocks have yet to start from its end state (the last one takes it
    // instead of a copy: a long chain of guarded blocks copies nothing), and that state; one
    // table for both.
    let mut ends: SecondaryMap<Block, (u32, Option<S>)> = func.block_map();
    let only_wanted_pred = |block| cfg.only_pred(block).filter(|&p| wanted(p));
    for &block in cfg.rpo() {
        if let Some(p) = only_wanted_pred(block).filter(|_| wanted(block)) {
            ends[p].0 += 1;
        }
    }
    let mut changed = false;
    for &block in cfg.rpo() {
        if !wanted(block) {
            continue;
        }
        let single = only_wanted_pred(block);
        let inherited = single.and_then(|p| {
            let (waiting, out) = &mut ends[p];
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
        let mut state = inherited.unwrap_or_else(|| fresh(&mut spare));
        start(&mut state, cx.remarks_enabled());
        for at in 0..func.blocks[block].insts.len() {
            let inst = func.blocks[block].insts[at];
            changed |= visit(func, cx, block, inst, &mut state);
        }
        if ends[block].0 > 0 {
            ends[block].1 = Some(state);
        } else if spare.len() < MAX_SPARE_STATES {
            spare.push(state);
        }
    }
    cx.give_scratch(spare);
    changed
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

    /// Removes every item `dies` selects, handing each (oldest first) to `gone`.
    pub(crate) fn remove_where(&mut self, dies: impl Fn(&T) -> bool, mut gone: impl FnMut(T)) {
        self.items
            .extract_if(.., |item| dies(item))
            .for_each(&mut gone);
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

    #[test]
    fn a_block_left_out_is_not_visited_and_hands_no_state_on() {
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
        let left = func.layout[1];
        // Per visited instruction, its destination and those of the instructions seen before.
        let mut visits = Vec::new();
        walk_wanted(
            &mut func,
            &mut cx,
            |block| block != left,
            |_: &mut Seen, _| {},
            |func, _, _, inst, seen| {
                let name = |inst: Inst| func.local_name(func.inst(inst).def().unwrap()).to_string();
                let before: Vec<String> = seen.0.iter().map(|&i| name(i)).collect();
                visits.push(format!("{} after {before:?}", name(inst)));
                seen.0.push(inst);
                false
            },
        );
        visits.sort();
        // `inner` starts empty: its only predecessor is left out.
        assert_eq!(visits, ["w after [\"x\"]", "x after []", "z after []"]);
    }
}
