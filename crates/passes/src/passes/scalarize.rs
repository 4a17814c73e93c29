//! `scalarize`: marks small struct locals to be held as one 64-bit integer.
//!
//! Every struct local (parameters included) whose struct is [`Module::packable`] — at most 8
//! bytes, integer or bool fields only — is marked `packed` ([`LocalData::packed`]). The JIT
//! then keeps it in a register as one i64: a field read is a shift and a mask, an element load
//! or store one 8-byte access, a copy a register move, instead of a stack slot and per-field
//! memory traffic. Struct locals that do not qualify get a missed remark with the reason.
//!
//! Soundness: `packed` changes how the back end holds a local, never what it means. The C
//! memory layout of the struct is unchanged (the i64 holds exactly the struct's bytes, little
//! endian, padding included), so packed and unpacked locals, vec elements and callers
//! interoperate, and the interpreter (which ignores the flag) stays the oracle. The verifier
//! checks that a packed local's struct is packable.
//!
//! [`Module::packable`]: poolopt_ir::Module::packable
//! [`LocalData::packed`]: poolopt_ir::LocalData::packed

use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{EntityRef, Function, Local, NotPackable, StructId, Type};

/// The small-struct scalarization pass.
pub struct Scalarize;

impl Pass for Scalarize {
    fn name(&self) -> &'static str {
        "scalarize"
    }

    fn preserves_cfg(&self) -> bool {
        true
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O2
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        let Some(entry) = func.entry() else {
            return false;
        };
        let mut changed = false;
        // The verdict on the struct of the last struct local looked at: the locals of a
        // function are mostly of one struct, whose layout is then computed once.
        let mut last: Option<(StructId, Result<(), NotPackable>)> = None;
        // By index: the loop marks locals but adds none.
        for index in 0..func.locals.len() {
            let local = Local::new(index);
            let data = &func.locals[local];
            let Type::Struct(s) = data.ty else {
                continue;
            };
            if data.packed {
                continue;
            }
            let Some(def) = cx.module.structs.get(s) else {
                continue;
            };
            let loc = data.loc;
            let packing = match last {
                Some((sid, packing)) if sid == s => packing,
                _ => cx.module.packing(s),
            };
            last = Some((s, packing));
            match packing {
                Ok(()) => {
                    let size = def.size();
                    func.locals[local].packed = true;
                    cx.applied_with(func, entry, loc, || {
                        let data = &func.locals[local];
                        format!(
                            "`{}` ({}, {size} bytes) held as one i64",
                            data.name, def.name
                        )
                    });
                    cx.stat("locals_scalarized", 1);
                    changed = true;
                }
                Err(why) => {
                    cx.missed_with(func, entry, loc, || {
                        let reason = why.describe(def);
                        format!("`{}` not scalarized: {reason}", func.locals[local].name)
                    });
                }
            }
        }
        changed
    }
}
