//! The driver of one function's lowering ([`FnLower::lower`]): the prologue (parameters,
//! locals, the call-depth check, the choice of tier and the analyses it needs), the IR blocks in
//! layout order with fuel, each instruction ([`FnLower::inst`], which lowers the simple ones
//! itself and hands the others to the module of their concept) and each terminator, with the
//! edges that let the SSA construction seal an IR block once its last predecessor is emitted.

use super::local_classes::has_field_wise_candidate;
use super::{
    block_local_locals_into, field_struct_locals_from, header_invariant_loops_into, FnLower,
    HugeLocals, Repr, VarKind, R,
};
use crate::abi::{self, PTR};
use crate::error::JitError;
use crate::fixed_locals::{fixed_locals_into, WalkExtras};
use crate::runtime::{
    RtFunc, CTX_DEAD_HEADER, CTX_DEPTH, CTX_FUEL, CTX_MAX_DEPTH, CTX_RT_HANDLE, HDR_LEN,
};
use crate::scratch::refill;
use crate::tier::{
    live_area_needs_huge_tier, Tier, MAX_BLOCK_LOCAL_SPAN, MAX_CROSSING, MAX_LIVE_AREA,
    MAX_LOOP_DEPTH_SUM,
};
use cranelift_codegen::ir::condcodes::{CondCode, IntCC};
use cranelift_codegen::ir::{
    self as cl, types, InstBuilder, InstructionData, Opcode, Value, ValueDef,
};
use poolopt_ir::EntityRef;
use poolopt_ir::{
    Block, CastOp, CmpOp, ElemType, InstKind, Local, Operand, ScalarType, StructId, StructLayout,
    Terminator, TrapKind, Type, UnaryOp,
};

impl FnLower<'_, '_, '_, '_> {
    /// The function index trap sites at `loc` report.
    fn origin(&self, loc: poolopt_ir::Loc) -> u32 {
        loc.origin().map_or(self.fidx, |f| f.index() as u32)
    }

    #[cold]
    pub(super) fn malformed(&self, message: impl Into<String>) -> JitError {
        JitError::Malformed {
            function: self.ir.name.clone(),
            message: message.into(),
        }
    }

    #[cold]
    fn unsupported(&self, message: impl Into<String>) -> JitError {
        JitError::Unsupported {
            function: self.ir.name.clone(),
            message: message.into(),
        }
    }

    pub(super) fn ctx(&self) -> R<Value> {
        self.ctx
            .ok_or_else(|| self.malformed("context used before the prologue"))
    }

    pub(super) fn bail(&self) -> R<cl::Block> {
        self.bail
            .ok_or_else(|| self.malformed("bail block used before the prologue"))
    }

    pub(super) fn local_name(&self, l: Local) -> String {
        self.ir
            .locals
            .get(l)
            .map_or_else(|| l.to_string(), |d| d.name.to_string())
    }

    pub(super) fn repr(&self, l: Local) -> R<Repr> {
        self.t
            .locals
            .get(l)
            .copied()
            .flatten()
            .ok_or_else(|| self.malformed(format!("undeclared local {l}")))
    }

    pub(super) fn layout(&self, sid: StructId) -> R<&StructLayout> {
        self.env
            .layout(sid)
            .ok_or_else(|| self.malformed(format!("undeclared struct {sid}")))
    }

    pub(super) fn field(&self, sid: StructId, field: u32) -> R<(u32, ScalarType)> {
        let def = self
            .env
            .module
            .structs
            .get(sid)
            .ok_or_else(|| self.malformed(format!("undeclared struct {sid}")))?;
        let f = def.fields.get(field as usize).ok_or_else(|| {
            self.malformed(format!("struct `{}` has no field #{field}", def.name))
        })?;
        let ty = f.ty.as_scalar().ok_or_else(|| {
            self.unsupported(format!(
                "field `{}` of `{}` is not a scalar",
                f.name, def.name
            ))
        })?;
        let off = self.layout(sid)?.offsets[field as usize];
        Ok((off, ty))
    }

    pub(super) fn elem_size(&self, elem: ElemType) -> R<u32> {
        Ok(match elem {
            ElemType::Scalar(s) => s.size(),
            ElemType::Struct(sid) => self.layout(sid)?.size,
        })
    }

    fn cl_block(&self, blk: Block) -> R<cl::Block> {
        self.t
            .blocks
            .get(blk)
            .copied()
            .flatten()
            .ok_or_else(|| self.malformed(format!("branch to {blk}, which is not in the layout")))
    }

    // ---------------------------------------------------------------- the function

    pub(super) fn lower(&mut self) -> R<()> {
        let ir = self.ir;
        if ir.layout.is_empty() {
            return Err(self.malformed("the function has no blocks"));
        }
        let n_blocks = ir.blocks.len();
        for (pos, &blk) in ir.layout.iter().enumerate() {
            if ir.blocks.get(blk).is_none() {
                return Err(self.malformed(format!("layout lists undeclared block {blk}")));
            }
            let c = self.b.create_block();
            self.t.blocks[blk] = Some(c);
            self.t.layout_pos[blk] = pos as u32;
        }
        // Count the branches into each block, a `brif` with both targets one block once (the
        // entry block is also entered from `start`): the room the SSA construction gives each
        // node's predecessors, which it seals once they are all emitted.
        let branches_in = &mut self.t.branches_in;
        for &blk in &ir.layout {
            let targets: &[Block] = match ir.blocks[blk].terminator.as_ref() {
                Some(Terminator::Br(t)) => std::slice::from_ref(t),
                Some(Terminator::BrIf {
                    then_block,
                    else_block,
                    ..
                }) if then_block == else_block => std::slice::from_ref(then_block),
                Some(Terminator::BrIf {
                    then_block,
                    else_block,
                    ..
                }) => &[*then_block, *else_block],
                _ => &[],
            };
            for &t in targets {
                if let Some(n) = branches_in.get_mut(t) {
                    *n += 1;
                }
            }
        }
        // The function starts in the entry IR block's own Cranelift block when no branch
        // leads back to it (the usual case): the prologue then runs straight into its
        // instructions, without a block and a jump of its own.
        let first = ir.layout[0];
        let first_cl = self.cl_block(first)?;
        let merged_entry = self.t.branches_in[first] == 0;
        // The SSA construction's nodes ([`crate::ssa`]): one per IR block, numbered as the
        // blocks are, and the start block's after them.
        let start_node = n_blocks;
        let start = if merged_entry {
            first_cl
        } else {
            self.t.branches_in[first] += 1;
            self.b.create_block()
        };
        {
            let t = &mut *self.t;
            let branches_in = &t.branches_in;
            t.ssa.reset(n_blocks + 1, |n| {
                branches_in.get(Block::new(n)).copied().unwrap_or(0)
            });
            for &blk in &ir.layout {
                if let Some(Some(c)) = t.blocks.get(blk).copied() {
                    t.ssa.set_head(blk.index(), c);
                }
            }
            if !merged_entry {
                t.ssa.set_head(start_node, start);
            }
        }
        self.node = if merged_entry {
            first.index()
        } else {
            start_node
        };
        self.b.append_block_params_for_function_params(start);
        let bail = self.b.create_block();
        self.b.set_cold_block(bail);
        self.bail = Some(bail);
        self.b.switch_to_block(start);
        // Nothing branches to the start block.
        self.t.ssa.seal(self.b.func, self.node);
        self.t.params.extend_from_slice(self.b.block_params(start));
        let params = &self.t.params;
        let ctx = params[0];
        self.ctx = Some(ctx);
        let mut next = 1;
        if self.env.has_struct_ret(ir) {
            self.retarea = Some(params[1]);
            next = 2;
        }
        if params.len() - next != ir.params.len() {
            return Err(self.malformed("parameter count mismatch"));
        }

        // The call-depth check comes before anything else, in functions on a cycle of the
        // call graph only: the others cannot deepen the stack without bound.
        if self.recursive {
            let depth = self.load(types::I64, ctx, CTX_DEPTH);
            let depth1 = self.ins().iadd_imm_s(depth, 1);
            self.store(depth1, ctx, CTX_DEPTH);
            let max = self.load(types::I64, ctx, CTX_MAX_DEPTH);
            self.site_line = ir.loc.line; // a stack_overflow is reported at the callee's `fn`
            self.trap_if(
                IntCC::UnsignedGreaterThan,
                depth1,
                max,
                TrapKind::StackOverflow,
                None,
                None,
            )?;
        }

        // A function small enough for the normal tier still goes to the huge one when its
        // loops nest too deep, or too many of its locals cross blocks, or too many values are
        // live at once for too long, for the normal tier's register allocation (see
        // `tier::MAX_LOOP_DEPTH_SUM`, `tier::MAX_CROSSING` and `tier::MAX_LIVE_AREA`); the
        // loop depths, the CFG and the block-local flags are needed below anyway.
        let mut field_wise = false;
        if self.tier == Tier::Normal {
            let t = &mut *self.t;
            t.cfg.recompute(ir);
            let shallow = t.cfg.loop_depths_within(
                &mut t.loop_depth,
                &mut t.loop_mark,
                &mut t.loop_work,
                MAX_LOOP_DEPTH_SUM,
            );
            if shallow {
                // The block-local flags come from the same walk, and so do the mentions that
                // bar a struct local from being held field by field, when the function has a
                // candidate.
                field_wise = has_field_wise_candidate(ir);
                let live_area = fixed_locals_into(
                    ir,
                    &t.cfg,
                    &mut t.fixed_scratch,
                    &mut t.fixed,
                    &mut t.block_local,
                    field_wise.then_some(&mut t.by_fields_bad),
                    WalkExtras {
                        area_limit: MAX_LIVE_AREA,
                        track_make_reads: self.env.rematerialize,
                    },
                );
                let crossing = ir.locals.keys().filter(|&l| !t.block_local[l]).count() as u64;
                if crossing * ir.layout.len() as u64 > MAX_CROSSING
                    || live_area.is_some_and(live_area_needs_huge_tier)
                {
                    // The huge tier fixes no local (its flags are recomputed below).
                    refill(&mut t.fixed, ir.locals.len());
                    self.tier = Tier::Huge;
                }
            } else {
                self.tier = Tier::Huge;
            }
        }
        if self.tier == Tier::Huge {
            let count = ir
                .locals
                .values()
                .filter(|l| !matches!(l.ty, Type::Struct(_)) || l.packed)
                .count() as u32;
            let slot = self.new_slot(8 * count.max(1), 8);
            self.huge = Some(HugeLocals {
                slot,
                next_offset: 0,
                base: None,
            });
        }

        let t = &mut *self.t;
        if self.tier == Tier::Huge {
            block_local_locals_into(
                ir,
                &mut t.block_local_written,
                &mut t.block_local,
                MAX_BLOCK_LOCAL_SPAN,
            );
        } else {
            // The huge tier keeps every local in memory: a value live across the function
            // is what its single-pass register allocation must not have. (The CFG, the loop
            // depths and the fixed and block-local flags were computed above.)
            if field_wise {
                field_struct_locals_from(ir, self.env.module, &t.by_fields_bad, &mut t.by_fields);
            } else {
                refill(&mut t.by_fields, ir.locals.len());
            }
            header_invariant_loops_into(ir, &t.cfg, &mut t.loop_scan, &mut t.hoist_loops);
            t.hoisted.resize(t.hoist_loops.len(), Vec::new());
            if !t.hoist_loops.is_empty() {
                refill(&mut t.block_loops, ir.blocks.len());
                refill(&mut t.preheader_of, ir.blocks.len());
            }
            for (i, lp) in self.t.hoist_loops.iter().enumerate() {
                self.t.preheader_of[lp.preheader].push(i as u32);
                for &b in &lp.body {
                    self.t.block_loops[b].push(i as u32);
                }
            }
        }
        // Locals: parameters take their incoming values, the rest start as zero.
        for (i, &l) in ir.params.iter().enumerate() {
            self.t.param_index[l] = Some(i);
        }
        for (local, data) in ir.locals.iter() {
            let incoming = self.t.param_index[local].map(|i| self.t.params[next + i]);
            let repr = match data.ty {
                Type::Scalar(s) => {
                    // A local is zero until assigned. It is not defined here: the SSA construction
                    // materializes a zero in the entry block only for a read that some path
                    // reaches before any assignment, so a local that every path writes before
                    // reading costs nothing.
                    let var = self.declare_local_var(local, abi::scalar_cl(s), incoming);
                    Repr::Scalar(var, s)
                }
                Type::Vec(elem) => {
                    if let ElemType::Struct(sid) = elem {
                        self.layout(sid)?;
                    }
                    let v = match incoming {
                        Some(v) => Some(v),
                        None if self.t.block_local[local] || self.t.fixed[local] => None,
                        None => Some(self.ins().iadd_imm_s(ctx, i64::from(CTX_DEAD_HEADER))),
                    };
                    let var = self.declare_local_var(local, PTR, v);
                    Repr::Vec(var, elem)
                }
                Type::Struct(sid) => {
                    let (size, align) = self.layout(sid).map(|l| (l.size, l.align))?;
                    // A small struct parameter arrives as its bytes in one i64, a larger one
                    // as the address of the caller's copy.
                    let small = self.env.is_small_struct(sid);
                    if data.packed {
                        self.env.module.packable(sid).map_err(|why| {
                            self.unsupported(format!("local `{}` is packed but {why}", data.name))
                        })?;
                        // A packable struct fits 8 bytes, so a packed parameter arrives as its
                        // bytes in one i64. As for scalars, the all-zero value comes from the
                        // SSA construction if needed.
                        let var = self.declare_local_var(local, types::I64, incoming);
                        Repr::Packed(var, sid)
                    } else if self.t.by_fields[local] && incoming.is_none() {
                        // Zero until assigned, like a scalar local.
                        let start = self.t.field_vars.len() as u32;
                        let env = self.env;
                        let fields = env.module.structs.get(sid).map_or(&[][..], |d| &d.fields);
                        for fty in fields.iter().filter_map(|f| f.ty.as_scalar()) {
                            let var = self.declare_local_var(local, abi::scalar_cl(fty), None);
                            self.t.field_vars.push(var);
                        }
                        Repr::Fields(start, sid)
                    } else {
                        let ss = self.new_slot(size, align);
                        let addr = self.slot_addr(ss);
                        match incoming {
                            Some(p) if small => self.store_bytes(p, addr, 0, size),
                            Some(p) => self.copy_mem(addr, 0, p, 0, size),
                            None => self.zero_mem(addr, size),
                        }
                        Repr::Slot(ss, sid)
                    }
                }
            };
            self.t.locals[local] = Some(repr);
        }
        if !merged_entry {
            let jump = self.b.ins().jump(first_cl, &[]);
            self.add_pred(first, jump, start_node)?;
            self.edge_emitted(first);
            self.fill_bail(bail);
        }

        for (pos, &blk) in ir.layout.iter().enumerate() {
            let c = self.cl_block(blk)?;
            if pos > 0 || !merged_entry {
                self.b.switch_to_block(c);
                // (The prologue's values dominate a merged entry block's main line.)
                self.forget_block_values();
            }
            self.cur_block = Some(blk);
            self.node = blk.index();
            self.inst_pos = 0;
            if self.env.fuel {
                self.site_line = 0; // out_of_fuel reports no line
                let fuel = self.load(types::I64, ctx, CTX_FUEL);
                let zero = self.i64c(0);
                self.trap_if(IntCC::Equal, fuel, zero, TrapKind::OutOfFuel, None, None)?;
                let fuel1 = self.ins().iadd_imm_s(fuel, -1);
                self.store(fuel1, ctx, CTX_FUEL);
            }
            let data = &ir.blocks[blk];
            for (k, &inst) in data.insts.iter().enumerate() {
                self.inst_pos = k as u32;
                let inst_data = &ir
                    .insts
                    .get(inst)
                    .ok_or_else(|| self.malformed(format!("undeclared instruction {inst}")))?;
                self.site = self.origin(inst_data.loc);
                self.site_line = inst_data.loc.line;
                self.inst(&inst_data.kind)?;
            }
            let term = data.terminator.as_ref().ok_or_else(|| {
                self.malformed(format!("block `{}` has no terminator", data.name))
            })?;
            self.inst_pos = data.insts.len() as u32;
            self.load_loop_headers(blk)?;
            self.site = self.origin(data.term_loc);
            self.site_line = data.term_loc.line;
            self.terminator(term)?;
            self.site = self.fidx;
            if pos == 0 && merged_entry {
                // Not before: the entry block must be the first one in the layout, and a
                // block cannot be left half-filled.
                self.fill_bail(bail);
            }
        }
        self.fill_trap_blocks()?;
        // What is left unsealed is what nothing branches to: its reads see zero (sealed in
        // layout order, as cranelift-frontend sealed the blocks left at the end).
        if self.t.ssa.has_vars() {
            for &blk in &ir.layout {
                self.t.ssa.seal(self.b.func, blk.index());
            }
        }
        Ok(())
    }

    /// Records in the SSA construction that `branch`, emitted at the end of node `from`, leads
    /// to IR block `target` (see [`crate::ssa::Ssa::add_pred`]).
    fn add_pred(&mut self, target: Block, branch: cl::Inst, from: usize) -> R<()> {
        if self.t.ssa.add_pred(target.index(), branch, from) {
            Ok(())
        } else {
            Err(self.malformed(format!(
                "internal: more branches into {target} than the lowering counted"
            )))
        }
    }

    /// After the branches into IR block `target` of one terminator are recorded
    /// ([`FnLower::add_pred`]): seals its SSA node ([`crate::ssa`]) once all are.
    fn edge_emitted(&mut self, target: Block) {
        self.t.ssa.seal_if_complete(self.b.func, target.index());
    }

    fn terminator(&mut self, term: &Terminator) -> R<()> {
        match term {
            Terminator::Br(target) => {
                let t = self.cl_block(*target)?;
                let jump = self.b.ins().jump(t, &[]);
                self.add_pred(*target, jump, self.node)?;
                self.edge_emitted(*target);
            }
            Terminator::BrIf {
                cond,
                then_block,
                else_block,
            } => {
                let c = self.scalar_operand(*cond, ScalarType::Bool)?;
                let t = self.cl_block(*then_block)?;
                let e = self.cl_block(*else_block)?;
                // In the huge tier: Cranelift lays blocks out in a reverse postorder whose
                // depth-first walk takes a branch's first successor first, which puts that
                // successor's subtree AFTER the other's. Naming the block that comes later in
                // the IR layout first keeps the layout's order (a loop body right after its
                // header, not after the rest of the function), so values stay live over short
                // stretches of the linear order the single-pass allocator works in.
                //
                // In the normal tier: Cranelift's optimizer hoists loop-invariant values while it
                // walks the dominator tree, whose children it visits with the branch's second
                // successor first; leaving the loop on the first child drops the loop from its
                // walk, so the blocks of the loop visited after it get nothing hoisted
                // (Cranelift 0.135.8, `egraph/elaborate.rs`). The successor inside more loops
                // is therefore named second: `brif c, body, exit` becomes `brif !c, exit, body`.
                let swap = match self.tier {
                    Tier::Huge => self.t.layout_pos[*then_block] < self.t.layout_pos[*else_block],
                    Tier::Normal => self.t.loop_depth[*then_block] > self.t.loop_depth[*else_block],
                };
                let branch = if swap {
                    let not_c = self.negate(c, *cond);
                    self.b.ins().brif(not_c, e, &[], t, &[])
                } else {
                    self.b.ins().brif(c, t, &[], e, &[])
                };
                // One predecessor per branch, even with both targets the same block, named
                // in the order of the branch's targets (as cranelift-frontend declared them).
                let (first, second) = if swap {
                    (*else_block, *then_block)
                } else {
                    (*then_block, *else_block)
                };
                self.add_pred(first, branch, self.node)?;
                if second != first {
                    self.add_pred(second, branch, self.node)?;
                }
                self.edge_emitted(*then_block);
                self.edge_emitted(*else_block);
            }
            Terminator::Ret(value) => {
                let ret = match (self.ir.ret, value) {
                    (None, None) => None,
                    (Some(Type::Scalar(s)), Some(op)) => Some(self.scalar_operand(*op, s)?),
                    (Some(Type::Vec(_)), Some(Operand::Local(l))) => Some(self.vec_local(*l)?.0),
                    (Some(Type::Struct(sid)), Some(op)) if self.env.is_small_struct(sid) => {
                        let size = self.layout(sid)?.size;
                        Some(match self.struct_operand(*op, sid)? {
                            Repr::Packed(var, _) => self.read_var(var),
                            Repr::Slot(ss, _) => {
                                let addr = self.slot_addr(ss);
                                self.load_bytes(addr, 0, size)
                            }
                            _ => return Err(self.malformed("struct expected")),
                        })
                    }
                    (Some(Type::Struct(sid)), Some(op)) => {
                        let src = self.struct_operand(*op, sid)?;
                        let area = self
                            .retarea
                            .ok_or_else(|| self.malformed("no return area"))?;
                        self.struct_to_mem(src, sid, area, 0)?;
                        None
                    }
                    _ => return Err(self.malformed("`ret` does not match the return type")),
                };
                if self.recursive {
                    let ctx = self.ctx()?;
                    let depth = self.load(types::I64, ctx, CTX_DEPTH);
                    let depth1 = self.ins().iadd_imm_s(depth, -1);
                    self.store(depth1, ctx, CTX_DEPTH);
                }
                let ok = self.block_const(abi::STATUS, 0);
                match ret {
                    Some(v) => self.b.ins().return_(&[v, ok]),
                    None => self.b.ins().return_(&[ok]),
                };
            }
            Terminator::Trap(msg) => {
                let index = self.messages.len() as i64;
                self.messages.push(msg.clone());
                let a = self.i64c(index);
                self.emit_trap_call(TrapKind::Explicit, Some(a), None)?;
            }
        }
        Ok(())
    }

    /// The negation of the bool `c` (the value of operand `op`): the complementary comparison
    /// when `c` is an `icmp` result, else `c == 0`. When that `icmp` is the last instruction of
    /// the current block and `op` is a block-local local (its value is read nowhere else: every
    /// other read of the local in this IR block would come after the compare, and none in
    /// other blocks), the compare itself is turned around instead of leaving it dead beside
    /// its complement: one CLIF instruction less per such branch, the same machine code.
    fn negate(&mut self, c: Value, op: Operand) -> Value {
        if let ValueDef::Result(inst, 0) = self.b.func.dfg.value_def(c) {
            if let InstructionData::IntCompare {
                opcode: Opcode::Icmp,
                args,
                cond,
            } = self.b.func.dfg.insts[inst]
            {
                if self.only_read_here(op, inst) {
                    self.b.func.dfg.insts[inst] = InstructionData::IntCompare {
                        opcode: Opcode::Icmp,
                        args,
                        cond: cond.complement(),
                    };
                    return c;
                }
                return self.ins().icmp(cond.complement(), args[0], args[1]);
            }
        }
        self.ins().icmp_imm_u(IntCC::Equal, c, 0)
    }

    /// Whether the value of operand `op`, defined by `inst`, is used by nothing but the
    /// branch about to be emitted: `inst` ends the current block so far and `op` is a
    /// block-local local (see [`FnLower::negate`]).
    fn only_read_here(&self, op: Operand, inst: cl::Inst) -> bool {
        let Operand::Local(l) = op else {
            return false;
        };
        let Some(Some(Repr::Scalar(var, _))) = self.t.locals.get(l).copied() else {
            return false;
        };
        let block_local = matches!(
            self.t.var_kinds.get(var.index()),
            Some(VarKind::BlockLocal(_))
        );
        block_local
            && self
                .b
                .current_block()
                .and_then(|blk| self.b.func.layout.last_inst(blk))
                == Some(inst)
    }

    fn inst(&mut self, kind: &InstKind) -> R<()> {
        match kind {
            InstKind::Copy { dst, src } => self.copy(*dst, *src),
            InstKind::Unary { dst, op, arg } => {
                let (var, ty) = self.scalar_dst(*dst)?;
                let x = self.scalar_operand(*arg, ty)?;
                let r = match (op, ty) {
                    (UnaryOp::Neg, ScalarType::Bool) => {
                        let n = self.ins().ineg(x);
                        self.ins().band_imm_u(n, 1)
                    }
                    (UnaryOp::Neg, _) => self.ins().ineg(x),
                    (UnaryOp::Not, ScalarType::Bool) => self.ins().bxor_imm_u(x, 1),
                    (UnaryOp::Not, _) => self.ins().bnot(x),
                    // Same type in and out, as the IR; ctz/clz of 0 is the width in both.
                    (UnaryOp::Ctz, _) => self.ins().ctz(x),
                    (UnaryOp::Clz, _) => self.ins().clz(x),
                    (UnaryOp::Popcnt, _) => self.ins().popcnt(x),
                };
                self.write_var(var, r);
                Ok(())
            }
            InstKind::Binary {
                dst,
                op,
                lhs,
                rhs,
                check,
            } => self.binary(*dst, *op, *lhs, *rhs, *check),
            InstKind::Compare { dst, op, lhs, rhs } => {
                let (var, dty) = self.scalar_dst(*dst)?;
                if dty != ScalarType::Bool {
                    return Err(self.malformed("a comparison must assign a bool"));
                }
                let ty = match (lhs, rhs) {
                    (Operand::Local(_), _) => self.operand_ty(*lhs, ScalarType::I64)?,
                    _ => self.operand_ty(*rhs, ScalarType::I64)?,
                };
                let a = self.scalar_operand(*lhs, ty)?;
                let c = self.scalar_operand(*rhs, ty)?;
                let cc = match op {
                    CmpOp::Eq => IntCC::Equal,
                    CmpOp::Ne => IntCC::NotEqual,
                    CmpOp::Slt => IntCC::SignedLessThan,
                    CmpOp::Sle => IntCC::SignedLessThanOrEqual,
                    CmpOp::Sgt => IntCC::SignedGreaterThan,
                    CmpOp::Sge => IntCC::SignedGreaterThanOrEqual,
                    CmpOp::Ult => IntCC::UnsignedLessThan,
                    CmpOp::Ule => IntCC::UnsignedLessThanOrEqual,
                    CmpOp::Ugt => IntCC::UnsignedGreaterThan,
                    CmpOp::Uge => IntCC::UnsignedGreaterThanOrEqual,
                };
                let r = self.ins().icmp(cc, a, c);
                self.write_var(var, r);
                Ok(())
            }
            InstKind::Cast { dst, op, arg } => {
                let (var, to) = self.scalar_dst(*dst)?;
                let from = self.operand_ty(*arg, to)?;
                let x = self.scalar_operand(*arg, from)?;
                let r = match op {
                    CastOp::Sext => self.convert(x, from, to, true),
                    CastOp::Zext | CastOp::Trunc => self.convert(x, from, to, false),
                };
                self.write_var(var, r);
                Ok(())
            }
            InstKind::Make { dst, ty, fields } => self.make(*dst, *ty, fields),
            InstKind::GetField { dst, src, field } => {
                let (var, dty) = self.scalar_dst(*dst)?;
                let (repr, sid) = self.struct_local(*src)?;
                let (off, fty) = self.field(sid, *field)?;
                if fty != dty {
                    return Err(self.malformed("getfield destination has the wrong type"));
                }
                let v = match repr {
                    Repr::Slot(ss, _) => {
                        let addr = self.slot_addr(ss);
                        self.load(abi::scalar_cl(fty), addr, off as i32)
                    }
                    Repr::Packed(pv, _) => {
                        let p = self.read_var(pv);
                        self.packed_get(p, off, fty)
                    }
                    Repr::Fields(start, _) => {
                        let fv = self.field_var(start, *field as usize)?;
                        self.read_var(fv)
                    }
                    _ => return Err(self.malformed("struct expected")),
                };
                self.write_var(var, v);
                Ok(())
            }
            InstKind::SetField { dst, field, value } => {
                let (repr, sid) = self.struct_local(*dst)?;
                let (off, fty) = self.field(sid, *field)?;
                let v = self.scalar_operand(*value, fty)?;
                match repr {
                    Repr::Slot(ss, _) => {
                        let addr = self.slot_addr(ss);
                        self.store(v, addr, off as i32);
                    }
                    Repr::Packed(pv, _) => {
                        let p = self.read_var(pv);
                        let n = self.packed_set(p, off, fty, v);
                        self.write_var(pv, n);
                    }
                    Repr::Fields(start, _) => {
                        let fv = self.field_var(start, *field as usize)?;
                        self.write_var(fv, v);
                    }
                    _ => return Err(self.malformed("struct expected")),
                }
                Ok(())
            }
            InstKind::VecNew { dst, elem } => {
                let var = match self.repr(*dst)? {
                    Repr::Vec(var, e) if e == *elem => var,
                    _ => return Err(self.malformed("`new` destination is not a vec of that type")),
                };
                let size = self.elem_size(*elem)?;
                let ctx = self.ctx()?;
                let s = self.i64c(i64::from(size));
                let f = self.i64c(self.site_code());
                let h = self.call_rt_stub(RtFunc::New, &[ctx, s, f])?;
                // A null handle means the runtime recorded a trap: branch on the handle
                // itself (no compare with a zero constant).
                self.bail_unless(h)?;
                self.write_var(var, h);
                Ok(())
            }
            InstKind::VecLen { dst, vec } => {
                let (var, ty) = self.scalar_dst(*dst)?;
                if ty != ScalarType::I64 {
                    return Err(self.malformed("`len` must assign an i64"));
                }
                let (h, _) = self.vec_local(*vec)?;
                let len = self.vec_len(*vec, h);
                self.write_var(var, len);
                Ok(())
            }
            InstKind::VecPush { vec, value } => self.push(*vec, *value),
            InstKind::VecPop { dst, vec, check } => {
                let (h, elem) = self.vec_local(*vec)?;
                let size = self.elem_size(elem)?;
                let len = self.load(types::I64, h, HDR_LEN);
                if check.is_checked() {
                    let zero = self.block_const(types::I64, 0);
                    self.trap_if(IntCC::Equal, len, zero, TrapKind::PopEmpty, None, None)?;
                }
                let minus_one = self.block_const(types::I64, -1);
                let n = self.ins().iadd(len, minus_one);
                self.store(n, h, HDR_LEN);
                if let Some(dst) = dst {
                    let addr = self.elem_addr(h, n, size);
                    self.load_elem(*dst, elem, None, addr)?;
                }
                Ok(())
            }
            InstKind::VecGet {
                dst,
                vec,
                index,
                field,
                check,
            } => {
                let (h, elem) = self.vec_local(*vec)?;
                let size = self.elem_size(elem)?;
                let i = self.scalar_operand(*index, ScalarType::I64)?;
                if check.is_checked() {
                    let len = self.vec_len(*vec, h);
                    self.bounds_check(len, i)?;
                }
                let ptr = self.vec_ptr(*vec, h);
                let addr = self.main_line_elem_addr(ptr, i, size);
                self.load_elem(*dst, elem, *field, addr)
            }
            InstKind::VecSet {
                vec,
                index,
                field,
                value,
                check,
            } => {
                let (h, elem) = self.vec_local(*vec)?;
                let size = self.elem_size(elem)?;
                let i = self.scalar_operand(*index, ScalarType::I64)?;
                let v = self.elem_value(elem, *field, *value)?;
                if check.is_checked() {
                    let len = self.vec_len(*vec, h);
                    self.bounds_check(len, i)?;
                }
                let ptr = self.vec_ptr(*vec, h);
                let addr = self.main_line_elem_addr(ptr, i, size);
                self.store_elem(v, addr)
            }
            InstKind::VecDrop { vec } => {
                let (h, _) = self.vec_local(*vec)?;
                let ctx = self.ctx()?;
                let f = self.i64c(self.site_code());
                self.store(h, ctx, CTX_RT_HANDLE);
                let status = self.call_rt_stub(RtFunc::Drop, &[ctx, f])?;
                self.bail_if(status)
            }
            InstKind::Call { dst, func, args } => self.call(*dst, *func, args),
        }
    }
}
