//! Analyses the passes share, computed on demand and cached in the [`crate::PassContext`]
//! until a pass reports a change.

pub mod callgraph;
pub mod cfg;
pub mod dominators;
pub mod effects;
pub mod facts;
pub mod liveness;

pub use callgraph::CallGraph;
pub use cfg::Cfg;
pub use dominators::DomTree;
pub use effects::CallEffects;
pub use facts::{Fact, FactAnalysis, FactSet};
pub use liveness::{LiveSet, Liveness, LocalSet};
