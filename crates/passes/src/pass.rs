//! The `Pass` trait (after rustc's `MirPass`) and the context a pass runs in.

use crate::analysis::facts::{FactAnalysis, FactDemand, FactSetPool};
use crate::analysis::liveness::{live_on_entry, EntryReads};
use crate::analysis::{CallEffects, CallGraph, Cfg, DomTree, Liveness};
use crate::remark::{Remark, RemarkKind, Stats};
use crate::scratch::ScratchStore;
use crate::timing::{Analysis, PassTimings, Stopwatch};
use crate::unit_budget::UnitBudget;
use poolopt_ir::{Block, EntityRef, FuncId, Function, Loc, Local, Module, Name};
use std::cell::RefCell;
use std::rc::Rc;

/// The blocks a CFG's storage is first made room for ([`PassContext::recompute_cfg`]).
const MIN_CFG_BLOCKS: usize = 64;

/// How many CFGs' storage a context keeps for reuse ([`PassContext::return_cfg`]).
const SPARE_CFGS: usize = 4;

/// Optimization level of the poolopt pipeline (the Cranelift level is a separate knob).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum OptLevel {
    /// No passes.
    O0,
    /// The check passes and CFG cleanup.
    O1,
    /// Every pass.
    #[default]
    O2,
}

impl OptLevel {
    pub fn name(self) -> &'static str {
        match self {
            OptLevel::O0 => "O0",
            OptLevel::O1 => "O1",
            OptLevel::O2 => "O2",
        }
    }
}

impl std::str::FromStr for OptLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "0" | "O0" => Ok(OptLevel::O0),
            "1" | "O1" => Ok(OptLevel::O1),
            "2" | "O2" => Ok(OptLevel::O2),
            _ => Err(format!(
                "unknown optimization level `{s}` (expected O0, O1 or O2)"
            )),
        }
    }
}

/// A transformation of one function.
///
/// Passes are pure transformations: they never print, dump or verify; the
/// [`crate::PassManager`] does that around them.
pub trait Pass {
    /// The pass's name, as used by `--passes` and in remarks and statistics.
    fn name(&self) -> &'static str;

    /// The lowest level whose pipeline includes this pass (unless it is [`Pass::opt_in`]).
    fn min_level(&self) -> OptLevel;

    /// Whether the pass is in no level's pipeline and runs only when `--passes` (or
    /// [`crate::PassManager::from_names`]) names it: an alternative to a pipeline pass, kept
    /// apart until it is measured to be the better one (docs/passes.md).
    fn opt_in(&self) -> bool {
        false
    }

    /// Whether the pass leaves every block and terminator as it found them (it may change
    /// instructions and locals). The manager then keeps the CFG and dominator tree across it.
    fn preserves_cfg(&self) -> bool {
        false
    }

    /// Whether the fact analysis the pass leaves cached ([`PassContext::facts`]), if any, is
    /// valid for `func` as the pass leaves it: every fact holds at its point on every
    /// execution, and the analysis's blocks and instruction positions are those of `func`.
    /// Either the pass only dropped checks and decided branches that those facts proved,
    /// adding, removing and moving no instruction (a must-analysis over the paths that existed
    /// stays true on the fewer that remain), or it computed the analysis after its last change.
    /// The manager then keeps the analysis for the next pass; the CFG, dominators and liveness
    /// are recomputed.
    fn preserves_facts(&self) -> bool {
        false
    }

    /// Whether the pass, besides keeping the CFG ([`Pass::preserves_cfg`]), leaves every
    /// block's live-in and live-out locals as they were: it only rewrites instructions inside
    /// a block so that no local becomes read before it is assigned, or stops being so, in any
    /// block, and adds or removes no local. The manager then keeps the liveness analysis across
    /// it (checked against a fresh one when the manager verifies after each pass).
    fn preserves_liveness(&self) -> bool {
        false
    }

    /// Runs the pass on `func`; returns whether it changed anything.
    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool;
}

/// What a pass can see and report besides the function it transforms.
pub struct PassContext<'a> {
    /// The module, for struct layouts and callee signatures. The function being transformed
    /// is present with its signature and locals but without its body.
    pub module: &'a Module,
    pass: &'static str,
    /// The function's name (inline up to 24 bytes: no allocation per function).
    function: Name,
    remarks: &'a mut Vec<Remark>,
    stats: &'a mut Stats,
    /// Where the current pass's counters start in `stats` (they are bumped first while it
    /// runs, so they follow the earlier passes'): a counter is looked for there first.
    stats_from: usize,
    cfg: Option<Rc<Cfg>>,
    /// The storage of up to [`SPARE_CFGS`] CFGs dropped by invalidations or handed back
    /// ([`PassContext::return_cfg`]), recomputed in place by the next [`PassContext::cfg`] or
    /// [`PassContext::spare_cfg`] (no allocation when the function did not grow).
    spare_cfgs: Vec<Cfg>,
    /// The shared handle of a dropped cached CFG, emptied (its storage went to `spare_cfgs`):
    /// the next cached CFG goes into it instead of a new allocation.
    cfg_shell: Option<Rc<Cfg>>,
    domtree: Option<DomTree>,
    liveness: Option<Liveness>,
    facts: Option<Rc<FactAnalysis>>,
    /// The sets of dropped fact analyses, for the next one (see [`FactSetPool`]); boxed, as
    /// its dozens of vectors would make the context and its storage large to move from one
    /// function to the next.
    fact_pool: Box<FactSetPool>,
    /// The passes' work space, kept from one function to the next ([`ScratchStore`]).
    scratch: ScratchStore,
    remarks_enabled: bool,
    /// Whether counters are kept ([`PassContext::stat`]).
    stats_enabled: bool,
    /// Whether analyses' wall time is measured (their computations are always counted).
    timing_enabled: bool,
    call_graph: Option<&'a CallGraph>,
    unit_budget: Option<&'a UnitBudget>,
    call_effects: Option<&'a CallEffects>,
    entry_live: Option<&'a EntryLiveCache>,
    timings: PassTimings,
}

/// What a context keeps for the next function's ([`PassContext::into_storage`],
/// [`PassContext::with_storage`]): the storage of dropped CFGs and the emptied shared handle of
/// a cached one, the fact sets of dropped analyses, the passes' work space, and the run's
/// timings, which each function's context adds to in turn.
#[derive(Default)]
pub(crate) struct ContextStorage {
    spare_cfgs: Vec<Cfg>,
    cfg_shell: Option<Rc<Cfg>>,
    fact_pool: Box<FactSetPool>,
    scratch: ScratchStore,
    pub(crate) timings: PassTimings,
}

/// Per module run: for each function already optimized, its locals other than parameters that
/// are live on entry (read before written on some path). The inliner resets them in every copy
/// of the body; callers are optimized after their callees, so each callee's set is computed
/// once however many callers inline it. A table indexed by function (grown on the first
/// insertion past its end): a lookup per call site is an index, not a hash and a probe.
pub type EntryLiveCache = RefCell<Vec<Option<Rc<[Local]>>>>;

impl<'a> PassContext<'a> {
    /// A context for running passes over `function` of `module`.
    pub fn new(
        module: &'a Module,
        function: &str,
        remarks: &'a mut Vec<Remark>,
        stats: &'a mut Stats,
    ) -> PassContext<'a> {
        PassContext::with_storage(module, function, remarks, stats, ContextStorage::default())
    }

    /// A context like [`PassContext::new`] that starts with the storage an earlier function's
    /// context left ([`PassContext::into_storage`]): the pass manager's way from one function
    /// to the next. The storage is moved in and out whole, once each: taken and set field by
    /// field, each field's empty stand-in was made and dropped twice per function (the fact
    /// pool's dozens of vectors at every drop).
    pub(crate) fn with_storage(
        module: &'a Module,
        function: &str,
        remarks: &'a mut Vec<Remark>,
        stats: &'a mut Stats,
        storage: ContextStorage,
    ) -> PassContext<'a> {
        let ContextStorage {
            spare_cfgs,
            cfg_shell,
            fact_pool,
            scratch,
            timings,
        } = storage;
        PassContext {
            module,
            pass: "",
            function: Name::from(function),
            remarks,
            stats_from: stats.len(),
            stats,
            cfg: None,
            spare_cfgs,
            cfg_shell,
            domtree: None,
            liveness: None,
            facts: None,
            fact_pool,
            scratch,
            remarks_enabled: true,
            stats_enabled: true,
            timing_enabled: false,
            call_graph: None,
            unit_budget: None,
            call_effects: None,
            entry_live: None,
            timings,
        }
    }

    /// The storage this context keeps for the next function's
    /// ([`PassContext::with_storage`]); the cached analyses are dropped first, their storage
    /// kept.
    pub(crate) fn into_storage(mut self) -> ContextStorage {
        self.invalidate();
        ContextStorage {
            spare_cfgs: self.spare_cfgs,
            cfg_shell: self.cfg_shell,
            fact_pool: self.fact_pool,
            scratch: self.scratch,
            timings: self.timings,
        }
    }

    /// Gives interprocedural passes the module's call graph (the manager computes it once per
    /// run). Without one, [`PassContext::call_graph`] is `None` and such passes do nothing.
    pub fn set_call_graph(&mut self, call_graph: &'a CallGraph) {
        self.call_graph = Some(call_graph);
    }

    /// Gives the inliner the unit's growth budget, shared by every function of the run (the
    /// manager makes one per run). Without one, only the per-caller limits apply.
    pub fn set_unit_budget(&mut self, budget: &'a UnitBudget) {
        self.unit_budget = Some(budget);
    }

    /// The unit's growth budget, if the run has one ([`PassContext::set_unit_budget`]).
    pub fn unit_budget(&self) -> Option<&'a UnitBudget> {
        self.unit_budget
    }

    /// Gives the fact analysis the module's call effects, so a call kills only the length facts
    /// its callee may change (the manager computes them once per run).
    pub fn set_call_effects(&mut self, effects: &'a CallEffects) {
        self.call_effects = Some(effects);
    }

    /// The module's call effects, when the manager computed them.
    pub fn call_effects(&self) -> Option<&'a CallEffects> {
        self.call_effects
    }

    /// Shares the run's cache of entry-live locals (see `EntryLiveCache`).
    pub fn set_entry_live_cache(&mut self, cache: &'a EntryLiveCache) {
        self.entry_live = Some(cache);
    }

    /// The locals of the module's function `id` other than its parameters that may be read
    /// before they are written: those live on entry (none for an id the module lacks). Not for
    /// the function being transformed, which the module holds only as a signature while a pass
    /// runs on it. From the run's cache when the manager provided one.
    pub fn entry_live_locals(&mut self, id: FuncId) -> Rc<[Local]> {
        let module = self.module;
        let Some(callee) = module.funcs.get(id) else {
            return Rc::from([]);
        };
        if let Some(hit) = self
            .entry_live
            .and_then(|c| c.borrow().get(id.index()).cloned().flatten())
        {
            return hit;
        }
        let start = self.stopwatch();
        let mut scratch: EntryReads = self.take_scratch();
        let locals = live_on_entry(callee, &mut scratch);
        self.give_scratch(scratch);
        self.timings.record_analysis(Analysis::Liveness, start);
        if let Some(cache) = self.entry_live {
            let mut table = cache.borrow_mut();
            if table.len() <= id.index() {
                table.resize(id.index() + 1, None);
            }
            table[id.index()] = Some(Rc::clone(&locals));
        }
        locals
    }

    /// The module's call graph, when the manager provided one.
    pub fn call_graph(&self) -> Option<&'a CallGraph> {
        self.call_graph
    }

    /// Turns remark collection on or off (on by default).
    pub fn set_remarks_enabled(&mut self, on: bool) {
        self.remarks_enabled = on;
    }

    /// Turns the counters on or off (on by default): off, [`PassContext::stat`] keeps
    /// nothing.
    pub fn set_stats_enabled(&mut self, on: bool) {
        self.stats_enabled = on;
    }

    /// Turns the clock of the analyses' timings on or off (off by default; the computations
    /// are counted either way).
    pub fn set_timing_enabled(&mut self, on: bool) {
        self.timing_enabled = on;
    }

    /// A stopwatch for one analysis: running only when timing is on.
    fn stopwatch(&self) -> Stopwatch {
        Stopwatch::start(self.timing_enabled)
    }

    /// Sets the pass that remarks and counters are attributed to.
    pub fn set_pass(&mut self, pass: &'static str) {
        self.pass = pass;
        self.stats_from = self.stats.len();
    }

    /// Drops every cached analysis (the manager calls this after a pass reports a change; a
    /// pass that changes the CFG and wants fresh analyses calls it too).
    pub fn invalidate(&mut self) {
        self.invalidate_cfg();
        self.drop_facts();
    }

    /// Drops the cached fact analysis, keeping its sets' storage when no pass holds it.
    fn drop_facts(&mut self) {
        if let Some(facts) = self.facts.take().and_then(|rc| Rc::try_unwrap(rc).ok()) {
            facts.recycle(&mut self.fact_pool);
        }
    }

    /// Takes the cached fact analysis out of the context (for the manager, around an
    /// invalidation that a [`Pass::preserves_facts`] pass's change calls for).
    pub(crate) fn take_cached_facts(&mut self) -> Option<Rc<FactAnalysis>> {
        self.facts.take()
    }

    /// Takes the cached liveness out of the context (for the manager, around an
    /// invalidation after a pass that keeps it).
    pub(crate) fn take_cached_liveness(&mut self) -> Option<Liveness> {
        self.liveness.take()
    }

    /// Puts back a liveness [`PassContext::take_cached_liveness`] took out.
    pub(crate) fn restore_cached_liveness(&mut self, live: Liveness) {
        self.liveness = Some(live);
    }

    /// Puts back an analysis [`PassContext::take_cached_facts`] took out.
    pub(crate) fn restore_cached_facts(&mut self, facts: Rc<FactAnalysis>) {
        self.facts = Some(facts);
    }

    /// Hands a fact analysis that is no longer needed back (its sets serve the next one).
    pub fn recycle_facts(&mut self, facts: FactAnalysis) {
        facts.recycle(&mut self.fact_pool);
    }

    /// The fact sets this context keeps for reuse, for the next function's context
    /// ([`PassContext::set_fact_pool`] there); the cached analyses are dropped.
    pub fn take_fact_pool(&mut self) -> FactSetPool {
        self.invalidate();
        std::mem::take(&mut *self.fact_pool)
    }

    /// Gives this context fact sets to reuse (from [`PassContext::take_fact_pool`]).
    pub fn set_fact_pool(&mut self, pool: FactSetPool) {
        *self.fact_pool = pool;
    }

    /// The work space of type `T` a pass gave back on an earlier function
    /// ([`PassContext::give_scratch`]), or a default one: reset what you read before use.
    pub fn take_scratch<T: Default + 'static>(&mut self) -> T {
        self.scratch.take()
    }

    /// Keeps a pass's work space for its next function (`crate::scratch`).
    pub fn give_scratch<T: 'static>(&mut self, value: T) {
        self.scratch.give(value);
    }

    /// Drops the CFG and what depends on it (dominators, liveness) but keeps the fact
    /// analysis: for a pass that decided branches and says its facts still hold
    /// ([`Pass::preserves_facts`]) while it declares [`Pass::preserves_cfg`] for its other
    /// changes.
    pub fn invalidate_cfg(&mut self) {
        if let Some(mut rc) = self.cfg.take() {
            if let Some(cfg) = Rc::get_mut(&mut rc) {
                let cfg = std::mem::take(cfg);
                self.return_cfg(cfg);
                self.cfg_shell = Some(rc);
            }
        }
        self.domtree = None;
        self.liveness = None;
    }

    /// Drops the analyses that depend on instructions (liveness, facts) but keeps the CFG and
    /// the dominator tree: for a pass that changed instructions but no branch.
    pub fn invalidate_dataflow(&mut self) {
        self.liveness = None;
        self.drop_facts();
    }

    /// The CFG of `func`, computed on first use.
    pub fn cfg(&mut self, func: &Function) -> &Cfg {
        if self.cfg.is_none() {
            let mut cfg = self.spare_cfg();
            self.recompute_cfg(func, &mut cfg);
            let rc = match self.cfg_shell.take() {
                Some(mut shell) => match Rc::get_mut(&mut shell) {
                    Some(slot) => {
                        *slot = cfg;
                        shell
                    }
                    None => Rc::new(cfg),
                },
                None => Rc::new(cfg),
            };
            self.cfg = Some(rc);
        }
        self.cfg.get_or_insert_with(Rc::default)
    }

    /// The cached CFG of `func` as a shared handle (computed on first use): for a pass that
    /// keeps reading it while it asks the context for other analyses. Cloning the handle
    /// copies nothing.
    pub fn shared_cfg(&mut self, func: &Function) -> Rc<Cfg> {
        self.cfg(func);
        Rc::clone(self.cfg.get_or_insert_with(Rc::default))
    }

    /// A CFG of `func` as it is now, not cached: for a pass that needs the CFG again after
    /// changing it itself. Counted like every analysis.
    pub fn fresh_cfg(&mut self, func: &Function) -> Cfg {
        let mut cfg = self.spare_cfg();
        self.recompute_cfg(func, &mut cfg);
        cfg
    }

    /// Storage for a CFG a pass recomputes itself round after round
    /// ([`PassContext::recompute_cfg`]): the vectors of a CFG of this function dropped
    /// earlier when there is one, so the first recomputation allocates nothing either. Hand it
    /// back with [`PassContext::return_cfg`].
    pub fn spare_cfg(&mut self) -> Cfg {
        self.spare_cfgs.pop().unwrap_or_default()
    }

    /// Keeps `cfg`'s storage for a later [`PassContext::spare_cfg`]. A few are kept, not one:
    /// a pass may hold a fresh CFG while the cached one is alive, and both come back (kept to
    /// one, the second was dropped and the next request allocated a new one, about 140
    /// allocations and frees per pipeline on a small module).
    pub fn return_cfg(&mut self, cfg: Cfg) {
        if self.spare_cfgs.len() < SPARE_CFGS {
            self.spare_cfgs.push(cfg);
        }
    }

    /// The storage of this context's CFGs, for the next function's context
    /// ([`PassContext::return_cfg`] there): the cached analyses are dropped.
    pub fn take_cfg_storage(&mut self) -> Vec<Cfg> {
        self.invalidate();
        std::mem::take(&mut self.spare_cfgs)
    }

    /// Recomputes `cfg` for `func` as it is now, in place (no allocation once its vectors are
    /// large enough); counted like [`PassContext::fresh_cfg`].
    pub fn recompute_cfg(&mut self, func: &Function, cfg: &mut Cfg) {
        let start = self.stopwatch();
        // Room for twice the blocks of a small function (at least `MIN_CFG_BLOCKS`) when it
        // must grow: the same storage serves the next, usually larger function (and an
        // inliner's growing one) without growing each of its vectors again. A large function
        // gets what it needs (its computation dwarfs a replaced vector; doubled storage
        // would not).
        let blocks = func.blocks.len();
        let room = if blocks <= MIN_CFG_BLOCKS * 64 {
            (2 * blocks).max(MIN_CFG_BLOCKS)
        } else {
            blocks
        };
        cfg.reserve_at_least(blocks, room);
        cfg.recompute(func);
        self.timings.record_analysis(Analysis::Cfg, start);
    }

    /// The dominator tree of `func`, computed on first use.
    pub fn domtree(&mut self, func: &Function) -> &DomTree {
        if self.domtree.is_none() {
            self.cfg(func);
            let start = self.stopwatch();
            let tree = DomTree::compute(self.cfg.as_deref().unwrap_or(&Cfg::default()));
            self.timings.record_analysis(Analysis::DomTree, start);
            self.domtree = Some(tree);
        }
        self.domtree.get_or_insert_with(DomTree::default)
    }

    /// Liveness of the locals of `func`, computed on first use.
    pub fn liveness(&mut self, func: &Function) -> &Liveness {
        if self.liveness.is_none() {
            self.cfg(func);
            let start = self.stopwatch();
            // (An empty CFG is made only when there is none: building and dropping one for
            // every computation cost some thirty instructions.)
            let live = match self.cfg.as_deref() {
                Some(cfg) => Liveness::compute(func, cfg),
                None => Liveness::compute(func, &Cfg::default()),
            };
            self.timings.record_analysis(Analysis::Liveness, start);
            self.liveness = Some(live);
        }
        self.liveness.get_or_insert_with(Liveness::default)
    }

    /// Records one run of the pass at `position` in the pipeline (the manager calls this).
    pub fn record_pass(
        &mut self,
        position: usize,
        pass: &'static str,
        changed: bool,
        time: std::time::Duration,
    ) {
        self.timings.record_pass_at(position, pass, changed, time);
    }

    /// Continues `timings` (a run's record so far): what this context records adds to it.
    pub fn set_timings(&mut self, timings: PassTimings) {
        self.timings = timings;
    }

    /// The timings gathered so far, leaving an empty record behind.
    pub fn take_timings(&mut self) -> PassTimings {
        std::mem::take(&mut self.timings)
    }

    /// Whether remarks are being collected. Building a remark's message can cost more than the
    /// transformation it describes; passes skip that work when nobody asked for remarks.
    pub fn remarks_enabled(&self) -> bool {
        self.remarks_enabled
    }

    /// Like [`PassContext::applied`], building the message only when remarks are collected.
    pub fn applied_with(
        &mut self,
        func: &Function,
        block: Block,
        loc: Loc,
        message: impl FnOnce() -> String,
    ) {
        if self.remarks_enabled {
            self.remark(RemarkKind::Applied, func, block, loc, message());
        }
    }

    /// Like [`PassContext::missed`], building the message only when remarks are collected.
    pub fn missed_with(
        &mut self,
        func: &Function,
        block: Block,
        loc: Loc,
        message: impl FnOnce() -> String,
    ) {
        if self.remarks_enabled {
            self.remark(RemarkKind::Missed, func, block, loc, message());
        }
    }

    /// The fact analysis of `func` at every block, computed on first use (shared: cloning the
    /// `Rc` is cheap).
    pub fn facts(&mut self, func: &Function) -> Rc<FactAnalysis> {
        self.facts_for(func, FactDemand::Everywhere)
    }

    /// The fact analysis of `func` at the blocks where the check passes decide something and
    /// at every block before them ([`FactDemand::AtChecks`]); other blocks have no facts,
    /// which reads as "nothing runs there", so only a pass that asks about no other block
    /// may use it. A cached analysis of every block serves as well.
    pub fn check_facts(&mut self, func: &Function) -> Rc<FactAnalysis> {
        self.facts_for(func, FactDemand::AtChecks)
    }

    fn facts_for(&mut self, func: &Function, demand: FactDemand) -> Rc<FactAnalysis> {
        if let Some(facts) = &self.facts {
            if demand == FactDemand::AtChecks || facts.demand() == FactDemand::Everywhere {
                return Rc::clone(facts);
            }
        }
        // A narrower cached analysis is replaced: its sets go back to the pool.
        if let Some(old) = self.facts.take().and_then(|rc| Rc::try_unwrap(rc).ok()) {
            old.recycle(&mut self.fact_pool);
        }
        self.liveness(func);
        let (Some(cfg), Some(live)) = (self.cfg.as_deref(), self.liveness.as_ref()) else {
            return Rc::new(FactAnalysis::default());
        };
        let start = self.stopwatch();
        let facts = Rc::new(FactAnalysis::compute_pooled(
            func,
            cfg,
            live,
            self.call_effects,
            &mut self.fact_pool,
            demand,
        ));
        self.timings.record_analysis(Analysis::Facts, start);
        self.facts = Some(Rc::clone(&facts));
        facts
    }

    /// Whether a fact analysis of the function is cached (left valid by an earlier pass,
    /// [`Pass::preserves_facts`]).
    pub fn has_cached_facts(&self) -> bool {
        self.facts.is_some()
    }

    /// The fact analysis of `func` restricted to the locals linked to a checked division's
    /// divisor ([`FactAnalysis::compute_for_divisors`]); not cached (one pass asks for it).
    pub fn divisor_facts(&mut self, func: &Function) -> FactAnalysis {
        self.liveness(func);
        let (Some(cfg), Some(live)) = (self.cfg.as_deref(), self.liveness.as_ref()) else {
            return FactAnalysis::default();
        };
        let start = self.stopwatch();
        let facts = FactAnalysis::compute_for_divisors(
            func,
            cfg,
            live,
            self.call_effects,
            &mut self.fact_pool,
        );
        self.timings.record_analysis(Analysis::Facts, start);
        facts
    }

    /// Reports a change at `loc` in `block` (nothing when remarks are not collected; prefer
    /// [`PassContext::applied_with`], which does not even build the message then).
    pub fn applied(&mut self, func: &Function, block: Block, loc: Loc, message: impl Into<String>) {
        self.remark(RemarkKind::Applied, func, block, loc, message.into());
    }

    /// Reports code the pass looked at and left, saying why (nothing when remarks are not
    /// collected; prefer [`PassContext::missed_with`]).
    pub fn missed(&mut self, func: &Function, block: Block, loc: Loc, message: impl Into<String>) {
        self.remark(RemarkKind::Missed, func, block, loc, message.into());
    }

    fn remark(
        &mut self,
        kind: RemarkKind,
        func: &Function,
        block: Block,
        loc: Loc,
        message: String,
    ) {
        if !self.remarks_enabled {
            return;
        }
        let block = func
            .blocks
            .get(block)
            .map_or_else(|| block.to_string(), |b| b.name.to_string());
        self.remarks.push(Remark {
            pass: self.pass,
            kind,
            function: self.function.to_string(),
            block,
            loc,
            message,
        });
    }

    /// Adds `n` to the current pass's counter `counter` (nothing when counters are off).
    pub fn stat(&mut self, counter: &'static str, n: u64) {
        if self.stats_enabled {
            self.stats.add_from(self.stats_from, self.pass, counter, n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::OptLevel;

    #[test]
    fn levels_parse_from_their_names_and_digits_only() {
        for level in [OptLevel::O0, OptLevel::O1, OptLevel::O2] {
            assert_eq!(level.name().parse::<OptLevel>(), Ok(level));
            assert_eq!(level.name()[1..].parse::<OptLevel>(), Ok(level));
        }
        for bad in ["3", "O3", "o2", "", "O", "02"] {
            let err = bad.parse::<OptLevel>().unwrap_err();
            assert!(err.contains(&format!("`{bad}`")), "{err}");
        }
    }
}
