//! The fixpoint driver of the fact analysis: in which order the blocks are evaluated, how
//! often, and what one evaluation does. The fact domain is [`super::constraints`], the rules
//! are [`super::transfer`].
//!
//! **Order.** The strongly connected components of the CFG are taken in topological order
//! ([`Components`]): every edge between two of them goes forward, so when a component's turn
//! comes, the out-states of all its predecessors outside it are final. A component without a
//! cycle (one block, no self-loop) is evaluated once. A component with a cycle (a loop nest)
//! is swept in reverse post-order until a sweep changes nothing; within a sweep a block is
//! evaluated again only when the out-state of one of its predecessors changed after its last
//! evaluation (change clocks), since its in-state cannot differ otherwise.
//!
//! **One evaluation** of block `b`: the facts of each edge into it (the predecessor's
//! out-state and what the branch condition says), minus the facts about locals dead on entry
//! to `b`, met over the edges (a pair of terms keeps the weaker offset); at a loop header (a
//! predecessor not before it in the reverse post-order) relations implied by constant bounds
//! are made explicit and the new in-state is widened against the old one (an offset that grew
//! is dropped; past `strict_after` visits only directly recorded pairs stay, so the pairs
//! only shrink and every cycle, which passes through a header, settles). If the in-state is
//! unchanged nothing else is done; otherwise each instruction's transfer gives the out-state.
//!
//! **Soundness** does not depend on the order: the result is a post-fixpoint of the same
//! equations (each block's in-state is the meet of its edges' facts, widened at headers,
//! and its out-state the transfer of its in-state), and every fact in it holds on every path
//! by the argument of [`super`]. An earlier driver swept the whole function in reverse
//! post-order; a block after a loop was then evaluated once per sweep of the loop, and a
//! loop after another loop was swept while the first one's exit state still changed. The
//! components' order evaluates each block outside loops once, and widens a loop's header
//! only against states whose inputs from outside the loop are final.
//!
//! Two safety nets (see [`super`]): a component's fixpoint may take at most
//! [`FactLimits::max_sweeps`] sweeps, and the stored sets may hold at most
//! [`FactLimits::max_stored_facts`] facts together; past either the analysis gives up.

use super::block_states::{self, BlockStates, Side};
use super::demand::{demanded_blocks, FactDemand};
use super::{
    block_deaths, drop_dead, edge_facts_into, step_block, CallKills, FactAnalysis, FactLimits,
    FactQueries, FactSet, FactSetPool, GaveUp, Tracked,
};
use crate::analysis::cfg::Cfg;
use crate::analysis::liveness::{LiveWalk, Liveness};
use poolopt_ir::components::Components;
use poolopt_ir::{Block, EntityRef, Function, SecondaryMap};

/// The driver's state across the evaluations of one function.
struct Fixpoint<'a> {
    func: &'a Function,
    cfg: &'a Cfg,
    live: &'a Liveness,
    limits: FactLimits,
    entry: Block,
    /// Evaluations of each loop header with a changed in-state (the widening schedule).
    visits: SecondaryMap<Block, u32>,
    /// Change clocks: when each block was last evaluated, and when its out-state last changed.
    clock: u64,
    evaluated_at: SecondaryMap<Block, u64>,
    out_changed_at: SecondaryMap<Block, u64>,
    /// A block's later in-edges are built in one reused set.
    edge_scratch: FactSet,
    /// Buffers of replaced sets, for the next evaluation's in- and out-set.
    spare_in: FactSet,
    spare_out: FactSet,
    /// Where a first evaluation's sets come from (see [`FactSetPool`]).
    pool: &'a mut FactSetPool,
    /// The blocks to evaluate, by index (`None`: all; see [`super::demand`]).
    demanded: Option<Vec<bool>>,
    /// The set steps the fixpoint may take (see [`super::MAX_WORK_BASE`]).
    max_work: u64,
}

impl FactAnalysis {
    pub(super) fn compute_tracked(
        func: &Function,
        cfg: &Cfg,
        live: &Liveness,
        calls: CallKills,
        tracked: Tracked,
        (limits, demand): (FactLimits, FactDemand),
        pool: &mut FactSetPool,
    ) -> FactAnalysis {
        let mut fa = FactAnalysis {
            states: BlockStates::new(func, pool.take_state_buffers()),
            death_range: func.block_map(),
            tracked,
            calls,
            demand,
            ..FactAnalysis::default()
        };
        let Some(entry) = func.entry() else {
            return fa;
        };
        let mut alive = LiveWalk::default();
        for &b in cfg.rpo() {
            let start = fa.deaths.len() as u32;
            block_deaths(func, b, live, &mut alive, &mut fa.deaths);
            fa.death_range[b] = (start, fa.deaths.len() as u32);
        }
        let mut fixpoint = Fixpoint {
            func,
            cfg,
            live,
            limits,
            entry,
            visits: func.block_map(),
            clock: 0,
            evaluated_at: func.block_map(),
            out_changed_at: func.block_map(),
            edge_scratch: pool.take(),
            spare_in: pool.take(),
            spare_out: pool.take(),
            pool,
            demanded: demanded_blocks(func, cfg, demand),
            max_work: limits.work_base.saturating_add(
                limits
                    .work_per_inst
                    .saturating_mul(func.inst_count() as u64),
            ),
        };
        let outcome = fixpoint.run(&mut fa, &Components::of(cfg));
        fixpoint.finish();
        match outcome {
            Ok(()) => fa,
            Err(why) => fa.give_up(func, cfg, why),
        }
    }
}

impl Fixpoint<'_> {
    /// Evaluates the components in topological order, each cyclic one until a sweep changes
    /// nothing (see the module docs).
    fn run(&mut self, fa: &mut FactAnalysis, components: &Components) -> Result<(), GaveUp> {
        fa.sweeps = usize::from(!components.is_empty());
        for k in 0..components.len() {
            let blocks = components.blocks(k);
            if !components.is_cyclic(k) {
                self.evaluate(fa, blocks[0])?;
                continue;
            }
            let mut sweeps = 0;
            loop {
                sweeps += 1;
                fa.sweeps = fa.sweeps.max(sweeps);
                if sweeps > self.limits.max_sweeps {
                    return Err(GaveUp::Sweeps);
                }
                let mut changed = false;
                for &b in blocks {
                    changed |= self.evaluate(fa, b)?;
                }
                if !changed {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Adds `steps` to the work done (`work`, the analysis's count); past the budget, the
    /// analysis gives up.
    fn charge(&self, work: &mut u64, steps: u64) -> Result<(), GaveUp> {
        *work = work.saturating_add(steps);
        if *work > self.max_work {
            return Err(GaveUp::Work);
        }
        Ok(())
    }

    /// `spare`'s buffers when it has some (a set replaced earlier), else a set from the pool.
    /// Its contents are left over: every caller overwrites or clears it.
    fn take_spare(spare: &mut FactSet, pool: &mut FactSetPool) -> FactSet {
        let set = std::mem::take(spare);
        if set.has_buffers() {
            set
        } else {
            pool.take()
        }
    }

    /// Hands the scratch sets back to the pool.
    fn finish(&mut self) {
        for set in [
            std::mem::take(&mut self.edge_scratch),
            std::mem::take(&mut self.spare_in),
            std::mem::take(&mut self.spare_out),
        ] {
            self.pool.give(set);
        }
    }

    /// Evaluates `b` if it has not been yet or a predecessor's out-state changed since;
    /// returns whether its in-state changed (and so it was evaluated).
    fn evaluate(&mut self, fa: &mut FactAnalysis, b: Block) -> Result<bool, GaveUp> {
        let (func, cfg) = (self.func, self.cfg);
        // A sink (a bare `trap` or `ret`) holds nothing to decide and passes nothing on; a
        // block outside the demand reaches no block that is asked about.
        let sink = func.blocks[b].insts.is_empty() && cfg.succs(b).is_empty();
        if sink || self.demanded.as_ref().is_some_and(|on| !on[b.index()]) {
            return Ok(false);
        }
        let stale = cfg
            .preds(b)
            .iter()
            .any(|&p| self.out_changed_at[p] > self.evaluated_at[b]);
        if self.evaluated_at[b] != 0 && !stale {
            return Ok(false);
        }
        self.clock += 1;
        self.evaluated_at[b] = self.clock;
        let mut state: Option<FactSet> = if b == self.entry {
            // The entry knows nothing: an empty set.
            let mut empty = Self::take_spare(&mut self.spare_in, self.pool);
            empty.clear();
            Some(empty)
        } else {
            None
        };
        // Facts about locals that are dead here can never be used again (a dead local is
        // written before it is read): eliminating them on each edge, before the meet, keeps
        // what they linked (`i < n`, `n == len(v)` gives `i < len(v)`) and every set as small
        // as the live state, so long functions cost linear time.
        let live_in = self.live.live_in(b);
        let mut questions = 0u64;
        for &p in cfg.preds(b) {
            let Some(out) = fa.states.get(p, Side::Exit) else {
                continue; // unreachable or not yet visited: top
            };
            match state.as_mut() {
                None => {
                    // In the buffers of a set this loop stored before and replaced.
                    let mut edge = Self::take_spare(&mut self.spare_in, self.pool);
                    edge_facts_into(func, &fa.tracked, p, b, out, &mut edge);
                    drop_dead(&mut edge, live_in);
                    state = Some(edge);
                }
                Some(s) => {
                    edge_facts_into(func, &fa.tracked, p, b, out, &mut self.edge_scratch);
                    drop_dead(&mut self.edge_scratch, live_in);
                    questions += s.meet_with(self.edge_scratch.view()) as u64;
                }
            }
        }
        let Some(mut new_in) = state else {
            return Ok(false);
        };
        fa.evaluations += 1;
        // The work budget: the edges and the meet's path questions now, a widening's below,
        // and each instruction of the replay as it goes (a set may grow within the block).
        let preds = cfg.preds(b).len() as u64;
        let facts = new_in.entries() as u64 + 1;
        self.charge(&mut fa.work, facts * (preds + 1 + questions))?;
        // At a loop header (a predecessor not before it in the reverse post-order: a back
        // edge), relations implied by constant bounds are made explicit.
        let header = cfg
            .preds(b)
            .iter()
            .any(|&p| cfg.rpo_index(p) >= cfg.rpo_index(b));
        if header {
            new_in.close_through_zero();
        }
        if let Some(old) = fa.states.get(b, Side::Entry) {
            if new_in.view() == old {
                self.spare_in = new_in;
                return Ok(false);
            }
            // Widening at loop headers: an offset that grew is dropped, not counted up. The
            // ordinary widening also keeps what the old state implied by a path, which can
            // change on every visit (a loop that pops each turn does:
            // `strict_widening_starts_after_the_fourth_changed_visit_of_a_header`); past
            // `strict_after` visits only directly recorded pairs stay, so the pairs only
            // shrink. Every cycle passes through a header, so that bounds the sweeps; other
            // blocks keep the constraints their edges give afresh each sweep.
            if header {
                self.visits[b] += 1;
                if self.visits[b] > self.limits.strict_after {
                    new_in.widen_strict(old);
                } else {
                    let questions = new_in.widen(old) as u64;
                    self.charge(&mut fa.work, facts * questions)?;
                }
            }
            if new_in.view() == old {
                self.spare_in = new_in;
                return Ok(false);
            }
        }
        let mut s = Self::take_spare(&mut self.spare_out, self.pool);
        s.copy_from(new_in.view());
        let mut next_death = 0;
        for (index, &inst) in func.blocks[b].insts.iter().enumerate() {
            self.charge(&mut fa.work, s.entries() as u64 + 1)?;
            step_block(
                func,
                &fa.calls,
                &fa.tracked,
                inst,
                index,
                fa.deaths_of(b),
                &mut next_death,
                &mut s,
            );
        }
        // The states are stored in the analysis's shared buffers (see `BlockStates`); the
        // working sets serve the next evaluation.
        fa.states.set(b, Side::Entry, &new_in);
        let out_changed = fa.states.set_if_changed(b, Side::Exit, &s);
        fa.peak_stored = fa.peak_stored.max(fa.states.live());
        self.spare_in = new_in;
        self.spare_out = s;
        if fa.states.live() > self.limits.max_stored_facts.min(block_states::MAX_LIVE) {
            return Err(GaveUp::StoredFacts);
        }
        if out_changed {
            self.clock += 1;
            self.out_changed_at[b] = self.clock;
        }
        Ok(true)
    }
}
