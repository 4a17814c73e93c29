//! Live-variable analysis over locals: which locals may be read before being written on some
//! path from a point. Backward iterative dataflow over the CFG with bit sets over the locals that
//! can be live at a block boundary (see [`Liveness`]): sweeps over the blocks until nothing
//! changes, and past [`MAX_SWEEPS`] of them (a deep loop nest) exploration from the reads
//! (`explore.rs`), which gives the same sets.
//!
//! A `setfield s.f, x` reads `s` (the other fields survive) and defines it, so a struct local
//! stays live across partial writes.

mod entry;
mod explore;
mod walk;

use super::cfg::Cfg;
pub(crate) use entry::{live_on_entry, EntryReads};
pub use explore::ExploreScratch;
use poolopt_ir::{Block, BlockData, EntityRef, Function, InstKind, Local, Operand};
pub use walk::LiveWalk;
use walk::{DenseWalk, NumberedWalk, WalkSet};

/// Up to this many words a set is cleared whole; a larger one remembers which words it set.
const SMALL_SET_WORDS: usize = 8;

/// A set of locals, with a clear that costs what was inserted since the last one (a function
/// with many locals and many blocks walks one reused set per block).
#[derive(Clone, Debug, Default)]
pub struct LocalSet {
    words: Vec<u64>,
    /// Indices of the words that may be non-zero (kept only past [`SMALL_SET_WORDS`]).
    touched: Vec<u32>,
}

impl PartialEq for LocalSet {
    fn eq(&self, other: &LocalSet) -> bool {
        self.words == other.words
    }
}

impl Eq for LocalSet {}

impl LocalSet {
    pub fn new(num_locals: usize) -> LocalSet {
        LocalSet {
            words: vec![0; num_locals.div_ceil(64)],
            touched: Vec::new(),
        }
    }

    pub fn contains(&self, l: Local) -> bool {
        let i = l.index();
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    pub fn insert(&mut self, l: Local) {
        let i = l.index();
        let track = self.words.len() > SMALL_SET_WORDS;
        if let Some(w) = self.words.get_mut(i / 64) {
            if *w == 0 && track {
                self.touched.push((i / 64) as u32);
            }
            *w |= 1 << (i % 64);
        }
    }

    pub fn remove(&mut self, l: Local) {
        let i = l.index();
        if let Some(w) = self.words.get_mut(i / 64) {
            *w &= !(1 << (i % 64));
        }
    }

    /// Empties the set.
    pub fn clear(&mut self) {
        if self.words.len() <= SMALL_SET_WORDS {
            self.words.fill(0);
            return;
        }
        for &k in &self.touched {
            self.words[k as usize] = 0;
        }
        self.touched.clear();
    }
}

/// The work space of [`Liveness::compute_strong_in`].
pub struct StrongScratch {
    /// The set walked backwards through a block (under a boundary numbering).
    cur: LiveWalk,
    /// What a block's new live-out set adds to its old one, over the boundary bits.
    grown: Vec<u64>,
    /// Which blocks are to be walked (again).
    queued: Vec<bool>,
    /// Per block, `words` words: the bits of the locals the block defines (recorded by its
    /// first walk). A block whose live-out set grew by none of them needs no second walk.
    defines: Vec<u64>,
    /// The work space of exploration.
    explore: ExploreScratch,
    /// Per block (by index), whether the last walk of it met a definition of a local not
    /// strongly live after it (see [`StrongScratch::has_dead_definition`]).
    dead_definition: Vec<bool>,
    /// The storage of a liveness handed back ([`StrongScratch::recycle`]), for the next one.
    spare_sets: Vec<u64>,
}

/// The room a new [`StrongScratch`]'s per-block buffers start with: enough for an ordinary
/// function, rather than growing step by step (a reallocation each) over the first few.
const MIN_BLOCKS: usize = 64;

impl Default for StrongScratch {
    fn default() -> StrongScratch {
        StrongScratch {
            cur: LiveWalk::default(),
            grown: Vec::new(),
            queued: Vec::with_capacity(MIN_BLOCKS),
            defines: Vec::with_capacity(MIN_BLOCKS),
            explore: ExploreScratch::default(),
            dead_definition: Vec::with_capacity(MIN_BLOCKS),
            spare_sets: Vec::with_capacity(2 * MIN_BLOCKS),
        }
    }
}

impl StrongScratch {
    /// Whether `block` holds a definition of a local that is not strongly live right after
    /// it, in the strong liveness [`Liveness::compute_strong_in`] last computed with this
    /// scratch: what dead-code elimination removes or stops writing. A block it says `false`
    /// of has nothing for that sweep. (Always `true` when the computation fell back to
    /// exploration, which does not record it.)
    pub fn has_dead_definition(&self, block: Block) -> bool {
        self.dead_definition.get(block.index()).is_none_or(|&d| d)
    }

    /// Keeps the storage of `live` (a strong liveness computed with this scratch and no longer
    /// needed) for the next computation.
    pub fn recycle(&mut self, live: Liveness) {
        self.spare_sets = live.sets;
    }
}

/// A read-only view of one block's set inside [`Liveness`]'s flat storage.
#[derive(Copy, Clone, Debug)]
pub struct LiveSet<'a> {
    /// Bits over the locals `numbering` numbers (see [`Liveness`]).
    words: &'a [u64],
    numbering: &'a Numbering,
}

impl LiveSet<'_> {
    pub fn contains(self, l: Local) -> bool {
        self.numbering.bit_of(l).is_some_and(|g| {
            self.words
                .get(g / 64)
                .is_some_and(|w| w & (1 << (g % 64)) != 0)
        })
    }

    /// An owned copy.
    pub fn to_set(self) -> LocalSet {
        let mut set = LocalSet::new(self.numbering.num_locals());
        self.copy_into(&mut set);
        set
    }

    /// Overwrites `set` with this set (no allocation when `set` has the right size).
    pub fn copy_into(self, set: &mut LocalSet) {
        let num_locals = self.numbering.num_locals();
        let len = num_locals.div_ceil(64);
        if let Numbering::Every { .. } = self.numbering {
            if set.words.len() == len && self.words.len() >= len {
                // Every word of the set is overwritten: nothing to clear first.
                set.words.copy_from_slice(&self.words[..len]);
                if len > SMALL_SET_WORDS {
                    set.touched.clear();
                    set.touched.extend(0..len as u32);
                }
                return;
            }
        }
        if set.words.len() != len {
            *set = LocalSet::new(num_locals);
        } else {
            set.clear();
        }
        let Numbering::Boundary { list, .. } = self.numbering else {
            // Every local has its own bit: the words are the set's own.
            let k = self.words.len().min(set.words.len());
            set.words[..k].copy_from_slice(&self.words[..k]);
            if k > SMALL_SET_WORDS {
                set.touched.extend(0..k as u32);
            }
            return;
        };
        for (k, &w) in self.words.iter().enumerate() {
            let mut bits = w;
            while bits != 0 {
                let g = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                set.insert(list[g]);
            }
        }
    }
}

/// Live-in and live-out sets of every block, stored flat: `words` 64-bit words per block, in
/// one array, the live-in sets of all blocks first, then the live-out sets (blocks not
/// reachable have empty sets).
///
/// The sets range over the *boundary* locals only: those read in some block before any
/// assignment in that block. Any other local is written before it is read in every block that
/// reads it, so it is live into no block, and out of none (live-out is the union of the
/// successors' live-in). A front end that gives every subexpression a fresh temporary makes
/// most locals block-local; without this, `n` blocks × `n` locals cost `n²` bits. A function
/// of at most `DENSE_LOCALS` locals skips the numbering: its sets are a few words anyway,
/// and every local has its own bit (`Numbering::Every`).
#[derive(Clone, Debug, Default)]
pub struct Liveness {
    words: usize,
    /// Live-in sets at `[0, out)`, live-out sets at `[out, 2 * out)`.
    sets: Vec<u64>,
    /// Where the live-out sets start in `sets` (blocks × words).
    out: usize,
    numbering: Numbering,
}

/// Which locals the sets of a [`Liveness`] range over, and the bit of each.
#[derive(Clone, Debug)]
enum Numbering {
    /// Every local, its bit its index.
    Every { num_locals: usize },
    /// The boundary locals only: each local's bit (or `u32::MAX`), and the local of each bit.
    Boundary { index: Vec<u32>, list: Vec<Local> },
}

impl Default for Numbering {
    fn default() -> Numbering {
        Numbering::Every { num_locals: 0 }
    }
}

impl Numbering {
    /// The numbering for `func`: every local up to [`DENSE_LOCALS`], else the boundary ones.
    fn of(func: &Function, cfg: &Cfg) -> Numbering {
        if func.locals.len() <= DENSE_LOCALS {
            Numbering::Every {
                num_locals: func.locals.len(),
            }
        } else {
            let (index, list) = boundary_locals(func, cfg);
            Numbering::Boundary { index, list }
        }
    }

    /// The locals of the function.
    fn num_locals(&self) -> usize {
        match self {
            Numbering::Every { num_locals } => *num_locals,
            Numbering::Boundary { index, .. } => index.len(),
        }
    }

    /// How many bits a set has.
    fn bits(&self) -> usize {
        match self {
            Numbering::Every { num_locals } => *num_locals,
            Numbering::Boundary { list, .. } => list.len(),
        }
    }

    /// The bit of `l`, if the sets range over it.
    fn bit_of(&self, l: Local) -> Option<usize> {
        match self {
            Numbering::Every { num_locals } => (l.index() < *num_locals).then_some(l.index()),
            Numbering::Boundary { index, .. } => match index.get(l.index()) {
                Some(&g) if g != u32::MAX => Some(g as usize),
                _ => None,
            },
        }
    }
}

/// Past this many words a liveness's storage is shrunk to its sets once its computation no
/// longer needs the room after them (a copy that costs little beside such a computation, and
/// frees half the memory of a large function's liveness).
const SHRINK_SETS_PAST: usize = 1 << 14;

/// Sweeps after which liveness is computed by exploration instead: a loop nest needs about
/// one sweep per level (a change crosses one back edge per sweep), and each sweep costs the
/// blocks times their sets, so a nest 1,600 deep took 0.3 s (plain) and 5.5 s (strong) by
/// sweeps, 23 ms and 28 ms by exploration (`explore.rs`). Exploration costs more per bit, so
/// the ordinary function, whose nests are shallow, keeps the sweeps (exploration for every
/// function made slot_pool_8's O2 pipeline 2.12 M → 2.39 M instructions).
pub const MAX_SWEEPS: usize = 8;

/// Up to this many locals, liveness sets range over every local (see [`Liveness`]).
const DENSE_LOCALS: usize = 512;

/// The boundary locals of `func` (see [`Liveness`]): each local's index among them (or
/// `u32::MAX`) and the list.
fn boundary_locals(func: &Function, cfg: &Cfg) -> (Vec<u32>, Vec<Local>) {
    let exposed = exposed_locals(func, cfg.rpo());
    let mut index = vec![u32::MAX; exposed.len()];
    let mut list = Vec::new();
    for (i, &e) in exposed.iter().enumerate() {
        if e {
            index[i] = list.len() as u32;
            list.push(Local::new(i));
        }
    }
    (index, list)
}

/// Per local, whether some block of `blocks` reads it before assigning it.
fn exposed_locals(func: &Function, blocks: &[Block]) -> Vec<bool> {
    let n = func.locals.len();
    // `defined_in[l]` is 1 + the index of the last block walked that assigned `l`.
    let mut defined_in = vec![0u32; n];
    let mut exposed = vec![false; n];
    for &blk in blocks {
        let stamp = blk.index() as u32 + 1;
        let mut read = |l: Local, defined_in: &[u32]| {
            if l.index() < n && defined_in[l.index()] != stamp {
                exposed[l.index()] = true;
            }
        };
        for &inst in &func.blocks[blk].insts {
            let kind = &func.insts[inst].kind;
            kind.for_each_use(|op| {
                if let Operand::Local(l) = op {
                    read(l, &defined_in);
                }
            });
            if let Some(d) = kind.def() {
                if d.index() < n {
                    defined_in[d.index()] = stamp;
                }
            }
        }
        if let Some(Operand::Local(l)) = func.blocks[blk]
            .terminator
            .as_ref()
            .and_then(|t| t.used_operand())
        {
            read(l, &defined_in);
        }
    }
    exposed
}

impl Liveness {
    /// An all-empty liveness over `func`'s boundary locals.
    fn empty(func: &Function, cfg: &Cfg) -> Liveness {
        Liveness::empty_in(func, cfg, Vec::new())
    }

    /// [`Liveness::empty`] with its sets in `sets` (storage to reuse; its contents are
    /// overwritten).
    fn empty_in(func: &Function, cfg: &Cfg, sets: Vec<u64>) -> Liveness {
        Liveness::empty_with_room(func, cfg, sets, 2)
    }

    /// [`Liveness::empty_in`] with room in `sets` for `room_sets` sets per block (the two
    /// of the liveness and any its computation puts after them).
    fn empty_with_room(
        func: &Function,
        cfg: &Cfg,
        mut sets: Vec<u64>,
        room_sets: usize,
    ) -> Liveness {
        let numbering = Numbering::of(func, cfg);
        let w = numbering.bits().div_ceil(64).max(1);
        let nb = func.blocks.len();
        sets.clear();
        sets.reserve(room_sets.max(2) * nb * w);
        sets.resize(2 * nb * w, 0);
        Liveness {
            words: w,
            sets,
            out: nb * w,
            numbering,
        }
    }

    /// How many 64-bit words the live-in sets of `func` take together (the live-out sets as
    /// many again): its blocks times a set's words, which range over every local up to 512
    /// locals and over the locals some block reads before assigning them past that.
    /// Computed without a CFG (unreachable blocks count too), in one walk.
    pub fn set_words(func: &Function) -> usize {
        let bits = if func.locals.len() <= DENSE_LOCALS {
            func.locals.len()
        } else {
            exposed_locals(func, &func.layout)
                .iter()
                .filter(|&&e| e)
                .count()
        };
        func.blocks.len() * bits.div_ceil(64).max(1)
    }

    /// Computes liveness for `func`: by sweeps ([`Liveness::by_sweeps`]), and by exploration
    /// (`explore.rs`) when more than [`MAX_SWEEPS`] of them would be needed (a loop nest that
    /// deep). The same sets either way.
    pub fn compute(func: &Function, cfg: &Cfg) -> Liveness {
        Liveness::by_sweeps(func, cfg, MAX_SWEEPS)
            .unwrap_or_else(|| Liveness::explore(func, cfg, false, &mut ExploreScratch::default()))
    }

    /// Liveness (`strong`: strong liveness) by exploration, whatever the function's shape:
    /// what [`Liveness::compute`] falls back to, public so that tests can hold the two
    /// algorithms against each other.
    pub fn by_exploration(func: &Function, cfg: &Cfg, strong: bool) -> Liveness {
        Liveness::explore(func, cfg, strong, &mut ExploreScratch::default())
    }

    /// Liveness by iterative sweeps over the blocks in post-order, or `None` when they have
    /// not reached the fixpoint after `max_sweeps` (`usize::MAX`: sweep until they do).
    pub fn by_sweeps(func: &Function, cfg: &Cfg, max_sweeps: usize) -> Option<Liveness> {
        // gen and kill go after the live-in and live-out sets, in their allocation, and are
        // cut off at the end: an allocation and a free fewer per computation (a function
        // whose sets are large gives the room back).
        let mut live = Liveness::empty_with_room(func, cfg, Vec::new(), 4);
        let w = live.words;
        let nb = func.blocks.len();
        live.sets.resize(4 * nb * w, 0);
        let Liveness {
            sets, numbering, ..
        } = &mut live;
        let numbering = &*numbering;
        let (in_out, gen_kill) = sets.split_at_mut(2 * nb * w);
        let (gen, kill) = gen_kill.split_at_mut(nb * w);
        let set = |v: &mut [u64], b: usize, g: usize| {
            v[b * w + g / 64] |= 1 << (g % 64);
        };
        let has = |v: &[u64], b: usize, g: usize| v[b * w + g / 64] & (1 << (g % 64)) != 0;
        // gen (upward-exposed uses) and kill (defs) per block, over the boundary locals.
        if w == 1 {
            // One word per set (at most 64 bits): the block's two words are built in
            // registers and stored once.
            for &blk in cfg.rpo() {
                let ([g], [k]) = gen_kill_words::<1>(func, &func.blocks[blk], numbering);
                gen[blk.index()] = g;
                kill[blk.index()] = k;
            }
        } else if w == 2 {
            // Two words (65 to 128 bits): likewise, in arrays of exactly the set's words (the
            // general arrays below are eight words, zeroed and cut for every block).
            for &blk in cfg.rpo() {
                let (g, k) = gen_kill_words::<2>(func, &func.blocks[blk], numbering);
                let words = blk.index() * 2..(blk.index() + 1) * 2;
                gen[words.clone()].copy_from_slice(&g);
                kill[words].copy_from_slice(&k);
            }
        } else if w <= DENSE_LOCALS / 64 {
            // Likewise in two fixed arrays, of which the set's words are stored.
            const N: usize = DENSE_LOCALS / 64;
            for &blk in cfg.rpo() {
                let (g, k) = gen_kill_words::<N>(func, &func.blocks[blk], numbering);
                let words = blk.index() * w..(blk.index() + 1) * w;
                gen[words.clone()].copy_from_slice(&g[..w]);
                kill[words].copy_from_slice(&k[..w]);
            }
        } else {
            for &blk in cfg.rpo() {
                let b = blk.index();
                for &inst in &func.blocks[blk].insts {
                    let kind = &func.insts[inst].kind;
                    kind.for_each_use(|op| {
                        if let Some(g) = op.as_local().and_then(|l| numbering.bit_of(l)) {
                            if !has(kill, b, g) {
                                set(gen, b, g);
                            }
                        }
                    });
                    if let Some(g) = kind.def().and_then(|d| numbering.bit_of(d)) {
                        set(kill, b, g);
                    }
                }
                if let Some(g) = func.blocks[blk]
                    .terminator
                    .as_ref()
                    .and_then(|t| t.used_operand())
                    .and_then(|op| op.as_local())
                    .and_then(|l| numbering.bit_of(l))
                {
                    if !has(kill, b, g) {
                        set(gen, b, g);
                    }
                }
            }
        }
        let (live_in, live_out) = in_out.split_at_mut(nb * w);
        // Sweeps in post-order until nothing changes. In the first one, every successor
        // that is not later in reverse post-order (a back edge, a self loop) is noted: without
        // one, each block's successors were final before it, so that sweep reached the
        // fixpoint and the confirming sweep is skipped (a function without loops).
        let mut first = true;
        let mut back_edge = false;
        let mut changed = true;
        let mut sweeps = 0;
        while changed {
            if sweeps == max_sweeps {
                return None;
            }
            sweeps += 1;
            changed = false;
            for (at, &blk) in cfg.rpo().iter().enumerate().rev() {
                let b = blk.index();
                if first && !back_edge {
                    back_edge = cfg
                        .succs(blk)
                        .iter()
                        .any(|&s| cfg.rpo_index(s).is_none_or(|k| k as usize <= at));
                }
                if w == 1 {
                    // The same two steps on one word per set.
                    let mut o = 0u64;
                    for &s in cfg.succs(blk) {
                        o |= live_in.get(s.index()).copied().unwrap_or(0);
                    }
                    if let (Some(out), Some(&g), Some(&k), Some(inn)) = (
                        live_out.get_mut(b),
                        gen.get(b),
                        kill.get(b),
                        live_in.get_mut(b),
                    ) {
                        *out = o;
                        let new = (o & !k) | g;
                        if new != *inn {
                            *inn = new;
                            changed = true;
                        }
                    }
                    continue;
                }
                if w == 2 {
                    // The same two steps on two words per set, in registers.
                    let mut o = [0u64; 2];
                    for &s in cfg.succs(blk) {
                        if let Some(succ_in) = live_in.get(s.index() * 2..s.index() * 2 + 2) {
                            o[0] |= succ_in[0];
                            o[1] |= succ_in[1];
                        }
                    }
                    let words = b * 2..b * 2 + 2;
                    if let (Some(out), Some(g), Some(k), Some(inn)) = (
                        live_out.get_mut(words.clone()),
                        gen.get(words.clone()),
                        kill.get(words.clone()),
                        live_in.get_mut(words),
                    ) {
                        for j in 0..2 {
                            out[j] = o[j];
                            let new = (o[j] & !k[j]) | g[j];
                            if new != inn[j] {
                                inn[j] = new;
                                changed = true;
                            }
                        }
                    }
                    continue;
                }
                // out = ∪ in(succ)
                for k in 0..w {
                    let mut o = 0u64;
                    for &s in cfg.succs(blk) {
                        o |= live_in[s.index() * w + k];
                    }
                    live_out[b * w + k] = o;
                }
                // in = gen | (out - kill)
                for k in 0..w {
                    let i = b * w + k;
                    let new = (live_out[i] & !kill[i]) | gen[i];
                    if new != live_in[i] {
                        live_in[i] = new;
                        changed = true;
                    }
                }
            }
            if first && !back_edge {
                break;
            }
            first = false;
        }
        live.sets.truncate(2 * nb * w);
        if live.sets.capacity() > SHRINK_SETS_PAST {
            live.sets.shrink_to_fit();
        }
        Some(live)
    }

    /// *Strong* liveness for dead-code elimination: like [`Liveness::compute`], except that a
    /// removable instruction ([`InstKind::is_removable_when_dead`]) whose destination is not live after it does not
    /// make its operands live — it is dead, and so are the values only it reads. Solved in one
    /// dataflow, this finds in one go everything that repeated rounds of "remove dead
    /// instructions, recompute liveness" find, and also dead cycles (`x = add x, 1` in a loop
    /// with `x` read nowhere else). Not distributive, so a block's transfer walks its
    /// instructions (again only when its live-out set gained a local the block defines: any
    /// other passes through unchanged); sets start empty and only grow (the transfer is
    /// monotone), so the worklist reaches the least fixpoint.
    pub fn compute_strong(func: &Function, cfg: &Cfg) -> Liveness {
        Liveness::compute_strong_in(func, cfg, &mut StrongScratch::default())
    }

    /// [`Liveness::compute_strong`] with its work space in `scratch` (kept by the caller from
    /// one function to the next; overwritten before it is read).
    /// Like [`Liveness::compute`], by sweeps unless more than [`MAX_SWEEPS`] are needed.
    pub fn compute_strong_in(func: &Function, cfg: &Cfg, scratch: &mut StrongScratch) -> Liveness {
        Liveness::strong_by_sweeps(func, cfg, scratch, MAX_SWEEPS).unwrap_or_else(|| {
            // Exploration does not record the blocks with a dead definition: every block may.
            scratch.dead_definition.clear();
            Liveness::explore(func, cfg, true, &mut scratch.explore)
        })
    }

    /// Strong liveness by sweeps, or `None` when they have not reached the fixpoint after
    /// `max_sweeps` (`usize::MAX`: sweep until they do).
    pub fn strong_by_sweeps(
        func: &Function,
        cfg: &Cfg,
        scratch: &mut StrongScratch,
        max_sweeps: usize,
    ) -> Option<Liveness> {
        Liveness::strong_sweeps(func, cfg, scratch, max_sweeps, true)
    }

    /// [`Liveness::strong_by_sweeps`]; `dense`: by [`strong_sweeps_dense`] when the function
    /// has at most 128 locals (the tests turn it off to hold the two against each other).
    fn strong_sweeps(
        func: &Function,
        cfg: &Cfg,
        scratch: &mut StrongScratch,
        max_sweeps: usize,
        dense: bool,
    ) -> Option<Liveness> {
        let mut live = Liveness::empty_in(func, cfg, std::mem::take(&mut scratch.spare_sets));
        let w = live.words;
        let nb = func.blocks.len();
        let StrongScratch {
            cur,
            grown,
            queued,
            defines,
            dead_definition,
            ..
        } = scratch;
        dead_definition.clear();
        dead_definition.resize(nb, false);
        // `cur` is started afresh per block (`LiveWalk::start_from`); `defines` is written by
        // each block's first walk, in the first sweep, before it is read.
        grown.clear();
        grown.resize(w, 0);
        defines.clear();
        defines.resize(nb * w, 0);
        // Sweeps in post-order (successors first) over the blocks marked dirty: a block is
        // walked again only when the live-in set of one of its successors grew. A change
        // reaches a predecessor earlier in the reverse post-order in the same sweep, and one
        // across a back edge in the next, so a loop nest `d` deep takes about `d` sweeps
        // with only the changed blocks walked. (A last-in-first-out worklist chased each
        // change around every enclosing loop at once: 0.93 s for a nest 800 deep.) The
        // transfer is monotone and the sets start empty, so any order reaches the same
        // least fixpoint.
        queued.clear();
        queued.resize(nb, true);
        if let (Numbering::Every { num_locals }, true) = (&live.numbering, dense) {
            let buffers = DenseScratch {
                queued,
                defines,
                dead_definition,
            };
            let done = match w {
                1 => strong_sweeps_dense::<1>(
                    func,
                    cfg,
                    &mut live.sets,
                    *num_locals,
                    buffers,
                    max_sweeps,
                ),
                2 => strong_sweeps_dense::<2>(
                    func,
                    cfg,
                    &mut live.sets,
                    *num_locals,
                    buffers,
                    max_sweeps,
                ),
                _ => None,
            };
            if let Some(done) = done {
                return done.then_some(live);
            }
        }
        let (live_in, live_out) = live.sets.split_at_mut(live.out);
        let mut dirty = true;
        let mut sweeps = 0;
        while dirty {
            if sweeps == max_sweeps {
                return None;
            }
            sweeps += 1;
            dirty = false;
            for &blk in cfg.rpo().iter().rev() {
                let b = blk.index();
                if !queued[b] {
                    continue;
                }
                queued[b] = false;
                let words = b * w..(b + 1) * w;
                // The new live-out set, and what it adds to the old one (`grown`): when the
                // block defines none of those locals, they pass through it untouched — every
                // definition is as live as before, so the walk would make the same decisions
                // and only add them to the live-in set. Then that is the new live-in set, without
                // a walk (and the block's dead definitions stay as they were). In the first
                // sweep every block is walked: its sets are still empty.
                let mut walk = sweeps == 1;
                for k in 0..w {
                    let mut o = 0u64;
                    for &s in cfg.succs(blk) {
                        o |= live_in[s.index() * w + k];
                    }
                    let slot = &mut live_out[b * w + k];
                    grown[k] = o & !*slot;
                    *slot = o;
                    walk |= grown[k] & defines[b * w + k] != 0;
                }
                let changed = if walk {
                    let data = &func.blocks[blk];
                    let defined = &mut defines[words.clone()];
                    let out = &live_out[words.clone()];
                    let new_in = &mut live_in[words];
                    // Without a boundary numbering every local has its own bit, at most
                    // `DENSE_LOCALS` of them: the walk keeps them in a fixed array (of one
                    // word, for at most 64 locals).
                    let (dead, changed) = match live.numbering {
                        Numbering::Every { num_locals } if w == 1 => {
                            let mut set = DenseWalk::<1>::start(out, num_locals);
                            let dead = strong_transfer(func, data, &mut set, defined);
                            (dead, overwrite(new_in, set.bits()))
                        }
                        Numbering::Every { num_locals } => {
                            let mut set =
                                DenseWalk::<{ DENSE_LOCALS / 64 }>::start(out, num_locals);
                            let dead = strong_transfer(func, data, &mut set, defined);
                            (dead, overwrite(new_in, set.bits()))
                        }
                        Numbering::Boundary { .. } => {
                            cur.start_from(LiveSet {
                                words: out,
                                numbering: &live.numbering,
                            });
                            let mut set = NumberedWalk {
                                walk: cur,
                                numbering: &live.numbering,
                            };
                            let dead = strong_transfer(func, data, &mut set, defined);
                            // The walk's boundary bits are the new live-in set.
                            (dead, overwrite(new_in, cur.bits()))
                        }
                    };
                    dead_definition[b] = dead;
                    changed
                } else {
                    let mut changed = false;
                    for (i, &g) in live_in[words].iter_mut().zip(grown.iter()) {
                        changed |= g & !*i != 0;
                        *i |= g;
                    }
                    changed
                };
                if changed {
                    for &p in cfg.preds(blk) {
                        if cfg.is_reachable(p) && !queued[p.index()] {
                            queued[p.index()] = true;
                            // Across a back edge (or to itself): the next sweep.
                            dirty |= cfg.rpo_index(p) >= cfg.rpo_index(blk);
                        }
                    }
                }
            }
        }
        Some(live)
    }

    /// The set of `block` in the half of `sets` that starts at `base`.
    fn view(&self, base: usize, block: Block) -> LiveSet<'_> {
        let lo = base + block.index() * self.words;
        let hi = (base + self.out).min(lo + self.words);
        LiveSet {
            words: self.sets.get(lo..hi).unwrap_or(&[]),
            numbering: &self.numbering,
        }
    }

    /// Whether `self` and `other` (two liveness results of `func`, whatever their numbering)
    /// have the same live-in and live-out locals at every block of `func`.
    pub fn same_sets(&self, other: &Liveness, func: &Function) -> bool {
        func.layout.iter().all(|&b| {
            self.live_in(b).to_set() == other.live_in(b).to_set()
                && self.live_out(b).to_set() == other.live_out(b).to_set()
        })
    }

    /// Locals live on entry to `block`.
    pub fn live_in(&self, block: Block) -> LiveSet<'_> {
        self.view(0, block)
    }

    /// Locals live on exit from `block`.
    pub fn live_out(&self, block: Block) -> LiveSet<'_> {
        self.view(self.out, block)
    }

    /// Whether `local` is live immediately after instruction `index` of `block`
    /// (`index == usize::MAX` is not accepted; use [`Liveness::live_in`] for the block start).
    pub fn live_after(&self, func: &Function, block: Block, index: usize, local: Local) -> bool {
        live_after_in_block(func, block, index, local)
            .unwrap_or_else(|| self.live_out(block).contains(local))
    }
}

/// Whether `local` is live immediately after instruction `index` of `block`, as far as the
/// block's own code decides it: `Some(true)` when a later instruction or the terminator reads
/// it before any instruction overwrites it whole, `Some(false)` when one overwrites it first,
/// `None` when nothing after `index` mentions it (it is then live exactly when it is live out
/// of the block). A pass that asks about a few locals can leave the liveness analysis
/// uncomputed when the block decides them all.
pub fn live_after_in_block(
    func: &Function,
    block: Block,
    index: usize,
    local: Local,
) -> Option<bool> {
    let data = &func.blocks[block];
    for &inst in data.insts.iter().skip(index + 1) {
        let kind = &func.insts[inst].kind;
        let mut used = false;
        kind.for_each_use(|op| used |= op == Operand::Local(local));
        if used {
            return Some(true);
        }
        if kind.def() == Some(local) && !matches!(kind, InstKind::SetField { .. }) {
            return Some(false);
        }
    }
    if data.terminator.as_ref().and_then(|t| t.used_operand()) == Some(Operand::Local(local)) {
        return Some(true);
    }
    None
}

/// The gen (read before any write in the block) and kill (written) bits of `data` under
/// `numbering`, whose sets have at most `64 * N` bits (`N` words): what
/// [`Liveness::by_sweeps`] computes bit by bit, in place, for sets of any size.
fn gen_kill_words<const N: usize>(
    func: &Function,
    data: &BlockData,
    numbering: &Numbering,
) -> ([u64; N], [u64; N]) {
    // The numbering is matched once per block rather than once per operand.
    match numbering {
        Numbering::Every { num_locals } => {
            let bits = (*num_locals).min(64 * N);
            gen_kill_by(func, data, |l| (l.index() < bits).then_some(l.index()))
        }
        Numbering::Boundary { .. } => {
            gen_kill_by(func, data, |l| numbering.bit_of(l).filter(|&g| g < 64 * N))
        }
    }
}

/// [`gen_kill_words`] with `bit_of` giving each local's bit (below `64 * N`), if any.
fn gen_kill_by<const N: usize>(
    func: &Function,
    data: &BlockData,
    bit_of: impl Fn(Local) -> Option<usize>,
) -> ([u64; N], [u64; N]) {
    // `g < 64 * N`, so `g / 64 < N`: the remainder changes nothing, and spares an index
    // check per access.
    let bit = |l: Local| bit_of(l).map(|g| ((g / 64) % N, 1u64 << (g % 64)));
    let (mut gen, mut kill) = ([0u64; N], [0u64; N]);
    let read = |l: Local, gen: &mut [u64; N], kill: &[u64; N]| {
        if let Some((k, m)) = bit(l) {
            gen[k] |= m & !kill[k];
        }
    };
    for &inst in &data.insts {
        let kind = &func.insts[inst].kind;
        kind.for_each_use(|op| {
            if let Operand::Local(l) = op {
                read(l, &mut gen, &kill);
            }
        });
        if let Some((k, m)) = kind.def().and_then(bit) {
            kill[k] |= m;
        }
    }
    if let Some(Operand::Local(l)) = data.terminator.as_ref().and_then(|t| t.used_operand()) {
        read(l, &mut gen, &kill);
    }
    (gen, kill)
}

/// Overwrites `set` with the first words of `new`; returns whether that changed it.
fn overwrite(set: &mut [u64], new: &[u64]) -> bool {
    let mut changed = false;
    for (s, &n) in set.iter_mut().zip(new) {
        changed |= *s != n;
        *s = n;
    }
    changed
}

/// Strong liveness's transfer through one block: walks `data` backwards from the set in
/// `set` (the block's live-out set), which it leaves holding the block's live-in set. Sets in
/// `defined` the bits of the locals the block defines, and returns whether one of its
/// definitions writes a local not live after it.
fn strong_transfer(
    func: &Function,
    data: &BlockData,
    set: &mut impl WalkSet,
    defined: &mut [u64],
) -> bool {
    if let Some(Operand::Local(l)) = data.terminator.as_ref().and_then(|t| t.used_operand()) {
        set.insert(l);
    }
    let mut dead = false;
    for &inst in data.insts.iter().rev() {
        let kind = &func.insts[inst].kind;
        if let Some(d) = kind.def() {
            if let Some(g) = set.bit_of(d) {
                defined[g / 64] |= 1 << (g % 64);
            }
            let live_after = set.contains(d);
            dead |= !live_after;
            if !live_after && kind.is_removable_when_dead() {
                continue;
            }
            if !matches!(kind, InstKind::SetField { .. }) {
                set.remove(d);
            }
        }
        kind.for_each_use(|op| {
            if let Operand::Local(l) = op {
                set.insert(l);
            }
        });
    }
    dead
}

/// The per-block buffers of [`strong_sweeps_dense`], from [`StrongScratch`].
struct DenseScratch<'a> {
    /// Per block: whether it is to be walked (again); all `true` on entry.
    queued: &'a mut [bool],
    /// Per block, a set's words: the bits of the locals it defines (written by its first
    /// walk).
    defines: &'a mut [u64],
    /// Per block: whether its last walk met a dead definition.
    dead_definition: &'a mut [bool],
}

/// [`Liveness::strong_by_sweeps`] for a function whose sets are `N` words, every local its
/// own bit (`Numbering::Every`): the same sweeps over the same blocks in the same order,
/// making the same decisions, on fixed arrays of `N` words held in registers (the general
/// loop's per-word loops over a run-time length, its `grown` buffer and its slices cost more
/// than the walk of a small block). `sets` holds the live-in sets of the blocks, then their
/// live-out sets, `N` words each. Returns whether the sweeps reached the fixpoint within
/// `max_sweeps`, or `None` (having changed nothing) when the sets are not `N` words.
fn strong_sweeps_dense<const N: usize>(
    func: &Function,
    cfg: &Cfg,
    sets: &mut [u64],
    num_locals: usize,
    scratch: DenseScratch<'_>,
    max_sweeps: usize,
) -> Option<bool> {
    let DenseScratch {
        queued,
        defines,
        dead_definition,
    } = scratch;
    let nb = func.blocks.len();
    if sets.len() != 2 * nb * N || defines.len() != nb * N || num_locals > 64 * N {
        return None;
    }
    let (live_in, live_out) = sets.split_at_mut(nb * N);
    let words = |b: usize| b * N..(b + 1) * N;
    let mut dirty = true;
    let mut sweeps = 0;
    while dirty {
        if sweeps == max_sweeps {
            return Some(false);
        }
        sweeps += 1;
        dirty = false;
        for &blk in cfg.rpo().iter().rev() {
            let b = blk.index();
            let (Some(queue), Some(out), Some(defined), Some(old_in)) = (
                queued.get_mut(b),
                live_out.get_mut(words(b)),
                defines.get_mut(words(b)),
                live_in.get(words(b)),
            ) else {
                continue;
            };
            if !*queue {
                continue;
            }
            *queue = false;
            let mut o = [0u64; N];
            for &s in cfg.succs(blk) {
                if let Some(succ_in) = live_in.get(words(s.index())) {
                    for k in 0..N {
                        o[k] |= succ_in[k];
                    }
                }
            }
            // As in the general loop: a block is walked in the first sweep, and again only
            // when its live-out set gained a local it defines.
            let mut grown = [0u64; N];
            let mut walk = sweeps == 1;
            for k in 0..N {
                grown[k] = o[k] & !out[k];
                out[k] = o[k];
                walk |= grown[k] & defined[k] != 0;
            }
            let old_in: [u64; N] = std::array::from_fn(|k| old_in[k]);
            let new_in: [u64; N] = if walk {
                let mut set = DenseWalk::<N>::start(&o, num_locals);
                let dead = strong_transfer(func, &func.blocks[blk], &mut set, defined);
                if let Some(d) = dead_definition.get_mut(b) {
                    *d = dead;
                }
                std::array::from_fn(|k| set.bits()[k])
            } else {
                std::array::from_fn(|k| old_in[k] | grown[k])
            };
            if new_in != old_in {
                if let Some(slot) = live_in.get_mut(words(b)) {
                    slot.copy_from_slice(&new_in);
                }
                for &p in cfg.preds(blk) {
                    if cfg.is_reachable(p) && !queued[p.index()] {
                        queued[p.index()] = true;
                        // Across a back edge (or to itself): the next sweep.
                        dirty |= cfg.rpo_index(p) >= cfg.rpo_index(blk);
                    }
                }
            }
        }
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The functions of the repository's programs.
    fn programs() -> Vec<Function> {
        crate::test_programs::functions()
    }

    /// On every function of the repository's programs, `live_after` (the block's code, then
    /// the live-out set where the code leaves it open) gives, for every local after every
    /// instruction of every reachable block, the set of a plain backward walk from the
    /// block's live-out set.
    #[test]
    fn live_after_is_the_backward_walk_from_the_live_out_set() {
        let (mut checked, mut open) = (0, 0);
        for func in programs() {
            let cfg = Cfg::compute(&func);
            let live = Liveness::compute(&func, &cfg);
            for &block in cfg.rpo() {
                let data = &func.blocks[block];
                let mut set = live.live_out(block).to_set();
                if let Some(l) = data.terminator.as_ref().and_then(|t| t.used_operand()) {
                    set.extend_local(l);
                }
                for (index, &inst) in data.insts.iter().enumerate().rev() {
                    for l in func.locals.keys() {
                        assert_eq!(
                            live.live_after(&func, block, index, l),
                            set.contains(l),
                            "{} {block:?} {index} {l:?}",
                            func.name
                        );
                        checked += 1;
                        open += usize::from(live_after_in_block(&func, block, index, l).is_none());
                    }
                    let kind = &func.insts[inst].kind;
                    if let Some(d) = kind.def() {
                        if !matches!(kind, InstKind::SetField { .. }) {
                            set.remove(d);
                        }
                    }
                    kind.for_each_use(|op| set.extend_local(op));
                }
            }
        }
        assert!(checked > 10_000 && open > 1_000, "{checked} {open}");
    }

    /// On every function of the repository's programs, as written and after the O2 pipeline,
    /// the dense strong sweeps (up to 128 locals) give the general loop's answer: the same
    /// sets, the same blocks with a dead definition, and the same verdict when the sweeps are
    /// cut short (after one, two or three of them).
    #[test]
    fn dense_strong_sweeps_are_the_general_ones() {
        let (mut compared, mut cut_short, mut two_words) = (0, 0, 0);
        let optimized = crate::test_programs::optimized_functions();
        for func in programs().into_iter().chain(optimized) {
            two_words += usize::from((65..=128).contains(&func.locals.len()));
            let cfg = Cfg::compute(&func);
            for max_sweeps in [1, 2, 3, usize::MAX] {
                let (mut dense, mut general) = (StrongScratch::default(), StrongScratch::default());
                let by_dense = Liveness::strong_sweeps(&func, &cfg, &mut dense, max_sweeps, true);
                let by_general =
                    Liveness::strong_sweeps(&func, &cfg, &mut general, max_sweeps, false);
                assert_eq!(by_dense.is_some(), by_general.is_some(), "{}", func.name);
                let (Some(by_dense), Some(by_general)) = (by_dense, by_general) else {
                    cut_short += 1;
                    continue;
                };
                assert_eq!(by_dense.sets, by_general.sets, "{}", func.name);
                for &b in cfg.rpo() {
                    assert_eq!(
                        dense.has_dead_definition(b),
                        general.has_dead_definition(b),
                        "{} {b:?}",
                        func.name
                    );
                }
                compared += 1;
            }
        }
        assert!(
            compared > 1000 && cut_short > 20 && two_words >= 3,
            "{compared} {cut_short} {two_words}"
        );
    }

    /// On every function of the repository's programs whose sets are two words (65 to 128
    /// locals), as written and after the O2 pipeline, and on a generated loop over 100 locals,
    /// the sweeps (whose two-word steps run in registers) give exploration's sets.
    #[test]
    fn two_word_sweeps_give_explorations_sets() {
        let vars: String = (0..100).map(|i| format!("    var a{i}: i64\n")).collect();
        let defs: String = (0..100)
            .map(|i| format!("    a{i} = add n, {i}\n"))
            .collect();
        let sums: String = (0..100).map(|i| format!("    s = add s, a{i}\n")).collect();
        let src = format!(
            "fn wide(n: i64) -> i64 {{\n{vars}    var s: i64\n    var c: bool\nentry:\n{defs}    \
             br head\nhead:\n{sums}    c = slt s, n\n    brif c, head, out\nout:\n    ret s\n}}\n"
        );
        let module = poolopt_ir::parse(&src).expect("a generated function parses");
        let generated = module.funcs.into_iter().map(|(_, f)| f);
        let optimized = crate::test_programs::optimized_functions();
        let mut two_words = 0;
        for func in programs().into_iter().chain(optimized).chain(generated) {
            let cfg = Cfg::compute(&func);
            if Numbering::of(&func, &cfg).bits().div_ceil(64) != 2 {
                continue;
            }
            let swept = Liveness::by_sweeps(&func, &cfg, usize::MAX).expect("no bound");
            let explored = Liveness::by_exploration(&func, &cfg, false);
            assert!(swept.same_sets(&explored, &func), "{}", func.name);
            two_words += 1;
        }
        assert!(two_words >= 4, "{two_words} functions of two-word sets");
    }

    impl LocalSet {
        /// Inserts the local `op` reads, if it is one.
        fn extend_local(&mut self, op: Operand) {
            if let Operand::Local(l) = op {
                self.insert(l);
            }
        }
    }

    /// `gen_kill_words` gives, for every block of every function whose sets fit its words
    /// (one, two and eight), the bits of the straightforward definition: a local read before the
    /// block writes it (a `setfield` reads before it writes), and a local the block writes.
    #[test]
    fn gen_kill_words_are_the_straightforward_gen_and_kill() {
        let (mut one, mut two, mut eight, mut wide) = (0, 0, 0, 0);
        // Besides the repository's functions (none of which has more than a word of boundary
        // locals in most blocks), functions with 100, 300 and 500 locals live across a block
        // boundary, so every word of the eight is used.
        let generated = [100, 300, 500].map(|k| {
            let vars: String = (0..k).map(|i| format!("    var a{i}: i64\n")).collect();
            let defs: String = (0..k).map(|i| format!("    a{i} = add n, {i}\n")).collect();
            let sums: String = (0..k).map(|i| format!("    s = add s, a{i}\n")).collect();
            let src = format!(
                "fn wide(n: i64) -> i64 {{\n{vars}    var s: i64\nentry:\n{defs}    br next\nnext:\n{sums}    ret s\n}}\n"
            );
            let module = poolopt_ir::parse(&src).expect("a generated function parses");
            module.funcs.into_iter().next().expect("one function").1
        });
        for func in programs().into_iter().chain(generated) {
            let cfg = Cfg::compute(&func);
            let numbering = Numbering::of(&func, &cfg);
            if numbering.bits() > 8 * 64 {
                continue;
            }
            if numbering.bits() > 72 {
                wide += 1;
            }
            for &blk in &func.layout {
                let data = &func.blocks[blk];
                let mut written = HashSet::new();
                let (mut gen, mut kill) = ([0u64; 8], [0u64; 8]);
                let read = |l: Local, written: &HashSet<Local>, gen: &mut [u64; 8]| {
                    if let Some(g) = numbering.bit_of(l) {
                        if !written.contains(&l) {
                            gen[g / 64] |= 1 << (g % 64);
                        }
                    }
                };
                for &inst in &data.insts {
                    let kind = &func.insts[inst].kind;
                    let mut uses = Vec::new();
                    kind.for_each_use(|op| uses.extend(op.as_local()));
                    for l in uses {
                        read(l, &written, &mut gen);
                    }
                    if let Some(d) = kind.def() {
                        written.insert(d);
                        if let Some(g) = numbering.bit_of(d) {
                            kill[g / 64] |= 1 << (g % 64);
                        }
                    }
                }
                if let Some(l) = data
                    .terminator
                    .as_ref()
                    .and_then(|t| t.used_operand())
                    .and_then(|op| op.as_local())
                {
                    read(l, &written, &mut gen);
                }
                assert_eq!(
                    gen_kill_words::<8>(&func, data, &numbering),
                    (gen, kill),
                    "{} {blk:?}",
                    func.name
                );
                eight += 1;
                if numbering.bits() <= 64 {
                    assert_eq!(
                        gen_kill_words::<1>(&func, data, &numbering),
                        ([gen[0]], [kill[0]]),
                        "{} {blk:?}",
                        func.name
                    );
                    one += 1;
                }
                if numbering.bits() <= 128 {
                    assert_eq!(
                        gen_kill_words::<2>(&func, data, &numbering),
                        ([gen[0], gen[1]], [kill[0], kill[1]]),
                        "{} {blk:?}",
                        func.name
                    );
                    two += 1;
                }
            }
        }
        assert!(
            one > 500 && two > one && eight > two,
            "{one}, {two} and {eight} blocks"
        );
        assert!(
            wide >= 3,
            "{wide} functions of more than 72 boundary locals"
        );
    }
}
