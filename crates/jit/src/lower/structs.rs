//! Struct values: a struct local lives in a stack slot, packed into one `i64` variable, or in
//! one variable per field ([`Repr`]); building one (`make`), copying, reading and writing the
//! fields of a packed one, and moving struct values between these forms and memory.

use super::{FnLower, Repr, VarKind, R};
use crate::abi;
use cranelift_codegen::ir::{types, InstBuilder, InstructionData, Opcode, Value, ValueDef};
use cranelift_frontend::Variable;
use poolopt_ir::EntityRef;
use poolopt_ir::{Local, Operand, ScalarType, StructId};

impl FnLower<'_, '_, '_, '_> {
    pub(super) fn struct_repr(&self, l: Local, sid: StructId) -> R<Repr> {
        match self.repr(l)? {
            r @ (Repr::Slot(_, s) | Repr::Packed(_, s) | Repr::Fields(_, s)) if s == sid => Ok(r),
            _ => Err(self.malformed(format!(
                "local `{}` is not a `{}`",
                self.local_name(l),
                self.env
                    .module
                    .structs
                    .get(sid)
                    .map_or("?", |d| d.name.as_str())
            ))),
        }
    }

    pub(super) fn struct_local(&self, l: Local) -> R<(Repr, StructId)> {
        match self.repr(l)? {
            r @ (Repr::Slot(_, s) | Repr::Packed(_, s) | Repr::Fields(_, s)) => Ok((r, s)),
            _ => Err(self.malformed(format!("local `{}` is not a struct", self.local_name(l)))),
        }
    }

    pub(super) fn struct_operand(&self, op: Operand, sid: StructId) -> R<Repr> {
        match op {
            Operand::Local(l) => self.struct_repr(l, sid),
            Operand::Const(_) => Err(self.malformed("a constant is used as a struct value")),
        }
    }

    /// Writes the struct value `src` to memory at `addr + off`.
    pub(super) fn struct_to_mem(
        &mut self,
        src: Repr,
        sid: StructId,
        addr: Value,
        off: i32,
    ) -> R<()> {
        let size = self.layout(sid)?.size;
        match src {
            Repr::Slot(ss, _) => {
                let from = self.slot_addr(ss);
                self.copy_mem(addr, off, from, 0, size);
            }
            Repr::Packed(var, _) => {
                let v = self.read_var(var);
                self.store_bytes(v, addr, off, size);
            }
            Repr::Fields(start, _) => {
                let n = self.layout(sid)?.offsets.len();
                for i in 0..n {
                    let (foff, _) = self.field(sid, i as u32)?;
                    let var = self.field_var(start, i)?;
                    let v = self.read_var(var);
                    let v = self.rematerialized(v);
                    self.store(v, addr, off + foff as i32);
                }
            }
            _ => return Err(self.malformed("struct expected")),
        }
        Ok(())
    }

    /// `v`, or (with [`LowerEnv::rematerialize`]) a copy of its computation here when another
    /// block computed it with one cheap pure instruction from values that stay available
    /// (`iconst`, or `iadd`/`isub`/`band`/`bor`/`bxor` with a constant operand).
    ///
    /// What it is for: an owner that inlines a constructor and an allocator computes a wide
    /// struct's fields before the allocator's branch and stores them in both arms, the push's
    /// after its grow call; the field values, live across both, made regalloc2 the largest
    /// part of a short run. The copy leaves one value live there (the operand), and the
    /// original goes unused, which Cranelift does not lower. Sound: the original's operands
    /// are defined before it, which dominates this use, so they dominate the copy too; a pure
    /// instruction computes the same value from the same operands anywhere. At `opt_level=
    /// speed` the egraph places every pure value at its uses itself, so the copy would only
    /// add work there.
    ///
    /// [`LowerEnv::rematerialize`]: super::LowerEnv::rematerialize
    fn rematerialized(&mut self, v: Value) -> Value {
        if !self.env.rematerialize {
            return v;
        }
        let dfg = &self.b.func.dfg;
        let ValueDef::Result(inst, 0) = dfg.value_def(v) else {
            return v;
        };
        if self.b.func.layout.inst_block(inst) == self.b.current_block() {
            return v;
        }
        let ty = dfg.value_type(v);
        let is_const = |x: Value| {
            matches!(dfg.value_def(x), ValueDef::Result(i, 0)
                if matches!(dfg.insts[i], InstructionData::UnaryImm { opcode: Opcode::Iconst, .. }))
        };
        match dfg.insts[inst] {
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => self.ins().iconst(ty, imm),
            InstructionData::Binary {
                opcode:
                    op @ (Opcode::Iadd | Opcode::Isub | Opcode::Band | Opcode::Bor | Opcode::Bxor),
                args: [x, y],
            } if is_const(x) || is_const(y) => {
                let (inst, dfg) = self.ins().Binary(op, ty, x, y);
                dfg.first_result(inst)
            }
            _ => v,
        }
    }

    /// Field `i`'s variable of a [`Repr::Fields`] local whose variables start at `start`.
    pub(super) fn field_var(&self, start: u32, i: usize) -> R<Variable> {
        self.t
            .field_vars
            .get(start as usize + i)
            .copied()
            .ok_or_else(|| self.malformed("field of a field-wise struct out of range"))
    }

    /// Reads the struct value at `addr + off` into struct local `dst`.
    pub(super) fn mem_to_struct(
        &mut self,
        dst: Repr,
        sid: StructId,
        addr: Value,
        off: i32,
    ) -> R<()> {
        let size = self.layout(sid)?.size;
        match dst {
            Repr::Slot(ss, _) => {
                let to = self.slot_addr(ss);
                self.copy_mem(to, 0, addr, off, size);
            }
            Repr::Packed(var, _) => {
                let v = self.load_bytes(addr, off, size);
                self.write_var(var, v);
            }
            _ => return Err(self.malformed("struct expected")),
        }
        Ok(())
    }

    /// The address of a struct value held in a stack slot (a struct passed by address is
    /// larger than 8 bytes, so it is never packed: packed locals fit one integer).
    pub(super) fn struct_address(&mut self, src: Repr) -> R<Value> {
        match src {
            Repr::Slot(ss, _) => Ok(self.slot_addr(ss)),
            _ => Err(self.malformed("struct expected")),
        }
    }

    pub(super) fn copy(&mut self, dst: Local, src: Operand) -> R<()> {
        match self.repr(dst)? {
            Repr::Scalar(var, ty) => {
                let v = self.scalar_operand(src, ty)?;
                self.write_var(var, v);
            }
            Repr::Vec(var, elem) => {
                let Operand::Local(s) = src else {
                    return Err(self.malformed("a constant is copied into a vec local"));
                };
                let (v, e) = self.vec_local(s)?;
                if e != elem {
                    return Err(self.malformed("vec copy between different element types"));
                }
                self.write_var(var, v);
            }
            dst_repr @ (Repr::Slot(_, sid) | Repr::Packed(_, sid)) => {
                let src_repr = self.struct_operand(src, sid)?;
                match (dst_repr, src_repr) {
                    (Repr::Packed(dv, _), Repr::Packed(sv, _)) => {
                        let v = self.read_var(sv);
                        self.write_var(dv, v);
                    }
                    (Repr::Slot(ss, _), s) => {
                        let addr = self.slot_addr(ss);
                        self.struct_to_mem(s, sid, addr, 0)?;
                    }
                    (d @ Repr::Packed(..), Repr::Slot(ss, _)) => {
                        let addr = self.slot_addr(ss);
                        self.mem_to_struct(d, sid, addr, 0)?;
                    }
                    _ => return Err(self.malformed("struct copy between non-structs")),
                }
            }
            // `field_struct_locals` admits no copy into such a local.
            Repr::Fields(..) => {
                return Err(self.malformed("copy into a struct local held field by field"))
            }
        }
        Ok(())
    }

    pub(super) fn packed_get(&mut self, packed: Value, off: u32, fty: ScalarType) -> Value {
        let shifted = if off > 0 {
            self.ins().ushr_imm_u(packed, i64::from(8 * off))
        } else {
            packed
        };
        let cty = abi::scalar_cl(fty);
        let v = if cty == types::I64 {
            shifted
        } else {
            self.ins().ireduce(cty, shifted)
        };
        if fty == ScalarType::Bool {
            self.ins().band_imm_u(v, 1)
        } else {
            v
        }
    }

    fn field_bits(v: Value, fty: ScalarType, off: u32, s: &mut Self) -> Value {
        let wide = if abi::scalar_cl(fty) == types::I64 {
            v
        } else {
            s.ins().uextend(types::I64, v)
        };
        if off > 0 {
            s.ins().ishl_imm_u(wide, i64::from(8 * off))
        } else {
            wide
        }
    }

    pub(super) fn packed_set(
        &mut self,
        packed: Value,
        off: u32,
        fty: ScalarType,
        v: Value,
    ) -> Value {
        let bits = fty.size() * 8;
        let ones: u64 = if bits >= 64 { !0 } else { (1u64 << bits) - 1 };
        let mask = ones.checked_shl(8 * off).unwrap_or(0);
        let cleared = self.ins().band_imm_u(packed, !mask as i64);
        let placed = Self::field_bits(v, fty, off, self);
        self.ins().bor(cleared, placed)
    }

    pub(super) fn make(&mut self, dst: Local, sid: StructId, fields: &[Operand]) -> R<()> {
        let dst_repr = self.struct_repr(dst, sid)?;
        let nfields = self
            .env
            .module
            .structs
            .get(sid)
            .map_or(0, |d| d.fields.len());
        if fields.len() != nfields {
            return Err(self.malformed(format!(
                "`make` has {} operands for {nfields} fields",
                fields.len()
            )));
        }
        if let Repr::Fields(start, _) = dst_repr {
            // Field by field, a deferred computation handed on to a field variable assigned
            // only here (see `deferred_binary`).
            for (i, op) in fields.iter().enumerate() {
                let (_, fty) = self.field(sid, i as u32)?;
                let fv = self.field_var(start, i)?;
                let fixed = matches!(
                    self.t.var_kinds.get(fv.index()),
                    Some(VarKind::Fixed { .. })
                );
                let deferred = (fixed && self.any_deferred)
                    .then(|| self.deferred_operand(*op, fty))
                    .flatten();
                if let Some(d) = deferred {
                    self.t.deferred[fv.index()] = Some(d);
                    continue;
                }
                let v = self.scalar_operand(*op, fty)?;
                self.write_var(fv, v);
            }
            return Ok(());
        }
        let mut values = Vec::with_capacity(fields.len());
        for (i, op) in fields.iter().enumerate() {
            let (off, fty) = self.field(sid, i as u32)?;
            values.push((off, fty, self.scalar_operand(*op, fty)?));
        }
        match dst_repr {
            Repr::Slot(ss, _) => {
                let addr = self.slot_addr(ss);
                for (off, _, v) in values {
                    self.store(v, addr, off as i32);
                }
            }
            Repr::Packed(var, _) => {
                let mut acc: Option<Value> = None;
                for (off, fty, v) in values {
                    let bits = Self::field_bits(v, fty, off, self);
                    acc = Some(match acc {
                        None => bits,
                        Some(a) => self.ins().bor(a, bits),
                    });
                }
                let v = acc.unwrap_or_else(|| self.i64c(0));
                self.write_var(var, v);
            }
            // (`Repr::Fields` took the way above.)
            _ => return Err(self.malformed("struct expected")),
        }
        Ok(())
    }
}
