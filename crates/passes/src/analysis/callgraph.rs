//! The module's call graph: who calls whom, which functions lie on a cycle (recursion, direct
//! or mutual), and a bottom-up order (callees before callers) for interprocedural passes.
//!
//! Computed once per pipeline run by the pass manager. Inlining a function that is on no cycle
//! never creates a cycle (it only copies edges the caller already reached through the callee),
//! so the recursion facts stay valid while the inliner rewrites bodies bottom-up.

use poolopt_ir::call_graph::for_each_component;
use poolopt_ir::{EntityRef, FuncId, InstKind, Module, SecondaryMap};

/// Call edges, strongly connected components and call-site counts of a module.
///
/// Every table is one flat vector indexed by function (the call sites of all functions in one
/// list, each function's a range of it): computed once per pipeline run, the graph is a
/// handful of allocations whatever the number of functions, where a vector per function and
/// per component cost a run over a small module more in `malloc`, `realloc` and `free` than
/// the scan of its instructions.
#[derive(Clone, Debug, Default)]
pub struct CallGraph {
    /// The call sites of every function, function after function, each in layout order (one
    /// entry per call site).
    callees: Vec<FuncId>,
    /// Where each function's call sites start in `callees`, plus the total at the end.
    starts: Vec<u32>,
    /// Whether the function is on a cycle of the call graph.
    recursive: Vec<bool>,
    /// Number of call sites that call the function, in the whole module or, after
    /// [`CallGraph::count_sites_in`], in the functions being optimized.
    call_sites: Vec<u32>,
    /// Every function, callees before callers (the members of one cycle in any order).
    bottom_up: Vec<FuncId>,
}

impl CallGraph {
    /// Builds the call graph of `module`. Calls of ids the module does not define are ignored
    /// (the verifier rejects them).
    pub fn compute(module: &Module) -> CallGraph {
        let n = module.funcs.len();
        let mut cg = CallGraph {
            // Room for a few call sites per function: most modules need no second allocation.
            callees: Vec::with_capacity(4 * n),
            starts: Vec::with_capacity(n + 1),
            recursive: vec![false; n],
            call_sites: vec![0; n],
            bottom_up: Vec::with_capacity(n),
        };
        cg.starts.push(0);
        for func in module.funcs.values() {
            for &block in &func.layout {
                for &inst in &func.blocks[block].insts {
                    if let InstKind::Call { func: callee, .. } = func.insts[inst].kind {
                        if callee.index() < n {
                            cg.callees.push(callee);
                            cg.call_sites[callee.index()] += 1;
                        }
                    }
                }
            }
            cg.starts.push(cg.callees.len() as u32);
        }
        cg.tarjan(n);
        cg
    }

    /// The call sites of each callee inside `func`, in layout order.
    pub fn callees(&self, func: FuncId) -> &[FuncId] {
        let i = func.index();
        match (self.starts.get(i), self.starts.get(i + 1)) {
            (Some(&from), Some(&to)) => &self.callees[from as usize..to as usize],
            _ => &[],
        }
    }

    /// Whether `func` is on a cycle of the call graph (it may call itself, directly or not).
    pub fn is_recursive(&self, func: FuncId) -> bool {
        self.recursive.get(func.index()).copied().unwrap_or(false)
    }

    /// How many call sites of the module (or of the functions given to
    /// [`CallGraph::count_sites_in`]) call `func`.
    pub fn call_sites(&self, func: FuncId) -> u32 {
        self.call_sites.get(func.index()).copied().unwrap_or(0)
    }

    /// Counts only the call sites inside the functions `wanted` marks: when a pipeline runs
    /// for some entries, the functions they do not reach are neither optimized nor compiled,
    /// so their calls do not keep a callee alive, and a callee called once from what the
    /// entries reach is a single-site callee for the inliner.
    pub fn count_sites_in(&mut self, wanted: &SecondaryMap<FuncId, bool>) {
        self.call_sites.fill(0);
        for caller in 0..self.starts.len().saturating_sub(1) {
            if wanted[FuncId::new(caller)] {
                let (from, to) = (self.starts[caller], self.starts[caller + 1]);
                for &callee in &self.callees[from as usize..to as usize] {
                    self.call_sites[callee.index()] += 1;
                }
            }
        }
    }

    /// Which functions calls can reach from `roots` (the roots included).
    pub fn reachable_from(&self, roots: &[FuncId]) -> SecondaryMap<FuncId, bool> {
        let n = self.recursive.len();
        let mut seen: SecondaryMap<FuncId, bool> = SecondaryMap::with_capacity(n);
        seen.resize(n);
        let mut work: Vec<FuncId> = Vec::with_capacity(n.max(roots.len()));
        work.extend_from_slice(roots);
        while let Some(f) = work.pop() {
            if seen[f] {
                continue;
            }
            seen[f] = true;
            work.extend(self.callees(f).iter().copied().filter(|&c| !seen[c]));
        }
        seen
    }

    /// Every function, callees before callers.
    pub fn bottom_up(&self) -> &[FuncId] {
        &self.bottom_up
    }

    /// Recursion flags and the bottom-up order from the strongly connected components
    /// ([`for_each_component`] hands them over callees first).
    fn tarjan(&mut self, n: usize) {
        let CallGraph {
            callees,
            starts,
            recursive,
            bottom_up,
            ..
        } = self;
        let succ = |f: usize| &callees[starts[f] as usize..starts[f + 1] as usize];
        for_each_component(
            n,
            |f, k| succ(f).get(k).map(|c| c.index()),
            |scc| {
                let cyclic =
                    scc.len() > 1 || scc.iter().any(|&f| succ(f).contains(&FuncId::new(f)));
                for &f in scc {
                    recursive[f] = cyclic;
                    bottom_up.push(FuncId::new(f));
                }
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_programs::modules;
    use poolopt_ir::call_graph::{recursive_functions, strongly_connected_components};

    #[test]
    fn the_flat_graph_is_the_straightforward_one_for_every_program() {
        for module in modules() {
            let graph = CallGraph::compute(&module);
            let callees: Vec<Vec<FuncId>> = module
                .funcs
                .values()
                .map(|func| {
                    func.layout
                        .iter()
                        .flat_map(|&b| func.blocks[b].insts.iter())
                        .filter_map(|&inst| match func.insts[inst].kind {
                            InstKind::Call { func: callee, .. } => Some(callee),
                            _ => None,
                        })
                        .filter(|c| module.funcs.get(*c).is_some())
                        .collect()
                })
                .collect();
            let succ: Vec<Vec<usize>> = callees
                .iter()
                .map(|c| c.iter().map(|f| f.index()).collect())
                .collect();
            let order: Vec<FuncId> = strongly_connected_components(&succ)
                .into_iter()
                .flatten()
                .map(FuncId::new)
                .collect();
            assert_eq!(graph.bottom_up(), order);
            let recursive = recursive_functions(&module);
            for (id, _) in module.funcs.iter() {
                assert_eq!(graph.callees(id), callees[id.index()]);
                assert_eq!(graph.is_recursive(id), recursive[id.index()]);
                let sites = callees.iter().flatten().filter(|&&c| c == id).count();
                assert_eq!(graph.call_sites(id) as usize, sites);
            }
            // Counted in the functions the first one reaches only.
            if let Some(first) = module.funcs.keys().next() {
                let wanted = graph.reachable_from(&[first]);
                let mut counted = graph.clone();
                counted.count_sites_in(&wanted);
                for (id, _) in module.funcs.iter() {
                    let sites = callees
                        .iter()
                        .enumerate()
                        .filter(|(caller, _)| wanted[FuncId::new(*caller)])
                        .flat_map(|(_, c)| c.iter())
                        .filter(|&&c| c == id)
                        .count();
                    assert_eq!(counted.call_sites(id) as usize, sites);
                }
            }
            let beyond = FuncId::new(module.funcs.len());
            assert!(graph.callees(beyond).is_empty() && !graph.is_recursive(beyond));
        }
    }
}
