//! Building instructions at the end of the current block: constants (on an IR block's main
//! line, once per block: [`FnLower::block_const`]), loads and stores with the function's
//! interned `notrap` flags, stack slots, and byte-wise copies (struct copies move 16 bytes at a
//! time through SSE registers).

use super::{imm_for, FnLower};
use crate::abi::{self, PTR};
use crate::append::AppendIns;
use cranelift_codegen::ir::{
    types, InstBuilder, Opcode, StackSlot, StackSlotData, StackSlotKind, Value,
};
use poolopt_ir::ScalarType;

impl FnLower<'_, '_, '_, '_> {
    /// A builder for one instruction at the end of the current block (see [`crate::append`]).
    pub(super) fn ins(&mut self) -> AppendIns<'_> {
        self.b.ins()
    }

    pub(super) fn iconst(&mut self, ty: ScalarType, c: i64) -> Value {
        self.ins().iconst(abi::scalar_cl(ty), imm_for(ty, c))
    }

    pub(super) fn i64c(&mut self, c: i64) -> Value {
        self.ins().iconst(types::I64, c)
    }

    /// A constant on the IR block's main line, created once per IR block (the main line's
    /// blocks dominate each other in order; see [`block_local_locals`]). Never use it on a
    /// cold path (trap edges, growth, the bail block) or on a branch off the main line, unless
    /// the cache is truncated back afterwards (as `push` does for its two stores).
    ///
    /// [`block_local_locals`]: super::block_local_locals
    pub(super) fn block_const(&mut self, ty: types::Type, c: i64) -> Value {
        if let Some(v) = self.t.block_consts.get(ty, c) {
            return v;
        }
        let v = self.ins().iconst(ty, c);
        self.t.block_consts.push(ty, c, v);
        v
    }

    /// A load with the function's interned `notrap` flags (`InstBuilder::load` would look the
    /// flags up in the function's flag set, a hash, for every access).
    pub(super) fn load(&mut self, ty: types::Type, addr: Value, off: i32) -> Value {
        let notrap = self.notrap;
        let (inst, dfg) = self.ins().Load(Opcode::Load, ty, notrap, off.into(), addr);
        dfg.first_result(inst)
    }

    /// A store with the function's interned `notrap` flags (see [`FnLower::load`]).
    pub(super) fn store(&mut self, v: Value, addr: Value, off: i32) {
        let ty = self.b.func.dfg.value_type(v);
        let notrap = self.notrap;
        self.ins()
            .Store(Opcode::Store, ty, notrap, off.into(), v, addr);
    }

    pub(super) fn new_slot(&mut self, size: u32, align: u32) -> StackSlot {
        let align_shift = align.max(1).trailing_zeros().min(4) as u8;
        self.slot_bytes += u64::from(size.max(1)) + u64::from(align.max(1));
        self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            size.max(1),
            align_shift,
        ))
    }

    pub(super) fn slot_addr(&mut self, ss: StackSlot) -> Value {
        self.ins().stack_addr(PTR, ss, 0)
    }

    /// Power-of-two chunks (8, 4, 2, 1) covering `size` bytes, as (offset, bytes), largest
    /// first.
    fn chunks(size: u32) -> impl Iterator<Item = (u32, u32)> {
        let mut off = 0;
        std::iter::from_fn(move || {
            let chunk = match size - off {
                0 => return None,
                rest if rest >= 8 => 8,
                rest if rest >= 4 => 4,
                rest if rest >= 2 => 2,
                _ => 1,
            };
            let piece = (off, chunk);
            off += chunk;
            Some(piece)
        })
    }

    fn chunk_ty(bytes: u32) -> types::Type {
        match bytes {
            8 => types::I64,
            4 => types::I32,
            2 => types::I16,
            _ => types::I8,
        }
    }

    /// Copies `size` bytes from `src` to `dst` (both addresses), every byte: 16 bytes at a
    /// time through an SSE register (`movdqu`, x86-64's baseline; no alignment needed), the
    /// rest in 8-, 4-, 2- and 1-byte pieces. A 128-byte struct is 8 loads and 8 stores.
    pub(super) fn copy_mem(
        &mut self,
        dst: Value,
        dst_off: i32,
        src: Value,
        src_off: i32,
        size: u32,
    ) {
        let wide = size / 16 * 16;
        for off in (0..wide).step_by(16) {
            let v = self.load(types::I8X16, src, src_off + off as i32);
            self.store(v, dst, dst_off + off as i32);
        }
        for (off, bytes) in Self::chunks(size - wide) {
            let off = wide + off;
            let ty = Self::chunk_ty(bytes);
            let v = self.load(ty, src, src_off + off as i32);
            self.store(v, dst, dst_off + off as i32);
        }
    }

    pub(super) fn zero_mem(&mut self, dst: Value, size: u32) {
        for (off, bytes) in Self::chunks(size) {
            let ty = Self::chunk_ty(bytes);
            let z = self.block_const(ty, 0);
            self.store(z, dst, off as i32);
        }
    }

    /// Loads `size` (at most 8) bytes at `addr + off` into the low bytes of an i64.
    pub(super) fn load_bytes(&mut self, addr: Value, off: i32, size: u32) -> Value {
        let mut acc: Option<Value> = None;
        for (o, bytes) in Self::chunks(size.min(8)) {
            let ty = Self::chunk_ty(bytes);
            let mut v = self.load(ty, addr, off + o as i32);
            if ty != types::I64 {
                v = self.ins().uextend(types::I64, v);
            }
            if o > 0 {
                v = self.ins().ishl_imm_u(v, i64::from(8 * o));
            }
            acc = Some(match acc {
                None => v,
                Some(a) => self.ins().bor(a, v),
            });
        }
        acc.unwrap_or_else(|| self.i64c(0))
    }

    /// Stores the low `size` (at most 8) bytes of the i64 `v` at `addr + off`.
    pub(super) fn store_bytes(&mut self, v: Value, addr: Value, off: i32, size: u32) {
        for (o, bytes) in Self::chunks(size.min(8)) {
            let ty = Self::chunk_ty(bytes);
            let mut part = v;
            if o > 0 {
                part = self.ins().ushr_imm_u(part, i64::from(8 * o));
            }
            if ty != types::I64 {
                part = self.ins().ireduce(ty, part);
            }
            self.store(part, addr, off + o as i32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_every_byte() {
        let chunks = |size| FnLower::chunks(size).collect::<Vec<_>>();
        assert_eq!(chunks(8), vec![(0, 8)]);
        assert_eq!(chunks(12), vec![(0, 8), (8, 4)]);
        assert_eq!(chunks(7), vec![(0, 4), (4, 2), (6, 1)]);
        assert_eq!(chunks(128).len(), 16);
        assert!(chunks(0).is_empty());
    }
}
