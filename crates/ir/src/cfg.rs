//! Control-flow graph: successors, predecessors and a reverse post-order of the blocks
//! reachable from the entry. Computed iteratively (no recursion), so a function of any size
//! is fine.

use crate::room::vec_room;
use crate::{Block, EntityRef, Function, SecondaryMap};

/// Successor and predecessor lists of every block in the layout, and the reverse post-order of
/// the reachable ones. Stored flat (one array per relation, indexed by block number), so
/// computing it allocates a handful of vectors whatever the number of blocks.
#[derive(Clone, Debug, Default)]
pub struct Cfg {
    /// Up to two distinct successors per block, `succ_len` of them valid.
    succ: Vec<[Block; 2]>,
    succ_len: Vec<u8>,
    /// Predecessors of block `b`: `pred[pred_start[b]..pred_start[b + 1]]`.
    pred_start: Vec<u32>,
    pred: Vec<Block>,
    rpo: Vec<Block>,
    /// Position in `rpo`, or `u32::MAX` when unreachable.
    rpo_index: Vec<u32>,
    /// Storage reused by [`Cfg::recompute`] (predecessor counts; the DFS's visited marks).
    scratch: Vec<u32>,
    stack: Vec<(Block, usize)>,
}

const UNREACHABLE: u32 = u32::MAX;

impl Cfg {
    /// Computes the CFG of `func`. Successors of a `brif` with equal targets are listed once.
    pub fn compute(func: &Function) -> Cfg {
        let mut cfg = Cfg::default();
        cfg.recompute(func);
        cfg
    }

    /// Makes room for a function of `blocks` blocks, so that recomputing it for one allocates
    /// nothing (each vector that must grow is replaced, not copied: its contents are about
    /// to be recomputed).
    pub fn reserve(&mut self, blocks: usize) {
        vec_room(&mut self.succ, blocks);
        vec_room(&mut self.succ_len, blocks);
        vec_room(&mut self.pred_start, blocks + 1);
        // At most two distinct successors per block, so at most twice as many edges.
        vec_room(&mut self.pred, 2 * blocks);
        vec_room(&mut self.rpo, blocks);
        vec_room(&mut self.rpo_index, blocks);
        vec_room(&mut self.scratch, blocks);
        vec_room(&mut self.stack, blocks);
    }

    /// When the storage has no room for `blocks` blocks, makes room for `room >= blocks`
    /// ([`Cfg::reserve`]): a caller that recomputes the same storage for a sequence of
    /// growing functions replaces each vector once every few functions, not every time.
    pub fn reserve_at_least(&mut self, blocks: usize, room: usize) {
        if self.succ.capacity() < blocks || self.pred.capacity() < 2 * blocks {
            self.reserve(room.max(blocks));
        }
    }

    /// Recomputes this CFG for `func` (as it is now) in place, reusing the vectors' storage:
    /// for a pass that changes the CFG round after round.
    pub fn recompute(&mut self, func: &Function) {
        let n = func.blocks.len();
        self.succ.clear();
        self.succ.resize(n, [Block::new(0); 2]);
        self.succ_len.clear();
        self.succ_len.resize(n, 0);
        self.pred_start.clear();
        self.pred_start.resize(n + 1, 0);
        self.rpo.clear();
        self.rpo_index.clear();
        self.rpo_index.resize(n, UNREACHABLE);
        // Predecessor counts, then (the same storage) the next free slot of each list.
        let mut fill = std::mem::take(&mut self.scratch);
        fill.clear();
        fill.resize(n, 0);
        for &block in &func.layout {
            let b = block.index();
            if let Some(term) = func.blocks[block].terminator.as_ref() {
                for s in term.successors() {
                    let len = self.succ_len[b] as usize;
                    if self.succ[b][..len].contains(&s) || s.index() >= n {
                        continue;
                    }
                    self.succ[b][len] = s;
                    self.succ_len[b] += 1;
                    fill[s.index()] += 1;
                }
            }
        }
        // Prefix sums (the last start, the total, is set after the loop), then fill in layout
        // order (so each list is in layout order).
        let mut acc = 0u32;
        for (start, count) in self.pred_start.iter_mut().zip(fill.iter_mut()) {
            *start = acc;
            acc += *count;
            *count = *start;
        }
        self.pred_start[n] = acc;
        self.pred.clear();
        self.pred.resize(acc as usize, Block::new(0));
        for &block in &func.layout {
            let b = block.index();
            for k in 0..self.succ_len[b] as usize {
                let s = self.succ[b][k].index();
                self.pred[fill[s] as usize] = block;
                fill[s] += 1;
            }
        }
        self.scratch = fill;
        self.reverse_post_order(func);
        for (i, &b) in self.rpo.iter().enumerate() {
            self.rpo_index[b.index()] = i as u32;
        }
    }

    /// The distinct successors of `block`.
    #[inline]
    pub fn succs(&self, block: Block) -> &[Block] {
        let b = block.index();
        match self.succ.get(b) {
            Some(s) => &s[..self.succ_len[b] as usize],
            None => &[],
        }
    }

    /// The distinct predecessors of `block` (reachable or not), in layout order.
    #[inline]
    pub fn preds(&self, block: Block) -> &[Block] {
        let b = block.index();
        match (self.pred_start.get(b), self.pred_start.get(b + 1)) {
            (Some(&lo), Some(&hi)) => &self.pred[lo as usize..hi as usize],
            _ => &[],
        }
    }

    /// The block every execution of `block` comes from, if there is one: its only
    /// predecessor, when `block` is reachable and not the entry (the entry is also entered
    /// when the function starts, which no edge describes). What holds at the end of that
    /// predecessor holds on entry to `block`. (A reachable block other than the entry is
    /// entered only along edges from reachable blocks, so that predecessor is reachable and
    /// is not `block` itself; an unreachable block has no executions and gets `None`.)
    #[inline]
    pub fn only_pred(&self, block: Block) -> Option<Block> {
        match *self.preds(block) {
            [p] if self.rpo_index(block).is_some_and(|i| i > 0) => Some(p),
            _ => None,
        }
    }

    /// Blocks reachable from the entry, in reverse post-order.
    #[inline]
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }

    /// Position of `block` in the reverse post-order, or `None` when unreachable.
    #[inline]
    pub fn rpo_index(&self, block: Block) -> Option<u32> {
        self.rpo_index
            .get(block.index())
            .copied()
            .filter(|&i| i != UNREACHABLE)
    }

    /// Whether `block` is reachable from the entry.
    #[inline]
    pub fn is_reachable(&self, block: Block) -> bool {
        self.rpo_index(block).is_some()
    }

    /// A map with a default entry for every block of the function (one allocation).
    fn block_map<V: Clone + Default>(&self) -> SecondaryMap<Block, V> {
        crate::function::dense_map(self.succ.len())
    }

    /// Which reachable blocks lie in a loop: those of nonzero [`Cfg::loop_depths`].
    pub fn blocks_in_loops(&self) -> SecondaryMap<Block, bool> {
        let depth = self.loop_depths();
        let mut in_loop: SecondaryMap<Block, bool> = self.block_map();
        for &b in &self.rpo {
            in_loop[b] = depth[b] > 0;
        }
        in_loop
    }

    /// How many loops each reachable block lies in (0 outside every loop): each loop header
    /// `h` (the target of a retreating edge `t -> h`, `h` no later than `t` in reverse
    /// post-order) counts once for every block of the union of its retreating edges' natural
    /// loops, found by walking predecessors back from `t` to `h`. Exact for reducible CFGs; for
    /// irreducible ones it may miss blocks, which is fine for its users (heuristics: the
    /// inliner's loop test, the lowering's branch order), never soundness.
    pub fn loop_depths(&self) -> SecondaryMap<Block, u32> {
        let mut depth = SecondaryMap::new();
        self.loop_depths_into(&mut depth, &mut SecondaryMap::new(), &mut Vec::new());
        depth
    }

    /// [`Cfg::loop_depths`] into `depth` (emptied first), with `mark` and `work` as working
    /// storage: for a caller that computes the depths of one function after another.
    pub fn loop_depths_into(
        &self,
        depth: &mut SecondaryMap<Block, u32>,
        mark: &mut SecondaryMap<Block, u32>,
        work: &mut Vec<Block>,
    ) {
        self.loop_depths_within(depth, mark, work, u64::MAX);
    }

    /// [`Cfg::loop_depths_into`] while the depths add up to at most `max_sum`: returns
    /// `false`, with the depths incomplete, as soon as they exceed it. The walk costs the sum
    /// of the depths, which a nest of `d` loops makes about `d²`; a caller that only needs
    /// the depths of ordinary code bounds it.
    pub fn loop_depths_within(
        &self,
        depth: &mut SecondaryMap<Block, u32>,
        mark: &mut SecondaryMap<Block, u32>,
        work: &mut Vec<Block>,
        max_sum: u64,
    ) -> bool {
        let mut sum = 0u64;
        let n = self.succ.len();
        depth.clear();
        depth.resize(n);
        mark.clear();
        mark.resize(n);
        work.clear();
        for (k, &head) in self.rpo.iter().enumerate() {
            let h = k as u32;
            let stamp = h + 1;
            for &tail in self.preds(head) {
                if self.rpo_index(tail).is_none_or(|t| t < h) {
                    continue; // not a retreating edge
                }
                if mark[head] != stamp {
                    mark[head] = stamp;
                    depth[head] += 1;
                    sum += 1;
                }
                if mark[tail] != stamp {
                    mark[tail] = stamp;
                    depth[tail] += 1;
                    sum += 1;
                    work.push(tail);
                }
                while let Some(b) = work.pop() {
                    for &p in self.preds(b) {
                        let within = self.rpo_index(p).is_some_and(|i| i >= h);
                        if within && mark[p] != stamp {
                            mark[p] = stamp;
                            depth[p] += 1;
                            sum += 1;
                            work.push(p);
                        }
                    }
                    if sum > max_sum {
                        work.clear();
                        return false;
                    }
                }
            }
        }
        true
    }

    fn reverse_post_order(&mut self, func: &Function) {
        let Some(entry) = func.entry() else {
            return;
        };
        // Visited marks in `scratch` (free again once the predecessor lists are built).
        let mut visited = std::mem::take(&mut self.scratch);
        visited.clear();
        visited.resize(self.succ.len(), 0);
        let Some(v) = visited.get_mut(entry.index()) else {
            self.scratch = visited;
            return;
        };
        *v = 1;
        // Explicit stack of (block, next successor index).
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.reserve(self.succ.len());
        self.rpo.reserve(self.succ.len());
        stack.push((entry, 0));
        while let Some(top) = stack.last_mut() {
            let (block, next) = *top;
            if let Some(&succ) = self.succs(block).get(next) {
                top.1 += 1;
                if visited[succ.index()] == 0 {
                    visited[succ.index()] = 1;
                    stack.push((succ, 0));
                }
            } else {
                self.rpo.push(block);
                stack.pop();
            }
        }
        self.rpo.reverse();
        self.scratch = visited;
        self.stack = stack;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `reserve_at_least` makes room only when the storage is too small (for the blocks, or
    /// for their at most twice as many edges), and then for `room` blocks.
    #[test]
    fn reserve_at_least_grows_only_when_needed_and_then_with_room() {
        let mut cfg = Cfg::default();
        cfg.reserve_at_least(10, 64);
        assert!(cfg.succ.capacity() >= 64 && cfg.pred.capacity() >= 128);
        // Exactly enough room already (64 blocks, 128 edges): nothing replaced.
        cfg.succ = Vec::with_capacity(64);
        cfg.pred = Vec::with_capacity(128);
        let (succ, pred) = (cfg.succ.capacity(), cfg.pred.capacity());
        cfg.reserve_at_least(succ, 1000);
        assert_eq!((cfg.succ.capacity(), cfg.pred.capacity()), (succ, pred));
        cfg.reserve_at_least(pred / 2, 1000);
        assert_eq!((cfg.succ.capacity(), cfg.pred.capacity()), (succ, pred));
        // Room for the blocks but not for twice as many edges: made.
        cfg.pred = Vec::with_capacity(15);
        cfg.reserve_at_least(10, 100);
        assert!(cfg.succ.capacity() >= 100 && cfg.pred.capacity() >= 200);
        // Room for the edges but not for the blocks: made.
        cfg.succ = Vec::new();
        cfg.reserve_at_least(65, 65);
        assert!(cfg.succ.capacity() >= 65 && cfg.pred.capacity() >= 130);
        // `room` below `blocks` still makes room for the blocks.
        cfg.reserve_at_least(500, 1);
        assert!(cfg.succ.capacity() >= 500 && cfg.rpo_index.capacity() >= 500);
    }
}
