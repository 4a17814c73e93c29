//! The passes, one file each.

pub mod bounds_check_elim;
pub mod branch_threading;
pub mod copy_prop;
pub mod dead_local_elim;
pub mod div_check_elim;
pub mod div_check_prove;
mod extended_blocks;
pub mod global_copy_prop;
mod hashes;
pub mod inline;
mod names;
pub mod range_check_fold;
pub mod scalarize;
pub mod simplify_cfg;
pub mod sparse_bounds_check_elim;
pub mod store_load_forward;
pub mod struct_split;
pub mod temp_elision;
pub mod value_numbering;
