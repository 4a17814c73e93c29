//! The module's call graph and which functions lie on a cycle of it (recursion, mutual
//! recursion), computed with Tarjan's strongly-connected-components algorithm, iteratively.
//!
//! The call-depth rule of `poolopt_ir::semantics` counts only frames of functions on a cycle
//! (plus the entry frame), so the interpreter and the JIT both ask this module. Lazy
//! compilation and the choice of engine ask it which functions an entry reaches.

use crate::{EntityRef, FuncId, InstKind, Module};

/// For each function (indexed by [`FuncId::index`]), whether it lies on a cycle of the call
/// graph: it calls itself, or it belongs to a strongly connected component of more than one
/// function. Calls of undeclared functions are ignored (the verifier rejects them).
pub fn recursive_functions(module: &Module) -> Vec<bool> {
    let n = module.funcs.len();
    let mut callees: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut self_call = vec![false; n];
    for (fid, func) in module.funcs.iter() {
        let from = fid.index();
        for &blk in &func.layout {
            let Some(data) = func.blocks.get(blk) else {
                continue;
            };
            for &inst in &data.insts {
                if let Some(InstKind::Call { func: to, .. }) = func.insts.get(inst).map(|i| &i.kind)
                {
                    let to = to.index();
                    if to >= n {
                        continue;
                    }
                    if to == from {
                        self_call[from] = true;
                    }
                    callees[from].push(to);
                }
            }
        }
    }
    let mut on_cycle = self_call;
    for scc in strongly_connected_components(&callees) {
        if scc.len() > 1 {
            for f in scc {
                on_cycle[f] = true;
            }
        }
    }
    on_cycle
}

/// Whether function `fid` lies on a cycle of the call graph (see [`recursive_functions`]).
pub fn is_recursive(module: &Module, fid: FuncId) -> bool {
    recursive_functions(module)
        .get(fid.index())
        .copied()
        .unwrap_or(false)
}

/// Tarjan's algorithm without host recursion (a module may have a very long call chain). The
/// components come out in reverse topological order: every component after all the
/// components it reaches (callees before callers).
pub fn strongly_connected_components(succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for_each_component(
        succ.len(),
        |v, k| succ[v].get(k).copied(),
        |scc| out.push(scc.to_vec()),
    );
    out
}

/// The components of [`strongly_connected_components`], in the same order and each with its
/// members in the same order, handed to `emit` one at a time from the search's own stack:
/// nothing is allocated per component or per node's successor list. `succ(v, k)` is the
/// `k`-th successor of node `v` (`None` past the last), so a caller keeps its edges in
/// whatever form it has them (the pass manager's call graph: one flat list). The search's
/// work space is three vectors of at most `n` entries each.
pub fn for_each_component(
    n: usize,
    succ: impl Fn(usize, usize) -> Option<usize>,
    mut emit: impl FnMut(&[usize]),
) {
    /// Per node: discovery number (`NONE`: not visited yet), the smallest discovery number
    /// reachable through the search tree and one edge back, and whether it is on the stack.
    #[derive(Copy, Clone)]
    struct Visit {
        index: usize,
        low: usize,
        on_stack: bool,
    }
    const NONE: usize = usize::MAX;
    let mut visit = vec![
        Visit {
            index: NONE,
            low: 0,
            on_stack: false,
        };
        n
    ];
    let mut stack: Vec<usize> = Vec::with_capacity(n);
    let mut next_index = 0;
    // (node, position in its successor list)
    let mut work: Vec<(usize, usize)> = Vec::with_capacity(n);
    for root in 0..n {
        if visit[root].index != NONE {
            continue;
        }
        work.push((root, 0));
        while let Some(&mut (v, ref mut pos)) = work.last_mut() {
            if *pos == 0 && visit[v].index == NONE {
                visit[v] = Visit {
                    index: next_index,
                    low: next_index,
                    on_stack: true,
                };
                next_index += 1;
                stack.push(v);
            }
            if let Some(w) = succ(v, *pos) {
                *pos += 1;
                if visit[w].index == NONE {
                    work.push((w, 0));
                } else if visit[w].on_stack {
                    visit[v].low = visit[v].low.min(visit[w].index);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                visit[parent].low = visit[parent].low.min(visit[v].low);
            }
            if visit[v].low == visit[v].index {
                // The component is the stack's tail from `v` on, emitted in the order the
                // stack pops it (last pushed first).
                let from = stack.iter().rposition(|&w| w == v).unwrap_or(0);
                let members = &mut stack[from..];
                members.reverse();
                for &w in members.iter() {
                    visit[w].on_stack = false;
                }
                emit(members);
                stack.truncate(from);
            }
        }
    }
}

/// Marks the functions reachable through calls from `roots` (the roots included).
pub fn reachable_functions(module: &Module, roots: &[FuncId]) -> Vec<bool> {
    let mut reached = vec![false; module.funcs.len()];
    let mut work: Vec<FuncId> = roots.to_vec();
    while let Some(fid) = work.pop() {
        match reached.get_mut(fid.index()) {
            Some(r) if !*r => *r = true,
            _ => continue,
        }
        let Some(f) = module.funcs.get(fid) else {
            continue;
        };
        for &blk in &f.layout {
            let Some(data) = f.blocks.get(blk) else {
                continue;
            };
            for &inst in &data.insts {
                if let Some(InstKind::Call { func, .. }) = f.insts.get(inst).map(|d| &d.kind) {
                    work.push(*func);
                }
            }
        }
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sccs(succ: &[&[usize]]) -> Vec<Vec<usize>> {
        let succ: Vec<Vec<usize>> = succ.iter().map(|s| s.to_vec()).collect();
        let mut out: Vec<Vec<usize>> = strongly_connected_components(&succ)
            .into_iter()
            .map(|mut s| {
                s.sort();
                s
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn components_of_small_graphs() {
        // 0 -> 1 -> 2 -> 0 (a cycle), 2 -> 3, 3 -> 3 (self loop), 4 alone.
        assert_eq!(
            sccs(&[&[1], &[2], &[0, 3], &[3], &[]]),
            vec![vec![0, 1, 2], vec![3], vec![4]]
        );
        // A chain has only singletons.
        assert_eq!(sccs(&[&[1], &[2], &[]]), vec![vec![0], vec![1], vec![2]]);
    }

    #[test]
    fn components_come_callees_first_with_members_in_pop_order() {
        // 0 -> 1 -> 2 -> 0, 2 -> 3, 4 alone: the search from 0 closes {3} first, then pops
        // 2, 1, 0; the pass manager processes functions in exactly this order.
        let succ: Vec<Vec<usize>> = vec![vec![1], vec![2], vec![0, 3], vec![], vec![]];
        assert_eq!(
            strongly_connected_components(&succ),
            vec![vec![3], vec![2, 1, 0], vec![4]]
        );
    }

    #[test]
    fn long_chains_do_not_recurse_on_the_host_stack() {
        let n = 200_000;
        let succ: Vec<Vec<usize>> = (0..n)
            .map(|i| if i + 1 < n { vec![i + 1] } else { vec![0] })
            .collect();
        let out = strongly_connected_components(&succ);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].len(), n);
    }

    #[test]
    fn recursion_found_in_parsed_modules() {
        let m = crate::parse(
            "fn a(n: i64) -> i64 {\nentry:\n    ret n\n}\n\
             fn b(n: i64) -> i64 {\n    var r: i64\nentry:\n    r = call c(n)\n    ret r\n}\n\
             fn c(n: i64) -> i64 {\n    var r: i64\nentry:\n    r = call b(n)\n    ret r\n}\n\
             fn d(n: i64) -> i64 {\n    var r: i64\nentry:\n    r = call d(n)\n    r = call a(r)\n    ret r\n}\n",
        )
        .unwrap();
        assert_eq!(recursive_functions(&m), vec![false, true, true, true]);
    }
}
