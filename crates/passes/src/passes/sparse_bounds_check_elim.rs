//! `sparse-bounds-check-elim` (opt-in: in no pipeline): the decisions of `bounds-check-elim`
//! — checked `pop`/`get`/`set` made unchecked, explicit range checks made jumps — taken by the
//! sparse, demand-driven prover of [`crate::analysis::sparse_bounds`] (ABCD) instead of the
//! dense fact analysis.
//!
//! Run it in place of `bounds-check-elim`, e.g. `poolopt opt FILE --passes
//! inline,temp-elision,global-copy-prop,copy-prop,branch-threading,store-load-forward,value-numbering,range-check-fold,sparse-bounds-check-elim,div-check-prove,struct-split,dead-local-elim,simplify-cfg,div-check-elim,scalarize`.
//! On the repository's programs it takes the same decisions as `bounds-check-elim` but for one
//! check (a distance between two locals it does not look for) and proves four more; it costs
//! about as much (docs/benchmarks.md, "Issue 9, twenty-third session"), which is why it is not
//! the default.
//!
//! Soundness: the prover proves a check only from facts about exact integer values that hold
//! wherever the checked operation runs (its module documentation gives the argument rule by
//! rule), or when the check's block can never run. A proved check therefore never fires, and
//! dropping it changes no result and no trap; an explicit check's trap edge that is proved
//! never taken is never taken, so jumping to the other successor changes nothing either. Every
//! check the prover does not prove stays, with a missed remark.

use super::bounds_check_elim::{apply, has_check, need_of, CheckKind, Decision, ExplicitDecision};
use crate::analysis::facts::demand::explicit_check_sides;
use crate::analysis::facts::CallKills;
use crate::analysis::sparse_bounds;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{display_terminator, Function, Terminator};

/// The pass.
pub struct SparseBoundsCheckElim;

impl Pass for SparseBoundsCheckElim {
    fn name(&self) -> &'static str {
        "sparse-bounds-check-elim"
    }

    /// The level of `bounds-check-elim`, which it would replace; it is in no pipeline.
    fn min_level(&self) -> OptLevel {
        OptLevel::O1
    }

    fn opt_in(&self) -> bool {
        true
    }

    /// As `bounds-check-elim`: a proved check only changes its operation's flag, and a decided
    /// explicit check drops the CFG itself ([`PassContext::invalidate_cfg`]).
    fn preserves_cfg(&self) -> bool {
        true
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        // Nothing to decide, no prover: as `bounds-check-elim`, only a function with a checked
        // operation or an explicit check is looked at.
        if !func.layout.iter().any(|&b| has_check(func, b)) {
            return false;
        }
        let decisions = {
            let cfg = cx.shared_cfg(func);
            let calls = CallKills::of(func, cx.call_effects());
            let dom = cx.domtree(func);
            sparse_bounds::decide(func, &cfg, dom, &calls)
        };
        cx.stat("sparse_nodes", decisions.nodes as u64);
        cx.stat("sparse_steps", decisions.steps);
        let explain = cx.remarks_enabled();
        let checks = decisions
            .checks
            .into_iter()
            .filter_map(|(block, inst, remove)| {
                let kind = CheckKind::of(&need_of(func.inst(inst))?);
                let message = match (explain, remove) {
                    (false, _) => String::new(),
                    (true, true) => {
                        format!("{} check removed: proved by the sparse prover", kind.what())
                    }
                    (true, false) => {
                        format!(
                            "{} check kept: the sparse prover proves nothing here",
                            kind.what()
                        )
                    }
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
                let text = if explain {
                    display_terminator(func, term)
                } else {
                    String::new()
                };
                let message = match (explain, safe) {
                    (false, _) => String::new(),
                    (true, true) => {
                        format!("explicit check `{text}` removed: decided by the sparse prover")
                    }
                    (true, false) => {
                        format!(
                            "explicit check `{text}` kept: the sparse prover decides nothing here"
                        )
                    }
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
        apply(func, cx, checks, explicit)
    }
}
