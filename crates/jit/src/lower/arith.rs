//! Scalar arithmetic: binary operations, conversions between integer types, the divisor tests
//! of division and remainder (zero traps; signed division takes its own path for -1, so the
//! machine's `idiv` never faults), and the deferral of cheap computations that only `make`s
//! read at `opt_level=none` ([`FnLower::deferred_binary`]).

use super::{imm_for, Deferred, FnLower, Repr, VarKind, R};
use crate::abi;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Opcode, Value};
use cranelift_frontend::Variable;
use poolopt_ir::EntityRef;
use poolopt_ir::{BinaryOp, Check, Local, Operand, ScalarType, TrapKind};

impl FnLower<'_, '_, '_, '_> {
    /// Converts an integer value between scalar types (`signed` picks sign- or zero-extension
    /// when widening); converting to `bool` keeps the low bit.
    pub(super) fn convert(
        &mut self,
        v: Value,
        from: ScalarType,
        to: ScalarType,
        signed: bool,
    ) -> Value {
        let (fc, tc) = (abi::scalar_cl(from), abi::scalar_cl(to));
        let mut v = if tc.bits() > fc.bits() {
            if signed {
                self.ins().sextend(tc, v)
            } else {
                self.ins().uextend(tc, v)
            }
        } else if tc.bits() < fc.bits() {
            self.ins().ireduce(tc, v)
        } else {
            v
        };
        if to == ScalarType::Bool && from != ScalarType::Bool {
            v = self.ins().band_imm_u(v, 1);
        }
        v
    }

    pub(super) fn binary(
        &mut self,
        dst: Local,
        op: BinaryOp,
        lhs: Operand,
        rhs: Operand,
        check: Check,
    ) -> R<()> {
        let (var, ty) = self.scalar_dst(dst)?;
        if self.deferred_binary(dst, var, ty, op, lhs, rhs)? {
            return Ok(());
        }
        let x = self.scalar_operand(lhs, ty)?;
        let is_shift = matches!(op, BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr);
        let rty = if is_shift {
            self.operand_ty(rhs, ty)?
        } else {
            ty
        };
        let y = self.scalar_operand(rhs, rty)?;
        let r = match op {
            BinaryOp::Add => self.ins().iadd(x, y),
            BinaryOp::Sub => self.ins().isub(x, y),
            BinaryOp::Mul => self.ins().imul(x, y),
            BinaryOp::And => self.ins().band(x, y),
            BinaryOp::Or => self.ins().bor(x, y),
            BinaryOp::Xor => self.ins().bxor(x, y),
            // A bool is one bit wide: every shift amount is 0 modulo 1.
            _ if is_shift && ty == ScalarType::Bool => x,
            // Cranelift takes shift amounts modulo the bit width, as the IR does.
            BinaryOp::Shl => self.ins().ishl(x, y),
            BinaryOp::LShr => self.ins().ushr(x, y),
            BinaryOp::AShr => self.ins().sshr(x, y),
            BinaryOp::SDiv | BinaryOp::UDiv | BinaryOp::SRem | BinaryOp::URem => {
                // The divisor test is skipped for an unchecked division (a pass proved it, or
                // the trusted input vouches for it) and for a constant divisor that passes it.
                let proven = !check.is_checked()
                    || rhs
                        .as_const()
                        .is_some_and(|c| op.unchecked_divisor_ok(ty.wrap(c)));
                if proven {
                    self.div_rem_unchecked(op, x, y)
                } else {
                    self.div_rem(op, ty, x, y)?
                }
            }
        };
        let r = if ty == ScalarType::Bool && !op.is_logical() && !is_shift {
            self.ins().band_imm_u(r, 1)
        } else {
            r
        };
        self.write_var(var, r);
        Ok(())
    }

    /// At `opt_level=none` (where [`FnLower::rematerialized`] copies cheap field values to
    /// their stores), `dst = lhs op c` for a block-local `dst` that only `make`s read is not
    /// computed here: `dst`'s variable holds the computation ([`Deferred`]), a `make` into a
    /// struct local held field by field and assigned once hands it on to the field's variable,
    /// and the first read in each IR block computes it there ([`FnLower::read_var`]). An
    /// inlined constructor's fields (`f_k = add x, k`, then `s = make S(f_0, …)`) stored in
    /// both arms of a branch were computed before the branch and again at each store, the
    /// first copies unused: Cranelift still paid for each in every pass before lowering.
    ///
    /// Sound: the operand `x` and the constant `c` are Cranelift values defined here, before
    /// the `make`; a field variable assigned once is read only where its `make` dominates
    /// ([`crate::fixed_locals`]), and a block-local variable only later in this IR block, so
    /// both dominate every place the computation lands; it is pure and cannot trap, so it
    /// gives the same value anywhere. Any other assignment of the variable forgets it
    /// ([`FnLower::write_var`]). Returns whether `dst` was deferred.
    fn deferred_binary(
        &mut self,
        dst: Local,
        var: Variable,
        ty: ScalarType,
        op: BinaryOp,
        lhs: Operand,
        rhs: Operand,
    ) -> R<bool> {
        if !self.env.rematerialize || self.huge.is_some() {
            return Ok(false);
        }
        let opcode = match op {
            BinaryOp::Add => Opcode::Iadd,
            BinaryOp::Sub => Opcode::Isub,
            BinaryOp::And => Opcode::Band,
            BinaryOp::Or => Opcode::Bor,
            BinaryOp::Xor => Opcode::Bxor,
            _ => return Ok(false),
        };
        let eligible = ty != ScalarType::Bool
            && matches!((lhs, rhs), (Operand::Local(_), Operand::Const(_)))
            && matches!(
                self.t.var_kinds.get(var.index()),
                Some(VarKind::BlockLocal(_))
            )
            && self.t.fixed_scratch.read_only_by_make(dst);
        if !eligible {
            return Ok(false);
        }
        let x = self.scalar_operand(lhs, ty)?;
        let c = self.scalar_operand(rhs, ty)?;
        let i = var.index();
        // The variable's earlier value in this block, if any, is no longer its value.
        if let Some(slot) = self.t.block_values.get_mut(i) {
            *slot = None;
        }
        self.any_deferred = true;
        self.t.deferred[i] = Some(Deferred {
            op: opcode,
            ty: abi::scalar_cl(ty),
            x,
            c,
        });
        Ok(true)
    }

    /// The computation operand `op` of a `make` waits for ([`FnLower::deferred_binary`]),
    /// if it is a local of type `ty` whose variable holds one.
    pub(super) fn deferred_operand(&self, op: Operand, ty: ScalarType) -> Option<Deferred> {
        let Operand::Local(l) = op else {
            return None;
        };
        match self.t.locals.get(l).copied().flatten() {
            Some(Repr::Scalar(var, lt)) if lt == ty => {
                if self
                    .t
                    .block_values
                    .get(var.index())
                    .copied()
                    .flatten()
                    .is_some()
                {
                    return None;
                }
                self.t.deferred.get(var.index()).copied().flatten()
            }
            _ => None,
        }
    }

    /// A division whose divisor is known to pass its test (not 0; not -1 for `sdiv`): the
    /// bare Cranelift instruction. Cranelift's `sdiv`/`udiv`/`srem`/`urem` fault on a zero
    /// divisor and `sdiv` on `MIN / -1`, which the precondition excludes.
    fn div_rem_unchecked(&mut self, op: BinaryOp, x: Value, y: Value) -> Value {
        match op {
            BinaryOp::UDiv => self.ins().udiv(x, y),
            BinaryOp::URem => self.ins().urem(x, y),
            BinaryOp::SRem => self.ins().srem(x, y),
            _ => self.ins().sdiv(x, y),
        }
    }

    fn div_rem(&mut self, op: BinaryOp, ty: ScalarType, x: Value, y: Value) -> R<Value> {
        let zero = self.block_const(abi::scalar_cl(ty), 0);
        self.trap_if(IntCC::Equal, y, zero, TrapKind::DivZero, None, None)?;
        match op {
            BinaryOp::UDiv => return Ok(self.ins().udiv(x, y)),
            BinaryOp::URem => return Ok(self.ins().urem(x, y)),
            // Cranelift's `srem` is defined for the divisor -1 (x % -1 = 0, also for MIN): its
            // x86-64 lowering (`CheckedSRemSeq`, `CheckedSRemSeq8`) tests for -1 itself and
            // never reaches `idiv` with it. A second test here would only repeat that one.
            BinaryOp::SRem => return Ok(self.ins().srem(x, y)),
            _ => {}
        }
        // `MIN / -1` would fault in `idiv` (Cranelift's `sdiv` traps on it): the divisor -1
        // takes its own path (x / -1 = -x, wrapping).
        let minus_one = self.block_const(abi::scalar_cl(ty), imm_for(ty, -1));
        let is_m1 = self.ins().icmp(IntCC::Equal, y, minus_one);
        let m1_blk = self.b.create_block();
        let div_blk = self.b.create_block();
        let join = self.b.create_block();
        let cty = abi::scalar_cl(ty);
        let r = self.b.append_block_param(join, cty);
        self.b.ins().brif(is_m1, m1_blk, &[], div_blk, &[]);
        self.b.switch_to_block(m1_blk);
        let special = self.ins().ineg(x);
        self.b.ins().jump(join, &[special.into()]);
        self.b.switch_to_block(div_blk);
        let q = self.ins().sdiv(x, y);
        self.b.ins().jump(join, &[q.into()]);
        self.b.switch_to_block(join);
        Ok(r)
    }
}
