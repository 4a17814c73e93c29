//! Strongly connected components of a CFG's reachable blocks, in topological order.
//!
//! A dataflow fixpoint over a CFG only needs to iterate inside a component: every edge between
//! two components goes forward in this order, so once the components before one are stable
//! its inputs are final, and a component without a cycle (one block, no self-loop) is
//! evaluated exactly once. Tarjan's algorithm, iterative (no recursion, so a function of any
//! size is fine), linear in blocks and edges.

use crate::cfg::Cfg;
use crate::{Block, EntityRef};

/// The components of the reachable blocks: component `k` is
/// `blocks()[starts[k]..starts[k + 1]]`, its blocks in reverse post-order.
#[derive(Clone, Debug, Default)]
pub struct Components {
    blocks: Vec<Block>,
    /// Start of each component in `blocks`, plus the total at the end.
    starts: Vec<u32>,
    /// Whether each component has a cycle (more than one block, or a block branching to
    /// itself).
    cyclic: Vec<bool>,
}

/// Per-block state of Tarjan's search.
#[derive(Copy, Clone, Default)]
struct Visit {
    /// Discovery number, from 1 (0: not visited yet).
    index: u32,
    /// The smallest discovery number reachable through the search tree and one edge back.
    low: u32,
    on_stack: bool,
}

/// Gives `b` the next discovery number and puts it on Tarjan's stack and the search path.
fn discover(
    b: Block,
    next_index: &mut u32,
    visit: &mut [Visit],
    stack: &mut Vec<Block>,
    path: &mut Vec<(Block, usize)>,
) {
    visit[b.index()] = Visit {
        index: *next_index,
        low: *next_index,
        on_stack: true,
    };
    *next_index += 1;
    stack.push(b);
    path.push((b, 0));
}

impl Components {
    /// The components of `cfg`'s reachable blocks, in topological order: an edge from a block
    /// of component `i` to a block of component `j` has `i <= j`.
    pub fn of(cfg: &Cfg) -> Components {
        let n = cfg.rpo().iter().map(|b| b.index() + 1).max().unwrap_or(0);
        let mut visit = vec![Visit::default(); n];
        let mut out = Components {
            blocks: Vec::with_capacity(cfg.rpo().len()),
            starts: Vec::with_capacity(cfg.rpo().len() + 1),
            cyclic: Vec::with_capacity(cfg.rpo().len()),
        };
        let reachable = cfg.rpo().len();
        let mut next_index = 1u32;
        let mut stack: Vec<Block> = Vec::with_capacity(reachable);
        // The search's path: each block with the index of its next successor to look at.
        let mut path: Vec<(Block, usize)> = Vec::with_capacity(reachable);
        // Tarjan emits a component when its root finishes: reverse topological order.
        let mut emitted: Vec<(u32, u32, bool)> = Vec::with_capacity(reachable);
        let mut members: Vec<Block> = Vec::with_capacity(reachable);
        for &root in cfg.rpo() {
            if visit[root.index()].index != 0 {
                continue;
            }
            discover(root, &mut next_index, &mut visit, &mut stack, &mut path);
            while let Some(top) = path.last_mut() {
                let (v, next) = *top;
                if let Some(&w) = cfg.succs(v).get(next) {
                    top.1 += 1;
                    let Some(seen) = visit.get(w.index()).copied() else {
                        continue; // not reachable
                    };
                    if seen.index == 0 {
                        discover(w, &mut next_index, &mut visit, &mut stack, &mut path);
                    } else if seen.on_stack {
                        let low = &mut visit[v.index()].low;
                        *low = (*low).min(seen.index);
                    }
                    continue;
                }
                path.pop();
                let Visit { index, low, .. } = visit[v.index()];
                if let Some(&(parent, _)) = path.last() {
                    let parent_low = &mut visit[parent.index()].low;
                    *parent_low = (*parent_low).min(low);
                }
                if low == index {
                    let start = members.len() as u32;
                    while let Some(w) = stack.pop() {
                        visit[w.index()].on_stack = false;
                        members.push(w);
                        if w == v {
                            break;
                        }
                    }
                    let end = members.len() as u32;
                    let cyclic = end - start > 1 || cfg.succs(v).contains(&v);
                    emitted.push((start, end, cyclic));
                }
            }
        }
        for &(start, end, cyclic) in emitted.iter().rev() {
            out.starts.push(out.blocks.len() as u32);
            let first = out.blocks.len();
            out.blocks
                .extend_from_slice(&members[start as usize..end as usize]);
            out.blocks[first..].sort_unstable_by_key(|&b| cfg.rpo_index(b));
            out.cyclic.push(cyclic);
        }
        out.starts.push(out.blocks.len() as u32);
        out
    }

    /// Number of components.
    pub fn len(&self) -> usize {
        self.cyclic.len()
    }

    /// Whether there are no components (no reachable block).
    pub fn is_empty(&self) -> bool {
        self.cyclic.is_empty()
    }

    /// The blocks of component `k`, in reverse post-order.
    pub fn blocks(&self, k: usize) -> &[Block] {
        &self.blocks[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    /// Whether component `k` has a cycle.
    pub fn is_cyclic(&self, k: usize) -> bool {
        self.cyclic[k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    fn components(src: &str) -> Vec<(Vec<String>, bool)> {
        let module = parse(src).unwrap();
        let func = &module.funcs.values().next().unwrap();
        let cfg = Cfg::compute(func);
        let c = Components::of(&cfg);
        (0..c.len())
            .map(|k| {
                let names = c
                    .blocks(k)
                    .iter()
                    .map(|&b| func.blocks[b].name.to_string())
                    .collect();
                (names, c.is_cyclic(k))
            })
            .collect()
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn nested_and_sequential_loops_are_one_component_each_in_order() {
        let src = "fn f(n: i64) -> i64 {
    var i: i64
    var j: i64
    var t: bool
entry:
    i = copy 0
    br outer
outer:
    t = slt i, n
    brif t, inner, mid
inner:
    j = add i, 1
    t = slt j, n
    brif t, inner2, outer_latch
inner2:
    br inner
outer_latch:
    i = add i, 1
    br outer
mid:
    br self_loop
self_loop:
    t = slt i, 0
    brif t, self_loop, done
dead:
    br dead
done:
    ret i
}
";
        assert_eq!(
            components(src),
            vec![
                (names(&["entry"]), false),
                (names(&["outer", "inner", "outer_latch", "inner2"]), true),
                (names(&["mid"]), false),
                (names(&["self_loop"]), true),
                (names(&["done"]), false),
            ]
        );
    }

    #[test]
    fn no_reachable_block_is_no_component() {
        let c = Components::of(&Cfg::default());
        assert!(c.is_empty());
        assert_eq!(c.len(), 0);
        let module = parse("fn f() {\nentry:\n    ret\n}\n").unwrap();
        let c = Components::of(&Cfg::compute(module.funcs.values().next().unwrap()));
        assert!(!c.is_empty() && c.len() == 1 && !c.is_cyclic(0));
    }

    #[test]
    fn a_loop_through_the_entry_is_one_component() {
        let src = "fn f(n: i64) -> i64 {
    var t: bool
entry:
    t = slt n, 0
    brif t, body, done
body:
    br entry
done:
    ret n
}
";
        assert_eq!(
            components(src),
            vec![(names(&["entry", "body"]), true), (names(&["done"]), false)]
        );
    }

    #[test]
    fn every_edge_goes_forward_and_every_reachable_block_is_listed_once() {
        // A diamond inside a loop with an exit from its middle, and an irreducible pair.
        let src = "fn f(n: i64) -> i64 {
    var t: bool
entry:
    t = slt n, 0
    brif t, a, b
a:
    t = slt n, 1
    brif t, b, c
b:
    t = slt n, 2
    brif t, a, d
c:
    t = slt n, 3
    brif t, exit, d
d:
    br a
exit:
    ret n
}
";
        let module = parse(src).unwrap();
        let func = module.funcs.values().next().unwrap();
        let cfg = Cfg::compute(func);
        let c = Components::of(&cfg);
        let mut comp_of = vec![usize::MAX; func.blocks.len()];
        for k in 0..c.len() {
            for &b in c.blocks(k) {
                assert_eq!(comp_of[b.index()], usize::MAX, "listed twice");
                comp_of[b.index()] = k;
            }
        }
        for &b in cfg.rpo() {
            assert_ne!(comp_of[b.index()], usize::MAX, "missing");
            for &s in cfg.succs(b) {
                assert!(comp_of[b.index()] <= comp_of[s.index()]);
            }
        }
        assert_eq!(
            components(src),
            vec![
                (names(&["entry"]), false),
                (names(&["a", "c", "b", "d"]), true),
                (names(&["exit"]), false),
            ]
        );
    }
}
