//! Calls: of IR functions (every IR function returns a status after its result,
//! [`crate::abi`]; the caller tests it on the spot, and only when the callee can trap; structs
//! of at most 8 bytes travel as one `i64`) and of the runtime through its preserve-all stubs
//! ([`FnLower::call_rt_stub`]), with the function references each function imports once.

use super::{import, FnLower, Repr, R};
use crate::abi;
use crate::runtime::{RtFunc, CTX_RT_RESULT};
use cranelift_codegen::ir::{types, FuncRef, InstBuilder, StackSlot, Value};
use poolopt_ir::EntityRef;
use poolopt_ir::{FuncId, Local, Operand, StructId, Type};

impl FnLower<'_, '_, '_, '_> {
    pub(super) fn rt_ref(&mut self, rt: RtFunc) -> FuncRef {
        let i = RtFunc::ALL.iter().position(|&r| r == rt).unwrap_or(0);
        if let Some(r) = self.rt_refs[i] {
            return r;
        }
        let sig = if rt.uses_stub() {
            abi::runtime_stub_signature(rt)
        } else {
            abi::runtime_signature(rt, self.env.call_conv)
        };
        let r = import(self.b.func, self.env.rt_func_index[i], sig, false);
        self.rt_refs[i] = Some(r);
        r
    }

    /// Calls runtime function `rt` (one with a result) through its preserve-all stub and
    /// returns the result, which the stub leaves in the run context: the call clobbers no
    /// register, so the caller's values stay where they are across this (cold) call.
    pub(super) fn call_rt_stub(&mut self, rt: RtFunc, args: &[Value]) -> R<Value> {
        let ctx = self.ctx()?;
        let f = self.rt_ref(rt);
        self.ins().call(f, args);
        Ok(self.load(types::I64, ctx, CTX_RT_RESULT))
    }

    fn callee_ref(&mut self, fid: FuncId) -> R<FuncRef> {
        if let Some(Some(r)) = self.t.callees.get(fid).copied() {
            return Ok(r);
        }
        if self.env.module.funcs.get(fid).is_none() {
            return Err(self.malformed(format!("call of undeclared function {fid}")));
        }
        let index = self
            .env
            .ir_func_index
            .get(fid.index())
            .copied()
            .ok_or_else(|| self.malformed(format!("call of undeclared function {fid}")))?;
        let sig = self.env.signature(fid);
        let r = import(self.b.func, index, sig, true);
        if let Some(slot) = self.t.callees.get_mut(fid) {
            *slot = Some(r);
            self.t.callees_set.push(fid);
        }
        Ok(r)
    }

    pub(super) fn call(&mut self, dst: Option<Local>, fid: FuncId, args: &[Operand]) -> R<()> {
        let callee = self
            .env
            .module
            .funcs
            .get(fid)
            .ok_or_else(|| self.malformed(format!("call of undeclared function {fid}")))?;
        if callee.params.len() != args.len() {
            return Err(self.malformed(format!(
                "call of `{}` with {} arguments, expected {}",
                callee.name,
                args.len(),
                callee.params.len()
            )));
        }
        let fref = self.callee_ref(fid)?;
        let ctx = self.ctx()?;
        let mut vals = std::mem::take(&mut self.t.call_args);
        vals.clear();
        vals.push(ctx);
        // The return area of a struct result: the destination's slot, or a scratch slot.
        let mut ret_slot: Option<(StackSlot, StructId, Option<Repr>)> = None;
        if let Some(Type::Struct(sid)) = callee.ret.filter(|_| self.env.has_struct_ret(callee)) {
            let (size, align) = self.layout(sid).map(|l| (l.size, l.align))?;
            let dst_repr = match dst {
                Some(d) => Some(self.struct_repr(d, sid)?),
                None => None,
            };
            let ss = match dst_repr {
                Some(Repr::Slot(ss, _)) => ss,
                _ => self.new_slot(size, align),
            };
            ret_slot = Some((ss, sid, dst_repr));
            let a = self.slot_addr(ss);
            vals.push(a);
        }
        for (&p, &arg) in callee.params.iter().zip(args) {
            let pty = callee
                .locals
                .get(p)
                .map(|l| l.ty)
                .ok_or_else(|| self.malformed("callee parameter is undeclared"))?;
            let v = match pty {
                Type::Scalar(s) => self.scalar_operand(arg, s)?,
                Type::Vec(elem) => {
                    let Operand::Local(l) = arg else {
                        return Err(self.malformed("a constant is passed as a vec"));
                    };
                    let (v, e) = self.vec_local(l)?;
                    if e != elem {
                        return Err(self.malformed("vec argument of the wrong element type"));
                    }
                    v
                }
                Type::Struct(sid) if self.env.is_small_struct(sid) => {
                    let size = self.layout(sid)?.size;
                    match self.struct_operand(arg, sid)? {
                        Repr::Packed(var, _) => self.read_var(var),
                        Repr::Slot(ss, _) => {
                            let addr = self.slot_addr(ss);
                            self.load_bytes(addr, 0, size)
                        }
                        _ => return Err(self.malformed("struct expected")),
                    }
                }
                Type::Struct(sid) => {
                    let repr = self.struct_operand(arg, sid)?;
                    self.struct_address(repr)?
                }
            };
            vals.push(v);
        }
        let call = self.ins().call(fref, &vals);
        self.t.call_args = vals;
        let (result, status) = {
            let results = self.b.inst_results(call);
            (results.first().copied(), results.last().copied())
        };
        // The status comes back in a register; test it on the spot unless the callee cannot
        // trap. A trapped callee's result is never used: the caller bails out first.
        let status = status.ok_or_else(|| self.malformed("a call without a status result"))?;
        // The result, for a callee that has one (its results are the result and the status).
        let result = result.unwrap_or(status);
        if self.env.may_trap(fid) {
            self.bail_if(status)?;
        }
        match (callee.ret, dst) {
            (_, None) => {}
            (Some(Type::Scalar(s)), Some(d)) => {
                let (var, ty) = self.scalar_dst(d)?;
                if ty != s {
                    return Err(self.malformed("call result type does not match"));
                }
                self.write_var(var, result);
            }
            (Some(Type::Vec(e)), Some(d)) => match self.repr(d)? {
                Repr::Vec(var, de) if de == e => self.write_var(var, result),
                _ => return Err(self.malformed("call result type does not match")),
            },
            (Some(Type::Struct(sid)), Some(d)) if self.env.is_small_struct(sid) => {
                let size = self.layout(sid)?.size;
                match self.struct_repr(d, sid)? {
                    Repr::Packed(var, _) => self.write_var(var, result),
                    Repr::Slot(ss, _) => {
                        let addr = self.slot_addr(ss);
                        self.store_bytes(result, addr, 0, size);
                    }
                    _ => return Err(self.malformed("call result type does not match")),
                }
            }
            (Some(Type::Struct(_)), Some(_)) => {
                if let Some((ss, sid, Some(r @ Repr::Packed(..)))) = ret_slot {
                    let addr = self.slot_addr(ss);
                    self.mem_to_struct(r, sid, addr, 0)?;
                }
            }
            (None, Some(_)) => {
                return Err(self.malformed(format!(
                    "the result of `{}` is used but it returns nothing",
                    callee.name
                )))
            }
        }
        Ok(())
    }
}
