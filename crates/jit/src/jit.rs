//! The JIT: compiling a module into executable code with cranelift-jit, and running it.
//!
//! A [`CompiledModule`] owns its `JITModule` and frees the code memory when dropped.
//! [`CompiledModule::compile`] compiles every function; [`CompiledModule::compile_for_entries`]
//! only the functions reachable through calls from the given entries (lazy compilation: unused
//! functions cost nothing, and are not even lowered).
//!
//! Two ways to call compiled code, each a fresh run with a fresh [`RunCtx`] (freed when the
//! run ends, trap or not):
//! - a typed entry ([`CompiledModule::entry`], see [`crate::entry`]): looked up once, called
//!   many times on the calling thread — the way to call a function a million times;
//! - [`CompiledModule::run`]: by name with `&[i64]` arguments, on a dedicated thread whose
//!   stack is sized from the module's frame estimates and the call-depth limit (an isolated
//!   stack, at the cost of starting a thread per run).

use crate::abi;
use crate::compile_mode::{CompileMode, CompileModeScratch, OtherIsas};
use crate::error::{EntryError, JitError, RunError};
use crate::lower::{lower_function, lower_rt_stub, lower_shim, reusable_mem_flags, LowerEnv};
use crate::runtime::{RtFunc, RunCtx, RunStats, TrapRecord};
use crate::scratch::LowerScratch;
use crate::target::{host_isa, ClOpt};
use crate::tier::Tier;
use cranelift_codegen::control::ControlPlane;
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module as _, ModuleError, ModuleReloc};
use poolopt_ir::call_graph::reachable_functions;
use poolopt_ir::{
    index_oob_message, oom_message, EntityRef, FuncId, Module, RunLimits, ScalarType, Trap,
    TrapKind, Type, DIV_ZERO_MESSAGE, OUT_OF_FUEL_MESSAGE, POP_EMPTY_MESSAGE,
    STACK_OVERFLOW_MESSAGE, USE_AFTER_DROP_MESSAGE,
};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// How to compile a module.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct JitOptions {
    /// Cranelift's optimization level.
    pub cl_opt: ClOpt,
    /// Compile fuel checks (one unit per block entry); needed to run with a fuel limit.
    pub fuel: bool,
}

/// The host's way into one function: its entry shim, or why it has none.
struct HostEntry {
    shim: Result<usize, String>,
    params: Vec<ScalarType>,
    /// The result type (`None`: no result, or one that is not a scalar).
    ret: Option<ScalarType>,
}

/// A host-callable function as a typed entry sees it: its stored name, its finalized entry
/// shim, and its scalar signature.
pub(crate) struct HostSignature<'a> {
    pub name: &'a str,
    pub shim: usize,
    pub params: &'a [ScalarType],
    pub ret: Option<ScalarType>,
}

/// The entry shim's machine signature.
type ShimFn = unsafe extern "C" fn(*mut RunCtx, *const i64) -> i64;

/// Calls an entry shim.
///
/// # Safety
/// `shim` must be a finalized entry shim of a live [`CompiledModule`] whose function takes
/// `args.len()` parameters.
pub(crate) unsafe fn call_shim(shim: usize, ctx: &mut RunCtx, args: &[i64]) -> i64 {
    // SAFETY: per the contract above, `shim` has the `ShimFn` signature.
    unsafe {
        let f = std::mem::transmute::<usize, ShimFn>(shim);
        f(ctx as *mut RunCtx, args.as_ptr())
    }
}

/// Extra stack for the runtime functions and the shim, beyond the JIT frames.
const STACK_RESERVE: u64 = 4 << 20;
/// Bounds of the run thread's stack.
const MIN_STACK: u64 = 8 << 20;
pub(crate) const MAX_STACK: u64 = 1 << 30;

/// A module compiled to machine code, ready to run any number of times.
pub struct CompiledModule {
    jit: Option<JITModule>,
    entries: HashMap<String, HostEntry>,
    func_names: Vec<String>,
    /// Per IR function, whether it was compiled (lazy compilation skips unreachable ones).
    compiled: Vec<bool>,
    /// Per IR function, the tier it was compiled in (`None`: not compiled).
    tiers: Vec<Option<Tier>>,
    /// Per IR function, the settings it was compiled with (`None`: not compiled).
    modes: Vec<Option<CompileMode>>,
    /// The module's Cranelift level.
    cl_opt: ClOpt,
    messages: Vec<String>,
    fuel: bool,
    code_size: usize,
    /// The largest frame of a function on a call-graph cycle (its frames count towards the
    /// call depth), 0 if there is none.
    max_frame: u64,
    /// Frame estimates of the functions off every call-graph cycle, summed: each is active at
    /// most once at a time, and none of them counts towards the call depth.
    chain_frames: u64,
    /// The IR function being lowered and compiled, if any: names it in the error when
    /// Cranelift panics.
    building: Option<usize>,
}

impl Drop for CompiledModule {
    fn drop(&mut self) {
        if let Some(jit) = self.jit.take() {
            // SAFETY: no function pointer into this module outlives it: runs borrow `self`.
            unsafe { jit.free_memory() };
        }
    }
}

/// A host entry shim for a function of more parameters than this is compiled like a huge
/// function (`opt_level=none`, the single-pass allocator). The shim loads every argument and
/// then calls, so all of them are live at once, and regalloc2's backtracking allocator is
/// quadratic in simultaneously live values: a shim for 1,000 parameters took 0.2 s and one for
/// 4,000 parameters 2.6 s of a `run`. Shims of ordinary functions keep the module's flags.
pub const SHIM_BACKTRACKING_PARAMS: usize = 64;

/// What `JITModule::define_function` does, compiling with `isa` instead of the module's own
/// (the huge tier's and the stubs' ISA).
fn define_with_isa(
    jit: &mut JITModule,
    id: cranelift_module::FuncId,
    ctx: &mut cranelift_codegen::Context,
    isa: &dyn cranelift_codegen::isa::TargetIsa,
    name: &str,
) -> Result<(), JitError> {
    let alignment = ctx
        .compile(isa, &mut ControlPlane::default())
        .map_err(|e| JitError::Codegen {
            function: name.to_string(),
            message: e.inner.to_string(),
        })?
        .buffer
        .alignment;
    let code = ctx.compiled_code().ok_or_else(|| JitError::Codegen {
        function: name.to_string(),
        message: "no compiled code".to_string(),
    })?;
    let relocs: Vec<ModuleReloc> = code
        .buffer
        .relocs()
        .iter()
        .map(|r| ModuleReloc::from_mach_reloc(r, &ctx.func, id))
        .collect();
    jit.define_function_bytes(id, u64::from(alignment), code.code_buffer(), &relocs)
        .map_err(|e| module_error(name, e))
}

fn module_error(function: &str, e: ModuleError) -> JitError {
    match e {
        ModuleError::Compilation(err) => JitError::Codegen {
            function: function.to_string(),
            message: err.to_string(),
        },
        other => JitError::Module(other.to_string()),
    }
}

impl CompiledModule {
    /// Lowers and compiles every function of `module` (assumed verified; a malformed module
    /// gives an error, never a panic).
    pub fn compile(module: &Module, opts: &JitOptions) -> Result<CompiledModule, JitError> {
        Self::compile_selected(module, opts, vec![true; module.funcs.len()])
    }

    /// Lowers and compiles only the functions reachable through calls from `entries` (lazy
    /// compilation): a function no entry can reach is neither lowered nor compiled, so it costs
    /// nothing, and something in it the JIT would reject does not stop the compile. A name
    /// that is not in the module selects nothing (running it reports no such function).
    pub fn compile_for_entries(
        module: &Module,
        entries: &[&str],
        opts: &JitOptions,
    ) -> Result<CompiledModule, JitError> {
        let roots: Vec<FuncId> = entries
            .iter()
            .filter_map(|name| module.func_by_name(name))
            .collect();
        Self::compile_selected(module, opts, reachable_functions(module, &roots))
    }

    /// [`CompiledModule::compile_for_entries`] with one entry.
    pub fn compile_for_entry(
        module: &Module,
        entry: &str,
        opts: &JitOptions,
    ) -> Result<CompiledModule, JitError> {
        Self::compile_for_entries(module, &[entry], opts)
    }

    fn compile_selected(
        module: &Module,
        opts: &JitOptions,
        selected: Vec<bool>,
    ) -> Result<CompiledModule, JitError> {
        let isa = host_isa(opts.cl_opt, Tier::Normal)?;
        let call_conv = isa.default_call_conv();
        let frontend = isa.frontend_config();
        let mut jb = JITBuilder::with_isa(isa, default_libcall_names());
        for rt in RtFunc::ALL {
            jb.symbol(rt.name(), rt.address());
        }
        let mut compiled = CompiledModule {
            jit: Some(JITModule::new(jb)),
            entries: HashMap::new(),
            func_names: module.funcs.values().map(|f| f.name.clone()).collect(),
            compiled: selected,
            tiers: vec![None; module.funcs.len()],
            modes: vec![None; module.funcs.len()],
            cl_opt: opts.cl_opt,
            messages: Vec::new(),
            fuel: opts.fuel,
            code_size: 0,
            max_frame: 0,
            chain_frames: 0,
            building: None,
        };
        // A panic inside Cranelift would be a bug; report it as an error rather than take the
        // host down.
        match catch_unwind(AssertUnwindSafe(|| {
            compiled.build(module, opts.cl_opt, call_conv, frontend)
        })) {
            Ok(r) => r?,
            Err(_) => {
                let function = compiled
                    .building
                    .and_then(|i| compiled.func_names.get(i).cloned())
                    .unwrap_or_default();
                return Err(JitError::Codegen {
                    function,
                    message: "internal error: code generation panicked".to_string(),
                });
            }
        }
        Ok(compiled)
    }

    fn build(
        &mut self,
        module: &Module,
        cl_opt: ClOpt,
        call_conv: cranelift_codegen::isa::CallConv,
        frontend: cranelift_codegen::isa::TargetFrontendConfig,
    ) -> Result<(), JitError> {
        let jit = self
            .jit
            .as_mut()
            .ok_or_else(|| JitError::Module("module already released".into()))?;
        // Declaration order (runtime functions first, then IR functions, then shims) fixes
        // the user names the lowering refers to; `emit` uses the same order.
        // A runtime function with a preserve-all stub is called through the stub: the stub
        // takes its place in the numbering, the runtime function itself is imported after.
        let mut rt_index = [0u32; 4];
        for (i, rt) in RtFunc::ALL.into_iter().enumerate() {
            let id = if rt.uses_stub() {
                jit.declare_function(
                    rt.stub_name(),
                    Linkage::Local,
                    &abi::runtime_stub_signature(rt),
                )
            } else {
                jit.declare_function(
                    rt.name(),
                    Linkage::Import,
                    &abi::runtime_signature(rt, call_conv),
                )
            }
            .map_err(|e| module_error(rt.name(), e))?;
            rt_index[i] = id.as_u32();
        }
        let mut stubs = Vec::new();
        for (i, rt) in RtFunc::ALL.into_iter().enumerate() {
            if rt.uses_stub() {
                let target = jit
                    .declare_function(
                        rt.name(),
                        Linkage::Import,
                        &abi::runtime_signature(rt, call_conv),
                    )
                    .map_err(|e| module_error(rt.name(), e))?;
                stubs.push((rt, rt_index[i], target.as_u32()));
            }
        }
        // Unselected functions are not declared; no selected function calls them.
        let selected = self.compiled.clone();
        let mut ir_ids = Vec::new();
        for (fid, f) in module.funcs.iter() {
            if !selected.get(fid.index()).copied().unwrap_or(false) {
                ir_ids.push(None);
                continue;
            }
            let id = jit
                .declare_function(
                    &format!("poolopt_fn{}", fid.as_u32()),
                    Linkage::Local,
                    &abi::ir_signature(module, f, call_conv),
                )
                .map_err(|e| module_error(&f.name, e))?;
            ir_ids.push(Some(id));
        }
        let env = LowerEnv::new(
            module,
            call_conv,
            ir_ids
                .iter()
                .map(|id| id.map_or(u32::MAX, |id| id.as_u32()))
                .collect(),
            rt_index,
            self.fuel,
        )?
        .for_opt_level_of(jit.isa());
        let mut ctx = jit.make_context();
        let mut fbc = FunctionBuilderContext::new();
        let mut scratch = LowerScratch::new();
        // The ISA of the huge tier, built when the first huge function, stub or wide shim
        // comes.
        let mut other_isas = OtherIsas::new(cl_opt, host_isa);
        let mut mode_scratch = CompileModeScratch::default();
        // The stubs: one is active at a time, below a JIT frame and above the runtime's.
        let mut stub_frame = 0u64;
        for &(rt, stub, target) in &stubs {
            lower_rt_stub(
                rt,
                stub,
                target,
                call_conv,
                &mut ctx.func,
                &mut fbc,
                frontend,
            )?;
            // Compiled without optimization and with the single-pass allocator (the huge
            // tier's ISA): a stub is straight-line and cold, and this halves its compile cost.
            let isa = other_isas.huge()?;
            define_with_isa(
                jit,
                cranelift_module::FuncId::from_u32(stub),
                &mut ctx,
                isa,
                rt.stub_name(),
            )?;
            let code = ctx.compiled_code();
            self.code_size += code.map_or(0, |c| c.code_info().total_size as usize);
            let frame = code
                .and_then(|c| c.buffer.frame_layout())
                .map_or(0, |l| u64::from(l.frame_to_fp_offset) + 16);
            stub_frame = stub_frame.max(frame);
            jit.clear_context(&mut ctx);
        }
        self.chain_frames = self.chain_frames.saturating_add(stub_frame);
        // The memory-flags set of the function compiled last, kept for the next one when the
        // lowering alone filled it (`reusable_mem_flags`).
        let mut kept_flags = None;
        for (index, ((fid, f), &id)) in module.funcs.iter().zip(&ir_ids).enumerate() {
            let Some(id) = id else { continue };
            self.building = Some(index);
            if let Some(flags) = kept_flags.take() {
                ctx.func.dfg.mem_flags = flags;
            }
            let info = lower_function(
                &env,
                fid,
                &mut ctx.func,
                &mut self.messages,
                Tier::of(f),
                &mut scratch,
            )?;
            self.tiers[index] = Some(info.tier);
            let mode = CompileMode::choose(&ctx.func, info.tier, cl_opt, &mut mode_scratch);
            self.modes[index] = Some(mode);
            match other_isas.of(mode)? {
                Some(isa) => define_with_isa(jit, id, &mut ctx, isa, &f.name)?,
                None => jit
                    .define_function(id, &mut ctx)
                    .map_err(|e| module_error(&f.name, e))?,
            }
            let code = ctx.compiled_code();
            self.code_size += code.map_or(0, |c| c.code_info().total_size as usize);
            // The frame as compiled (below the frame pointer, plus the saved frame pointer
            // and the return address), never less than the lowering's estimate.
            let frame = code
                .and_then(|c| c.buffer.frame_layout())
                .map_or(0, |l| u64::from(l.frame_to_fp_offset) + 16)
                .max(info.frame_estimate);
            if info.counts_depth {
                self.max_frame = self.max_frame.max(frame);
            } else {
                self.chain_frames = self.chain_frames.saturating_add(frame);
            }
            kept_flags = reusable_mem_flags(&mut ctx.func);
            jit.clear_context(&mut ctx);
        }
        self.building = None;
        let mut shims = Vec::new();
        for (fid, f) in module.funcs.iter() {
            if self.entries.contains_key(&f.name)
                || ir_ids.get(fid.index()).is_none_or(|id| id.is_none())
            {
                continue; // the first function of a name is the entry of that name
            }
            let params: Vec<ScalarType> = f
                .params
                .iter()
                .map(|&p| match f.locals.get(p).map(|l| l.ty) {
                    Some(Type::Scalar(s)) => s,
                    _ => ScalarType::I64,
                })
                .collect();
            let ret = match f.ret {
                Some(Type::Scalar(s)) => Some(s),
                _ => None,
            };
            let shim = match abi::host_callable(f) {
                Err(why) => Err(why),
                Ok(()) => {
                    let id = jit
                        .declare_function(
                            &format!("poolopt_entry{}", fid.as_u32()),
                            Linkage::Local,
                            &abi::shim_signature(call_conv),
                        )
                        .map_err(|e| module_error(&f.name, e))?;
                    lower_shim(&env, fid, id.as_u32(), &mut ctx.func, &mut fbc, frontend)?;
                    if f.params.len() > SHIM_BACKTRACKING_PARAMS {
                        // Its arguments are all live at the call: the backtracking allocator
                        // is quadratic in them (1,000 parameters: 0.2 s), the single-pass
                        // one is not.
                        let isa = other_isas.huge()?;
                        define_with_isa(jit, id, &mut ctx, isa, &f.name)?;
                    } else {
                        jit.define_function(id, &mut ctx)
                            .map_err(|e| module_error(&f.name, e))?;
                    }
                    jit.clear_context(&mut ctx);
                    shims.push((f.name.clone(), id));
                    Ok(0)
                }
            };
            self.entries
                .insert(f.name.clone(), HostEntry { shim, params, ret });
        }
        jit.finalize_definitions()
            .map_err(|e| JitError::Module(e.to_string()))?;
        for (name, id) in shims {
            let ptr = jit.get_finalized_function(id) as usize;
            if let Some(entry) = self.entries.get_mut(&name) {
                entry.shim = Ok(ptr);
            }
        }
        Ok(())
    }

    /// Bytes of machine code of the IR functions (entry shims excluded).
    pub fn code_size(&self) -> usize {
        self.code_size
    }

    /// How many IR functions were compiled (all of them, unless compiled for given entries).
    pub fn compiled_function_count(&self) -> usize {
        self.compiled.iter().filter(|&&c| c).count()
    }

    /// Whether the function named `name` was compiled.
    pub fn is_compiled(&self, name: &str) -> bool {
        self.entries.contains_key(name)
    }

    /// The tier the function named `name` was compiled in (`None`: not compiled): see
    /// [`crate::tier`] for how it is chosen.
    pub fn tier_of(&self, name: &str) -> Option<Tier> {
        let index = self.func_names.iter().position(|n| n == name)?;
        self.tiers.get(index).copied().flatten()
    }

    /// The Cranelift level the function named `name` was compiled at (`None`: not compiled):
    /// the module's, but `none` in the huge tier and for a function whose e-graph elaboration
    /// would blow up ([`crate::elaboration`]).
    pub fn cl_opt_of(&self, name: &str) -> Option<ClOpt> {
        Some(self.mode_of(name)?.cl_opt(self.cl_opt))
    }

    /// Whether the function named `name` was compiled with regalloc2's single-pass allocator
    /// (`None`: not compiled): in the huge tier, and a function whose chains of block
    /// parameters are long ([`crate::param_chains`]); otherwise the backtracking one.
    pub fn single_pass_of(&self, name: &str) -> Option<bool> {
        Some(self.mode_of(name)? == CompileMode::SinglePass)
    }

    /// The settings the function named `name` was compiled with (`None`: not compiled).
    fn mode_of(&self, name: &str) -> Option<CompileMode> {
        let index = self.func_names.iter().position(|n| n == name)?;
        self.modes.get(index).copied().flatten()
    }

    /// Whether the module was compiled with fuel checks.
    pub(crate) fn has_fuel(&self) -> bool {
        self.fuel
    }

    /// The entry shim and signature of `name`, for a typed entry.
    pub(crate) fn host_entry(&self, name: &str) -> Result<HostSignature<'_>, EntryError> {
        let Some((stored, e)) = self.entries.get_key_value(name) else {
            return Err(if self.func_names.iter().any(|n| n == name) {
                EntryError::NotCompiled(name.to_string())
            } else {
                EntryError::NoSuchFunction(name.to_string())
            });
        };
        let shim = e
            .shim
            .clone()
            .map_err(|reason| EntryError::NotHostCallable {
                function: name.to_string(),
                reason,
            })?;
        Ok(HostSignature {
            name: stored.as_str(),
            shim,
            params: &e.params,
            ret: e.ret,
        })
    }

    /// Runs `entry` with `args` (each wrapped to its parameter's type) under `limits`.
    pub fn run(&self, entry: &str, args: &[i64], limits: &RunLimits) -> Result<i64, RunError> {
        self.run_with_stats(entry, args, limits).0
    }

    /// [`CompiledModule::run`], also returning the run's vec memory statistics.
    pub fn run_with_stats(
        &self,
        entry: &str,
        args: &[i64],
        limits: &RunLimits,
    ) -> (Result<i64, RunError>, RunStats) {
        let mut ctx = RunCtx::new(
            limits.max_memory,
            limits.max_depth,
            limits.fuel.unwrap_or(u64::MAX),
        );
        let result = self.run_in(&mut ctx, entry, args, limits);
        (result, ctx.stats())
    }

    /// [`CompiledModule::run_with_stats`] on the calling thread instead of a fresh one, which
    /// saves the cost of starting a thread (tens of microseconds) per run.
    ///
    /// The calling thread must have [`CompiledModule::required_stack`] bytes of stack left;
    /// if it has less, deep recursion may overflow the machine stack before the call-depth
    /// limit traps, and the process aborts (stack probes guarantee the guard page is hit: it is
    /// an abort, never memory corruption). Run it on a thread spawned with that stack size.
    pub fn run_on_current_thread(
        &self,
        entry: &str,
        args: &[i64],
        limits: &RunLimits,
    ) -> (Result<i64, RunError>, RunStats) {
        let mut ctx = RunCtx::new(
            limits.max_memory,
            limits.max_depth,
            limits.fuel.unwrap_or(u64::MAX),
        );
        let result = self.prepare(entry, args, limits).map(|(shim, wrapped)| {
            // SAFETY: `shim` is a finalized entry shim of this module; see `call_shim`.
            let value = unsafe { call_shim(shim, &mut ctx, &wrapped) };
            self.outcome(&ctx, value)
        });
        (result.and_then(|r| r), ctx.stats())
    }

    /// Bytes of machine stack a run under `limits` may need (JIT frames up to the depth limit,
    /// plus room for the runtime); [`CompiledModule::run`] gives its run thread this much.
    pub fn required_stack(&self, limits: &RunLimits) -> usize {
        self.stack_size(limits.max_depth)
    }

    /// Finds the entry shim and wraps the arguments.
    fn prepare(
        &self,
        entry: &str,
        args: &[i64],
        limits: &RunLimits,
    ) -> Result<(usize, Vec<i64>), RunError> {
        let e = self.entries.get(entry).ok_or_else(|| {
            if self.func_names.iter().any(|n| n == entry) {
                RunError::NotCompiled(entry.to_string())
            } else {
                RunError::NoSuchFunction(entry.to_string())
            }
        })?;
        let bad = |message: String| RunError::BadArguments {
            function: entry.to_string(),
            message,
        };
        let shim = e.shim.clone().map_err(bad)?;
        if args.len() != e.params.len() {
            return Err(bad(format!(
                "expected {} arguments, got {}",
                e.params.len(),
                args.len()
            )));
        }
        if limits.fuel.is_some() && !self.fuel {
            return Err(RunError::FuelNotCompiled);
        }
        let supported = self.max_supported_depth();
        if limits.max_depth > supported {
            return Err(RunError::DepthLimitTooLarge {
                max_depth: limits.max_depth,
                supported,
            });
        }
        let wrapped: Vec<i64> = args
            .iter()
            .zip(&e.params)
            .map(|(&a, t)| t.wrap(a))
            .collect();
        Ok((shim, wrapped))
    }

    /// The result of a finished run: its value, or the trap it recorded.
    fn outcome(&self, ctx: &RunCtx, value: i64) -> Result<i64, RunError> {
        match ctx.trap() {
            Some(rec) => Err(RunError::Trap(self.trap_of(rec, ctx.max_memory()))),
            None => Ok(value),
        }
    }

    fn run_in(
        &self,
        ctx: &mut RunCtx,
        entry: &str,
        args: &[i64],
        limits: &RunLimits,
    ) -> Result<i64, RunError> {
        let (shim, wrapped) = self.prepare(entry, args, limits)?;
        let stack = self.stack_size(limits.max_depth);
        let ctx_addr = ctx as *mut RunCtx as usize;
        let args_addr = wrapped.as_ptr() as usize;
        let outcome = std::thread::scope(|s| {
            let handle = std::thread::Builder::new()
                .name("poolopt-run".to_string())
                .stack_size(stack)
                .spawn_scoped(s, move || {
                    // SAFETY: `shim` is a finalized entry shim of this (live) module; the
                    // context and the arguments outlive the thread, which nothing else uses
                    // while it runs.
                    unsafe {
                        let f = std::mem::transmute::<usize, ShimFn>(shim);
                        f(ctx_addr as *mut RunCtx, args_addr as *const i64)
                    }
                })
                .map_err(|e| {
                    // Its stack holds `max_depth` of the module's largest frames: name the
                    // size, which is what a host with less memory refuses.
                    RunError::Thread(format!(
                        "{e} (a stack of {stack} bytes: {} nested calls of this module's \
                         largest frame)",
                        limits.max_depth
                    ))
                })?;
            handle
                .join()
                .map_err(|_| RunError::Thread("the run thread panicked".to_string()))
        });
        let value = outcome?;
        self.outcome(ctx, value)
    }

    /// The largest call-depth limit whose frames fit the largest run stack, so the limit
    /// always traps before the machine stack overflows.
    fn max_supported_depth(&self) -> u32 {
        let room = (MAX_STACK - STACK_RESERVE).saturating_sub(self.chain_frames);
        let frames = room / self.max_frame.max(1);
        u32::try_from(frames.saturating_sub(2)).unwrap_or(u32::MAX)
    }

    /// Bytes of the JIT frames of `max_depth` nested counted (recursive) calls, two extra for
    /// the shim and slack, plus the longest chain of uncounted (non-recursive) calls.
    pub(crate) fn frames_size(&self, max_depth: u32) -> usize {
        let frames = self
            .max_frame
            .saturating_mul(u64::from(max_depth).saturating_add(2))
            .saturating_add(self.chain_frames);
        usize::try_from(frames).unwrap_or(usize::MAX)
    }

    fn stack_size(&self, max_depth: u32) -> usize {
        let total = (self.frames_size(max_depth) as u64)
            .saturating_add(STACK_RESERVE)
            .clamp(MIN_STACK, MAX_STACK);
        usize::try_from(total).unwrap_or(MAX_STACK as usize)
    }

    pub(crate) fn trap_of(&self, rec: TrapRecord, max_memory: u64) -> Trap {
        let message = match rec.kind {
            TrapKind::PopEmpty => POP_EMPTY_MESSAGE.to_string(),
            TrapKind::IndexOob => index_oob_message(rec.a, rec.b),
            TrapKind::DivZero => DIV_ZERO_MESSAGE.to_string(),
            TrapKind::Explicit => usize::try_from(rec.a)
                .ok()
                .and_then(|i| self.messages.get(i))
                .cloned()
                .unwrap_or_default(),
            TrapKind::OutOfMemory => oom_message(rec.a.max(0) as u64, max_memory),
            TrapKind::UseAfterDrop => USE_AFTER_DROP_MESSAGE.to_string(),
            TrapKind::OutOfFuel => OUT_OF_FUEL_MESSAGE.to_string(),
            TrapKind::StackOverflow => STACK_OVERFLOW_MESSAGE.to_string(),
        };
        let function = self
            .func_names
            .get(rec.func as usize)
            .cloned()
            .unwrap_or_else(|| "?".to_string());
        Trap::new(rec.kind, message, function).at_line(rec.line)
    }
}
