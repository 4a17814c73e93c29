//! Strongly connected components of a CFG's reachable blocks, in topological order.
//!
//! A dataflow fixpoint over a CFG only needs to iterate inside a component: every edge between
//! two components goes forward in this order, so once the components before one are stable
//! its inputs are final, and a component without a cycle (one block, no self-loop) is
//! evaluated exactly once.
//!
//! **How.** The second half of Kosaraju's algorithm, on the CFG's reverse post-order: that
//! order is a depth-first search's from the entry ([`Cfg::rpo`]), so taking its blocks in turn
//! and collecting, from each block not yet in a component, every block not yet in one that
//! reaches it (a search along predecessor edges) gives one component per search, in
//! topological order. The first half of the algorithm, the depth-first search, is the one the
//! CFG already made. Linear in blocks and edges, iterative (no recursion, so a function of
//! any size is fine).
//!
//! **The same components, in the same order, as Tarjan's algorithm** (which this module ran
//! before, with its depth-first search taking the successors in the CFG's order from the
//! reverse post-order's first block, the entry: the search the reverse post-order comes from).
//! Tarjan's emits a component when its root, the block of it the search found first, is
//! finished, and the components were taken in the reverse of that order: by decreasing finish
//! time of their roots. Here a component is found when its first block in the reverse
//! post-order, i.e. the one finished last, comes up: its root (every other block of a
//! component is a descendant of its root in the search tree, finished before it). So both
//! take the components by decreasing finish time of their roots. (The order matters beyond
//! the topological constraint: a fact analysis's peak of stored facts depends on it.) The
//! tests compare both on random CFGs.

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
    /// The work space of the search, kept for the next computation.
    scratch: Search,
}

/// The work space of the search (see [`Components::compute`]).
#[derive(Clone, Debug, Default)]
struct Search {
    /// Per reachable block, by its position in the reverse post-order: its component, or
    /// [`OPEN`] while it is in none yet (and at the end, for a block
    /// [`Components::compute_within`] leaves out).
    component: Vec<u32>,
    /// The blocks found but not yet searched from.
    stack: Vec<Block>,
    /// Per component: where its next block goes in `blocks`.
    place: Vec<u32>,
}

/// [`Search::component`] of a block not yet in a component.
const OPEN: u32 = u32::MAX;

/// Makes `v` hold at least `need` elements without growing: when it cannot, replaces it (its
/// contents are about to be recomputed) with one of capacity `room`.
fn make_room<T>(v: &mut Vec<T>, need: usize, room: usize) {
    if v.capacity() < need {
        *v = Vec::with_capacity(room.max(need));
    }
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
        self.compute_within(cfg, |_| true);
    }

    /// Makes `self` the components of `cfg` that lie within the reachable blocks `keep`
    /// picks, in the same topological order as [`Components::compute`], reusing its buffers.
    /// `keep` must pick a set closed under predecessors (every reachable predecessor of a
    /// picked block is picked): then a component lies in it whole or not at all (each block of
    /// a component reaches every other), the search from a picked block meets only picked
    /// ones, and skipping the other roots leaves the picked components as they were. A client
    /// that only evaluates the blocks reaching some others (the fact analysis's demand) thus
    /// spends nothing on the rest.
    pub fn compute_within(&mut self, cfg: &Cfg, keep: impl Fn(Block) -> bool) {
        let rpo = cfg.rpo();
        let Search {
            component,
            stack,
            place,
        } = &mut self.scratch;
        // A buffer too small for this function is replaced (its contents are recomputed) by
        // one with room for twice its blocks (at least 64, at most 4,096 more): the functions
        // of a module come in roughly increasing size, and growing to each in turn cost more
        // than the allocations the reuse saves.
        let reachable = rpo.len();
        let room = |need: usize| {
            if need <= 4096 {
                (2 * need).max(64)
            } else {
                need
            }
        };
        make_room(component, reachable, room(reachable));
        component.clear();
        component.resize(reachable, OPEN);
        for v in [&mut *stack, &mut self.blocks] {
            make_room(v, reachable, room(reachable));
            v.clear();
        }
        make_room(place, reachable, room(reachable));
        place.clear();
        make_room(&mut self.starts, reachable + 1, room(reachable + 1));
        self.starts.clear();
        make_room(&mut self.cyclic, reachable, room(reachable));
        self.cyclic.clear();
        // Each component from its first block in the reverse post-order: the open blocks
        // that reach it. `place` counts each component's blocks for now.
        for (at, &root) in rpo.iter().enumerate() {
            if component[at] != OPEN || !keep(root) {
                continue;
            }
            let k = place.len() as u32;
            component[at] = k;
            stack.push(root);
            let mut size = 0;
            while let Some(v) = stack.pop() {
                size += 1;
                for &p in cfg.preds(v) {
                    // A predecessor may be unreachable: it has no position.
                    let Some(c) = cfg.rpo_index(p).map(|i| &mut component[i as usize]) else {
                        continue;
                    };
                    if *c == OPEN {
                        debug_assert!(keep(p), "the kept blocks are closed under predecessors");
                        *c = k;
                        stack.push(p);
                    }
                }
            }
            place.push(size);
            self.cyclic
                .push(size > 1 || cfg.succs(root).contains(&root));
        }
        // Each component's blocks in reverse post-order: one pass over the order, each block
        // put at the next place of its component.
        let mut total = 0;
        for at in place.iter_mut() {
            self.starts.push(total);
            let size = *at;
            *at = total;
            total += size;
        }
        self.starts.push(total);
        self.blocks.resize(total as usize, Block::new(0));
        for (&b, &k) in rpo.iter().zip(component.iter()) {
            if k == OPEN {
                continue; // not kept
            }
            let k = k as usize;
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

    /// The components as lists of blocks, each with whether it is cyclic, in order.
    fn listed(c: &Components) -> Vec<(Vec<Block>, bool)> {
        (0..c.len())
            .map(|k| (c.blocks(k).to_vec(), c.is_cyclic(k)))
            .collect()
    }

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

    /// The components as Tarjan's algorithm found them before (its depth-first search from
    /// the reverse post-order's blocks in turn, successors in the CFG's order), with each
    /// one's blocks in reverse post-order.
    fn tarjan_as_before(cfg: &Cfg) -> Vec<(Vec<Block>, bool)> {
        #[derive(Copy, Clone, Default)]
        struct Visit {
            index: u32,
            low: u32,
            on_stack: bool,
        }
        let n = cfg.rpo().iter().map(|b| b.index() + 1).max().unwrap_or(0);
        let mut visit = vec![Visit::default(); n];
        let (mut stack, mut path): (Vec<Block>, Vec<(Block, usize)>) = (vec![], vec![]);
        let mut emitted: Vec<(Vec<Block>, bool)> = vec![];
        let mut next_index = 1;
        let mut discover = |b: Block,
                            visit: &mut Vec<Visit>,
                            stack: &mut Vec<Block>,
                            path: &mut Vec<(Block, usize)>| {
            visit[b.index()] = Visit {
                index: next_index,
                low: next_index,
                on_stack: true,
            };
            next_index += 1;
            stack.push(b);
            path.push((b, 0));
        };
        for &root in cfg.rpo() {
            if visit[root.index()].index != 0 {
                continue;
            }
            discover(root, &mut visit, &mut stack, &mut path);
            while let Some(top) = path.last_mut() {
                let (v, next) = *top;
                if let Some(&w) = cfg.succs(v).get(next) {
                    top.1 += 1;
                    let Some(seen) = visit.get(w.index()).copied() else {
                        continue;
                    };
                    if seen.index == 0 {
                        discover(w, &mut visit, &mut stack, &mut path);
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
                    let mut members = vec![];
                    while let Some(w) = stack.pop() {
                        visit[w.index()].on_stack = false;
                        members.push(w);
                        if w == v {
                            break;
                        }
                    }
                    members.sort_by_key(|&b| cfg.rpo_index(b));
                    let cyclic = members.len() > 1 || cfg.succs(v).contains(&v);
                    emitted.push((members, cyclic));
                }
            }
        }
        emitted.reverse();
        emitted
    }

    /// A function of `blocks` blocks whose terminators a seeded generator picks: two-way
    /// branches to any block (itself included), jumps, returns; some blocks unreachable, some
    /// loops irreducible.
    fn random_function_source(seed: u64, blocks: usize) -> String {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below as u64) as usize
        };
        let mut src = String::from("fn f(n: i64) -> i64 {\n    var t: bool\n");
        for b in 0..blocks {
            src += &format!("b{b}:\n");
            match next(8) {
                0 => src += "    ret n\n",
                1 | 2 => src += &format!("    br b{}\n", next(blocks)),
                _ => {
                    src += "    t = slt n, 0\n";
                    src += &format!("    brif t, b{}, b{}\n", next(blocks), next(blocks));
                }
            }
        }
        src + "}\n"
    }

    /// The components are those Tarjan's algorithm found, in the same order, on 3,000 random
    /// CFGs of 1 to 40 blocks, computed fresh and in reused buffers.
    #[test]
    fn components_are_those_tarjan_s_algorithm_found_in_its_order() {
        let mut reused = Components::default();
        let (mut cyclic, mut several) = (0, 0);
        for seed in 0..3000u64 {
            let src = random_function_source(seed, 1 + (seed % 40) as usize);
            let module = parse(&src).unwrap();
            let cfg = Cfg::compute(module.funcs.values().next().unwrap());
            let expected = tarjan_as_before(&cfg);
            assert_eq!(listed(&Components::of(&cfg)), expected, "{src}");
            reused.compute(&cfg);
            assert_eq!(listed(&reused), expected, "{src}");
            cyclic += expected.iter().filter(|c| c.1).count();
            several += expected.iter().filter(|c| c.0.len() > 1).count();
        }
        assert!(
            cyclic > 2000 && several > 1000,
            "{cyclic} cyclic, {several} larger than one"
        );
    }

    /// The components [`Components::compute_within`] keeps, for sets closed under
    /// predecessors (the blocks reaching some picked ones), are those of
    /// [`Components::compute`] that lie in the set, in the same order, on 1,000 random CFGs,
    /// computed in reused buffers; and the set leaves components out (none of them split).
    #[test]
    fn components_within_a_set_closed_under_predecessors_are_the_full_ones_in_it() {
        let mut reused = Components::default();
        let (mut kept, mut left_out) = (0, 0);
        for seed in 0..1000u64 {
            let src = random_function_source(seed, 1 + (seed % 40) as usize);
            let module = parse(&src).unwrap();
            let func = module.funcs.values().next().unwrap();
            let cfg = Cfg::compute(func);
            let full = listed(&Components::of(&cfg));
            // The blocks reaching every third reachable block (the seed picks which).
            let mut keep = vec![false; func.blocks.len()];
            let mut work: Vec<Block> = cfg
                .rpo()
                .iter()
                .copied()
                .filter(|b| (b.index() as u64 + seed).is_multiple_of(3))
                .collect();
            while let Some(b) = work.pop() {
                if !std::mem::replace(&mut keep[b.index()], true) {
                    work.extend(cfg.preds(b).iter().filter(|p| cfg.rpo_index(**p).is_some()));
                }
            }
            reused.compute_within(&cfg, |b| keep[b.index()]);
            let within = listed(&reused);
            let expected: Vec<_> = full
                .iter()
                .filter(|(blocks, _)| keep[blocks[0].index()])
                .cloned()
                .collect();
            assert_eq!(within, expected, "{src}");
            for (blocks, _) in &full {
                assert!(blocks
                    .iter()
                    .all(|b| keep[b.index()] == keep[blocks[0].index()]));
            }
            kept += within.len();
            left_out += full.len() - within.len();
        }
        assert!(
            kept > 1000 && left_out > 1000,
            "{kept} kept, {left_out} left out"
        );
    }
}
