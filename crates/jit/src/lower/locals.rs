//! Locals' variables and instructions' scalar and vec operands: where each scalar, vec or
//! packed local's value lives ([`VarKind`]: a variable of the SSA construction, the IR block
//! being lowered only, the value of its one assignment, or the huge tier's locals slot), and
//! reading and writing it.

use super::{imm_for, FnLower, Repr, VarKind, R};
use crate::abi::{self, PTR};
use crate::tier::MAX_BLOCK_LOCAL_SPAN;
use cranelift_codegen::ir::{types, InstBuilder, StackSlot, Value};
use cranelift_frontend::Variable;
use poolopt_ir::EntityRef;
use poolopt_ir::{ElemType, Local, Operand, ScalarType};

impl FnLower<'_, '_, '_, '_> {
    // ---------------------------------------------------------------- local variables

    /// Declares the variable of scalar, vec or packed local `local`, with its incoming value.
    ///
    /// A *block-local* local (every read is preceded by a write in the same IR block; see
    /// [`block_local_locals`]) is no variable at all: its value is known where it is read.
    /// Otherwise it is normally a variable of the SSA construction ([`crate::ssa`]): a local
    /// is zero until assigned, and without `init` it is not defined here (the construction
    /// materializes a zero in the entry block only for a read that some path reaches before
    /// any assignment, so a local that every path writes before reading costs nothing). In the
    /// huge tier it lives in 8 bytes of the function's locals slot, stored here (zero without
    /// `init`).
    ///
    /// The `Variable` returned is the lowering's own (an index of `var_kinds`); only the
    /// locals that meet the SSA construction also get one of its [`SsaVar`]s, kept in their
    /// [`VarKind`]: its per-variable tables then hold those alone (most locals of an
    /// optimized function are fixed or block-local).
    ///
    /// [`block_local_locals`]: super::block_local_locals
    /// [`SsaVar`]: crate::ssa::SsaVar
    pub(super) fn declare_local_var(
        &mut self,
        local: Local,
        ty: types::Type,
        init: Option<Value>,
    ) -> Variable {
        let i = self.t.var_kinds.len();
        let var = Variable::new(i);
        if self.t.block_values.len() <= i {
            self.t.block_values.resize(i + 1, None);
            self.t.deferred.resize(i + 1, None);
        }
        let kind = if self.t.block_local[local] && init.is_none() {
            VarKind::BlockLocal(ty)
        } else if self.t.fixed[local] {
            let early = self.hoisted_vec(local).then(|| self.t.ssa.declare_var(ty));
            if let (Some(v), Some(sv)) = (init, early) {
                self.t.ssa.def_var(sv, self.node, v);
            }
            VarKind::Fixed {
                value: init,
                early,
                ty,
            }
        } else if let Some(mem) = self.huge.as_mut() {
            let offset = mem.next_offset;
            mem.next_offset += 8;
            VarKind::Memory(offset, ty)
        } else {
            let sv = self.t.ssa.declare_var(ty);
            if let Some(v) = init {
                self.t.ssa.def_var(sv, self.node, v);
            }
            VarKind::Ssa(sv)
        };
        self.t.var_kinds.push(kind);
        if let VarKind::Memory(..) = kind {
            let v = init.unwrap_or_else(|| self.ins().iconst(ty, 0));
            self.write_var(var, v);
        }
        var
    }

    /// Whether `vec`'s header is loaded in the preheader of a hoisted loop
    /// ([`header_invariant_loops`]): the one read of a local the lowering adds itself.
    ///
    /// [`header_invariant_loops`]: super::header_invariant_loops
    fn hoisted_vec(&self, vec: Local) -> bool {
        self.t
            .hoist_loops
            .iter()
            .any(|lp| lp.vecs.iter().any(|&(v, _, _)| v == vec))
    }

    /// In the huge tier, the address of the locals slot, computed once per IR block.
    fn huge_base(&mut self, slot: StackSlot) -> Value {
        if let Some(base) = self.huge.as_ref().and_then(|m| m.base) {
            return base;
        }
        let base = self.ins().stack_addr(PTR, slot, 0);
        if let Some(mem) = self.huge.as_mut() {
            mem.base = Some(base);
        }
        base
    }

    /// Records that a local's variable holds `v` from here to the end of the IR block.
    fn remember(&mut self, i: usize, v: Value) {
        if let Some(slot) = self.t.block_values.get_mut(i) {
            if slot.is_none() {
                self.t.known.push(i);
            }
            *slot = Some((v, self.inst_pos));
        }
    }

    /// The value remembered for variable `i` in this IR block, if any, unless it is a huge-tier
    /// local in memory last written or loaded more than [`MAX_BLOCK_LOCAL_SPAN`] instructions
    /// ago: that one is loaded again, so that few values stay live across the block's checks
    /// (see [`block_local_locals_into`]).
    ///
    /// [`block_local_locals_into`]: super::block_local_locals_into
    fn remembered(&self, i: usize) -> Option<Value> {
        let (v, at) = self.t.block_values.get(i).copied().flatten()?;
        let far = self.huge.is_some()
            && self.inst_pos.saturating_sub(at) > MAX_BLOCK_LOCAL_SPAN
            && matches!(self.t.var_kinds.get(i), Some(VarKind::Memory(..)));
        (!far).then_some(v)
    }

    /// Forgets the values known in the IR block just lowered.
    pub(super) fn forget_block_values(&mut self) {
        self.t.block_consts.clear();
        self.t.elem_addrs.clear();
        for i in self.t.known.drain(..) {
            self.t.block_values[i] = None;
        }
        if let Some(mem) = self.huge.as_mut() {
            mem.base = None;
        }
    }

    /// The current value of a local's variable.
    pub(super) fn read_var(&mut self, var: Variable) -> Value {
        let i = var.index();
        if let Some(v) = self.remembered(i) {
            return v;
        }
        if let Some(d) = self
            .any_deferred
            .then(|| self.t.deferred.get(i).copied().flatten())
            .flatten()
        {
            // Computed here, and remembered for the rest of this IR block.
            let (inst, dfg) = self.ins().Binary(d.op, d.ty, d.x, d.c);
            let v = dfg.first_result(inst);
            self.remember(i, v);
            return v;
        }
        match self.t.var_kinds[i] {
            VarKind::Ssa(sv) => self.t.ssa.use_var(self.b.func, sv, self.node),
            // Never read before its write in the block (see `block_local_locals`); the
            // local's initial zero keeps this total.
            VarKind::BlockLocal(ty) => self.ins().iconst(ty, 0),
            // Every IR read is lowered after the assignment (see `fixed_locals`) and gets its
            // value directly. A read the lowering adds itself can come earlier (a hoisted loop
            // header's vec, loaded at the end of a preheader laid out before the block that
            // creates the vec): the assignment also defined the SSA variable, so the SSA
            // construction answers that one.
            VarKind::Fixed { value: Some(v), .. } => v,
            VarKind::Fixed {
                value: None,
                early,
                ty,
            } => {
                debug_assert!(early.is_some(), "a fixed local read before its assignment");
                match early {
                    Some(sv) => self.t.ssa.use_var(self.b.func, sv, self.node),
                    // Unreachable (see `fixed_locals`); the local's initial zero keeps this
                    // total.
                    None => self.ins().iconst(ty, 0),
                }
            }
            VarKind::Memory(offset, ty) => {
                let Some(slot) = self.huge.as_ref().map(|m| m.slot) else {
                    // Unreachable: only the huge tier keeps locals in memory.
                    return self.ins().iconst(ty, 0);
                };
                let base = self.huge_base(slot);
                let v = self.load(ty, base, offset as i32);
                self.remember(i, v);
                v
            }
        }
    }

    /// Assigns a local's variable.
    pub(super) fn write_var(&mut self, var: Variable, v: Value) {
        let i = var.index();
        if self.any_deferred {
            if let Some(d) = self.t.deferred.get_mut(i) {
                *d = None;
            }
        }
        match self.t.var_kinds[i] {
            VarKind::Ssa(sv) => {
                self.t.ssa.def_var(sv, self.node, v);
                return;
            }
            VarKind::BlockLocal(_) => {}
            VarKind::Fixed { early, ty, .. } => {
                self.t.var_kinds[i] = VarKind::Fixed {
                    value: Some(v),
                    early,
                    ty,
                };
                if let Some(sv) = early {
                    self.t.ssa.def_var(sv, self.node, v);
                }
                return;
            }
            VarKind::Memory(offset, _) => {
                if let Some(slot) = self.huge.as_ref().map(|m| m.slot) {
                    let base = self.huge_base(slot);
                    self.store(v, base, offset as i32);
                }
            }
        }
        self.remember(i, v);
    }

    // ---------------------------------------------------------------- operands

    fn scalar_local(&mut self, l: Local) -> R<(Value, ScalarType)> {
        match self.repr(l)? {
            Repr::Scalar(var, ty) => Ok((self.read_var(var), ty)),
            _ => Err(self.malformed(format!(
                "local `{}` is used as a scalar but is not one",
                self.local_name(l)
            ))),
        }
    }

    /// The value of a scalar operand of type `ty`.
    pub(super) fn scalar_operand(&mut self, op: Operand, ty: ScalarType) -> R<Value> {
        match op {
            Operand::Const(c) => Ok(self.block_const(abi::scalar_cl(ty), imm_for(ty, c))),
            Operand::Local(l) => {
                let (v, lt) = self.scalar_local(l)?;
                if lt != ty {
                    return Err(self.malformed(format!(
                        "local `{}` has type {lt}, expected {ty}",
                        self.local_name(l)
                    )));
                }
                Ok(v)
            }
        }
    }

    /// The scalar type of a local operand, or `default` for a constant.
    pub(super) fn operand_ty(&self, op: Operand, default: ScalarType) -> R<ScalarType> {
        match op {
            Operand::Const(_) => Ok(default),
            Operand::Local(l) => match self.repr(l)? {
                Repr::Scalar(_, ty) => Ok(ty),
                _ => Err(self.malformed(format!(
                    "local `{}` is used as a scalar but is not one",
                    self.local_name(l)
                ))),
            },
        }
    }

    pub(super) fn scalar_dst(&self, l: Local) -> R<(Variable, ScalarType)> {
        match self.repr(l)? {
            Repr::Scalar(var, ty) => Ok((var, ty)),
            _ => Err(self.malformed(format!(
                "local `{}` is assigned a scalar but is not one",
                self.local_name(l)
            ))),
        }
    }

    pub(super) fn vec_local(&mut self, l: Local) -> R<(Value, ElemType)> {
        match self.repr(l)? {
            Repr::Vec(var, elem) => Ok((self.read_var(var), elem)),
            _ => Err(self.malformed(format!(
                "local `{}` is used as a vec but is not one",
                self.local_name(l)
            ))),
        }
    }
}
