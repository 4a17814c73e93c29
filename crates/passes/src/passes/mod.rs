//! The passes, one file each.

pub mod copy_prop;
pub mod dead_local_elim;
pub mod scalarize;
pub mod simplify_cfg;
pub mod temp_elision;
