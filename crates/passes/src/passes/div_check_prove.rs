//! `div-check-prove`: rule 1 of [`div-check-elim`](super::div_check_elim) — a checked division
//! becomes `op.unchecked` when its divisor is a constant that passes the test, or when the
//! facts prove the divisor at least 1 or at most -1 (-2 for `sdiv`) just before it — for the
//! divisions the check pass before it left checked.
//!
//! Placement: opt-in (in no pipeline since the twenty-sixth session), right after the check
//! pass. After the opt-in `bounds-check-elim` it reads that pass's cached analysis, which
//! tracks the locals linked to a divisor as well as those linked to a check
//! ([`crate::analysis::facts::relevance`]) and which that pass keeps valid
//! ([`crate::Pass::preserves_facts`]): no analysis of its own. The pipelines' check pass,
//! `sparse-bounds-check-elim`, decides the divisions itself with its prover (a constant
//! divisor, a divisor proved `>= 1` or `<= -1`, a quotient witness) and leaves this pass
//! almost nothing (3 of 1,093 proofs on generated programs, none on the repository's), so the
//! pipelines leave what it leaves to `div-check-elim`, which keeps its place after
//! `simplify-cfg` for loop versioning (whose preheaders jump threading would remove) and rule
//! 1 for any division still checked then (it computes its own analysis only when one with a
//! local divisor is left).
//!
//! Soundness: that of rule 1 in `div-check-elim`. The facts are a must-analysis of the function
//! as this pass finds it, or, cached, as `bounds-check-elim` found it; that pass only made
//! proved checks unchecked and decided branches, so every fact still holds on every execution
//! reaching its point, and a divisor known to pass the test there passes it on every execution
//! of the division.

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

    /// In no pipeline: `sparse-bounds-check-elim` decides the divisions there.
    fn opt_in(&self) -> bool {
        true
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
