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
///
/// [`Components::compute`] recomputes them in the buffers of an earlier result (its search's
/// work space included), so that a client that needs the components of one function after
/// another allocates nothing once the buffers have grown.
#[derive(Clone, Debug, Default)]
pub struct Components {
    blocks: Vec<Block>,
    /// Start of each component in `blocks`, plus the total at the end.
    starts: Vec<u32>,
    /// Whether each component has a cycle (more than one block, or a block branching to
    /// itself).
    cyclic: Vec<bool>,
    /// The work space of Tarjan's search, kept for the next computation.
    scratch: Tarjan,
}

/// The work space of Tarjan's search (see [`Components::compute`]).
#[derive(Clone, Debug, Default)]
struct Tarjan {
    visit: Vec<Visit>,
    stack: Vec<Block>,
    /// The search's path: each block with the index of its next successor to look at.
    path: Vec<(Block, usize)>,
    /// The components as emitted, in reverse topological order: how many blocks each has
    /// and whether it is cyclic.
    emitted: Vec<(u32, bool)>,
    /// Per component (in topological order): where its next block goes in `blocks`.
    place: Vec<u32>,
}

/// Per-block state of Tarjan's search.
#[derive(Copy, Clone, Debug, Default)]
struct Visit {
    /// Discovery number, from 1 (0: not visited yet).
    index: u32,
    /// The smallest discovery number reachable through the search tree and one edge back.
    low: u32,
    on_stack: bool,
    /// The component the block is in, by emission (reverse topological) order.
    emitted_as: u32,
}

/// Makes `v` hold at least `need` elements without growing: when it cannot, replaces it (its
/// contents are about to be recomputed) with one of capacity `room`.
fn make_room<T>(v: &mut Vec<T>, need: usize, room: usize) {
    if v.capacity() < need {
        *v = Vec::with_capacity(room.max(need));
    }
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
        emitted_as: 0,
    };
    *next_index += 1;
    stack.push(b);
    path.push((b, 0));
}

impl Components {
    /// The components of `cfg`'s reachable blocks, in topological order: an edge from a block
    /// of component `i` to a block of component `j` has `i <= j`.
    pub fn of(cfg: &Cfg) -> Components {
        let mut out = Components::default();
        out.compute(cfg);
        out
    }

    /// Makes `self` the components of `cfg` (as [`Components::of`]), reusing its buffers.
    pub fn compute(&mut self, cfg: &Cfg) {
        let n = cfg.rpo().iter().map(|b| b.index() + 1).max().unwrap_or(0);
        let Tarjan {
            visit,
            stack,
            path,
            emitted,
            place,
        } = &mut self.scratch;
        // A buffer too small for this function is replaced (its contents are recomputed) by
        // one with room for twice its blocks (at least 64, at most 4,096 more): the functions
        // of a module come in roughly increasing size, and growing to each in turn cost more
        // than the allocations the reuse saves.
        let reachable = cfg.rpo().len();
        let room = |need: usize| {
            if need <= 4096 {
                (2 * need).max(64)
            } else {
                need
            }
        };
        make_room(visit, n, room(n));
        visit.clear();
        visit.resize(n, Visit::default());
        for v in [&mut *stack, &mut self.blocks] {
            make_room(v, reachable, room(reachable));
            v.clear();
        }
        make_room(path, reachable, room(reachable));
        path.clear();
        make_room(emitted, reachable, room(reachable));
        emitted.clear();
        make_room(place, reachable, room(reachable));
        make_room(&mut self.starts, reachable + 1, room(reachable + 1));
        self.starts.clear();
        make_room(&mut self.cyclic, reachable, room(reachable));
        self.cyclic.clear();
        let mut next_index = 1u32;
        for &root in cfg.rpo() {
            if visit[root.index()].index != 0 {
                continue;
            }
            discover(root, &mut next_index, visit, stack, path);
            while let Some(top) = path.last_mut() {
                let (v, next) = *top;
                if let Some(&w) = cfg.succs(v).get(next) {
                    top.1 += 1;
                    let Some(seen) = visit.get(w.index()).copied() else {
                        continue; // not reachable
                    };
                    if seen.index == 0 {
                        discover(w, &mut next_index, visit, stack, path);
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
                    let mut size = 0;
                    while let Some(w) = stack.pop() {
                        visit[w.index()].on_stack = false;
                        visit[w.index()].emitted_as = emitted.len() as u32;
                        size += 1;
                        if w == v {
                            break;
                        }
                    }
                    let cyclic = size > 1 || cfg.succs(v).contains(&v);
                    emitted.push((size, cyclic));
                }
            }
        }
        // Each component's blocks in reverse post-order: one pass over the order, each block
        // put at the next place of its component (a sort per component compared blocks by
        // their position, looked up at every comparison).
        place.clear();
        let mut total = 0;
        for &(size, cyclic) in emitted.iter().rev() {
            self.starts.push(total);
            place.push(total);
            total += size;
            self.cyclic.push(cyclic);
        }
        self.starts.push(total);
        self.blocks.resize(total as usize, Block::new(0));
        for &b in cfg.rpo() {
            // Emitted last is first in topological order.
            let k = emitted.len() - 1 - visit[b.index()].emitted_as as usize;
            self.blocks[place[k] as usize] = b;
            place[k] += 1;
        }
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

    /// Recomputing into the buffers of earlier results (larger and smaller functions, and a
    /// function without reachable blocks, one after another) gives what a fresh computation
    /// gives: the same components, each in reverse post-order, and the same cycles.
    #[test]
    fn recomputing_in_used_buffers_matches_a_fresh_computation() {
        let sources = [
            "fn f(n: i64) -> i64 {\n    var t: bool\nentry:\n    t = slt n, 0\n    brif t, a, b\na:\n    t = slt n, 1\n    brif t, b, c\nb:\n    t = slt n, 2\n    brif t, a, d\nc:\n    t = slt n, 3\n    brif t, exit, d\nd:\n    br a\nexit:\n    ret n\n}\n",
            "fn f() {\nentry:\n    ret\n}\n",
            "fn f(n: i64) -> i64 {\n    var t: bool\nentry:\n    t = slt n, 0\n    brif t, body, done\nbody:\n    br entry\ndone:\n    ret n\n}\n",
            "fn f(n: i64) -> i64 {\n    var t: bool\nentry:\n    br outer\nouter:\n    t = slt n, 0\n    brif t, inner, done\ninner:\n    t = slt n, 1\n    brif t, inner2, latch\ninner2:\n    br inner\nlatch:\n    br outer\ndead:\n    br dead\ndone:\n    ret n\n}\n",
        ];
        let listed = |c: &Components| {
            (0..c.len())
                .map(|k| (c.blocks(k).to_vec(), c.is_cyclic(k)))
                .collect::<Vec<_>>()
        };
        let mut reused = Components::default();
        for round in 0..2 {
            for src in sources {
                let module = parse(src).unwrap();
                let cfg = Cfg::compute(module.funcs.values().next().unwrap());
                reused.compute(&cfg);
                assert_eq!(listed(&reused), listed(&Components::of(&cfg)), "{src}");
                for k in 0..reused.len() {
                    let order: Vec<_> =
                        reused.blocks(k).iter().map(|&b| cfg.rpo_index(b)).collect();
                    assert!(
                        order.windows(2).all(|w| w[0] < w[1]),
                        "round {round}: {src}"
                    );
                }
            }
            reused.compute(&Cfg::default());
            assert!(reused.is_empty());
        }
    }
}
