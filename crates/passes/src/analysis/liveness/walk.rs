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
//! Strong liveness's transfer runs over a [`WalkSet`]: a [`LiveWalk`] under a boundary
//! numbering, else a [`DenseWalk`], a few words in a fixed array.

use super::{LiveSet, Liveness, LocalSet, Numbering};
use poolopt_ir::{Block, EntityRef, Local};

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

/// The set of a backward walk through one block, over the bits of a liveness's sets (for
/// strong liveness's transfer, which runs over either kind of numbering).
pub(super) trait WalkSet {
    /// The bit of `l` in the liveness's sets, if they range over it.
    fn bit_of(&self, l: Local) -> Option<usize>;
    fn contains(&self, l: Local) -> bool;
    fn insert(&mut self, l: Local);
    fn remove(&mut self, l: Local);
}

/// A [`LiveWalk`] with the numbering of the liveness it started from.
pub(super) struct NumberedWalk<'a> {
    pub walk: &'a mut LiveWalk,
    pub numbering: &'a Numbering,
}

impl WalkSet for NumberedWalk<'_> {
    fn bit_of(&self, l: Local) -> Option<usize> {
        self.numbering.bit_of(l)
    }

    fn contains(&self, l: Local) -> bool {
        self.walk.contains_in(self.numbering, l)
    }

    fn insert(&mut self, l: Local) {
        self.walk.insert_in(self.numbering, l);
    }

    fn remove(&mut self, l: Local) {
        self.walk.remove_in(self.numbering, l);
    }
}

/// The walk under a liveness without a boundary numbering (`Numbering::Every`: at most
/// [`super::DENSE_LOCALS`] locals, each its own bit): the bits in a fixed array of `WORDS`
/// words (one for the ordinary function of at most 64 locals), started by copying that many,
/// with no numbering to consult and no side set (a [`LiveWalk`] costs a copy into a vector per
/// block and a numbering lookup per operand).
pub(super) struct DenseWalk<const WORDS: usize> {
    bits: [u64; WORDS],
    num_locals: usize,
}

impl<const WORDS: usize> DenseWalk<WORDS> {
    /// Starts a walk from `out` (a block's live-out set, over `num_locals` locals, at most
    /// `WORDS` words).
    pub fn start(out: &[u64], num_locals: usize) -> DenseWalk<WORDS> {
        debug_assert!(num_locals <= 64 * WORDS);
        DenseWalk {
            bits: std::array::from_fn(|k| out.get(k).copied().unwrap_or(0)),
            num_locals,
        }
    }

    /// The bits, every local at its index.
    pub fn bits(&self) -> &[u64] {
        &self.bits
    }

    /// The word of local `i` (below `num_locals`, at most `64 * WORDS`, so `i / 64 < WORDS`:
    /// the remainder changes nothing, and spares an index check per access).
    fn word(i: usize) -> usize {
        (i / 64) % WORDS
    }
}

impl<const WORDS: usize> WalkSet for DenseWalk<WORDS> {
    fn bit_of(&self, l: Local) -> Option<usize> {
        (l.index() < self.num_locals).then_some(l.index())
    }

    fn contains(&self, l: Local) -> bool {
        let i = l.index();
        i < self.num_locals && self.bits[Self::word(i)] & (1 << (i % 64)) != 0
    }

    fn insert(&mut self, l: Local) {
        let i = l.index();
        if i < self.num_locals {
            self.bits[Self::word(i)] |= 1 << (i % 64);
        }
    }

    fn remove(&mut self, l: Local) {
        let i = l.index();
        if i < self.num_locals {
            self.bits[Self::word(i)] &= !(1 << (i % 64));
        }
    }
}
