//! Call effects: for each function, the vec types whose length a call of it may change.
//!
//! A callee can only reach a vec through a handle it was given or found (parameters, struct
//! fields, vec elements, results of its own callees) or one it created, so whatever the
//! handle's route, only `push`, `pop` and `drop` on a local of type `vec<T>` — in the callee or,
//! transitively, in a function it calls — can change the length of a vec of type `vec<T>`. A
//! call of a function whose summary lacks `vec<T>` therefore keeps every length fact about
//! vecs of that type (a call of a function that touches no vec keeps them all).
//!
//! The summaries are computed once per pipeline run, bottom-up over the call graph with a
//! fixpoint inside each cycle. They stay sound while passes rewrite bodies: no pass adds a
//! `push`, `pop` or `drop` that the function did not already perform or reach through a call
//! (the inliner copies a callee's operations into a caller whose summary already includes
//! them).

use super::callgraph::CallGraph;
use poolopt_ir::{FuncId, InstKind, Module, SecondaryMap, Type};

/// Per function, the vec types whose length calling it may change.
#[derive(Clone, Debug, Default)]
pub struct CallEffects {
    changes: SecondaryMap<FuncId, Vec<Type>>,
    /// Set for functions the summary was computed for; others are assumed to change all.
    known: SecondaryMap<FuncId, bool>,
}

impl CallEffects {
    /// Summarizes every function of `module`.
    pub fn compute(module: &Module, call_graph: &CallGraph) -> CallEffects {
        let mut fx = CallEffects::default();
        // Direct effects.
        for (id, func) in module.funcs.iter() {
            let mut types: Vec<Type> = Vec::new();
            for &block in &func.layout {
                for &inst in &func.blocks[block].insts {
                    let vec = match func.insts[inst].kind {
                        InstKind::VecPush { vec, .. }
                        | InstKind::VecPop { vec, .. }
                        | InstKind::VecDrop { vec } => vec,
                        _ => continue,
                    };
                    if let Some(data) = func.locals.get(vec) {
                        if !types.contains(&data.ty) {
                            types.push(data.ty);
                        }
                    }
                }
            }
            fx.changes[id] = types;
            fx.known[id] = true;
        }
        // Transitive effects: propagate callee summaries until nothing changes. Bottom-up
        // order makes one sweep enough outside cycles.
        let mut changed = true;
        while changed {
            changed = false;
            for &id in call_graph.bottom_up() {
                for &callee in call_graph.callees(id) {
                    if callee == id {
                        continue;
                    }
                    let extra: Vec<Type> = fx.changes[callee]
                        .iter()
                        .copied()
                        .filter(|t| !fx.changes[id].contains(t))
                        .collect();
                    if !extra.is_empty() {
                        fx.changes[id].extend(extra);
                        changed = true;
                    }
                }
            }
        }
        fx
    }

    /// Whether a call of `callee` may change the length of a vec held in a local of type `ty`.
    pub fn may_change(&self, callee: FuncId, ty: Type) -> bool {
        !self.known[callee] || self.changes[callee].contains(&ty)
    }
}
