//! Live-variable analysis over locals: which locals may be read before being written on some
//! path from a point. Backward iterative dataflow over the CFG with bit sets.
//!
//! A `setfield s.f, x` reads `s` (the other fields survive) and defines it, so a struct local
//! stays live across partial writes.

use super::cfg::Cfg;
use poolopt_ir::{Block, EntityRef, Function, InstKind, Local, Operand};

/// A fixed-size set of locals.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LocalSet {
    words: Vec<u64>,
}

impl LocalSet {
    pub fn new(num_locals: usize) -> LocalSet {
        LocalSet {
            words: vec![0; num_locals.div_ceil(64)],
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
        if let Some(w) = self.words.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }

    pub fn remove(&mut self, l: Local) {
        let i = l.index();
        if let Some(w) = self.words.get_mut(i / 64) {
            *w &= !(1 << (i % 64));
        }
    }
}

/// A read-only view of one block's set inside [`Liveness`]'s flat storage.
#[derive(Copy, Clone, Debug)]
pub struct LiveSet<'a> {
    words: &'a [u64],
}

impl LiveSet<'_> {
    pub fn contains(self, l: Local) -> bool {
        let i = l.index();
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// An owned copy.
    pub fn to_set(self) -> LocalSet {
        LocalSet {
            words: self.words.to_vec(),
        }
    }

    /// Overwrites `set` with this set (no allocation when `set` has the right size).
    pub fn copy_into(self, set: &mut LocalSet) {
        set.words.clear();
        set.words.extend_from_slice(self.words);
    }
}

/// Live-in and live-out sets of every block, stored flat: `words` 64-bit words per block, one
/// array for live-in and one for live-out (blocks not reachable have empty sets).
#[derive(Clone, Debug, Default)]
pub struct Liveness {
    words: usize,
    live_in: Vec<u64>,
    live_out: Vec<u64>,
}

impl Liveness {
    /// Computes liveness for `func`.
    pub fn compute(func: &Function, cfg: &Cfg) -> Liveness {
        let w = func.locals.len().div_ceil(64).max(1);
        let nb = func.blocks.len();
        let mut gen = vec![0u64; nb * w];
        let mut kill = vec![0u64; nb * w];
        let set = |v: &mut [u64], b: usize, l: Local| {
            let i = l.index();
            v[b * w + i / 64] |= 1 << (i % 64);
        };
        let has = |v: &[u64], b: usize, l: Local| {
            let i = l.index();
            v[b * w + i / 64] & (1 << (i % 64)) != 0
        };
        // gen (upward-exposed uses) and kill (defs) per block.
        for &blk in cfg.rpo() {
            let b = blk.index();
            for &inst in &func.blocks[blk].insts {
                let kind = &func.insts[inst].kind;
                kind.for_each_use(|op| {
                    if let Operand::Local(l) = op {
                        if l.index() < func.locals.len() && !has(&kill, b, l) {
                            set(&mut gen, b, l);
                        }
                    }
                });
                if let Some(d) = kind.def() {
                    if d.index() < func.locals.len() {
                        set(&mut kill, b, d);
                    }
                }
            }
            if let Some(Operand::Local(l)) = func.blocks[blk]
                .terminator
                .as_ref()
                .and_then(|t| t.used_operand())
            {
                if l.index() < func.locals.len() && !has(&kill, b, l) {
                    set(&mut gen, b, l);
                }
            }
        }
        let mut live = Liveness {
            words: w,
            live_in: vec![0u64; nb * w],
            live_out: vec![0u64; nb * w],
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &blk in cfg.rpo().iter().rev() {
                let b = blk.index();
                // out = ∪ in(succ)
                for k in 0..w {
                    let mut o = 0u64;
                    for &s in cfg.succs(blk) {
                        o |= live.live_in[s.index() * w + k];
                    }
                    live.live_out[b * w + k] = o;
                }
                // in = gen | (out - kill)
                for k in 0..w {
                    let i = b * w + k;
                    let new = (live.live_out[i] & !kill[i]) | gen[i];
                    if new != live.live_in[i] {
                        live.live_in[i] = new;
                        changed = true;
                    }
                }
            }
        }
        live
    }

    /// *Strong* liveness for dead-code elimination: like [`Liveness::compute`], except that a
    /// removable instruction ([`InstKind::is_removable_when_dead`]) whose destination is not live after it does not
    /// make its operands live — it is dead, and so are the values only it reads. Solved in one
    /// dataflow, this finds in one go everything that repeated rounds of "remove dead
    /// instructions, recompute liveness" find, and also dead cycles (`x = add x, 1` in a loop
    /// with `x` read nowhere else). Not distributive, so a block's transfer walks its
    /// instructions; sets start empty and only grow (the transfer is monotone), so the
    /// worklist reaches the least fixpoint.
    pub fn compute_strong(func: &Function, cfg: &Cfg) -> Liveness {
        let w = func.locals.len().div_ceil(64).max(1);
        let nb = func.blocks.len();
        let mut live = Liveness {
            words: w,
            live_in: vec![0u64; nb * w],
            live_out: vec![0u64; nb * w],
        };
        let mut cur = LocalSet::new(func.locals.len());
        // A worklist seeded in post-order (successors first); a block is walked again only
        // when the live-in set of one of its successors grew.
        let mut queued = vec![true; nb];
        let mut work: Vec<Block> = cfg.rpo().to_vec();
        while let Some(blk) = work.pop() {
            let b = blk.index();
            queued[b] = false;
            for k in 0..w {
                let mut o = 0u64;
                for &s in cfg.succs(blk) {
                    o |= live.live_in[s.index() * w + k];
                }
                live.live_out[b * w + k] = o;
            }
            cur.words.clear();
            cur.words
                .extend_from_slice(&live.live_out[b * w..(b + 1) * w]);
            let data = &func.blocks[blk];
            if let Some(Operand::Local(l)) = data.terminator.as_ref().and_then(|t| t.used_operand())
            {
                cur.insert(l);
            }
            for &inst in data.insts.iter().rev() {
                let kind = &func.insts[inst].kind;
                if let Some(d) = kind.def() {
                    if !cur.contains(d) && kind.is_removable_when_dead() {
                        continue;
                    }
                    if !matches!(kind, InstKind::SetField { .. }) {
                        cur.remove(d);
                    }
                }
                kind.for_each_use(|op| {
                    if let Operand::Local(l) = op {
                        cur.insert(l);
                    }
                });
            }
            let slot = &mut live.live_in[b * w..(b + 1) * w];
            if slot != cur.words.as_slice() {
                slot.copy_from_slice(&cur.words);
                for &p in cfg.preds(blk) {
                    if cfg.is_reachable(p) && !queued[p.index()] {
                        queued[p.index()] = true;
                        work.push(p);
                    }
                }
            }
        }
        live
    }

    fn view<'a>(&self, v: &'a [u64], block: Block) -> LiveSet<'a> {
        let lo = block.index() * self.words;
        LiveSet {
            words: v.get(lo..lo + self.words).unwrap_or(&[]),
        }
    }

    /// Locals live on entry to `block`.
    pub fn live_in(&self, block: Block) -> LiveSet<'_> {
        self.view(&self.live_in, block)
    }

    /// Locals live on exit from `block`.
    pub fn live_out(&self, block: Block) -> LiveSet<'_> {
        self.view(&self.live_out, block)
    }

    /// Whether `local` is live immediately after instruction `index` of `block`
    /// (`index == usize::MAX` is not accepted; use [`Liveness::live_in`] for the block start).
    pub fn live_after(&self, func: &Function, block: Block, index: usize, local: Local) -> bool {
        let data = &func.blocks[block];
        for &inst in data.insts.iter().skip(index + 1) {
            let kind = &func.insts[inst].kind;
            let mut used = false;
            kind.for_each_use(|op| used |= op == Operand::Local(local));
            if used {
                return true;
            }
            if kind.def() == Some(local) && !matches!(kind, InstKind::SetField { .. }) {
                return false;
            }
        }
        if data.terminator.as_ref().and_then(|t| t.used_operand()) == Some(Operand::Local(local)) {
            return true;
        }
        self.live_out(block).contains(local)
    }
}
