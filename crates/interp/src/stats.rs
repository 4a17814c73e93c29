//! Counters of one run, for tests and benchmark reports.

/// What a run did. `bytes_allocated` counts vec headers ([`poolopt_ir::HEADER_BYTES`] per
/// `new`) plus the full size of every buffer a growth allocates; `bytes_copied` counts the
/// element bytes moved from the old buffer at each growth; `steps` counts executed instructions
/// and terminators.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct RunStats {
    pub vec_growths: u64,
    pub bytes_allocated: u64,
    pub bytes_copied: u64,
    pub steps: u64,
}
