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
    const NONE: usize = usize::MAX;
    let n = succ.len();
    let mut index = vec![NONE; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut out = Vec::new();
    // (node, position in its successor list)
    let mut work: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        work.push((root, 0));
        while let Some(&mut (v, ref mut pos)) = work.last_mut() {
            if *pos == 0 && index[v] == NONE {
                index[v] = next_index;
                low[v] = next_index;
                next_index += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = succ[v].get(*pos) {
                *pos += 1;
                if index[w] == NONE {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut scc = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    scc.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(scc);
            }
        }
    }
    out
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
