//! The module's call graph: who calls whom, which functions lie on a cycle (recursion, direct
//! or mutual), and a bottom-up order (callees before callers) for interprocedural passes.
//!
//! Computed once per pipeline run by the pass manager. Inlining a function that is on no cycle
//! never creates a cycle (it only copies edges the caller already reached through the callee),
//! so the recursion facts stay valid while the inliner rewrites bodies bottom-up.

use poolopt_ir::{EntityRef, FuncId, InstKind, Module, SecondaryMap};

/// Call edges, strongly connected components and call-site counts of a module.
#[derive(Clone, Debug, Default)]
pub struct CallGraph {
    /// Callees of each function (with repetition: one entry per call site).
    callees: SecondaryMap<FuncId, Vec<FuncId>>,
    /// Whether the function is on a cycle of the call graph.
    recursive: SecondaryMap<FuncId, bool>,
    /// Number of call sites in the whole module that call the function.
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

    /// How many call sites of the module call `func`.
    pub fn call_sites(&self, func: FuncId) -> u32 {
        self.call_sites[func]
    }

    /// Every function, callees before callers.
    pub fn bottom_up(&self) -> &[FuncId] {
        &self.bottom_up
    }

    /// Tarjan's strongly connected components, iteratively (no recursion on deep call
    /// chains). Components are completed callees-first, which is the bottom-up order.
    fn tarjan(&mut self, n: usize) {
        const UNVISITED: u32 = u32::MAX;
        let mut index = vec![UNVISITED; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<usize> = Vec::new();
        let mut next = 0u32;
        // (node, position in its callee list)
        let mut work: Vec<(usize, usize)> = Vec::new();
        for root in 0..n {
            if index[root] != UNVISITED {
                continue;
            }
            work.push((root, 0));
            index[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut pos)) = work.last_mut() {
                let callees = &self.callees[FuncId::new(v)];
                if let Some(&w) = callees.get(*pos) {
                    *pos += 1;
                    let w = w.index();
                    if index[w] == UNVISITED {
                        index[w] = next;
                        low[w] = next;
                        next += 1;
                        stack.push(w);
                        on_stack[w] = true;
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
                    let start = stack.iter().rposition(|&x| x == v).unwrap_or(0);
                    let members: Vec<usize> = stack.drain(start..).collect();
                    let cyclic = members.len() > 1
                        || self.callees[FuncId::new(v)].iter().any(|c| c.index() == v);
                    for &m in &members {
                        on_stack[m] = false;
                        self.recursive[FuncId::new(m)] = cyclic;
                        self.bottom_up.push(FuncId::new(m));
                    }
                }
            }
        }
    }
}
