//! `div-check-prove`: rule 1 of [`div-check-elim`](super::div_check_elim) — a checked division
//! becomes `op.unchecked` when its divisor is a constant that passes the test, or when the
//! facts prove the divisor at least 1 or at most -1 (-2 for `sdiv`) just before it — read from
//! the check passes' cached fact analysis instead of an analysis of its own.
//!
//! Placement: O2, right after `bounds-check-elim`. The cached analysis tracks the locals linked
//! to a divisor as well as those linked to a check ([`crate::analysis::facts::relevance`]), and
//! `bounds-check-elim` keeps it valid ([`crate::Pass::preserves_facts`]), so deciding the
//! divisions here costs no fact analysis. `div-check-elim` keeps its place after
//! `simplify-cfg` for what needs it there: loop versioning, whose preheaders jump threading
//! would remove, and rule 1 for any division still checked then (it computes its own analysis
//! only when one with a local divisor is left). O1 keeps its division checks, as before.
//!
//! After `sparse-bounds-check-elim` (the opt-in sparse pipeline) nothing is cached, but that
//! pass decides the divisions first with its prover; this pass then runs (and computes a fact
//! analysis of the divisors) only for a function with a division the prover left checked.
//!
//! Soundness: that of rule 1 in `div-check-elim`. The facts are a must-analysis of the function
//! as `bounds-check-elim` found it; that pass only made proved checks unchecked and decided
//! branches, so every fact still holds on every execution reaching its point, and a divisor
//! known to pass the test there passes it on every execution of the division.

use super::div_check_elim::{prove, DivisorFacts};
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::Function;

/// The pass.
pub struct DivCheckProve;

impl Pass for DivCheckProve {
    fn name(&self) -> &'static str {
        "div-check-prove"
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O2
    }

    fn preserves_cfg(&self) -> bool {
        true
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        if !super::div_check_elim::has_checked_division(func) {
            return false;
        }
        prove(func, cx, DivisorFacts::Shared).0
    }
}
