//! `sparse-bounds-check-elim` (O1 and O2): the decisions of `bounds-check-elim` — checked
//! `pop`/`get`/`set` made unchecked, explicit range checks made jumps — taken by the sparse,
//! demand-driven prover of [`crate::analysis::sparse_bounds`] (ABCD) instead of the dense fact
//! analysis. It replaced `bounds-check-elim` in the pipelines (which keeps it as an opt-in
//! pass): on the repository's programs it takes every decision `bounds-check-elim` takes and
//! proves eleven more checks (most in blocks that never run), on generated programs about 9
//! times as many checks that the fact analysis misses as the other way round, at 0.81 of the
//! pipeline's cost on slot_pool_8 (docs/passes.md, §1b, with what it still misses).
//!
//! Remarks: with remarks collected (and only then), the fact analysis also runs, only to word
//! them: a check both decide the same way gets `bounds-check-elim`'s remark (where a fact was
//! lost, where an index came from); a check only the prover proves says what it proved; a check
//! only the fact analysis proves says what the prover found short of a proof, and that
//! `bounds-check-elim` proves it. The decisions never read the fact analysis, so they are the
//! same with remarks on or off.
//!
//! It also takes `div-check-prove`'s decisions (rule 1 of `div-check-elim`, through the same
//! code: `div_check_elim::Removal`, `div_check_elim::remove_checks`): a
//! checked division by a constant that passes the test, or by an `i64` local the prover proves
//! at least 1 or at most -1 (-2 for `sdiv`), directly or through a quotient witness, becomes
//! `.unchecked`. A division it does not prove keeps its check silently: `div-check-prove` and
//! `div-check-elim` after it still try (and say why they keep it); where it proved every
//! division, they find none left and compute no fact analysis.
//!
//! Soundness: the prover proves a check only from facts about exact integer values that hold
//! wherever the checked operation runs (its module documentation gives the argument rule by
//! rule), or when the check's block can never run. A proved check therefore never fires, and
//! dropping it changes no result and no trap; an explicit check's trap edge that is proved
//! never taken is never taken, so jumping to the other successor changes nothing either. Every
//! check the prover does not prove stays, with a missed remark.

use super::bounds_check_elim::{
    apply, dense_decisions, has_check, need_of, CheckKind, Decision, ExplicitDecision, Need,
};
use super::div_check_elim::{
    constant_divisor_passes, divisor_upper, has_checked_division, has_local_i64_divisor,
    remove_checks, Removal,
};
use crate::analysis::facts::demand::explicit_check_sides;
use crate::analysis::facts::CallKills;
use crate::analysis::sparse_bounds::{self, DivisorProof, Shortfall};
use crate::analysis::Fact;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_operand, display_terminator, Block, Function, Inst, InstKind, Local, Operand,
    Terminator,
};
use rustc_hash::FxHashMap as HashMap;

/// The pass.
pub struct SparseBoundsCheckElim;

impl Pass for SparseBoundsCheckElim {
    fn name(&self) -> &'static str {
        "sparse-bounds-check-elim"
    }

    /// The level of `bounds-check-elim`, which it replaced.
    fn min_level(&self) -> OptLevel {
        OptLevel::O1
    }

    /// As `bounds-check-elim`: a proved check only changes its operation's flag, and a decided
    /// explicit check drops the CFG itself ([`PassContext::invalidate_cfg`]).
    fn preserves_cfg(&self) -> bool {
        true
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        // Nothing to decide, no prover: as `bounds-check-elim`, only a function with a checked
        // operation or an explicit check is looked at, and one with a checked division.
        let bounds = func.layout.iter().any(|&b| has_check(func, b));
        let divisions = has_checked_division(func);
        if !bounds && !divisions {
            return false;
        }
        // Constant divisors need no prover.
        if !bounds && !has_local_i64_divisor(func) {
            return divide(func, cx, &[]);
        }
        let explain = cx.remarks_enabled();
        // With remarks, the fact analysis's decisions word them (where a fact was lost,
        // where an index came from); they never change a decision.
        let mut wording = if explain && bounds {
            Wording::of(func, cx)
        } else {
            Wording::default()
        };
        let mut decisions = {
            let cfg = cx.shared_cfg(func);
            let calls = CallKills::of(func, cx.call_effects());
            let dom = cx.domtree(func);
            sparse_bounds::decide(func, &cfg, dom, &calls, explain)
        };
        cx.stat("sparse_nodes", decisions.nodes as u64);
        cx.stat("sparse_steps", decisions.steps);
        let divided = divide(func, cx, &std::mem::take(&mut decisions.divisions));
        let shortfalls: HashMap<Inst, Shortfall> = decisions.shortfalls.into_iter().collect();
        let checks = decisions
            .checks
            .into_iter()
            .filter_map(|(block, inst, remove)| {
                let need = need_of(func.inst(inst))?;
                let kind = CheckKind::of(&need);
                let message = if explain {
                    let shortfall = shortfalls.get(&inst).copied().unwrap_or_default();
                    wording.check(func, inst, &need, remove, shortfall)
                } else {
                    String::new()
                };
                Some((
                    block,
                    Decision {
                        inst,
                        kind,
                        remove,
                        message,
                    },
                ))
            })
            .collect();
        let explicit = decisions
            .explicit
            .into_iter()
            .filter_map(|(block, safe)| {
                let Some(
                    term @ Terminator::BrIf {
                        then_block,
                        else_block,
                        ..
                    },
                ) = &func.blocks[block].terminator
                else {
                    return None;
                };
                let (_, pass_to) = explicit_check_sides(func, *then_block, *else_block)?;
                let message = if explain {
                    wording.explicit(func, block, &display_terminator(func, term), safe)
                } else {
                    String::new()
                };
                Some((
                    block,
                    ExplicitDecision {
                        always: safe.then_some(pass_to),
                        message,
                    },
                ))
            })
            .collect();
        apply(func, cx, checks, explicit) | divided
    }
}

/// How a kept check's remark ends when the fact analysis would have proved it.
const DENSE_PROVES: &str = "the fact analysis proves it (`--passes bounds-check-elim`)";

/// How a kept explicit check's remark ends when the fact analysis would have decided it.
const DENSE_DECIDES: &str = "the fact analysis decides it (`--passes bounds-check-elim`)";

/// The fact analysis's decisions and messages, by check, for the remarks (empty without
/// remarks, or when the analysis gave up on the function: its messages would then blame
/// facts it never computed).
#[derive(Default)]
struct Wording {
    checks: HashMap<Inst, Decision>,
    explicit: HashMap<Block, ExplicitDecision>,
}

impl Wording {
    /// The remark of a checked operation the prover proved (`removed`) or not: the fact
    /// analysis's where it decided the same, else the prover's own words.
    fn check(
        &mut self,
        func: &Function,
        inst: Inst,
        need: &Need,
        removed: bool,
        shortfall: Shortfall,
    ) -> String {
        match self.checks.remove(&inst) {
            Some(dense) if dense.remove == removed => dense.message,
            _ if removed => format!(
                "{} check removed: {} proved by the sparse prover",
                CheckKind::of(need).what(),
                needed(func, need)
            ),
            dense => noting_dense(
                kept_message(func, need, shortfall),
                dense.is_some(),
                DENSE_PROVES,
            ),
        }
    }

    /// The remark of the explicit check ending `block` (`text`, its branch), decided by the
    /// prover (`safe`) or not, worded as [`Wording::check`] words a checked operation's.
    fn explicit(&mut self, func: &Function, block: Block, text: &str, safe: bool) -> String {
        let cmp = compare_text(func, block);
        match self.explicit.remove(&block) {
            Some(dense) if dense.always.is_some() == safe => dense.message,
            _ if safe => match cmp {
                Some(cmp) => format!(
                    "explicit check `{text}` removed: the sparse prover decides `{cmp}` here"
                ),
                None => format!("explicit check `{text}` removed: decided by the sparse prover"),
            },
            dense => {
                let kept = match cmp {
                    Some(cmp) => {
                        format!("explicit check `{text}` kept: nothing decides `{cmp}` here")
                    }
                    None => format!(
                        "explicit check `{text}` kept: the sparse prover decides nothing here"
                    ),
                };
                noting_dense(kept, dense.is_some(), DENSE_DECIDES)
            }
        }
    }

    fn of(func: &Function, cx: &mut PassContext<'_>) -> Wording {
        match dense_decisions(func, cx) {
            Some(dense) if dense.gave_up.is_none() => Wording {
                checks: dense.checks.into_iter().map(|(_, d)| (d.inst, d)).collect(),
                explicit: dense.explicit.into_iter().collect(),
            },
            _ => Wording::default(),
        }
    }
}

/// A kept check's remark, ending in `note` when the fact analysis decided the check the
/// other way (`dense_removes`: it proves what the prover did not).
fn noting_dense(kept: String, dense_removes: bool, note: &str) -> String {
    if dense_removes {
        format!("{kept}; {note}")
    } else {
        kept
    }
}

/// What a check needs, as a removed check's remark says it: `len(v) > 0`, `len(v) > k`,
/// `0 <= i < len(v)`.
fn needed(func: &Function, need: &Need) -> String {
    match *need {
        Need::Pop { vec } => format!("len({}) > 0", func.local_name(vec)),
        Need::Const { vec, k } => format!("len({}) > {k}", func.local_name(vec)),
        Need::Index { vec, i } => format!(
            "0 <= {} < len({})",
            func.local_name(i),
            func.local_name(vec)
        ),
    }
}

/// A kept check's missed remark, in `bounds-check-elim`'s words for what it needs, then what
/// the sparse prover found short of it (`shortfall`): e.g. "index check kept: needs `i <
/// len(v)`; the sparse prover finds `i <= 9` but not `len(v) > 9`".
fn kept_message(func: &Function, need: &Need, shortfall: Shortfall) -> String {
    let (lo, hi) = shortfall.bounds;
    match *need {
        Need::Pop { vec } => format!(
            "pop check kept: needs `{}`; {}",
            describe(func, Fact::len_gt(vec, 0)),
            length_found(func, vec, lo)
        ),
        Need::Const { k, .. } if k < 0 => {
            format!("index check kept: index {k} is negative; the access always traps")
        }
        Need::Const { vec, k } => format!(
            "index check kept: needs `{}`; {}",
            describe(func, Fact::len_gt(vec, k)),
            length_found(func, vec, lo)
        ),
        Need::Index { vec, i } => {
            let name = func.local_name(i);
            let mut needs = Vec::new();
            let mut found = Vec::new();
            if shortfall.lower {
                needs.push(format!("`{}`", describe(func, Some(Fact::non_neg(i)))));
                found.push(match lo {
                    Some(l) => format!("only `{name} >= {l}`"),
                    None => format!("no lower bound for `{name}`"),
                });
            }
            if shortfall.upper {
                needs.push(format!("`{}`", describe(func, Some(Fact::lt_len(i, vec)))));
                found.push(match hi {
                    Some(h) => {
                        format!(
                            "`{name} <= {h}` but not `len({}) > {h}`",
                            func.local_name(vec)
                        )
                    }
                    None => format!("no upper bound for `{name}`"),
                });
            }
            if lo.is_none() && hi.is_none() && found.len() == 2 {
                found = vec![format!("no bound for `{name}`")];
            }
            format!(
                "index check kept: needs {}; the sparse prover finds {}",
                needs.join(" and "),
                found.join(", and ")
            )
        }
    }
}

/// `fact` as remarks write it (`len(v) > k` for `k == i64::MAX`: no fact, no length).
fn describe(func: &Function, fact: Option<Fact>) -> String {
    fact.map_or_else(
        || "a length past i64::MAX".to_string(),
        |f| f.describe(func),
    )
}

/// What the prover finds of `len(vec)` below: its constant lower bound, if any.
fn length_found(func: &Function, vec: Local, lo: Option<i128>) -> String {
    let v = func.local_name(vec);
    match lo {
        Some(l) => format!("the sparse prover finds only `len({v}) >= {l}`"),
        None => format!("the sparse prover finds no lower bound for `len({v})`"),
    }
}

/// The compare an explicit check ending `block` branches on (`slt i, n`), when `block`
/// computes it.
fn compare_text(func: &Function, block: Block) -> Option<String> {
    let Some(Terminator::BrIf {
        cond: Operand::Local(c),
        ..
    }) = func.blocks[block].terminator
    else {
        return None;
    };
    let at = func.blocks[block]
        .insts
        .iter()
        .rev()
        .find(|&&i| func.inst(i).def() == Some(c))?;
    match *func.inst(*at) {
        InstKind::Compare { op, lhs, rhs, .. } => Some(format!(
            "{} {}, {}",
            op.name(),
            display_operand(func, lhs),
            display_operand(func, rhs)
        )),
        _ => None,
    }
}

/// Rule 1 of `div-check-elim` on every checked division of a reachable block, in layout
/// order: a constant divisor as that rule decides it, an `i64` local one as the prover
/// decided (`proved`); a division it did not prove keeps its check, with no remark
/// (`div-check-prove` and `div-check-elim` after it still try, and say why they keep it).
/// Whether anything changed.
fn divide(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    proved: &[(Block, Inst, Option<DivisorProof>)],
) -> bool {
    let proved: HashMap<Inst, DivisorProof> = proved
        .iter()
        .filter_map(|&(_, inst, proof)| Some((inst, proof?)))
        .collect();
    let cfg = cx.shared_cfg(func);
    let mut removed = Vec::new();
    for &block in func.layout.iter().filter(|&&b| cfg.is_reachable(b)) {
        for &inst in &func.blocks[block].insts {
            let Some((op, rhs)) = func.inst(inst).checked_division() else {
                continue;
            };
            let removal = match rhs {
                Operand::Const(c) => {
                    constant_divisor_passes(func, inst, op, c).then_some(Removal::Constant(c))
                }
                Operand::Local(d) => proved.get(&inst).map(|proof| match *proof {
                    DivisorProof::AtLeastOne => Removal::AtLeastOne(d),
                    DivisorProof::AtMostUpper => Removal::AtMost(d, divisor_upper(op)),
                    DivisorProof::Quotient { q, below, bound } => {
                        Removal::Quotient { d, below, bound, q }
                    }
                    DivisorProof::NeverRuns => Removal::NeverRuns,
                }),
            };
            if let Some(removal) = removal {
                removed.push((block, inst, removal));
            }
        }
    }
    let changed = !removed.is_empty();
    remove_checks(func, cx, removed, |_| "division_checks_removed");
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Cfg, DomTree};

    /// The prover's own wording of kept checks (what a remark says where only the fact
    /// analysis proves a check, or where it gave up), on the case file whose remarks, with
    /// both engines agreeing, read as `bounds-check-elim`'s: no lower bound for an index with
    /// only an upper one, no bound for a loaded index, a length known only to be `>= 1`, an
    /// upper bound the length is not known to exceed, a lower bound below 0, a compare it does
    /// not decide, a vec never pushed.
    #[test]
    fn the_provers_own_words_for_kept_checks() {
        let src = include_str!("../../tests/checks/sparse_kept_check_remarks.pir");
        let module = poolopt_ir::parse(src).unwrap();
        let func = module.funcs.values().next().unwrap();
        let cfg = Cfg::compute(func);
        let dom = DomTree::compute(&cfg);
        let calls = CallKills::of(func, None);
        let decisions = sparse_bounds::decide(func, &cfg, &dom, &calls, true);
        let shortfalls: HashMap<Inst, Shortfall> = decisions.shortfalls.into_iter().collect();
        let mut words: Vec<String> = decisions
            .checks
            .iter()
            .filter(|&&(_, _, proved)| !proved)
            .map(|&(_, inst, _)| {
                let need = need_of(func.inst(inst)).unwrap();
                kept_message(func, &need, shortfalls[&inst])
            })
            .collect();
        for &(block, decided) in &decisions.explicit {
            assert!(!decided);
            words.push(compare_text(func, block).unwrap());
        }
        assert_eq!(
            words,
            [
                "index check kept: needs `i >= 0` and `i < len(v)`; the sparse prover finds no lower bound for `i`, and `i <= 9` but not `len(v) > 9`",
                "index check kept: needs `x >= 0` and `x < len(v)`; the sparse prover finds no bound for `x`",
                "index check kept: needs `len(v) > 3`; the sparse prover finds only `len(v) >= 1`",
                "index check kept: needs `k < len(v)`; the sparse prover finds `k <= 5` but not `len(v) > 5`",
                "index check kept: needs `m >= 0`; the sparse prover finds only `m >= -1`",
                "pop check kept: needs `len(w) > 0`; the sparse prover finds only `len(w) >= 0`",
                "sge x, 100",
            ]
        );
        assert_eq!(
            decisions.checks.iter().filter(|c| c.2).count(),
            1,
            "the second `v[i]` is proved"
        );
    }

    /// A constant index: below 0 it always traps, whatever the prover found; from 0 up the
    /// remark names the length it needs.
    #[test]
    fn a_constant_index_is_worded_by_its_sign() {
        let src =
            "fn main() -> i64 {\n    var v: vec<i64>\nentry:\n    v = new vec<i64>\n    ret 0\n}\n";
        let module = poolopt_ir::parse(src).unwrap();
        let func = module.funcs.values().next().unwrap();
        let vec = func.local_by_name("v").unwrap();
        let words = |k| kept_message(func, &Need::Const { vec, k }, Shortfall::default());
        assert_eq!(
            words(-1),
            "index check kept: index -1 is negative; the access always traps"
        );
        assert_eq!(
            words(0),
            "index check kept: needs `len(v) > 0`; the sparse prover finds no lower bound for `len(v)`"
        );
    }
}
