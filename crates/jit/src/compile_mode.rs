//! Which Cranelift settings compile one lowered function, for the JIT and for `emit --emit asm`
//! alike: the module's own, `opt_level=none` where the e-graph pass would blow up
//! ([`crate::elaboration`]), or the huge tier's (`opt_level=none`, the single-pass allocator)
//! for a huge function and for a long chain of block parameters ([`crate::param_chains`]).

use crate::elaboration::{egraph_is_safe, ElaborationScratch};
use crate::error::JitError;
use crate::param_chains::long_param_chains;
use crate::target::ClOpt;
use crate::tier::Tier;
use cranelift_codegen::ir::{Function, Value};
use cranelift_codegen::isa::{OwnedTargetIsa, TargetIsa};
use cranelift_entity::SecondaryMap;

/// How one function is compiled.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum CompileMode {
    /// The module's flags.
    Module,
    /// The normal tier's flags at `opt_level=none`: no e-graph pass.
    NoEgraph,
    /// The huge tier's flags: `opt_level=none` and the single-pass allocator.
    SinglePass,
}

/// Work space of [`CompileMode::choose`], kept from one function to the next.
#[derive(Default)]
pub(crate) struct CompileModeScratch {
    elaboration: ElaborationScratch,
    chain_depths: SecondaryMap<Value, u32>,
}

impl CompileMode {
    /// The mode of `func`, lowered in `tier`, in a module compiled at `cl_opt`.
    pub(crate) fn choose(
        func: &Function,
        tier: Tier,
        cl_opt: ClOpt,
        scratch: &mut CompileModeScratch,
    ) -> CompileMode {
        match tier {
            Tier::Huge => CompileMode::SinglePass,
            _ if long_param_chains(func, &mut scratch.chain_depths) => CompileMode::SinglePass,
            _ if cl_opt == ClOpt::None || egraph_is_safe(func, &mut scratch.elaboration) => {
                CompileMode::Module
            }
            _ => CompileMode::NoEgraph,
        }
    }

    /// The Cranelift level it compiles at, in a module compiled at `cl_opt`.
    pub(crate) fn cl_opt(self, cl_opt: ClOpt) -> ClOpt {
        match self {
            CompileMode::Module => cl_opt,
            CompileMode::NoEgraph | CompileMode::SinglePass => ClOpt::None,
        }
    }
}

/// The ISAs other than the module's own, each built on first use by `build` (the host's or the
/// fixed target's) from a Cranelift level and a tier.
pub(crate) struct OtherIsas<B> {
    cl_opt: ClOpt,
    build: B,
    huge: Option<OwnedTargetIsa>,
    no_egraph: Option<OwnedTargetIsa>,
}

impl<B: Fn(ClOpt, Tier) -> Result<OwnedTargetIsa, JitError>> OtherIsas<B> {
    /// For a module compiled at `cl_opt`.
    pub(crate) fn new(cl_opt: ClOpt, build: B) -> Self {
        OtherIsas {
            cl_opt,
            build,
            huge: None,
            no_egraph: None,
        }
    }

    /// The huge tier's ISA (also the runtime stubs' and the wide entry shims').
    pub(crate) fn huge(&mut self) -> Result<&dyn TargetIsa, JitError> {
        let isa = match &mut self.huge {
            Some(isa) => isa,
            slot => slot.insert((self.build)(self.cl_opt, Tier::Huge)?),
        };
        Ok(&**isa)
    }

    /// The ISA of `mode`, `None` for the module's own.
    pub(crate) fn of(&mut self, mode: CompileMode) -> Result<Option<&dyn TargetIsa>, JitError> {
        match mode {
            CompileMode::Module => Ok(None),
            CompileMode::SinglePass => self.huge().map(Some),
            CompileMode::NoEgraph => {
                let isa = match &mut self.no_egraph {
                    Some(isa) => isa,
                    slot => slot.insert((self.build)(ClOpt::None, Tier::Normal)?),
                };
                Ok(Some(&**isa))
            }
        }
    }
}
