//! Control-flow graph: successors, predecessors and a reverse post-order of the blocks
//! reachable from the entry. Computed iteratively (no recursion), so a function of any size
//! is fine.

use poolopt_ir::{Block, Function, SecondaryMap};

/// Successor and predecessor lists of every block in the layout, and the reverse post-order of
/// the reachable ones.
#[derive(Clone, Debug, Default)]
pub struct Cfg {
    succs: SecondaryMap<Block, Vec<Block>>,
    preds: SecondaryMap<Block, Vec<Block>>,
    rpo: Vec<Block>,
    rpo_index: SecondaryMap<Block, Option<u32>>,
}

impl Cfg {
    /// Computes the CFG of `func`. Successors of a `brif` with equal targets are listed once.
    pub fn compute(func: &Function) -> Cfg {
        let mut cfg = Cfg::default();
        for &block in &func.layout {
            let mut succs: Vec<Block> = Vec::with_capacity(2);
            if let Some(term) = func.blocks[block].terminator.as_ref() {
                for s in term.successors() {
                    if !succs.contains(&s) {
                        succs.push(s);
                    }
                }
            }
            for &s in &succs {
                cfg.preds[s].push(block);
            }
            cfg.succs[block] = succs;
        }
        cfg.rpo = reverse_post_order(func, &cfg.succs);
        for (i, &b) in cfg.rpo.iter().enumerate() {
            cfg.rpo_index[b] = Some(i as u32);
        }
        cfg
    }

    /// The distinct successors of `block`.
    pub fn succs(&self, block: Block) -> &[Block] {
        &self.succs[block]
    }

    /// The distinct predecessors of `block` (reachable or not).
    pub fn preds(&self, block: Block) -> &[Block] {
        &self.preds[block]
    }

    /// Blocks reachable from the entry, in reverse post-order.
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }

    /// Position of `block` in the reverse post-order, or `None` when unreachable.
    pub fn rpo_index(&self, block: Block) -> Option<u32> {
        self.rpo_index[block]
    }

    /// Whether `block` is reachable from the entry.
    pub fn is_reachable(&self, block: Block) -> bool {
        self.rpo_index[block].is_some()
    }

    /// Which reachable blocks lie in a loop: the bodies of the natural loops of every
    /// retreating edge `t -> h` (`h` no later than `t` in reverse post-order), found by walking
    /// predecessors back from `t` to `h`. Exact for reducible CFGs; for irreducible ones it may
    /// miss blocks, which is fine for its users (heuristics, never soundness).
    pub fn blocks_in_loops(&self) -> SecondaryMap<Block, bool> {
        let mut in_loop: SecondaryMap<Block, bool> = SecondaryMap::new();
        let mut work = Vec::new();
        for &tail in &self.rpo {
            let Some(t) = self.rpo_index[tail] else {
                continue;
            };
            for &head in &self.succs[tail] {
                let Some(h) = self.rpo_index[head] else {
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
                    for &p in &self.preds[b] {
                        let within = self.rpo_index[p].is_some_and(|i| i >= h);
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
}

fn reverse_post_order(func: &Function, succs: &SecondaryMap<Block, Vec<Block>>) -> Vec<Block> {
    let Some(entry) = func.entry() else {
        return Vec::new();
    };
    let mut visited: SecondaryMap<Block, bool> = SecondaryMap::new();
    let mut post = Vec::new();
    // Explicit stack of (block, next successor index).
    let mut stack: Vec<(Block, usize)> = vec![(entry, 0)];
    visited[entry] = true;
    while let Some(top) = stack.last_mut() {
        let (block, next) = *top;
        if let Some(&succ) = succs[block].get(next) {
            top.1 += 1;
            if !visited[succ] {
                visited[succ] = true;
                stack.push((succ, 0));
            }
        } else {
            post.push(block);
            stack.pop();
        }
    }
    post.reverse();
    post
}
