//! The lowering's per-function tables, kept from one function to the next.
//!
//! Lowering a function fills some twenty tables (per local, per IR block, per variable, per
//! trap kind) and runs small analyses with working storage of their own (the CFG, the
//! dominator tree, the fixed-local and block-local scans). Allocated afresh for each function
//! and freed after it, they cost a small function more in `malloc` and `free` than its
//! instructions cost to build. A [`LowerScratch`] owns them all: [`crate::lower::lower_function`]
//! borrows it, empties and sizes each table for the function at hand (keeping its storage),
//! and hands it back, so a module's functions allocate only when one is larger than every
//! function before it. The JIT and the text output each keep one for the whole module, beside
//! cranelift-frontend's `FunctionBuilderContext` (the same idea, one level down).

use crate::fixed_locals::FixedLocalsScratch;
use crate::lower::{HoistLoop, HoistedHeader, LoopScanScratch, Repr, VarKind};
use cranelift_codegen::ir::{self as cl, types, FuncRef, Value};
use cranelift_frontend::Variable;
use poolopt_ir::cfg::Cfg;
use poolopt_ir::{Block, EntityRef, FuncId, Function, Local, SecondaryMap, TrapKind};

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
    pub(crate) block_local_written: SecondaryMap<Local, u32>,
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
    /// Per IR block: the loops of `hoist_loops` it belongs to.
    pub(crate) block_loops: SecondaryMap<Block, Vec<u32>>,
    /// Per IR block: the loops of `hoist_loops` it is the preheader of.
    pub(crate) preheader_of: SecondaryMap<Block, Vec<u32>>,
    /// Per variable: where its value lives.
    pub(crate) var_kinds: Vec<VarKind>,
    /// Per variable: its value in the IR block being lowered, where known.
    pub(crate) block_values: Vec<Option<Value>>,
    /// The indices set in `block_values`.
    pub(crate) known: Vec<usize>,
    /// The constants on the current IR block's main line.
    pub(crate) block_consts: Vec<(types::Type, i64, Value)>,
    /// Per Cranelift block: the branches into it not yet emitted.
    pub(crate) preds_left: SecondaryMap<cl::Block, u32>,
    /// Every trap block created, in creation order.
    pub(crate) all_trap_blocks: Vec<(TrapKind, cl::Block)>,
    /// Per IR function: its import in the function being lowered, once called.
    pub(crate) callees: SecondaryMap<FuncId, Option<FuncRef>>,
    /// The argument list of the call being lowered.
    pub(crate) call_args: Vec<Value>,
}

impl LowerScratch {
    /// Empty storage; it grows to the largest function lowered with it.
    pub fn new() -> LowerScratch {
        LowerScratch::default()
    }

    /// Empties every table and sizes the dense ones for `ir` (in a module of `n_funcs`
    /// functions), keeping their storage. The analyses' results are filled by the lowering.
    pub(crate) fn reset(&mut self, ir: &Function, n_funcs: usize) {
        let (n_locals, n_blocks) = (ir.locals.len(), ir.blocks.len());
        refill(&mut self.locals, n_locals);
        refill(&mut self.blocks, n_blocks);
        refill(&mut self.layout_pos, n_blocks);
        refill(&mut self.block_loops, n_blocks);
        refill(&mut self.preheader_of, n_blocks);
        refill(&mut self.callees, n_funcs);
        refill(&mut self.param_index, n_locals);
        // Indexed by Cranelift block, which the lowering creates: at least one per IR block.
        refill(&mut self.preds_left, n_blocks);
        self.fixed.clear();
        self.loop_depth.clear();
        self.by_fields.clear();
        self.params.clear();
        self.field_vars.clear();
        self.hoist_loops.clear();
        self.hoisted.clear();
        self.var_kinds.clear();
        self.block_values.clear();
        self.known.clear();
        self.block_consts.clear();
        self.all_trap_blocks.clear();
        self.call_args.clear();
    }
}

/// Empties `map` and gives it `n` default entries (within its storage when it has room).
pub(crate) fn refill<K: EntityRef, V: Clone + Default>(map: &mut SecondaryMap<K, V>, n: usize) {
    map.clear();
    map.resize(n);
}
