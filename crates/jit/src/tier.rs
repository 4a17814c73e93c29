//! Code generation tiers: how a function is compiled, chosen by its size.
//!
//! - [`Tier::Normal`]: locals are SSA values built by the lowering's SSA construction
//!   (`crate::ssa`), and Cranelift compiles at the requested optimization level with
//!   regalloc2's backtracking allocator.
//! - [`Tier::Huge`], for a function of more than [`huge_threshold`] IR instructions
//!   (terminators included), or whose loops nest too deep ([`MAX_LOOP_DEPTH_SUM`]) or whose
//!   locals cross blocks too much ([`MAX_CROSSING`]) or keep too many values live for too
//!   long ([`MAX_LIVE_AREA`]), all decided by the lowering, which reports the tier it used in
//!   `LowerInfo::tier`: every scalar, vec and packed local lives in a stack slot of its
//!   own (read with a load, written with a store, like a simple C compiler at `-O0`; a value
//!   is reused within a block only for [`MAX_BLOCK_LOCAL_SPAN`] instructions), branches
//!   name their hot or later successor first, and Cranelift compiles with `opt_level=none` and
//!   regalloc2's single-pass allocator, whatever `--cl-opt` says.
//!
//! Why: on one function of hundreds of thousands of blocks the normal tier is super-linear in
//! three places, each measured on the generated chain of diamonds of
//! `benches/huge_function.rs` (docs/jit.md, "Huge functions"): the SSA construction
//! (cranelift-frontend's, which the lowering used then) cleared a bit set as large as the
//! function's block count on every variable lookup that leaves the current block; regalloc2's backtracking allocator builds
//! per-block liveness sets over all virtual registers and walks the deep dominator tree of a
//! chain of diamonds; and the single-pass allocator, which works in the linear block order,
//! carries every value whose uses Cranelift's block order places far from its definition
//! across everything in between. The huge tier avoids all three: no SSA variables, no
//! backtracking allocator, and a block order that follows the source. Results and traps are
//! the same in both tiers (the differential corpus runs with every function forced into the
//! huge tier: `POOLOPT_HUGE_FUNCTION_INSTS=0`).
//!
//! A huge function's code is slower (every local access is a memory access), which is the
//! right trade for code as large as that: it is compiled in linear time and memory.

use poolopt_ir::{Function, InstKind};
use std::sync::OnceLock;

/// How a function is compiled.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Tier {
    /// SSA locals, Cranelift at the requested level, backtracking register allocation.
    #[default]
    Normal,
    /// Locals in stack slots, Cranelift `opt_level=none`, single-pass register allocation.
    Huge,
}

/// A function whose blocks' loop depths (how many loops each lies in) add up to more than
/// this is compiled in the huge tier whatever its size. The normal tier's costs grow with
/// the nesting: the SSA construction and regalloc2's liveness iterate over
/// loops nested `d` deep about `d` times, over values live across all of them. A generated
/// nest (`benches/text/gen_shapes.py nest D`, about 8 instructions a level, so under
/// [`DEFAULT_HUGE_THRESHOLD`] up to 2,500 levels) took 0.13 s to compile 400 deep, 0.81 s
/// 800 deep and 5.9 s 1,600 deep (`poolopt run FILE --entry nest --args 0 -O0`); its depths
/// add up to about 1.5 `d²`, so this bound sends nests deeper than about 250 to the huge tier.
/// Ordinary code stays far below it: 20,000 instructions in 5,000 blocks nested five deep add
/// up to 25,000.
pub const MAX_LOOP_DEPTH_SUM: u64 = 100_000;

/// A function whose locals read across blocks (those not block-local: some read may see a
/// value from another block), times its blocks, exceed this is compiled in the huge tier
/// whatever its size. regalloc2's backtracking allocator splits and spills long live ranges
/// against each other, quadratic in how many there are: a function that creates many vecs
/// and then tests and pops each in turn (`benches/text/gen_shapes.py vecs N`) compiled
/// (`run F -O0 --cl-opt none`, a build without LTO) in 0.2 s for 400 vecs (402 crossing
/// locals × 802 blocks = 322,404), 0.66 s for 700 (984,204) and 13.5 s for 2,000
/// (8,012,004; 16,000 instructions), and a loop over 1,000 vecs in 1.9 s (2,010,012). The product only bounds the live ranges' total size, and some functions past
/// it compile fast (500 locals written at the start and read at the end of 6,000 blocks:
/// 3,013,004, 0.02 s); they run in the huge tier too, a cost only such unusual functions pay.
/// Ordinary code stays far below it (slot_pool_128's largest function: 8 × 15). The bound also
/// caps the SSA construction's table (`crate::ssa`: one 4-byte entry per block and variable,
/// and its variables are crossing locals, or a field each of one held field by field) at
/// about a million entries times the fields of such a struct.
pub const MAX_CROSSING: u64 = 1_000_000;

/// A function whose live area (about how many pairs of a live local value and an instruction
/// it is live across, which the lowering counts without liveness, in its walk for fixed
/// locals) exceeds this is compiled in the huge tier whatever its size. Once the values live
/// at once outnumber the
/// registers, regalloc2's backtracking allocator spills, splits and searches in time that
/// grows faster than the area: one block of `n` checked loads into distinct locals followed
/// by their sum (area about `n²`) compiled (`run F -O0 --cl-opt none`) in 0.04 s for 1,000,
/// 0.16 s for 2,000, 0.81 s for 4,000 and 5.2 s for 8,000 (16,000 instructions); 400 locals
/// live through 18,000 random three-address instructions (area 4.9 M) in 0.14 s, 1,000 of
/// them (13 M) in 0.3 s. [`MAX_CROSSING`] does not see the first shape, whose locals cross
/// no block, or cross one. The huge tier compiles each of these in about 0.03 s. Ordinary
/// code stays far below the bound (the largest area among the repository's programs, at O0
/// and O2, is 5,116).
pub const MAX_LIVE_AREA: u64 = 4_000_000;

/// Whether a function of live area `area` goes to the huge tier (past [`MAX_LIVE_AREA`]).
pub fn live_area_needs_huge_tier(area: u64) -> bool {
    area > MAX_LIVE_AREA
}

/// In the huge tier, a block-local local (every read preceded by a write in its block) is a
/// Cranelift value only while each of its reads comes at most this many instructions after
/// the write it reads; otherwise it lives in the tier's slot like every other local
/// ([`crate::lower::block_local_locals_into`]). So at most this many such values are live
/// at any point, and the single-pass allocator, which visits every live value at the start
/// of each Cranelift block (each check ends one), stays linear. Without the bound, one block
/// of `n` checked loads into distinct locals followed by their sum (a generated
/// `x_k = get v[k]` for every `k`, then `s = add s, x_k`) took `run -O0` 1.5 s for
/// `n` = 11,000 and 11.9 s for 30,000.
pub const MAX_BLOCK_LOCAL_SPAN: u32 = 64;

/// A function of more parameters than this, or with a call of more arguments, is compiled in
/// the huge tier whatever its size. The arguments of a call (and the parameters on entry) are
/// all live at once, each in its ABI register or stack slot, and regalloc2's backtracking
/// allocator is quadratic in them: `run -O0` of a function of `n` parameters that sums them,
/// called with `n` arguments, executed 33 M instructions for `n` = 256, 328 M for 1,000 and
/// 1.16 G for 2,000 (4,000: 0.3 s, 16,000: 3 s); in the huge tier 10 M, 34 M and 65 M. No
/// ordinary function comes near it.
pub const MAX_NORMAL_ARGS: usize = 256;

/// The most arguments of one call in `func`.
fn max_call_args(func: &Function) -> usize {
    func.blocks
        .values()
        .flat_map(|b| b.insts.iter())
        .map(|&i| match func.inst(i) {
            InstKind::Call { args, .. } => args.len(),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

/// Functions of more IR instructions than this are compiled in the huge tier.
pub const DEFAULT_HUGE_THRESHOLD: usize = 20_000;

/// The environment variable that overrides [`DEFAULT_HUGE_THRESHOLD`] (read once per
/// process; `0` puts every function in the huge tier, which is how the tier is tested).
pub const HUGE_THRESHOLD_ENV: &str = "POOLOPT_HUGE_FUNCTION_INSTS";

/// The size above which a function is compiled in the huge tier.
pub fn huge_threshold() -> usize {
    static THRESHOLD: OnceLock<usize> = OnceLock::new();
    *THRESHOLD.get_or_init(|| {
        std::env::var(HUGE_THRESHOLD_ENV)
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(DEFAULT_HUGE_THRESHOLD)
    })
}

impl Tier {
    /// The tier of `func`, by its instruction count against `threshold`.
    pub fn for_size(insts: usize, threshold: usize) -> Tier {
        if insts > threshold {
            Tier::Huge
        } else {
            Tier::Normal
        }
    }

    /// The tier `func` is compiled in: by its size, and the huge tier for a function of more
    /// than [`MAX_NORMAL_ARGS`] parameters or with a call of more arguments.
    pub fn of(func: &Function) -> Tier {
        if func.params.len() > MAX_NORMAL_ARGS || max_call_args(func) > MAX_NORMAL_ARGS {
            return Tier::Huge;
        }
        Tier::for_size(func.inst_count(), huge_threshold())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_area_bound_is_exclusive() {
        assert!(!live_area_needs_huge_tier(MAX_LIVE_AREA));
        assert!(live_area_needs_huge_tier(MAX_LIVE_AREA + 1));
        assert!(!live_area_needs_huge_tier(0));
    }

    #[test]
    fn the_threshold_is_exclusive() {
        assert_eq!(Tier::for_size(20_000, 20_000), Tier::Normal);
        assert_eq!(Tier::for_size(20_001, 20_000), Tier::Huge);
        assert_eq!(Tier::for_size(1, 0), Tier::Huge);
    }
}
