//! The passes, one file each.
