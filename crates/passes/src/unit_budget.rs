//! The unit's growth budget: how many instructions inlining may still add to the functions
//! being optimized together (the module, or what the entries reach), summed over all of them.
//!
//! The inliner's per-caller limits (`GROWTH`, `MIN_BUDGET`, `HARD_CAP` in `passes/inline.rs`)
//! bound each caller, but not the module: in a chain `f0 -> f1 -> ... -> fN` of tiny functions
//! every caller inlines its callee, which has already inlined its own, so each function grows to
//! the medium-size limit and a module of 300 K instructions became 8 M (1.6 GB, 9 s for
//! `poolopt opt -O2`, against 0.3 s at O1). GCC bounds the same thing with its
//! `inline-unit-growth` and `large-unit-insns` parameters; here the unit may grow by
//! [`UNIT_GROWTH`] times its original size or by [`UNIT_MIN_BUDGET`] instructions, whichever is
//! larger. The floor is one caller's hard cap, so a unit is never held tighter than the single
//! function the per-caller cap already allows to grow that far, and no module below it (every
//! shipped workload, every test) sees the budget at all.
//!
//! The manager makes one budget per run and hands it to every function's context; the pipeline
//! runs bottom-up over the call graph, so the deepest callers spend it first, and once it is
//! spent every further call is kept (with a remark saying why).

use std::cell::Cell;

/// The unit may grow through inlining by this many times its original size ...
pub const UNIT_GROWTH: usize = 1;
/// ... or by this many instructions, whichever is larger (one caller's hard cap).
pub const UNIT_MIN_BUDGET: usize = crate::passes::inline::HARD_CAP;

/// What is left of the unit's growth budget, shared by the functions of one pipeline run.
#[derive(Debug)]
pub struct UnitBudget {
    limit: usize,
    left: Cell<usize>,
}

impl UnitBudget {
    /// The budget of a unit whose functions hold `original` instructions in all.
    pub fn for_unit(original: usize) -> UnitBudget {
        let limit = original.saturating_mul(UNIT_GROWTH).max(UNIT_MIN_BUDGET);
        UnitBudget {
            limit,
            left: Cell::new(limit),
        }
    }

    /// How many instructions the whole unit may grow by.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// How many instructions are still allowed.
    pub fn left(&self) -> usize {
        self.left.get()
    }

    /// Records that `grown` instructions were added.
    pub fn spend(&self, grown: usize) {
        self.left.set(self.left.get().saturating_sub(grown));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_unit_gets_the_floor_and_a_large_one_its_own_size() {
        assert_eq!(UnitBudget::for_unit(10).limit(), UNIT_MIN_BUDGET);
        let large = UNIT_MIN_BUDGET * 3;
        assert_eq!(UnitBudget::for_unit(large).limit(), large * UNIT_GROWTH);
    }

    #[test]
    fn spending_counts_down_and_stops_at_zero() {
        let budget = UnitBudget::for_unit(0);
        budget.spend(5);
        assert_eq!(budget.left(), UNIT_MIN_BUDGET - 5);
        budget.spend(usize::MAX);
        assert_eq!(budget.left(), 0);
        assert_eq!(budget.limit(), UNIT_MIN_BUDGET);
    }
}
