//! Struct locals a back end can hold *field by field*: one value per field, no memory. A
//! struct local qualifies when it is not a parameter, its struct has at most
//! [`MAX_FIELD_WISE_FIELDS`] fields, all scalars, and every mention of it is one that names a
//! single field or stores the whole struct into a vec element ([`field_wise_mention`]):
//! built by `make`, read by `getfield`, written by `setfield`, stored by `set v[i], s` or
//! `push v, s`. Then `make` followed by a store writes the field values straight into the
//! element.
//!
//! The JIT's lowering holds such locals this way (poolopt-jit, `lower::field_struct_locals`);
//! `struct-split` leaves them whole, since splitting them would only add copies.

use crate::inst::{InstKind, Operand};
use crate::module::Module;
use crate::{Local, StructId};

/// The most fields a struct local held field by field may have.
pub const MAX_FIELD_WISE_FIELDS: usize = 16;

/// The one local that instruction `kind` mentions in a way that keeps it eligible to be held
/// field by field, if any: any other mention of a local by `kind` (and every mention by a
/// terminator, and being a parameter) bars it.
pub fn field_wise_mention(kind: &InstKind) -> Option<Local> {
    match kind {
        InstKind::Make { dst, .. } => Some(*dst),
        InstKind::GetField { src, .. } => Some(*src),
        InstKind::SetField { dst, .. } => Some(*dst),
        InstKind::VecSet {
            value: Operand::Local(l),
            field: None,
            ..
        }
        | InstKind::VecPush {
            value: Operand::Local(l),
            ..
        } => Some(*l),
        _ => None,
    }
}

/// Calls `bar` with each local that instruction `kind` mentions in a way that bars it from
/// being held field by field: every mention, used or assigned, but [`field_wise_mention`]'s.
pub fn for_each_barred(kind: &InstKind, mut bar: impl FnMut(Local)) {
    let allowed = field_wise_mention(kind);
    kind.for_each_use(|op| {
        if let Operand::Local(l) = op {
            if Some(l) != allowed {
                bar(l);
            }
        }
    });
    if let Some(d) = kind.def() {
        if Some(d) != allowed {
            bar(d);
        }
    }
}

/// Whether a local of struct `sid` may be held field by field: the struct exists and has at
/// most [`MAX_FIELD_WISE_FIELDS`] fields, all scalars.
pub fn field_wise_struct(module: &Module, sid: StructId) -> bool {
    module.structs.get(sid).is_some_and(|d| {
        d.fields.len() <= MAX_FIELD_WISE_FIELDS
            && d.fields.iter().all(|f| f.ty.as_scalar().is_some())
    })
}
