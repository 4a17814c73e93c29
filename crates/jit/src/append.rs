//! Appending straight-line instructions without cranelift-frontend's bookkeeping.
//!
//! `FunctionBuilder::ins` builds every instruction through cranelift-frontend's
//! `FuncInstBuilder`, which, besides creating the instruction and its results and appending it
//! to the current block, checks the block's status, looks at the instruction for branches
//! (whose targets the SSA construction must learn) and terminators (which fill the block), and
//! attaches the builder's source location. For an instruction that is neither a branch nor a
//! terminator none of that applies once the block is in the layout (this lowering sets no
//! source locations), so [`AppendIns`] does only the rest: the same calls on the function, in
//! the same order, so the function comes out identical, for less work per instruction. Branches
//! and terminators still go through `FunctionBuilder::ins`.

use cranelift_codegen::ir::{
    Block, DataFlowGraph, Function, Inst, InstBuilderBase, InstructionData, Type,
};
use cranelift_frontend::FunctionBuilder;

/// An instruction builder that appends one instruction, neither a branch nor a terminator, to
/// the end of the builder's current block (see the module documentation).
pub(crate) struct AppendIns<'f> {
    func: &'f mut Function,
    block: Block,
}

impl<'f> AppendIns<'f> {
    /// A builder appending to `b`'s current block, which is put in the layout first if it is
    /// not yet (as `FunctionBuilder::ins` does before its first instruction). `inserted` is
    /// the block this was last done for: the caller keeps it from one instruction to the next,
    /// so that a block is put in the layout once, not looked up again for every instruction.
    pub(crate) fn new(
        b: &'f mut FunctionBuilder<'_>,
        inserted: &mut Option<Block>,
    ) -> AppendIns<'f> {
        let block = b
            .current_block()
            .expect("instructions are appended to a current block");
        if *inserted != Some(block) {
            b.ensure_inserted_block();
            *inserted = Some(block);
        }
        AppendIns {
            func: &mut *b.func,
            block,
        }
    }
}

impl<'f> InstBuilderBase<'f> for AppendIns<'f> {
    fn data_flow_graph(&self) -> &DataFlowGraph {
        &self.func.dfg
    }

    fn data_flow_graph_mut(&mut self) -> &mut DataFlowGraph {
        &mut self.func.dfg
    }

    fn build(mut self, data: InstructionData, ctrl_typevar: Type) -> (Inst, &'f mut DataFlowGraph) {
        let inst = self.append(data, ctrl_typevar);
        (inst, &mut self.func.dfg)
    }

    /// An instruction the one being built needs first (an immediate's `iconst`), appended
    /// before it, as cranelift-frontend does.
    fn build_aux_inst(&mut self, data: InstructionData, ctrl_typevar: Type) -> Inst {
        self.append(data, ctrl_typevar)
    }
}

impl AppendIns<'_> {
    /// Creates the instruction and its results and appends it to the block.
    fn append(&mut self, data: InstructionData, ctrl_typevar: Type) -> Inst {
        debug_assert!(
            !data.opcode().is_branch() && !data.opcode().is_terminator(),
            "branches and terminators go through FunctionBuilder::ins"
        );
        let opcode = data.opcode();
        let inst = self.func.dfg.make_inst(data);
        // An instruction without results (a store) keeps the empty result list every
        // instruction starts with: `make_inst_results` would only find that out, at the cost
        // of collecting its result types and growing the result table.
        if opcode.constraints().num_fixed_results() != 0 || opcode.is_call() {
            self.func.dfg.make_inst_results(inst, ctrl_typevar);
        }
        self.func.layout.append_inst(inst, self.block);
        inst
    }
}
