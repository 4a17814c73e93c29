//! Text output of the back end: the CLIF each function lowers to, and x86-64 assembly.
//!
//! Both use the fixed target (`x86_64-unknown-linux-gnu` with explicitly set flags, see
//! `crate::target::fixed_isa`) and the same declaration numbering as the JIT (runtime
//! functions `u0:0`..`u0:3`, then IR function `i` as `u0:(4 + i)`), so the text is identical on
//! every host and stable enough for snapshot tests. Code is compiled without fuel checks. A
//! function is lowered and compiled in its tier ([`crate::tier`]), as the JIT does.

use crate::compile_mode::{CompileMode, CompileModeScratch, OtherIsas};
use crate::error::JitError;
use crate::lower::{lower_function, reusable_mem_flags, LowerEnv};
use crate::runtime::RtFunc;
use crate::scratch::LowerScratch;
use crate::target::{fixed_isa, ClOpt};
use crate::tier::Tier;
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir;
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::Context;
use poolopt_ir::Module;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Lowers every function and hands each Cranelift function to `each`, in module order. A panic
/// inside Cranelift (a bug) is reported as an error rather than taking the host down.
fn for_each_lowered(
    module: &Module,
    isa: &OwnedTargetIsa,
    each: impl FnMut(&str, &mut ir::Function, Tier) -> Result<(), JitError>,
) -> Result<(), JitError> {
    catch_unwind(AssertUnwindSafe(|| lower_all(module, isa, each))).unwrap_or_else(|_| {
        Err(JitError::Codegen {
            function: String::new(),
            message: "internal error: code generation panicked".to_string(),
        })
    })
}

fn lower_all(
    module: &Module,
    isa: &OwnedTargetIsa,
    mut each: impl FnMut(&str, &mut ir::Function, Tier) -> Result<(), JitError>,
) -> Result<(), JitError> {
    let call_conv = isa.default_call_conv();
    let rt_count = RtFunc::ALL.len() as u32;
    let rt_index = [0, 1, 2, 3];
    let ir_index = (0..module.funcs.len() as u32)
        .map(|i| rt_count + i)
        .collect();
    let env = LowerEnv::new(module, call_conv, ir_index, rt_index, false)?.for_opt_level_of(&**isa);
    let mut messages = Vec::new();
    // One Cranelift function, cleared for each IR function, so its tables keep their storage
    // (as the JIT's context does).
    let mut func = ir::Function::new();
    let mut scratch = LowerScratch::new();
    for (fid, f) in module.funcs.iter() {
        let flags = reusable_mem_flags(&mut func);
        func.clear();
        if let Some(flags) = flags {
            func.dfg.mem_flags = flags;
        }
        let info = lower_function(
            &env,
            fid,
            &mut func,
            &mut messages,
            Tier::of(f),
            &mut scratch,
        )?;
        each(&f.name, &mut func, info.tier)?;
    }
    Ok(())
}

/// The CLIF every function lowers to, before Cranelift's optimizations, one function after
/// another, each under a `; function NAME` header. The lowering depends on `cl_opt` in one
/// way: at `none` a wide struct's field stored into an element is computed again at the store
/// when another block computed it with one cheap instruction (`LowerEnv::rematerialize`; at
/// `speed` Cranelift's egraph does this itself). Otherwise `cl_opt` only selects the ISA
/// settings recorded with the text.
pub fn emit_clif(module: &Module, cl_opt: ClOpt) -> Result<String, JitError> {
    let isa = fixed_isa(cl_opt, Tier::Normal)?;
    let mut out = String::new();
    for_each_lowered(module, &isa, |name, func, _| {
        let _ = writeln!(out, "; function {name}");
        let _ = writeln!(out, "{}", func.display());
        Ok(())
    })?;
    Ok(out)
}

/// x86-64 assembly (AT&T syntax, by capstone) of every function compiled at `cl_opt` for the
/// fixed target, one function after another under a `; function NAME (N bytes)` header.
/// Calls appear unrelocated (address 0).
pub fn emit_asm(module: &Module, cl_opt: ClOpt) -> Result<String, JitError> {
    let isa = fixed_isa(cl_opt, Tier::Normal)?;
    // The settings of each function are chosen as the JIT chooses them.
    let mut other_isas = OtherIsas::new(cl_opt, fixed_isa);
    let mut mode_scratch = CompileModeScratch::default();
    let mut cs = isa
        .to_capstone()
        .map_err(|e| JitError::Disasm(e.to_string()))?;
    // Only the text is printed: no per-instruction detail (Cranelift's disassembler asks for
    // it, about 1.5 KB an instruction), and one instruction at a time (`disasm_iter`) rather
    // than all of a function's at once. An 80,000-instruction function printed with 1.39 GB
    // held at once; now 0.13 GB.
    cs.set_detail(false)
        .map_err(|e| JitError::Disasm(e.to_string()))?;
    let mut out = String::new();
    for_each_lowered(module, &isa, |name, func, tier| {
        let mode = CompileMode::choose(func, tier, cl_opt, &mut mode_scratch);
        let tier_isa = other_isas.of(mode)?.unwrap_or(&*isa);
        let mut ctx = Context::for_function(std::mem::replace(func, ir::Function::new()));
        let code = ctx
            .compile(tier_isa, &mut ControlPlane::default())
            .map_err(|e| JitError::Codegen {
                function: name.to_string(),
                message: format!("{:?}", e.inner),
            })?;
        let bytes = code.code_buffer();
        let _ = writeln!(out, "; function {name} ({} bytes)", bytes.len());
        let mut insns = cs
            .disasm_iter(bytes, 0)
            .map_err(|e| JitError::Disasm(e.to_string()))?;
        while let Some(insn) = insns.next() {
            let mnemonic = insn.mnemonic().unwrap_or("?");
            let ops = insn.op_str().unwrap_or("");
            let line = if ops.is_empty() {
                format!("  {:4x}:  {mnemonic}", insn.address())
            } else {
                format!("  {:4x}:  {mnemonic} {ops}", insn.address())
            };
            let _ = writeln!(out, "{line}");
        }
        out.push('\n');
        Ok(())
    })?;
    Ok(out)
}
