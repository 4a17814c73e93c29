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

use crate::abi::{self, PTR};
use crate::append::{AppendIns, Builder};
use crate::error::JitError;
use crate::fixed_locals::{fixed_locals_into, WalkExtras};
use crate::runtime::{
    RtFunc, CTX_DEAD_HEADER, CTX_DEPTH, CTX_FUEL, CTX_MAX_DEPTH, CTX_RT_HANDLE, CTX_RT_RESULT,
    HDR_CAP, HDR_LEN, HDR_PTR,
};
use crate::scratch::{refill, reserve_function, LowerScratch, ModuleSizes};
use crate::ssa::SsaVar;
use crate::tier::{
    live_area_needs_huge_tier, Tier, MAX_BLOCK_LOCAL_SPAN, MAX_CROSSING, MAX_LIVE_AREA,
    MAX_LOOP_DEPTH_SUM,
};
use cranelift_codegen::ir::condcodes::{CondCode, IntCC};
use cranelift_codegen::ir::{
    self as cl, types, ExtFuncData, ExternalName, FuncRef, InstBuilder, InstructionData, MemFlags,
    MemFlagsData, MemFlagsSet, Opcode, Signature, StackSlot, StackSlotData, StackSlotKind,
    UserExternalName, Value, ValueDef,
};
use cranelift_codegen::isa::{CallConv, TargetFrontendConfig, TargetIsa};
use cranelift_codegen::settings::OptLevel;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use poolopt_ir::cfg::Cfg;
use poolopt_ir::field_wise::{field_wise_struct, for_each_barred};
use poolopt_ir::room::{map_room, vec_room};
use poolopt_ir::EntityRef;
use poolopt_ir::SecondaryMap;
use poolopt_ir::{
    BinaryOp, Block, CastOp, Check, CmpOp, ElemType, FuncId, Function, InstKind, Local, Module,
    Operand, ScalarType, StructId, StructLayout, Terminator, TrapKind, Type, UnaryOp,
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
    let ir = env
        .module
        .funcs
        .get(fid)
        .ok_or_else(|| JitError::Malformed {
            function: String::new(),
            message: format!("no function {fid}"),
        })?;
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
    let ir = env
        .module
        .funcs
        .get(fid)
        .ok_or_else(|| JitError::Malformed {
            function: String::new(),
            message: format!("no function {fid}"),
        })?;
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

/// How many trap sites share one trap block (see [`FnLower::trap_block`]).
const TRAP_BLOCK_SITES: u32 = 32;

impl FnLower<'_, '_, '_, '_> {
    /// The function index trap sites at `loc` report.
    fn origin(&self, loc: poolopt_ir::Loc) -> u32 {
        loc.origin().map_or(self.fidx, |f| f.index() as u32)
    }

    #[cold]
    fn malformed(&self, message: impl Into<String>) -> JitError {
        JitError::Malformed {
            function: self.ir.name.clone(),
            message: message.into(),
        }
    }

    #[cold]
    fn unsupported(&self, message: impl Into<String>) -> JitError {
        JitError::Unsupported {
            function: self.ir.name.clone(),
            message: message.into(),
        }
    }

    fn ctx(&self) -> R<Value> {
        self.ctx
            .ok_or_else(|| self.malformed("context used before the prologue"))
    }

    fn bail(&self) -> R<cl::Block> {
        self.bail
            .ok_or_else(|| self.malformed("bail block used before the prologue"))
    }

    fn local_name(&self, l: Local) -> String {
        self.ir
            .locals
            .get(l)
            .map_or_else(|| l.to_string(), |d| d.name.to_string())
    }

    fn repr(&self, l: Local) -> R<Repr> {
        self.t
            .locals
            .get(l)
            .copied()
            .flatten()
            .ok_or_else(|| self.malformed(format!("undeclared local {l}")))
    }

    fn layout(&self, sid: StructId) -> R<&StructLayout> {
        self.env
            .layout(sid)
            .ok_or_else(|| self.malformed(format!("undeclared struct {sid}")))
    }

    fn field(&self, sid: StructId, field: u32) -> R<(u32, ScalarType)> {
        let def = self
            .env
            .module
            .structs
            .get(sid)
            .ok_or_else(|| self.malformed(format!("undeclared struct {sid}")))?;
        let f = def.fields.get(field as usize).ok_or_else(|| {
            self.malformed(format!("struct `{}` has no field #{field}", def.name))
        })?;
        let ty = f.ty.as_scalar().ok_or_else(|| {
            self.unsupported(format!(
                "field `{}` of `{}` is not a scalar",
                f.name, def.name
            ))
        })?;
        let off = self.layout(sid)?.offsets[field as usize];
        Ok((off, ty))
    }

    fn elem_size(&self, elem: ElemType) -> R<u32> {
        Ok(match elem {
            ElemType::Scalar(s) => s.size(),
            ElemType::Struct(sid) => self.layout(sid)?.size,
        })
    }

    fn cl_block(&self, blk: Block) -> R<cl::Block> {
        self.t
            .blocks
            .get(blk)
            .copied()
            .flatten()
            .ok_or_else(|| self.malformed(format!("branch to {blk}, which is not in the layout")))
    }

    // ---------------------------------------------------------------- references

    fn rt_ref(&mut self, rt: RtFunc) -> FuncRef {
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
    fn call_rt_stub(&mut self, rt: RtFunc, args: &[Value]) -> R<Value> {
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

    // ---------------------------------------------------------------- small helpers

    /// A builder for one instruction at the end of the current block (see [`crate::append`]).
    fn ins(&mut self) -> AppendIns<'_> {
        self.b.ins()
    }

    fn iconst(&mut self, ty: ScalarType, c: i64) -> Value {
        self.ins().iconst(abi::scalar_cl(ty), imm_for(ty, c))
    }

    fn i64c(&mut self, c: i64) -> Value {
        self.ins().iconst(types::I64, c)
    }

    /// A constant on the IR block's main line, created once per IR block (the main line's
    /// blocks dominate each other in order; see [`block_local_locals`]). Never use it on a
    /// cold path (trap edges, growth, the bail block) or on a branch off the main line, unless
    /// the cache is truncated back afterwards (as `push` does for its two stores).
    fn block_const(&mut self, ty: types::Type, c: i64) -> Value {
        if let Some(v) = self.t.block_consts.get(ty, c) {
            return v;
        }
        let v = self.ins().iconst(ty, c);
        self.t.block_consts.push(ty, c, v);
        v
    }

    /// A load with the function's interned `notrap` flags (`InstBuilder::load` would look the
    /// flags up in the function's flag set, a hash, for every access).
    fn load(&mut self, ty: types::Type, addr: Value, off: i32) -> Value {
        let notrap = self.notrap;
        let (inst, dfg) = self.ins().Load(Opcode::Load, ty, notrap, off.into(), addr);
        dfg.first_result(inst)
    }

    /// A store with the function's interned `notrap` flags (see [`FnLower::load`]).
    fn store(&mut self, v: Value, addr: Value, off: i32) {
        let ty = self.b.func.dfg.value_type(v);
        let notrap = self.notrap;
        self.ins()
            .Store(Opcode::Store, ty, notrap, off.into(), v, addr);
    }

    fn new_slot(&mut self, size: u32, align: u32) -> StackSlot {
        let align_shift = align.max(1).trailing_zeros().min(4) as u8;
        self.slot_bytes += u64::from(size.max(1)) + u64::from(align.max(1));
        self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            size.max(1),
            align_shift,
        ))
    }

    fn slot_addr(&mut self, ss: StackSlot) -> Value {
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
    fn copy_mem(&mut self, dst: Value, dst_off: i32, src: Value, src_off: i32, size: u32) {
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

    fn zero_mem(&mut self, dst: Value, size: u32) {
        for (off, bytes) in Self::chunks(size) {
            let ty = Self::chunk_ty(bytes);
            let z = self.block_const(ty, 0);
            self.store(z, dst, off as i32);
        }
    }

    /// Loads `size` (at most 8) bytes at `addr + off` into the low bytes of an i64.
    fn load_bytes(&mut self, addr: Value, off: i32, size: u32) -> Value {
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
    fn store_bytes(&mut self, v: Value, addr: Value, off: i32, size: u32) {
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

    /// Converts an integer value between scalar types (`signed` picks sign- or zero-extension
    /// when widening); converting to `bool` keeps the low bit.
    fn convert(&mut self, v: Value, from: ScalarType, to: ScalarType, signed: bool) -> Value {
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

    // ---------------------------------------------------------------- traps

    /// The site code a trap record carries for a trap raised here: the index of the IR
    /// function the trapping code was written in (the trap record's `func`; after inlining,
    /// the callee's) and, above it, the source line ([`crate::runtime::site_code`]).
    fn site_code(&self) -> i64 {
        crate::runtime::site_code(self.site, self.site_line)
    }

    /// The function's shared cold block for traps of `kind`, created on first use (and
    /// filled by [`FnLower::fill_trap_blocks`] once the body is lowered). Its block parameters
    /// are the site code and, for `index_oob`, the index and the length, for `explicit`, the
    /// message index; it calls `rt_trap` and jumps to the bail block. One such block per kind
    /// replaces a call sequence per trap site; after [`TRAP_BLOCK_SITES`] sites a fresh one is
    /// started, so that the register allocator never sees a block parameter merged over
    /// thousands of edges (which made huge functions compile 2.6 times slower).
    fn trap_block(&mut self, kind: TrapKind) -> cl::Block {
        if let Some((blk, uses)) = &mut self.trap_blocks[kind.code() as usize] {
            if *uses < TRAP_BLOCK_SITES {
                *uses += 1;
                return *blk;
            }
        }
        let blk = self.b.create_block();
        self.b.set_cold_block(blk);
        let nparams = match kind {
            TrapKind::IndexOob => 3,
            TrapKind::Explicit => 2,
            _ => 1,
        };
        for _ in 0..nparams {
            self.b.append_block_param(blk, types::I64);
        }
        self.trap_blocks[kind.code() as usize] = Some((blk, 1));
        self.t.all_trap_blocks.push((kind, blk));
        blk
    }

    /// Emits the bodies of the trap blocks used (the current block must be filled).
    fn fill_trap_blocks(&mut self) -> R<()> {
        let ctx = self.ctx()?;
        let bail = self.bail()?;
        let trap_blocks = std::mem::take(&mut self.t.all_trap_blocks);
        for &(kind, blk) in &trap_blocks {
            self.b.switch_to_block(blk);
            let (site, a, b) = match *self.b.block_params(blk) {
                [site, a, b] => (site, Some(a), Some(b)),
                [site, a] => (site, Some(a), None),
                [site] => (site, None, None),
                _ => return Err(self.malformed("a trap block without its site parameter")),
            };
            let kind_v = self.i64c(i64::from(kind.code()));
            // Kind 0's code is itself the zero the unused arguments take.
            let zero = |s: &mut Self| match kind.code() {
                0 => kind_v,
                _ => s.i64c(0),
            };
            let (a, b) = match (a, b) {
                (Some(a), Some(b)) => (a, b),
                (Some(a), None) => (a, zero(self)),
                _ => {
                    let z = zero(self);
                    (z, z)
                }
            };
            let rt = self.rt_ref(RtFunc::Trap);
            self.ins().call(rt, &[ctx, kind_v, site, a, b]);
            self.b.ins().jump(bail, &[]);
        }
        // Handed back, so that the next function reuses its storage.
        self.t.all_trap_blocks = trap_blocks;
        Ok(())
    }

    /// The arguments of a jump to the trap block of `kind` from this site, and how many of
    /// the three there are.
    fn trap_args(
        &mut self,
        kind: TrapKind,
        a: Option<Value>,
        b: Option<Value>,
    ) -> R<([cl::BlockArg; 3], usize)> {
        let site = cl::BlockArg::Value(self.i64c(self.site_code()));
        match kind {
            TrapKind::IndexOob => {
                let (Some(a), Some(b)) = (a, b) else {
                    return Err(self.malformed("an index_oob trap needs the index and length"));
                };
                Ok(([site, cl::BlockArg::Value(a), cl::BlockArg::Value(b)], 3))
            }
            TrapKind::Explicit => {
                let Some(a) = a else {
                    return Err(self.malformed("an explicit trap needs its message"));
                };
                Ok(([site, cl::BlockArg::Value(a), site], 2))
            }
            _ => Ok(([site; 3], 1)),
        }
    }

    /// Branches to the trap block of `kind` when `x cc y` holds, through a small cold edge
    /// block that supplies this site's code (so the hot path carries no trap constants).
    ///
    /// In the huge tier the branch tests the complement (`brif ok, cont, edge`): Cranelift's
    /// block order (a reverse postorder whose depth-first walk takes a branch's first
    /// successor first) then places the edge block right after its site instead of after
    /// the rest of the function, so the index and length it passes are not live across
    /// everything in between (which made register allocation quadratic in huge functions).
    fn trap_if(
        &mut self,
        cc: IntCC,
        x: Value,
        y: Value,
        kind: TrapKind,
        a: Option<Value>,
        b: Option<Value>,
    ) -> R<()> {
        let edge = self.b.create_block();
        self.b.set_cold_block(edge);
        let cont = self.b.create_block();
        if self.tier == Tier::Huge {
            let ok = self.ins().icmp(cc.complement(), x, y);
            self.b.ins().brif(ok, cont, &[], edge, &[]);
        } else {
            let fail = self.ins().icmp(cc, x, y);
            self.b.ins().brif(fail, edge, &[], cont, &[]);
        }
        self.b.switch_to_block(edge);
        self.emit_trap_call(kind, a, b)?;
        self.b.switch_to_block(cont);
        Ok(())
    }

    /// Jumps to the trap block of `kind` (terminates the current block).
    fn emit_trap_call(&mut self, kind: TrapKind, a: Option<Value>, b: Option<Value>) -> R<()> {
        let (args, n) = self.trap_args(kind, a, b)?;
        let blk = self.trap_block(kind);
        self.b.ins().jump(blk, &args[..n]);
        Ok(())
    }

    /// Returns at once when `status` is nonzero (a callee or the runtime recorded a trap).
    fn bail_if(&mut self, status: Value) -> R<()> {
        self.bail_when(status, true)
    }

    /// Returns at once when `value` is zero (the runtime recorded a trap).
    fn bail_unless(&mut self, value: Value) -> R<()> {
        self.bail_when(value, false)
    }

    /// Returns at once when `value` is nonzero (`nonzero`) or zero (`!nonzero`); otherwise
    /// goes on in a new block.
    fn bail_when(&mut self, value: Value, nonzero: bool) -> R<()> {
        let bail = self.bail()?;
        let cont = self.b.create_block();
        let (then_block, else_block) = if nonzero { (bail, cont) } else { (cont, bail) };
        self.b.ins().brif(value, then_block, &[], else_block, &[]);
        self.b.switch_to_block(cont);
        Ok(())
    }

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
    fn declare_local_var(
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
    fn remembered(&self, i: usize) -> Option<Value> {
        let (v, at) = self.t.block_values.get(i).copied().flatten()?;
        let far = self.huge.is_some()
            && self.inst_pos.saturating_sub(at) > MAX_BLOCK_LOCAL_SPAN
            && matches!(self.t.var_kinds.get(i), Some(VarKind::Memory(..)));
        (!far).then_some(v)
    }

    /// Forgets the values known in the IR block just lowered.
    fn forget_block_values(&mut self) {
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
    fn read_var(&mut self, var: Variable) -> Value {
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
    fn write_var(&mut self, var: Variable, v: Value) {
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
    fn scalar_operand(&mut self, op: Operand, ty: ScalarType) -> R<Value> {
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
    fn operand_ty(&self, op: Operand, default: ScalarType) -> R<ScalarType> {
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

    fn scalar_dst(&self, l: Local) -> R<(Variable, ScalarType)> {
        match self.repr(l)? {
            Repr::Scalar(var, ty) => Ok((var, ty)),
            _ => Err(self.malformed(format!(
                "local `{}` is assigned a scalar but is not one",
                self.local_name(l)
            ))),
        }
    }

    fn vec_local(&mut self, l: Local) -> R<(Value, ElemType)> {
        match self.repr(l)? {
            Repr::Vec(var, elem) => Ok((self.read_var(var), elem)),
            _ => Err(self.malformed(format!(
                "local `{}` is used as a vec but is not one",
                self.local_name(l)
            ))),
        }
    }

    fn struct_repr(&self, l: Local, sid: StructId) -> R<Repr> {
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

    fn struct_local(&self, l: Local) -> R<(Repr, StructId)> {
        match self.repr(l)? {
            r @ (Repr::Slot(_, s) | Repr::Packed(_, s) | Repr::Fields(_, s)) => Ok((r, s)),
            _ => Err(self.malformed(format!("local `{}` is not a struct", self.local_name(l)))),
        }
    }

    fn struct_operand(&self, op: Operand, sid: StructId) -> R<Repr> {
        match op {
            Operand::Local(l) => self.struct_repr(l, sid),
            Operand::Const(_) => Err(self.malformed("a constant is used as a struct value")),
        }
    }

    /// Writes the struct value `src` to memory at `addr + off`.
    fn struct_to_mem(&mut self, src: Repr, sid: StructId, addr: Value, off: i32) -> R<()> {
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
    fn field_var(&self, start: u32, i: usize) -> R<Variable> {
        self.t
            .field_vars
            .get(start as usize + i)
            .copied()
            .ok_or_else(|| self.malformed("field of a field-wise struct out of range"))
    }

    /// Reads the struct value at `addr + off` into struct local `dst`.
    fn mem_to_struct(&mut self, dst: Repr, sid: StructId, addr: Value, off: i32) -> R<()> {
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
    fn struct_address(&mut self, src: Repr) -> R<Value> {
        match src {
            Repr::Slot(ss, _) => Ok(self.slot_addr(ss)),
            _ => Err(self.malformed("struct expected")),
        }
    }

    // ---------------------------------------------------------------- the function

    fn lower(&mut self) -> R<()> {
        let ir = self.ir;
        if ir.layout.is_empty() {
            return Err(self.malformed("the function has no blocks"));
        }
        let n_blocks = ir.blocks.len();
        for (pos, &blk) in ir.layout.iter().enumerate() {
            if ir.blocks.get(blk).is_none() {
                return Err(self.malformed(format!("layout lists undeclared block {blk}")));
            }
            let c = self.b.create_block();
            self.t.blocks[blk] = Some(c);
            self.t.layout_pos[blk] = pos as u32;
        }
        // Count the branches into each block (the entry block is also entered from `start`).
        let preds = &mut self.t.preds_left;
        for &blk in &ir.layout {
            let targets: &[Block] = match ir.blocks[blk].terminator.as_ref() {
                Some(Terminator::Br(t)) => std::slice::from_ref(t),
                Some(Terminator::BrIf {
                    then_block,
                    else_block,
                    ..
                }) => &[*then_block, *else_block],
                _ => &[],
            };
            for &t in targets {
                if let Some(n) = preds.get_mut(t) {
                    *n += 1;
                }
            }
        }
        // The function starts in the entry IR block's own Cranelift block when no branch
        // leads back to it (the usual case): the prologue then runs straight into its
        // instructions, without a block and a jump of its own.
        let first = ir.layout[0];
        let first_cl = self.cl_block(first)?;
        let merged_entry = self.t.preds_left[first] == 0;
        // The SSA construction's nodes ([`crate::ssa`]): one per IR block, numbered as the
        // blocks are, and the start block's after them.
        let start_node = n_blocks;
        let start = if merged_entry {
            first_cl
        } else {
            self.t.preds_left[first] += 1;
            self.b.create_block()
        };
        {
            let t = &mut *self.t;
            let preds_left = &t.preds_left;
            t.ssa.reset(n_blocks + 1, |n| {
                preds_left.get(Block::new(n)).copied().unwrap_or(0)
            });
            for &blk in &ir.layout {
                if let Some(Some(c)) = t.blocks.get(blk).copied() {
                    t.ssa.set_head(blk.index(), c);
                }
            }
            if !merged_entry {
                t.ssa.set_head(start_node, start);
            }
        }
        self.node = if merged_entry {
            first.index()
        } else {
            start_node
        };
        self.b.append_block_params_for_function_params(start);
        let bail = self.b.create_block();
        self.b.set_cold_block(bail);
        self.bail = Some(bail);
        self.b.switch_to_block(start);
        // Nothing branches to the start block.
        self.t.ssa.seal(self.b.func, self.node);
        self.t.params.extend_from_slice(self.b.block_params(start));
        let params = &self.t.params;
        let ctx = params[0];
        self.ctx = Some(ctx);
        let mut next = 1;
        if self.env.has_struct_ret(ir) {
            self.retarea = Some(params[1]);
            next = 2;
        }
        if params.len() - next != ir.params.len() {
            return Err(self.malformed("parameter count mismatch"));
        }

        // The call-depth check comes before anything else, in functions on a cycle of the
        // call graph only: the others cannot deepen the stack without bound.
        if self.recursive {
            let depth = self.load(types::I64, ctx, CTX_DEPTH);
            let depth1 = self.ins().iadd_imm_s(depth, 1);
            self.store(depth1, ctx, CTX_DEPTH);
            let max = self.load(types::I64, ctx, CTX_MAX_DEPTH);
            self.site_line = ir.loc.line; // a stack_overflow is reported at the callee's `fn`
            self.trap_if(
                IntCC::UnsignedGreaterThan,
                depth1,
                max,
                TrapKind::StackOverflow,
                None,
                None,
            )?;
        }

        // A function small enough for the normal tier still goes to the huge one when its
        // loops nest too deep, or too many of its locals cross blocks, or too many values are
        // live at once for too long, for the normal tier's register allocation (see
        // `tier::MAX_LOOP_DEPTH_SUM`, `tier::MAX_CROSSING` and `tier::MAX_LIVE_AREA`); the
        // loop depths, the CFG and the block-local flags are needed below anyway.
        let mut field_wise = false;
        if self.tier == Tier::Normal {
            let t = &mut *self.t;
            t.cfg.recompute(ir);
            let shallow = t.cfg.loop_depths_within(
                &mut t.loop_depth,
                &mut t.loop_mark,
                &mut t.loop_work,
                MAX_LOOP_DEPTH_SUM,
            );
            if shallow {
                // The block-local flags come from the same walk, and so do the mentions that
                // bar a struct local from being held field by field, when the function has a
                // candidate.
                field_wise = has_field_wise_candidate(ir);
                let live_area = fixed_locals_into(
                    ir,
                    &t.cfg,
                    &mut t.fixed_scratch,
                    &mut t.fixed,
                    &mut t.block_local,
                    field_wise.then_some(&mut t.by_fields_bad),
                    WalkExtras {
                        area_limit: MAX_LIVE_AREA,
                        track_make_reads: self.env.rematerialize,
                    },
                );
                let crossing = ir.locals.keys().filter(|&l| !t.block_local[l]).count() as u64;
                if crossing * ir.layout.len() as u64 > MAX_CROSSING
                    || live_area.is_some_and(live_area_needs_huge_tier)
                {
                    // The huge tier fixes no local (its flags are recomputed below).
                    refill(&mut t.fixed, ir.locals.len());
                    self.tier = Tier::Huge;
                }
            } else {
                self.tier = Tier::Huge;
            }
        }
        if self.tier == Tier::Huge {
            let count = ir
                .locals
                .values()
                .filter(|l| !matches!(l.ty, Type::Struct(_)) || l.packed)
                .count() as u32;
            let slot = self.new_slot(8 * count.max(1), 8);
            self.huge = Some(HugeLocals {
                slot,
                next_offset: 0,
                base: None,
            });
        }

        let t = &mut *self.t;
        if self.tier == Tier::Huge {
            block_local_locals_into(
                ir,
                &mut t.block_local_written,
                &mut t.block_local,
                MAX_BLOCK_LOCAL_SPAN,
            );
        } else {
            // The huge tier keeps every local in memory: a value live across the function
            // is what its single-pass register allocation must not have. (The CFG, the loop
            // depths and the fixed and block-local flags were computed above.)
            if field_wise {
                field_struct_locals_from(ir, self.env.module, &t.by_fields_bad, &mut t.by_fields);
            } else {
                refill(&mut t.by_fields, ir.locals.len());
            }
            header_invariant_loops_into(ir, &t.cfg, &mut t.loop_scan, &mut t.hoist_loops);
            t.hoisted.resize(t.hoist_loops.len(), Vec::new());
            if !t.hoist_loops.is_empty() {
                refill(&mut t.block_loops, ir.blocks.len());
                refill(&mut t.preheader_of, ir.blocks.len());
            }
            for (i, lp) in self.t.hoist_loops.iter().enumerate() {
                self.t.preheader_of[lp.preheader].push(i as u32);
                for &b in &lp.body {
                    self.t.block_loops[b].push(i as u32);
                }
            }
        }
        // Locals: parameters take their incoming values, the rest start as zero.
        for (i, &l) in ir.params.iter().enumerate() {
            self.t.param_index[l] = Some(i);
        }
        for (local, data) in ir.locals.iter() {
            let incoming = self.t.param_index[local].map(|i| self.t.params[next + i]);
            let repr = match data.ty {
                Type::Scalar(s) => {
                    // A local is zero until assigned. It is not defined here: the SSA construction
                    // materializes a zero in the entry block only for a read that some path
                    // reaches before any assignment, so a local that every path writes before
                    // reading costs nothing.
                    let var = self.declare_local_var(local, abi::scalar_cl(s), incoming);
                    Repr::Scalar(var, s)
                }
                Type::Vec(elem) => {
                    if let ElemType::Struct(sid) = elem {
                        self.layout(sid)?;
                    }
                    let v = match incoming {
                        Some(v) => Some(v),
                        None if self.t.block_local[local] || self.t.fixed[local] => None,
                        None => Some(self.ins().iadd_imm_s(ctx, i64::from(CTX_DEAD_HEADER))),
                    };
                    let var = self.declare_local_var(local, PTR, v);
                    Repr::Vec(var, elem)
                }
                Type::Struct(sid) => {
                    let (size, align) = self.layout(sid).map(|l| (l.size, l.align))?;
                    // A small struct parameter arrives as its bytes in one i64, a larger one
                    // as the address of the caller's copy.
                    let small = self.env.is_small_struct(sid);
                    if data.packed {
                        self.env.module.packable(sid).map_err(|why| {
                            self.unsupported(format!("local `{}` is packed but {why}", data.name))
                        })?;
                        // A packable struct fits 8 bytes, so a packed parameter arrives as its
                        // bytes in one i64. As for scalars, the all-zero value comes from the
                        // SSA construction if needed.
                        let var = self.declare_local_var(local, types::I64, incoming);
                        Repr::Packed(var, sid)
                    } else if self.t.by_fields[local] && incoming.is_none() {
                        // Zero until assigned, like a scalar local.
                        let start = self.t.field_vars.len() as u32;
                        let env = self.env;
                        let fields = env.module.structs.get(sid).map_or(&[][..], |d| &d.fields);
                        for fty in fields.iter().filter_map(|f| f.ty.as_scalar()) {
                            let var = self.declare_local_var(local, abi::scalar_cl(fty), None);
                            self.t.field_vars.push(var);
                        }
                        Repr::Fields(start, sid)
                    } else {
                        let ss = self.new_slot(size, align);
                        let addr = self.slot_addr(ss);
                        match incoming {
                            Some(p) if small => self.store_bytes(p, addr, 0, size),
                            Some(p) => self.copy_mem(addr, 0, p, 0, size),
                            None => self.zero_mem(addr, size),
                        }
                        Repr::Slot(ss, sid)
                    }
                }
            };
            self.t.locals[local] = Some(repr);
        }
        if !merged_entry {
            let jump = self.b.ins().jump(first_cl, &[]);
            self.add_pred(first, jump, start_node)?;
            self.edge_emitted(first);
            self.fill_bail(bail);
        }

        for (pos, &blk) in ir.layout.iter().enumerate() {
            let c = self.cl_block(blk)?;
            if pos > 0 || !merged_entry {
                self.b.switch_to_block(c);
                // (The prologue's values dominate a merged entry block's main line.)
                self.forget_block_values();
            }
            self.cur_block = Some(blk);
            self.node = blk.index();
            self.inst_pos = 0;
            if self.env.fuel {
                self.site_line = 0; // out_of_fuel reports no line
                let fuel = self.load(types::I64, ctx, CTX_FUEL);
                let zero = self.i64c(0);
                self.trap_if(IntCC::Equal, fuel, zero, TrapKind::OutOfFuel, None, None)?;
                let fuel1 = self.ins().iadd_imm_s(fuel, -1);
                self.store(fuel1, ctx, CTX_FUEL);
            }
            let data = &ir.blocks[blk];
            for (k, &inst) in data.insts.iter().enumerate() {
                self.inst_pos = k as u32;
                let inst_data = &ir
                    .insts
                    .get(inst)
                    .ok_or_else(|| self.malformed(format!("undeclared instruction {inst}")))?;
                self.site = self.origin(inst_data.loc);
                self.site_line = inst_data.loc.line;
                self.inst(&inst_data.kind)?;
            }
            let term = data.terminator.as_ref().ok_or_else(|| {
                self.malformed(format!("block `{}` has no terminator", data.name))
            })?;
            self.inst_pos = data.insts.len() as u32;
            self.load_loop_headers(blk)?;
            self.site = self.origin(data.term_loc);
            self.site_line = data.term_loc.line;
            self.terminator(term)?;
            self.site = self.fidx;
            if pos == 0 && merged_entry {
                // Not before: the entry block must be the first one in the layout, and a
                // block cannot be left half-filled.
                self.fill_bail(bail);
            }
        }
        self.fill_trap_blocks()?;
        // What is left unsealed is what nothing branches to: its reads see zero (sealed in
        // layout order, as cranelift-frontend sealed the blocks left at the end).
        if self.t.ssa.has_vars() {
            for &blk in &ir.layout {
                self.t.ssa.seal(self.b.func, blk.index());
            }
        }
        Ok(())
    }

    /// Fills `bail` with the bail-out return: a dummy result and the status 1 (trapped).
    fn fill_bail(&mut self, bail: cl::Block) {
        self.b.switch_to_block(bail);
        let ir = self.ir;
        let trapped = self.ins().iconst(abi::STATUS, 1);
        match ir.ret {
            Some(Type::Scalar(s)) => {
                let z = self.iconst(s, 0);
                self.b.ins().return_(&[z, trapped]);
            }
            Some(Type::Vec(_)) => {
                let z = self.i64c(0);
                self.b.ins().return_(&[z, trapped]);
            }
            Some(Type::Struct(sid)) if self.env.is_small_struct(sid) => {
                let z = self.i64c(0);
                self.b.ins().return_(&[z, trapped]);
            }
            Some(Type::Struct(_)) | None => {
                self.b.ins().return_(&[trapped]);
            }
        }
    }

    /// Records in the SSA construction that `branch`, emitted at the end of node `from`, leads
    /// to IR block `target` (see [`crate::ssa::Ssa::add_pred`]).
    fn add_pred(&mut self, target: Block, branch: cl::Inst, from: usize) -> R<()> {
        if self.t.ssa.add_pred(target.index(), branch, from) {
            Ok(())
        } else {
            Err(self.malformed(format!(
                "internal: more branches into {target} than the lowering counted"
            )))
        }
    }

    /// Records that one branch into IR block `target` is emitted; seals its SSA node
    /// ([`crate::ssa`]) once all are.
    fn edge_emitted(&mut self, target: Block) {
        let Some(n) = self.t.preds_left.get_mut(target) else {
            return;
        };
        if *n > 0 {
            *n -= 1;
            if *n == 0 {
                self.t.ssa.seal(self.b.func, target.index());
            }
        }
    }

    fn terminator(&mut self, term: &Terminator) -> R<()> {
        match term {
            Terminator::Br(target) => {
                let t = self.cl_block(*target)?;
                let jump = self.b.ins().jump(t, &[]);
                self.add_pred(*target, jump, self.node)?;
                self.edge_emitted(*target);
            }
            Terminator::BrIf {
                cond,
                then_block,
                else_block,
            } => {
                let c = self.scalar_operand(*cond, ScalarType::Bool)?;
                let t = self.cl_block(*then_block)?;
                let e = self.cl_block(*else_block)?;
                // In the huge tier: Cranelift lays blocks out in a reverse postorder whose
                // depth-first walk takes a branch's first successor first, which puts that
                // successor's subtree AFTER the other's. Naming the block that comes later in
                // the IR layout first keeps the layout's order (a loop body right after its
                // header, not after the rest of the function), so values stay live over short
                // stretches of the linear order the single-pass allocator works in.
                //
                // In the normal tier: Cranelift's optimizer hoists loop-invariant values while it
                // walks the dominator tree, whose children it visits with the branch's second
                // successor first; leaving the loop on the first child drops the loop from its
                // walk, so the blocks of the loop visited after it get nothing hoisted
                // (Cranelift 0.135.8, `egraph/elaborate.rs`). The successor inside more loops
                // is therefore named second: `brif c, body, exit` becomes `brif !c, exit, body`.
                let swap = match self.tier {
                    Tier::Huge => self.t.layout_pos[*then_block] < self.t.layout_pos[*else_block],
                    Tier::Normal => self.t.loop_depth[*then_block] > self.t.loop_depth[*else_block],
                };
                let branch = if swap {
                    let not_c = self.negate(c, *cond);
                    self.b.ins().brif(not_c, e, &[], t, &[])
                } else {
                    self.b.ins().brif(c, t, &[], e, &[])
                };
                // One predecessor per branch, even with both targets the same block, named
                // in the order of the branch's targets (as cranelift-frontend declared them).
                let (first, second) = if swap {
                    (*else_block, *then_block)
                } else {
                    (*then_block, *else_block)
                };
                self.add_pred(first, branch, self.node)?;
                if second != first {
                    self.add_pred(second, branch, self.node)?;
                }
                self.edge_emitted(*then_block);
                self.edge_emitted(*else_block);
            }
            Terminator::Ret(value) => {
                let ret = match (self.ir.ret, value) {
                    (None, None) => None,
                    (Some(Type::Scalar(s)), Some(op)) => Some(self.scalar_operand(*op, s)?),
                    (Some(Type::Vec(_)), Some(Operand::Local(l))) => Some(self.vec_local(*l)?.0),
                    (Some(Type::Struct(sid)), Some(op)) if self.env.is_small_struct(sid) => {
                        let size = self.layout(sid)?.size;
                        Some(match self.struct_operand(*op, sid)? {
                            Repr::Packed(var, _) => self.read_var(var),
                            Repr::Slot(ss, _) => {
                                let addr = self.slot_addr(ss);
                                self.load_bytes(addr, 0, size)
                            }
                            _ => return Err(self.malformed("struct expected")),
                        })
                    }
                    (Some(Type::Struct(sid)), Some(op)) => {
                        let src = self.struct_operand(*op, sid)?;
                        let area = self
                            .retarea
                            .ok_or_else(|| self.malformed("no return area"))?;
                        self.struct_to_mem(src, sid, area, 0)?;
                        None
                    }
                    _ => return Err(self.malformed("`ret` does not match the return type")),
                };
                if self.recursive {
                    let ctx = self.ctx()?;
                    let depth = self.load(types::I64, ctx, CTX_DEPTH);
                    let depth1 = self.ins().iadd_imm_s(depth, -1);
                    self.store(depth1, ctx, CTX_DEPTH);
                }
                let ok = self.block_const(abi::STATUS, 0);
                match ret {
                    Some(v) => self.b.ins().return_(&[v, ok]),
                    None => self.b.ins().return_(&[ok]),
                };
            }
            Terminator::Trap(msg) => {
                let index = self.messages.len() as i64;
                self.messages.push(msg.clone());
                let a = self.i64c(index);
                self.emit_trap_call(TrapKind::Explicit, Some(a), None)?;
            }
        }
        Ok(())
    }

    /// The negation of the bool `c` (the value of operand `op`): the complementary comparison
    /// when `c` is an `icmp` result, else `c == 0`. When that `icmp` is the last instruction of
    /// the current block and `op` is a block-local local (its value is read nowhere else: every
    /// other read of the local in this IR block would come after the compare, and none in
    /// other blocks), the compare itself is turned around instead of leaving it dead beside
    /// its complement: one CLIF instruction less per such branch, the same machine code.
    fn negate(&mut self, c: Value, op: Operand) -> Value {
        if let ValueDef::Result(inst, 0) = self.b.func.dfg.value_def(c) {
            if let InstructionData::IntCompare {
                opcode: Opcode::Icmp,
                args,
                cond,
            } = self.b.func.dfg.insts[inst]
            {
                if self.only_read_here(op, inst) {
                    self.b.func.dfg.insts[inst] = InstructionData::IntCompare {
                        opcode: Opcode::Icmp,
                        args,
                        cond: cond.complement(),
                    };
                    return c;
                }
                return self.ins().icmp(cond.complement(), args[0], args[1]);
            }
        }
        self.ins().icmp_imm_u(IntCC::Equal, c, 0)
    }

    /// Whether the value of operand `op`, defined by `inst`, is used by nothing but the
    /// branch about to be emitted: `inst` ends the current block so far and `op` is a
    /// block-local local (see [`FnLower::negate`]).
    fn only_read_here(&self, op: Operand, inst: cl::Inst) -> bool {
        let Operand::Local(l) = op else {
            return false;
        };
        let Some(Some(Repr::Scalar(var, _))) = self.t.locals.get(l).copied() else {
            return false;
        };
        let block_local = matches!(
            self.t.var_kinds.get(var.index()),
            Some(VarKind::BlockLocal(_))
        );
        block_local
            && self
                .b
                .current_block()
                .and_then(|blk| self.b.func.layout.last_inst(blk))
                == Some(inst)
    }

    fn inst(&mut self, kind: &InstKind) -> R<()> {
        match kind {
            InstKind::Copy { dst, src } => self.copy(*dst, *src),
            InstKind::Unary { dst, op, arg } => {
                let (var, ty) = self.scalar_dst(*dst)?;
                let x = self.scalar_operand(*arg, ty)?;
                let r = match (op, ty) {
                    (UnaryOp::Neg, ScalarType::Bool) => {
                        let n = self.ins().ineg(x);
                        self.ins().band_imm_u(n, 1)
                    }
                    (UnaryOp::Neg, _) => self.ins().ineg(x),
                    (UnaryOp::Not, ScalarType::Bool) => self.ins().bxor_imm_u(x, 1),
                    (UnaryOp::Not, _) => self.ins().bnot(x),
                    // Same type in and out, as the IR; ctz/clz of 0 is the width in both.
                    (UnaryOp::Ctz, _) => self.ins().ctz(x),
                    (UnaryOp::Clz, _) => self.ins().clz(x),
                    (UnaryOp::Popcnt, _) => self.ins().popcnt(x),
                };
                self.write_var(var, r);
                Ok(())
            }
            InstKind::Binary {
                dst,
                op,
                lhs,
                rhs,
                check,
            } => self.binary(*dst, *op, *lhs, *rhs, *check),
            InstKind::Compare { dst, op, lhs, rhs } => {
                let (var, dty) = self.scalar_dst(*dst)?;
                if dty != ScalarType::Bool {
                    return Err(self.malformed("a comparison must assign a bool"));
                }
                let ty = match (lhs, rhs) {
                    (Operand::Local(_), _) => self.operand_ty(*lhs, ScalarType::I64)?,
                    _ => self.operand_ty(*rhs, ScalarType::I64)?,
                };
                let a = self.scalar_operand(*lhs, ty)?;
                let c = self.scalar_operand(*rhs, ty)?;
                let cc = match op {
                    CmpOp::Eq => IntCC::Equal,
                    CmpOp::Ne => IntCC::NotEqual,
                    CmpOp::Slt => IntCC::SignedLessThan,
                    CmpOp::Sle => IntCC::SignedLessThanOrEqual,
                    CmpOp::Sgt => IntCC::SignedGreaterThan,
                    CmpOp::Sge => IntCC::SignedGreaterThanOrEqual,
                    CmpOp::Ult => IntCC::UnsignedLessThan,
                    CmpOp::Ule => IntCC::UnsignedLessThanOrEqual,
                    CmpOp::Ugt => IntCC::UnsignedGreaterThan,
                    CmpOp::Uge => IntCC::UnsignedGreaterThanOrEqual,
                };
                let r = self.ins().icmp(cc, a, c);
                self.write_var(var, r);
                Ok(())
            }
            InstKind::Cast { dst, op, arg } => {
                let (var, to) = self.scalar_dst(*dst)?;
                let from = self.operand_ty(*arg, to)?;
                let x = self.scalar_operand(*arg, from)?;
                let r = match op {
                    CastOp::Sext => self.convert(x, from, to, true),
                    CastOp::Zext | CastOp::Trunc => self.convert(x, from, to, false),
                };
                self.write_var(var, r);
                Ok(())
            }
            InstKind::Make { dst, ty, fields } => self.make(*dst, *ty, fields),
            InstKind::GetField { dst, src, field } => {
                let (var, dty) = self.scalar_dst(*dst)?;
                let (repr, sid) = self.struct_local(*src)?;
                let (off, fty) = self.field(sid, *field)?;
                if fty != dty {
                    return Err(self.malformed("getfield destination has the wrong type"));
                }
                let v = match repr {
                    Repr::Slot(ss, _) => {
                        let addr = self.slot_addr(ss);
                        self.load(abi::scalar_cl(fty), addr, off as i32)
                    }
                    Repr::Packed(pv, _) => {
                        let p = self.read_var(pv);
                        self.packed_get(p, off, fty)
                    }
                    Repr::Fields(start, _) => {
                        let fv = self.field_var(start, *field as usize)?;
                        self.read_var(fv)
                    }
                    _ => return Err(self.malformed("struct expected")),
                };
                self.write_var(var, v);
                Ok(())
            }
            InstKind::SetField { dst, field, value } => {
                let (repr, sid) = self.struct_local(*dst)?;
                let (off, fty) = self.field(sid, *field)?;
                let v = self.scalar_operand(*value, fty)?;
                match repr {
                    Repr::Slot(ss, _) => {
                        let addr = self.slot_addr(ss);
                        self.store(v, addr, off as i32);
                    }
                    Repr::Packed(pv, _) => {
                        let p = self.read_var(pv);
                        let n = self.packed_set(p, off, fty, v);
                        self.write_var(pv, n);
                    }
                    Repr::Fields(start, _) => {
                        let fv = self.field_var(start, *field as usize)?;
                        self.write_var(fv, v);
                    }
                    _ => return Err(self.malformed("struct expected")),
                }
                Ok(())
            }
            InstKind::VecNew { dst, elem } => {
                let var = match self.repr(*dst)? {
                    Repr::Vec(var, e) if e == *elem => var,
                    _ => return Err(self.malformed("`new` destination is not a vec of that type")),
                };
                let size = self.elem_size(*elem)?;
                let ctx = self.ctx()?;
                let s = self.i64c(i64::from(size));
                let f = self.i64c(self.site_code());
                let h = self.call_rt_stub(RtFunc::New, &[ctx, s, f])?;
                // A null handle means the runtime recorded a trap: branch on the handle
                // itself (no compare with a zero constant).
                self.bail_unless(h)?;
                self.write_var(var, h);
                Ok(())
            }
            InstKind::VecLen { dst, vec } => {
                let (var, ty) = self.scalar_dst(*dst)?;
                if ty != ScalarType::I64 {
                    return Err(self.malformed("`len` must assign an i64"));
                }
                let (h, _) = self.vec_local(*vec)?;
                let len = self.vec_len(*vec, h);
                self.write_var(var, len);
                Ok(())
            }
            InstKind::VecPush { vec, value } => self.push(*vec, *value),
            InstKind::VecPop { dst, vec, check } => {
                let (h, elem) = self.vec_local(*vec)?;
                let size = self.elem_size(elem)?;
                let len = self.load(types::I64, h, HDR_LEN);
                if check.is_checked() {
                    let zero = self.block_const(types::I64, 0);
                    self.trap_if(IntCC::Equal, len, zero, TrapKind::PopEmpty, None, None)?;
                }
                let minus_one = self.block_const(types::I64, -1);
                let n = self.ins().iadd(len, minus_one);
                self.store(n, h, HDR_LEN);
                if let Some(dst) = dst {
                    let addr = self.elem_addr(h, n, size);
                    self.load_elem(*dst, elem, None, addr)?;
                }
                Ok(())
            }
            InstKind::VecGet {
                dst,
                vec,
                index,
                field,
                check,
            } => {
                let (h, elem) = self.vec_local(*vec)?;
                let size = self.elem_size(elem)?;
                let i = self.scalar_operand(*index, ScalarType::I64)?;
                if check.is_checked() {
                    let len = self.vec_len(*vec, h);
                    self.bounds_check(len, i)?;
                }
                let ptr = self.vec_ptr(*vec, h);
                let addr = self.main_line_elem_addr(ptr, i, size);
                self.load_elem(*dst, elem, *field, addr)
            }
            InstKind::VecSet {
                vec,
                index,
                field,
                value,
                check,
            } => {
                let (h, elem) = self.vec_local(*vec)?;
                let size = self.elem_size(elem)?;
                let i = self.scalar_operand(*index, ScalarType::I64)?;
                let v = self.elem_value(elem, *field, *value)?;
                if check.is_checked() {
                    let len = self.vec_len(*vec, h);
                    self.bounds_check(len, i)?;
                }
                let ptr = self.vec_ptr(*vec, h);
                let addr = self.main_line_elem_addr(ptr, i, size);
                self.store_elem(v, addr)
            }
            InstKind::VecDrop { vec } => {
                let (h, _) = self.vec_local(*vec)?;
                let ctx = self.ctx()?;
                let f = self.i64c(self.site_code());
                self.store(h, ctx, CTX_RT_HANDLE);
                let status = self.call_rt_stub(RtFunc::Drop, &[ctx, f])?;
                self.bail_if(status)
            }
            InstKind::Call { dst, func, args } => self.call(*dst, *func, args),
        }
    }

    fn copy(&mut self, dst: Local, src: Operand) -> R<()> {
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

    fn binary(
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
    fn deferred_operand(&self, op: Operand, ty: ScalarType) -> Option<Deferred> {
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

    fn packed_get(&mut self, packed: Value, off: u32, fty: ScalarType) -> Value {
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

    fn packed_set(&mut self, packed: Value, off: u32, fty: ScalarType, v: Value) -> Value {
        let bits = fty.size() * 8;
        let ones: u64 = if bits >= 64 { !0 } else { (1u64 << bits) - 1 };
        let mask = ones.checked_shl(8 * off).unwrap_or(0);
        let cleared = self.ins().band_imm_u(packed, !mask as i64);
        let placed = Self::field_bits(v, fty, off, self);
        self.ins().bor(cleared, placed)
    }

    fn make(&mut self, dst: Local, sid: StructId, fields: &[Operand]) -> R<()> {
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

    /// At the end of preheader `blk`, loads the headers its loops use (length and data
    /// pointer of each vec, as needed) once, for every block of the loop.
    fn load_loop_headers(&mut self, blk: Block) -> R<()> {
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
    fn vec_len(&mut self, vec: Local, h: Value) -> Value {
        match self.hoisted_header(vec, true) {
            Some(v) => v,
            None => self.load(types::I64, h, HDR_LEN),
        }
    }

    /// `vec`'s data pointer: from its loop's preheader if hoisted, else loaded from `h`.
    fn vec_ptr(&mut self, vec: Local, h: Value) -> Value {
        match self.hoisted_header(vec, false) {
            Some(v) => v,
            None => self.load(PTR, h, HDR_PTR),
        }
    }

    fn elem_addr(&mut self, h: Value, index: Value, size: u32) -> Value {
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
    fn main_line_elem_addr(&mut self, ptr: Value, index: Value, size: u32) -> Value {
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
    fn bounds_check(&mut self, len: Value, index: Value) -> R<()> {
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
    fn load_elem(&mut self, dst: Local, elem: ElemType, field: Option<u32>, addr: Value) -> R<()> {
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
    fn elem_value(&mut self, elem: ElemType, field: Option<u32>, value: Operand) -> R<ElemValue> {
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

    fn store_elem(&mut self, v: ElemValue, addr: Value) -> R<()> {
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

    fn push(&mut self, vec: Local, value: Operand) -> R<()> {
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

    fn call(&mut self, dst: Option<Local>, fid: FuncId, args: &[Operand]) -> R<()> {
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

/// Per local, whether it is *block-local*: every read of it is preceded by a write in the
/// same IR block, so its value never crosses a block boundary (and its initial zero is never
/// seen). Parameters are not. Values read and written within one block are all the lowering
/// needs for such a local: no SSA construction, no memory.
///
/// Within an IR block, locals are read and written only on its main line of Cranelift blocks
/// (each dominated by the one before; the cold paths of traps touch no local, and a push's
/// two stores only read the pushed value: a field-wise local's variables, which are never in
/// the huge tier's memory form and so remember nothing there), so a value remembered there
/// dominates every later access in the same IR block.
pub fn block_local_locals(ir: &Function) -> SecondaryMap<Local, bool> {
    let mut local_only = SecondaryMap::new();
    block_local_locals_into(ir, &mut SecondaryMap::new(), &mut local_only, u32::MAX);
    local_only
}

/// [`block_local_locals`] into `local_only` (emptied first), with `written` as working
/// storage (both kept from one function to the next), except that a local is also left out
/// when some read of it comes more than `max_span` instructions after the write it reads
/// (the terminator counts as the block's last instruction). The huge tier passes
/// [`crate::tier::MAX_BLOCK_LOCAL_SPAN`]: a block-local value is a Cranelift value, live
/// across every check between its write and its last read, and each check ends a Cranelift
/// block; the single-pass allocator visits every live value at every block start, so
/// thousands of values loaded and then summed (`x_k = get v[k]` for every `k`, then the
/// sums) cost the product of the two. Bounded spans bound how many such values are live at
/// once; a local past the bound lives in the huge tier's slot like every other local.
pub fn block_local_locals_into(
    ir: &Function,
    written: &mut SecondaryMap<Local, u64>,
    local_only: &mut SecondaryMap<Local, bool>,
    max_span: u32,
) {
    // First per local whether some read of it may see a value from outside its block (or,
    // past `max_span`, from far back in it).
    let exposed = local_only;
    exposed.clear();
    exposed.resize(ir.locals.len());
    // The 1-based index of the block in which the local was last written (high half) and
    // the write's position in it (low half).
    written.clear();
    written.resize(ir.locals.len());
    for &l in &ir.params {
        exposed[l] = true;
    }
    for (n, &blk) in ir.layout.iter().enumerate() {
        let stamp = n as u64 + 1;
        let Some(data) = ir.blocks.get(blk) else {
            continue;
        };
        let mut read = |op: Operand, pos: usize, written: &SecondaryMap<Local, u64>| {
            if let Operand::Local(l) = op {
                let w = written[l];
                let span = (pos as u64).saturating_sub(w & u64::from(u32::MAX));
                if w >> 32 != stamp || span > u64::from(max_span) {
                    exposed[l] = true;
                }
            }
        };
        for (pos, &inst) in data.insts.iter().enumerate() {
            let Some(d) = ir.insts.get(inst) else {
                continue;
            };
            d.kind.for_each_use(|op| read(op, pos, written));
            if let Some(l) = d.kind.def() {
                written[l] = stamp << 32 | pos as u64;
            }
        }
        if let Some(op) = data.terminator.as_ref().and_then(|t| t.used_operand()) {
            read(op, data.insts.len(), written);
        }
    }
    // Then the complement.
    for flag in exposed.values_mut() {
        *flag = !*flag;
    }
}

/// A vec's header fields loaded in a loop's preheader: the vec, its length, its data pointer
/// (each if the loop needs it).
pub(crate) type HoistedHeader = (Local, Option<Value>, Option<Value>);

/// A loop whose vec headers do not change while it runs: no instruction of its body can
/// change any header (no `push`, `pop`, `new`, `drop` or call) or assign a vec local, so the
/// length and data pointer of each vec it reads or writes are loaded once, at the end of its
/// preheader.
#[derive(Clone, Debug)]
pub struct HoistLoop {
    /// The block before the loop: its only way in, ending in `br header`.
    pub preheader: Block,
    /// The header and every block of the loop.
    pub body: Vec<Block>,
    /// Per vec the loop uses: whether it needs the length, whether the data pointer.
    pub vecs: Vec<(Local, bool, bool)>,
}

/// The loops of [`HoistLoop`]'s kind. A loop here is a header `h` with exactly two
/// predecessors: a preheader before it in the layout that ends in `br h`, and a latch; the
/// body is every block that reaches the latch without passing `h`, and no block of the body
/// other than `h` may have a predecessor outside it (so `h` is the only way in and the
/// preheader dominates the body). The preheader comes before every block of the body in the
/// layout, so the loads are emitted before anything that uses them.
///
/// `cfg` is the CFG of `ir` ([`Cfg::compute`]); its predecessor lists are distinct, so a latch
/// that branches to the header on both sides counts once.
pub fn header_invariant_loops(ir: &Function, cfg: &Cfg) -> Vec<HoistLoop> {
    let mut out = Vec::new();
    header_invariant_loops_into(ir, cfg, &mut LoopScanScratch::default(), &mut out);
    out
}

/// The working storage of [`header_invariant_loops_into`], kept from one function to the next.
#[derive(Default)]
pub struct LoopScanScratch {
    /// Per block: its position in the layout.
    pos: SecondaryMap<Block, u32>,
    /// Per block: in the body being collected.
    seen: SecondaryMap<Block, bool>,
    work: Vec<Block>,
    /// The body being collected (copied out only when its loop qualifies).
    body: Vec<Block>,
}

impl LoopScanScratch {
    /// Makes room for a function of `blocks` blocks.
    pub(crate) fn reserve(&mut self, blocks: usize) {
        map_room(&mut self.pos, blocks);
        map_room(&mut self.seen, blocks);
        vec_room(&mut self.work, blocks);
        vec_room(&mut self.body, blocks);
    }
}

/// [`header_invariant_loops`] into `out` (emptied first), with the working storage of
/// `scratch`.
pub fn header_invariant_loops_into(
    ir: &Function,
    cfg: &Cfg,
    scratch: &mut LoopScanScratch,
    out: &mut Vec<HoistLoop>,
) {
    out.clear();
    // A qualifying loop reads or writes some vec local.
    if !ir.locals.values().any(|d| matches!(d.ty, Type::Vec(_))) {
        return;
    }
    let LoopScanScratch {
        pos,
        seen,
        work,
        body,
    } = scratch;
    pos.clear();
    pos.resize(ir.blocks.len());
    for (n, &b) in ir.layout.iter().enumerate() {
        pos[b] = n as u32;
    }
    let preds = |b: Block| cfg.preds(b);
    seen.clear();
    seen.resize(ir.blocks.len());
    for &h in &ir.layout {
        let [a, c] = preds(h) else {
            continue;
        };
        // The predecessor list is in layout order, so the preheader (before `h`) is the first.
        let (p, latch) = if pos[*a] < pos[h] && pos[*c] >= pos[h] {
            (*a, *c)
        } else {
            continue;
        };
        if !matches!(
            ir.blocks.get(p).and_then(|d| d.terminator.as_ref()),
            Some(Terminator::Br(t)) if *t == h
        ) {
            continue;
        }
        // The body: backwards from the latch, stopping at the header. `seen` is all false
        // between candidates (cleared over the body below).
        body.clear();
        body.push(h);
        seen[h] = true;
        work.clear();
        work.push(latch);
        let mut ok = true;
        while let Some(b) = work.pop() {
            if seen[b] {
                continue;
            }
            if b == p || pos[b] <= pos[p] {
                ok = false;
                break;
            }
            seen[b] = true;
            body.push(b);
            work.extend(preds(b).iter().copied());
        }
        let single_entry = ok
            && body
                .iter()
                .all(|&b| b == h || preds(b).iter().all(|q| seen[*q]));
        for &b in body.iter() {
            seen[b] = false;
        }
        if !single_entry {
            continue;
        }
        let mut vecs: Vec<(Local, bool, bool)> = Vec::new();
        let mut need = |vec: Local, len: bool, ptr: bool| match vecs.iter_mut().find(|e| e.0 == vec)
        {
            Some(e) => {
                e.1 |= len;
                e.2 |= ptr;
            }
            None => vecs.push((vec, len, ptr)),
        };
        // The first instruction that disqualifies the loop ends the scan.
        'scan: for &b in body.iter() {
            let Some(data) = ir.blocks.get(b) else {
                ok = false;
                break;
            };
            for &inst in &data.insts {
                if !ok {
                    break 'scan;
                }
                let Some(d) = ir.insts.get(inst) else {
                    ok = false;
                    break;
                };
                if let Some(l) = d.kind.def() {
                    if matches!(ir.locals.get(l).map(|x| x.ty), Some(Type::Vec(_)) | None) {
                        ok = false;
                    }
                }
                match &d.kind {
                    InstKind::VecPush { .. }
                    | InstKind::VecPop { .. }
                    | InstKind::VecNew { .. }
                    | InstKind::VecDrop { .. }
                    | InstKind::Call { .. } => ok = false,
                    InstKind::VecLen { vec, .. } => need(*vec, true, false),
                    InstKind::VecGet { vec, check, .. } | InstKind::VecSet { vec, check, .. } => {
                        need(*vec, check.is_checked(), true)
                    }
                    _ => {}
                }
            }
        }
        if ok && !vecs.is_empty() {
            out.push(HoistLoop {
                preheader: p,
                body: body.clone(),
                vecs,
            });
        }
    }
}

/// Per local, whether the lowering holds it field by field (`Repr::Fields`): a struct local
/// that is not packed, not a parameter, has at most `MAX_FIELD_WISE_FIELDS` fields, and is only
/// built (`make`), read or written one field at a time (`getfield`, `setfield`) and stored
/// whole into a vec element (`set v[i], s`, `push v, s`). Such a local needs no stack slot:
/// `make` + `push` stores the field values straight into the element instead of storing them
/// into a slot and copying the slot.
pub fn field_struct_locals(ir: &Function, module: &Module) -> SecondaryMap<Local, bool> {
    let mut out = SecondaryMap::new();
    field_struct_locals_into(ir, module, &mut SecondaryMap::new(), &mut out);
    out
}

/// [`field_struct_locals`] into `out` (emptied first), with `bad` as working storage (both
/// kept from one function to the next).
pub fn field_struct_locals_into(
    ir: &Function,
    module: &Module,
    bad: &mut SecondaryMap<Local, bool>,
    out: &mut SecondaryMap<Local, bool>,
) {
    if !has_field_wise_candidate(ir) {
        out.clear();
        out.resize(ir.locals.len());
        return;
    }
    bad.clear();
    bad.resize(ir.locals.len());
    for &l in &ir.params {
        bad[l] = true;
    }
    for &blk in &ir.layout {
        let Some(data) = ir.blocks.get(blk) else {
            continue;
        };
        for &inst in &data.insts {
            let Some(d) = ir.insts.get(inst) else {
                continue;
            };
            for_each_barred(&d.kind, |l| bad[l] = true);
        }
        if let Some(Operand::Local(l)) = data.terminator.as_ref().and_then(|t| t.used_operand()) {
            bad[l] = true;
        }
    }
    field_struct_locals_from(ir, module, bad, out);
}

/// Whether `ir` has a local [`field_struct_locals`] might admit: an unpacked struct local.
/// Without one the scan for barring mentions can be skipped.
pub(crate) fn has_field_wise_candidate(ir: &Function) -> bool {
    ir.locals
        .values()
        .any(|d| matches!(d.ty, Type::Struct(_)) && !d.packed)
}

/// [`field_struct_locals`] into `out` (emptied first), given per local whether some mention
/// bars it (`barred`, see [`poolopt_ir::field_wise::for_each_barred`]).
pub(crate) fn field_struct_locals_from(
    ir: &Function,
    module: &Module,
    barred: &SecondaryMap<Local, bool>,
    out: &mut SecondaryMap<Local, bool>,
) {
    out.clear();
    out.resize(ir.locals.len());
    for (l, data) in ir.locals.iter() {
        out[l] = match data.ty {
            Type::Struct(sid) if !data.packed && !barred[l] => field_wise_struct(module, sid),
            _ => false,
        };
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
enum ElemValue {
    /// A scalar (an element or a field) at a byte offset in the element.
    Scalar(Value, u32),
    /// A packed struct's bytes.
    Packed(Value, StructId),
    /// A struct in a slot.
    Struct(Repr, StructId),
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

    #[test]
    fn chunks_cover_every_byte() {
        let chunks = |size| FnLower::chunks(size).collect::<Vec<_>>();
        assert_eq!(chunks(8), vec![(0, 8)]);
        assert_eq!(chunks(12), vec![(0, 8), (8, 4)]);
        assert_eq!(chunks(7), vec![(0, 4), (4, 2), (6, 1)]);
        assert_eq!(chunks(128).len(), 16);
        assert!(chunks(0).is_empty());
    }

    /// The block-local locals of the one function of `src` whose reads come at most
    /// `max_span` instructions after their writes, by name.
    fn block_local_names(src: &str, max_span: u32) -> Vec<String> {
        let module = poolopt_ir::parse(src).expect("parses");
        let f = module.funcs.values().next().expect("one function");
        let mut flags = SecondaryMap::new();
        block_local_locals_into(f, &mut SecondaryMap::new(), &mut flags, max_span);
        f.locals
            .iter()
            .filter(|&(l, _)| flags[l])
            .map(|(_, d)| d.name.to_string())
            .collect()
    }

    #[test]
    fn a_read_past_the_span_bound_leaves_a_local_out_of_the_block_local_ones() {
        // `a` is written at 0 and read at 1 and 3, `b` written at 1 and read by the
        // terminator at 4, `c` written at 2 and read at 3.
        let src = "fn f(x: i64) -> i64 {
            var a: i64
            var b: i64
            var c: i64
        entry:
            a = add x, 1
            b = add a, 2
            c = add x, 3
            c = add c, a
            ret b
        }";
        let all = vec!["a", "b", "c"];
        assert_eq!(block_local_names(src, u32::MAX), all);
        assert_eq!(block_local_names(src, 3), all);
        // The bound is inclusive: `a`'s span is 3, `b`'s 3.
        assert_eq!(block_local_names(src, 2), vec!["c"]);
        assert_eq!(block_local_names(src, 1), vec!["c"]);
        assert_eq!(block_local_names(src, 0), Vec::<String>::new());
    }
}
