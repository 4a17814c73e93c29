//! Code generation targets: the Cranelift optimization level knob and the two ISAs we build,
//! the host's (for running code) and a fixed x86-64 one (for host-independent text output).

use crate::error::JitError;
use crate::tier::Tier;
use cranelift_codegen::isa::{self, OwnedTargetIsa};
use cranelift_codegen::settings::{self, Configurable};
use std::fmt;
use std::str::FromStr;
use target_lexicon::Triple;

/// Cranelift's optimization level.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum ClOpt {
    /// `opt_level=none`.
    None,
    /// `opt_level=speed` (the egraph optimizer, alias analysis).
    #[default]
    Speed,
}

impl ClOpt {
    /// The Cranelift setting value.
    pub fn name(self) -> &'static str {
        match self {
            ClOpt::None => "none",
            ClOpt::Speed => "speed",
        }
    }
}

impl fmt::Display for ClOpt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown Cranelift optimization level name.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("unknown Cranelift optimization level `{0}` (expected `none` or `speed`)")]
pub struct ParseClOptError(pub String);

impl FromStr for ClOpt {
    type Err = ParseClOptError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "none" => Ok(ClOpt::None),
            "speed" => Ok(ClOpt::Speed),
            other => Err(ParseClOptError(other.to_string())),
        }
    }
}

/// The triple of the fixed text-output target.
pub const FIXED_TRIPLE: &str = "x86_64-unknown-linux-gnu";

/// x86 ISA flags of the fixed target, every one set explicitly (a Nehalem-class baseline).
const FIXED_X86_FLAGS: &[(&str, &str)] = &[
    ("has_sse3", "true"),
    ("has_ssse3", "true"),
    ("has_cmpxchg16b", "true"),
    ("has_sse41", "true"),
    ("has_sse42", "true"),
    ("has_popcnt", "true"),
    ("has_avx", "false"),
    ("has_avx2", "false"),
    ("has_fma", "false"),
    ("has_avx_vnni", "false"),
    ("has_avx512bitalg", "false"),
    ("has_avx512dq", "false"),
    ("has_avx512vl", "false"),
    ("has_avx512vbmi", "false"),
    ("has_avx512f", "false"),
    ("has_avx512vnni", "false"),
    ("has_bmi1", "false"),
    ("has_bmi2", "false"),
    ("has_lzcnt", "false"),
];

fn set(b: &mut dyn Configurable, name: &str, value: &str) -> Result<(), JitError> {
    b.set(name, value)
        .map_err(|e| JitError::Isa(format!("setting `{name}={value}`: {e}")))
}

/// The shared (target-independent) flags, every one we depend on set explicitly. The huge
/// tier ([`crate::tier`]) compiles at `opt_level=none` with the single-pass allocator.
fn shared_flags(cl_opt: ClOpt, tier: Tier, verify: bool) -> Result<settings::Flags, JitError> {
    let mut b = settings::builder();
    let (opt_level, regalloc) = match tier {
        Tier::Normal => (cl_opt.name(), "backtracking"),
        Tier::Huge => (ClOpt::None.name(), "single_pass"),
    };
    set(&mut b, "opt_level", opt_level)?;
    set(
        &mut b,
        "enable_verifier",
        if verify { "true" } else { "false" },
    )?;
    set(&mut b, "is_pic", "false")?;
    set(&mut b, "use_colocated_libcalls", "false")?;
    set(&mut b, "preserve_frame_pointers", "false")?;
    set(&mut b, "unwind_info", "false")?;
    // Inline stack probes: a frame larger than a page still touches the guard page, so a
    // machine-stack overflow can never skip past it.
    set(&mut b, "enable_probestack", "true")?;
    set(&mut b, "probestack_strategy", "inline")?;
    set(&mut b, "regalloc_algorithm", regalloc)?;
    Ok(settings::Flags::new(b))
}

/// Whether Cranelift's IR verifier runs: in debug builds (and so in tests) only.
pub fn verify_enabled() -> bool {
    cfg!(debug_assertions)
}

/// The host ISA, for code that runs here.
pub fn host_isa(cl_opt: ClOpt, tier: Tier) -> Result<OwnedTargetIsa, JitError> {
    let builder = cranelift_native::builder().map_err(|e| JitError::Isa(e.to_string()))?;
    builder
        .finish(shared_flags(cl_opt, tier, verify_enabled())?)
        .map_err(|e| JitError::Isa(e.to_string()))
}

/// The fixed x86-64 ISA with explicit flags: its output is identical on every host.
pub fn fixed_isa(cl_opt: ClOpt, tier: Tier) -> Result<OwnedTargetIsa, JitError> {
    let triple = Triple::from_str(FIXED_TRIPLE).map_err(|e| JitError::Isa(e.to_string()))?;
    let mut builder = isa::lookup(triple).map_err(|e| JitError::Isa(e.to_string()))?;
    for (name, value) in FIXED_X86_FLAGS {
        set(&mut builder, name, value)?;
    }
    builder
        .finish(shared_flags(cl_opt, tier, verify_enabled())?)
        .map_err(|e| JitError::Isa(e.to_string()))
}
