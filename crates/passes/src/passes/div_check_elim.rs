//! `div-check-elim`: removes the divisor test of a division (`sdiv udiv srem urem`: trap
//! `div_zero` on 0; for `sdiv` also the path that gives `MIN / -1 = MIN`) where it cannot fail,
//! and tests it once before a loop where the divisor does not change in the loop.
//!
//! 1. **Proved.** A checked division becomes `op.unchecked` when its divisor is a constant that
//!    passes the test at the operand width (not 0; not -1 for `sdiv`), or when the fact
//!    analysis ([`crate::analysis::facts`]) proves just before it that the divisor is at least
//!    1, or at most -1 (at most -2 for `sdiv`). The facts track only `i64` locals, so this
//!    rule decides `i64` divisors. The pass runs its own analysis, tracking only the locals
//!    linked to a divisor ([`crate::analysis::facts::relevance`]), so the check passes' analysis
//!    does not grow with divisions and this one stays small.
//! 2. **Hoisted (loop versioning).** For a natural loop — a header `h` with back edges from
//!    blocks it dominates and exactly one other predecessor `e` — holding checked divisions
//!    whose divisor is a local that no instruction of the loop assigns, the pass copies the
//!    loop (header and body; the copy's back edges go to the copy's header, its exits to the
//!    original exit blocks) and makes those divisions unchecked in the copy. The edge `e -> h`
//!    then goes through one test of every hoisted precondition (`d != 0`, and `d != -1` when
//!    `d` divides an `sdiv`): `ok = ne d, 0; t = ne d, -1; ok = and ok, t; ...;
//!    brif ok, h_pre_nochk, h_pre`, where `h_pre_nochk: br h_copy` and `h_pre: br h` are the
//!    preheaders of the two loops (kept so the JIT's loop-invariant header loads still find a
//!    preheader ending in `br`). The test is appended to `e` when `e` ends in `br h`, else it
//!    gets a block of its own. A loop of more than [`MAX_VERSIONED_LOOP_INSTS`] instructions is
//!    not copied, nor more than [`MAX_VERSIONED_LOOPS`] loops per function; loops are taken
//!    innermost first and a loop that contains a versioned one is left alone.
//!
//! Placement: O2 only, after `simplify-cfg` (which would thread the empty preheaders away)
//! and before `scalarize`. Rule 1 alone would fit O1, but versioning grows the code, which O1
//! never does; O1 keeps its division checks (a constant divisor is lowered without them at
//! every level anyway).
//!
//! Soundness.
//! - Rule 1: the fact analysis is a must-analysis (a fact holds at a point only if it holds on
//!   every path to it, killed by every assignment of a local it mentions), so a divisor known
//!   to be `>= 1` or `<= -1` (`<= -2`) just before the division is so on every execution that
//!   reaches it: the test never fires, and without it the division computes the same value.
//! - Rule 2: the original loop is unchanged and still entered whenever the test fails, so every
//!   execution that took it before takes it now, with every check (traps happen where and when
//!   they did, with the same kind and line). The copy is entered only from the test's true
//!   edge, so every hoisted divisor passed its test then; no instruction of the loop (hence of
//!   the copy) assigns a hoisted divisor, so it passes the test at every division of the copy
//!   until the copy is left, and those divisions compute what the checked ones would. The copy
//!   executes the same instructions in the same order as the original on the same state, so
//!   results, other traps (with their lines: copies keep each instruction's location) and
//!   memory effects are the same. The test itself only reads locals and writes two fresh bool
//!   locals nothing else reads. A loop that runs zero times with a zero divisor takes one path
//!   or the other and divides by nothing. Only fuel differs (two more blocks per loop entry),
//!   which no level promises to keep.
//!
//! What it does not do: a divisor assigned in the loop (even to a value that passes the
//! test), loops with several entries, division checks in a loop whose inner loop was
//! versioned, facts about non-`i64` divisors (they can only be hoisted), and merging the
//! copies of nested loops. A second run versions the original loop again (sound, only larger;
//! the pipelines run the pass once).

use crate::analysis::facts::{FactAnalysis, FactQueries, Term};
use crate::analysis::{Cfg, DomTree};
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_inst, BinaryOp, Block, BlockData, Check, CmpOp, Function, Inst, InstData, InstKind,
    Loc, Local, Operand, SecondaryMap, Terminator, Type,
};
use rustc_hash::FxHashSet as HashSet;
use std::rc::Rc;

/// The pass.
pub struct DivCheckElim;

/// The most instructions (terminators included) a loop may have to be copied.
pub const MAX_VERSIONED_LOOP_INSTS: usize = 64;

/// The most loops one function gets copies of.
pub const MAX_VERSIONED_LOOPS: usize = 8;

/// The precondition of `op`'s unchecked form on divisor `d`, as written in remarks.
fn precondition(op: BinaryOp, d: &str) -> String {
    if op == BinaryOp::SDiv {
        format!("`{d} != 0` and `{d} != -1`")
    } else {
        format!("`{d} != 0`")
    }
}

/// A division whose check rule 1 kept.
pub(crate) struct Kept {
    block: Block,
    inst: Inst,
    op: BinaryOp,
    divisor: Operand,
    /// What the facts say about the divisor (only when remarks are collected).
    known: String,
}

/// A natural loop with one entry edge.
struct NaturalLoop {
    header: Block,
    /// The one predecessor of the header outside the loop.
    entry: Block,
    /// The header first, then the rest of the body in layout order.
    body: Vec<Block>,
}

impl Pass for DivCheckElim {
    fn name(&self) -> &'static str {
        "div-check-elim"
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O2
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        if !has_checked_division(func) {
            return false;
        }
        let (mut changed, kept) = prove(func, cx, DivisorFacts::Own);
        if !kept.is_empty() {
            changed |= hoist(func, cx, kept);
        }
        changed
    }
}

/// Whether a block of `func` holds a checked division.
pub(crate) fn has_checked_division(func: &Function) -> bool {
    func.layout.iter().any(|&b| {
        func.blocks[b]
            .insts
            .iter()
            .any(|&i| func.inst(i).checked_division().is_some())
    })
}

/// Whether a checked division of `func` divides by an `i64` local (the divisors rule 1 reads
/// facts about).
pub(crate) fn has_local_i64_divisor(func: &Function) -> bool {
    func.layout.iter().any(|&b| {
        func.blocks[b].insts.iter().any(|&i| {
            matches!(func.inst(i).checked_division(), Some((_, Operand::Local(d)))
                if func.local_ty(d) == Type::I64)
        })
    })
}

/// Which fact analysis rule 1 reads.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum DivisorFacts {
    /// Its own, tracking only the locals linked to a divisor ([`PassContext::divisor_facts`]).
    Own,
    /// The check passes' cached one ([`PassContext::check_facts`]: every block with a checked
    /// division is demanded), which tracks those locals too:
    /// `div-check-prove` right after `bounds-check-elim` reuses it. With none cached (after
    /// `sparse-bounds-check-elim`, or alone), [`DivisorFacts::Own`].
    Shared,
}

/// Why rule 1 removes a division's check; [`Removal::message`] is its remark.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Removal {
    /// The constant divisor passes the test.
    Constant(i64),
    /// `d >= 1` is known (or proved).
    AtLeastOne(Local),
    /// `d <= upper` is known (or proved), `upper` from [`divisor_upper`].
    AtMost(Local, i128),
    /// `d >= bound` (`below`: `d <= bound`) follows from a quotient `q == d sdiv |bound|`
    /// of at least 1 (at most -1).
    Quotient {
        d: Local,
        below: bool,
        bound: i64,
        q: Local,
    },
    /// The division's block never runs (the sparse prover's dead blocks).
    NeverRuns,
}

impl Removal {
    /// `div-check-prove`'s `--stats` counter of such a removal.
    pub(crate) fn counter(&self) -> &'static str {
        match self {
            Removal::Constant(_) => "const_checks_removed",
            _ => "checks_removed",
        }
    }

    /// The remark's reason (the division itself follows it).
    pub(crate) fn message(&self, func: &Function) -> String {
        let name = |l: Local| func.local_name(l);
        match *self {
            Removal::Constant(c) => {
                format!("division check removed: the constant divisor {c} passes the test")
            }
            Removal::AtLeastOne(d) => format!("division check removed: `{} >= 1` is known", name(d)),
            Removal::AtMost(d, upper) => {
                format!("division check removed: `{} <= {upper}` is known", name(d))
            }
            Removal::Quotient {
                d,
                below: false,
                bound,
                q,
            } => format!(
                "division check removed: `{x} >= {bound}` follows from `{q} >= 1`, `{q} == {x} sdiv {bound}`",
                x = name(d),
                q = name(q)
            ),
            Removal::Quotient {
                d,
                below: true,
                bound,
                q,
            } => format!(
                "division check removed: `{x} <= {bound}` follows from `{q} <= -1`, `{q} == {x} sdiv {k}`",
                x = name(d),
                q = name(q),
                k = -bound
            ),
            Removal::NeverRuns => "division check removed: its block never runs".to_string(),
        }
    }
}

/// The largest negative divisor that passes `op`'s test: -1, or -2 for `sdiv` (`MIN / -1`).
pub(crate) use crate::analysis::sparse_bounds::divisor_upper;

/// Whether the constant divisor `c` of division `inst` (operator `op`) passes the test at the
/// division's width (its destination's type): not 0, and not -1 for `sdiv`.
pub(crate) fn constant_divisor_passes(func: &Function, inst: Inst, op: BinaryOp, c: i64) -> bool {
    let ty = func.inst(inst).def().map(|d| func.local_ty(d));
    let value = ty.and_then(Type::as_int).map_or(c, |t| t.wrap(c));
    op.unchecked_divisor_ok(value)
}

/// Makes each division of `removed` unchecked, in order, each with its `counter` and remark.
pub(crate) fn remove_checks(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    removed: Vec<(Block, Inst, Removal)>,
    counter: impl Fn(&Removal) -> &'static str,
) {
    for (block, inst, removal) in removed {
        if let InstKind::Binary { check, .. } = &mut func.insts[inst].kind {
            *check = Check::Unchecked;
        }
        cx.stat(counter(&removal), 1);
        let loc = func.insts[inst].loc;
        cx.applied_with(func, block, loc, || {
            format!(
                "{}: `{}`",
                removal.message(func),
                display_inst(cx.module, func, inst)
            )
        });
    }
}

/// Rule 1. Returns whether anything changed, and the divisions whose check stays.
pub(crate) fn prove(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    source: DivisorFacts,
) -> (bool, Vec<Kept>) {
    let explain = cx.remarks_enabled();
    // Only the blocks with a checked division have anything to decide; facts are only
    // needed for an i64 local divisor.
    let dividing: Vec<Block> = func
        .layout
        .iter()
        .copied()
        .filter(|&b| {
            func.blocks[b]
                .insts
                .iter()
                .any(|&i| func.inst(i).checked_division().is_some())
        })
        .collect();
    let needs_facts = has_local_i64_divisor(func);
    let fa: Option<Rc<FactAnalysis>> = needs_facts.then(|| match source {
        DivisorFacts::Shared if cx.has_cached_facts() => cx.check_facts(func),
        // Nothing cached (`sparse-bounds-check-elim` ran instead of `bounds-check-elim`, or
        // the pass runs alone): an analysis of the divisors only costs far less than one of
        // every check as well, and answers the same about the divisors.
        DivisorFacts::Shared | DivisorFacts::Own => Rc::new(cx.divisor_facts(func)),
    });
    let mut removed: Vec<(Block, Inst, Removal)> = Vec::new();
    let mut kept: Vec<Kept> = Vec::new();
    for &block in &dividing {
        if fa.as_ref().is_some_and(|fa| fa.block_in(block).is_none()) {
            continue; // unreachable: nothing runs there
        }
        let mut cursor = fa.as_ref().and_then(|fa| fa.cursor(func, block));
        let insts = &func.blocks[block].insts;
        // The facts are replayed up to the block's last checked division, no further.
        let end = insts
            .iter()
            .rposition(|&i| func.inst(i).checked_division().is_some())
            .map_or(0, |at| at + 1);
        for &inst in &insts[..end] {
            let decision = func.inst(inst).checked_division();
            if let Some((op, divisor)) = decision {
                match divisor {
                    Operand::Const(c) => {
                        if constant_divisor_passes(func, inst, op, c) {
                            removed.push((block, inst, Removal::Constant(c)));
                        } else {
                            kept.push(Kept {
                                block,
                                inst,
                                op,
                                divisor,
                                known: String::new(),
                            });
                        }
                    }
                    Operand::Local(d) => {
                        let facts = cursor
                            .as_ref()
                            .filter(|_| func.local_ty(d) == Type::I64)
                            .map(|c| c.facts());
                        let t = Term::value(d);
                        let upper = divisor_upper(op);
                        let proof = facts.and_then(|f| {
                            if f.lower_at_least(t, 1) {
                                return Some(Removal::AtLeastOne(d));
                            }
                            if f.upper_at_most(t, upper) {
                                return Some(Removal::AtMost(d, upper));
                            }
                            // A quotient of the divisor whose bound gives the divisor's.
                            match f.quotient_bounds(d) {
                                (Some((bound, q)), _) => Some(Removal::Quotient {
                                    d,
                                    below: false,
                                    bound,
                                    q,
                                }),
                                (_, Some((bound, q))) if i128::from(bound) <= upper => {
                                    Some(Removal::Quotient {
                                        d,
                                        below: true,
                                        bound,
                                        q,
                                    })
                                }
                                _ => None,
                            }
                        });
                        let name = || func.local_name(d).to_string();
                        match proof {
                            Some(removal) => removed.push((block, inst, removal)),
                            None => {
                                let known = match facts {
                                    Some(f) if explain => {
                                        let mut known: Vec<String> = f
                                            .constraints_mentioning(t)
                                            .take(4)
                                            .map(|c| format!("`{}`", c.describe(func)))
                                            .collect();
                                        if known.is_empty() {
                                            known.push("nothing".to_string());
                                        }
                                        known.join(", ")
                                    }
                                    None if explain => {
                                        format!(
                                            "nothing (the facts track i64 locals; `{}` is {})",
                                            name(),
                                            func.local_ty(d)
                                                .as_scalar()
                                                .map_or("not an integer", |t| t.name())
                                        )
                                    }
                                    _ => String::new(),
                                };
                                kept.push(Kept {
                                    block,
                                    inst,
                                    op,
                                    divisor,
                                    known,
                                });
                            }
                        }
                    }
                }
            }
            if let Some(c) = cursor.as_mut() {
                c.advance();
            }
        }
    }
    // Its own analysis goes back to the pool; the shared one stays cached.
    if let Some(fa) = fa.and_then(|fa| Rc::try_unwrap(fa).ok()) {
        cx.recycle_facts(fa);
    }
    let changed = !removed.is_empty();
    remove_checks(func, cx, removed, Removal::counter);
    (changed, kept)
}

/// The natural loops of `func` with one entry edge, innermost (smallest) first.
fn natural_loops(func: &Function, cfg: &Cfg, dom: &DomTree) -> Vec<NaturalLoop> {
    let mut pos: SecondaryMap<Block, u32> = func.block_map();
    for (n, &b) in func.layout.iter().enumerate() {
        pos[b] = n as u32;
    }
    let mut loops = Vec::new();
    for &h in cfg.rpo() {
        let preds: Vec<Block> = cfg
            .preds(h)
            .iter()
            .copied()
            .filter(|&p| cfg.is_reachable(p))
            .collect();
        let latches: Vec<Block> = preds
            .iter()
            .copied()
            .filter(|&p| dom.dominates(h, p))
            .collect();
        if latches.is_empty() {
            continue;
        }
        let entries: Vec<Block> = preds
            .iter()
            .copied()
            .filter(|&p| !dom.dominates(h, p))
            .collect();
        let [entry] = entries.as_slice() else {
            continue;
        };
        let mut seen: SecondaryMap<Block, bool> = func.block_map();
        seen[h] = true;
        let mut body = vec![h];
        let mut work = latches;
        while let Some(b) = work.pop() {
            if seen[b] {
                continue;
            }
            seen[b] = true;
            body.push(b);
            work.extend(
                cfg.preds(b)
                    .iter()
                    .copied()
                    .filter(|&p| cfg.is_reachable(p) && !seen[p]),
            );
        }
        body[1..].sort_by_key(|&b| pos[b]);
        loops.push(NaturalLoop {
            header: h,
            entry: *entry,
            body,
        });
    }
    loops.sort_by_key(|l| l.body.len());
    loops
}

/// Why a division's check stays after rule 2 (or that it was hoisted).
enum Outcome {
    Hoisted { header: Block },
    Kept(String),
}

/// Rule 2, over the divisions rule 1 kept. Returns whether anything changed.
fn hoist(func: &mut Function, cx: &mut PassContext<'_>, kept: Vec<Kept>) -> bool {
    let explain = cx.remarks_enabled();
    let cfg = cx.shared_cfg(func);
    let dom = cx.domtree(func).clone();
    let loops = natural_loops(func, &cfg, &dom);
    // The innermost loop of each block.
    let mut innermost: SecondaryMap<Block, Option<u32>> = func.block_map();
    for (i, l) in loops.iter().enumerate() {
        for &b in &l.body {
            if innermost[b].is_none() {
                innermost[b] = Some(i as u32);
            }
        }
    }
    let mut outcome: Vec<Option<Outcome>> = kept.iter().map(|_| None).collect();
    let mut in_versioned: SecondaryMap<Block, bool> = func.block_map();
    let mut versioned = 0usize;
    let mut changed = false;
    for (li, lp) in loops.iter().enumerate() {
        let mine: Vec<usize> = (0..kept.len())
            .filter(|&k| innermost[kept[k].block] == Some(li as u32))
            .collect();
        if mine.is_empty() {
            continue;
        }
        let name = |b: Block| func.blocks[b].name.clone();
        let mut defs: HashSet<Local> = HashSet::default();
        let mut size = 0usize;
        for &b in &lp.body {
            size += func.blocks[b].insts.len() + 1;
            for &i in &func.blocks[b].insts {
                if let Some(d) = func.inst(i).def() {
                    defs.insert(d);
                }
            }
        }
        // Divisors to test: (local, also != -1).
        let mut tests: Vec<(Local, bool)> = Vec::new();
        let mut hoisted: Vec<usize> = Vec::new();
        for &k in &mine {
            let kd = &kept[k];
            match kd.divisor {
                Operand::Const(c) => {
                    if explain {
                        outcome[k] = Some(Outcome::Kept(format!(
                            "the divisor is the constant {c}, which fails the test"
                        )));
                    }
                }
                Operand::Local(d) if defs.contains(&d) => {
                    if explain {
                        let at = lp
                            .body
                            .iter()
                            .flat_map(|&b| func.blocks[b].insts.iter().copied())
                            .find(|&i| func.inst(i).def() == Some(d));
                        let line = at.map_or(0, |i| func.insts[i].loc.line);
                        outcome[k] = Some(Outcome::Kept(format!(
                            "not hoisted: `{}` is assigned in loop `{}` (line {line})",
                            func.local_name(d),
                            name(lp.header)
                        )));
                    }
                }
                Operand::Local(d) => {
                    let m1 = kd.op == BinaryOp::SDiv;
                    match tests.iter_mut().find(|t| t.0 == d) {
                        Some(t) => t.1 |= m1,
                        None => tests.push((d, m1)),
                    }
                    hoisted.push(k);
                }
            }
        }
        if hoisted.is_empty() {
            continue;
        }
        let refuse = if lp.body.iter().any(|&b| in_versioned[b]) {
            Some("it contains a loop that was versioned".to_string())
        } else if size > MAX_VERSIONED_LOOP_INSTS {
            Some(format!(
                "it has {size} instructions, more than the {MAX_VERSIONED_LOOP_INSTS} a copy may have"
            ))
        } else if versioned >= MAX_VERSIONED_LOOPS {
            Some(format!(
                "{MAX_VERSIONED_LOOPS} loops of this function are versioned already"
            ))
        } else {
            None
        };
        if let Some(why) = refuse {
            cx.stat("loops_not_versioned", 1);
            for &k in &hoisted {
                if explain {
                    outcome[k] = Some(Outcome::Kept(format!(
                        "loop `{}` not versioned: {why}",
                        name(lp.header)
                    )));
                }
            }
            continue;
        }
        let unchecked: HashSet<Inst> = hoisted.iter().map(|&k| kept[k].inst).collect();
        version(func, lp, &tests, &unchecked);
        for &b in &lp.body {
            in_versioned[b] = true;
        }
        versioned += 1;
        changed = true;
        cx.stat("loops_versioned", 1);
        cx.stat("checks_hoisted", hoisted.len() as u64);
        for &k in &hoisted {
            outcome[k] = Some(Outcome::Hoisted { header: lp.header });
        }
        let header = lp.header;
        let loc = func.blocks[header].loc;
        cx.applied_with(func, header, loc, || {
            let tested: Vec<String> = tests
                .iter()
                .map(|&(d, m1)| {
                    precondition(if m1 { BinaryOp::SDiv } else { BinaryOp::UDiv }, func.local_name(d))
                })
                .collect();
            format!(
                "loop `{}` versioned: {} tested once before it; its copy runs {} division{} unchecked, the original keeps every check",
                func.blocks[header].name,
                tested.join(" and "),
                hoisted.len(),
                if hoisted.len() == 1 { "" } else { "s" }
            )
        });
    }
    for (k, kd) in kept.iter().enumerate() {
        let loc = func.insts[kd.inst].loc;
        match &outcome[k] {
            Some(Outcome::Hoisted { header }) => {
                let header = *header;
                cx.applied_with(func, kd.block, loc, || {
                    format!(
                        "division check hoisted: `{}` is unchecked in the copy of loop `{}`",
                        display_inst(cx.module, func, kd.inst),
                        func.blocks[header].name
                    )
                });
            }
            other => {
                cx.stat("checks_kept", 1);
                cx.missed_with(func, kd.block, loc, || {
                    let shown = display_inst(cx.module, func, kd.inst);
                    let d = match kd.divisor {
                        Operand::Local(d) => func.local_name(d),
                        Operand::Const(c) => {
                            return format!(
                                "division check kept: `{shown}` divides by the constant {c}, which fails the test{}",
                                if c == 0 || kd.op != BinaryOp::SDiv {
                                    "; the division always traps"
                                } else {
                                    " (`MIN / -1` takes the checked path, giving MIN)"
                                }
                            );
                        }
                    };
                    let mut msg = format!(
                        "division check kept: `{shown}` needs {}",
                        precondition(kd.op, d)
                    );
                    if !kd.known.is_empty() {
                        msg.push_str(&format!("; known: {}", kd.known));
                    }
                    match other {
                        Some(Outcome::Kept(why)) => msg.push_str(&format!("; {why}")),
                        _ => msg.push_str("; not in a loop (with one entry) to test it before"),
                    }
                    msg
                });
            }
        }
    }
    changed
}

/// Copies loop `lp` with the divisions `unchecked` made unchecked in the copy, and sends its
/// entry edge through the test of `tests`.
fn version(
    func: &mut Function,
    lp: &NaturalLoop,
    tests: &[(Local, bool)],
    unchecked: &HashSet<Inst>,
) {
    // Block names are unique: a new one gets a numeric suffix when taken.
    let mut taken: Vec<String> = Vec::new();
    let mut fresh = |func: &Function, base: String| -> String {
        let used =
            |n: &str| func.blocks.values().any(|b| b.name == n) || taken.iter().any(|t| t == n);
        let mut name = base.clone();
        let mut n = 2;
        while used(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        taken.push(name.clone());
        name
    };
    let h = lp.header;
    let hname = func.blocks[h].name.clone();
    // The copy's blocks.
    let mut copy_of: SecondaryMap<Block, Option<Block>> = func.block_map();
    let mut new_blocks: Vec<Block> = Vec::new();
    let pre_fast = new_block(
        func,
        fresh(func, format!("{hname}_pre_nochk")),
        func.blocks[h].loc,
    );
    new_blocks.push(pre_fast);
    for &b in &lp.body {
        let nb = new_block(
            func,
            fresh(func, format!("{}_nochk", func.blocks[b].name)),
            func.blocks[b].loc,
        );
        copy_of[b] = Some(nb);
        new_blocks.push(nb);
    }
    let pre = new_block(
        func,
        fresh(func, format!("{hname}_pre")),
        func.blocks[h].loc,
    );
    new_blocks.push(pre);
    for &b in &lp.body {
        let Some(nb) = copy_of[b] else { continue };
        let insts: Vec<Inst> = func.blocks[b].insts.clone();
        let mut copied = Vec::with_capacity(insts.len());
        for i in insts {
            let InstData { mut kind, loc } = func.insts[i].clone();
            if unchecked.contains(&i) {
                if let InstKind::Binary { check, .. } = &mut kind {
                    *check = Check::Unchecked;
                }
            }
            copied.push(func.make_inst(kind, loc));
        }
        let mut term = func.blocks[b].terminator.clone();
        if let Some(t) = term.as_mut() {
            for s in t.successors_mut() {
                if let Some(c) = copy_of[*s] {
                    *s = c;
                }
            }
        }
        let term_loc = func.blocks[b].term_loc;
        let data = &mut func.blocks[nb];
        data.insts = copied;
        data.terminator = term;
        data.term_loc = term_loc;
    }
    let copy_h = copy_of[h].unwrap_or(h);
    func.blocks[pre_fast].terminator = Some(Terminator::Br(copy_h));
    func.blocks[pre].terminator = Some(Terminator::Br(h));
    // The test.
    let ok_name = func.fresh_local_name("divok");
    let ok = func.add_local(ok_name.clone(), Type::BOOL);
    let t_name = format!("{ok_name}_t");
    let t_name = if func.locals.values().any(|l| l.name == t_name) {
        func.fresh_local_name(&t_name)
    } else {
        t_name
    };
    // The second local only when there is more than one compare.
    let compares: usize = tests.iter().map(|&(_, m1)| 1 + usize::from(m1)).sum();
    let t = if compares > 1 {
        func.add_local(t_name, Type::BOOL)
    } else {
        ok
    };
    let mut test = Vec::new();
    let mut first = true;
    for &(d, m1) in tests {
        for k in [Some(0i64), m1.then_some(-1i64)].into_iter().flatten() {
            let dst = if first { ok } else { t };
            test.push(func.make_inst(
                InstKind::Compare {
                    dst,
                    op: CmpOp::Ne,
                    lhs: Operand::Local(d),
                    rhs: Operand::Const(k),
                },
                Loc::UNKNOWN,
            ));
            if !first {
                test.push(func.make_inst(
                    InstKind::Binary {
                        dst: ok,
                        op: BinaryOp::And,
                        lhs: Operand::Local(ok),
                        rhs: Operand::Local(t),
                        check: Check::Checked,
                    },
                    Loc::UNKNOWN,
                ));
            }
            first = false;
        }
    }
    let branch = Terminator::BrIf {
        cond: Operand::Local(ok),
        then_block: pre_fast,
        else_block: pre,
    };
    let e = lp.entry;
    if func.blocks[e].terminator == Some(Terminator::Br(h)) {
        func.blocks[e].insts.extend(test);
        func.blocks[e].terminator = Some(branch);
    } else {
        let p = new_block(
            func,
            fresh(func, format!("{hname}_divtest")),
            func.blocks[h].loc,
        );
        func.blocks[p].insts = test;
        func.blocks[p].terminator = Some(branch);
        func.blocks[p].term_loc = func.blocks[e].term_loc;
        if let Some(term) = func.blocks[e].terminator.as_mut() {
            for s in term.successors_mut() {
                if *s == h {
                    *s = p;
                }
            }
        }
        new_blocks.insert(0, p);
    }
    // Layout: the new blocks just before the header (`add_block` appended them at the end).
    let new: HashSet<Block> = new_blocks.iter().copied().collect();
    func.layout.retain(|b| !new.contains(b));
    let at = func
        .layout
        .iter()
        .position(|&b| b == h)
        .unwrap_or(func.layout.len());
    func.layout.splice(at..at, new_blocks);
}

/// A new empty block (appended to the layout; [`version`] places it).
fn new_block(func: &mut Function, name: String, loc: Loc) -> Block {
    let b = func.add_block(name);
    let data: &mut BlockData = &mut func.blocks[b];
    data.loc = loc;
    b
}
