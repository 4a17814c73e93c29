//! Helpers for unit tests that build CLIF by hand (`elaboration.rs`, `param_chains.rs`).

use cranelift_codegen::ir::{types, AbiParam, Signature};
use cranelift_codegen::isa::{CallConv, TargetFrontendConfig};
use target_lexicon::PointerWidth;

/// `(i64) -> i64` in the System V convention.
pub(crate) fn signature() -> Signature {
    let mut sig = Signature::new(CallConv::SystemV);
    sig.params.push(AbiParam::new(types::I64));
    sig.returns.push(AbiParam::new(types::I64));
    sig
}

/// An x86-64 System V front end, for `FunctionBuilder::finalize`.
pub(crate) fn frontend() -> TargetFrontendConfig {
    TargetFrontendConfig {
        default_call_conv: CallConv::SystemV,
        pointer_width: PointerWidth::U64,
        page_size_align_log2: 12,
    }
}
