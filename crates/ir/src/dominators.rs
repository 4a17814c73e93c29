//! Dominator tree, by the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
//! Dominance Algorithm") over the reverse post-order. No recursion: a 100,000-block function is
//! fine.

use crate::cfg::Cfg;
use crate::{Block, EntityRef, SecondaryMap};

/// Immediate dominators of the reachable blocks.
#[derive(Clone, Debug, Default)]
pub struct DomTree {
    idom: SecondaryMap<Block, Option<Block>>,
    rpo_index: SecondaryMap<Block, Option<u32>>,
}

impl DomTree {
    /// Computes the dominator tree from a CFG.
    pub fn compute(cfg: &Cfg) -> DomTree {
        let rpo = cfg.rpo();
        let mut tree = DomTree::default();
        // Room for every block up front (filled key by key, the maps would grow one at a time).
        let n = rpo.iter().map(|b| b.index() + 1).max().unwrap_or(0);
        tree.idom.resize(n);
        tree.rpo_index.resize(n);
        for &b in rpo {
            tree.rpo_index[b] = cfg.rpo_index(b);
        }
        let Some(&entry) = rpo.first() else {
            return tree;
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
        tree
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
    pub fn dominates(&self, a: Block, mut b: Block) -> bool {
        if self.rpo_index[a].is_none() || self.rpo_index[b].is_none() {
            return false;
        }
        loop {
            if a == b {
                return true;
            }
            match self.idom(b) {
                Some(d) => b = d,
                None => return false,
            }
        }
    }
}
