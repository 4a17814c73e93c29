//! The module's call graph: who calls whom, which functions lie on a cycle (recursion, direct
//! or mutual), and a bottom-up order (callees before callers) for interprocedural passes.
//!
//! Computed once per pipeline run by the pass manager. Inlining a function that is on no cycle
//! never creates a cycle (it only copies edges the caller already reached through the callee),
//! so the recursion facts stay valid while the inliner rewrites bodies bottom-up.

use poolopt_ir::call_graph::strongly_connected_components;
use poolopt_ir::{EntityRef, FuncId, InstKind, Module, SecondaryMap};

/// Call edges, strongly connected components and call-site counts of a module.
#[derive(Clone, Debug, Default)]
pub struct CallGraph {
    /// Callees of each function (with repetition: one entry per call site).
    callees: SecondaryMap<FuncId, Vec<FuncId>>,
    /// Whether the function is on a cycle of the call graph.
    recursive: SecondaryMap<FuncId, bool>,
    /// Number of call sites that call the function, in the whole module or, after
    /// [`CallGraph::count_sites_in`], in the functions being optimized.
    call_sites: SecondaryMap<FuncId, u32>,
    /// Every function, callees before callers (the members of one cycle in any order).
    bottom_up: Vec<FuncId>,
}

impl CallGraph {
    /// Builds the call graph of `module`. Calls of ids the module does not define are ignored
    /// (the verifier rejects them).
    pub fn compute(module: &Module) -> CallGraph {
        let mut cg = CallGraph::default();
        for (id, func) in module.funcs.iter() {
            let mut callees = Vec::new();
            for &block in &func.layout {
                for &inst in &func.blocks[block].insts {
                    if let InstKind::Call { func: callee, .. } = func.insts[inst].kind {
                        if module.funcs.get(callee).is_some() {
                            callees.push(callee);
                            cg.call_sites[callee] += 1;
                        }
                    }
                }
            }
            cg.callees[id] = callees;
        }
        cg.tarjan(module.funcs.len());
        cg
    }

    /// The call sites of each callee inside `func`, in layout order.
    pub fn callees(&self, func: FuncId) -> &[FuncId] {
        &self.callees[func]
    }

    /// Whether `func` is on a cycle of the call graph (it may call itself, directly or not).
    pub fn is_recursive(&self, func: FuncId) -> bool {
        self.recursive[func]
    }

    /// How many call sites of the module (or of the functions given to
    /// [`CallGraph::count_sites_in`]) call `func`.
    pub fn call_sites(&self, func: FuncId) -> u32 {
        self.call_sites[func]
    }

    /// Counts only the call sites inside the functions `wanted` marks: when a pipeline runs
    /// for some entries, the functions they do not reach are neither optimized nor compiled,
    /// so their calls do not keep a callee alive, and a callee called once from what the
    /// entries reach is a single-site callee for the inliner.
    pub fn count_sites_in(&mut self, wanted: &SecondaryMap<FuncId, bool>) {
        self.call_sites.clear();
        for (caller, callees) in self.callees.iter() {
            if wanted[caller] {
                for &callee in callees {
                    self.call_sites[callee] += 1;
                }
            }
        }
    }

    /// Which functions calls can reach from `roots` (the roots included).
    pub fn reachable_from(&self, roots: &[FuncId]) -> SecondaryMap<FuncId, bool> {
        let mut seen: SecondaryMap<FuncId, bool> = SecondaryMap::new();
        let mut work: Vec<FuncId> = roots.to_vec();
        while let Some(f) = work.pop() {
            if seen[f] {
                continue;
            }
            seen[f] = true;
            work.extend(self.callees[f].iter().copied().filter(|&c| !seen[c]));
        }
        seen
    }

    /// Every function, callees before callers.
    pub fn bottom_up(&self) -> &[FuncId] {
        &self.bottom_up
    }

    /// Recursion flags and the bottom-up order from the strongly connected components
    /// ([`strongly_connected_components`] lists them callees first).
    fn tarjan(&mut self, n: usize) {
        let succ: Vec<Vec<usize>> = (0..n)
            .map(|f| {
                self.callees[FuncId::new(f)]
                    .iter()
                    .map(|c| c.index())
                    .collect()
            })
            .collect();
        for scc in strongly_connected_components(&succ) {
            let cyclic = scc.len() > 1 || scc.iter().any(|&f| succ[f].contains(&f));
            for f in scc {
                self.recursive[FuncId::new(f)] = cyclic;
                self.bottom_up.push(FuncId::new(f));
            }
        }
    }
}
