//! Where the fact analysis keeps the states it has computed: each block's facts on entry and
//! after its last instruction, stored one after another in three buffers shared by all the
//! blocks of the function (constraints, compares, quotients).
//!
//! A state is written once per evaluation of its block and read many times (by the edges
//! into the block's successors, by the passes). Storing each in a [`FactSet`] of its own cost
//! two allocations and two frees per block and analysis, about a tenth of the whole pipeline
//! on a 100,000-instruction function; here a state is a slice of each buffer. A buffer is a
//! list of fixed-size chunks ([`Chunks`]): it grows without copying, its chunks come from the
//! allocator's heap and are kept for the next analysis, so a function's states cost one
//! allocation per 32 KB at most, and none once earlier functions left chunks behind. (One
//! growing vector instead was as cheap in instructions, but each large regrowth was a fresh
//! mapping whose pages faulted in again on every analysis: repeated runs on a 100,000-
//! instruction function were 8 % slower in wall time for 8 % fewer instructions.) Replacing a
//! state (a loop's blocks are evaluated again until their facts settle) appends the new one
//! and leaves the old one unused; when the unused part outgrows the live part, the buffers are
//! compacted. The per-block maps of where each state lies are kept for the next analysis as
//! well ([`StateBuffers`]).
//!
//! A stored state is read as a [`FactView`], which answers every query a [`FactSet`] does
//! ([`FactQueries`]); a pass that wants to change one copies it into a working set.

use super::constraints::{CmpFact, Constraint, FactQueries, FactSet, FactView, QuotientFact};
use poolopt_ir::room::map_room;
use poolopt_ir::{Block, Function, SecondaryMap};

/// Which of a block's two states.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Side {
    /// On entry to the block.
    Entry,
    /// After the block's last instruction, before its terminator.
    Exit,
}

/// Where a state's entries of one kind lie: entries `start..end` of chunk `chunk`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Piece {
    chunk: u32,
    start: u32,
    end: u32,
}

impl Piece {
    fn len(self) -> usize {
        (self.end - self.start) as usize
    }
}

/// The pieces of the three buffers one state occupies.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Span {
    cons: Piece,
    cmps: Piece,
    quotients: Piece,
}

impl Span {
    /// How many facts the state holds.
    fn len(&self) -> usize {
        self.cons.len() + self.cmps.len() + self.quotients.len()
    }
}

/// The bytes of one chunk: small enough to come from the allocator's heap (not a fresh
/// mapping of its own, whose pages would fault in again on every analysis), large enough that
/// a function's states take few of them.
const CHUNK_BYTES: usize = 32 * 1024;

/// A buffer of entries in fixed-size chunks, appended to and never moved: it grows without
/// copying what it holds, and a state is one slice of one chunk (a state larger than a chunk
/// gets a chunk of its own size).
#[derive(Clone, Debug)]
struct Chunks<T> {
    /// The chunks in use; entries are appended to the last one.
    chunks: Vec<Vec<T>>,
    /// Emptied chunks, for reuse.
    spare: Vec<Vec<T>>,
    /// The entries appended since the buffer was last emptied.
    used: usize,
}

impl<T> Default for Chunks<T> {
    fn default() -> Chunks<T> {
        Chunks {
            chunks: Vec::new(),
            spare: Vec::new(),
            used: 0,
        }
    }
}

impl<T: Copy> Chunks<T> {
    /// Entries of a chunk.
    const CHUNK: usize = if CHUNK_BYTES / std::mem::size_of::<T>() > 0 {
        CHUNK_BYTES / std::mem::size_of::<T>()
    } else {
        1
    };

    /// Appends `from`; where it now lies.
    #[inline]
    fn append(&mut self, from: &[T]) -> Piece {
        // Most states have no compare and no quotient: an empty piece, nothing touched.
        if from.is_empty() {
            return Piece::default();
        }
        let fits = self
            .chunks
            .last()
            .is_some_and(|c| c.capacity() - c.len() >= from.len());
        if !fits {
            self.open_chunk(from.len());
        }
        let chunk = self.chunks.len() - 1;
        let buf = &mut self.chunks[chunk];
        let start = buf.len();
        buf.extend_from_slice(from);
        self.used += from.len();
        Piece {
            chunk: chunk as u32,
            start: start as u32,
            end: buf.len() as u32,
        }
    }

    /// Starts a chunk with room for at least `need` entries (a spare one when it has room).
    #[cold]
    fn open_chunk(&mut self, need: usize) {
        let chunk = match self.spare.pop() {
            Some(c) if c.capacity() >= need => c,
            other => {
                self.spare.extend(other);
                Vec::with_capacity(need.max(Self::CHUNK))
            }
        };
        self.chunks.push(chunk);
    }

    /// The entries of `piece`.
    #[inline]
    fn get(&self, piece: Piece) -> &[T] {
        // An empty piece (`Piece::default()`) is in chunk 0 or in no chunk at all: either way
        // the lookup gives the empty slice. (Every other piece was handed out by `append`;
        // were one ever out of range, an empty state, which claims nothing, would be sound.)
        debug_assert!(
            piece.len() == 0
                || self
                    .chunks
                    .get(piece.chunk as usize)
                    .is_some_and(|c| piece.end as usize <= c.len())
        );
        // Most states have no quotient and many no compare: no lookup for an empty piece.
        if piece.start == piece.end {
            return &[];
        }
        self.chunks
            .get(piece.chunk as usize)
            .and_then(|c| c.get(piece.start as usize..piece.end as usize))
            .unwrap_or(&[])
    }

    /// An empty buffer that fills `spare` chunks first.
    fn with_spare(spare: Vec<Vec<T>>) -> Chunks<T> {
        Chunks {
            chunks: Vec::new(),
            spare,
            used: 0,
        }
    }

    /// Takes `old`'s chunks, emptied, as spare chunks of this buffer.
    fn reuse(&mut self, mut old: Chunks<T>) {
        old.clear();
        self.spare.append(&mut old.spare);
    }

    /// Empties the buffer, keeping its chunks for reuse.
    fn clear(&mut self) {
        for mut c in self.chunks.drain(..) {
            c.clear();
            self.spare.push(c);
        }
        self.used = 0;
    }
}

/// The emptied buffers of a [`BlockStates`], kept by the pass context for the next analysis
/// (see [`super::FactSetPool`]).
#[derive(Debug, Default)]
pub struct StateBuffers {
    cons: Chunks<Constraint>,
    cmps: Chunks<CmpFact>,
    quotients: Chunks<QuotientFact>,
    /// The per-block maps of the states' places.
    entry: SecondaryMap<Block, Option<Span>>,
    exit: SecondaryMap<Block, Option<Span>>,
}

/// The entry and exit states of every block an analysis reached (see the module docs).
#[derive(Clone, Debug, Default)]
pub(super) struct BlockStates {
    cons: Chunks<Constraint>,
    cmps: Chunks<CmpFact>,
    quotients: Chunks<QuotientFact>,
    entry: SecondaryMap<Block, Option<Span>>,
    exit: SecondaryMap<Block, Option<Span>>,
    /// The facts the current states hold together (the rest of the buffers is unused).
    live: usize,
}

/// The most facts the stored states may hold together: the analysis gives up past it whatever
/// its limits say (`FactLimits::max_stored_facts` is far below), so that entry and chunk
/// indices stay within `u32`.
pub(super) const MAX_LIVE: usize = (u32::MAX / 4) as usize;

/// Unused entries the buffers may hold beyond the live ones before they are compacted.
const COMPACT_SLACK: usize = 4096;

impl BlockStates {
    /// No state for any block of `func`, in `buffers` (empty: [`BlockStates::into_buffers`]
    /// empties them).
    pub(super) fn new(func: &Function, buffers: StateBuffers) -> BlockStates {
        let StateBuffers {
            cons,
            cmps,
            quotients,
            mut entry,
            mut exit,
        } = buffers;
        for map in [&mut entry, &mut exit] {
            map_room(map, func.blocks.len());
            map.clear();
            map.resize(func.blocks.len());
        }
        BlockStates {
            cons,
            cmps,
            quotients,
            entry,
            exit,
            live: 0,
        }
    }

    /// The buffers, emptied, for the next analysis.
    pub(super) fn into_buffers(self) -> StateBuffers {
        let BlockStates {
            mut cons,
            mut cmps,
            mut quotients,
            entry,
            exit,
            ..
        } = self;
        cons.clear();
        cmps.clear();
        quotients.clear();
        StateBuffers {
            cons,
            cmps,
            quotients,
            entry,
            exit,
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
            self.cons.get(span.cons),
            self.cmps.get(span.cmps),
            self.quotients.get(span.quotients),
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

    /// Entries appended since the buffers were last emptied, live or not.
    fn used(&self) -> usize {
        self.cons.used + self.cmps.used + self.quotients.used
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
            cons: self.cons.append(facts.constraints()),
            cmps: self.cmps.append(facts.compares()),
            quotients: self.quotients.append(facts.quotient_facts()),
        };
        let spans = match side {
            Side::Entry => &mut self.entry,
            Side::Exit => &mut self.exit,
        };
        let old = spans[block].replace(span);
        self.live = self.live - old.map_or(0, |s| s.len()) + span.len();
        if self.used() > 2 * self.live + COMPACT_SLACK {
            self.compact();
        }
    }

    /// Moves the stored states into fresh buffers, dropping the unused entries.
    #[cold]
    fn compact(&mut self) {
        // The new buffers start from the old ones' spare chunks, and the chunks the old ones
        // used become spares after the copy: compacting allocates only when the spares run out.
        let mut cons = Chunks::with_spare(std::mem::take(&mut self.cons.spare));
        let mut cmps = Chunks::with_spare(std::mem::take(&mut self.cmps.spare));
        let mut quotients = Chunks::with_spare(std::mem::take(&mut self.quotients.spare));
        for span in self
            .entry
            .values_mut()
            .chain(self.exit.values_mut())
            .flatten()
        {
            *span = Span {
                cons: cons.append(self.cons.get(span.cons)),
                cmps: cmps.append(self.cmps.get(span.cmps)),
                quotients: quotients.append(self.quotients.get(span.quotients)),
            };
        }
        // The old chunks, emptied, serve the new buffers' growth.
        cons.reuse(std::mem::take(&mut self.cons));
        cmps.reuse(std::mem::take(&mut self.cmps));
        quotients.reuse(std::mem::take(&mut self.quotients));
        self.cons = cons;
        self.cmps = cmps;
        self.quotients = quotients;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::facts::constraints::Term;
    use poolopt_ir::{CmpOp, EntityRef, Local, Operand};
    use std::collections::HashMap;

    /// Random stores against a model (the set last stored for each block and side): after
    /// every store each state reads back as the model's, the live count is the model's total,
    /// and the buffers stay within the compaction bound. States run from empty to larger than
    /// a chunk, with and without compares, so empty pieces, chunk boundaries, states with a
    /// chunk of their own and compactions all occur.
    #[test]
    fn random_stores_read_back_as_a_model_says() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut func = Function::new("f");
        let blocks: Vec<Block> = (0..24).map(|i| func.add_block(format!("b{i}"))).collect();
        let mut states = BlockStates::new(&func, StateBuffers::default());
        let mut model: HashMap<(usize, bool), FactSet> = HashMap::new();
        let big = Chunks::<Constraint>::CHUNK as u64;
        let (mut compacted, mut own_chunk) = (false, false);
        for _ in 0..800 {
            let (b, exit) = (next() as usize % blocks.len(), next() % 2 == 0);
            let size = match next() % 20 {
                0 => 0,
                1 => big + next() % 64,
                _ => next() % 12,
            };
            own_chunk |= size >= big;
            let mut set = FactSet::new();
            for i in 0..size {
                // Increasing first terms: each constraint goes at the end of the sorted set.
                let len_of = Local::new((next() % 5) as usize);
                set.add(
                    Term::value(Local::new(i as usize)),
                    Term::len(len_of),
                    (next() % 50) as i64 - 25,
                );
            }
            for c in 0..next() % 3 {
                set.add_cmp(CmpFact {
                    c: Local::new(100 + c as usize),
                    op: CmpOp::Slt,
                    lhs: Operand::Local(Local::new(0)),
                    rhs: Operand::Const(next() as i64 % 9),
                });
            }
            let side = if exit { Side::Exit } else { Side::Entry };
            let used_before = states.used();
            states.set(blocks[b], side, &set);
            compacted |= states.used() < used_before;
            model.insert((b, exit), set);
            for (&(b, exit), set) in &model {
                let side = if exit { Side::Exit } else { Side::Entry };
                assert_eq!(states.get(blocks[b], side), Some(set.view()));
            }
            assert_eq!(
                states.live(),
                model.values().map(|s| s.entries()).sum::<usize>()
            );
            assert!(states.used() <= 2 * states.live() + COMPACT_SLACK);
        }
        assert!(
            compacted && own_chunk,
            "the test did not reach what it is for"
        );
    }

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
            let used = states.used();
            assert!(used <= 2 * states.live() + COMPACT_SLACK + 4, "{used}");
            let held: usize = states
                .cons
                .chunks
                .iter()
                .chain(&states.cons.spare)
                .map(Vec::capacity)
                .sum();
            assert!(
                held <= 4 * (2 * states.live() + COMPACT_SLACK) + Chunks::<Constraint>::CHUNK,
                "{held}"
            );
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
        assert_eq!((again.live(), again.used()), (0, 0));
        assert!(again.cons.chunks.is_empty() && !again.cons.spare.is_empty());
        // A state larger than a chunk gets a chunk of its own.
        let mut states = again;
        let mut big = FactSet::new();
        let n = Chunks::<Constraint>::CHUNK as u32 + 10;
        for i in 0..n {
            big.add(
                Term::ZERO,
                Term::value(Local::new(i as usize)),
                i64::from(i),
            );
        }
        states.set(blocks[0], Side::Entry, &set_of(3));
        states.set(blocks[1], Side::Entry, &big);
        states.set(blocks[2], Side::Entry, &set_of(4));
        assert_eq!(states.get(blocks[1], Side::Entry), Some(big.view()));
        assert_eq!(states.get(blocks[0], Side::Entry), Some(set_of(3).view()));
        assert_eq!(states.get(blocks[2], Side::Entry), Some(set_of(4).view()));
    }
}
