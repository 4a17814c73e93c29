//! The fact analysis: which constraints between indices and vec lengths hold at each program
//! point.
//!
//! A forward *must* dataflow over the CFG. Each program point carries a [`FactSet`]: difference
//! constraints `a <= b + c` between terms (0, an `i64` local's value, a vec local's length) and
//! the compares bool locals hold ([`constraints`] describes the language and the queries). A
//! constraint is in the set only when it holds on **every** path from the entry to that point.
//! The analysis is optimistic (blocks not yet visited are "top"), meets at merges (a pair of
//! terms keeps the weaker offset), takes edge-specific constraints from conditional branches,
//! and iterates to a fixpoint, widening at revisited loop headers (an offset that grew is
//! dropped): the driver (`driver.rs`) takes the CFG's strongly connected components in
//! topological order and sweeps each loop nest in reverse post-order. Unreachable blocks get
//! no state at all, nor do *sinks*: blocks without instructions or successors (a bare `trap`
//! or `ret`), where nothing is decided and from which no facts flow.
//!
//! [`transfer`] has the rules, each with its soundness argument:
//! dominating branches (every compare, both operand orders, constants), successful checked
//! accesses, `len`/`push`/`pop`/`new`/`drop`, copies, `add`/`sub` with constants where the facts
//! exclude overflow, `sub`/`add` of bounded locals, `mul`/`shl` of a bounded non-negative index
//! by a small constant, masks, shifts, remainders and divisions of non-negative values, bit
//! counts; loop induction variables fall out of the dataflow (see [`transfer`]).
//!
//! Kill rules (design.md, "Aliasing"): assigning a local eliminates its old value's term
//! (constraints through it are composed first, so what it linked stays known); `push w` raises
//! `len(w)` by exactly one and a may-alias vec's (same vec type, and `new` sites that are
//! unknown or overlap: see [`CallKills`]) by zero or one, so offsets are
//! shifted rather than dropped (`n == len(w)` becomes `n == len(w) - 1`); `pop w` lowers them
//! likewise; `drop w` leaves `len(w) == 0` and eliminates the lengths of may-alias vecs; a
//! `call` eliminates the lengths of the vecs that may alias a vec argument whose type the callee
//! may change ([`CallEffects`]: a callee reaches the caller's vecs only through its arguments,
//! and only its — or its callees' — `push`, `pop` and `drop` change lengths); scalar facts
//! survive calls (callees cannot see locals).
//!
//! Soundness rests on three points: (1) every generated constraint follows from the semantics
//! of the instruction or branch edge that generates it, evaluated on the pre-state, and
//! mentions the assigned local only in its new meaning; (2) every instruction that may change
//! a term's value eliminates or shifts each constraint on it by a bound on the change; (3)
//! merges keep, per pair of terms, the weaker of the offsets, so a constraint at a merge held
//! on all incoming paths. Facts about locals that are dead are eliminated (composed away), so
//! sets stay as small as the live state.
//!
//! Two safety nets bound the cost on adversarial input; past either, the analysis gives up on
//! the function and reports nothing known anywhere (always sound: every check is kept), and
//! [`FactAnalysis::gave_up`] says why. A component's fixpoint takes at most [`MAX_SWEEPS`]
//! sweeps, and the sets stored at block entries and exits hold at most [`MAX_STORED_FACTS`]
//! facts together. The second bounds memory: one set per block holds every fact still live,
//! so a function where `k` vecs with known lengths stay live across `b` blocks stores `k * b`
//! facts (2,000 vecs guarded one after the other: 4,000 blocks, 32 million facts, 520 MB
//! before the bound).

mod block_states;
mod call_kills;
pub mod constraints;
pub mod demand;
mod driver;
pub mod relevance;
pub mod transfer;

pub use call_kills::CallKills;
pub use constraints::{
    CmpFact, Constraint, Fact, FactQueries, FactSet, FactSetPool, FactView, QuotientFact, Term,
    TermKind,
};
pub use demand::FactDemand;
pub use transfer::may_alias;

use super::cfg::Cfg;
use super::effects::CallEffects;
use super::liveness::{LiveSet, LiveWalk, Liveness};
use block_states::{BlockStates, Side};
use poolopt_ir::Local;
use poolopt_ir::{
    Block, EntityRef, Function, Inst, InstKind, Operand, SecondaryMap, Terminator, Type,
};
use relevance::{RelevanceScratch, Tracked};
use smallvec::SmallVec;
use transfer::{edge_extra, transfer_with, Gen};

/// Eliminates every term and quotient of `s` about a local that is not live, except the
/// operands of a live compare's record: `t = sge i, n; br join` with `n` dead after it still
/// needs `n`'s relation to `len(v)` when `join` branches on `t`. (Keeping facts about a dead
/// local is sound — a later write of it kills them — dropping them only saves work.) The
/// compares held by dead locals are gone already: [`live_edge_facts_into`] does not copy them.
fn drop_dead(s: &mut FactSet, live: LiveSet<'_>) {
    s.retain_quotients(|l| live.contains(l));
    // The value locals the constraints mention that are not live, in the order they first
    // appear, in one pass. Most edges end no value local's life (a branch's compare result is
    // the usual death, which the copy left out): then there is nothing to compose away.
    // Only value terms: forgetting a dead vec local would change nothing (its length term
    // stays, see `FactSet::forget_local`), and the compares left hold live locals.
    let mut dying: SmallVec<[Local; 8]> = SmallVec::new();
    let mut check = |t: Term| {
        if let TermKind::Value(l) = t.kind() {
            if !live.contains(l) && !dying.contains(&l) {
                dying.push(l);
            }
        }
    };
    // The constraints come sorted by their first term: each run of one is looked at once.
    let mut last_a = None;
    for k in s.constraints() {
        if last_a != Some(k.a) {
            last_a = Some(k.a);
            check(k.a);
        }
        check(k.b);
    }
    if dying.is_empty() {
        return;
    }
    // Without compares no dead local is kept for one: every one goes.
    if s.compares().is_empty() {
        for l in dying {
            s.forget_local(l);
        }
        return;
    }
    let mut operands: SmallVec<[Local; 8]> = SmallVec::new();
    s.for_each_cmp_operand(|l| operands.push(l));
    let (kept, dead): (SmallVec<[Local; 8]>, SmallVec<[Local; 8]>) =
        dying.into_iter().partition(|l| operands.contains(l));
    for l in dead {
        s.forget_local(l);
    }
    for l in kept {
        s.compose_through(Term::value(l));
    }
}

/// The facts on the edge `from → to`: `out` plus what the branch condition says.
fn edge_facts(
    func: &Function,
    tracked: &Tracked,
    from: Block,
    to: Block,
    out: FactView<'_>,
) -> FactSet {
    let mut s = FactSet::new();
    edge_facts_into(func, tracked, from, to, out, &mut s);
    s
}

/// [`edge_facts`] written into `s` (its buffers reused).
fn edge_facts_into(
    func: &Function,
    tracked: &Tracked,
    from: Block,
    to: Block,
    out: FactView<'_>,
    s: &mut FactSet,
) {
    s.copy_from(out);
    add_branch_facts(func, tracked, from, to, out, s);
}

/// The facts on the edge `from → to` ([`edge_facts_into`]) into `s`, without those about
/// locals not `live` on entry to `to`: the compares held by dead locals are left out of the
/// copy (the branch's facts are constraints: they add no compare), the rest goes through
/// [`drop_dead`].
fn live_edge_facts_into(
    func: &Function,
    tracked: &Tracked,
    (from, to): (Block, Block),
    out: FactView<'_>,
    live: LiveSet<'_>,
    s: &mut FactSet,
) {
    s.copy_keeping_cmps(out, |f| live.contains(f.c));
    add_branch_facts(func, tracked, from, to, out, s);
    drop_dead(s, live);
}

/// Whether the facts on the edge `from → to` ([`live_edge_facts_into`]) are `out` itself,
/// `live` being what is live on entry to `to`: `from` does not branch two ways (the edge adds
/// nothing: [`edge_extra`] returns at once), and every local a compare is held by, a
/// quotient mentions or a constraint's value term is about is live (the edge removes nothing:
/// the copy keeps every compare, [`drop_dead`] finds nothing dying). That is the usual edge of
/// a jump into a loop header or a join; the driver then reads the stored out-state as it is
/// instead of building a copy of it.
fn edge_keeps_out(func: &Function, from: Block, out: FactView<'_>, live: LiveSet<'_>) -> bool {
    let branches = matches!(
        func.terminator(from),
        Some(Terminator::BrIf { cond: Operand::Local(_), then_block, else_block })
            if then_block != else_block
    );
    let live_value = |t: Term| match t.kind() {
        TermKind::Value(l) => live.contains(l),
        _ => true,
    };
    !branches
        && out.compares().iter().all(|f| live.contains(f.c))
        && out
            .quotient_facts()
            .iter()
            .all(|q| live.contains(q.d) && live.contains(q.x))
        && out
            .constraints()
            .iter()
            .all(|k| live_value(k.a) && live_value(k.b))
}

/// Adds to `s` what the branch condition of `from` says on the edge to `to` (`out`: the
/// facts at the end of `from`).
fn add_branch_facts(
    func: &Function,
    tracked: &Tracked,
    from: Block,
    to: Block,
    out: FactView<'_>,
    s: &mut FactSet,
) {
    let mut gen = Gen::new();
    edge_extra(func, from, to, out, &mut gen);
    for &(a, b, c) in &gen {
        if tracked.term(a) && tracked.term(b) {
            s.add_wide(a, b, c);
        }
    }
}

/// Replays a block instruction by instruction without cloning the fact set each time: at each
/// step the client reads the facts before the instruction, then [`FactCursor::step`] applies it
/// and returns what it killed and established.
pub struct FactCursor<'f> {
    func: &'f Function,
    calls: &'f CallKills,
    tracked: &'f Tracked,
    insts: &'f [Inst],
    pos: usize,
    state: FactSet,
    deaths: &'f [(usize, Local)],
    next_death: usize,
}

impl<'f> FactCursor<'f> {
    /// The next instruction (with its index) or `None` at the end of the block.
    pub fn peek(&self) -> Option<(usize, Inst)> {
        self.insts.get(self.pos).map(|&i| (self.pos, i))
    }

    /// The facts before the next instruction (after the last one at the end).
    pub fn facts(&self) -> &FactSet {
        &self.state
    }

    /// Applies the next instruction without recording what changed.
    pub fn advance(&mut self) {
        let Some(&inst) = self.insts.get(self.pos) else {
            return;
        };
        self.pos += 1;
        step_block(
            self.func,
            self.calls,
            self.tracked,
            inst,
            self.pos - 1,
            self.deaths,
            &mut self.next_death,
            &mut self.state,
        );
    }

    /// Applies the next instruction; returns the facts it killed and the facts it established
    /// (net: a fact removed and re-established by the same instruction is in neither list).
    pub fn step(&mut self) -> (Vec<Fact>, Vec<Fact>) {
        if self.pos >= self.insts.len() {
            return (Vec::new(), Vec::new());
        }
        self.state.log = Some(Vec::new());
        self.advance();
        let log = self.state.log.take().unwrap_or_default();
        let mut killed: Vec<Fact> = Vec::new();
        let mut gained: Vec<Fact> = Vec::new();
        for (f, added) in log {
            let (this, other) = if added {
                (&mut gained, &mut killed)
            } else {
                (&mut killed, &mut gained)
            };
            if let Some(p) = other.iter().position(|g| *g == f) {
                other.swap_remove(p);
            } else if !this.contains(&f) {
                this.push(f);
            }
        }
        (killed, gained)
    }
}

/// Per-block results of the fact analysis.
#[derive(Clone, Debug, Default)]
pub struct FactAnalysis {
    /// Facts on entry to each reachable block and after its last instruction (before its
    /// terminator); none for an unreachable block or a sink.
    states: BlockStates,
    /// Every block's `(index, local)` pairs, one block after another: after instruction
    /// `index`, `local` is dead, so the facts about it can be forgotten (ascending by index
    /// within a block).
    deaths: Vec<(usize, Local)>,
    /// Each block's range of `deaths`.
    death_range: SecondaryMap<Block, (u32, u32)>,
    /// What the calls of this function may do to vec lengths.
    calls: CallKills,
    /// The locals constraints may mention.
    tracked: Tracked,
    /// Why the analysis gave up on the function (it then knows nothing anywhere).
    gave_up: Option<GaveUp>,
    /// The most sweeps one strongly connected component's fixpoint took (the last one changed
    /// nothing); 1 for a function without loops.
    sweeps: usize,
    /// How many times a block's in-state was computed (see [`FactAnalysis::evaluations`]).
    evaluations: usize,
    /// The most facts the stored states held at once.
    peak_stored: usize,
    /// The work the fixpoint did, in set steps (see [`MAX_WORK_BASE`]).
    work: u64,
    /// Which blocks have their facts computed ([`FactDemand`]).
    demand: FactDemand,
}

/// Why the fact analysis gave up on a function (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GaveUp {
    /// The fixpoint took more than [`MAX_SWEEPS`] sweeps.
    Sweeps,
    /// The sets stored at block entries and exits would hold more than [`MAX_STORED_FACTS`]
    /// facts.
    StoredFacts,
    /// The fixpoint would do more work than [`MAX_WORK_BASE`] and [`MAX_WORK_PER_INST`] allow.
    Work,
}

impl std::fmt::Display for GaveUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GaveUp::Sweeps => write!(f, "no fixpoint within {MAX_SWEEPS} sweeps"),
            GaveUp::StoredFacts => write!(
                f,
                "more than {MAX_STORED_FACTS} facts stored at block boundaries"
            ),
            GaveUp::Work => write!(
                f,
                "more than {MAX_WORK_BASE} + {MAX_WORK_PER_INST} per instruction steps over \
                 its sets"
            ),
        }
    }
}

/// Calls `f` on what block `block`'s terminator keeps alive to the end of the block: the
/// local it reads and, for `brif c` with `c` a compare of this block, the compare's operands
/// and, with `vecs`, the vec whose length an operand holds (the branch's edge facts are
/// derived from them).
fn terminator_uses(func: &Function, block: Block, vecs: bool, mut f: impl FnMut(Local)) {
    let data = &func.blocks[block];
    let Some(Operand::Local(c)) = data.terminator.as_ref().and_then(|t| t.used_operand()) else {
        return;
    };
    f(c);
    let def_of = |x: Local| {
        data.insts
            .iter()
            .rev()
            .find(|&&i| func.inst(i).def() == Some(x))
    };
    if let Some(&i) = def_of(c) {
        if let InstKind::Compare { lhs, rhs, .. } = *func.inst(i) {
            for x in [lhs, rhs].into_iter().filter_map(Operand::as_local) {
                f(x);
                if !vecs {
                    continue;
                }
                if let Some(&j) = def_of(x) {
                    if let InstKind::VecLen { vec, .. } = *func.inst(j) {
                        f(vec);
                    }
                }
            }
        }
    }
}

/// Where the locals of `block` die: after which instruction each local is no longer live. A
/// `brif c` at the end keeps the operands of `c`'s compare (defined in this block), and the vec
/// whose length an operand holds, alive to the end: the branch's edge facts are derived from
/// them.
///
/// Only the locals `watched` marks (by index, see [`watched_locals`]) are listed: forgetting
/// any other changes no set. `alive` is scratch space, overwritten.
fn block_deaths(
    func: &Function,
    block: Block,
    (live, watched): (&Liveness, &[bool]),
    alive: &mut LiveWalk,
    deaths: &mut Vec<(usize, Local)>,
) {
    let first = deaths.len();
    let data = &func.blocks[block];
    // The walk only asks whether a watched local is live, so only they are made live or dead
    // (each local's liveness is walked on its own).
    let has_facts = |l: Local| watched.get(l.index()).copied().unwrap_or(false);
    alive.start(live, block);
    // The vecs the terminator keeps alive have no facts: they are not looked for.
    terminator_uses(func, block, false, |l| {
        if has_facts(l) {
            alive.insert(live, l);
        }
    });
    for (index, &inst) in data.insts.iter().enumerate().rev() {
        let kind = func.inst(inst);
        // The locals mentioned here that are dead after it, each once, in one walk over the
        // operands: the destination is looked at first and taken out of the live set, then
        // each operand as it is made live (an operand that is the destination was looked at
        // as such; a repeated one is live at its second mention).
        let start = deaths.len();
        let def = kind.def().filter(|&d| has_facts(d));
        if let Some(d) = def {
            if !alive.contains(live, d) {
                deaths.push((index, d));
            }
            if !matches!(kind, InstKind::SetField { .. }) {
                alive.remove(live, d);
            }
        }
        kind.for_each_use(|op| {
            if let Operand::Local(l) = op {
                if has_facts(l) {
                    if def != Some(l) && !alive.contains(live, l) {
                        deaths.push((index, l));
                    }
                    alive.insert(live, l);
                }
            }
        });
        // In ascending order of the locals before the block's list is reversed.
        if deaths.len() - start > 1 {
            deaths[start..].sort_unstable();
        }
    }
    deaths[first..].reverse();
}

/// Marks in `watched` (by local index) the locals whose death can change a set: an `i64`
/// local that `tracked` keeps (the only value terms a constraint or a quotient mentions: no
/// rule records one about an untracked local, see `transfer`) and a bool that `holds_compare`
/// says a compare or a `not` may write (the only locals a compare is held by). For any other
/// local, [`step_block`]'s forgetting finds nothing to remove: an untracked `i64` holds no
/// compare and is in no constraint (`forget_untracked_local` only drops the compares held by
/// it), and a bool no compare is stored in has no facts of its own. Listing only these spares
/// the deaths' walk the liveness questions about the others and their replays the no-op
/// forgetting (slot_pool_8 at O2: `block_deaths` 48,014 → 38,738 instructions, and
/// `bounds-check-elim` 793,193 → 785,921; slot_pool_128's 906,934 → 868,662).
fn watched_locals(
    func: &Function,
    tracked: &Tracked,
    holds_compare: impl Fn(Local) -> bool,
    watched: &mut Vec<bool>,
) {
    watched.clear();
    watched.extend(func.locals.iter().map(|(l, data)| match data.ty {
        Type::I64 => tracked.local(l),
        Type::BOOL => holds_compare(l),
        _ => false,
    }));
}

/// Applies instruction `index` of a block and forgets the locals that die after it.
#[allow(clippy::too_many_arguments)] // the cursor's and the sweep's state, borrowed apart
fn step_block(
    func: &Function,
    calls: &CallKills,
    tracked: &Tracked,
    inst: Inst,
    index: usize,
    deaths: &[(usize, Local)],
    next_death: &mut usize,
    s: &mut FactSet,
) {
    transfer_with(func, calls, tracked, inst, s);
    while let Some(&(at, l)) = deaths.get(*next_death) {
        if at > index {
            break;
        }
        // A local a recorded compare reads stays until the compare's result dies (see
        // `drop_dead`), with what it linked made explicit.
        if at == index {
            match (s.cmp_reads(l), tracked.local(l)) {
                (true, true) => s.compose_through(Term::value(l)),
                // Nothing to compose for an untracked local: no constraint mentions it.
                (true, false) => {}
                (false, true) => s.forget_local(l),
                (false, false) => s.forget_untracked_local(l),
            }
        }
        *next_death += 1;
    }
}

/// Safety net on the number of sweeps; past it the analysis gives up and reports nothing known
/// anywhere (always sound).
pub const MAX_SWEEPS: usize = 1000;

/// Safety net on memory: the most facts (constraints and compares) the sets stored at block
/// entries and exits may hold together, 64 MiB of constraints. Past it the analysis gives up
/// and reports nothing known anywhere (always sound). Ordinary functions store a few facts per
/// block: the 100,000-instruction generated function of docs/benchmarks.md stores 371,441 in
/// 43,752 blocks.
pub const MAX_STORED_FACTS: usize = 4 << 20;

/// Safety net on time, with [`MAX_WORK_PER_INST`]: the most *set steps* the fixpoint may take
/// in a function, plus that many per instruction. An evaluation of a block whose in-state
/// holds `f` facts costs `f` steps per incoming edge and one more `f` for storing its states,
/// `f` more per path question a meet or a widening asks (a pair one side does not record: a
/// bounded search over a set), and at each instruction of its replay the facts the set holds
/// then (an instruction copies, scans or shifts it). The other nets bound neither: 2,000 vecs
/// that may all be one (copies of one parameter) pushed in a loop shift every length at every
/// push, and the fixpoint of 8,000 took 2.7 s. Past the budget the analysis gives up and
/// reports nothing known anywhere (always sound). Ordinary functions are far below it
/// (docs/benchmarks.md, "Issue 9, fourteenth session").
pub const MAX_WORK_BASE: u64 = 50_000_000;

/// The budget of set steps per instruction of the function (see [`MAX_WORK_BASE`]).
pub const MAX_WORK_PER_INST: u64 = 400;

/// The fact analysis's safety nets and widening schedule. [`FactLimits::default`] is what the
/// passes use ([`MAX_SWEEPS`], [`MAX_STORED_FACTS`], [`constraints::STRICT_AFTER`]); other
/// values are for tests of the nets at their exact edges and for tuning
/// ([`FactAnalysis::compute_with_limits`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FactLimits {
    /// The most sweeps a fixpoint may take; the analysis gives up on the next one.
    pub max_sweeps: usize,
    /// The most facts the sets stored at block entries and exits may hold together.
    pub max_stored_facts: usize,
    /// Visits of a loop header (with a changed in-state) after which its widening is
    /// [`FactSet::widen_strict`] instead of [`FactSet::widen`].
    pub strict_after: u32,
    /// The set steps the fixpoint may take ([`MAX_WORK_BASE`]), plus `work_per_inst` per
    /// instruction of the function.
    pub work_base: u64,
    pub work_per_inst: u64,
}

impl Default for FactLimits {
    fn default() -> FactLimits {
        FactLimits {
            max_sweeps: MAX_SWEEPS,
            max_stored_facts: MAX_STORED_FACTS,
            strict_after: constraints::STRICT_AFTER,
            work_base: MAX_WORK_BASE,
            work_per_inst: MAX_WORK_PER_INST,
        }
    }
}

impl FactAnalysis {
    /// Runs the analysis over `func`.
    pub fn compute(func: &Function, cfg: &Cfg) -> FactAnalysis {
        let live = Liveness::compute(func, cfg);
        FactAnalysis::compute_with(func, cfg, &live)
    }

    /// Runs the analysis over `func`, reusing a liveness result of the same function. Every
    /// call kills every length fact.
    pub fn compute_with(func: &Function, cfg: &Cfg, live: &Liveness) -> FactAnalysis {
        FactAnalysis::compute_with_effects(func, cfg, live, None)
    }

    /// Like [`FactAnalysis::compute_with`], with the module's call effects: a call kills only
    /// the length facts of vecs whose type its callee may change.
    pub fn compute_with_effects(
        func: &Function,
        cfg: &Cfg,
        live: &Liveness,
        effects: Option<&CallEffects>,
    ) -> FactAnalysis {
        FactAnalysis::compute_with_limits(func, cfg, live, effects, FactLimits::default())
    }

    /// Like [`FactAnalysis::compute_with_effects`], with other safety nets or another widening
    /// schedule than the passes use.
    pub fn compute_with_limits(
        func: &Function,
        cfg: &Cfg,
        live: &Liveness,
        effects: Option<&CallEffects>,
        limits: FactLimits,
    ) -> FactAnalysis {
        let mut pool = FactSetPool::default();
        let run = (limits, FactDemand::Everywhere);
        FactAnalysis::compute_of(
            func,
            cfg,
            live,
            effects,
            run,
            &mut pool,
            Tracked::of_scanned,
        )
    }

    /// [`FactAnalysis::compute_with_effects`] with its sets taken from `pool` (hand them back
    /// with [`FactAnalysis::recycle`]), for the blocks `demand` asks for: what the passes'
    /// context uses.
    pub fn compute_pooled(
        func: &Function,
        cfg: &Cfg,
        live: &Liveness,
        effects: Option<&CallEffects>,
        pool: &mut FactSetPool,
        demand: FactDemand,
    ) -> FactAnalysis {
        let run = (FactLimits::default(), demand);
        FactAnalysis::compute_of(func, cfg, live, effects, run, pool, Tracked::of_scanned)
    }

    /// The analysis of `func` tracking the locals `tracked` picks given the calls' effects and
    /// the walk of `func` ([`RelevanceScratch::scan`], which the demand reads too).
    fn compute_of(
        func: &Function,
        cfg: &Cfg,
        live: &Liveness,
        effects: Option<&CallEffects>,
        (limits, demand): (FactLimits, FactDemand),
        pool: &mut FactSetPool,
        tracked: impl FnOnce(&Function, &CallKills, &mut RelevanceScratch) -> Tracked,
    ) -> FactAnalysis {
        // The tables of the last recycled analysis, rebuilt in place.
        let setup = pool.driver.setup.get_or_insert_default();
        let mut calls = std::mem::take(&mut setup.calls);
        calls.recompute(func, effects);
        // One walk over the function for the tracked locals and the demand (see
        // `RelevanceScratch`).
        setup.relevance.scan(func);
        let tracked = tracked(func, &calls, &mut setup.relevance);
        let run = (limits, demand);
        FactAnalysis::compute_tracked(func, cfg, live, calls, tracked, run, pool)
    }

    /// Which blocks this analysis computed facts for: a pass that reads a block outside
    /// [`FactDemand::AtChecks`] needs an analysis made [`FactDemand::Everywhere`].
    pub fn demand(&self) -> FactDemand {
        self.demand
    }

    /// Gives the sets of this analysis back to `pool`, for the next analysis.
    pub fn recycle(self, pool: &mut FactSetPool) {
        pool.give_state_buffers(self.states.into_buffers());
        pool.deaths = (self.deaths, self.death_range);
        let setup = pool.driver.setup.get_or_insert_default();
        setup.calls = self.calls;
        setup.relevance.give_locals(self.tracked);
    }

    /// Like [`FactAnalysis::compute_with_effects`], tracking only the locals linked to a
    /// checked division's divisor ([`Tracked::of_divisors`]): the analysis `div-check-elim`
    /// asks whether a divisor is non-zero.
    pub fn compute_for_divisors(
        func: &Function,
        cfg: &Cfg,
        live: &Liveness,
        effects: Option<&CallEffects>,
        pool: &mut FactSetPool,
    ) -> FactAnalysis {
        let tracked = |func: &Function, _: &CallKills, scratch: &mut RelevanceScratch| {
            Tracked::of_divisors_scanned(func, scratch)
        };
        let run = (FactLimits::default(), FactDemand::Everywhere);
        FactAnalysis::compute_of(func, cfg, live, effects, run, pool, tracked)
    }

    /// Where the locals of `block` die (see `block_deaths`).
    fn deaths_of(&self, block: Block) -> &[(usize, Local)] {
        let (start, end) = self.death_range[block];
        &self.deaths[start as usize..end as usize]
    }

    /// Gives up: every reachable block knows nothing, and [`FactAnalysis::gave_up`] says why.
    fn give_up(mut self, func: &Function, cfg: &Cfg, why: GaveUp) -> FactAnalysis {
        let buffers = std::mem::take(&mut self.states).into_buffers();
        self.states = BlockStates::new(func, buffers);
        let nothing = FactSet::new();
        for &b in cfg.rpo() {
            self.states.set(b, Side::Entry, &nothing);
            self.states.set(b, Side::Exit, &nothing);
        }
        self.gave_up = Some(why);
        self
    }

    /// Why the analysis gave up on the function, if it did; it then knows nothing anywhere
    /// and every check is kept.
    pub fn gave_up(&self) -> Option<GaveUp> {
        self.gave_up
    }

    /// The most sweeps the fixpoint of one strongly connected component of the CFG took, the
    /// last one (which changed nothing) included: 1 for a function without loops; on giving
    /// up, the sweep it gave up in.
    pub fn sweeps(&self) -> usize {
        self.sweeps
    }

    /// How many times a block's in-state was computed: once for every reachable block, and
    /// again only when the out-state of one of its predecessors changed since.
    pub fn evaluations(&self) -> usize {
        self.evaluations
    }

    /// The set steps the fixpoint took (what [`MAX_WORK_BASE`] bounds).
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The facts (constraints and compares) the sets at block entries and exits hold together.
    pub fn stored_facts(&self) -> usize {
        self.states.live()
    }

    /// The most facts the sets at block entries and exits held together during the fixpoint:
    /// what [`FactLimits::max_stored_facts`] bounds.
    pub fn peak_stored_facts(&self) -> usize {
        self.peak_stored
    }

    /// Facts on entry to `block` (`None` when unreachable, or a sink: no instructions, no
    /// successors).
    pub fn block_in(&self, block: Block) -> Option<FactView<'_>> {
        self.states.get(block, Side::Entry)
    }

    /// Facts after the last instruction of `block`, before its terminator.
    pub fn block_out(&self, block: Block) -> Option<FactView<'_>> {
        self.states.get(block, Side::Exit)
    }

    /// Facts on the edge `from → to` (the terminator's branch facts included).
    pub fn edge(&self, func: &Function, from: Block, to: Block) -> Option<FactSet> {
        self.block_out(from)
            .map(|out| edge_facts(func, &self.tracked, from, to, out))
    }

    /// A cursor over `block` starting from its entry facts (`None` when unreachable).
    pub fn cursor<'f>(&'f self, func: &'f Function, block: Block) -> Option<FactCursor<'f>> {
        let start = self.block_in(block)?.to_set();
        Some(self.cursor_from(func, block, start))
    }

    /// A cursor over `block`'s instructions starting from the facts `start` instead of its
    /// entry facts (for a pass that moves the block's instructions elsewhere).
    pub fn cursor_from<'f>(
        &'f self,
        func: &'f Function,
        block: Block,
        start: FactSet,
    ) -> FactCursor<'f> {
        FactCursor {
            func,
            calls: &self.calls,
            tracked: &self.tracked,
            insts: &func.blocks[block].insts,
            pos: 0,
            state: start,
            deaths: self.deaths_of(block),
            next_death: 0,
        }
    }

    /// Replays `block`: calls `f(index, inst, before)` for each instruction with the facts
    /// just before it. Does nothing for an unreachable block. (Use [`FactAnalysis::cursor`] to
    /// also see what each instruction killed and established.)
    pub fn replay(&self, func: &Function, block: Block, mut f: impl FnMut(usize, Inst, &FactSet)) {
        let Some(mut cursor) = self.cursor(func, block) else {
            return;
        };
        while let Some((idx, inst)) = cursor.peek() {
            f(idx, inst, cursor.facts());
            cursor.advance();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The functions of the repository's programs.
    fn programs() -> Vec<Function> {
        crate::test_programs::functions()
    }

    /// Calls `f` with every function of the repository's programs, as written and (when
    /// `optimized`) after the O2 pipeline, with its CFG, liveness and fact analysis.
    fn for_each_analyzed(
        optimized: bool,
        mut f: impl FnMut(&Function, &Cfg, &Liveness, &FactAnalysis),
    ) {
        let extra = if optimized {
            crate::test_programs::optimized_functions()
        } else {
            Vec::new()
        };
        for func in programs().into_iter().chain(extra) {
            let cfg = Cfg::compute(&func);
            let live = Liveness::compute(&func, &cfg);
            let fa = FactAnalysis::compute_with(&func, &cfg, &live);
            f(&func, &cfg, &live, &fa);
        }
    }

    /// The deaths of `block` as the earlier version found them: a walk over each
    /// instruction's operands for the locals it mentions (all of them sorted and deduplicated,
    /// then the dead ones kept) and another to make its uses live.
    fn deaths_as_before(func: &Function, block: Block, live: &Liveness) -> Vec<(usize, Local)> {
        let mut alive = LiveWalk::default();
        let mut deaths = Vec::new();
        let data = &func.blocks[block];
        alive.start(live, block);
        terminator_uses(func, block, true, |l| alive.insert(live, l));
        for (index, &inst) in data.insts.iter().enumerate().rev() {
            let kind = func.inst(inst);
            let mut mentioned: Vec<Local> = Vec::new();
            kind.for_each_use(|op| {
                if let Operand::Local(l) = op {
                    mentioned.push(l);
                }
            });
            let def = kind.def();
            mentioned.extend(def);
            mentioned.sort_unstable();
            mentioned.dedup();
            for &l in &mentioned {
                let has_facts = matches!(func.local_ty(l), Type::I64 | Type::BOOL);
                if has_facts && !alive.contains(live, l) {
                    deaths.push((index, l));
                }
            }
            if let Some(d) = def {
                if !matches!(kind, InstKind::SetField { .. }) {
                    alive.remove(live, d);
                }
            }
            kind.for_each_use(|op| {
                if let Operand::Local(l) = op {
                    alive.insert(live, l);
                }
            });
        }
        deaths.reverse();
        deaths
    }

    /// One walk over each instruction's operands finds the deaths the earlier two found, in
    /// the same order, on every block of the repository's programs, with one walk state
    /// reused across blocks and functions as the analysis reuses it.
    #[test]
    fn deaths_are_those_of_the_two_walk_version() {
        let mut alive = LiveWalk::default();
        let (mut blocks, mut several) = (0, 0);
        for func in programs() {
            let cfg = Cfg::compute(&func);
            let live = Liveness::compute(&func, &cfg);
            let every = with_facts(&func);
            for &b in cfg.rpo() {
                let mut deaths = Vec::new();
                block_deaths(&func, b, (&live, &every), &mut alive, &mut deaths);
                assert_eq!(deaths, deaths_as_before(&func, b, &live), "{}", func.name);
                blocks += 1;
                several += usize::from(deaths.windows(2).any(|w| w[0].0 == w[1].0));
            }
        }
        assert!(blocks > 1000 && several > 0, "{blocks} blocks, {several}");
    }

    /// Every `i64` and bool local: the locals whose deaths the analysis listed before it
    /// listed only those of `watched_locals`.
    fn with_facts(func: &Function) -> Vec<bool> {
        let has_facts = |ty| matches!(ty, Type::I64 | Type::BOOL);
        func.locals.iter().map(|(_, d)| has_facts(d.ty)).collect()
    }

    /// Replaying a block with the deaths of every `i64` and bool local gives the same set
    /// before every instruction and at the end as the analysis's replay with the deaths of
    /// the watched locals only (`watched_locals`), on every block of the repository's
    /// programs, as written and after the O2 pipeline; and many deaths are left out.
    #[test]
    fn deaths_of_unwatched_locals_change_no_set() {
        let mut alive = LiveWalk::default();
        let (mut steps, mut left_out) = (0, 0);
        for_each_analyzed(true, |func, cfg, live, fa| {
            let every = with_facts(func);
            for &b in cfg.rpo() {
                let (Some(start), Some(mut watched)) = (fa.block_in(b), fa.cursor(func, b)) else {
                    continue;
                };
                let mut all = Vec::new();
                block_deaths(func, b, (live, &every), &mut alive, &mut all);
                left_out += all.len() - fa.deaths_of(b).len();
                let mut full = FactCursor {
                    deaths: &all,
                    ..fa.cursor_from(func, b, start.to_set())
                };
                loop {
                    assert_eq!(full.facts(), watched.facts(), "{} {b}", func.name);
                    if full.peek().is_none() {
                        break;
                    }
                    full.advance();
                    watched.advance();
                    steps += 1;
                }
            }
        });
        assert!(
            steps > 1000 && left_out > 100,
            "{steps} steps, {left_out} deaths left out"
        );
    }

    /// The earlier `drop_dead`: the compares of dead locals removed from the set, then the
    /// dead value locals found in a second walk over the constraints and the compares.
    fn drop_dead_as_before(s: &mut FactSet, live: LiveSet<'_>) {
        s.retain_cmps(|f| live.contains(f.c));
        s.retain_quotients(|l| live.contains(l));
        let mut operands: Vec<Local> = Vec::new();
        s.for_each_cmp_operand(|l| operands.push(l));
        let (mut dead, mut kept): (Vec<Local>, Vec<Local>) = (Vec::new(), Vec::new());
        s.for_each_value_local(|l| {
            if !live.contains(l) && !dead.contains(&l) && !kept.contains(&l) {
                if operands.contains(&l) {
                    kept.push(l);
                } else {
                    dead.push(l);
                }
            }
        });
        for l in dead {
            s.forget_local(l);
        }
        for l in kept {
            s.compose_through(Term::value(l));
        }
    }

    /// The driver's edge facts (the compares of dead locals left out of the copy, the dead
    /// value locals found in one walk) are the edge's facts less what the earlier
    /// `drop_dead` removed, on every edge of the repository's programs.
    #[test]
    fn live_edge_facts_are_the_edge_facts_less_the_dead() {
        let (mut edges, mut changed) = (0, 0);
        for_each_analyzed(false, |func, cfg, live, fa| {
            for &p in cfg.rpo() {
                let Some(out) = fa.block_out(p) else {
                    continue;
                };
                for &b in cfg.succs(p) {
                    let mut before = FactSet::new();
                    edge_facts_into(func, &fa.tracked, p, b, out, &mut before);
                    let full = before.clone();
                    drop_dead_as_before(&mut before, live.live_in(b));
                    let mut now = FactSet::new();
                    live_edge_facts_into(func, &fa.tracked, (p, b), out, live.live_in(b), &mut now);
                    assert_eq!(now, before, "{} {p} -> {b}", func.name);
                    edges += 1;
                    changed += usize::from(full != before);
                }
            }
        });
        assert!(
            edges > 1000 && changed > 100,
            "{edges} edges, {changed} changed"
        );
    }

    /// A quotient fact keeps a jump edge from being read as it is unless both its locals are
    /// live on the target: the edge build drops a quotient that mentions a dead local.
    #[test]
    fn a_quotient_with_a_dead_local_is_not_kept_as_is() {
        let source = "fn f(x: i64) -> i64 {\n    var d: i64\nentry:\n    d = sdiv x, 4\n    \
                      br next\nnext:\n    RET\n}\n";
        // Live on entry to `next`: only `d`, only `x`, and both.
        for (ret, kept) in [
            ("ret d", false),
            ("ret x", false),
            ("d = add d, x\n    ret d", true),
        ] {
            let module = poolopt_ir::parse(&source.replace("RET", ret)).expect("parses");
            let func = module
                .funcs
                .into_iter()
                .map(|(_, f)| f)
                .next()
                .expect("one function");
            let cfg = Cfg::compute(&func);
            let live = Liveness::compute(&func, &cfg);
            let (Some(entry), Some(next)) =
                (func.block_by_name("entry"), func.block_by_name("next"))
            else {
                panic!("blocks entry and next");
            };
            let (Some(d), Some(x)) = (func.local_by_name("d"), func.local_by_name("x")) else {
                panic!("locals d and x");
            };
            let mut out = FactSet::new();
            out.add_quotient(QuotientFact { d, x, k: 4 });
            assert_eq!(
                edge_keeps_out(&func, entry, out.view(), live.live_in(next)),
                kept,
                "{ret}"
            );
            let mut built = FactSet::new();
            let tracked = FactAnalysis::compute_with(&func, &cfg, &live).tracked;
            live_edge_facts_into(
                &func,
                &tracked,
                (entry, next),
                out.view(),
                live.live_in(next),
                &mut built,
            );
            assert_eq!(built.view() == out.view(), kept, "{ret}");
        }
    }

    /// Wherever `edge_keeps_out` says an edge is the out-state as it is, the edge's facts
    /// built in full are exactly that out-state, on every edge of the repository's programs,
    /// as written and after the O2 pipeline; and it says so of many edges.
    #[test]
    fn edges_kept_as_is_are_the_edge_facts() {
        let (mut edges, mut as_is) = (0, 0);
        for_each_analyzed(true, |func, cfg, live, fa| {
            for &p in cfg.rpo() {
                let Some(out) = fa.block_out(p) else {
                    continue;
                };
                for &b in cfg.succs(p) {
                    edges += 1;
                    if !edge_keeps_out(func, p, out, live.live_in(b)) {
                        continue;
                    }
                    let mut built = FactSet::new();
                    let edge = (p, b);
                    live_edge_facts_into(func, &fa.tracked, edge, out, live.live_in(b), &mut built);
                    assert_eq!(built.view(), out, "{} {p} -> {b}", func.name);
                    as_is += 1;
                }
            }
        });
        assert!(edges > 1000 && as_is > 300, "{edges} edges, {as_is} as is");
    }

    /// An analysis of the blocks that reach a check lists the deaths of every block it
    /// evaluates as the analysis of every block does, and, when it gives up (every reachable
    /// block then has a state, which a replay reads with its deaths), those of every block,
    /// on every function of the repository's programs.
    #[test]
    fn deaths_on_demand_are_those_of_every_block_where_a_replay_reads_them() {
        let mut pool = FactSetPool::default();
        let gives_up = FactLimits {
            work_base: 0,
            work_per_inst: 0,
            ..FactLimits::default()
        };
        let (mut blocks, mut skipped, mut gave_up) = (0, 0, 0);
        for func in programs() {
            let cfg = Cfg::compute(&func);
            let live = Liveness::compute(&func, &cfg);
            let every = FactAnalysis::compute_with(&func, &cfg, &live);
            for limits in [FactLimits::default(), gives_up] {
                let run = (limits, FactDemand::AtChecks);
                let pooled = &mut pool;
                let fa = FactAnalysis::compute_of(
                    &func,
                    &cfg,
                    &live,
                    None,
                    run,
                    pooled,
                    Tracked::of_scanned,
                );
                for &b in cfg.rpo() {
                    if fa.block_in(b).is_some() {
                        assert_eq!(fa.deaths_of(b), every.deaths_of(b), "{} {b}", func.name);
                        blocks += 1;
                    } else {
                        let has_deaths = !every.deaths_of(b).is_empty();
                        skipped += usize::from(has_deaths);
                    }
                }
                gave_up += usize::from(fa.gave_up().is_some());
                fa.recycle(&mut pool);
            }
        }
        assert!(
            blocks > 1000 && skipped > 10 && gave_up > 100,
            "{blocks} blocks, {skipped} skipped, {gave_up} gave up"
        );
    }
}
