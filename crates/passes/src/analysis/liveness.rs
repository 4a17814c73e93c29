//! Live-variable analysis over locals: which locals may be read before being written on some
//! path from a point. Backward iterative dataflow over the CFG with bit sets.
//!
//! A `setfield s.f, x` reads `s` (the other fields survive) and defines it, so a struct local
//! stays live across partial writes.

use super::cfg::Cfg;
use poolopt_ir::{Block, EntityRef, Function, InstKind, Local, Operand, SecondaryMap};

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

    /// `self |= other`; returns whether `self` changed.
    pub fn union_with(&mut self, other: &LocalSet) -> bool {
        let mut changed = false;
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            let new = *a | *b;
            changed |= new != *a;
            *a = new;
        }
        changed
    }
}

/// Live-in and live-out sets of every reachable block.
#[derive(Clone, Debug, Default)]
pub struct Liveness {
    live_in: SecondaryMap<Block, LocalSet>,
    live_out: SecondaryMap<Block, LocalSet>,
}

impl Liveness {
    /// Computes liveness for `func`.
    pub fn compute(func: &Function, cfg: &Cfg) -> Liveness {
        let n = func.locals.len();
        let mut live = Liveness::default();
        // gen (upward-exposed uses) and kill (defs) per block.
        let mut gen: SecondaryMap<Block, LocalSet> = SecondaryMap::new();
        let mut kill: SecondaryMap<Block, LocalSet> = SecondaryMap::new();
        for &b in cfg.rpo() {
            let mut g = LocalSet::new(n);
            let mut k = LocalSet::new(n);
            for &inst in &func.blocks[b].insts {
                let kind = &func.insts[inst].kind;
                kind.for_each_use(|op| {
                    if let Operand::Local(l) = op {
                        if !k.contains(l) {
                            g.insert(l);
                        }
                    }
                });
                if let Some(d) = kind.def() {
                    k.insert(d);
                }
            }
            if let Some(Operand::Local(l)) = func.blocks[b]
                .terminator
                .as_ref()
                .and_then(|t| t.used_operand())
            {
                if !k.contains(l) {
                    g.insert(l);
                }
            }
            gen[b] = g;
            kill[b] = k;
            live.live_in[b] = LocalSet::new(n);
            live.live_out[b] = LocalSet::new(n);
        }
        let mut changed = true;
        let mut inn = LocalSet::new(n);
        while changed {
            changed = false;
            for &b in cfg.rpo().iter().rev() {
                // out = ∪ in(succ), updated in place.
                let mut out = std::mem::take(&mut live.live_out[b]);
                out.words.iter_mut().for_each(|w| *w = 0);
                for &s in cfg.succs(b) {
                    out.union_with(&live.live_in[s]);
                }
                // in = gen | (out - kill)
                for ((w, o), (k, g)) in inn
                    .words
                    .iter_mut()
                    .zip(&out.words)
                    .zip(kill[b].words.iter().zip(&gen[b].words))
                {
                    *w = (*o & !*k) | *g;
                }
                if inn != live.live_in[b] {
                    std::mem::swap(&mut live.live_in[b], &mut inn);
                    changed = true;
                }
                live.live_out[b] = out;
            }
        }
        live
    }

    /// Locals live on entry to `block`.
    pub fn live_in(&self, block: Block) -> &LocalSet {
        &self.live_in[block]
    }

    /// Locals live on exit from `block`.
    pub fn live_out(&self, block: Block) -> &LocalSet {
        &self.live_out[block]
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
        self.live_out[block].contains(local)
    }
}
