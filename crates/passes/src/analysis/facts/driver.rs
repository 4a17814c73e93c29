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
//! to `b`, met over the edges (a pair of terms keeps the weaker offset). An edge from a block
//! that does not branch two ways, whose out-state mentions no local dead on entry to `b`, is
//! that out-state as it is (`edge_keeps_out`): the jumps into loop headers and joins, half
//! the edges of slot_pool_8's O2 analyses (90 of 179). Such an edge is read in place, met
//! with or copied once, instead of being copied, given its (no) branch facts and scanned
//! again for what dies; on slot_pool_8 at O2 that saved ~21 K instructions of ~820 K in
//! `bounds-check-elim`. At a loop header (a predecessor not before it in the reverse
//! post-order) relations implied by constant bounds are made explicit and the new in-state is
//! widened against the old one (an offset that grew is dropped; past `strict_after` visits
//! only directly recorded pairs stay, so the pairs only shrink and every cycle, which passes
//! through a header, settles). If the in-state is unchanged nothing else is done; otherwise
//! each instruction's transfer gives the out-state.
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
//! A weak topological order (Bourdoncle's nested components) was measured in place of the
//! sweeps (docs/benchmarks.md, "Issue 9, nineteenth session"): its recursive strategy, which
//! settles an inner loop before what follows it, saves evaluations after an inner loop
//! (slot_pool_8's `lifo_owner` at O2: 61 → 56) but settles again inner loops that the outer
//! loop's next round changes anyway (`scattered_owner`: 46 → 58), 150 evaluations against
//! 146 on the six functions; its order alone, still swept, evaluates exactly as many blocks as
//! reverse post-order. Building it costs more (~46 K instructions against ~20 K for the
//! components), and the results were the same, so the sweeps stay.
//!
//! Two safety nets (see [`super`]): a component's fixpoint may take at most
//! [`FactLimits::max_sweeps`] sweeps, and the stored sets may hold at most
//! [`FactLimits::max_stored_facts`] facts together; past either the analysis gives up.

use super::block_states::{self, BlockStates, Side};
use super::demand::{decides_in, demanded_blocks, FactDemand};
use super::{
    block_deaths, edge_keeps_out, live_edge_facts_into, step_block, watched_locals, CallKills,
    FactAnalysis, FactLimits, FactQueries, FactSet, FactSetPool, GaveUp, RelevanceScratch, Tracked,
};
use crate::analysis::cfg::Cfg;
use crate::analysis::liveness::{LiveWalk, Liveness};
use poolopt_ir::components::Components;
use poolopt_ir::room::map_room;
use poolopt_ir::{Block, EntityRef, Function};

/// The driver's state across the evaluations of one function.
struct Fixpoint<'a> {
    func: &'a Function,
    cfg: &'a Cfg,
    live: &'a Liveness,
    limits: FactLimits,
    entry: Block,
    /// Change clocks: when each block was last evaluated, and when its out-state last changed
    /// (in `scratch.clocks`).
    clock: u64,
    /// A block's later in-edges are built in one reused set.
    edge_scratch: FactSet,
    /// The set a block's in-state is built in and its replay runs in (its buffers serve
    /// every evaluation).
    work: FactSet,
    /// Where a first evaluation's sets come from (see [`FactSetPool`]).
    pool: &'a mut FactSetPool,
    /// The per-analysis buffers, taken from the pool and given back (see [`DriverScratch`]).
    scratch: DriverScratch,
    /// The set steps the fixpoint may take (see [`super::MAX_WORK_BASE`]).
    max_work: u64,
}

/// The driver's per-block tables and work space, kept in the [`FactSetPool`] from one
/// analysis to the next: an analysis allocates none of them once earlier ones have grown
/// them to the size of their functions.
#[derive(Debug, Default)]
pub(super) struct DriverScratch {
    /// The strongly connected components of the CFG.
    components: Components,
    /// Per block, by index (see [`BlockClock`]).
    clocks: Vec<BlockClock>,
    /// The demanded blocks, by index, and the demand's work list.
    demanded: Vec<bool>,
    demand_work: Vec<Block>,
    /// The backward walk of `block_deaths`, and the locals whose deaths it lists
    /// (`watched_locals`).
    alive: LiveWalk,
    watched: Vec<bool>,
    /// The work space of the tables made before the fixpoint, boxed: this struct moves in
    /// and out of the pool and the driver at every analysis, and the tables' dozens of vectors
    /// made each move cost as much as the rest of it.
    pub(super) setup: Option<Box<SetupScratch>>,
}

/// The work space of the tables made before the fixpoint (see [`DriverScratch`]).
#[derive(Debug, Default)]
pub(super) struct SetupScratch {
    /// The call kills' tables of the last recycled analysis (see [`CallKills::recompute`]).
    pub(super) calls: CallKills,
    /// The work space of the tracked locals' computation.
    pub(super) relevance: RelevanceScratch,
}

/// Makes `v`, whose contents are about to be recomputed, hold `n` entries without growing:
/// when it cannot, it is replaced by one with room for twice as many (at least 64, at most
/// 4,096 more), since the functions of a module come in roughly increasing size and growing
/// to each in turn costs more than the allocations the reuse saves.
pub(super) fn room_for<T>(v: &mut Vec<T>, n: usize) {
    if v.capacity() < n {
        let room = if n <= 4096 { (2 * n).max(64) } else { n };
        *v = Vec::with_capacity(room);
    }
}

/// What the driver keeps per block.
#[derive(Copy, Clone, Debug, Default)]
struct BlockClock {
    /// Evaluations of a loop header with a changed in-state (the widening schedule).
    visits: u32,
    /// When the block was last evaluated (0: never).
    evaluated_at: u64,
    /// When its out-state last changed.
    out_changed_at: u64,
}

impl FactAnalysis {
    /// The analysis of `func` over the locals `tracked` (the driver's entry point).
    ///
    /// The demand reads the deciding blocks off the relevance walk kept in
    /// `pool.driver.setup`, which must therefore be the walk of `func` (`RelevanceScratch::scan`,
    /// as `FactAnalysis::compute_of` does just before): a stale walk of another function
    /// would pick the wrong blocks.
    pub(super) fn compute_tracked(
        func: &Function,
        cfg: &Cfg,
        live: &Liveness,
        calls: CallKills,
        tracked: Tracked,
        (limits, demand): (FactLimits, FactDemand),
        pool: &mut FactSetPool,
    ) -> FactAnalysis {
        // The deaths' buffers of a recycled analysis, emptied.
        let (mut deaths, mut death_range) = std::mem::take(&mut pool.deaths);
        deaths.clear();
        map_room(&mut death_range, func.blocks.len());
        death_range.clear();
        death_range.resize(func.blocks.len());
        let mut fa = FactAnalysis {
            states: BlockStates::new(func, pool.take_state_buffers()),
            deaths,
            death_range,
            tracked,
            calls,
            demand,
            ..FactAnalysis::default()
        };
        let Some(entry) = func.entry() else {
            return fa;
        };
        let mut scratch = std::mem::take(&mut pool.driver);
        let blocks = func.blocks.len();
        room_for(&mut scratch.clocks, blocks);
        scratch.clocks.clear();
        scratch.clocks.resize(blocks, BlockClock::default());
        room_for(&mut scratch.demanded, blocks);
        room_for(&mut scratch.demand_work, blocks);
        // Where the check passes decide something, from the walk that found the tracked
        // locals (a block it did not see is looked at anew).
        let scanned = scratch.setup.as_deref().map(|s| &s.relevance);
        let decides = |b| {
            let seen = scanned.and_then(|r| r.decides(b));
            seen.unwrap_or_else(|| decides_in(func, b))
        };
        let on_demand = demanded_blocks(
            func,
            cfg,
            (demand, decides),
            &mut scratch.demanded,
            &mut scratch.demand_work,
        );
        // The deaths of the blocks the fixpoint evaluates: the others are never replayed
        // (they get no state), unless the analysis gives up (below).
        let demanded = |b: Block| !on_demand || scratch.demanded[b.index()];
        // Only the deaths that can change a set (`watched_locals`), read off the same walk.
        room_for(&mut scratch.watched, func.locals.len());
        let holds_compare = |l| scanned.and_then(|r| r.may_hold_compare(l)).unwrap_or(true);
        watched_locals(func, &fa.tracked, holds_compare, &mut scratch.watched);
        let (alive, watched) = (&mut scratch.alive, &scratch.watched[..]);
        list_deaths(&mut fa, (func, cfg, live, watched), alive, demanded);
        // The components of the demanded blocks only: a loop nest is demanded whole or not
        // at all, the demand is closed under predecessors (see `super::demand`), and the
        // others would only be skipped one block at a time.
        let mut components = std::mem::take(&mut scratch.components);
        components.compute_within(cfg, demanded);
        let mut fixpoint = Fixpoint {
            func,
            cfg,
            live,
            limits,
            entry,
            clock: 0,
            edge_scratch: pool.take(),
            work: pool.take(),
            pool,
            scratch,
            max_work: limits.work_base.saturating_add(
                limits
                    .work_per_inst
                    .saturating_mul(func.inst_count() as u64),
            ),
        };
        let outcome = fixpoint.run(&mut fa, &components);
        if outcome.is_err() && on_demand {
            // Giving up gives every reachable block a state (nothing known), which a replay
            // of a block outside the demand reads with its deaths.
            let scratch = &mut fixpoint.scratch;
            let outside = |b: Block| !scratch.demanded[b.index()];
            let (alive, watched) = (&mut scratch.alive, &scratch.watched[..]);
            list_deaths(&mut fa, (func, cfg, live, watched), alive, outside);
        }
        fixpoint.scratch.components = components;
        fixpoint.finish();
        match outcome {
            Ok(()) => fa,
            Err(why) => fa.give_up(func, cfg, why),
        }
    }
}

/// Lists in `fa` the deaths of the locals `watched` marks (see `block_deaths`) in the
/// reachable blocks that `wanted` picks and that hold instructions (a block without any has
/// no deaths: its range stays empty).
fn list_deaths(
    fa: &mut FactAnalysis,
    (func, cfg, live, watched): (&Function, &Cfg, &Liveness, &[bool]),
    alive: &mut LiveWalk,
    wanted: impl Fn(Block) -> bool,
) {
    for &b in cfg.rpo() {
        if func.blocks[b].insts.is_empty() || !wanted(b) {
            continue;
        }
        let start = fa.deaths.len() as u32;
        block_deaths(func, b, (live, watched), alive, &mut fa.deaths);
        fa.death_range[b] = (start, fa.deaths.len() as u32);
    }
}

impl Fixpoint<'_> {
    /// Evaluates the components in topological order, each cyclic one until a sweep changes
    /// nothing (see the module docs).
    fn run(&mut self, fa: &mut FactAnalysis, components: &Components) -> Result<(), GaveUp> {
        // One sweep for any function with a reachable block, demanded or not.
        fa.sweeps = usize::from(!self.cfg.rpo().is_empty());
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
    fn charge(max_work: u64, work: &mut u64, steps: u64) -> Result<(), GaveUp> {
        *work = work.saturating_add(steps);
        if *work > max_work {
            return Err(GaveUp::Work);
        }
        Ok(())
    }

    /// Hands the scratch sets and tables back to the pool.
    fn finish(&mut self) {
        for set in [
            std::mem::take(&mut self.edge_scratch),
            std::mem::take(&mut self.work),
        ] {
            self.pool.give(set);
        }
        self.pool.driver = std::mem::take(&mut self.scratch);
    }

    /// Evaluates `b` if it has not been yet or a predecessor's out-state changed since;
    /// returns whether its in-state changed (and so it was evaluated).
    fn evaluate(&mut self, fa: &mut FactAnalysis, b: Block) -> Result<bool, GaveUp> {
        let (func, cfg) = (self.func, self.cfg);
        // A sink (a bare `trap` or `ret`) holds nothing to decide and passes nothing on. (A
        // block outside the demand is in no component the driver takes.)
        let sink = func.blocks[b].insts.is_empty() && cfg.succs(b).is_empty();
        if sink {
            return Ok(false);
        }
        let preds = cfg.preds(b);
        let clocks = &mut self.scratch.clocks;
        let evaluated_at = clocks[b.index()].evaluated_at;
        let stale = preds
            .iter()
            .any(|&p| clocks[p.index()].out_changed_at > evaluated_at);
        if evaluated_at != 0 && !stale {
            return Ok(false);
        }
        self.clock += 1;
        clocks[b.index()].evaluated_at = self.clock;
        // The block's in-state is built in `self.work`: the entry knows nothing (an empty set);
        // another block starts from its first visited predecessor's edge.
        let mut built = b == self.entry;
        if built {
            self.work.clear();
        }
        // Facts about locals that are dead here can never be used again (a dead local is
        // written before it is read): eliminating them on each edge, before the meet, keeps
        // what they linked (`i < n`, `n == len(v)` gives `i < len(v)`) and every set as small
        // as the live state, so long functions cost linear time.
        let live_in = self.live.live_in(b);
        let mut questions = 0u64;
        for &p in preds {
            let Some(out) = fa.states.get(p, Side::Exit) else {
                continue; // unreachable or not yet visited: top
            };
            // An edge that adds and removes nothing (a jump, nothing dying) is the stored
            // out-state itself: met with as it is, or copied once as the first edge.
            let as_is = edge_keeps_out(func, p, out, live_in);
            if built && as_is {
                questions += self.work.meet_with(out) as u64;
            } else if built {
                let edge = &mut self.edge_scratch;
                live_edge_facts_into(func, &fa.tracked, (p, b), out, live_in, edge);
                questions += self.work.meet_with(self.edge_scratch.view()) as u64;
            } else if as_is {
                self.work.copy_from(out);
                built = true;
            } else {
                live_edge_facts_into(func, &fa.tracked, (p, b), out, live_in, &mut self.work);
                built = true;
            }
        }
        if !built {
            return Ok(false);
        }
        let new_in = &mut self.work;
        fa.evaluations += 1;
        // The work budget: the edges and the meet's path questions now, a widening's below,
        // and each instruction of the replay as it goes (a set may grow within the block).
        let facts = new_in.entries() as u64 + 1;
        let edges = preds.len() as u64;
        Self::charge(self.max_work, &mut fa.work, facts * (edges + 1 + questions))?;
        // At a loop header (a predecessor not before it in the reverse post-order: a back
        // edge), relations implied by constant bounds are made explicit.
        let rpo_index = cfg.rpo_index(b);
        let header = preds.iter().any(|&p| cfg.rpo_index(p) >= rpo_index);
        if header {
            new_in.close_through_zero();
        }
        if let Some(old) = fa.states.get(b, Side::Entry) {
            if new_in.view() == old {
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
                let visits = &mut self.scratch.clocks[b.index()].visits;
                *visits += 1;
                if *visits > self.limits.strict_after {
                    new_in.widen_strict(old);
                } else {
                    let questions = new_in.widen(old) as u64;
                    Self::charge(self.max_work, &mut fa.work, facts * questions)?;
                }
            }
            if new_in.view() == old {
                return Ok(false);
            }
        }
        // The entry state is stored first, so that the replay runs in its set (no copy); the
        // states are stored in the analysis's shared buffers (see `BlockStates`).
        fa.states.set(b, Side::Entry, new_in);
        let s = new_in;
        let (start, end) = fa.death_range[b];
        let deaths = &fa.deaths[start as usize..end as usize];
        let mut next_death = 0;
        for (index, &inst) in func.blocks[b].insts.iter().enumerate() {
            Self::charge(self.max_work, &mut fa.work, s.entries() as u64 + 1)?;
            step_block(
                func,
                &fa.calls,
                &fa.tracked,
                inst,
                index,
                deaths,
                &mut next_death,
                s,
            );
        }
        let out_changed = fa.states.set_if_changed(b, Side::Exit, s);
        fa.peak_stored = fa.peak_stored.max(fa.states.live());
        if fa.states.live() > self.limits.max_stored_facts.min(block_states::MAX_LIVE) {
            return Err(GaveUp::StoredFacts);
        }
        if out_changed {
            self.clock += 1;
            self.scratch.clocks[b.index()].out_changed_at = self.clock;
        }
        Ok(true)
    }
}
