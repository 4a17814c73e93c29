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
use poolopt_ir::{EntityRef, FuncId, InstKind, Module, SecondaryMap, Type};

/// Per function, the vec types whose length calling it may change.
///
/// A set of types per function is a row of bits over the module's changed vec types (one
/// word for up to 64 of them): the summaries of a whole module are three allocations, and
/// adding a callee's effects to a caller's is an `or` of words, where a vector of types per
/// function (and a vector of the missing ones per call edge) cost a small module's run more in
/// the allocator than the scan of its instructions.
#[derive(Clone, Debug, Default)]
pub struct CallEffects {
    /// The vec types some summarized function changes directly; type `k` is bit `k` of a row.
    types: Vec<Type>,
    /// Words per function in `rows`.
    words: usize,
    /// Per function, `words` words: bit `k` set when calling it may change the length of a
    /// vec of type `types[k]`.
    rows: Vec<u64>,
    /// Set for functions the summary was computed for; others are assumed to change all.
    known: Vec<bool>,
}

impl CallEffects {
    /// Summarizes every function of `module`.
    pub fn compute(module: &Module, call_graph: &CallGraph) -> CallEffects {
        CallEffects::compute_for(module, call_graph, None)
    }

    /// Summarizes the functions `wanted` marks (every function without it). The marked
    /// functions must include every function they call (as the functions calls reach from
    /// some roots do): the others are not looked at, and a call of one is assumed to change
    /// every vec.
    pub fn compute_for(
        module: &Module,
        call_graph: &CallGraph,
        wanted: Option<&SecondaryMap<FuncId, bool>>,
    ) -> CallEffects {
        let n = module.funcs.len();
        let mut fx = CallEffects {
            types: Vec::new(),
            words: 1,
            rows: vec![0; n],
            known: vec![false; n],
        };
        // Direct effects.
        for (id, func) in module.funcs.iter() {
            if wanted.is_some_and(|w| !w[id]) {
                continue;
            }
            fx.known[id.index()] = true;
            for &block in &func.layout {
                for &inst in &func.blocks[block].insts {
                    let vec = match func.insts[inst].kind {
                        InstKind::VecPush { vec, .. }
                        | InstKind::VecPop { vec, .. }
                        | InstKind::VecDrop { vec } => vec,
                        _ => continue,
                    };
                    if let Some(data) = func.locals.get(vec) {
                        let k = fx.type_bit(data.ty, n);
                        fx.rows[id.index() * fx.words + k / 64] |= 1 << (k % 64);
                    }
                }
            }
        }
        // Transitive effects: propagate callee summaries until nothing changes. Bottom-up
        // order makes one sweep enough outside cycles.
        let words = fx.words;
        let mut changed = !fx.types.is_empty();
        while changed {
            changed = false;
            for &id in call_graph.bottom_up() {
                if !fx.known[id.index()] {
                    continue;
                }
                for &callee in call_graph.callees(id) {
                    if callee == id {
                        continue;
                    }
                    for w in 0..words {
                        let extra =
                            fx.rows[callee.index() * words + w] & !fx.rows[id.index() * words + w];
                        if extra != 0 {
                            fx.rows[id.index() * words + w] |= extra;
                            changed = true;
                        }
                    }
                }
            }
        }
        fx
    }

    /// The bit of `ty` in the rows, given it one if it has none (the rows of the `n`
    /// functions get one more word when their words are full).
    fn type_bit(&mut self, ty: Type, n: usize) -> usize {
        if let Some(k) = self.types.iter().position(|&t| t == ty) {
            return k;
        }
        if self.types.len() == 64 * self.words {
            let (old, words) = (self.words, self.words + 1);
            let mut rows = vec![0; n * words];
            for f in 0..n {
                rows[f * words..f * words + old]
                    .copy_from_slice(&self.rows[f * old..(f + 1) * old]);
            }
            self.rows = rows;
            self.words = words;
        }
        self.types.push(ty);
        self.types.len() - 1
    }

    /// Whether a call of `callee` may change the length of a vec held in a local of type `ty`.
    pub fn may_change(&self, callee: FuncId, ty: Type) -> bool {
        let f = callee.index();
        if !self.known.get(f).copied().unwrap_or(false) {
            return true;
        }
        self.types
            .iter()
            .position(|&t| t == ty)
            .is_some_and(|k| self.rows[f * self.words + k / 64] >> (k % 64) & 1 != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_programs::modules;

    /// The summaries as sets of types, computed the straightforward way: each function's
    /// direct types, then callees' types added until nothing changes.
    fn reference(module: &Module, graph: &CallGraph) -> Vec<Vec<Type>> {
        let mut changes: Vec<Vec<Type>> = module
            .funcs
            .values()
            .map(|func| {
                let mut types = Vec::new();
                for &block in &func.layout {
                    for &inst in &func.blocks[block].insts {
                        if let InstKind::VecPush { vec, .. }
                        | InstKind::VecPop { vec, .. }
                        | InstKind::VecDrop { vec } = func.insts[inst].kind
                        {
                            if let Some(data) = func.locals.get(vec) {
                                if !types.contains(&data.ty) {
                                    types.push(data.ty);
                                }
                            }
                        }
                    }
                }
                types
            })
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for &id in graph.bottom_up() {
                for &callee in graph.callees(id) {
                    let extra: Vec<Type> = changes[callee.index()]
                        .iter()
                        .copied()
                        .filter(|t| !changes[id.index()].contains(t))
                        .collect();
                    changed |= !extra.is_empty();
                    changes[id.index()].extend(extra);
                }
            }
        }
        changes
    }

    #[test]
    fn summaries_are_the_straightforward_sets_for_every_program_and_entry() {
        for module in modules() {
            let graph = CallGraph::compute(&module);
            let expected = reference(&module, &graph);
            // Every type any function of the module mentions (types no function changes
            // included), and `bool` for a module without locals.
            let mut types: Vec<Type> = module
                .funcs
                .values()
                .flat_map(|f| f.locals.values().map(|l| l.ty))
                .collect();
            types.push(Type::BOOL);
            types.sort();
            types.dedup();
            let whole = CallEffects::compute(&module, &graph);
            for (id, _) in module.funcs.iter() {
                for &ty in &types {
                    assert_eq!(whole.may_change(id, ty), expected[id.index()].contains(&ty));
                }
            }
            // Each of the first functions as the only entry (all of them in a small module).
            for (id, _) in module.funcs.iter().take(16) {
                let from_here = graph.reachable_from(&[id]);
                let part = CallEffects::compute_for(&module, &graph, Some(&from_here));
                for &ty in &types {
                    for (callee, _) in module.funcs.iter() {
                        if from_here[callee] {
                            assert_eq!(
                                part.may_change(callee, ty),
                                expected[callee.index()].contains(&ty)
                            );
                        } else {
                            assert!(part.may_change(callee, ty));
                        }
                    }
                }
            }
            // A function the module does not have changes everything.
            assert!(whole.may_change(FuncId::new(module.funcs.len()), Type::BOOL));
        }
    }

    #[test]
    fn more_than_64_changed_types_widen_the_rows() {
        let mut fx = CallEffects {
            types: Vec::new(),
            words: 1,
            rows: vec![0; 3],
            known: vec![true; 3],
        };
        let types: Vec<Type> = (0..130)
            .map(|i| Type::Struct(poolopt_ir::StructId::new(i)))
            .collect();
        for (i, &ty) in types.iter().enumerate() {
            let k = fx.type_bit(ty, 3);
            assert_eq!(k, i);
            let f = i % 3;
            fx.rows[f * fx.words + k / 64] |= 1 << (k % 64);
        }
        assert_eq!(fx.words, 3);
        for (i, &ty) in types.iter().enumerate() {
            for f in 0..3 {
                assert_eq!(fx.may_change(FuncId::new(f), ty), i % 3 == f);
            }
        }
    }
}
