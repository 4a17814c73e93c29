//! Building a Cranelift function by appending, without cranelift-frontend.
//!
//! cranelift-frontend's `FunctionBuilder` wraps every instruction in bookkeeping for its SSA
//! construction: `create_block` declares the block to it, every branch declares its targets'
//! predecessors, every block must be sealed, and `FuncInstBuilder` checks the block's status
//! and looks at each instruction for branches and terminators. The lowering builds its SSA
//! form itself ([`crate::ssa`]) and needs none of that: [`Builder`] is the function being
//! built and the block instructions go to, and [`AppendIns`] appends one instruction (a
//! branch or terminator too) to the end of that block, putting the block in the layout
//! before its first instruction, as `FunctionBuilder` does. The calls on the function are the
//! same, in the same order, so the function comes out as cranelift-frontend would build it.

use cranelift_codegen::ir::{
    Block, DataFlowGraph, Function, Inst, InstBuilderBase, InstructionData, StackSlot,
    StackSlotData, Type, Value,
};

/// The function being built and the block instructions are appended to (see the module
/// documentation).
pub(crate) struct Builder<'f> {
    pub(crate) func: &'f mut Function,
    /// The block instructions go to.
    position: Option<Block>,
    /// The block last made sure to be in the layout (a block is put there once, not looked up
    /// again for every instruction).
    inserted: Option<Block>,
}

impl<'f> Builder<'f> {
    /// A builder appending to `func`, with no current block yet.
    pub(crate) fn new(func: &'f mut Function) -> Builder<'f> {
        Builder {
            func,
            position: None,
            inserted: None,
        }
    }

    /// A new block, not yet in the layout (it goes there with its first instruction).
    pub(crate) fn create_block(&mut self) -> Block {
        self.func.dfg.make_block()
    }

    /// Marks `block` cold (laid out after the others in the machine code).
    pub(crate) fn set_cold_block(&mut self, block: Block) {
        self.func.layout.set_cold(block);
    }

    /// Makes `block` the one instructions are appended to.
    pub(crate) fn switch_to_block(&mut self, block: Block) {
        self.position = Some(block);
    }

    /// The block instructions are appended to.
    pub(crate) fn current_block(&self) -> Option<Block> {
        self.position
    }

    pub(crate) fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        self.func.dfg.append_block_param(block, ty)
    }

    pub(crate) fn block_params(&self, block: Block) -> &[Value] {
        self.func.dfg.block_params(block)
    }

    /// Gives `block` one parameter per parameter of the function's signature.
    pub(crate) fn append_block_params_for_function_params(&mut self, block: Block) {
        let stencil = &mut self.func.stencil;
        for p in &stencil.signature.params {
            stencil.dfg.append_block_param(block, p.value_type);
        }
    }

    pub(crate) fn create_sized_stack_slot(&mut self, data: StackSlotData) -> StackSlot {
        self.func.create_sized_stack_slot(data)
    }

    pub(crate) fn inst_results(&self, inst: Inst) -> &[Value] {
        self.func.dfg.inst_results(inst)
    }

    /// A builder for one instruction at the end of the current block, which is put in the
    /// layout first if it is not yet.
    pub(crate) fn ins(&mut self) -> AppendIns<'_> {
        let block = self
            .position
            .expect("instructions are appended to a current block");
        if self.inserted != Some(block) {
            if !self.func.layout.is_block_inserted(block) {
                self.func.layout.append_block(block);
            }
            self.inserted = Some(block);
        }
        AppendIns {
            func: &mut *self.func,
            block,
        }
    }
}

/// An instruction builder that appends one instruction to the end of a block already in the
/// layout (see the module documentation).
pub(crate) struct AppendIns<'f> {
    func: &'f mut Function,
    block: Block,
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
        let opcode = data.opcode();
        let inst = self.func.dfg.make_inst(data);
        // An instruction without results (a store, a branch, a return) keeps the empty result
        // list every instruction starts with: `make_inst_results` would only find that out, at
        // the cost of collecting its result types and growing the result table.
        if opcode.constraints().num_fixed_results() != 0 || opcode.is_call() {
            self.func.dfg.make_inst_results(inst, ctrl_typevar);
        }
        // A block ends at its terminator: nothing is appended after a branch, a return or a
        // trap (Cranelift's verifier would reject the function, but only when it runs).
        debug_assert!(
            self.func
                .layout
                .last_inst(self.block)
                .is_none_or(|last| !self.func.dfg.insts[last].opcode().is_terminator()),
            "an instruction appended to {} after its terminator",
            self.block
        );
        self.func.layout.append_inst(inst, self.block);
        inst
    }
}

#[cfg(test)]
mod tests {
    use super::Builder;
    use cranelift_codegen::ir::{types, Function, InstBuilder};

    /// Appends `iconst 1` and a `return`, then (when `after` is set) one more instruction.
    fn fill_block(after: bool) -> Function {
        let mut func = Function::new();
        let mut b = Builder::new(&mut func);
        let block = b.create_block();
        b.switch_to_block(block);
        b.ins().iconst(types::I64, 1);
        b.ins().return_(&[]);
        if after {
            b.ins().iconst(types::I64, 2);
        }
        func
    }

    #[test]
    fn instructions_go_to_the_end_of_the_current_block() {
        let func = fill_block(false);
        let block = func
            .layout
            .entry_block()
            .expect("the block is in the layout");
        let opcodes: Vec<_> = func
            .layout
            .block_insts(block)
            .map(|i| func.dfg.insts[i].opcode().to_string())
            .collect();
        assert_eq!(opcodes, ["iconst", "return"]);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "after its terminator")]
    fn nothing_is_appended_after_a_terminator() {
        fill_block(true);
    }
}
