//! A pool of emptied fact sets and analysis buffers, kept for reuse across analyses.

use super::FactSet;
use poolopt_ir::{Block, Local, SecondaryMap};

/// Emptied buffers kept for reuse: the working sets of the analyses and the passes (an edge's
/// facts, a block's replay), the shared buffers of an analysis's stored block states
/// (`BlockStates`) and its list of deaths, and the fixpoint driver's per-block tables, so
/// that the analyses of one pipeline, function after function, allocate their storage about
/// once instead of once per block and analysis. A set taken from the pool is empty: nothing
/// of an earlier analysis is left in it.
#[derive(Debug, Default)]
pub struct FactSetPool {
    sets: Vec<FactSet>,
    /// The buffers of the last recycled analysis's stored states.
    states: crate::analysis::facts::block_states::StateBuffers,
    /// The fixpoint driver's tables and work space.
    pub(in crate::analysis::facts) driver: crate::analysis::facts::driver::DriverScratch,
    /// The last recycled analysis's list of deaths and its per-block ranges.
    pub(in crate::analysis::facts) deaths: DeathBuffers,
}

/// An analysis's list of deaths (`(instruction index, local)`, block after block) and each
/// block's range of it.
pub(in crate::analysis::facts) type DeathBuffers =
    (Vec<(usize, Local)>, SecondaryMap<Block, (u32, u32)>);

impl FactSetPool {
    /// At most this many working sets are kept (the block states are not sets: they are
    /// kept in `states`).
    const MAX_SETS: usize = 4096;

    /// An empty set, with buffers when the pool has some.
    pub fn take(&mut self) -> FactSet {
        self.sets.pop().unwrap_or_default()
    }

    /// Keeps `set`'s buffers for a later [`FactSetPool::take`] (emptied first).
    pub fn give(&mut self, mut set: FactSet) {
        if set.has_buffers() && self.sets.len() < Self::MAX_SETS {
            set.clear();
            self.sets.push(set);
        }
    }

    /// The buffers for an analysis's stored states (see `BlockStates`), with room when an
    /// earlier analysis handed some back.
    pub(in crate::analysis::facts) fn take_state_buffers(
        &mut self,
    ) -> crate::analysis::facts::block_states::StateBuffers {
        std::mem::take(&mut self.states)
    }

    /// Keeps the buffers of an analysis's stored states for the next analysis.
    pub(in crate::analysis::facts) fn give_state_buffers(
        &mut self,
        buffers: crate::analysis::facts::block_states::StateBuffers,
    ) {
        self.states = buffers;
    }

    /// How many sets the pool holds.
    pub fn len(&self) -> usize {
        self.sets.len()
    }

    /// Whether the pool holds no set.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }
}
