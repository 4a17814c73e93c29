//! The calling convention of lowered code: how IR types map to Cranelift types and how IR
//! functions, runtime functions and host entry shims are called.
//!
//! Every lowered IR function takes the run-context pointer as a hidden first parameter.
//! Scalars are passed as their Cranelift integer type (`bool` as an `i8` holding 0 or 1); vec
//! handles as pointers to their header. A *small* struct (at most 8 bytes) is passed and
//! returned as one `i64` holding its bytes (C layout, little-endian: the `packed` form). A
//! larger struct argument is passed as a pointer to the caller's copy, which the callee copies
//! into its own stack slot on entry (one copy); a function returning a larger struct takes a
//! hidden second parameter, the address of a return area the caller provides (the
//! destination's own slot when it has one).
//!
//! Every IR function returns a *status* (`i8`) after its result, if any: 0 when it returned
//! normally, 1 when a trap was recorded in the run context (the result is then meaningless).
//! On x86-64 System V the status travels in the second return register (`rdx`, or `rax` for a
//! function without a result), and the caller tests it on the spot: no memory poll after a
//! call. Callers skip the test after callees that cannot trap.
//!
//! Runtime functions that return to code which goes on (`new`, `grow`, `drop`) are called through
//! a JIT-compiled `preserve_all` stub per function ([`runtime_stub_signature`]), which clobbers
//! no register; `trap` (after which the caller only bails out) is called directly.
//!
//! The host calls JIT code only through an *entry shim* per eligible function (scalar
//! parameters and a scalar result or none): `extern "C" fn(ctx, args: *const i64) -> i64`, which
//! narrows each argument to its parameter type and widens the result back to `i64`.

use crate::runtime::RtFunc;
use cranelift_codegen::ir::{types, AbiParam, Signature};
use cranelift_codegen::isa::CallConv;
use poolopt_ir::{Function, Module, ScalarType, StructId, Type};

/// The pointer type (x86-64 only).
pub const PTR: types::Type = types::I64;

/// The Cranelift type of a scalar (`bool` is `i8`).
pub fn scalar_cl(ty: ScalarType) -> types::Type {
    match ty {
        ScalarType::I8 | ScalarType::Bool => types::I8,
        ScalarType::I16 => types::I16,
        ScalarType::I32 => types::I32,
        ScalarType::I64 => types::I64,
    }
}

/// The type of the status every IR function returns after its result.
pub const STATUS: types::Type = types::I8;

/// Whether struct `sid` is small enough to travel as one `i64` (at most 8 bytes).
pub fn is_small_struct(module: &Module, sid: StructId) -> bool {
    module
        .structs
        .get(sid)
        .is_some_and(|d| d.layout().size <= 8)
}

/// How a value of an IR type is passed: as a scalar of this Cranelift type (scalars, vec
/// handles, small structs) or by pointer (larger structs).
pub fn param_cl(module: &Module, ty: Type) -> types::Type {
    match ty {
        Type::Scalar(s) => scalar_cl(s),
        Type::Struct(sid) if is_small_struct(module, sid) => types::I64,
        Type::Vec(_) | Type::Struct(_) => PTR,
    }
}

/// Whether a function returns a (larger) struct through a hidden return-area pointer.
pub fn has_struct_ret(module: &Module, func: &Function) -> bool {
    matches!(func.ret, Some(Type::Struct(sid)) if !is_small_struct(module, sid))
}

/// The signature of a lowered IR function: `(ctx, [ret area], params...) -> ([result], status)`.
pub fn ir_signature(module: &Module, func: &Function, call_conv: CallConv) -> Signature {
    let mut sig = Signature::new(call_conv);
    sig.params.push(AbiParam::new(PTR));
    if has_struct_ret(module, func) {
        sig.params.push(AbiParam::new(PTR));
    }
    for &p in &func.params {
        let ty = func.locals.get(p).map_or(PTR, |l| param_cl(module, l.ty));
        sig.params.push(AbiParam::new(ty));
    }
    match func.ret {
        Some(Type::Scalar(s)) => sig.returns.push(AbiParam::new(scalar_cl(s))),
        Some(Type::Vec(_)) => sig.returns.push(AbiParam::new(PTR)),
        Some(Type::Struct(sid)) if is_small_struct(module, sid) => {
            sig.returns.push(AbiParam::new(types::I64))
        }
        Some(Type::Struct(_)) | None => {}
    }
    sig.returns.push(AbiParam::new(STATUS));
    sig
}

/// The signature of a runtime function: i64 parameters, an optional i64 result.
pub fn runtime_signature(rt: RtFunc, call_conv: CallConv) -> Signature {
    let mut sig = Signature::new(call_conv);
    // Built whole (one allocation), not pushed one parameter at a time.
    sig.params = vec![AbiParam::new(types::I64); rt.param_count()];
    if rt.returns_value() {
        sig.returns.push(AbiParam::new(types::I64));
    }
    sig
}

/// The signature of a runtime function's preserve-all stub ([`RtFunc::uses_stub`]): the
/// runtime function's i64 parameters except a vec handle (which travels in
/// [`crate::runtime::CTX_RT_HANDLE`]), no result (the stub stores it at
/// [`crate::runtime::CTX_RT_RESULT`]), and a call of it clobbers no register.
pub fn runtime_stub_signature(rt: RtFunc) -> Signature {
    let mut sig = Signature::new(CallConv::PreserveAll);
    sig.params = vec![AbiParam::new(types::I64); rt.stub_param_count()];
    sig
}

/// The signature of an entry shim: `(ctx, args) -> i64`.
pub fn shim_signature(call_conv: CallConv) -> Signature {
    let mut sig = Signature::new(call_conv);
    sig.params.push(AbiParam::new(PTR));
    sig.params.push(AbiParam::new(PTR));
    sig.returns.push(AbiParam::new(types::I64));
    sig
}

/// Why a function cannot be called from the host, if it cannot: every parameter must be a
/// scalar and the result a scalar or nothing.
pub fn host_callable(func: &Function) -> Result<(), String> {
    for &p in &func.params {
        match func.locals.get(p) {
            Some(l) if matches!(l.ty, Type::Scalar(_)) => {}
            Some(l) => {
                return Err(format!(
                    "parameter `{}` is not a scalar; the host passes only integers",
                    l.name
                ))
            }
            None => return Err("a parameter refers to an undeclared local".to_string()),
        }
    }
    match func.ret {
        None | Some(Type::Scalar(_)) => Ok(()),
        Some(_) => Err("the result is not a scalar; the host receives only integers".to_string()),
    }
}
