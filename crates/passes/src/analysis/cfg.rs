//! Control-flow graph: successors, predecessors and a reverse post-order of the blocks
//! reachable from the entry. Computed iteratively (no recursion), so a function of any size
//! is fine.

use poolopt_ir::{Block, EntityRef, Function, SecondaryMap};

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
}

const UNREACHABLE: u32 = u32::MAX;

impl Cfg {
    /// Computes the CFG of `func`. Successors of a `brif` with equal targets are listed once.
    pub fn compute(func: &Function) -> Cfg {
        let n = func.blocks.len();
        let mut cfg = Cfg {
            succ: vec![[Block::new(0); 2]; n],
            succ_len: vec![0; n],
            pred_start: vec![0; n + 1],
            pred: Vec::new(),
            rpo: Vec::with_capacity(func.layout.len()),
            rpo_index: vec![UNREACHABLE; n],
        };
        let mut npreds = vec![0u32; n + 1];
        for &block in &func.layout {
            let b = block.index();
            if let Some(term) = func.blocks[block].terminator.as_ref() {
                for s in term.successors() {
                    let len = cfg.succ_len[b] as usize;
                    if cfg.succ[b][..len].contains(&s) || s.index() >= n {
                        continue;
                    }
                    cfg.succ[b][len] = s;
                    cfg.succ_len[b] += 1;
                    npreds[s.index()] += 1;
                }
            }
        }
        // Prefix sums, then fill in layout order (so each list is in layout order).
        let mut acc = 0u32;
        for (start, &count) in cfg.pred_start.iter_mut().zip(&npreds) {
            *start = acc;
            acc += count;
        }
        cfg.pred_start[n] = acc;
        cfg.pred = vec![Block::new(0); acc as usize];
        let mut fill: Vec<u32> = cfg.pred_start[..n].to_vec();
        for &block in &func.layout {
            let b = block.index();
            for k in 0..cfg.succ_len[b] as usize {
                let s = cfg.succ[b][k].index();
                cfg.pred[fill[s] as usize] = block;
                fill[s] += 1;
            }
        }
        cfg.reverse_post_order(func);
        for (i, &b) in cfg.rpo.iter().enumerate() {
            cfg.rpo_index[b.index()] = i as u32;
        }
        cfg
    }

    /// The distinct successors of `block`.
    pub fn succs(&self, block: Block) -> &[Block] {
        let b = block.index();
        match self.succ.get(b) {
            Some(s) => &s[..self.succ_len[b] as usize],
            None => &[],
        }
    }

    /// The distinct predecessors of `block` (reachable or not).
    pub fn preds(&self, block: Block) -> &[Block] {
        let b = block.index();
        match (self.pred_start.get(b), self.pred_start.get(b + 1)) {
            (Some(&lo), Some(&hi)) => &self.pred[lo as usize..hi as usize],
            _ => &[],
        }
    }

    /// Blocks reachable from the entry, in reverse post-order.
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }

    /// Position of `block` in the reverse post-order, or `None` when unreachable.
    pub fn rpo_index(&self, block: Block) -> Option<u32> {
        self.rpo_index
            .get(block.index())
            .copied()
            .filter(|&i| i != UNREACHABLE)
    }

    /// Whether `block` is reachable from the entry.
    pub fn is_reachable(&self, block: Block) -> bool {
        self.rpo_index(block).is_some()
    }

    /// Which reachable blocks lie in a loop: the bodies of the natural loops of every
    /// retreating edge `t -> h` (`h` no later than `t` in reverse post-order), found by walking
    /// predecessors back from `t` to `h`. Exact for reducible CFGs; for irreducible ones it may
    /// miss blocks, which is fine for its users (heuristics, never soundness).
    pub fn blocks_in_loops(&self) -> SecondaryMap<Block, bool> {
        let mut in_loop: SecondaryMap<Block, bool> = SecondaryMap::new();
        let mut work = Vec::new();
        for &tail in &self.rpo {
            let Some(t) = self.rpo_index(tail) else {
                continue;
            };
            for &head in self.succs(tail) {
                let Some(h) = self.rpo_index(head) else {
                    continue;
                };
                if h > t {
                    continue;
                }
                in_loop[head] = true;
                if head == tail {
                    continue;
                }
                let mut seen: SecondaryMap<Block, bool> = SecondaryMap::new();
                seen[head] = true;
                seen[tail] = true;
                in_loop[tail] = true;
                work.push(tail);
                while let Some(b) = work.pop() {
                    for &p in self.preds(b) {
                        let within = self.rpo_index(p).is_some_and(|i| i >= h);
                        if within && !seen[p] {
                            seen[p] = true;
                            in_loop[p] = true;
                            work.push(p);
                        }
                    }
                }
            }
        }
        in_loop
    }

    fn reverse_post_order(&mut self, func: &Function) {
        let Some(entry) = func.entry() else {
            return;
        };
        let mut visited = vec![false; self.succ.len()];
        let Some(v) = visited.get_mut(entry.index()) else {
            return;
        };
        *v = true;
        // Explicit stack of (block, next successor index).
        let mut stack: Vec<(Block, usize)> = vec![(entry, 0)];
        while let Some(top) = stack.last_mut() {
            let (block, next) = *top;
            if let Some(&succ) = self.succs(block).get(next) {
                top.1 += 1;
                if !visited[succ.index()] {
                    visited[succ.index()] = true;
                    stack.push((succ, 0));
                }
            } else {
                self.rpo.push(block);
                stack.pop();
            }
        }
        self.rpo.reverse();
    }
}
