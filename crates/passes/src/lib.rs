//! poolopt's optimization passes over the IR, their shared analyses and the pass manager.
//!
//! - [`analysis`]: CFG, dominator tree, liveness.
//! - [`passes`]: one file per pass.
//! - [`PassManager`]: runs a pipeline (a level's, or an explicit list), verifies after each
//!   pass on request, records the IR and a diff after each pass, collects remarks and stats.
//!
//! `docs/passes.md` describes each pass, its facts and soundness argument, and the pipelines.

pub mod analysis;
mod manager;
mod pass;
pub mod passes;
mod registry;
mod remark;
mod scratch;
#[cfg(test)]
mod test_programs;
mod timing;
pub mod unit_budget;

pub use manager::{unified_diff, PassDump, PassError, PassManager, PassReport, MAX_LIVENESS_WORDS};
pub use pass::{OptLevel, Pass, PassContext};
pub use registry::{all_passes, pass_by_name, pass_description, pass_names, pipeline};
pub use remark::{Remark, RemarkKind, Stats};
pub use timing::{Analysis, PassTimings, Stopwatch, Timing};
pub use unit_budget::UnitBudget;
