//! Typed entry points: look a JIT-compiled function up once, with its signature checked against
//! the IR, and call it any number of times on the calling thread.
//!
//! ```
//! use poolopt_ir::{BinaryOp, ModuleBuilder, Type};
//! use poolopt_jit::{CompiledModule, JitOptions};
//!
//! let mut mb = ModuleBuilder::new();
//! let f = mb.declare_function("add", &[("x", Type::I64), ("y", Type::I32)], Some(Type::I64));
//! let mut fb = mb.define_function(f);
//! let (x, y) = (fb.param(0).unwrap(), fb.param(1).unwrap());
//! let wide = fb.local("wide", Type::I64);
//! let entry = fb.create_block("entry");
//! fb.switch_to_block(entry);
//! fb.cast(wide, poolopt_ir::CastOp::Sext, y);
//! fb.binary(x, BinaryOp::Add, x, wide);
//! fb.ret(Some(x.into()));
//! let module = mb.finish().unwrap();
//!
//! let compiled = CompiledModule::compile(&module, &JitOptions::default()).unwrap();
//! let add = compiled.entry::<(i64, i32), i64>("add").unwrap();
//! let mut sum = 0;
//! for i in 0..1000 {
//!     sum = add.call((sum, i)).unwrap();
//! }
//! assert_eq!(sum, 499_500);
//! // The signature is checked at lookup: `add` takes two parameters.
//! assert!(compiled.entry::<(i64,), i64>("add").is_err());
//! ```
//!
//! # Stack
//!
//! A call runs on the calling thread. The JIT code enforces [`RunLimits::max_depth`], so a
//! call never needs more than [`TypedEntry::required_stack`] bytes of machine stack (the
//! frames of `max_depth` nested calls, plus room for the runtime functions). Before each call
//! the entry checks how much stack the calling thread has left; when it is less than that,
//! the call runs on a freshly allocated stack of that size (on the same thread, through the
//! `stacker` crate) instead, so deep recursion traps `stack_overflow` and never takes the host
//! down. Keep the depth limit modest for a cheap call: with enough stack left, a call costs the
//! shim call, one stack check and the set-up of an empty run context.

use crate::error::EntryError;
use crate::jit::CompiledModule;
use crate::runtime::RunCtx;
use poolopt_ir::{RunLimits, ScalarType, Trap};
use std::marker::PhantomData;

mod sealed {
    pub trait Sealed {}
}

/// A Rust type that crosses the host boundary as one IR scalar: `i8`, `i16`, `i32`, `i64`,
/// `bool`. Sealed: the list is fixed by the IR's scalar types.
pub trait HostScalar: sealed::Sealed + Copy {
    /// The IR type it corresponds to.
    const TYPE: ScalarType;
    /// Widens it to the `i64` slot the entry shim reads.
    fn to_slot(self) -> i64;
    /// Narrows the `i64` the entry shim returns.
    fn from_slot(v: i64) -> Self;
}

macro_rules! host_int {
    ($($t:ty => $s:ident),*) => {$(
        impl sealed::Sealed for $t {}
        impl HostScalar for $t {
            const TYPE: ScalarType = ScalarType::$s;
            fn to_slot(self) -> i64 {
                i64::from(self)
            }
            fn from_slot(v: i64) -> Self {
                // The shim sign-extends a result of this type, so the value fits.
                v as $t
            }
        }
    )*};
}
host_int!(i8 => I8, i16 => I16, i32 => I32, i64 => I64);

impl sealed::Sealed for bool {}
impl HostScalar for bool {
    const TYPE: ScalarType = ScalarType::Bool;
    fn to_slot(self) -> i64 {
        i64::from(self)
    }
    fn from_slot(v: i64) -> Self {
        v != 0
    }
}

/// The arguments of a typed entry: a tuple of [`HostScalar`]s (`()`, `(i64,)`, `(i64, i32)`,
/// ... up to eight). Sealed.
pub trait EntryArgs: sealed::Sealed {
    /// The IR types of the parameters, in order.
    fn types() -> Vec<ScalarType>;
    /// Calls `f` with the arguments widened to `i64` slots.
    fn with_slots<T>(self, f: impl FnOnce(&[i64]) -> T) -> T;
}

/// The result of a typed entry: a [`HostScalar`], or `()` for a function with no result.
/// Sealed.
pub trait EntryResult: sealed::Sealed {
    /// The IR result type (`None`: no result).
    fn ty() -> Option<ScalarType>;
    /// The result from the shim's `i64`.
    fn from_slot(v: i64) -> Self;
}

impl sealed::Sealed for () {}
impl EntryResult for () {
    fn ty() -> Option<ScalarType> {
        None
    }
    fn from_slot(_: i64) -> Self {}
}

impl<T: HostScalar> EntryResult for T {
    fn ty() -> Option<ScalarType> {
        Some(T::TYPE)
    }
    fn from_slot(v: i64) -> Self {
        <T as HostScalar>::from_slot(v)
    }
}

impl EntryArgs for () {
    fn types() -> Vec<ScalarType> {
        Vec::new()
    }
    fn with_slots<T>(self, f: impl FnOnce(&[i64]) -> T) -> T {
        f(&[])
    }
}

macro_rules! entry_args {
    ($($n:ident),+) => {
        impl<$($n: HostScalar),+> sealed::Sealed for ($($n,)+) {}
        impl<$($n: HostScalar),+> EntryArgs for ($($n,)+) {
            fn types() -> Vec<ScalarType> {
                vec![$($n::TYPE),+]
            }
            #[allow(non_snake_case)]
            fn with_slots<T>(self, f: impl FnOnce(&[i64]) -> T) -> T {
                let ($($n,)+) = self;
                f(&[$($n.to_slot()),+])
            }
        }
    };
}
entry_args!(A);
entry_args!(A, B);
entry_args!(A, B, C);
entry_args!(A, B, C, D);
entry_args!(A, B, C, D, E);
entry_args!(A, B, C, D, E, F);
entry_args!(A, B, C, D, E, F, G);
entry_args!(A, B, C, D, E, F, G, H);

/// Renders a signature as `fn(i64, i32) -> i64` for error messages.
pub(crate) fn signature_text(params: &[ScalarType], ret: Option<ScalarType>) -> String {
    let params: Vec<&str> = params.iter().map(|t| t.name()).collect();
    match ret {
        Some(r) => format!("fn({}) -> {}", params.join(", "), r.name()),
        None => format!("fn({})", params.join(", ")),
    }
}

/// Room for the runtime functions (allocation, growth) and the shim beyond the JIT frames.
const ENTRY_STACK_RESERVE: usize = 256 << 10;

/// A JIT-compiled function with a checked signature, callable many times on the calling
/// thread. Made by [`CompiledModule::entry`]; borrows the module, so the code outlives it.
pub struct TypedEntry<'m, A, R> {
    module: &'m CompiledModule,
    name: &'m str,
    shim: usize,
    limits: RunLimits,
    stack: usize,
    _signature: PhantomData<fn(A) -> R>,
}

impl<A: EntryArgs, R: EntryResult> std::fmt::Debug for TypedEntry<'_, A, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedEntry")
            .field("name", &self.name)
            .field("signature", &signature_text(&A::types(), R::ty()))
            .field("limits", &self.limits)
            .finish()
    }
}

impl<'m, A: EntryArgs, R: EntryResult> TypedEntry<'m, A, R> {
    pub(crate) fn new(
        module: &'m CompiledModule,
        name: &'m str,
        shim: usize,
        limits: RunLimits,
    ) -> TypedEntry<'m, A, R> {
        // Capped like `CompiledModule::run`'s thread stack, so an absurd depth limit cannot
        // make the stack allocation itself fail.
        let stack = module
            .frames_size(limits.max_depth)
            .saturating_add(ENTRY_STACK_RESERVE)
            .min(crate::jit::MAX_STACK as usize);
        TypedEntry {
            module,
            name,
            shim,
            limits,
            stack,
            _signature: PhantomData,
        }
    }

    /// Calls the function. Each call is a fresh run under the entry's limits: vecs it creates
    /// are freed when it returns, trap or not.
    pub fn call(&self, args: A) -> Result<R, Trap> {
        let limits = &self.limits;
        let mut ctx = RunCtx::new(
            limits.max_memory,
            limits.max_depth,
            limits.fuel.unwrap_or(u64::MAX),
        );
        let value = args.with_slots(|slots| {
            stacker::maybe_grow(self.stack, self.stack, || {
                // SAFETY: `shim` is a finalized entry shim of `self.module` (borrowed, so
                // alive) whose function takes exactly `slots.len()` scalar parameters: the
                // signature was checked when the entry was made.
                unsafe { crate::jit::call_shim(self.shim, &mut ctx, slots) }
            })
        });
        match ctx.trap() {
            Some(rec) => Err(self.module.trap_of(rec, ctx.max_memory())),
            None => Ok(R::from_slot(value)),
        }
    }

    /// The function's name.
    pub fn name(&self) -> &str {
        self.name
    }

    /// The limits each call runs under.
    pub fn limits(&self) -> &RunLimits {
        &self.limits
    }

    /// Bytes of machine stack a call may use: the JIT frames of `max_depth` nested calls plus
    /// a reserve for the runtime, capped at 1 GiB as `CompiledModule::run`'s thread stack is
    /// (a depth limit whose frames need more than that is not protected by either). A call
    /// made with less stack left runs on a stack of this size allocated for it.
    pub fn required_stack(&self) -> usize {
        self.stack
    }
}

impl CompiledModule {
    /// Looks up `name` as a typed entry running under the default [`RunLimits`]; see
    /// [`CompiledModule::entry_with_limits`].
    pub fn entry<A: EntryArgs, R: EntryResult>(
        &self,
        name: &str,
    ) -> Result<TypedEntry<'_, A, R>, EntryError> {
        self.entry_with_limits(name, &RunLimits::default())
    }

    /// Looks up `name` as a typed entry whose calls run under `limits`. The signature `A -> R`
    /// must match the IR exactly (arity, each parameter's type, the result type or `()` for
    /// none); a fuel limit needs a module compiled with fuel.
    pub fn entry_with_limits<A: EntryArgs, R: EntryResult>(
        &self,
        name: &str,
        limits: &RunLimits,
    ) -> Result<TypedEntry<'_, A, R>, EntryError> {
        let host = self.host_entry(name)?;
        let (want_params, want_ret) = (A::types(), R::ty());
        if host.params != want_params.as_slice() || host.ret != want_ret {
            return Err(EntryError::Signature {
                function: name.to_string(),
                expected: signature_text(&want_params, want_ret),
                found: signature_text(host.params, host.ret),
            });
        }
        if limits.fuel.is_some() && !self.has_fuel() {
            return Err(EntryError::FuelNotCompiled);
        }
        Ok(TypedEntry::new(self, host.name, host.shim, *limits))
    }
}
