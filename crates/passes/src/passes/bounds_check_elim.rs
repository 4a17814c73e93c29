//! `bounds-check-elim` (opt-in; the pipelines run `sparse-bounds-check-elim`, which words its
//! remarks with this pass's decisions): turns checked vec operations into unchecked ones where
//! the fact analysis ([`crate::analysis::facts`]) proves the check cannot fail.
//!
//! - `pop v` becomes `pop.unchecked v` when `len(v) > 0` holds just before it.
//! - `get v[i]` / `set v[i], x` (element or field) become unchecked when `i >= 0` and
//!   `i < len(v)` hold just before them; with a constant index `k`, when `len(v) > k` holds.
//! - A front end's explicit range check — `brif c, F, S` where `F` only traps and `c` compares
//!   two `i64` operands (an index with 0, a constant, a vec length, folded or not, or another
//!   local) — becomes `br S` when the facts decide `c` (the trap edge can never be taken);
//!   otherwise it stays with a missed remark saying where the index came from.
//!
//! Soundness: the fact analysis is a must-analysis — a fact holds at a point only if it holds on
//! every path from the entry to that point, with every instruction that may change a value the
//! fact depends on (assignment of a local it mentions; push/pop/drop of a vec that may alias,
//! i.e. has the same type; any call) killing it. So when the facts hold just before the
//! operation, its precondition holds on every execution that reaches it, the check can never
//! fire, and dropping it changes no result and no trap. Every check kept gets a missed remark
//! saying which fact is missing and, where it can tell, why.

use crate::analysis::facts::demand::{ends_in_explicit_check, explicit_check_sides};
use crate::analysis::facts::{Fact, FactAnalysis, FactQueries, GaveUp, Term, TermKind};
use crate::analysis::{compare_bounds, Cfg};
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_inst, display_terminator, Block, Check, CmpOp, Function, Inst, InstKind, Local, Module,
    Operand, Terminator, Type,
};
use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;

/// The pass.
pub struct BoundsCheckElim;

/// What a checked operation needs.
pub(crate) enum Need {
    /// `pop v`: `len(v) > 0`.
    Pop { vec: Local },
    /// `v[i]`: `i >= 0` and `i < len(v)`.
    Index { vec: Local, i: Local },
    /// `v[k]`: `len(v) > k`.
    Const { vec: Local, k: i64 },
}

/// What a checked `pop`/`get`/`set` needs (`None` for anything else).
pub(crate) fn need_of(kind: &InstKind) -> Option<Need> {
    match *kind {
        InstKind::VecPop {
            vec,
            check: Check::Checked,
            ..
        } => Some(Need::Pop { vec }),
        InstKind::VecGet {
            vec,
            index,
            check: Check::Checked,
            ..
        }
        | InstKind::VecSet {
            vec,
            index,
            check: Check::Checked,
            ..
        } => Some(match index {
            Operand::Local(i) => Need::Index { vec, i },
            Operand::Const(k) => Need::Const { vec, k },
        }),
        _ => None,
    }
}

/// Whether `block` holds something the check passes decide here: a checked `pop`/`get`/`set`,
/// or an explicit check ending it.
pub(crate) fn has_check(func: &Function, block: Block) -> bool {
    let insts = &func.blocks[block].insts;
    insts.iter().any(|&i| need_of(func.inst(i)).is_some()) || ends_in_explicit_check(func, block)
}

/// The kind of a checked operation, for the per-kind counters.
#[derive(Copy, Clone)]
pub(crate) enum CheckKind {
    Pop,
    ConstIndex,
    LocalIndex,
}

impl CheckKind {
    /// The kind's name in remarks, as the decisions word it (`pop check`, `index check`).
    pub(crate) fn what(self) -> &'static str {
        match self {
            CheckKind::Pop => "pop",
            CheckKind::ConstIndex | CheckKind::LocalIndex => "index",
        }
    }

    pub(crate) fn of(need: &Need) -> CheckKind {
        match need {
            Need::Pop { .. } => CheckKind::Pop,
            Need::Const { .. } => CheckKind::ConstIndex,
            Need::Index { .. } => CheckKind::LocalIndex,
        }
    }

    /// The `--stats` counter of a removed (or kept) check of this kind.
    pub(crate) fn counter(self, removed: bool) -> &'static str {
        match (self, removed) {
            (CheckKind::Pop, true) => "pop_checks_removed",
            (CheckKind::Pop, false) => "pop_checks_kept",
            (CheckKind::ConstIndex, true) => "const_index_checks_removed",
            (CheckKind::ConstIndex, false) => "const_index_checks_kept",
            (CheckKind::LocalIndex, true) => "local_index_checks_removed",
            (CheckKind::LocalIndex, false) => "local_index_checks_kept",
        }
    }
}

/// A decision about one checked operation (the message is empty when remarks are not
/// collected).
pub(crate) struct Decision {
    pub(crate) inst: Inst,
    pub(crate) kind: CheckKind,
    pub(crate) remove: bool,
    pub(crate) message: String,
}

impl Pass for BoundsCheckElim {
    fn name(&self) -> &'static str {
        "bounds-check-elim"
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O1
    }

    /// In no pipeline since `sparse-bounds-check-elim` replaced it (docs/passes.md, §1b):
    /// `--passes bounds-check-elim` runs it.
    fn opt_in(&self) -> bool {
        true
    }

    /// A proved check only changes its operation's flag; when an explicit check is decided,
    /// the branch becomes a jump and the pass drops the CFG itself
    /// ([`PassContext::invalidate_cfg`]).
    fn preserves_cfg(&self) -> bool {
        true
    }

    /// It turns checked operations the facts proved into unchecked ones and explicit checks
    /// they decided into jumps (dropping the blocks no longer reached); no instruction is added,
    /// removed or moved, so every fact still holds, on fewer paths. `div-check-prove`, next in
    /// the O2 pipeline, decides the division checks with the same analysis.
    fn preserves_facts(&self) -> bool {
        true
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        let Some(dense) = dense_decisions(func, cx) else {
            return false;
        };
        if let (Some(why), Some(entry)) = (dense.gave_up, func.entry()) {
            cx.stat("fact_analyses_given_up", 1);
            let loc = func.blocks[entry].loc;
            cx.missed(
                func,
                entry,
                loc,
                format!("the fact analysis gave up on this function ({why}): every check whose proof needs facts from before its block is kept"),
            );
        }
        apply(func, cx, dense.checks, dense.explicit)
    }
}

/// The fact analysis's decisions on a function's checks, with their remarks' messages when
/// remarks are collected.
pub(crate) struct DenseDecisions {
    /// Each checked `pop`/`get`/`set` of a reachable block, in layout order.
    pub(crate) checks: Vec<(Block, Decision)>,
    /// Each explicit check the facts can speak about.
    pub(crate) explicit: Vec<(Block, ExplicitDecision)>,
    /// Why the fact analysis gave up on the function, if it did.
    pub(crate) gave_up: Option<GaveUp>,
}

/// `bounds-check-elim`'s decisions for `func`, not yet carried out (`None`: no checked
/// operation and no explicit check, so no analysis). `sparse-bounds-check-elim` asks for them
/// only to word its remarks.
pub(crate) fn dense_decisions(func: &Function, cx: &mut PassContext<'_>) -> Option<DenseDecisions> {
    // Only the blocks with a checked operation or an explicit check have anything to
    // decide; no analysis at all when there is none.
    let work: Vec<Block> = func
        .layout
        .iter()
        .copied()
        .filter(|&b| has_check(func, b))
        .collect();
    if work.is_empty() {
        return None;
    }
    // Only the work blocks, their predecessors and the blocks up a chain of single
    // predecessors are read below: the facts of the blocks that reach a check suffice.
    let fa = cx.check_facts(func);
    let cfg = cx.shared_cfg(func);
    let module = cx.module;
    let mut decisions: Vec<(Block, Decision)> = Vec::new();
    let mut explicit: Vec<(Block, ExplicitDecision)> = Vec::new();
    let gains = RefCell::new(HashMap::default());
    let mut all_defs: HashMap<Local, Vec<Inst>> = HashMap::default();
    let explain = cx.remarks_enabled();
    for &b in func.layout.iter().filter(|_| explain) {
        for &inst in &func.blocks[b].insts {
            if let Some(d) = func.inst(inst).def() {
                all_defs.entry(d).or_default().push(inst);
            }
        }
    }
    // The latest definition of each local so far in the current block, with its position
    // (one map, cleared per block: a function can have hundreds of thousands of blocks).
    let mut local_defs: HashMap<Local, (usize, Inst)> = HashMap::default();
    for &block in &work {
        if fa.block_in(block).is_none() {
            continue; // unreachable: nothing is known, and nothing runs
        }
        local_defs.clear();
        let ctx = Ctx {
            func,
            module,
            fa: &fa,
            cfg: &cfg,
            block,
            gains: &gains,
            all_defs: &all_defs,
            explain,
        };
        // Facts killed and established so far in this block, with the instruction.
        let mut killed = Events::default();
        let mut gained = Events::default();
        // Replaying the block's facts instruction by instruction is needed only up to its
        // last checked operation, or for the remarks (which name definitions) through the
        // whole block: a block that only ends in an explicit check is decided on its stored
        // out-state.
        let insts = &func.blocks[block].insts;
        let last_need = insts.iter().rposition(|&i| need_of(func.inst(i)).is_some());
        let replay_to = if explain {
            Some(insts.len())
        } else {
            last_need.map(|at| at + 1)
        };
        let cursor = replay_to.and_then(|_| fa.cursor(func, block));
        if let (Some(mut cursor), Some(end)) = (cursor, replay_to) {
            while let Some((idx, inst)) = cursor.peek().filter(|&(idx, _)| idx < end) {
                if let Some(need) = need_of(func.inst(inst)) {
                    let d = ctx.decide(inst, &need, cursor.facts(), &killed, &gained, &local_defs);
                    decisions.push((block, d));
                }
                if let Some(d) = func.inst(inst).def() {
                    local_defs.insert(d, (idx, inst));
                }
                if !explain {
                    cursor.advance();
                    continue;
                }
                let (lost, won) = cursor.step();
                for f in lost {
                    killed.record(f, inst);
                }
                for f in won {
                    gained.record(f, inst);
                }
            }
        }
        if let Some(d) = ctx.decide_explicit(&local_defs) {
            explicit.push((block, d));
        }
    }
    Some(DenseDecisions {
        checks: decisions,
        explicit,
        gave_up: fa.gave_up(),
    })
}

/// Carries out the check passes' decisions, in order: a proved check's operation becomes
/// unchecked, a decided explicit check a jump (then the blocks no longer reached go and the
/// CFG is dropped); each with its counters and remark. Whether anything changed.
pub(crate) fn apply(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    decisions: Vec<(Block, Decision)>,
    explicit: Vec<(Block, ExplicitDecision)>,
) -> bool {
    let mut changed = false;
    for (block, d) in decisions {
        let loc = func.insts[d.inst].loc;
        if d.remove {
            match &mut func.insts[d.inst].kind {
                InstKind::VecPop { check, .. }
                | InstKind::VecGet { check, .. }
                | InstKind::VecSet { check, .. } => *check = Check::Unchecked,
                _ => continue,
            }
            changed = true;
            cx.stat("checks_removed", 1);
            cx.stat(d.kind.counter(true), 1);
            cx.applied(func, block, loc, d.message);
        } else {
            cx.stat("checks_kept", 1);
            cx.stat(d.kind.counter(false), 1);
            cx.missed(func, block, loc, d.message);
        }
    }
    let mut folded = false;
    for (block, d) in explicit {
        let loc = func.blocks[block].term_loc;
        if let Some(target) = d.always {
            func.blocks[block].terminator = Some(Terminator::Br(target));
            changed = true;
            folded = true;
            cx.stat("explicit_checks_removed", 1);
            cx.applied(func, block, loc, d.message);
        } else {
            cx.stat("explicit_checks_kept", 1);
            cx.missed(func, block, loc, d.message);
        }
    }
    if folded {
        remove_unreachable(func, cx);
        cx.invalidate_cfg();
    }
    changed
}

/// Drops blocks no longer reachable after a branch became unconditional (the verifier rejects
/// unreachable blocks).
fn remove_unreachable(func: &mut Function, cx: &mut PassContext<'_>) {
    let cfg = cx.fresh_cfg(func);
    func.layout.retain(|&b| cfg.is_reachable(b));
    cx.return_cfg(cfg);
}

/// A decision about an explicit check: a conditional branch to a block that only traps.
pub(crate) struct ExplicitDecision {
    /// `Some(target)`: the facts decide the branch; it always goes to `target`.
    pub(crate) always: Option<Block>,
    pub(crate) message: String,
}

/// An `i64` operand as a term plus a constant.
fn term_of(func: &Function, o: Operand) -> Option<(Term, i128)> {
    match o {
        Operand::Local(l) if func.local_ty(l) == Type::I64 => Some((Term::value(l), 0)),
        Operand::Local(_) => None,
        Operand::Const(k) => Some((Term::ZERO, k as i128)),
    }
}

/// The value of `lhs op rhs` when the facts decide it (`i64` operands).
fn decide_compare(
    func: &Function,
    facts: &impl FactQueries,
    op: CmpOp,
    lhs: Operand,
    rhs: Operand,
) -> Option<bool> {
    let (x, y) = (term_of(func, lhs)?, term_of(func, rhs)?);
    compare_bounds::decide_compare(op, x, y, Term::ZERO, |a, b, off| {
        i64::try_from(off).is_ok_and(|off| facts.implies(a, b, off))
    })
}

struct Ctx<'a> {
    func: &'a Function,
    module: &'a Module,
    fa: &'a FactAnalysis,
    cfg: &'a Cfg,
    block: Block,
    /// Facts established in other blocks, computed on demand for remarks.
    gains: &'a RefCell<HashMap<Block, Events>>,
    /// Every definition of each local.
    all_defs: &'a HashMap<Local, Vec<Inst>>,
    /// Whether remarks are collected: without them, decisions skip their explanations.
    explain: bool,
}

/// The latest instruction that killed (or established) each constraint in a block, by pair of
/// terms, with its offset.
#[derive(Default)]
struct Events {
    cons: HashMap<(Term, Term), (i64, Inst)>,
}

impl Events {
    fn record(&mut self, fact: Fact, inst: Inst) {
        if let Fact::Le(k) = fact {
            self.cons.insert((k.a, k.b), (k.c, inst));
        }
    }

    /// The latest instruction whose event concerns `need` (the same pair, at least as strong).
    fn find(&self, need: &Fact) -> Option<Inst> {
        match *need {
            Fact::Le(k) => self
                .cons
                .get(&(k.a, k.b))
                .filter(|&&(c, _)| c <= k.c)
                .map(|&(_, i)| i),
            Fact::CmpIs(_) => None,
        }
    }
}

fn line_of(func: &Function, inst: Inst) -> String {
    let loc = func.insts[inst].loc;
    if loc.is_known() {
        format!(" (line {})", loc.line)
    } else {
        String::new()
    }
}

impl Ctx<'_> {
    fn name(&self, l: Local) -> &str {
        self.func.local_name(l)
    }

    fn inst_text(&self, inst: Inst) -> String {
        display_inst(self.module, self.func, inst)
    }

    /// Decides an explicit range check ending this block: `brif c, F, S` (or `brif c, S, F`)
    /// where `F` only traps and `c` compares an index with 0 or with a vec length.
    fn decide_explicit(
        &self,
        local_defs: &HashMap<Local, (usize, Inst)>,
    ) -> Option<ExplicitDecision> {
        let func = self.func;
        let Some(Terminator::BrIf {
            cond: Operand::Local(c),
            then_block,
            else_block,
        }) = func.blocks[self.block].terminator.clone()
        else {
            return None;
        };
        // The trap edge is taken when `c == trap_when`.
        let (trap_when, pass_to) = explicit_check_sides(func, then_block, else_block)?;
        let facts = self.fa.block_out(self.block)?;
        let (op, lhs, rhs) = facts.cmp_of(c)?;
        // Any compare of two `i64` operands is decided by the facts (`decide_compare`); the
        // index (what the remark is about) is the operand that is not a length.
        let index = match (lhs, rhs) {
            (Operand::Local(n), Operand::Local(i)) if facts.len_of(n).is_some() => i,
            (Operand::Local(i), _) | (Operand::Const(_), Operand::Local(i)) => i,
            _ => return None,
        };
        let decided =
            decide_compare(func, &facts, op, lhs, rhs).filter(|&value| value != trap_when);
        if !self.explain {
            return Some(ExplicitDecision {
                always: decided.map(|_| pass_to),
                message: String::new(),
            });
        }
        let text = display_terminator(func, func.blocks[self.block].terminator.as_ref()?);
        let cmp = format!(
            "{} {}, {}",
            op.name(),
            poolopt_ir::display_operand(func, lhs),
            poolopt_ir::display_operand(func, rhs)
        );
        match decide_compare(func, &facts, op, lhs, rhs) {
            Some(value) if value != trap_when => Some(ExplicitDecision {
                always: Some(pass_to),
                message: format!(
                    "explicit check `{text}` removed: `{cmp}` is always {value} here ({})",
                    self.known_about(&facts, index)
                ),
            }),
            _ => {
                let why = self
                    .index_origin(local_defs, index)
                    .map(|o| format!("{o}; nothing bounds it"))
                    .unwrap_or_else(|| format!("nothing decides `{cmp}` here"));
                Some(ExplicitDecision {
                    always: None,
                    message: format!("explicit check `{text}` kept: {why}"),
                })
            }
        }
    }

    /// What the facts say about index `i`, for remarks: the constraints that mention it.
    fn known_about(&self, facts: &impl FactQueries, i: Local) -> String {
        let mut known: Vec<String> = facts
            .constraints_mentioning(Term::value(i))
            .map(|k| format!("`{}`", k.describe(self.func)))
            .collect();
        if known.len() > 6 {
            known.truncate(6);
            known.push("...".to_string());
        }
        known.join(", ")
    }

    fn decide(
        &self,
        inst: Inst,
        need: &Need,
        before: &impl FactQueries,
        killed: &Events,
        gained: &Events,
        local_defs: &HashMap<Local, (usize, Inst)>,
    ) -> Decision {
        let kind = CheckKind::of(need);
        if !self.explain {
            let remove = match *need {
                Need::Pop { vec } => before.len_gt(vec, 0),
                Need::Const { vec, k } => k >= 0 && before.len_gt(vec, k),
                Need::Index { vec, i } => before.non_neg(i) && before.lt_len(i, vec),
            };
            return Decision {
                inst,
                kind,
                remove,
                message: String::new(),
            };
        }
        let keep = |message: String| Decision {
            inst,
            kind,
            remove: false,
            message,
        };
        let remove = |message: String| Decision {
            inst,
            kind,
            remove: true,
            message,
        };
        match *need {
            Need::Pop { vec } => {
                let fact = Fact::len_gt(vec, 0).expect("0 < i64::MAX");
                if before.holds(&fact) {
                    return remove(format!(
                        "pop check removed: len({}) > 0 holds on every path here{}",
                        self.name(vec),
                        self.origins(gained, &[fact])
                    ));
                }
                if let Some((w, k)) = before.len_gt_vecs().find(|&(w, _)| w != vec) {
                    return keep(format!(
                        "pop check kept: only len({}) > {k} is known, and `{}` is not known to be `{}`",
                        self.name(w),
                        self.name(w),
                        self.name(vec)
                    ));
                }
                keep(format!(
                    "pop check kept: nothing proves len({}) > 0 here{}",
                    self.name(vec),
                    self.why_missing(killed, &fact)
                ))
            }
            Need::Const { vec, k } => {
                if k < 0 {
                    return keep(format!(
                        "index check kept: index {k} is negative; the access always traps"
                    ));
                }
                let Some(fact) = Fact::len_gt(vec, k) else {
                    return keep(format!(
                        "index check kept: index {k} is past any length; the access always traps"
                    ));
                };
                if before.holds(&fact) {
                    return remove(format!(
                        "index check removed: len({}) > {k} holds on every path here{}",
                        self.name(vec),
                        self.origins(gained, &[fact])
                    ));
                }
                let known = before
                    .len_gt_vecs()
                    .find(|&(w, _)| w == vec)
                    .map(|(_, m)| format!(" (only len({}) > {m} is known)", self.name(vec)))
                    .unwrap_or_default();
                keep(format!(
                    "index check kept: nothing proves len({}) > {k} here{known}{}",
                    self.name(vec),
                    self.why_missing(killed, &fact)
                ))
            }
            Need::Index { vec, i } => {
                let nn = Fact::non_neg(i);
                let lt = Fact::lt_len(i, vec);
                let (has_nn, has_lt) = (before.holds(&nn), before.holds(&lt));
                let (iname, vname) = (self.name(i), self.name(vec));
                if has_nn && has_lt {
                    return remove(format!(
                        "index check removed: 0 <= {iname} < len({vname}) holds on every path here{}",
                        self.origins(gained, &[nn, lt])
                    ));
                }
                let known = self.known_about(before, i);
                if !has_nn && !has_lt && known.is_empty() {
                    if let Some(origin) = self.index_origin(local_defs, i) {
                        return keep(format!("index check kept: {origin}; nothing bounds it"));
                    }
                }
                if !has_lt {
                    if let Some(w) = before.lt_len_vecs(i).find(|&w| w != vec) {
                        return keep(format!(
                            "index check kept: only `{iname} < len({})` is known, and `{}` is not known to be `{vname}`",
                            self.name(w),
                            self.name(w)
                        ));
                    }
                }
                let missing: Vec<String> = [(!has_nn).then_some(nn), (!has_lt).then_some(lt)]
                    .into_iter()
                    .flatten()
                    .map(|f| format!("`{}`", f.describe(self.func)))
                    .collect();
                let known = if known.is_empty() {
                    format!("nothing about `{iname}`")
                } else {
                    known
                };
                if has_lt {
                    return keep(format!(
                        "index check kept: needs `{iname} >= 0`: `{iname}` may be negative (only {known} is known){}",
                        self.why_missing(killed, &nn)
                    ));
                }
                let first_missing = lt;
                keep(format!(
                    "index check kept: needs {}; known: {known}{}",
                    missing.join(" and "),
                    self.why_missing(killed, &first_missing)
                ))
            }
        }
    }

    /// Why `fact` does not hold here: an instruction of this block killed it, or it holds on some incoming paths only. Empty when unknown.
    fn why_missing(&self, killed: &Events, fact: &Fact) -> String {
        if let Some(inst) = killed.find(fact) {
            let kind = self.func.inst(inst);
            let text = self.inst_text(inst);
            let line = line_of(self.func, inst);
            // The index (the value term of the missing constraint) was reassigned.
            let index = match *fact {
                Fact::Le(k) => [k.a, k.b].into_iter().find_map(|t| match t.kind() {
                    TermKind::Value(l) => Some(l),
                    _ => None,
                }),
                Fact::CmpIs(_) => None,
            };
            let index_redefined = index.is_some() && kind.def() == index;
            return match kind {
                _ if index_redefined => {
                    format!("; it held, but `{text}`{line} reassigns the index after the test")
                }
                InstKind::VecPush { .. }
                | InstKind::VecPop { .. }
                | InstKind::VecDrop { .. }
                | InstKind::Call { .. } => {
                    format!("; it held, but `{text}`{line} may change the length")
                }
                _ => format!("; it held, but `{text}`{line} invalidates it"),
            };
        }
        let Some(start) = self.fa.block_in(self.block) else {
            return String::new();
        };
        if start.holds(fact) {
            return String::new();
        }
        let mut with = Vec::new();
        let mut without = Vec::new();
        for &p in self.cfg.preds(self.block) {
            match self.fa.edge(self.func, p, self.block) {
                Some(e) if e.holds(fact) => with.push(p),
                Some(_) => without.push(p),
                None => {}
            }
        }
        if let (Some(&a), Some(&b)) = (with.first(), without.first()) {
            return format!(
                "; it holds on the path from `{}` but not on the path from `{}`",
                self.func.blocks[a].name, self.func.blocks[b].name
            );
        }
        String::new()
    }

    /// Where the facts come from, when the instruction or branch that established them is in
    /// this block or up a single-predecessor chain: ` (i >= 0 from ...; ...)`. Empty when
    /// unknown.
    fn origins(&self, gained: &Events, facts: &[Fact]) -> String {
        let parts: Vec<String> = facts
            .iter()
            .filter_map(|f| {
                self.origin(gained, f)
                    .map(|o| format!("{} {o}", f.describe(self.func)))
            })
            .collect();
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join("; "))
        }
    }

    fn origin_text(&self, inst: Inst) -> String {
        format!(
            "from `{}`{}",
            self.inst_text(inst),
            line_of(self.func, inst)
        )
    }

    fn origin(&self, gained: &Events, fact: &Fact) -> Option<String> {
        if let Some(inst) = gained.find(fact) {
            return Some(self.origin_text(inst));
        }
        let mut block = self.block;
        for _ in 0..32 {
            let preds: Vec<Block> = self
                .cfg
                .preds(block)
                .iter()
                .copied()
                .filter(|&p| self.fa.block_in(p).is_some())
                .collect();
            let [p] = preds[..] else { return None };
            if p == block {
                return None;
            }
            let out = self.fa.block_out(p)?;
            if !out.holds(fact) {
                let term = self.func.terminator(p)?;
                let loc = self.func.blocks[p].term_loc;
                let line = if loc.is_known() {
                    format!(" (line {})", loc.line)
                } else {
                    String::new()
                };
                return Some(format!(
                    "from `{}` in `{}`{line}",
                    display_terminator(self.func, term),
                    self.func.blocks[p].name
                ));
            }
            let mut cache = self.gains.borrow_mut();
            let events = cache.entry(p).or_insert_with(|| {
                let mut ev = Events::default();
                if let Some(mut cursor) = self.fa.cursor(self.func, p) {
                    while let Some((_, inst)) = cursor.peek() {
                        let (_, gained) = cursor.step();
                        for f in gained {
                            ev.record(f, inst);
                        }
                    }
                }
                ev
            });
            if let Some(inst) = events.find(fact) {
                return Some(self.origin_text(inst));
            }
            block = p;
        }
        None
    }

    /// Where the index `i` came from, when that explains why nothing bounds it: popped from a
    /// vec, loaded from a vec, returned by a call, or a parameter (copies are followed).
    fn index_origin(&self, local_defs: &HashMap<Local, (usize, Inst)>, i: Local) -> Option<String> {
        let func = self.func;
        let iname = self.name(i);
        let mut cur = i;
        // Position in this block of the definition being followed (None: left the block).
        let mut pos = Some(usize::MAX);
        for _ in 0..8 {
            let mut def: Option<Inst> = None;
            if let (Some(limit), Some(&(p, d))) = (pos, local_defs.get(&cur)) {
                if p < limit {
                    def = Some(d);
                    pos = Some(p);
                }
            }
            if def.is_none() {
                pos = None;
                let defs = self.all_defs.get(&cur).map_or(&[][..], |v| &v[..]);
                let is_param = func.params.contains(&cur);
                match (defs, is_param) {
                    ([], true) => return Some(format!("`{iname}` is a parameter")),
                    ([d], false) => def = Some(*d),
                    _ => return None,
                }
            }
            match *func.inst(def?) {
                InstKind::Copy {
                    src: Operand::Local(j),
                    ..
                } => cur = j,
                InstKind::VecPop { vec, .. } => {
                    return Some(format!("`{iname}` was popped from `{}`", self.name(vec)))
                }
                InstKind::VecGet { vec, .. } => {
                    return Some(format!("`{iname}` was loaded from `{}`", self.name(vec)))
                }
                InstKind::Call { func: callee, .. } => {
                    let callee = self
                        .module
                        .funcs
                        .get(callee)
                        .map_or_else(|| callee.to_string(), |f| f.name.clone());
                    return Some(format!("`{iname}` is the result of a call to `{callee}`"));
                }
                _ => return None,
            }
        }
        None
    }
}
