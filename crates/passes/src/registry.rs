//! The registry of every pass, used by both the CLI (`--passes`) and the pass manager, and the
//! fixed pipelines of each level.

use crate::manager::PassError;
use crate::pass::{OptLevel, Pass};

/// Every pass, in the order of the O2 pipeline.
pub fn all_passes() -> Vec<Box<dyn Pass>> {
    use crate::passes::*;
    vec![
        Box::new(temp_elision::TempElision),
        Box::new(copy_prop::CopyProp),
        Box::new(range_check_fold::RangeCheckFold),
        Box::new(bounds_check_elim::BoundsCheckElim),
        Box::new(dead_local_elim::DeadLocalElim),
        Box::new(simplify_cfg::SimplifyCfg),
        Box::new(scalarize::Scalarize),
    ]
}

/// The names of all passes.
pub fn pass_names() -> Vec<&'static str> {
    all_passes().iter().map(|p| p.name()).collect()
}

/// The pass called `name`, or an error listing the valid names.
pub fn pass_by_name(name: &str) -> Result<Box<dyn Pass>, PassError> {
    all_passes()
        .into_iter()
        .find(|p| p.name() == name)
        .ok_or_else(|| PassError::UnknownPass {
            name: name.to_string(),
            valid: pass_names(),
        })
}

/// The fixed pipeline of a level.
pub fn pipeline(level: OptLevel) -> Vec<Box<dyn Pass>> {
    match level {
        OptLevel::O0 => Vec::new(),
        OptLevel::O1 | OptLevel::O2 => all_passes()
            .into_iter()
            .filter(|p| p.min_level() <= level)
            .collect(),
    }
}
