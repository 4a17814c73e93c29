//! Vec element accesses and pushes: header loads (hoisted into a loop's preheader where
//! [`header_invariant_loops`](super::header_invariant_loops) allows), element addresses (reused
//! on an IR block's main line), the bounds check (one unsigned compare), element loads and
//! stores, and `push` (an inline store when `len < cap`, else a cold path through the runtime's
//! `grow`). The instructions themselves (`len`, `pop`, `get`, `set`, `new`, `drop`) are
//! dispatched by [`FnLower::inst`].

use super::{FnLower, Repr, R};
use crate::abi::{self, PTR};
use crate::runtime::{RtFunc, CTX_RT_HANDLE, HDR_CAP, HDR_LEN, HDR_PTR};
use crate::tier::Tier;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{self as cl, types, InstBuilder, Value};
use poolopt_ir::{Block, ElemType, Local, Operand, StructId, TrapKind};

impl FnLower<'_, '_, '_, '_> {
    /// At the end of preheader `blk`, loads the headers its loops use (length and data
    /// pointer of each vec, as needed) once, for every block of the loop.
    pub(super) fn load_loop_headers(&mut self, blk: Block) -> R<()> {
        if self.t.hoist_loops.is_empty() {
            return Ok(()); // (and `preheader_of` is not sized for this function)
        }
        let loops = self.t.preheader_of[blk].clone();
        for i in loops {
            let Some(lp) = self.t.hoist_loops.get(i as usize) else {
                continue;
            };
            let vecs = lp.vecs.clone();
            let mut values = Vec::with_capacity(vecs.len());
            for (vec, need_len, need_ptr) in vecs {
                let (h, _) = self.vec_local(vec)?;
                let len = need_len.then(|| self.load(types::I64, h, HDR_LEN));
                let ptr = need_ptr.then(|| self.load(PTR, h, HDR_PTR));
                values.push((vec, len, ptr));
            }
            if let Some(slot) = self.t.hoisted.get_mut(i as usize) {
                *slot = values;
            }
        }
        Ok(())
    }

    /// The length (`want_len`) or the data pointer of `vec` loaded in the preheader of a loop
    /// the current block belongs to, if any.
    fn hoisted_header(&self, vec: Local, want_len: bool) -> Option<Value> {
        if self.t.hoist_loops.is_empty() {
            return None; // (and `block_loops` is not sized for this function)
        }
        let blk = self.cur_block?;
        self.t.block_loops[blk].iter().find_map(|&i| {
            self.t
                .hoisted
                .get(i as usize)?
                .iter()
                .find_map(|&(v, len, ptr)| {
                    if v != vec {
                        None
                    } else if want_len {
                        len
                    } else {
                        ptr
                    }
                })
        })
    }

    /// `vec`'s length: from its loop's preheader if hoisted, else loaded from `h`.
    pub(super) fn vec_len(&mut self, vec: Local, h: Value) -> Value {
        match self.hoisted_header(vec, true) {
            Some(v) => v,
            None => self.load(types::I64, h, HDR_LEN),
        }
    }

    /// `vec`'s data pointer: from its loop's preheader if hoisted, else loaded from `h`.
    pub(super) fn vec_ptr(&mut self, vec: Local, h: Value) -> Value {
        match self.hoisted_header(vec, false) {
            Some(v) => v,
            None => self.load(PTR, h, HDR_PTR),
        }
    }

    pub(super) fn elem_addr(&mut self, h: Value, index: Value, size: u32) -> Value {
        let ptr = self.load(PTR, h, HDR_PTR);
        self.elem_addr_at(ptr, index, size)
    }

    fn elem_addr_at(&mut self, ptr: Value, index: Value, size: u32) -> Value {
        let size = self.block_const(types::I64, i64::from(size));
        let off = self.ins().imul(index, size);
        self.ins().iadd(ptr, off)
    }

    /// [`FnLower::elem_addr_at`] for an element read or write on the IR block's main line:
    /// the address computed there for the same data pointer, index and size is reused (a
    /// struct read field by field, `get v[k].f0` … `get v[k].f15`, computes `k * size` once,
    /// which `opt_level=none` would otherwise emit sixteen times). The three are Cranelift
    /// values, so an equal key is an equal address, and an address computed earlier on the
    /// main line dominates the rest of it. Not in the huge tier, whose values must not live
    /// long ([`MAX_BLOCK_LOCAL_SPAN`]); the last [`ELEM_ADDRS`] addresses only.
    ///
    /// [`MAX_BLOCK_LOCAL_SPAN`]: crate::tier::MAX_BLOCK_LOCAL_SPAN
    pub(super) fn main_line_elem_addr(&mut self, ptr: Value, index: Value, size: u32) -> Value {
        if self.huge.is_some() {
            return self.elem_addr_at(ptr, index, size);
        }
        let found = self
            .t
            .elem_addrs
            .iter()
            .rev()
            .find(|&&(p, i, s, _)| p == ptr && i == index && s == size);
        if let Some(&(_, _, _, addr)) = found {
            return addr;
        }
        let addr = self.elem_addr_at(ptr, index, size);
        if self.t.elem_addrs.len() == ELEM_ADDRS {
            self.t.elem_addrs.remove(0);
        }
        self.t.elem_addrs.push((ptr, index, size, addr));
        addr
    }

    /// The checked-access test: one unsigned compare of the index with the length.
    pub(super) fn bounds_check(&mut self, len: Value, index: Value) -> R<()> {
        self.trap_if(
            IntCC::UnsignedGreaterThanOrEqual,
            index,
            len,
            TrapKind::IndexOob,
            Some(index),
            Some(len),
        )
    }

    /// Loads an element (or one field of it) at `addr` into `dst`.
    pub(super) fn load_elem(
        &mut self,
        dst: Local,
        elem: ElemType,
        field: Option<u32>,
        addr: Value,
    ) -> R<()> {
        match (elem, field) {
            (ElemType::Scalar(s), None) => {
                let (var, ty) = self.scalar_dst(dst)?;
                if ty != s {
                    return Err(self.malformed("element type does not match the destination"));
                }
                let v = self.load(abi::scalar_cl(s), addr, 0);
                self.write_var(var, v);
            }
            (ElemType::Struct(sid), Some(f)) => {
                let (off, fty) = self.field(sid, f)?;
                let (var, ty) = self.scalar_dst(dst)?;
                if ty != fty {
                    return Err(self.malformed("field type does not match the destination"));
                }
                let v = self.load(abi::scalar_cl(fty), addr, off as i32);
                self.write_var(var, v);
            }
            (ElemType::Struct(sid), None) => {
                let repr = self.struct_repr(dst, sid)?;
                self.mem_to_struct(repr, sid, addr, 0)?;
            }
            (ElemType::Scalar(_), Some(_)) => {
                return Err(self.malformed("field access on a vec of scalars"))
            }
        }
        Ok(())
    }

    /// What to store for an element (or field) write, evaluated before any check.
    pub(super) fn elem_value(
        &mut self,
        elem: ElemType,
        field: Option<u32>,
        value: Operand,
    ) -> R<ElemValue> {
        Ok(match (elem, field) {
            (ElemType::Scalar(s), None) => ElemValue::Scalar(self.scalar_operand(value, s)?, 0),
            (ElemType::Struct(sid), Some(f)) => {
                let (off, fty) = self.field(sid, f)?;
                ElemValue::Scalar(self.scalar_operand(value, fty)?, off)
            }
            (ElemType::Struct(sid), None) => {
                let repr = self.struct_operand(value, sid)?;
                // Read a packed value now; a slot is copied at the store.
                match repr {
                    Repr::Packed(var, _) => ElemValue::Packed(self.read_var(var), sid),
                    other => ElemValue::Struct(other, sid),
                }
            }
            (ElemType::Scalar(_), Some(_)) => {
                return Err(self.malformed("field access on a vec of scalars"))
            }
        })
    }

    pub(super) fn store_elem(&mut self, v: ElemValue, addr: Value) -> R<()> {
        match v {
            ElemValue::Scalar(v, off) => self.store(v, addr, off as i32),
            ElemValue::Packed(v, sid) => {
                let size = self.layout(sid)?.size;
                self.store_bytes(v, addr, 0, size);
            }
            ElemValue::Struct(repr, sid) => self.struct_to_mem(repr, sid, addr, 0)?,
        }
        Ok(())
    }

    pub(super) fn push(&mut self, vec: Local, value: Operand) -> R<()> {
        let (h, elem) = self.vec_local(vec)?;
        let size = self.elem_size(elem)?;
        let v = self.elem_value(elem, None, value)?;
        let len = self.load(types::I64, h, HDR_LEN);
        let cap = self.load(types::I64, h, HDR_CAP);
        // The constants both stores use, on the main line.
        self.block_const(types::I64, i64::from(size));
        self.block_const(types::I64, 1);
        let grow = self.b.create_block();
        self.b.set_cold_block(grow);
        let store_blk = self.b.create_block();
        if self.tier == Tier::Huge {
            // The hot successor first (see [`FnLower::trap_if`]).
            let room = self.ins().icmp(IntCC::SignedLessThan, len, cap);
            self.b.ins().brif(room, store_blk, &[], grow, &[]);
        } else {
            let full = self.ins().icmp(IntCC::SignedGreaterThanOrEqual, len, cap);
            self.b.ins().brif(full, grow, &[], store_blk, &[]);
        }
        if size > SHARED_PUSH_STORE_ABOVE {
            return self.push_shared_store(h, len, size, v, grow, store_blk);
        }
        // The fast path stores and continues; the grow path stores a copy of its own and
        // joins after the store, so the fast path's store block has one predecessor and the
        // register allocator places nothing of the cold path on it.
        // Neither store block dominates what follows the push: constants either creates stay
        // out of the main line's cache.
        let main_consts = self.t.block_consts.len();
        let cont = self.b.create_block();
        self.b.switch_to_block(store_blk);
        let stored = self.push_store(h, len, size, v);
        self.t.block_consts.truncate(main_consts);
        stored?;
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(grow);
        let (status, bail) = self.grow_call(h)?;
        let grown = self.b.create_block();
        self.b.set_cold_block(grown);
        self.b.ins().brif(status, bail, &[], grown, &[]);
        self.b.switch_to_block(grown);
        let stored = self.push_store(h, len, size, v);
        self.t.block_consts.truncate(main_consts);
        stored?;
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
        Ok(())
    }

    /// A push's call of `grow` for the vec whose header is `h` (the handle goes through the
    /// context): its status (non-zero when it trapped) and the block that bails out then.
    fn grow_call(&mut self, h: Value) -> R<(Value, cl::Block)> {
        let ctx = self.ctx()?;
        let f = self.i64c(self.site_code());
        self.store(h, ctx, CTX_RT_HANDLE);
        let status = self.call_rt_stub(RtFunc::Grow, &[ctx, f])?;
        Ok((status, self.bail()?))
    }

    /// The rest of a push of a wide element: the grow path rejoins the fast path before the
    /// one store (see [`SHARED_PUSH_STORE_ABOVE`]).
    fn push_shared_store(
        &mut self,
        h: Value,
        len: Value,
        size: u32,
        v: ElemValue,
        grow: cl::Block,
        store_blk: cl::Block,
    ) -> R<()> {
        self.b.switch_to_block(grow);
        let (status, bail) = self.grow_call(h)?;
        self.b.ins().brif(status, bail, &[], store_blk, &[]);
        self.b.switch_to_block(store_blk);
        self.push_store(h, len, size, v)
    }

    /// A push's store of `v` at index `len` of `h` and the new length `len + 1`.
    fn push_store(&mut self, h: Value, len: Value, size: u32, v: ElemValue) -> R<()> {
        let addr = self.elem_addr(h, len, size);
        self.store_elem(v, addr)?;
        let one = self.block_const(types::I64, 1);
        let len1 = self.ins().iadd(len, one);
        self.store(len1, h, HDR_LEN);
        Ok(())
    }
}

/// How many element addresses a block's main line keeps for reuse
/// ([`FnLower::main_line_elem_addr`]): enough for the fields of one struct read between
/// others, few enough that a lookup is a short scan.
const ELEM_ADDRS: usize = 4;

/// Element sizes above which a push's grow path rejoins before the store instead of storing a
/// copy of its own: a wide element's copy is many stores, whose values the cold path then keeps
/// alive, and the register allocator's cost grows with them (docs/jit.md, item 3).
const SHARED_PUSH_STORE_ABOVE: u32 = 16;

/// A value to store into an element.
#[derive(Copy, Clone)]
pub(super) enum ElemValue {
    /// A scalar (an element or a field) at a byte offset in the element.
    Scalar(Value, u32),
    /// A packed struct's bytes.
    Packed(Value, StructId),
    /// A struct in a slot.
    Struct(Repr, StructId),
}
