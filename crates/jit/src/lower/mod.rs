//! Lowering of one IR function to Cranelift IR, appended directly (`crate::append`), with
//! its own SSA construction (`crate::ssa`); only the runtime stubs and entry shims go
//! through cranelift-frontend.
//!
//! The lowering is deliberately naive, like a simple C compiler: it keeps every check the IR
//! asks for and removes none itself (the passes decide what goes). In particular:
//!
//! - Scalar and vec-handle locals become variables; struct locals live in stack slots,
//!   except locals marked `packed` (by the scalarization pass), which are one `i64` variable
//!   holding the struct's bytes (C layout, little-endian), and struct locals that are only
//!   built, read or written by field and stored whole into elements, which are one variable
//!   per field ([`field_struct_locals`]). Every local starts as zero (for
//!   scalar and packed locals the SSA construction materializes the zero only where a read
//!   can precede every write); vec locals start pointing at the run context's permanently dead
//!   header.
//! - A checked element access is ONE unsigned compare `icmp uge index, len` and a branch to a
//!   cold trap block; a checked `pop` compares the length with 0. `Unchecked` operations emit no
//!   compare and no branch.
//! - `len` is a load, except in a loop that cannot change any vec header
//!   ([`header_invariant_loops`]): there each vec's length and data pointer are loaded once, at
//!   the end of the preheader (Cranelift neither hoists loads nor finds them redundant across
//!   the blocks of a loop). `push` stores inline when `len < cap`; otherwise a cold path calls the
//!   runtime's grow function and stores a copy of its own, joining after the store.
//! - `new`, `grow` and `drop` are called through preserve-all stubs ([`lower_rt_stub`]): the
//!   call clobbers no register, the vec handle travels in the run context, and the result comes
//!   back there too, so these calls cost the hot path no spills.
//! - Division and remainder test the divisor for zero (trap); signed division also tests it for
//!   -1 (`MIN / -1` is `MIN`), so the machine's `idiv` never faults. Signed remainder leaves -1
//!   to Cranelift's `srem`, which defines `x % -1` as 0 and tests for it itself.
//! - Traps: each trap site branches to a small cold edge block that jumps, with the site's code
//!   (and for `index_oob` the index and length, for `explicit` the message) as block
//!   arguments, to ONE shared cold block per trap kind, which calls `rt_trap` and jumps to the
//!   bail block; the bail block returns a dummy result and the status 1.
//! - Calls: every IR function returns a status after its result ([`crate::abi`]); the caller
//!   tests it on the spot, and only when the callee can trap. Structs of at most 8 bytes are
//!   passed and returned as one `i64`.
//! - Only functions on a cycle of the call graph check the call depth (on entry, before
//!   anything else; decremented on return); the entry shim counts a non-recursive entry
//!   function. With fuel compiled in, every IR block entry consumes one unit.
//! - An IR block's SSA node is sealed as soon as its last predecessor is emitted.
//! - Block-local locals (every read preceded by a write in the same IR block,
//!   [`block_local_locals`]) are no variable at all; constants on an IR block's main line are
//!   created once per block.
//! - Functions in the huge tier ([`crate::tier`]) keep their locals in one stack slot instead
//!   of variables and name their branches' successors in source order.
//! - Struct copies move 16 bytes at a time through SSE registers.
//!
//! The parts, one concept per module: this module holds the module-wide environment
//! ([`LowerEnv`]), the entry points ([`lower_function`], [`lower_rt_stub`], [`lower_shim`];
//! `lower_function` stays defined here, where callgrind's `--toggle-collect` finds it by its
//! path) and the per-function state (`FnLower` and the types of its fields, defined here so
//! that the modules adding its methods reach the fields without wider visibility), whose
//! methods are spread over the others:
//! `function` (the driver: blocks, the prologue, instruction dispatch, terminators), `locals`
//! (variables and operands), `memory` (constants, loads and stores, stack slots, byte-wise
//! copies), `arith` (scalar arithmetic and division checks), `structs` (struct values),
//! `vec_ops` (element accesses, header hoisting, pushes), `calls` (calls and their status
//! tests), `traps` (trap blocks and bail-outs). The analyses run before lowering are in
//! `local_classes` ([`block_local_locals`], [`field_struct_locals`]) and `loops`
//! ([`header_invariant_loops`]).

mod arith;
mod calls;
mod function;
mod local_classes;
mod locals;
mod loops;
mod memory;
mod structs;
mod traps;
mod vec_ops;

pub(crate) use local_classes::field_struct_locals_from;
pub use local_classes::{
    block_local_locals, block_local_locals_into, field_struct_locals, field_struct_locals_into,
};
pub(crate) use loops::HoistedHeader;
pub use loops::{header_invariant_loops, header_invariant_loops_into, HoistLoop, LoopScanScratch};

use crate::abi;
use crate::append::Builder;
use crate::error::JitError;
use crate::runtime::{RtFunc, CTX_DEPTH, CTX_MAX_DEPTH, CTX_RT_HANDLE, CTX_RT_RESULT};
use crate::scratch::{reserve_function, LowerScratch, ModuleSizes};
use crate::ssa::SsaVar;
use crate::tier::Tier;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    self as cl, types, ExtFuncData, ExternalName, FuncRef, InstBuilder, MemFlags, MemFlagsData,
    MemFlagsSet, Opcode, Signature, StackSlot, UserExternalName, Value,
};
use cranelift_codegen::isa::{CallConv, TargetFrontendConfig, TargetIsa};
use cranelift_codegen::settings::OptLevel;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use poolopt_ir::EntityRef;
use poolopt_ir::{
    Block, ElemType, FuncId, Function, InstKind, Module, ScalarType, StructId, StructLayout,
    Terminator, TrapKind, Type,
};

/// Module-wide facts the lowering of each function needs.
pub struct LowerEnv<'a> {
    pub module: &'a Module,
    pub call_conv: CallConv,
    /// The index (Cranelift module `FuncId`) each IR function is declared under.
    pub ir_func_index: Vec<u32>,
    /// The index each runtime function is declared under, in [`RtFunc::ALL`] order.
    pub rt_func_index: [u32; 4],
    /// Whether to compile fuel checks.
    pub fuel: bool,
    /// Whether a field stored into an element is computed again at the store when another
    /// block computed it cheaply ([`FnLower::rematerialized`]): for Cranelift's
    /// `opt_level=none`, which has no egraph to place it at its use. Off by [`LowerEnv::new`];
    /// set from the ISA by [`LowerEnv::for_opt_level_of`].
    rematerialize: bool,
    layouts: Vec<StructLayout>,
    /// Per function: on a cycle of the call graph (its frames count towards the call depth).
    recursive: Vec<bool>,
    /// Per function: whether a call of it can end in a trap (its callers test its status).
    may_trap: Vec<bool>,
    /// Per function: its Cranelift signature ([`abi::ir_signature`]), made once per module
    /// rather than once per definition and once per calling function.
    signatures: Vec<Signature>,
    /// The sizes of the largest function, which the lowering's tables are sized for at once.
    pub(crate) sizes: ModuleSizes,
}

impl<'a> LowerEnv<'a> {
    /// Function `fid` of the module (an error, not a panic, for an id from elsewhere).
    fn function(&self, fid: FuncId) -> Result<&'a Function, JitError> {
        self.module
            .funcs
            .get(fid)
            .ok_or_else(|| JitError::Malformed {
                function: String::new(),
                message: format!("no function {fid}"),
            })
    }

    /// Lowers for the optimization level of `isa` (the one the functions are compiled with):
    /// at `opt_level=none`, cheap field values are computed again at their element store
    /// (`FnLower::rematerialized`).
    pub fn for_opt_level_of(mut self, isa: &dyn TargetIsa) -> Self {
        self.rematerialize = isa.flags().opt_level() == OptLevel::None;
        self
    }

    /// Checks the module-wide invariants the lowering relies on and computes struct layouts.
    pub fn new(
        module: &'a Module,
        call_conv: CallConv,
        ir_func_index: Vec<u32>,
        rt_func_index: [u32; 4],
        fuel: bool,
    ) -> Result<LowerEnv<'a>, JitError> {
        for (_, def) in module.structs.iter() {
            if let Some(f) = def.fields.iter().find(|f| f.ty.as_scalar().is_none()) {
                return Err(JitError::Unsupported {
                    function: String::new(),
                    message: format!(
                        "field `{}` of struct `{}` is not a scalar",
                        f.name, def.name
                    ),
                });
            }
        }
        let layouts = module.struct_layouts();
        let recursive = poolopt_ir::call_graph::recursive_functions(module);
        let may_trap = may_trap(module, &recursive, fuel);
        let signatures = module
            .funcs
            .values()
            .map(|f| abi::ir_signature(module, f, call_conv))
            .collect();
        Ok(LowerEnv {
            module,
            call_conv,
            ir_func_index,
            rt_func_index,
            fuel,
            rematerialize: false,
            layouts,
            recursive,
            may_trap,
            signatures,
            sizes: ModuleSizes::of(module),
        })
    }

    fn layout(&self, sid: StructId) -> Option<&StructLayout> {
        self.layouts.get(sid.index())
    }

    /// Whether struct `sid` travels as one `i64` ([`abi::is_small_struct`], from the layouts
    /// computed once).
    fn is_small_struct(&self, sid: StructId) -> bool {
        self.layout(sid).is_some_and(|l| l.size <= 8)
    }

    /// Whether `func` returns a struct through a return area ([`abi::has_struct_ret`]).
    fn has_struct_ret(&self, func: &Function) -> bool {
        matches!(func.ret, Some(Type::Struct(sid)) if !self.is_small_struct(sid))
    }

    /// The Cranelift signature of IR function `fid`.
    fn signature(&self, fid: FuncId) -> Signature {
        match self.signatures.get(fid.index()) {
            Some(sig) => sig.clone(),
            None => Signature::new(self.call_conv),
        }
    }

    /// Makes `out` IR function `fid`'s Cranelift signature, within `out`'s own storage: the
    /// function being lowered into is cleared, not dropped, from one IR function to the next,
    /// and `Function::clear` empties its signature's lists without freeing them, so copying
    /// into them spares a `malloc` and a `free` per list and function.
    fn signature_into(&self, fid: FuncId, out: &mut Signature) {
        out.params.clear();
        out.returns.clear();
        match self.signatures.get(fid.index()) {
            Some(Signature {
                params,
                returns,
                call_conv,
            }) => {
                out.params.extend_from_slice(params);
                out.returns.extend_from_slice(returns);
                out.call_conv = *call_conv;
            }
            None => out.call_conv = self.call_conv,
        }
    }

    /// Whether `fid` lies on a cycle of the call graph (it checks the call depth).
    pub fn is_recursive(&self, fid: FuncId) -> bool {
        self.recursive.get(fid.index()).copied().unwrap_or(true)
    }

    /// Whether a call of `fid` can end in a trap.
    pub fn may_trap(&self, fid: FuncId) -> bool {
        self.may_trap.get(fid.index()).copied().unwrap_or(true)
    }
}

/// Per function, whether a call of it can end in a trap: it contains an instruction that can
/// trap (a checked access or pop, a division, `new`, `push`, `drop`, `trap`), checks the call
/// depth (it is recursive), consumes fuel, or calls a function that can trap. Computed bottom-up
/// over the call graph with a worklist.
fn may_trap(module: &Module, recursive: &[bool], fuel: bool) -> Vec<bool> {
    let n = module.funcs.len();
    let mut traps = vec![fuel; n];
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (fid, func) in module.funcs.iter() {
        let f = fid.index();
        if recursive.get(f).copied().unwrap_or(true) {
            traps[f] = true;
        }
        for &blk in &func.layout {
            let Some(data) = func.blocks.get(blk) else {
                traps[f] = true;
                continue;
            };
            if matches!(data.terminator, Some(Terminator::Trap(_)) | None) {
                traps[f] = true;
            }
            for &inst in &data.insts {
                let Some(kind) = func.insts.get(inst).map(|i| &i.kind) else {
                    traps[f] = true;
                    continue;
                };
                match kind {
                    InstKind::Copy { .. }
                    | InstKind::Unary { .. }
                    | InstKind::Compare { .. }
                    | InstKind::Cast { .. }
                    | InstKind::Make { .. }
                    | InstKind::GetField { .. }
                    | InstKind::SetField { .. }
                    | InstKind::VecLen { .. } => {}
                    InstKind::Binary { op, check, .. } => {
                        if op.is_division() && check.is_checked() {
                            traps[f] = true;
                        }
                    }
                    InstKind::VecPop { check, .. }
                    | InstKind::VecGet { check, .. }
                    | InstKind::VecSet { check, .. } => {
                        if check.is_checked() {
                            traps[f] = true;
                        }
                    }
                    InstKind::VecNew { .. }
                    | InstKind::VecPush { .. }
                    | InstKind::VecDrop { .. } => {
                        traps[f] = true;
                    }
                    InstKind::Call { func: callee, .. } => match callers.get_mut(callee.index()) {
                        Some(c) => c.push(f),
                        None => traps[f] = true,
                    },
                }
            }
        }
    }
    let mut work: Vec<usize> = (0..n).filter(|&f| traps[f]).collect();
    while let Some(f) = work.pop() {
        for &c in &callers[f] {
            if !traps[c] {
                traps[c] = true;
                work.push(c);
            }
        }
    }
    traps
}

/// What lowering one function produced besides the Cranelift function.
#[derive(Clone, Debug)]
pub struct LowerInfo {
    /// A generous estimate of the machine stack frame, in bytes.
    pub frame_estimate: u64,
    /// Whether the function's frames count towards the call depth (it lies on a cycle of the
    /// call graph). A function that does not is active at most once at a time, so a run's
    /// machine stack needs `max frame × (max_depth + 2)` plus the sum of these functions'
    /// frames.
    pub counts_depth: bool,
    /// The tier the function was lowered for, which its compilation must use: the one asked
    /// for, or [`Tier::Huge`] for a function whose loops nest too deep for the normal tier.
    pub tier: Tier,
}

/// How a local is represented.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Repr {
    Scalar(Variable, ScalarType),
    Vec(Variable, ElemType),
    Slot(StackSlot, StructId),
    Packed(Variable, StructId),
    /// A struct local held field by field, one `Variable` per field: `field_vars[start..]`
    /// (see [`field_struct_locals`]).
    Fields(u32, StructId),
}

/// The memory flags of every access: none of them can fault (checks come first).
fn mflags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// `func`'s memory-flags set, taken out of it, when the set holds exactly the flags the
/// lowering interns first ([`mflags`]), for the caller to put back once it has cleared `func`
/// for the next function: `Function::clear` drops the set with its hash table, and interning
/// the flags again costs a new table and two hashes per function. The next
/// [`lower_function`] finds them where interning would put them (the set's first entry).
pub(crate) fn reusable_mem_flags(func: &mut cl::Function) -> Option<MemFlagsSet> {
    let second = MemFlags::with_number(1)?;
    let flags = &func.dfg.mem_flags;
    let only_ours = ours_first(flags).is_some() && !flags.is_valid(second);
    only_ours.then(|| std::mem::replace(&mut func.dfg.mem_flags, MemFlagsSet::new()))
}

/// The set's first entry, when it holds the lowering's flags ([`mflags`]).
fn ours_first(flags: &MemFlagsSet) -> Option<MemFlags> {
    let first = MemFlags::with_number(0)?;
    (flags.is_valid(first) && flags[first] == mflags()).then_some(first)
}

/// Masks `c` to the width of `ty` after wrapping it, as Cranelift's `iconst` requires.
fn imm_for(ty: ScalarType, c: i64) -> i64 {
    let w = ty.wrap(c);
    match ty {
        ScalarType::I64 => w,
        other => ((w as u64) & ((1u64 << (other.size() * 8)) - 1)) as i64,
    }
}

/// Imports a function into `func` under the user name `(0, index)`, as cranelift-module's
/// `declare_func_in_func` does.
fn import(func: &mut cl::Function, index: u32, sig: Signature, colocated: bool) -> FuncRef {
    let signature = func.import_signature(sig);
    let name = func.declare_imported_user_function(UserExternalName {
        namespace: 0,
        index,
    });
    func.import_function(ExtFuncData {
        name: ExternalName::user(name),
        signature,
        colocated,
        patchable: false,
    })
}

/// Lowers IR function `fid` into `out` (whose signature and name are set here). `scratch`
/// lends the per-function tables; passing the same one for every function of a module keeps
/// their storage (see [`crate::scratch`]).
///
/// Never inlined: a phase boundary that callgrind's `--toggle-collect` counts by name
/// (docs/benchmarks.md), which the release profile's link-time optimization would otherwise
/// fold into its caller.
#[inline(never)]
#[allow(clippy::too_many_arguments)] // the module-wide storage (builder context, scratch, messages) is lent per call
pub fn lower_function(
    env: &LowerEnv<'_>,
    fid: FuncId,
    out: &mut cl::Function,
    messages: &mut Vec<String>,
    tier: Tier,
    scratch: &mut LowerScratch,
) -> Result<LowerInfo, JitError> {
    let ir = env.function(fid)?;
    env.signature_into(fid, &mut out.signature);
    out.name = cl::UserFuncName::user(0, env.ir_func_index.get(fid.index()).copied().unwrap_or(0));
    // Already the first entry when the caller kept the set ([`reusable_mem_flags`]).
    let notrap = match ours_first(&out.dfg.mem_flags) {
        Some(first) => first,
        None => out
            .dfg
            .mem_flags
            .insert(mflags())
            .map_err(|_| JitError::Malformed {
                function: ir.name.clone(),
                message: "too many memory flags".to_string(),
            })?,
    };
    reserve_function(out, &env.sizes, ir);
    let b = Builder::new(out);
    scratch.reset(ir, &env.sizes);
    let mut l = FnLower {
        env,
        ir,
        fidx: fid.index() as u32,
        site: fid.index() as u32,
        b,
        notrap,
        t: scratch,
        ctx: None,
        retarea: None,
        tier,
        huge: None,
        cur_block: None,
        node: 0,
        inst_pos: 0,
        any_deferred: false,
        bail: None,
        trap_blocks: [None; TrapKind::ALL.len()],
        recursive: env.is_recursive(fid),
        rt_refs: [None; 4],
        messages,
        slot_bytes: 0,
        site_line: 0,
    };
    let result = l.lower();
    let (slot_bytes, tier) = (l.slot_bytes, l.tier);
    // On an error the half-built function is discarded (the scratch is reset for the next).
    result?;
    let insts: u64 = ir.inst_count() as u64;
    Ok(LowerInfo {
        frame_estimate: slot_bytes + 16 * (ir.locals.len() as u64 + insts) + 512,
        counts_depth: env.is_recursive(fid),
        tier,
    })
}

/// Lowers the preserve-all stub of runtime function `rt` ([`RtFunc::uses_stub`]) into `out`:
/// it calls the runtime function (imported under `rt_index`, the platform's calling
/// convention) with its own parameters (and, for `grow` and `drop`, the vec handle from
/// [`CTX_RT_HANDLE`]) and stores the result at [`CTX_RT_RESULT`] of the context (the first
/// parameter). Being `preserve_all`, the stub saves and restores every
/// register the runtime call clobbers, so its callers' values stay in registers across it.
pub fn lower_rt_stub(
    rt: RtFunc,
    name_index: u32,
    rt_index: u32,
    call_conv: CallConv,
    out: &mut cl::Function,
    fbc: &mut FunctionBuilderContext,
    frontend: TargetFrontendConfig,
) -> Result<(), JitError> {
    if !rt.uses_stub() || !rt.returns_value() {
        return Err(JitError::Malformed {
            function: rt.name().to_string(),
            message: "runtime function without a preserve-all stub".to_string(),
        });
    }
    out.signature = abi::runtime_stub_signature(rt);
    out.name = cl::UserFuncName::user(0, name_index);
    let mut b = FunctionBuilder::new(out, fbc);
    let target = import(
        b.func,
        rt_index,
        abi::runtime_signature(rt, call_conv),
        false,
    );
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let mut params = b.block_params(entry).to_vec();
    if rt.stub_takes_handle() {
        // (ctx, site) -> (ctx, handle, site)
        let h = b.ins().load(types::I64, mflags(), params[0], CTX_RT_HANDLE);
        params.insert(1, h);
    }
    let call = b.ins().call(target, &params);
    let result = b.inst_results(call)[0];
    b.ins().store(mflags(), result, params[0], CTX_RT_RESULT);
    b.ins().return_(&[]);
    b.seal_all_blocks();
    b.finalize(frontend);
    Ok(())
}

/// Lowers the host entry shim of `fid`: `(ctx, args) -> i64`.
pub fn lower_shim(
    env: &LowerEnv<'_>,
    fid: FuncId,
    name_index: u32,
    out: &mut cl::Function,
    fbc: &mut FunctionBuilderContext,
    frontend: TargetFrontendConfig,
) -> Result<(), JitError> {
    let ir = env.function(fid)?;
    abi::host_callable(ir).map_err(|message| JitError::Unsupported {
        function: ir.name.clone(),
        message,
    })?;
    out.signature = abi::shim_signature(env.call_conv);
    out.name = cl::UserFuncName::user(0, name_index);
    let callee_sig = abi::ir_signature(env.module, ir, env.call_conv);
    let callee_index = env.ir_func_index.get(fid.index()).copied().unwrap_or(0);
    let mut b = FunctionBuilder::new(out, fbc);
    let callee = import(b.func, callee_index, callee_sig, true);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let ctx = b.block_params(entry)[0];
    let args = b.block_params(entry)[1];
    if !env.is_recursive(fid) {
        // The entry frame always counts towards the call depth; a recursive entry function
        // counts itself in its prologue, any other one is counted here.
        let depth = b.ins().load(types::I64, mflags(), ctx, CTX_DEPTH);
        let depth1 = b.ins().iadd_imm_s(depth, 1);
        b.ins().store(mflags(), depth1, ctx, CTX_DEPTH);
        let max = b.ins().load(types::I64, mflags(), ctx, CTX_MAX_DEPTH);
        let over = b.ins().icmp(IntCC::UnsignedGreaterThan, depth1, max);
        let overflow = b.create_block();
        b.set_cold_block(overflow);
        let run = b.create_block();
        b.ins().brif(over, overflow, &[], run, &[]);
        b.switch_to_block(overflow);
        let trap_sig = abi::runtime_signature(RtFunc::Trap, env.call_conv);
        let rt_trap = import(b.func, env.rt_func_index[3], trap_sig, false);
        let kind = b
            .ins()
            .iconst(types::I64, i64::from(TrapKind::StackOverflow.code()));
        // Reported at the entry function's `fn` line, as the interpreter does.
        let site = b.ins().iconst(
            types::I64,
            crate::runtime::site_code(fid.index() as u32, ir.loc.line),
        );
        let zero = b.ins().iconst(types::I64, 0);
        b.ins().call(rt_trap, &[ctx, kind, site, zero, zero]);
        b.ins().return_(&[zero]);
        b.switch_to_block(run);
    }
    let mut call_args = vec![ctx];
    for (i, &p) in ir.params.iter().enumerate() {
        let Some(Type::Scalar(s)) = ir.locals.get(p).map(|l| l.ty) else {
            continue;
        };
        let raw = b.ins().load(types::I64, mflags(), args, (8 * i) as i32);
        let mut v = if s == ScalarType::I64 {
            raw
        } else {
            b.ins().ireduce(abi::scalar_cl(s), raw)
        };
        if s == ScalarType::Bool {
            v = b.ins().band_imm_u(v, 1);
        }
        call_args.push(v);
    }
    let call = b.ins().call(callee, &call_args);
    let result = match ir.ret {
        Some(Type::Scalar(s)) => {
            let r = b.inst_results(call)[0];
            if s == ScalarType::I64 {
                r
            } else {
                b.ins().sextend(types::I64, r)
            }
        }
        _ => b.ins().iconst(types::I64, 0),
    };
    b.ins().return_(&[result]);
    b.seal_all_blocks();
    b.finalize(frontend);
    Ok(())
}

struct FnLower<'e, 'f, 'm, 's> {
    env: &'e LowerEnv<'e>,
    ir: &'e Function,
    fidx: u32,
    /// The function that trap sites report: the one the current instruction was written in
    /// (its location's origin after inlining), else `fidx`.
    site: u32,
    b: Builder<'f>,
    /// The memory flags of every access ([`mflags`]), interned in the function once.
    notrap: MemFlags,
    /// The per-function tables: the caller's [`LowerScratch`], lent for the function.
    t: &'s mut LowerScratch,
    ctx: Option<Value>,
    retarea: Option<Value>,
    /// How the function is compiled (see [`crate::tier`]).
    tier: Tier,
    /// In the huge tier, where the locals live.
    huge: Option<HugeLocals>,
    /// The IR block being lowered.
    cur_block: Option<Block>,
    /// The SSA construction's node being lowered ([`crate::ssa`]): the current IR block's, or
    /// the separate start block's during a prologue of its own.
    node: usize,
    /// The index of the IR instruction being lowered in its block (the terminator's is the
    /// block's instruction count).
    inst_pos: u32,
    /// Whether some variable of this function holds a deferred computation
    /// ([`FnLower::deferred_binary`]); until then reads and writes skip the table.
    any_deferred: bool,
    bail: Option<cl::Block>,
    /// The function's shared cold trap block of each kind (see [`FnLower::trap_block`]).
    /// The trap block of each kind sites currently jump to, and how many sites use it.
    trap_blocks: [Option<(cl::Block, u32)>; TrapKind::ALL.len()],
    /// Whether the function lies on a cycle of the call graph (it counts the call depth).
    recursive: bool,
    rt_refs: [Option<FuncRef>; 4],
    messages: &'m mut Vec<String>,
    slot_bytes: u64,
    /// The source line trap sites being emitted are attributed to (see [`FnLower::site_code`]).
    site_line: u32,
}

type R<T> = Result<T, JitError>;

/// The huge tier's locals: one stack slot holding 8 bytes per scalar, vec and packed local
/// (block-local ones excepted), and the slot's address within the IR block being lowered.
struct HugeLocals {
    slot: StackSlot,
    next_offset: u32,
    base: Option<Value>,
}

/// A value not computed where its local was assigned: `op x, c` of type `ty`, computed where
/// it is read (`FnLower::deferred_binary`).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Deferred {
    op: Opcode,
    ty: types::Type,
    x: Value,
    c: Value,
}

/// Where a scalar, vec or packed local's value lives.
#[derive(Copy, Clone, Debug)]
pub(crate) enum VarKind {
    /// This variable of the SSA construction ([`crate::ssa`]).
    Ssa(SsaVar),
    /// Only in the IR block being lowered (the local is block-local), of this type.
    BlockLocal(types::Type),
    /// At this offset of the huge tier's locals slot, of this type.
    Memory(u32, types::Type),
    /// The value of the local's one assignment, which dominates every read (the local is
    /// fixed: see [`crate::fixed_locals`]), once lowered, of type `ty`. With `early`, the
    /// assignment also defines that SSA variable, for the one read the lowering itself adds
    /// that can come before it: a hoisted loop header's vec (see
    /// [`FnLower::load_loop_headers`]). Other fixed locals never meet the SSA construction
    /// (a variable costs a column of its table) and have no variable there.
    Fixed {
        value: Option<Value>,
        early: Option<SsaVar>,
        ty: types::Type,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memory_flags_set_is_kept_only_when_it_holds_the_lowerings_flags_alone() {
        let mut func = cl::Function::new();
        assert!(reusable_mem_flags(&mut func).is_none(), "an empty set");
        let ours = func.dfg.mem_flags.insert(mflags()).expect("room");
        let kept = reusable_mem_flags(&mut func).expect("only the lowering's flags");
        assert_eq!(kept[ours], mflags());
        assert!(
            !func.dfg.mem_flags.is_valid(ours),
            "taken out of the function"
        );

        let mut func = cl::Function::new();
        func.dfg.mem_flags.insert(mflags()).expect("room");
        func.dfg
            .mem_flags
            .insert(MemFlagsData::new().with_readonly())
            .expect("room");
        assert!(
            reusable_mem_flags(&mut func).is_none(),
            "another flag besides"
        );

        let mut func = cl::Function::new();
        func.dfg
            .mem_flags
            .insert(MemFlagsData::new())
            .expect("room");
        assert!(reusable_mem_flags(&mut func).is_none(), "other flags first");
    }

    #[test]
    fn immediates_are_masked_to_width() {
        assert_eq!(imm_for(ScalarType::I8, -1), 0xff);
        assert_eq!(imm_for(ScalarType::I16, 0x1_2345), 0x2345);
        assert_eq!(imm_for(ScalarType::I32, -2), 0xffff_fffe);
        assert_eq!(imm_for(ScalarType::I64, -2), -2);
        assert_eq!(imm_for(ScalarType::Bool, 3), 1);
    }
}
