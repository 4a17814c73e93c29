//! Where the fact analysis keeps the states it has computed: each block's facts on entry and
//! after its last instruction, stored one after another in three buffers shared by all the
//! blocks of the function (constraints, compares, quotients).
//!
//! A state is written once per evaluation of its block and read many times (by the edges
//! into the block's successors, by the passes). Storing each in a [`FactSet`] of its own cost
//! two allocations and two frees per block and analysis, about a tenth of the whole pipeline
//! on a 100,000-instruction function; here a state is a range of each buffer, and a function's
//! states cost a few buffer growths, amortized. Replacing a state (a loop's blocks are
//! evaluated again until their facts settle) appends the new one and leaves the old range
//! unused; when the unused part outgrows the live part, the buffers are compacted.
//!
//! A stored state is read as a [`FactView`], which answers every query a [`FactSet`] does
//! ([`FactQueries`]); a pass that wants to change one copies it into a working set.

use super::constraints::{CmpFact, Constraint, FactQueries, FactSet, FactView, QuotientFact};
use poolopt_ir::{Block, Function, SecondaryMap};

/// Which of a block's two states.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Side {
    /// On entry to the block.
    Entry,
    /// After the block's last instruction, before its terminator.
    Exit,
}

/// The ranges of the three buffers one state occupies: `(start, end)` each.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Span {
    cons: (u32, u32),
    cmps: (u32, u32),
    quotients: (u32, u32),
}

impl Span {
    /// How many facts the state holds.
    fn len(&self) -> usize {
        [self.cons, self.cmps, self.quotients]
            .iter()
            .map(|&(start, end)| (end - start) as usize)
            .sum()
    }
}

/// The emptied buffers of a [`BlockStates`], kept by the pass context for the next analysis
/// (see [`super::FactSetPool`]).
#[derive(Debug, Default)]
pub struct StateBuffers {
    cons: Vec<Constraint>,
    cmps: Vec<CmpFact>,
    quotients: Vec<QuotientFact>,
}

/// The entry and exit states of every block an analysis reached (see the module docs).
#[derive(Clone, Debug, Default)]
pub(super) struct BlockStates {
    cons: Vec<Constraint>,
    cmps: Vec<CmpFact>,
    quotients: Vec<QuotientFact>,
    entry: SecondaryMap<Block, Option<Span>>,
    exit: SecondaryMap<Block, Option<Span>>,
    /// The facts the current states hold together (the rest of the buffers is unused).
    live: usize,
}

/// Appends `from` to `buf`; the range it now occupies.
#[inline]
fn append<T: Copy>(buf: &mut Vec<T>, from: &[T]) -> (u32, u32) {
    let start = buf.len() as u32;
    // Most states have no compare and no quotient: no call to copy nothing.
    if !from.is_empty() {
        // Grown by half its length rather than doubled: a huge function's states are most
        // of the analysis's memory, and the growth stays amortized O(1) an entry.
        if buf.capacity() - buf.len() < from.len() {
            buf.reserve_exact(from.len().max(buf.len() / 2));
        }
        buf.extend_from_slice(from);
    }
    (start, buf.len() as u32)
}

/// The entries `(start, end)` of `buf`.
#[inline]
fn range_of<T>(buf: &[T], (start, end): (u32, u32)) -> &[T] {
    &buf[start as usize..end as usize]
}

/// The most facts the stored states may hold together: the analysis gives up past it whatever
/// its limits say (`FactLimits::max_stored_facts` is far below), so that the buffers, at most
/// about three times the live facts long, stay addressable by `u32` offsets.
pub(super) const MAX_LIVE: usize = (u32::MAX / 4) as usize;

/// Unused entries the buffers may hold beyond the live ones before they are compacted.
const COMPACT_SLACK: usize = 4096;

impl BlockStates {
    /// No state for any block of `func`, in `buffers` (emptied).
    pub(super) fn new(func: &Function, buffers: StateBuffers) -> BlockStates {
        let StateBuffers {
            mut cons,
            mut cmps,
            mut quotients,
        } = buffers;
        cons.clear();
        cmps.clear();
        quotients.clear();
        BlockStates {
            cons,
            cmps,
            quotients,
            entry: func.block_map(),
            exit: func.block_map(),
            live: 0,
        }
    }

    /// The buffers, emptied, for the next analysis.
    pub(super) fn into_buffers(self) -> StateBuffers {
        let BlockStates {
            mut cons,
            mut cmps,
            mut quotients,
            ..
        } = self;
        cons.clear();
        cmps.clear();
        quotients.clear();
        StateBuffers {
            cons,
            cmps,
            quotients,
        }
    }

    fn spans(&self, side: Side) -> &SecondaryMap<Block, Option<Span>> {
        match side {
            Side::Entry => &self.entry,
            Side::Exit => &self.exit,
        }
    }

    fn view_of(&self, span: Span) -> FactView<'_> {
        FactView::new(
            range_of(&self.cons, span.cons),
            range_of(&self.cmps, span.cmps),
            range_of(&self.quotients, span.quotients),
        )
    }

    /// The state of `block` on `side`, if one is stored.
    #[inline]
    pub(super) fn get(&self, block: Block, side: Side) -> Option<FactView<'_>> {
        let span = (*self.spans(side).get(block)?)?;
        Some(self.view_of(span))
    }

    /// The facts the stored states hold together.
    pub(super) fn live(&self) -> usize {
        self.live
    }

    /// Stores `facts` as the state of `block` on `side` unless the one stored is equal;
    /// whether it stored them.
    pub(super) fn set_if_changed(&mut self, block: Block, side: Side, facts: &FactSet) -> bool {
        if self.get(block, side) == Some(facts.view()) {
            return false;
        }
        self.set(block, side, facts);
        true
    }

    /// Stores `facts` as the state of `block` on `side`, replacing the one stored.
    pub(super) fn set(&mut self, block: Block, side: Side, facts: &FactSet) {
        let facts = facts.view();
        let span = Span {
            cons: append(&mut self.cons, facts.constraints()),
            cmps: append(&mut self.cmps, facts.compares()),
            quotients: append(&mut self.quotients, facts.quotient_facts()),
        };
        let spans = match side {
            Side::Entry => &mut self.entry,
            Side::Exit => &mut self.exit,
        };
        let old = spans[block].replace(span);
        self.live = self.live - old.map_or(0, |s| s.len()) + span.len();
        let used = self.cons.len() + self.cmps.len() + self.quotients.len();
        if used > 2 * self.live + COMPACT_SLACK {
            self.compact();
        }
    }

    /// Moves the stored states to the front of fresh buffers, dropping the unused entries.
    #[cold]
    fn compact(&mut self) {
        let mut cons = Vec::with_capacity(self.live);
        let mut cmps = Vec::new();
        let mut quotients = Vec::new();
        for span in self
            .entry
            .values_mut()
            .chain(self.exit.values_mut())
            .flatten()
        {
            *span = Span {
                cons: append(&mut cons, range_of(&self.cons, span.cons)),
                cmps: append(&mut cmps, range_of(&self.cmps, span.cmps)),
                quotients: append(&mut quotients, range_of(&self.quotients, span.quotients)),
            };
        }
        self.cons = cons;
        self.cmps = cmps;
        self.quotients = quotients;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::facts::constraints::Term;
    use poolopt_ir::{EntityRef, Local};

    fn set_of(k: i64) -> FactSet {
        let mut set = FactSet::new();
        set.add(Term::ZERO, Term::value(Local::new(0)), k);
        set.add(Term::value(Local::new(1)), Term::len(Local::new(2)), -1 - k);
        set
    }

    /// Replacing states over and over (a loop's blocks evaluated again) keeps every block's
    /// latest state exact, counts only the live facts, and compacts the buffers so that they
    /// stay within twice the live facts plus the slack.
    #[test]
    fn replaced_states_read_back_exactly_and_the_buffers_stay_bounded() {
        let mut func = Function::new("f");
        let blocks: Vec<Block> = (0..50).map(|i| func.add_block(format!("b{i}"))).collect();
        let mut states = BlockStates::new(&func, StateBuffers::default());
        for round in 0..200 {
            for (i, &b) in blocks.iter().enumerate() {
                let k = (round * 7 + i as i64) % 13;
                states.set(b, Side::Entry, &set_of(k));
                states.set(b, Side::Exit, &set_of(k + 1));
            }
            let used = states.cons.len() + states.cmps.len() + states.quotients.len();
            assert!(used <= 2 * states.live() + COMPACT_SLACK + 4, "{used}");
        }
        for (i, &b) in blocks.iter().enumerate() {
            let k = (199 * 7 + i as i64) % 13;
            assert_eq!(states.get(b, Side::Entry), Some(set_of(k).view()));
            assert_eq!(states.get(b, Side::Exit), Some(set_of(k + 1).view()));
        }
        assert_eq!(states.live(), 50 * 2 * 2);
        assert_eq!(states.get(Block::new(50), Side::Entry), None);
        // The buffers go back emptied and serve the next analysis.
        let again = BlockStates::new(&func, states.into_buffers());
        assert_eq!(again.live(), 0);
        assert!(again.cons.is_empty() && again.cons.capacity() > 0);
    }
}
