//! Dominator tree, by the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
//! Dominance Algorithm") over the reverse post-order. No recursion: a 100,000-block function is
//! fine.

use crate::cfg::Cfg;
use crate::room::{map_room, vec_room};
use crate::{Block, EntityRef, SecondaryMap};

/// Immediate dominators of the reachable blocks.
#[derive(Clone, Debug, Default)]
pub struct DomTree {
    idom: SecondaryMap<Block, Option<Block>>,
    rpo_index: SecondaryMap<Block, Option<u32>>,
    /// Pre-order number of each reachable block in the tree (from 1; 0: unreachable) and the
    /// number after its subtree: `a` dominates `b` exactly when `pre[a] <= pre[b] < end[a]`,
    /// two comparisons instead of a walk up the tree (quadratic on a deep chain of diamonds).
    pre: SecondaryMap<Block, u32>,
    end: SecondaryMap<Block, u32>,
    /// Storage of the numbering walk, kept for [`DomTree::recompute`].
    first_child: Vec<u32>,
    next_sibling: Vec<u32>,
    stack: Vec<Block>,
}

impl DomTree {
    /// Computes the dominator tree from a CFG.
    pub fn compute(cfg: &Cfg) -> DomTree {
        let mut tree = DomTree::default();
        tree.recompute(cfg);
        tree
    }

    /// Makes room for a function of `blocks` blocks, so that recomputing the tree for one
    /// allocates nothing (each table that must grow is replaced, not copied: its contents are
    /// about to be recomputed).
    pub fn reserve(&mut self, blocks: usize) {
        map_room(&mut self.idom, blocks);
        map_room(&mut self.rpo_index, blocks);
        map_room(&mut self.pre, blocks);
        map_room(&mut self.end, blocks);
        vec_room(&mut self.first_child, blocks);
        vec_room(&mut self.next_sibling, blocks);
        vec_room(&mut self.stack, blocks);
    }

    /// Computes the dominator tree of `cfg` in place, reusing this tree's storage (for a
    /// caller that computes one tree after another).
    pub fn recompute(&mut self, cfg: &Cfg) {
        let rpo = cfg.rpo();
        let tree = self;
        // Room for every block up front (filled key by key, the maps would grow one at a time).
        let n = rpo.iter().map(|b| b.index() + 1).max().unwrap_or(0);
        tree.idom.clear();
        tree.idom.resize(n);
        tree.rpo_index.clear();
        tree.rpo_index.resize(n);
        for &b in rpo {
            tree.rpo_index[b] = cfg.rpo_index(b);
        }
        let Some(&entry) = rpo.first() else {
            tree.pre.clear();
            tree.end.clear();
            return;
        };
        tree.idom[entry] = Some(entry);
        let mut changed = true;
        while changed {
            changed = false;
            for &block in &rpo[1..] {
                let mut new_idom: Option<Block> = None;
                for &pred in cfg.preds(block) {
                    if tree.idom[pred].is_none() {
                        continue; // unreachable or not yet processed
                    }
                    new_idom = Some(match new_idom {
                        None => pred,
                        Some(cur) => tree.intersect(pred, cur),
                    });
                }
                if new_idom.is_some() && tree.idom[block] != new_idom {
                    tree.idom[block] = new_idom;
                    changed = true;
                }
            }
        }
        tree.number(rpo, n);
    }

    /// Numbers the tree in pre-order (see `pre`), without recursion: first-child /
    /// next-sibling links, then one walk.
    fn number(&mut self, rpo: &[Block], n: usize) {
        const NONE: u32 = u32::MAX;
        let mut first_child = std::mem::take(&mut self.first_child);
        let mut next_sibling = std::mem::take(&mut self.next_sibling);
        let mut stack = std::mem::take(&mut self.stack);
        first_child.clear();
        first_child.resize(n, NONE);
        next_sibling.clear();
        next_sibling.resize(n, NONE);
        stack.clear();
        for &b in rpo.iter().rev() {
            if let Some(d) = self.idom(b) {
                next_sibling[b.index()] = first_child[d.index()];
                first_child[d.index()] = b.index() as u32;
            }
        }
        self.pre.clear();
        self.pre.resize(n);
        self.end.clear();
        self.end.resize(n);
        let mut next = 1u32;
        // `first_child` doubles as each node's cursor: the next child to visit.
        if let Some(&entry) = rpo.first() {
            self.pre[entry] = next;
            next += 1;
            stack.push(entry);
        }
        while let Some(&b) = stack.last() {
            let c = first_child[b.index()];
            if c == NONE {
                self.end[b] = next;
                stack.pop();
            } else {
                first_child[b.index()] = next_sibling[c as usize];
                let c = Block::new(c as usize);
                self.pre[c] = next;
                next += 1;
                stack.push(c);
            }
        }
        self.first_child = first_child;
        self.next_sibling = next_sibling;
        self.stack = stack;
    }

    fn intersect(&self, mut a: Block, mut b: Block) -> Block {
        let index = |x: Block| self.rpo_index[x].unwrap_or(0);
        while a != b {
            while index(a) > index(b) {
                a = self.idom[a].unwrap_or(a);
            }
            while index(b) > index(a) {
                b = self.idom[b].unwrap_or(b);
            }
        }
        a
    }

    /// The immediate dominator of `block` (`None` for the entry and unreachable blocks).
    pub fn idom(&self, block: Block) -> Option<Block> {
        self.idom[block].filter(|&d| d != block)
    }

    /// Whether `a` dominates `b` (every block dominates itself). Unreachable blocks are
    /// dominated by nothing.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        let (pa, pb) = (self.pre[a], self.pre[b]);
        pa != 0 && pb != 0 && pa <= pb && pb < self.end[a]
    }
}
