//! A block's live set walked backwards from its live-out set, in time proportional to the
//! block rather than to the live set.
//!
//! Three walks run once per block: strong liveness's transfer, dead-local-elim's sweep and the
//! fact analysis's deaths. Each starts from the block's live-out set and asks, instruction by
//! instruction from the end, whether a local is live. Copied into a set indexed by local, the
//! live-out set costs a step per live local when the sets range over the *boundary* locals
//! (the bits must be translated one by one): a function whose thousands of locals stay live
//! across thousands of blocks then paid the product (16,000 guarded indices read in one loop:
//! a third of `opt -O2`'s 1.6 s). A [`LiveWalk`] keeps the boundary locals in the liveness's
//! own bits, started by copying words, and every other local (one that is live into no block,
//! hence out of none) in a set of its own, emptied in time proportional to what was put in.

use super::{LiveSet, Liveness, LocalSet, Numbering};
use poolopt_ir::{Block, Local};

/// The locals live at one point of a block during a backward walk (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct LiveWalk {
    /// The boundary locals (every local, for a liveness without a boundary numbering), in the
    /// bits of the liveness the walk started from.
    bits: Vec<u64>,
    /// Every other local, by index.
    others: LocalSet,
}

impl LiveWalk {
    /// Starts a walk at the end of `block`: the locals live out of it.
    pub fn start(&mut self, live: &Liveness, block: Block) {
        self.start_from(live.live_out(block));
    }

    /// Starts a walk from the set `out` (a block's live-out set).
    pub(super) fn start_from(&mut self, out: LiveSet<'_>) {
        self.bits.clear();
        self.bits.extend_from_slice(out.words);
        // Without a boundary numbering every local has a bit: no side set is needed.
        if let Numbering::Boundary { .. } = out.numbering {
            let locals = out.numbering.num_locals();
            if self.others.words.len() == locals.div_ceil(64) {
                self.others.clear();
            } else {
                self.others = LocalSet::new(locals);
            }
        }
    }

    /// Whether `l` is live here (`live` is the liveness the walk started from).
    pub fn contains(&self, live: &Liveness, l: Local) -> bool {
        self.contains_in(&live.numbering, l)
    }

    /// Makes `l` live here.
    pub fn insert(&mut self, live: &Liveness, l: Local) {
        self.insert_in(&live.numbering, l);
    }

    /// Makes `l` dead here.
    pub fn remove(&mut self, live: &Liveness, l: Local) {
        self.remove_in(&live.numbering, l);
    }

    pub(super) fn contains_in(&self, numbering: &Numbering, l: Local) -> bool {
        match numbering.bit_of(l) {
            Some(g) => self
                .bits
                .get(g / 64)
                .is_some_and(|w| w & (1 << (g % 64)) != 0),
            None => self.others.contains(l),
        }
    }

    pub(super) fn insert_in(&mut self, numbering: &Numbering, l: Local) {
        match numbering.bit_of(l) {
            Some(g) => {
                if let Some(w) = self.bits.get_mut(g / 64) {
                    *w |= 1 << (g % 64);
                }
            }
            None => self.others.insert(l),
        }
    }

    pub(super) fn remove_in(&mut self, numbering: &Numbering, l: Local) {
        match numbering.bit_of(l) {
            Some(g) => {
                if let Some(w) = self.bits.get_mut(g / 64) {
                    *w &= !(1 << (g % 64));
                }
            }
            None => self.others.remove(l),
        }
    }

    /// The walk's boundary locals, in the liveness's bits.
    pub(super) fn bits(&self) -> &[u64] {
        &self.bits
    }
}
