//! Analyses the passes share, computed on demand and cached in the [`crate::PassContext`]
//! until a pass reports a change.

pub mod callgraph;
pub mod compare_bounds;
pub mod effects;
pub mod facts;
pub mod liveness;
pub mod sparse_bounds;

pub use callgraph::CallGraph;
pub use effects::CallEffects;
pub use facts::{Fact, FactAnalysis, FactSet};
pub use liveness::{LiveSet, Liveness, LocalSet};
/// The CFG and dominator tree live in the IR crate (the JIT's lowering uses them too).
pub use poolopt_ir::cfg::{self, Cfg};
pub use poolopt_ir::dominators::{self, DomTree};
