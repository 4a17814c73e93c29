//! Whether regalloc2's backtracking allocator would be quadratic on a function's chains of
//! block parameters.
//!
//! A local assigned in both arms of a diamond from its own value (`s = add s, 1` in one arm,
//! `s = sub s, 2` in the other) becomes a block parameter of the join whose incoming values are
//! computed from the parameter of the join before. The backtracking allocator merges a block
//! parameter's live range with those of its incoming values, and an x86 two-address
//! instruction's result with its first operand, so a chain of such joins ends up as one bundle
//! that grows by each merge, and each merge sorts the whole bundle again: 3,300 toy `if/else`
//! arms assigning one variable took 0.29 s at `--cl-opt none` (quadratic; the normal tier's
//! size bound stops it there), 0.02 s with the single-pass allocator, which merges nothing.
//!
//! `longest_param_chain` measures the chain: walking the blocks in layout order, each
//! parameter's depth is one more than the deepest value flowing into it, where a value is as
//! deep as the parameter it is (or, one instruction away, the deepest parameter its defining
//! instruction reads) and 0 otherwise. A back edge's source comes later in the layout, so a
//! loop adds at most one to its header's depth. A function whose chain is longer than
//! [`MAX_PARAM_CHAIN`] is compiled with the huge tier's flags (`opt_level=none`, the
//! single-pass allocator) on its normal-tier code; ordinary functions have chains of a few
//! links (slot_pool_128's longest: docs/jit.md, "Block parameter chains").

use cranelift_codegen::ir::{Function, Value, ValueDef};
use cranelift_entity::SecondaryMap;

/// Functions whose longest chain of block parameters is longer than this compile with the
/// single-pass allocator. At this length the backtracking allocator's merges cost about
/// 0.03 s (a tenth of the longest chain the normal tier's size bound admits).
pub const MAX_PARAM_CHAIN: u32 = 1_000;

/// How deep `v` is: its own depth if it is a block parameter; otherwise the deepest block
/// parameter its defining instruction reads.
fn depth_of(func: &Function, depth: &SecondaryMap<Value, u32>, v: Value) -> u32 {
    let v = func.dfg.resolve_aliases(v);
    match func.dfg.value_def(v) {
        ValueDef::Param(..) => depth[v],
        ValueDef::Result(inst, _) => func
            .dfg
            .inst_values(inst)
            .map(|a| func.dfg.resolve_aliases(a))
            .filter(|&a| matches!(func.dfg.value_def(a), ValueDef::Param(..)))
            .map(|a| depth[a])
            .max()
            .unwrap_or(0),
        _ => 0,
    }
}

/// The longest chain of block parameters of `func` (see the module documentation); `depth`
/// is work space.
pub(crate) fn longest_param_chain(func: &Function, depth: &mut SecondaryMap<Value, u32>) -> u32 {
    depth.clear();
    depth.resize(func.dfg.num_values());
    let mut longest = 0;
    for block in func.layout.blocks() {
        let Some(branch) = func.layout.last_inst(block) else {
            continue;
        };
        let data = &func.dfg.insts[branch];
        for call in data.branch_destination(&func.dfg.jump_tables, &func.dfg.exception_tables) {
            let dest = call.block(&func.dfg.value_lists);
            let params = func.dfg.block_params(dest);
            for (&param, arg) in params.iter().zip(call.args(&func.dfg.value_lists)) {
                let Some(arg) = arg.as_value() else {
                    continue;
                };
                let d = depth_of(func, depth, arg) + 1;
                if d > depth[param] {
                    depth[param] = d;
                    longest = longest.max(d);
                }
            }
        }
    }
    longest
}

/// Whether `func` is larger than [`crate::elaboration::ALWAYS_SAFE_INSTS`] CLIF instructions
/// and its longest chain of block parameters is longer than [`MAX_PARAM_CHAIN`] (compile it
/// with the single-pass allocator).
pub(crate) fn long_param_chains(func: &Function, depth: &mut SecondaryMap<Value, u32>) -> bool {
    func.dfg.num_insts() > crate::elaboration::ALWAYS_SAFE_INSTS
        && longest_param_chain(func, depth) > MAX_PARAM_CHAIN
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_clif::{frontend, signature};
    use cranelift_codegen::ir::{types, InstBuilder};
    use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

    /// How each arm of [`joins`] computes what it passes to its join from `v`.
    #[derive(Clone, Copy, PartialEq)]
    enum Arms {
        /// `iadd v, v` and `isub v, v`, `v` the previous join's parameter.
        Chained,
        /// `v` itself, passed on unchanged.
        Passed,
        /// `iadd x, x` and `isub x, x`, `x` the function's parameter (the near miss).
        FromEntry,
    }

    /// `n` diamonds; each join `j_k(p_k)` receives what its arms compute ([`Arms`]).
    fn joins(n: usize, arms: Arms) -> Function {
        let mut func = Function::with_name_signature(Default::default(), signature());
        let mut fbc = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(&mut func, &mut fbc);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let x = b.block_params(entry)[0];
        let mut v = x;
        for _ in 0..n {
            let (up, down, join) = (b.create_block(), b.create_block(), b.create_block());
            let p = b.append_block_param(join, types::I64);
            b.ins().brif(v, up, &[], down, &[]);
            b.switch_to_block(up);
            let from = if arms == Arms::FromEntry { x } else { v };
            let sum = match arms {
                Arms::Passed => v,
                _ => b.ins().iadd(from, from),
            };
            b.ins().jump(join, &[sum.into()]);
            b.switch_to_block(down);
            let difference = match arms {
                Arms::Passed => v,
                _ => b.ins().isub(from, from),
            };
            b.ins().jump(join, &[difference.into()]);
            b.switch_to_block(join);
            v = p;
        }
        b.ins().return_(&[v]);
        b.seal_all_blocks();
        b.finalize(frontend());
        func
    }

    #[test]
    fn a_chain_is_as_long_as_its_joins_and_a_near_miss_is_one_link() {
        let mut depth = SecondaryMap::new();
        assert_eq!(longest_param_chain(&joins(3, Arms::Chained), &mut depth), 3);
        assert_eq!(longest_param_chain(&joins(3, Arms::Passed), &mut depth), 3);
        assert_eq!(
            longest_param_chain(&joins(3, Arms::FromEntry), &mut depth),
            1
        );
        assert_eq!(longest_param_chain(&joins(0, Arms::Chained), &mut depth), 0);
    }

    #[test]
    fn the_bound_is_exclusive() {
        let mut depth = SecondaryMap::new();
        let at = joins(MAX_PARAM_CHAIN as usize, Arms::Chained);
        assert!(at.dfg.num_insts() > crate::elaboration::ALWAYS_SAFE_INSTS);
        assert!(!long_param_chains(&at, &mut depth));
        let past = joins(MAX_PARAM_CHAIN as usize + 1, Arms::Chained);
        assert!(long_param_chains(&past, &mut depth));
    }
}
