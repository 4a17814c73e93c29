//! The IR verifier: checks that a [`Module`] is well formed and well typed.
//!
//! [`verify`] collects every error it finds (it never stops at the first one) and never panics,
//! not even on a module built by hand with dangling entity ids: every lookup goes through
//! `.get()`. Each error carries the location of the struct, local, block, instruction or
//! terminator it is about (falling back to the function's location when that one is unknown)
//! and a typed [`VerifyErrorKind`] whose `Display` is the user-facing message.
//!
//! What is checked:
//!
//! - **Structs**: unique names, at least one field, unique field names, scalar fields only
//!   (no struct or vec fields).
//! - **Functions**: unique names; parameters are existing, distinct locals; every type names an
//!   existing struct; unique local names; a `packed` local is a struct that fits one integer.
//! - **CFG**: the layout is non-empty, names existing blocks, has no duplicates and no two blocks
//!   with the same name; every block has a terminator; every instruction exists and is placed
//!   once; branch targets exist and are in the layout; every block is reachable from the entry
//!   (front ends must not emit dead blocks, and passes remove the blocks they make unreachable).
//! - **Types**, per instruction: see [`VerifyErrorKind`]. A constant operand takes the type its
//!   position demands (the destination's, or the other operand's) and must fit it: for an
//!   integer of width `w` any value in `-2^(w-1) ..= 2^w - 1` is accepted (it fits the signed or
//!   the unsigned reading) and wraps; a `bool` constant is 0 or 1. Struct- and vec-typed
//!   operands must be locals. A position with no type to give a constant (a cast's operand, a
//!   compare of two constants) rejects constants.
//!
//! - **Unchecked operations** (`pop.unchecked`, `get.unchecked`, `set.unchecked`, and the
//!   divisions `sdiv.unchecked`, `udiv.unchecked`, `srem.unchecked`, `urem.unchecked`) are
//!   refused unless [`VerifyOptions::trust_unchecked`] is set: they skip the check that keeps a
//!   vec access in bounds, so untrusted input could read and write memory it does not own, or
//!   the test of a divisor, so a zero divisor (or `MIN / -1`) would fault the process. Only
//!   the passes (which prove the check redundant) and a front end that vouches for them may
//!   produce them; see [`verify_with`].
//!
//! [`verify_entry`] checks, in addition, that a function can be the entry of a run: it exists,
//! its parameters are integers and it returns `i64`.

use crate::entities::{Block, FuncId, Inst, Local, StructId};
use crate::function::Function;
use crate::inst::{BinaryOp, CastOp, InstKind, Loc, Operand, Terminator, UnaryOp};
use crate::module::Module;
use crate::types::{ElemType, ScalarType, Type};
// FxHash: the keys are compiler-internal ids and names, not attacker-chosen input.
use cranelift_entity::EntitySet;
use rustc_hash::FxHashSet as HashSet;
use thiserror::Error;

/// What is wrong. The `Display` text is the message shown to users.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VerifyErrorKind {
    #[error("duplicate struct name `{name}`")]
    DuplicateStruct { name: String },
    #[error("struct `{strukt}` has no fields")]
    EmptyStruct { strukt: String },
    #[error("duplicate field name `{field}` in struct `{strukt}`")]
    DuplicateField { strukt: String, field: String },
    #[error("field `{field}` of struct `{strukt}` has type {ty}; struct fields must be scalars")]
    BadFieldType {
        strukt: String,
        field: String,
        ty: String,
    },
    #[error("duplicate function name `{name}`")]
    DuplicateFunction { name: String },
    /// A name the text format cannot spell (so the module would not print back to parseable
    /// text): not an identifier, or a reserved word.
    #[error("{what} name `{name}` is not a valid identifier of the text format")]
    InvalidName { what: &'static str, name: String },
    #[error("duplicate local name `{name}`")]
    DuplicateLocal { name: String },
    #[error("duplicate block name `{name}`")]
    DuplicateBlock { name: String },
    #[error("parameter `{name}` is listed twice")]
    DuplicateParam { name: String },
    #[error("reference to undefined struct `{id}`")]
    UnknownStruct { id: String },
    #[error("reference to undefined function `{id}`")]
    UnknownFunction { id: String },
    #[error("reference to undefined local `{id}`")]
    UnknownLocal { id: String },
    #[error("reference to undefined block `{id}`")]
    UnknownBlock { id: String },
    #[error("reference to undefined instruction `{id}`")]
    UnknownInst { id: String },
    #[error("function `{func}` has no blocks")]
    EmptyLayout { func: String },
    #[error("block `{block}` appears more than once in the layout")]
    DuplicateLayout { block: String },
    #[error("instruction `{inst}` is placed more than once in the layout")]
    DuplicatePlacement { inst: String },
    #[error("block `{block}` has no terminator")]
    MissingTerminator { block: String },
    #[error("branch to block `{block}`, which is not in the layout")]
    TargetNotInLayout { block: String },
    #[error("unreachable block `{block}`")]
    UnreachableBlock { block: String },
    #[error("type mismatch: {what} is {found} but `{op}` here needs {expected}")]
    TypeMismatch {
        what: String,
        found: String,
        op: &'static str,
        expected: String,
    },
    #[error("constant {value} does not fit {ty} in `{op}`")]
    ConstantOutOfRange {
        value: i64,
        ty: String,
        op: &'static str,
    },
    #[error("constant {value} cannot be a value of type {ty} in `{op}`: struct and vec operands must be locals")]
    ConstantNotAllowed {
        value: i64,
        ty: String,
        op: &'static str,
    },
    #[error("constant {value} has no type in `{op}`: {reason}")]
    UntypedConstant {
        value: i64,
        op: &'static str,
        reason: &'static str,
    },
    #[error("invalid cast: `{op}` from {from} to {to}: {reason}")]
    BadCast {
        op: &'static str,
        from: String,
        to: String,
        reason: &'static str,
    },
    #[error("`make {strukt}` has {found} operands but the struct has {expected} fields")]
    MakeArity {
        strukt: String,
        expected: usize,
        found: usize,
    },
    #[error("field #{field} does not exist: struct `{strukt}` has {count} fields")]
    FieldOutOfRange {
        strukt: String,
        field: u32,
        count: usize,
    },
    #[error("call to `{callee}` has {found} arguments but it takes {expected}")]
    CallArity {
        callee: String,
        expected: usize,
        found: usize,
    },
    #[error("call to `{callee}` assigns `{dst}`, but `{callee}` returns nothing")]
    VoidCallResult { callee: String, dst: String },
    #[error("`ret` without a value in a function that returns {ty}")]
    RetMissingValue { ty: String },
    #[error("`ret` with a value in a function that returns nothing")]
    RetValueInVoid,
    #[error("local `{local}` is marked packed but {reason}")]
    BadPacked { local: String, reason: String },
    /// An unchecked vec operation in a module verified without
    /// [`VerifyOptions::trust_unchecked`].
    #[error("`{op}.unchecked` is not allowed in untrusted IR: it skips the check that keeps the access inside the vec, so it can read or write memory the vec does not own; use `{op}` (the passes remove the check where it cannot fail), or opt in with `--trust-unchecked` / `VerifyOptions::trust_unchecked` if the front end guarantees it")]
    UncheckedNotTrusted { op: &'static str },
    /// An unchecked division in a module verified without [`VerifyOptions::trust_unchecked`].
    #[error("`{op}.unchecked` is not allowed in untrusted IR: it skips the test of the divisor ({precondition}), so a divisor that fails it faults the process instead of trapping `div_zero`; use `{op}` (the passes remove the test where it cannot fail), or opt in with `--trust-unchecked` / `VerifyOptions::trust_unchecked` if the front end guarantees it")]
    UncheckedDivNotTrusted {
        op: &'static str,
        precondition: &'static str,
    },
    /// `.unchecked` on an operator that has no unchecked form (only the divisions do).
    #[error("`{op}` has no unchecked form (only `sdiv`, `udiv`, `srem` and `urem` do)")]
    UncheckedNotDivision { op: &'static str },
    #[error("no entry function `{name}`")]
    NoEntry { name: String },
    #[error("bad entry signature: `{func}` {reason}")]
    BadEntrySignature { func: String, reason: String },
}

/// A verification error: which function (if any), where, and what.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{kind}")]
pub struct VerifyError {
    /// The function the error is in; `None` for module-level errors (structs).
    pub func: Option<String>,
    /// Where; [`Loc::UNKNOWN`] when neither the item nor its function has a location.
    pub loc: Loc,
    pub kind: VerifyErrorKind,
}

impl VerifyError {
    /// The user-facing message (the CLI prints `FILE:LINE:COL: error: <message>`).
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

/// What the verifier accepts beyond well-formed, well-typed IR.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Accept unchecked vec operations (`pop.unchecked`, `get.unchecked`, `set.unchecked`).
    ///
    /// Like Rust's `unsafe`, this moves a proof obligation to the caller: an unchecked
    /// operation whose precondition fails reads or writes out of bounds in the JIT (undefined
    /// behaviour; the interpreter reports an `UncheckedViolation`). Set it only for IR that
    /// this library's passes produced, or that a front end generates with the bounds proven.
    /// Never set it for IR from an untrusted source. Off by default.
    pub trust_unchecked: bool,
}

impl VerifyOptions {
    /// The options for IR whose unchecked operations are vouched for (the passes' output).
    pub const TRUSTED: VerifyOptions = VerifyOptions {
        trust_unchecked: true,
    };
}

/// Verifies a module from an untrusted source, returning every error found: unchecked
/// operations are refused (see [`verify_with`] to accept them).
pub fn verify(module: &Module) -> Result<(), Vec<VerifyError>> {
    verify_with(module, &VerifyOptions::default())
}

/// `Ok` when nothing was found, else every error.
fn into_result(errors: Vec<VerifyError>) -> Result<(), Vec<VerifyError>> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Verifies a module with `options`, returning every error found.
pub fn verify_with(module: &Module, options: &VerifyOptions) -> Result<(), Vec<VerifyError>> {
    let mut errors = match verify_well_formed(module) {
        Ok(()) => Vec::new(),
        Err(errors) => errors,
    };
    if !options.trust_unchecked {
        refuse_unchecked(module, &mut errors);
    }
    into_result(errors)
}

/// Verifies one function `func` as a body of `module`: its locals, signature, blocks and
/// instructions, with calls, struct types and signatures looked up in `module` (every rule
/// [`verify_with`] applies to one function; `func` need not be in the module: a caller that
/// holds a function being transformed passes it while the module holds its signature). The
/// module's own rules (its structs, unique function names) are not checked again. What a pass
/// manager verifies after each pass, where only the function the pass ran on can have changed:
/// the whole module after every pass of every function made verification quadratic.
pub fn verify_function_with(
    module: &Module,
    func: &Function,
    options: &VerifyOptions,
) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    check_function_name(func, &mut errors);
    check_function(module, func, &mut errors);
    if !options.trust_unchecked {
        refuse_unchecked_in(func, &mut errors);
    }
    into_result(errors)
}

/// The function's name must be spellable in the text format.
fn check_function_name(func: &Function, errors: &mut Vec<VerifyError>) {
    if !is_spellable(&func.name, NameKind::Other) {
        errors.push(VerifyError {
            func: Some(func.name.clone()),
            loc: func.loc,
            kind: VerifyErrorKind::InvalidName {
                what: "function",
                name: func.name.clone(),
            },
        });
    }
}

/// Runs every per-function rule on `func` (a body of `module`).
fn check_function(module: &Module, func: &Function, errors: &mut Vec<VerifyError>) {
    FuncChecker {
        m: module,
        f: func,
        errors,
        placed: EntitySet::with_capacity(func.insts.len()),
        in_layout: {
            let mut set = EntitySet::with_capacity(func.blocks.len());
            for &b in &func.layout {
                set.insert(b);
            }
            set
        },
    }
    .run();
}

/// The unchecked rule: every unchecked vec operation of `module` is an error at its own
/// location (the function's when the instruction has none). Dangling ids are skipped: the
/// well-formedness rules report them.
fn refuse_unchecked(module: &Module, errors: &mut Vec<VerifyError>) {
    for func in module.funcs.values() {
        refuse_unchecked_in(func, errors);
    }
}

/// [`refuse_unchecked`] for one function.
fn refuse_unchecked_in(func: &Function, errors: &mut Vec<VerifyError>) {
    for &block in &func.layout {
        let Some(data) = func.blocks.get(block) else {
            continue;
        };
        for &inst in &data.insts {
            let Some(inst_data) = func.insts.get(inst) else {
                continue;
            };
            let kind = match inst_data.kind {
                InstKind::VecPop { check, .. } if !check.is_checked() => {
                    VerifyErrorKind::UncheckedNotTrusted { op: "pop" }
                }
                InstKind::VecGet { check, .. } if !check.is_checked() => {
                    VerifyErrorKind::UncheckedNotTrusted { op: "get" }
                }
                InstKind::VecSet { check, .. } if !check.is_checked() => {
                    VerifyErrorKind::UncheckedNotTrusted { op: "set" }
                }
                InstKind::Binary { op, check, .. } if !check.is_checked() => {
                    VerifyErrorKind::UncheckedDivNotTrusted {
                        op: op.name(),
                        precondition: if op == BinaryOp::SDiv {
                            "not 0, not -1"
                        } else {
                            "not 0"
                        },
                    }
                }
                _ => continue,
            };
            errors.push(VerifyError {
                func: Some(func.name.clone()),
                loc: if inst_data.loc.is_known() {
                    inst_data.loc
                } else {
                    func.loc
                },
                kind,
            });
        }
    }
}

/// Checks that a module is well formed and well typed (every rule but the unchecked one).
fn verify_well_formed(module: &Module) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    verify_structs(module, &mut errors);
    let mut func_names = HashSet::default();
    for func in module.funcs.values() {
        check_function_name(func, &mut errors);
        if !func_names.insert(func.name.as_str()) {
            errors.push(VerifyError {
                func: Some(func.name.clone()),
                loc: func.loc,
                kind: VerifyErrorKind::DuplicateFunction {
                    name: func.name.clone(),
                },
            });
        }
        check_function(module, func, &mut errors);
    }
    into_result(errors)
}

/// Checks that function `name` exists and can be the entry of a run: integer parameters (any
/// width; not bool, struct or vec) and an `i64` result. Does not verify the module itself.
#[allow(
    clippy::result_large_err,
    reason = "called once per run; the error is built only on failure"
)]
pub fn verify_entry(module: &Module, name: &str) -> Result<FuncId, VerifyError> {
    let Some(id) = module.func_by_name(name) else {
        return Err(VerifyError {
            func: None,
            loc: Loc::UNKNOWN,
            kind: VerifyErrorKind::NoEntry {
                name: name.to_string(),
            },
        });
    };
    let func = &module.funcs[id];
    let bad = |loc: Loc, reason: String| VerifyError {
        func: Some(func.name.clone()),
        loc: if loc.is_known() { loc } else { func.loc },
        kind: VerifyErrorKind::BadEntrySignature {
            func: func.name.clone(),
            reason,
        },
    };
    for &param in &func.params {
        let Some(data) = func.locals.get(param) else {
            return Err(bad(
                func.loc,
                format!("has a parameter that is an undefined local `{param}`"),
            ));
        };
        if data.ty.as_int().is_none() {
            return Err(bad(
                data.loc,
                format!(
                    "has parameter `{}` of type {}; entry parameters must be integers",
                    data.name,
                    type_name(module, data.ty)
                ),
            ));
        }
    }
    match func.ret {
        Some(Type::Scalar(ScalarType::I64)) => Ok(id),
        Some(ty) => Err(bad(
            func.loc,
            format!(
                "returns {}; the entry must return i64",
                type_name(module, ty)
            ),
        )),
        None => Err(bad(
            func.loc,
            "returns nothing; the entry must return i64".to_string(),
        )),
    }
}

/// Renders a type without panicking on dangling struct ids.
fn type_name(m: &Module, ty: Type) -> String {
    let struct_name = |s: StructId| match m.structs.get(s) {
        Some(def) => def.name.clone(),
        None => format!("<undefined {s}>"),
    };
    match ty {
        Type::Scalar(s) => s.name().to_string(),
        Type::Struct(s) => struct_name(s),
        Type::Vec(ElemType::Scalar(s)) => format!("vec<{}>", s.name()),
        Type::Vec(ElemType::Struct(s)) => format!("vec<{}>", struct_name(s)),
    }
}

/// The struct a type mentions, if any (a struct or a vec of structs).
fn mentioned_struct(ty: Type) -> Option<StructId> {
    match ty {
        Type::Struct(s) | Type::Vec(ElemType::Struct(s)) => Some(s),
        _ => None,
    }
}

/// Whether `value` is a valid constant of scalar type `ty`: it fits the signed or the unsigned
/// reading of the width; `bool` takes 0 or 1.
fn const_fits(ty: ScalarType, value: i64) -> bool {
    match ty {
        ScalarType::Bool => value == 0 || value == 1,
        ScalarType::I64 => true,
        other => {
            let w = other.bits();
            let min = -(1i64 << (w - 1));
            let max = (1i64 << w) - 1;
            (min..=max).contains(&value)
        }
    }
}

fn verify_structs(m: &Module, errors: &mut Vec<VerifyError>) {
    let mut names = HashSet::default();
    for def in m.structs.values() {
        let mut push = |kind| {
            errors.push(VerifyError {
                func: None,
                loc: def.loc,
                kind,
            })
        };
        if !is_spellable(&def.name, NameKind::Struct) {
            push(VerifyErrorKind::InvalidName {
                what: "struct",
                name: def.name.clone(),
            });
        }
        if !names.insert(def.name.as_str()) {
            push(VerifyErrorKind::DuplicateStruct {
                name: def.name.clone(),
            });
        }
        if def.fields.is_empty() {
            push(VerifyErrorKind::EmptyStruct {
                strukt: def.name.clone(),
            });
        }
        let mut fields = HashSet::default();
        for field in &def.fields {
            if !is_spellable(&field.name, NameKind::Other) {
                push(VerifyErrorKind::InvalidName {
                    what: "field",
                    name: field.name.clone(),
                });
            }
            if !fields.insert(field.name.as_str()) {
                push(VerifyErrorKind::DuplicateField {
                    strukt: def.name.clone(),
                    field: field.name.clone(),
                });
            }
            if field.ty.as_scalar().is_none() {
                push(VerifyErrorKind::BadFieldType {
                    strukt: def.name.clone(),
                    field: field.name.clone(),
                    ty: type_name(m, field.ty),
                });
            }
        }
    }
}

/// The class of types an operator accepts, for messages and checks.
#[derive(Copy, Clone)]
enum Class {
    Int,
    IntOrBool,
}

impl Class {
    fn accepts(self, ty: Type) -> bool {
        match self {
            Class::Int => ty.as_int().is_some(),
            Class::IntOrBool => ty.as_scalar().is_some(),
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Class::Int => "an integer type",
            Class::IntOrBool => "an integer type or bool",
        }
    }
}

/// The text name of an instruction, for messages.
fn inst_name(kind: &InstKind) -> &'static str {
    match kind {
        InstKind::Copy { .. } => "copy",
        InstKind::Unary { op, .. } => op.name(),
        InstKind::Binary { op, .. } => op.name(),
        InstKind::Compare { op, .. } => op.name(),
        InstKind::Cast { op, .. } => op.name(),
        InstKind::Make { .. } => "make",
        InstKind::GetField { .. } => "getfield",
        InstKind::SetField { .. } => "setfield",
        InstKind::VecNew { .. } => "new",
        InstKind::VecLen { .. } => "len",
        InstKind::VecPush { .. } => "push",
        InstKind::VecPop { .. } => "pop",
        InstKind::VecGet { .. } => "get",
        InstKind::VecSet { .. } => "set",
        InstKind::VecDrop { .. } => "drop",
        InstKind::Call { .. } => "call",
    }
}

struct FuncChecker<'a> {
    m: &'a Module,
    f: &'a Function,
    errors: &'a mut Vec<VerifyError>,
    /// Instructions already seen in the layout.
    /// (A bit set: an instruction is looked up in the arena before it is marked.)
    placed: EntitySet<Inst>,
    /// The blocks of the layout (a set: branch targets are checked against it).
    in_layout: EntitySet<Block>,
}

impl FuncChecker<'_> {
    fn err(&mut self, loc: Loc, kind: VerifyErrorKind) {
        let loc = if loc.is_known() { loc } else { self.f.loc };
        self.errors.push(VerifyError {
            func: Some(self.f.name.clone()),
            loc,
            kind,
        });
    }

    fn ty_name(&self, ty: Type) -> String {
        type_name(self.m, ty)
    }

    fn run(&mut self) {
        self.check_locals();
        self.check_signature();
        let layout = self.check_layout();
        for &block in &layout {
            self.check_block(block);
        }
        self.check_reachability(&layout);
    }

    /// Checks that a type's struct (if any) exists; reports at `loc`.
    fn check_type(&mut self, ty: Type, loc: Loc) -> bool {
        if let Some(s) = mentioned_struct(ty) {
            if self.m.structs.get(s).is_none() {
                self.err(loc, VerifyErrorKind::UnknownStruct { id: s.to_string() });
                return false;
            }
        }
        true
    }

    fn check_locals(&mut self) {
        let mut names = HashSet::with_capacity_and_hasher(self.f.locals.len(), Default::default());
        for data in self.f.locals.values() {
            if !is_spellable(&data.name, NameKind::Local) {
                self.err(
                    data.loc,
                    VerifyErrorKind::InvalidName {
                        what: "local",
                        name: data.name.to_string(),
                    },
                );
            }
            if !names.insert(data.name.as_str()) {
                self.err(
                    data.loc,
                    VerifyErrorKind::DuplicateLocal {
                        name: data.name.to_string(),
                    },
                );
            }
            let type_ok = self.check_type(data.ty, data.loc);
            if data.packed && type_ok {
                let reason = match data.ty {
                    Type::Struct(s) => self.m.packable(s).err(),
                    other => Some(format!("has type {}, not a struct", self.ty_name(other))),
                };
                if let Some(reason) = reason {
                    self.err(
                        data.loc,
                        VerifyErrorKind::BadPacked {
                            local: data.name.to_string(),
                            reason,
                        },
                    );
                }
            }
        }
    }

    fn check_signature(&mut self) {
        let mut seen = HashSet::default();
        for &param in &self.f.params {
            match self.f.locals.get(param) {
                None => self.err(
                    self.f.loc,
                    VerifyErrorKind::UnknownLocal {
                        id: param.to_string(),
                    },
                ),
                Some(data) => {
                    if !seen.insert(param) {
                        self.err(
                            data.loc,
                            VerifyErrorKind::DuplicateParam {
                                name: data.name.to_string(),
                            },
                        );
                    }
                }
            }
        }
        if let Some(ret) = self.f.ret {
            self.check_type(ret, self.f.loc);
        }
    }

    /// Checks the layout itself and returns the distinct, existing blocks in it, in order.
    fn check_layout(&mut self) -> Vec<Block> {
        if self.f.layout.is_empty() {
            self.err(
                self.f.loc,
                VerifyErrorKind::EmptyLayout {
                    func: self.f.name.clone(),
                },
            );
        }
        let mut blocks = Vec::with_capacity(self.f.layout.len());
        let mut seen = EntitySet::with_capacity(self.f.blocks.len());
        let mut names = HashSet::with_capacity_and_hasher(self.f.layout.len(), Default::default());
        for &block in &self.f.layout {
            let Some(data) = self.f.blocks.get(block) else {
                self.err(
                    self.f.loc,
                    VerifyErrorKind::UnknownBlock {
                        id: block.to_string(),
                    },
                );
                continue;
            };
            if !seen.insert(block) {
                self.err(
                    data.loc,
                    VerifyErrorKind::DuplicateLayout {
                        block: data.name.to_string(),
                    },
                );
                continue;
            }
            if !is_spellable(&data.name, NameKind::Other) {
                self.err(
                    data.loc,
                    VerifyErrorKind::InvalidName {
                        what: "block",
                        name: data.name.to_string(),
                    },
                );
            }
            if !names.insert(data.name.as_str()) {
                self.err(
                    data.loc,
                    VerifyErrorKind::DuplicateBlock {
                        name: data.name.to_string(),
                    },
                );
            }
            blocks.push(block);
        }
        blocks
    }

    fn check_reachability(&mut self, layout: &[Block]) {
        let Some(&entry) = layout.first() else {
            return;
        };
        if self.f.layout.first() != Some(&entry) {
            // The real entry is dangling; that was reported already.
            return;
        }
        let mut in_layout = EntitySet::with_capacity(self.f.blocks.len());
        for &b in layout {
            in_layout.insert(b);
        }
        let mut reached = EntitySet::with_capacity(self.f.blocks.len());
        let mut stack = vec![entry];
        reached.insert(entry);
        while let Some(block) = stack.pop() {
            let Some(term) = self.f.blocks.get(block).and_then(|b| b.terminator.as_ref()) else {
                continue;
            };
            for succ in term.successors() {
                if in_layout.contains(succ) && reached.insert(succ) {
                    stack.push(succ);
                }
            }
        }
        for &block in layout {
            if !reached.contains(block) {
                if let Some(data) = self.f.blocks.get(block) {
                    self.err(
                        data.loc,
                        VerifyErrorKind::UnreachableBlock {
                            block: data.name.to_string(),
                        },
                    );
                }
            }
        }
    }

    fn check_block(&mut self, block: Block) {
        let Some(data) = self.f.blocks.get(block) else {
            return;
        };
        for &inst in &data.insts {
            self.check_inst(inst);
        }
        match &data.terminator {
            None => self.err(
                data.loc,
                VerifyErrorKind::MissingTerminator {
                    block: data.name.to_string(),
                },
            ),
            Some(term) => self.check_terminator(term, data.term_loc),
        }
    }

    fn check_inst(&mut self, inst: Inst) {
        let Some(data) = self.f.insts.get(inst) else {
            self.err(
                self.f.loc,
                VerifyErrorKind::UnknownInst {
                    id: inst.to_string(),
                },
            );
            return;
        };
        if !self.placed.insert(inst) {
            self.err(
                data.loc,
                VerifyErrorKind::DuplicatePlacement {
                    inst: inst.to_string(),
                },
            );
            return;
        }
        self.check_inst_kind(&data.kind, data.loc);
    }

    fn check_terminator(&mut self, term: &Terminator, loc: Loc) {
        for succ in term.successors() {
            match self.f.blocks.get(succ) {
                None => self.err(
                    loc,
                    VerifyErrorKind::UnknownBlock {
                        id: succ.to_string(),
                    },
                ),
                Some(data) => {
                    if !self.in_layout.contains(succ) {
                        self.err(
                            loc,
                            VerifyErrorKind::TargetNotInLayout {
                                block: data.name.to_string(),
                            },
                        );
                    }
                }
            }
        }
        match term {
            Terminator::Br(_) | Terminator::Trap(_) => {}
            Terminator::BrIf { cond, .. } => self.expect_operand(*cond, Type::BOOL, "brif", loc),
            Terminator::Ret(value) => match (value, self.f.ret) {
                (None, None) => {}
                (Some(v), Some(ty)) => self.expect_operand(*v, ty, "ret", loc),
                (None, Some(ty)) => {
                    let ty = self.ty_name(ty);
                    self.err(loc, VerifyErrorKind::RetMissingValue { ty });
                }
                (Some(_), None) => self.err(loc, VerifyErrorKind::RetValueInVoid),
            },
        }
    }

    /// The type of a local, reporting an undefined one.
    fn local_ty(&mut self, local: Local, loc: Loc) -> Option<Type> {
        match self.f.locals.get(local) {
            Some(data) => Some(data.ty),
            None => {
                self.err(
                    loc,
                    VerifyErrorKind::UnknownLocal {
                        id: local.to_string(),
                    },
                );
                None
            }
        }
    }

    fn local_name(&self, local: Local) -> String {
        match self.f.locals.get(local) {
            Some(data) => format!("`{}`", data.name),
            None => format!("`{local}`"),
        }
    }

    fn mismatch(
        &mut self,
        local: Local,
        found: Type,
        op: &'static str,
        expected: String,
        loc: Loc,
    ) {
        self.mismatch_in(local, &String::new, found, op, expected, loc);
    }

    /// A type mismatch on `local`; `context` (e.g. " (argument 1 of `f`)") follows its name.
    /// The context is made only when there is an error to report.
    fn mismatch_in(
        &mut self,
        local: Local,
        context: &dyn Fn() -> String,
        found: Type,
        op: &'static str,
        expected: String,
        loc: Loc,
    ) {
        let what = format!("{}{}", self.local_name(local), context());
        let found = self.ty_name(found);
        self.err(
            loc,
            VerifyErrorKind::TypeMismatch {
                what,
                found,
                op,
                expected,
            },
        );
    }

    /// Checks that `operand` is a value of type `ty` at this position.
    fn expect_operand(&mut self, operand: Operand, ty: Type, op: &'static str, loc: Loc) {
        self.expect_operand_in(operand, &String::new, ty, op, loc);
    }

    /// [`Self::expect_operand`] with a `context` after the local's name in messages.
    fn expect_operand_in(
        &mut self,
        operand: Operand,
        context: &dyn Fn() -> String,
        ty: Type,
        op: &'static str,
        loc: Loc,
    ) {
        match operand {
            Operand::Local(local) => {
                if let Some(found) = self.local_ty(local, loc) {
                    if found != ty {
                        let expected = self.ty_name(ty);
                        self.mismatch_in(local, context, found, op, expected, loc);
                    }
                }
            }
            Operand::Const(value) => self.expect_const(value, ty, op, loc),
        }
    }

    fn expect_const(&mut self, value: i64, ty: Type, op: &'static str, loc: Loc) {
        match ty {
            Type::Scalar(s) => {
                if !const_fits(s, value) {
                    self.err(
                        loc,
                        VerifyErrorKind::ConstantOutOfRange {
                            value,
                            ty: s.name().to_string(),
                            op,
                        },
                    );
                }
            }
            other => {
                let ty = self.ty_name(other);
                self.err(loc, VerifyErrorKind::ConstantNotAllowed { value, ty, op });
            }
        }
    }

    /// The type of local `local` if it is in `class`; reports otherwise.
    fn class_ty(&mut self, local: Local, class: Class, op: &'static str, loc: Loc) -> Option<Type> {
        let ty = self.local_ty(local, loc)?;
        if class.accepts(ty) {
            Some(ty)
        } else {
            self.mismatch(local, ty, op, class.describe().to_string(), loc);
            None
        }
    }

    /// Checks that `dst` has exactly type `ty`.
    fn expect_dst(&mut self, dst: Local, ty: Type, op: &'static str, loc: Loc) {
        self.expect_operand(Operand::Local(dst), ty, op, loc);
    }

    /// The struct type of a local, reporting when it is not a struct.
    fn struct_of(&mut self, local: Local, op: &'static str, loc: Loc) -> Option<StructId> {
        let ty = self.local_ty(local, loc)?;
        match ty {
            Type::Struct(s) if self.m.structs.get(s).is_some() => Some(s),
            Type::Struct(_) => None, // reported with the local
            other => {
                self.mismatch(local, other, op, "a struct".to_string(), loc);
                None
            }
        }
    }

    /// The element type of a vec local, reporting when it is not a vec.
    fn elem_of(&mut self, vec: Local, op: &'static str, loc: Loc) -> Option<ElemType> {
        let ty = self.local_ty(vec, loc)?;
        match ty {
            Type::Vec(ElemType::Struct(s)) if self.m.structs.get(s).is_none() => None,
            Type::Vec(elem) => Some(elem),
            other => {
                self.mismatch(vec, other, op, "a vec".to_string(), loc);
                None
            }
        }
    }

    /// The type of field `field` of struct `s`, reporting an invalid index.
    fn field_ty(&mut self, s: StructId, field: u32, loc: Loc) -> Option<Type> {
        let def = self.m.structs.get(s)?;
        match def.fields.get(field as usize) {
            Some(f) => Some(f.ty),
            None => {
                let kind = VerifyErrorKind::FieldOutOfRange {
                    strukt: def.name.clone(),
                    field,
                    count: def.fields.len(),
                };
                self.err(loc, kind);
                None
            }
        }
    }

    /// The type an element access reads or writes: the element, or one field of it.
    fn access_ty(
        &mut self,
        vec: Local,
        field: Option<u32>,
        op: &'static str,
        loc: Loc,
    ) -> Option<Type> {
        let elem = self.elem_of(vec, op, loc)?;
        match (field, elem) {
            (None, elem) => Some(elem.to_type()),
            (Some(f), ElemType::Struct(s)) => self.field_ty(s, f, loc),
            (Some(_), ElemType::Scalar(s)) => {
                self.mismatch(
                    vec,
                    Type::Vec(ElemType::Scalar(s)),
                    op,
                    "a vec of structs (it accesses a field)".to_string(),
                    loc,
                );
                None
            }
        }
    }

    fn check_inst_kind(&mut self, kind: &InstKind, loc: Loc) {
        let op = inst_name(kind);
        match kind {
            InstKind::Copy { dst, src } => {
                if let Some(ty) = self.local_ty(*dst, loc) {
                    self.expect_operand(*src, ty, op, loc);
                }
            }
            InstKind::Unary { dst, op: u, arg } => {
                let class = match u {
                    UnaryOp::Neg | UnaryOp::Ctz | UnaryOp::Clz | UnaryOp::Popcnt => Class::Int,
                    UnaryOp::Not => Class::IntOrBool,
                };
                if let Some(ty) = self.class_ty(*dst, class, op, loc) {
                    self.expect_operand(*arg, ty, op, loc);
                }
            }
            InstKind::Binary {
                dst,
                op: b,
                lhs,
                rhs,
                check,
            } => {
                if !check.is_checked() && !b.is_division() {
                    self.err(loc, VerifyErrorKind::UncheckedNotDivision { op: b.name() });
                }
                let class = if b.is_logical() {
                    Class::IntOrBool
                } else {
                    Class::Int
                };
                if let Some(ty) = self.class_ty(*dst, class, op, loc) {
                    self.expect_operand(*lhs, ty, op, loc);
                    self.expect_operand(*rhs, ty, op, loc);
                }
            }
            InstKind::Compare {
                dst,
                op: c,
                lhs,
                rhs,
            } => {
                self.expect_dst(*dst, Type::BOOL, op, loc);
                let class = if matches!(c, crate::CmpOp::Eq | crate::CmpOp::Ne) {
                    Class::IntOrBool
                } else {
                    Class::Int
                };
                let typed = [*lhs, *rhs].into_iter().find_map(|o| o.as_local());
                match typed {
                    Some(local) => {
                        if let Some(ty) = self.class_ty(local, class, op, loc) {
                            self.expect_operand(*lhs, ty, op, loc);
                            self.expect_operand(*rhs, ty, op, loc);
                        }
                    }
                    None => {
                        let value = lhs.as_const().unwrap_or_default();
                        self.err(
                            loc,
                            VerifyErrorKind::UntypedConstant {
                                value,
                                op,
                                reason: "a compare needs at least one local operand",
                            },
                        );
                    }
                }
            }
            InstKind::Cast { dst, op: c, arg } => self.check_cast(*dst, *c, *arg, loc),
            InstKind::Make { dst, ty, fields } => {
                let Some(def) = self.m.structs.get(*ty) else {
                    self.err(loc, VerifyErrorKind::UnknownStruct { id: ty.to_string() });
                    return;
                };
                self.expect_dst(*dst, Type::Struct(*ty), op, loc);
                if def.fields.len() != fields.len() {
                    self.err(
                        loc,
                        VerifyErrorKind::MakeArity {
                            strukt: def.name.clone(),
                            expected: def.fields.len(),
                            found: fields.len(),
                        },
                    );
                    return;
                }
                for (field, &value) in def.fields.iter().zip(fields) {
                    self.expect_operand(value, field.ty, op, loc);
                }
            }
            InstKind::GetField { dst, src, field } => {
                if let Some(s) = self.struct_of(*src, op, loc) {
                    if let Some(fty) = self.field_ty(s, *field, loc) {
                        self.expect_dst(*dst, fty, op, loc);
                    }
                }
            }
            InstKind::SetField { dst, field, value } => {
                if let Some(s) = self.struct_of(*dst, op, loc) {
                    if let Some(fty) = self.field_ty(s, *field, loc) {
                        self.expect_operand(*value, fty, op, loc);
                    }
                }
            }
            InstKind::VecNew { dst, elem } => {
                let ty = Type::Vec(*elem);
                if self.check_type(ty, loc) {
                    self.expect_dst(*dst, ty, op, loc);
                }
            }
            InstKind::VecLen { dst, vec } => {
                self.elem_of(*vec, op, loc);
                self.expect_dst(*dst, Type::I64, op, loc);
            }
            InstKind::VecPush { vec, value } => {
                if let Some(elem) = self.elem_of(*vec, op, loc) {
                    self.expect_operand(*value, elem.to_type(), op, loc);
                }
            }
            InstKind::VecPop { dst, vec, .. } => {
                if let Some(elem) = self.elem_of(*vec, op, loc) {
                    if let Some(dst) = dst {
                        self.expect_dst(*dst, elem.to_type(), op, loc);
                    }
                } else if let Some(dst) = dst {
                    self.local_ty(*dst, loc);
                }
            }
            InstKind::VecGet {
                dst,
                vec,
                index,
                field,
                ..
            } => {
                self.expect_operand(*index, Type::I64, op, loc);
                match self.access_ty(*vec, *field, op, loc) {
                    Some(ty) => self.expect_dst(*dst, ty, op, loc),
                    None => {
                        self.local_ty(*dst, loc);
                    }
                }
            }
            InstKind::VecSet {
                vec,
                index,
                field,
                value,
                ..
            } => {
                self.expect_operand(*index, Type::I64, op, loc);
                if let Some(ty) = self.access_ty(*vec, *field, op, loc) {
                    self.expect_operand(*value, ty, op, loc);
                }
            }
            InstKind::VecDrop { vec } => {
                self.elem_of(*vec, op, loc);
            }
            InstKind::Call { dst, func, args } => self.check_call(*dst, *func, args, loc),
        }
    }

    fn check_cast(&mut self, dst: Local, op: CastOp, arg: Operand, loc: Loc) {
        let name = op.name();
        let to = self.local_ty(dst, loc);
        let from = match arg {
            Operand::Local(l) => self.local_ty(l, loc),
            Operand::Const(value) => {
                self.err(
                    loc,
                    VerifyErrorKind::UntypedConstant {
                        value,
                        op: name,
                        reason: "a cast's operand must be a local",
                    },
                );
                None
            }
        };
        let (Some(from), Some(to)) = (from, to) else {
            return;
        };
        let reason = match (op, from.as_scalar(), to.as_scalar()) {
            (_, Some(f), Some(t)) => {
                let ok = match op {
                    CastOp::Sext => f.is_int() && t.is_int() && t.bits() > f.bits(),
                    CastOp::Zext => t.is_int() && t.bits() > f.bits(),
                    CastOp::Trunc => f.is_int() && (t == ScalarType::Bool || t.bits() < f.bits()),
                };
                if ok {
                    return;
                }
                match op {
                    CastOp::Sext => "sext needs a strictly wider integer target",
                    CastOp::Zext => "zext needs a strictly wider integer target",
                    CastOp::Trunc => "trunc needs a strictly narrower integer target, or bool",
                }
            }
            _ => "casts convert scalars only",
        };
        let (from, to) = (self.ty_name(from), self.ty_name(to));
        self.err(
            loc,
            VerifyErrorKind::BadCast {
                op: name,
                from,
                to,
                reason,
            },
        );
    }

    fn check_call(&mut self, dst: Option<Local>, func: FuncId, args: &[Operand], loc: Loc) {
        let Some(callee) = self.m.funcs.get(func) else {
            self.err(
                loc,
                VerifyErrorKind::UnknownFunction {
                    id: func.to_string(),
                },
            );
            return;
        };
        let op = "call";
        if callee.params.len() != args.len() {
            self.err(
                loc,
                VerifyErrorKind::CallArity {
                    callee: callee.name.clone(),
                    expected: callee.params.len(),
                    found: args.len(),
                },
            );
        } else {
            for (i, (&param, &arg)) in callee.params.iter().zip(args).enumerate() {
                // A dangling parameter is reported when the callee itself is verified.
                if let Some(pdata) = callee.locals.get(param) {
                    let context = || format!(" (argument {} of `{}`)", i + 1, callee.name);
                    self.expect_operand_in(arg, &context, pdata.ty, op, loc);
                }
            }
        }
        if let Some(dst) = dst {
            match callee.ret {
                Some(ty) => {
                    let context = || format!(" (result of `{}`)", callee.name);
                    self.expect_operand_in(Operand::Local(dst), &context, ty, op, loc);
                }
                None => {
                    let dst = self.local_name(dst);
                    self.err(
                        loc,
                        VerifyErrorKind::VoidCallResult {
                            callee: callee.name.clone(),
                            dst: dst.trim_matches('`').to_string(),
                        },
                    );
                }
            }
        }
    }
}

/// Which reserved words apply to a name.
#[derive(Copy, Clone, PartialEq, Eq)]
enum NameKind {
    /// Struct names may not be type keywords.
    Struct,
    /// Local names may not be the literals `true`/`false`.
    Local,
    Other,
}

/// Whether the text format can spell `name` where a name of `kind` goes (the parser's rules).
fn is_spellable(name: &str, kind: NameKind) -> bool {
    if !crate::parser::is_valid_name(name) {
        return false;
    }
    match kind {
        NameKind::Struct => crate::ScalarType::from_name(name).is_none() && name != "vec",
        NameKind::Local => name != "true" && name != "false",
        NameKind::Other => true,
    }
}
