//! The registry of every pass, used by both the CLI (`--passes`) and the pass manager, and the
//! fixed pipelines of each level.

use crate::manager::PassError;
use crate::pass::{OptLevel, Pass};

/// Every pass, in the order of the O2 pipeline. Ordering constraints:
///
/// - `inline` first: the other passes then see a callee's pops next to the caller's length
///   tests. The manager runs the pipeline bottom-up over the call graph, so the inlined body
///   is the callee's optimized one.
/// - `temp-elision`, `global-copy-prop` and `copy-prop` next: they turn `t = pop v; i = copy t` into `i = pop v`
///   so the fact analysis sees the index defined by the pop itself, and they leave fewer locals
///   for every later pass to track. `global-copy-prop` forwards the copies that bind inlined
///   callees' parameters (`alloc_items = copy items`), so facts about the caller's vec apply
///   to the callee's code; it runs after `temp-elision`, which keeps the destination's name
///   when a temporary only feeds one copy (`half = sdiv n, 2` rather than `t5 = ...`).
/// - `branch-threading` after the copy passes (they leave `t = slt ..; brif t` rather than
///   copies of copies for it to see through) and before everything that walks extended blocks
///   or dominators (`store-load-forward`, `value-numbering`, the check passes): a threaded
///   `&&`/`||` join leaves the guarded block with one way in, through the test.
/// - `store-load-forward` after them (it matches the vec, index and value locals by name, so
///   fewer copies mean more matches) and before the check passes: a forwarded `get` is one
///   check fewer for them to decide, and its copy gives the facts the stored value.
/// - `value-numbering` after forwarding (a forwarded value's copy makes more expressions
///   equal) and before the check passes, so facts about the first computation of an index
///   reach the second one through its copy.
/// - `range-check-fold` before `sparse-bounds-check-elim`: the folded `i >=u n` test gives
///   `0 <= i < len(v)` on one edge, and the explicit-check decision reads the folded compare.
/// - `sparse-bounds-check-elim` decides the checks and the divisions with the sparse prover.
///   `div-check-prove` (opt-in) stands right after the check pass: after the opt-in
///   `bounds-check-elim` it decides the divisions on that pass's cached fact analysis; after
///   the prover, which leaves it almost nothing, `div-check-elim` at the end tries what is
///   left.
/// - `struct-split` after the check passes (a split `get` carries the check the whole one had
///   after they decided it) and before `dead-local-elim`, which removes the copies of fields
///   nobody reads and the split locals themselves. It takes only structs over 8 bytes, so it
///   is independent of `scalarize`, which takes the rest.
/// - `dead-local-elim` after both: folding leaves the `i < 0` compare dead, and removed checks
///   leave dead lengths and compares.
/// - `simplify-cfg` after that: removed explicit checks and folded branches leave empty and
///   single-predecessor blocks to merge.
/// - `div-check-elim` after `simplify-cfg`: the loops it versions get empty preheaders
///   (`br header`), which the JIT's loop-invariant header loads need and jump threading would
///   remove; its own facts come after the other passes' changes.
/// - `scalarize` last: it only changes how struct locals are held, which no other pass reads.
///
/// `bounds-check-elim` ([`Pass::opt_in`]: in no pipeline) is the same decisions taken with
/// the dense fact analysis, which `sparse-bounds-check-elim` replaced in the pipelines
/// (docs/passes.md, §1b); it stands where it would replace it.
pub fn all_passes() -> Vec<Box<dyn Pass>> {
    use crate::passes::*;
    vec![
        Box::new(inline::Inline),
        Box::new(temp_elision::TempElision),
        Box::new(global_copy_prop::GlobalCopyProp),
        Box::new(copy_prop::CopyProp),
        Box::new(branch_threading::BranchThreading),
        Box::new(store_load_forward::StoreLoadForward),
        Box::new(value_numbering::ValueNumbering),
        Box::new(range_check_fold::RangeCheckFold),
        Box::new(bounds_check_elim::BoundsCheckElim),
        Box::new(sparse_bounds_check_elim::SparseBoundsCheckElim),
        Box::new(div_check_prove::DivCheckProve),
        Box::new(struct_split::StructSplit),
        Box::new(dead_local_elim::DeadLocalElim),
        Box::new(simplify_cfg::SimplifyCfg),
        Box::new(div_check_elim::DivCheckElim),
        Box::new(scalarize::Scalarize),
    ]
}

/// A one-line description of the pass called `name` (`poolopt passes` lists them); `None` for
/// a name that is not a pass, or a pass added without one.
pub fn pass_description(name: &str) -> Option<&'static str> {
    Some(match name {
        "inline" => "replaces calls of small or hot non-recursive functions by the callee's body",
        "global-copy-prop" => {
            "forwards copies whose destination has one dominating definition, across blocks"
        }
        "temp-elision" => "removes temporaries that only carry a value to its one reader",
        "copy-prop" => "block-local copy propagation of scalar copies",
        "store-load-forward" => {
            "`set v[k], x` then `y = get v[k]` becomes `y = copy x` when nothing between may write the element or shrink the vec"
        }
        "value-numbering" => {
            "a second computation of the same pure expression (arithmetic, compare, cast, `len`) becomes a copy of the first"
        }
        "branch-threading" => {
            "an edge on which a join block's branch condition is known (`a && b`, `a || b`) goes straight to the taken target"
        }
        "range-check-fold" => "folds `i < 0 || i >= n` into one unsigned compare `i >=u n`",
        "bounds-check-elim" => {
            "drops pop and index checks (and explicit range checks) that the dense fact analysis proves; the pipelines ran it before sparse-bounds-check-elim"
        }
        "sparse-bounds-check-elim" => {
            "drops pop, index and division checks (and explicit range checks) that a sparse demand-driven prover (ABCD) proves"
        }
        "dead-local-elim" => "removes writes of locals nobody reads, then unused locals",
        "simplify-cfg" => "folds constant branches, threads jumps through empty blocks, drops unreachable blocks, merges chains",
        "div-check-prove" => {
            "drops the division checks (zero, MIN / -1) the check pass before it left and the fact analysis proves"
        }
        "div-check-elim" => {
            "drops division checks (zero, MIN / -1) that facts prove; tests a loop-invariant divisor once before a copy of its loop"
        }
        "scalarize" => "holds structs of at most 8 bytes as one 64-bit integer",
        "struct-split" => {
            "a struct local over 8 bytes that is not passed to or returned from a call becomes one local per field"
        }
        _ => return None,
    })
}

/// The names of all passes.
pub fn pass_names() -> Vec<&'static str> {
    all_passes().iter().map(|p| p.name()).collect()
}

/// The pass called `name`, or an error listing the valid names.
pub fn pass_by_name(name: &str) -> Result<Box<dyn Pass>, PassError> {
    all_passes()
        .into_iter()
        .find(|p| p.name() == name)
        .ok_or_else(|| PassError::UnknownPass {
            name: name.to_string(),
            valid: pass_names(),
        })
}

/// The fixed pipeline of a level: the passes of [`all_passes`] whose
/// [`Pass::min_level`] is at most `level`, in that order, except the [`Pass::opt_in`] ones.
///
/// - O0: nothing.
/// - O1: `branch-threading`, `range-check-fold`, `sparse-bounds-check-elim`,
///   `dead-local-elim`, `simplify-cfg` — the
///   checks go, data representation and temporaries stay as the front end wrote them.
/// - O2: every pass.
pub fn pipeline(level: OptLevel) -> Vec<Box<dyn Pass>> {
    match level {
        OptLevel::O0 => Vec::new(),
        OptLevel::O1 | OptLevel::O2 => all_passes()
            .into_iter()
            .filter(|p| !p.opt_in() && p.min_level() <= level)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pass_has_its_own_description() {
        let mut seen = Vec::new();
        for name in pass_names() {
            let text = pass_description(name).unwrap_or_else(|| panic!("{name}: none"));
            assert!(text.len() > 20, "{name}: {text:?}");
            assert!(!seen.contains(&text), "{name} shares {text:?}");
            seen.push(text);
        }
        assert_eq!(pass_description("no-such-pass"), None);
    }
}
