//! The lowering's per-function tables, kept from one function to the next.
//!
//! Lowering a function fills some twenty tables (per local, per IR block, per variable, per
//! trap kind) and runs small analyses with working storage of their own (the CFG, the
//! dominator tree, the fixed-local and block-local scans). Allocated afresh for each function
//! and freed after it, they cost a small function more in `malloc` and `free` than its
//! instructions cost to build. A [`LowerScratch`] owns them all: [`crate::lower::lower_function`]
//! borrows it, empties and sizes each table for the function at hand (keeping its storage),
//! and hands it back, so a module's functions allocate only when one is larger than every
//! function before it. The JIT and the text output each keep one for the whole module.
//!
//! Grown one function at a time, each table would still be reallocated (and copied) every
//! time it doubles on the way to the largest function. So the first reset sizes every table
//! for the module's largest function at once ([`ModuleSizes`], counted once per module by
//! [`crate::lower::LowerEnv`]): one allocation per table, and none after it.

use crate::fixed_locals::FixedLocalsScratch;
use crate::lower::{HoistLoop, HoistedHeader, LoopScanScratch, Repr, VarKind};
use cranelift_codegen::ir::{self as cl, FuncRef, Value};
use cranelift_frontend::Variable;
use poolopt_ir::cfg::Cfg;
use poolopt_ir::room::{map_room, vec_room};
use poolopt_ir::{Block, EntityRef, FuncId, Function, Local, Module, SecondaryMap, TrapKind};

/// The sizes of a module's largest function (each the maximum over the functions on its own),
/// for sizing the lowering's tables up front.
#[derive(Clone, Copy, Debug, Default)]
pub struct ModuleSizes {
    /// The most locals of one function.
    pub locals: usize,
    /// The most blocks of one function.
    pub blocks: usize,
    /// The most instructions of one function (terminators included).
    pub insts: usize,
    /// How many functions the module has.
    pub funcs: usize,
}

impl ModuleSizes {
    /// Whether a function of these sizes fits tables with room for `room`.
    fn fits_in(&self, room: &ModuleSizes) -> bool {
        self.locals <= room.locals
            && self.blocks <= room.blocks
            && self.insts <= room.insts
            && self.funcs <= room.funcs
    }

    /// The sizes of `module`'s largest function.
    pub fn of(module: &Module) -> ModuleSizes {
        let mut sizes = ModuleSizes {
            funcs: module.funcs.len(),
            ..ModuleSizes::default()
        };
        for f in module.funcs.values() {
            sizes.locals = sizes.locals.max(f.locals.len());
            sizes.blocks = sizes.blocks.max(f.blocks.len());
            let insts = f.insts.len() + f.blocks.len();
            sizes.insts = sizes.insts.max(insts);
        }
        sizes
    }
}

/// Storage the lowering reuses from one function to the next (see the module documentation).
/// Its contents between two functions mean nothing.
#[derive(Default)]
pub struct LowerScratch {
    /// Per local: how it is represented.
    pub(crate) locals: SecondaryMap<Local, Option<Repr>>,
    /// Per IR block: its Cranelift block.
    pub(crate) blocks: SecondaryMap<Block, Option<cl::Block>>,
    /// Per IR block: its position in the layout.
    pub(crate) layout_pos: SecondaryMap<Block, u32>,
    /// Per IR block: how many loops it lies in (normal tier only).
    pub(crate) loop_depth: SecondaryMap<Block, u32>,
    /// Working storage of the loop-depth walk.
    pub(crate) loop_mark: SecondaryMap<Block, u32>,
    pub(crate) loop_work: Vec<Block>,
    /// Working storage of the scan for loops with invariant vec headers.
    pub(crate) loop_scan: LoopScanScratch,
    /// Per local: block-local ([`crate::lower::block_local_locals`]).
    pub(crate) block_local: SecondaryMap<Local, bool>,
    /// Working storage of the block-local scan.
    pub(crate) block_local_written: SecondaryMap<Local, u64>,
    /// Per local: fixed ([`crate::fixed_locals`]).
    pub(crate) fixed: SecondaryMap<Local, bool>,
    /// Working storage of the fixed-local scan (its dominator tree among it).
    pub(crate) fixed_scratch: FixedLocalsScratch,
    /// Per local: held field by field ([`crate::lower::field_struct_locals`]).
    pub(crate) by_fields: SecondaryMap<Local, bool>,
    /// Working storage of the field-wise scan.
    pub(crate) by_fields_bad: SecondaryMap<Local, bool>,
    /// Per local: the index of the parameter it is, if it is one.
    pub(crate) param_index: SecondaryMap<Local, Option<usize>>,
    /// The entry block's parameters.
    pub(crate) params: Vec<Value>,
    /// The CFG of the IR function.
    pub(crate) cfg: Cfg,
    /// The field variables of field-wise struct locals.
    pub(crate) field_vars: Vec<Variable>,
    /// Loops whose vec headers are loaded once, in the preheader.
    pub(crate) hoist_loops: Vec<HoistLoop>,
    /// Per loop of `hoist_loops`: its headers once loaded.
    pub(crate) hoisted: Vec<Vec<HoistedHeader>>,
    /// Per IR block: the loops of `hoist_loops` it belongs to (filled, and read, only when
    /// `hoist_loops` is not empty).
    pub(crate) block_loops: SecondaryMap<Block, Vec<u32>>,
    /// Per IR block: the loops of `hoist_loops` it is the preheader of (as `block_loops`).
    pub(crate) preheader_of: SecondaryMap<Block, Vec<u32>>,
    /// Per variable (the lowering's own numbering, see `FnLower::declare_local_var`): where
    /// its value lives.
    pub(crate) var_kinds: Vec<VarKind>,
    /// Per variable: its value in the IR block being lowered, where known, and the position
    /// in the block (IR instruction index) where it was last written or loaded.
    pub(crate) block_values: Vec<Option<(Value, u32)>>,
    /// The indices set in `block_values`.
    pub(crate) known: Vec<usize>,
    /// The constants on the current IR block's main line.
    pub(crate) block_consts: crate::block_consts::BlockConsts,
    /// Per variable: the cheap computation its value waits for, computed where it is read
    /// (`FnLower::deferred_binary`).
    pub(crate) deferred: Vec<Option<crate::lower::Deferred>>,
    /// The element addresses computed on the current IR block's main line by element reads
    /// and writes: (data pointer, index, element size, address), the newest last.
    pub(crate) elem_addrs: Vec<(Value, Value, u32, Value)>,
    /// Per IR block: the branches into it (a `brif` with both targets the block once).
    pub(crate) branches_in: SecondaryMap<Block, u32>,
    /// The SSA construction's tables ([`crate::ssa`]).
    pub(crate) ssa: crate::ssa::Ssa,
    /// Every trap block created, in creation order.
    pub(crate) all_trap_blocks: Vec<(TrapKind, cl::Block)>,
    /// Per IR function: its import in the function being lowered, once called. Sized once
    /// for the module; only the entries in `callees_set` are cleared between functions, so a
    /// module of `n` functions does not cost `n * n`.
    pub(crate) callees: SecondaryMap<FuncId, Option<FuncRef>>,
    /// The functions with an entry in `callees`.
    pub(crate) callees_set: Vec<FuncId>,
    /// The argument list of the call being lowered.
    pub(crate) call_args: Vec<Value>,
    /// The sizes the tables have room for ([`LowerScratch::reserve`]).
    reserved: ModuleSizes,
}

impl LowerScratch {
    /// Empty storage; it grows to the largest function lowered with it.
    pub fn new() -> LowerScratch {
        LowerScratch::default()
    }

    /// Empties every table and sizes the dense ones for `ir`, keeping their storage, which is
    /// first made room enough for the module's largest function (`largest`, whose `funcs` is
    /// the module's function count). The analyses' results are filled by the lowering.
    pub(crate) fn reset(&mut self, ir: &Function, largest: &ModuleSizes) {
        self.reserve(largest);
        let (n_locals, n_blocks) = (ir.locals.len(), ir.blocks.len());
        refill(&mut self.locals, n_locals);
        refill(&mut self.blocks, n_blocks);
        refill(&mut self.layout_pos, n_blocks);
        // `block_loops` and `preheader_of` are sized by the lowering, and only when it
        // hoists a loop's headers (they are read only then).
        for f in self.callees_set.drain(..) {
            self.callees[f] = None;
        }
        // A no-op within one module (its function count does not change).
        self.callees.resize(largest.funcs);
        refill(&mut self.param_index, n_locals);
        refill(&mut self.branches_in, n_blocks);
        self.fixed.clear();
        self.loop_depth.clear();
        self.by_fields.clear();
        self.params.clear();
        self.field_vars.clear();
        self.hoist_loops.clear();
        self.hoisted.clear();
        // One variable per scalar, vec or packed local at most, besides the field variables
        // of field-wise struct locals, for which the lowering grows these further.
        self.var_kinds.clear(); // filled as the variables are declared
        refill_vec(&mut self.block_values, n_locals, None);
        refill_vec(&mut self.deferred, n_locals, None);
        self.known.clear();
        self.block_consts.clear();
        self.elem_addrs.clear();
        self.all_trap_blocks.clear();
        self.call_args.clear();
    }

    /// Gives every table room for a function of the sizes `largest` (a no-op once it has).
    fn reserve(&mut self, largest: &ModuleSizes) {
        if largest.fits_in(&self.reserved) {
            return;
        }
        self.reserved = *largest;
        let &ModuleSizes {
            locals,
            blocks,
            insts: _,
            funcs,
        } = largest;
        map_room(&mut self.locals, locals);
        map_room(&mut self.blocks, blocks);
        map_room(&mut self.layout_pos, blocks);
        map_room(&mut self.loop_depth, blocks);
        map_room(&mut self.loop_mark, blocks);
        map_room(&mut self.block_local, locals);
        map_room(&mut self.block_local_written, locals);
        map_room(&mut self.fixed, locals);
        map_room(&mut self.by_fields, locals);
        map_room(&mut self.by_fields_bad, locals);
        map_room(&mut self.param_index, locals);
        map_room(&mut self.block_loops, blocks);
        map_room(&mut self.preheader_of, blocks);
        map_room(&mut self.branches_in, blocks);
        map_room(&mut self.callees, funcs);
        // One variable per scalar, vec or packed local (field-wise structs add a few more).
        vec_room(&mut self.var_kinds, locals);
        vec_room(&mut self.block_values, locals);
        vec_room(&mut self.deferred, locals);
        vec_room(&mut self.known, locals);
        self.fixed_scratch.reserve(locals, blocks);
        // A node per IR block and the start block's; at most two branches into a block per
        // block, and the start block's jump.
        self.ssa.reserve(blocks + 1, 2 * blocks + 1);
        self.loop_scan.reserve(blocks);
        self.cfg.reserve(blocks);
    }
}

/// Gives the tables of the Cranelift function `out`, still empty, room for the lowering of a
/// function of the sizes `largest`, where Cranelift lets them be sized: its blocks and its
/// value-list pool (the result, argument and block-call lists of its instructions). Cranelift
/// keeps their storage when the caller clears `out` for the next function, so this allocates
/// once per module, where growing would reallocate each of them several times.
///
/// It also lengthens the layout's per-instruction and per-block tables to about what `ir`
/// will need ([`lengthen_layout`]).
pub(crate) fn reserve_function(out: &mut cl::Function, largest: &ModuleSizes, ir: &Function) {
    let dfg = &mut out.dfg;
    if dfg.num_insts() != 0 || dfg.num_blocks() != 0 {
        return; // not empty: its lists live in the pool
    }
    // As for `branches_in`: an IR block and about one more per instruction at most.
    dfg.blocks.reserve(largest.blocks + largest.insts);
    // An instruction's result list takes the pool's smallest block (4 entries); arguments of
    // calls and branches take more. About three Cranelift instructions per IR instruction.
    let pool = 16 * largest.insts;
    if dfg.value_lists.capacity() < pool {
        dfg.value_lists = cl::ValueListPool::with_capacity(pool);
    }
    // Cranelift instructions per IR instruction or block: 2 to 3 in most functions (more
    // in short ones full of checks, fewer in long straight runs of stores); Cranelift blocks
    // per IR block: about 2 (trap edges, slow paths). An entry too many costs writing it
    // (6 to 14 instructions), one too few its own growth call (45 to 100).
    let ir_insts = ir.inst_count() + ir.blocks.len();
    lengthen_layout(&mut out.layout, 3 * ir_insts, 2 * ir.blocks.len());
}

/// Makes the per-instruction table of the empty layout `layout` at least `insts` entries
/// long and its per-block table at least `blocks`, all of them unused (as if fresh).
///
/// `Layout` keeps one entry per instruction (and per block) in a dense table that
/// `Function::clear` empties but does not shrink; it grows by one entry, through a call of
/// its own (~45 instructions), for every instruction appended after that, which was a
/// twentieth of the lowering's count. Cranelift offers no way to size it, but appending one
/// instruction (not even created in the function) to one block and taking both out again
/// grows each table to the index used at once and leaves every entry as it was; entries past
/// the function's real size are merely never used.
fn lengthen_layout(layout: &mut cl::Layout, insts: usize, blocks: usize) {
    if insts == 0 || blocks == 0 || layout.entry_block().is_some() {
        return;
    }
    let (inst, block) = (cl::Inst::new(insts - 1), cl::Block::new(blocks - 1));
    layout.append_block(block);
    layout.append_inst(inst, block);
    layout.remove_inst(inst);
    layout.remove_block(block);
}

/// Empties `v` and gives it `n` entries `x` (within its storage when it has room).
fn refill_vec<T: Clone>(v: &mut Vec<T>, n: usize, x: T) {
    v.clear();
    v.resize(n, x);
}

/// Empties `map` and gives it `n` default entries (within its storage when it has room).
pub(crate) fn refill<K: EntityRef, V: Clone + Default>(map: &mut SecondaryMap<K, V>, n: usize) {
    map.clear();
    map.resize(n);
}

#[cfg(test)]
mod tests {
    use super::lengthen_layout;
    use crate::test_clif::{frontend, signature};
    use cranelift_codegen::ir::{self as cl, types, InstBuilder};
    use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

    /// Builds a small function with a branch and a cold block into the empty `func`.
    fn build(func: &mut cl::Function) -> String {
        func.signature = signature();
        let mut fbc = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(func, &mut fbc);
        let (entry, then, other) = (b.create_block(), b.create_block(), b.create_block());
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let x = b.block_params(entry)[0];
        b.ins().brif(x, then, &[], other, &[]);
        b.switch_to_block(then);
        let one = b.ins().iconst(types::I64, 1);
        let y = b.ins().iadd(x, one);
        b.ins().return_(&[y]);
        b.switch_to_block(other);
        b.set_cold_block(other);
        b.ins().return_(&[x]);
        b.seal_all_blocks();
        b.finalize(frontend());
        func.display().to_string()
    }

    #[test]
    fn a_lengthened_layout_is_an_empty_one_with_room() {
        let mut layout = cl::Layout::new();
        lengthen_layout(&mut layout, 50, 10);
        assert!(layout.block_capacity() >= 10);
        assert!(layout.entry_block().is_none());
        assert_eq!(layout.blocks().count(), 0);
        // Every entry as in a fresh layout (equality ignores entries left at their default).
        assert_eq!(layout, cl::Layout::new());
        // A layout that is not empty is left alone.
        let mut func = cl::Function::new();
        let text = build(&mut func);
        let before = func.layout.clone();
        lengthen_layout(&mut func.layout, 50, 10);
        assert_eq!(func.layout, before);
        assert_eq!(func.display().to_string(), text);
    }

    #[test]
    fn a_function_laid_out_in_a_lengthened_layout_is_the_same() {
        let mut fresh = cl::Function::new();
        let expected = build(&mut fresh);
        // Longer and shorter than the function needs (4 instructions, 3 blocks), and exactly
        // as long; in a new function and in one cleared after another.
        for (insts, blocks) in [(100, 20), (2, 1), (4, 3), (3, 2)] {
            let mut func = cl::Function::new();
            for _ in 0..2 {
                func.clear();
                lengthen_layout(&mut func.layout, insts, blocks);
                let text = build(&mut func);
                assert_eq!(
                    text, expected,
                    "lengthened to {insts} insts, {blocks} blocks"
                );
                assert_eq!(func.layout, fresh.layout);
            }
        }
    }
}
