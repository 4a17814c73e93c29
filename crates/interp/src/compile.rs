//! Preparation of a module for execution: every function is translated once into a compact,
//! fully resolved form (dense block indices, value-slot and struct-byte offsets per local,
//! constants pre-wrapped to the type their position demands, field offsets from the C layout).
//!
//! This is also where an ill-formed module is caught: anything the machine could not execute
//! safely (a dangling local, block or function, a field index out of range, a struct where a
//! scalar is expected, a missing terminator) makes the function's translation fail with a
//! message, reported as `Malformed` if and when the function is called.

use poolopt_ir::{
    BinaryOp, Block, CastOp, Check, CmpOp, ElemType, EntityRef, FuncId, Function, InstKind, Local,
    Module, Operand, ScalarType, StructId, StructLayout, Terminator, Type, UnaryOp,
};

/// An operand: a value slot of the frame, or a constant already wrapped to its type.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Src {
    Slot(u32),
    Const(i64),
}

/// Where a local lives in its frame.
#[derive(Copy, Clone, Debug)]
pub(crate) enum LocalKind {
    /// A scalar in value slot `local index`.
    Scalar(ScalarType),
    /// A vec handle in value slot `local index`.
    Vec(ElemType),
    /// A struct at byte `off` of the frame's struct area.
    Struct { id: StructId, off: u32, size: u32 },
}

/// A value moved into a scalar slot or a struct area: the destination of pops, element reads
/// and call results.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Dst {
    None,
    /// A value slot; the value is wrapped to `ty` (vec handles use `I64`).
    Slot {
        slot: u32,
        ty: ScalarType,
    },
    /// `size` bytes at `off` of the struct area.
    Bytes {
        off: u32,
        size: u32,
    },
}

/// A value read from a scalar operand or a struct area: pushed, stored, passed or returned.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Val {
    Scalar { src: Src, ty: ScalarType },
    Bytes { off: u32, size: u32 },
}

/// One argument of a call: the value and the callee local it initializes.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Arg {
    pub val: Val,
    pub dst: Dst,
}

/// A resolved instruction.
#[derive(Clone, Debug)]
pub(crate) enum CInst {
    Copy {
        dst: u32,
        src: Src,
        ty: ScalarType,
    },
    CopyBytes {
        dst: u32,
        src: u32,
        size: u32,
    },
    Unary {
        dst: u32,
        op: UnaryOp,
        arg: Src,
        ty: ScalarType,
    },
    Binary {
        dst: u32,
        op: BinaryOp,
        lhs: Src,
        rhs: Src,
        ty: ScalarType,
    },
    /// An unchecked division: its precondition (divisor not 0, not -1 for `sdiv`) is tested
    /// and a violation reported as [`crate::InterpError::UncheckedViolation`].
    DivUnchecked {
        dst: u32,
        op: BinaryOp,
        lhs: Src,
        rhs: Src,
        ty: ScalarType,
    },
    Compare {
        dst: u32,
        op: CmpOp,
        lhs: Src,
        rhs: Src,
        ty: ScalarType,
        dst_ty: ScalarType,
    },
    Cast {
        dst: u32,
        op: CastOp,
        arg: Src,
        from: ScalarType,
        to: ScalarType,
    },
    /// Zero `size` bytes at `off`, then store each field.
    Make {
        off: u32,
        size: u32,
        fields: Box<[(u32, ScalarType, Src)]>,
    },
    /// Load a field (at absolute struct-area offset `off`) into a slot.
    GetField {
        dst: u32,
        dst_ty: ScalarType,
        off: u32,
        fty: ScalarType,
    },
    SetField {
        off: u32,
        fty: ScalarType,
        src: Src,
    },
    VecNew {
        dst: u32,
        elem_size: u32,
    },
    VecLen {
        dst: u32,
        vec: u32,
        ty: ScalarType,
    },
    Push {
        vec: u32,
        val: Val,
        elem_size: u32,
    },
    Pop {
        dst: Dst,
        vec: u32,
        elem_size: u32,
        /// The element type when it is a scalar.
        elem_ty: Option<ScalarType>,
        checked: bool,
    },
    /// Read an element (`field` is `None`) or one field (byte offset, type) of it.
    Get {
        dst: Dst,
        vec: u32,
        index: Src,
        elem_size: u32,
        /// The element type when it is a scalar.
        elem_ty: Option<ScalarType>,
        field: Option<(u32, ScalarType)>,
        checked: bool,
    },
    Set {
        vec: u32,
        index: Src,
        val: Val,
        elem_size: u32,
        field: Option<u32>,
        checked: bool,
    },
    Drop {
        vec: u32,
    },
    Call {
        dst: Dst,
        func: u32,
        args: Box<[Arg]>,
    },
}

/// A resolved terminator; block targets are dense indices into [`CFunc::blocks`].
#[derive(Clone, Debug)]
pub(crate) enum CTerm {
    Br(u32),
    BrIf {
        cond: Src,
        then_block: u32,
        else_block: u32,
    },
    Ret(Option<Val>),
    Trap(Box<str>),
}

/// A resolved block.
#[derive(Clone, Debug)]
pub(crate) struct CBlock {
    pub insts: Box<[CInst]>,
    /// The source line of each instruction (`Loc.line`, 0 = unknown), for trap reports.
    pub lines: Box<[u32]>,
    pub term: CTerm,
    /// The source line of the terminator.
    pub term_line: u32,
    /// Per instruction, then for the terminator: the function the code was written in when
    /// the inliner copied it here ([`poolopt_ir::Loc::origin`]), or [`NO_ORIGIN`].
    pub origins: Box<[u32]>,
}

/// No origin: the code was written in the function that holds it.
pub(crate) const NO_ORIGIN: u32 = u32::MAX;

fn origin_of(loc: poolopt_ir::Loc) -> u32 {
    loc.origin().map_or(NO_ORIGIN, |f| f.index() as u32)
}

/// A resolved function. Block 0 is the entry block.
#[derive(Clone, Debug)]
pub(crate) struct CFunc {
    pub blocks: Box<[CBlock]>,
    /// The line of the function's `fn` (a `stack_overflow` entering it is reported there).
    pub line: u32,
    /// Number of value slots (one per local).
    pub num_slots: u32,
    /// Bytes of the struct area.
    pub mem_size: u32,
}

/// The frame shape of a function: how each local is held, and its parameters.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    pub locals: Vec<LocalKind>,
    pub params: Vec<Local>,
    pub ret: Option<Type>,
    pub mem_size: u32,
}

/// A prepared module: per function its name, shape, and body (or why it cannot run).
pub(crate) struct Program {
    pub names: Vec<String>,
    pub shapes: Vec<Result<Shape, String>>,
    pub funcs: Vec<Result<CFunc, String>>,
    /// Per function, whether it lies on a cycle of the call graph (its frames count towards
    /// the call depth).
    pub recursive: Vec<bool>,
}

/// Prepares every function of `module`.
pub(crate) fn compile(module: &Module) -> Program {
    let names = module.funcs.values().map(|f| f.name.clone()).collect();
    let layouts = Layouts::of(module);
    let shapes: Vec<Result<Shape, String>> = module
        .funcs
        .values()
        .map(|f| shape(module, &layouts, f))
        .collect();
    let funcs = module
        .funcs
        .values()
        .zip(&shapes)
        .map(|(f, s)| match s {
            Ok(s) => Translator {
                module,
                layouts: &layouts,
                func: f,
                shape: s,
                shapes: &shapes,
            }
            .function(),
            Err(e) => Err(e.clone()),
        })
        .collect();
    Program {
        names,
        shapes,
        funcs,
        recursive: poolopt_ir::call_graph::recursive_functions(module),
    }
}

/// The C layout of every struct of a module, by struct index, computed once: a layout is a
/// pass over the struct's fields, and looking one up per field access made a `make` of a
/// struct of `n` fields cost `n * n` (a struct of 32,000 fields: 1.75 s before a run).
/// `Err` for a struct with a field of struct type, which no verified module has.
struct Layouts(Vec<Result<StructLayout, String>>);

impl Layouts {
    fn of(module: &Module) -> Layouts {
        Layouts(
            module
                .struct_layouts()
                .into_iter()
                .zip(module.structs.values())
                .map(|(layout, def)| {
                    for f in &def.fields {
                        field_mem_ty(f.ty)?;
                    }
                    Ok(layout)
                })
                .collect(),
        )
    }

    /// The layout of struct `id`.
    fn get(&self, id: StructId) -> Result<&StructLayout, String> {
        match self.0.get(id.index()) {
            Some(Ok(layout)) => Ok(layout),
            Some(Err(why)) => Err(why.clone()),
            None => Err(format!("unknown struct {id}")),
        }
    }
}

/// The size in bytes of an element of type `elem`.
fn elem_size(layouts: &Layouts, elem: ElemType) -> Result<u32, String> {
    match elem {
        ElemType::Scalar(s) => Ok(s.size()),
        ElemType::Struct(id) => layouts.get(id).map(|l| l.size),
    }
}

/// The element type when it is a scalar.
fn scalar_elem(e: ElemType) -> Option<ScalarType> {
    match e {
        ElemType::Scalar(s) => Some(s),
        ElemType::Struct(_) => None,
    }
}

/// The memory type of a struct field: scalars as themselves, vec handles as 8-byte words.
fn field_mem_ty(ty: Type) -> Result<ScalarType, String> {
    match ty {
        Type::Scalar(s) => Ok(s),
        Type::Vec(_) => Ok(ScalarType::I64),
        Type::Struct(_) => Err("a struct field of struct type".to_string()),
    }
}

fn shape(module: &Module, layouts: &Layouts, func: &Function) -> Result<Shape, String> {
    let mut mem = 0u32;
    let mut locals = Vec::with_capacity(func.locals.len());
    for data in func.locals.values() {
        locals.push(match data.ty {
            Type::Scalar(s) => LocalKind::Scalar(s),
            Type::Vec(e) => {
                elem_size(layouts, e)?;
                LocalKind::Vec(e)
            }
            Type::Struct(id) => {
                if module.structs.get(id).is_none() {
                    return Err(format!("local `{}` has an unknown struct type", data.name));
                }
                let size = layouts.get(id)?.size;
                let off = mem;
                mem = size
                    .checked_next_multiple_of(8)
                    .and_then(|s| mem.checked_add(s))
                    .ok_or_else(|| "struct locals too large".to_string())?;
                LocalKind::Struct { id, off, size }
            }
        });
    }
    if let Some(p) = func.params.iter().find(|p| p.index() >= locals.len()) {
        return Err(format!("parameter {p} is not a local"));
    }
    if let Some(Type::Struct(id)) = func.ret {
        if module.structs.get(id).is_none() {
            return Err("unknown struct return type".to_string());
        }
    }
    Ok(Shape {
        locals,
        params: func.params.clone(),
        ret: func.ret,
        mem_size: mem,
    })
}

struct Translator<'a> {
    module: &'a Module,
    layouts: &'a Layouts,
    func: &'a Function,
    shape: &'a Shape,
    shapes: &'a [Result<Shape, String>],
}

impl Translator<'_> {
    fn kind(&self, l: Local) -> Result<LocalKind, String> {
        self.shape
            .locals
            .get(l.index())
            .copied()
            .ok_or_else(|| format!("unknown local {l}"))
    }

    fn slot(l: Local) -> u32 {
        l.index() as u32
    }

    /// The type a local's value slot holds (vec handles: `I64`), or an error for a struct.
    fn value_ty(&self, l: Local) -> Result<ScalarType, String> {
        match self.kind(l)? {
            LocalKind::Scalar(s) => Ok(s),
            LocalKind::Vec(_) => Ok(ScalarType::I64),
            LocalKind::Struct { .. } => Err(format!(
                "struct local `{}` used as a scalar",
                self.func.locals[l].name
            )),
        }
    }

    fn scalar(&self, l: Local) -> Result<(u32, ScalarType), String> {
        match self.kind(l)? {
            LocalKind::Scalar(s) => Ok((Self::slot(l), s)),
            _ => Err(format!(
                "local `{}` is not a scalar",
                self.func.locals[l].name
            )),
        }
    }

    fn vec(&self, l: Local) -> Result<(u32, ElemType, u32), String> {
        match self.kind(l)? {
            LocalKind::Vec(e) => Ok((Self::slot(l), e, elem_size(self.layouts, e)?)),
            _ => Err(format!("local `{}` is not a vec", self.func.locals[l].name)),
        }
    }

    fn strukt(&self, l: Local) -> Result<(StructId, u32, u32), String> {
        match self.kind(l)? {
            LocalKind::Struct { id, off, size } => Ok((id, off, size)),
            _ => Err(format!(
                "local `{}` is not a struct",
                self.func.locals[l].name
            )),
        }
    }

    /// A scalar (or vec-handle) operand in a position of type `ty`.
    fn src(&self, op: Operand, ty: ScalarType) -> Result<Src, String> {
        match op {
            Operand::Const(c) => Ok(Src::Const(ty.wrap(c))),
            Operand::Local(l) => {
                self.value_ty(l)?;
                Ok(Src::Slot(Self::slot(l)))
            }
        }
    }

    /// The type of an operand that is a local, if it is one.
    fn operand_ty(&self, op: Operand) -> Result<Option<ScalarType>, String> {
        match op {
            Operand::Const(_) => Ok(None),
            Operand::Local(l) => self.value_ty(l).map(Some),
        }
    }

    /// A value of type `ty` read from `op` (for push, set, call arguments, ret).
    fn val(&self, op: Operand, ty: Type) -> Result<Val, String> {
        match ty {
            Type::Scalar(s) => Ok(Val::Scalar {
                src: self.src(op, s)?,
                ty: s,
            }),
            Type::Vec(e) => {
                let l = op
                    .as_local()
                    .ok_or_else(|| "a constant where a vec is expected".to_string())?;
                let (slot, le, _) = self.vec(l)?;
                if le != e {
                    return Err("vec element types differ".to_string());
                }
                Ok(Val::Scalar {
                    src: Src::Slot(slot),
                    ty: ScalarType::I64,
                })
            }
            Type::Struct(id) => {
                let l = op
                    .as_local()
                    .ok_or_else(|| "a constant where a struct is expected".to_string())?;
                let (lid, off, size) = self.strukt(l)?;
                if lid != id {
                    return Err("struct types differ".to_string());
                }
                Ok(Val::Bytes { off, size })
            }
        }
    }

    /// The destination local `l` receiving a value of type `ty`, in this frame.
    fn dst(&self, l: Local, ty: Type) -> Result<Dst, String> {
        match (self.kind(l)?, ty) {
            (LocalKind::Scalar(s), Type::Scalar(_)) => Ok(Dst::Slot {
                slot: Self::slot(l),
                ty: s,
            }),
            (LocalKind::Vec(e), Type::Vec(te)) if e == te => Ok(Dst::Slot {
                slot: Self::slot(l),
                ty: ScalarType::I64,
            }),
            (LocalKind::Struct { id, off, size }, Type::Struct(tid)) if id == tid => {
                Ok(Dst::Bytes { off, size })
            }
            _ => Err(format!(
                "local `{}` cannot receive a value of this type",
                self.func.locals[l].name
            )),
        }
    }

    /// Byte offset and memory type of field `field` of struct `id`.
    fn field(&self, id: StructId, field: u32) -> Result<(u32, ScalarType, Type), String> {
        let def = self
            .module
            .structs
            .get(id)
            .ok_or_else(|| format!("unknown struct {id}"))?;
        let f = def
            .fields
            .get(field as usize)
            .ok_or_else(|| format!("struct `{}` has no field #{field}", def.name))?;
        let off = self.layouts.get(id)?.offsets[field as usize];
        Ok((off, field_mem_ty(f.ty)?, f.ty))
    }

    /// Field `field` of the struct elements of a vec (`get v[i].f`, `set v[i].f`): its offset,
    /// memory type and declared type.
    fn elem_field(&self, elem: ElemType, field: u32) -> Result<(u32, ScalarType, Type), String> {
        let ElemType::Struct(id) = elem else {
            return Err("field access on a vec of scalars".into());
        };
        self.field(id, field)
    }

    fn block_index(&self, b: Block, map: &[Option<u32>]) -> Result<u32, String> {
        map.get(b.index())
            .copied()
            .flatten()
            .ok_or_else(|| format!("branch to {b}, which is not in the layout"))
    }

    fn function(&self) -> Result<CFunc, String> {
        let f = self.func;
        let mut map = vec![None; f.blocks.len()];
        for (i, &b) in f.layout.iter().enumerate() {
            let slot = map
                .get_mut(b.index())
                .ok_or_else(|| format!("layout names unknown block {b}"))?;
            slot.get_or_insert(i as u32);
        }
        if f.layout.is_empty() {
            return Err("function has no blocks".to_string());
        }
        let mut blocks = Vec::with_capacity(f.layout.len());
        for &b in &f.layout {
            let data = &f.blocks[b];
            let mut insts = Vec::with_capacity(data.insts.len());
            let mut lines = Vec::with_capacity(data.insts.len());
            let mut origins = Vec::with_capacity(data.insts.len() + 1);
            for &inst in &data.insts {
                let inst_data = f
                    .insts
                    .get(inst)
                    .ok_or_else(|| format!("unknown instruction {inst}"))?;
                let kind = &inst_data.kind;
                lines.push(inst_data.loc.line);
                origins.push(origin_of(inst_data.loc));
                insts.push(
                    self.inst(kind)
                        .map_err(|e| format!("block `{}`: {e}", data.name))?,
                );
            }
            let term = data
                .terminator
                .as_ref()
                .ok_or_else(|| format!("block `{}` has no terminator", data.name))?;
            let term = self
                .term(term, &map)
                .map_err(|e| format!("block `{}`: {e}", data.name))?;
            origins.push(origin_of(data.term_loc));
            blocks.push(CBlock {
                insts: insts.into_boxed_slice(),
                lines: lines.into_boxed_slice(),
                term,
                term_line: data.term_loc.line,
                origins: origins.into_boxed_slice(),
            });
        }
        Ok(CFunc {
            blocks: blocks.into_boxed_slice(),
            line: f.loc.line,
            num_slots: self.shape.locals.len() as u32,
            mem_size: self.shape.mem_size,
        })
    }

    fn term(&self, term: &Terminator, map: &[Option<u32>]) -> Result<CTerm, String> {
        Ok(match term {
            Terminator::Br(b) => CTerm::Br(self.block_index(*b, map)?),
            Terminator::BrIf {
                cond,
                then_block,
                else_block,
            } => CTerm::BrIf {
                cond: self.src(*cond, ScalarType::Bool)?,
                then_block: self.block_index(*then_block, map)?,
                else_block: self.block_index(*else_block, map)?,
            },
            Terminator::Ret(v) => match (v, self.func.ret) {
                (None, None) => CTerm::Ret(None),
                (Some(op), Some(ty)) => CTerm::Ret(Some(self.val(*op, ty)?)),
                (None, Some(_)) => return Err("`ret` without a value".to_string()),
                (Some(_), None) => {
                    return Err("`ret` with a value in a function without a result".to_string())
                }
            },
            Terminator::Trap(msg) => CTerm::Trap(msg.as_str().into()),
        })
    }

    fn inst(&self, kind: &InstKind) -> Result<CInst, String> {
        Ok(match kind {
            InstKind::Copy { dst, src } => match self.kind(*dst)? {
                LocalKind::Struct { id, off, size } => {
                    let l = src
                        .as_local()
                        .ok_or_else(|| "copy of a constant into a struct".to_string())?;
                    let (sid, soff, _) = self.strukt(l)?;
                    if sid != id {
                        return Err("copy between different struct types".to_string());
                    }
                    CInst::CopyBytes {
                        dst: off,
                        src: soff,
                        size,
                    }
                }
                LocalKind::Vec(e) => match self.val(*src, Type::Vec(e))? {
                    Val::Scalar { src, .. } => CInst::Copy {
                        dst: Self::slot(*dst),
                        src,
                        ty: ScalarType::I64,
                    },
                    Val::Bytes { .. } => return Err("copy of a struct into a vec".to_string()),
                },
                LocalKind::Scalar(ty) => CInst::Copy {
                    dst: Self::slot(*dst),
                    src: self.src(*src, ty)?,
                    ty,
                },
            },
            InstKind::Unary { dst, op, arg } => {
                let (dst, ty) = self.scalar(*dst)?;
                CInst::Unary {
                    dst,
                    op: *op,
                    arg: self.src(*arg, ty)?,
                    ty,
                }
            }
            InstKind::Binary {
                dst,
                op,
                lhs,
                rhs,
                check,
            } => {
                let (dst, ty) = self.scalar(*dst)?;
                let (lhs, rhs) = (self.src(*lhs, ty)?, self.src(*rhs, ty)?);
                if check.is_checked() || !op.is_division() {
                    CInst::Binary {
                        dst,
                        op: *op,
                        lhs,
                        rhs,
                        ty,
                    }
                } else {
                    CInst::DivUnchecked {
                        dst,
                        op: *op,
                        lhs,
                        rhs,
                        ty,
                    }
                }
            }
            InstKind::Compare { dst, op, lhs, rhs } => {
                let (dst, dst_ty) = self.scalar(*dst)?;
                let ty = match self.operand_ty(*lhs)? {
                    Some(t) => t,
                    None => self.operand_ty(*rhs)?.unwrap_or(ScalarType::I64),
                };
                CInst::Compare {
                    dst,
                    op: *op,
                    lhs: self.src(*lhs, ty)?,
                    rhs: self.src(*rhs, ty)?,
                    ty,
                    dst_ty,
                }
            }
            InstKind::Cast { dst, op, arg } => {
                let (dst, to) = self.scalar(*dst)?;
                let from = self.operand_ty(*arg)?.unwrap_or(ScalarType::I64);
                CInst::Cast {
                    dst,
                    op: *op,
                    arg: self.src(*arg, from)?,
                    from,
                    to,
                }
            }
            InstKind::Make { dst, ty, fields } => {
                let (id, off, size) = self.strukt(*dst)?;
                if id != *ty {
                    return Err("make of a different struct type than its destination".into());
                }
                let nfields = self.module.structs[id].fields.len();
                if fields.len() != nfields {
                    return Err(format!(
                        "make with {} operands for {nfields} fields",
                        fields.len()
                    ));
                }
                let mut out = Vec::with_capacity(nfields);
                for (i, op) in fields.iter().enumerate() {
                    let (foff, fty, decl) = self.field(id, i as u32)?;
                    let src = match self.val(*op, decl)? {
                        Val::Scalar { src, .. } => src,
                        Val::Bytes { .. } => return Err("struct operand for a field".into()),
                    };
                    out.push((off + foff, fty, src));
                }
                CInst::Make {
                    off,
                    size,
                    fields: out.into_boxed_slice(),
                }
            }
            InstKind::GetField { dst, src, field } => {
                let (id, off, _) = self.strukt(*src)?;
                let (foff, fty, decl) = self.field(id, *field)?;
                let Dst::Slot { slot, ty } = self.dst(*dst, decl)? else {
                    return Err("getfield into a struct".into());
                };
                CInst::GetField {
                    dst: slot,
                    dst_ty: ty,
                    off: off + foff,
                    fty,
                }
            }
            InstKind::SetField { dst, field, value } => {
                let (id, off, _) = self.strukt(*dst)?;
                let (foff, fty, decl) = self.field(id, *field)?;
                let Val::Scalar { src, .. } = self.val(*value, decl)? else {
                    return Err("setfield with a struct value".into());
                };
                CInst::SetField {
                    off: off + foff,
                    fty,
                    src,
                }
            }
            InstKind::VecNew { dst, elem } => {
                let (slot, e, elem_size) = self.vec(*dst)?;
                if e != *elem {
                    return Err("new vec of a different element type than its local".into());
                }
                CInst::VecNew {
                    dst: slot,
                    elem_size,
                }
            }
            InstKind::VecLen { dst, vec } => {
                let (dst, ty) = self.scalar(*dst)?;
                let (vec, _, _) = self.vec(*vec)?;
                CInst::VecLen { dst, vec, ty }
            }
            InstKind::VecPush { vec, value } => {
                let (vec, e, elem_size) = self.vec(*vec)?;
                CInst::Push {
                    vec,
                    val: self.val(*value, e.to_type())?,
                    elem_size,
                }
            }
            InstKind::VecPop { dst, vec, check } => {
                let (vec, e, elem_size) = self.vec(*vec)?;
                let dst = match dst {
                    Some(d) => self.dst(*d, e.to_type())?,
                    None => Dst::None,
                };
                CInst::Pop {
                    dst,
                    vec,
                    elem_size,
                    elem_ty: scalar_elem(e),
                    checked: *check == Check::Checked,
                }
            }
            InstKind::VecGet {
                dst,
                vec,
                index,
                field,
                check,
            } => {
                let (vec, e, elem_size) = self.vec(*vec)?;
                let index = self.src(*index, ScalarType::I64)?;
                let checked = *check == Check::Checked;
                match field {
                    None => CInst::Get {
                        dst: self.dst(*dst, e.to_type())?,
                        vec,
                        index,
                        elem_size,
                        elem_ty: scalar_elem(e),
                        field: None,
                        checked,
                    },
                    Some(f) => {
                        let (foff, fty, decl) = self.elem_field(e, *f)?;
                        CInst::Get {
                            dst: self.dst(*dst, decl)?,
                            vec,
                            index,
                            elem_size,
                            elem_ty: None,
                            field: Some((foff, fty)),
                            checked,
                        }
                    }
                }
            }
            InstKind::VecSet {
                vec,
                index,
                field,
                value,
                check,
            } => {
                let (vec, e, elem_size) = self.vec(*vec)?;
                let index = self.src(*index, ScalarType::I64)?;
                let checked = *check == Check::Checked;
                match field {
                    None => CInst::Set {
                        vec,
                        index,
                        val: self.val(*value, e.to_type())?,
                        elem_size,
                        field: None,
                        checked,
                    },
                    Some(f) => {
                        let (foff, fty, decl) = self.elem_field(e, *f)?;
                        let Val::Scalar { src, .. } = self.val(*value, decl)? else {
                            return Err("struct value for a field".into());
                        };
                        CInst::Set {
                            vec,
                            index,
                            val: Val::Scalar { src, ty: fty },
                            elem_size,
                            field: Some(foff),
                            checked,
                        }
                    }
                }
            }
            InstKind::VecDrop { vec } => CInst::Drop {
                vec: self.vec(*vec)?.0,
            },
            InstKind::Call { dst, func, args } => self.call(*dst, *func, args)?,
        })
    }

    fn call(&self, dst: Option<Local>, func: FuncId, args: &[Operand]) -> Result<CInst, String> {
        let callee = self
            .shapes
            .get(func.index())
            .ok_or_else(|| format!("call of unknown function {func}"))?
            .as_ref()
            .map_err(|e| format!("call of a malformed function: {e}"))?;
        if args.len() != callee.params.len() {
            return Err(format!(
                "call with {} arguments of a function with {} parameters",
                args.len(),
                callee.params.len()
            ));
        }
        let mut out = Vec::with_capacity(args.len());
        for (op, &p) in args.iter().zip(&callee.params) {
            let (ty, dst) = match callee.locals[p.index()] {
                LocalKind::Scalar(s) => (
                    Type::Scalar(s),
                    Dst::Slot {
                        slot: p.index() as u32,
                        ty: s,
                    },
                ),
                LocalKind::Vec(e) => (
                    Type::Vec(e),
                    Dst::Slot {
                        slot: p.index() as u32,
                        ty: ScalarType::I64,
                    },
                ),
                LocalKind::Struct { id, off, size } => (Type::Struct(id), Dst::Bytes { off, size }),
            };
            out.push(Arg {
                val: self.val(*op, ty)?,
                dst,
            });
        }
        let dst = match (dst, callee.ret) {
            (None, _) => Dst::None,
            (Some(d), Some(ty)) => self.dst(d, ty)?,
            (Some(_), None) => {
                return Err("call result taken from a function without a result".into())
            }
        };
        Ok(CInst::Call {
            dst,
            func: func.index() as u32,
            args: out.into_boxed_slice(),
        })
    }
}
