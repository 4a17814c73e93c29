//! The type checker: resolves names, gives every expression a type, decides signedness, and
//! rejects ill-typed programs with a located [`CompileError`]. Its output, [`TProgram`], is
//! well typed by construction, so the lowering never has to report a user error.
//!
//! Integer literals take the type their context asks for (`i64` by default) and must fit it;
//! `i64`, `i32`, `u64` and `u32` never mix without `as`. Division, remainder, `>>` and the
//! ordering comparisons are unsigned on `u64`/`u32`. `break`/`continue` must be inside a loop;
//! a tuple type (multiple return values) is only a return type and a tuple value is only
//! returned or destructured. A struct with a vec field is a *split* struct: it can live in
//! variables and be passed to functions, but not be returned or stored in a vec.

use crate::ast::{BinOp, Expr, ExprKind, FnDecl, Program, Stmt, TypeExpr, UnOp};
use crate::error::CompileError;
use crate::typed::{
    Arith, BitCount, Cmp, Conv, Elem, Place, StructInfo, TExpr, TExprKind, TFn, TIfArm, TProgram,
    TStmt, Ty, VarId, VarInfo,
};
use poolopt::ir::Loc;
use std::cell::RefCell;
use std::collections::HashMap;

/// Checks a parsed program.
pub fn check(program: &Program) -> Result<TProgram, CompileError> {
    let mut struct_ids = HashMap::new();
    for (i, s) in program.structs.iter().enumerate() {
        if matches!(
            s.name.as_str(),
            "i64" | "i32" | "u64" | "u32" | "bool" | "vec"
        ) {
            return Err(CompileError::new(
                s.loc,
                format!("`{}` is a built-in type", s.name),
            ));
        }
        if struct_ids.insert(s.name.clone(), i).is_some() {
            return Err(CompileError::new(
                s.loc,
                format!("struct `{}` is declared twice", s.name),
            ));
        }
    }
    let mut structs: Vec<StructInfo> = Vec::new();
    let mut field_ids: Vec<HashMap<String, usize>> = Vec::new();
    for s in &program.structs {
        if s.fields.is_empty() {
            return Err(CompileError::new(
                s.loc,
                format!("struct `{}` has no fields", s.name),
            ));
        }
        let mut fields: Vec<(String, Ty)> = Vec::new();
        let mut ids: HashMap<String, usize> = HashMap::new();
        for (name, ty, loc) in &s.fields {
            if ids.insert(name.clone(), fields.len()).is_some() {
                return Err(CompileError::new(
                    *loc,
                    format!("field `{name}` is declared twice"),
                ));
            }
            let ty = resolve_raw(&struct_ids, &program.structs, ty, *loc)?;
            if !(ty.is_scalar() || matches!(ty, Ty::Vec(_))) {
                return Err(CompileError::new(
                    *loc,
                    format!("field `{name}` must be an i64, i32, u64, u32, bool or vec"),
                ));
            }
            fields.push((name.clone(), ty));
        }
        let split = fields.iter().any(|(_, t)| matches!(t, Ty::Vec(_)));
        field_ids.push(ids);
        structs.push(StructInfo {
            name: s.name.clone(),
            fields,
            split,
        });
    }
    // A split struct cannot be a vec element: fix up field and type resolution now that we
    // know which structs are split.
    for (s, decl) in structs.iter().zip(&program.structs) {
        for ((_, ty), (name, _, loc)) in s.fields.iter().zip(&decl.fields) {
            if let Ty::Vec(Elem::Struct(e)) = ty {
                if structs[*e].split {
                    return Err(CompileError::new(
                        *loc,
                        format!(
                            "field `{name}`: a vec cannot hold `{}`, which has vec fields",
                            structs[*e].name
                        ),
                    ));
                }
            }
        }
    }
    let mut checker = Checker {
        structs,
        field_ids,
        struct_ids,
        fn_ids: HashMap::new(),
        sigs: Vec::new(),
        tuples: RefCell::new(Vec::new()),
    };
    for (i, f) in program.fns.iter().enumerate() {
        if BitCount::from_name(&f.name).is_some() {
            return Err(CompileError::new(
                f.loc,
                format!("`{}` is a built-in function", f.name),
            ));
        }
        if checker.fn_ids.insert(f.name.clone(), i).is_some() {
            return Err(CompileError::new(
                f.loc,
                format!("function `{}` is declared twice", f.name),
            ));
        }
        let mut params = Vec::new();
        for (_, ty, loc) in &f.params {
            let ty = checker.resolve(ty, *loc)?;
            params.push(ty);
        }
        let ret = match &f.ret {
            None => Ty::Void,
            Some(TypeExpr::Tuple(parts)) => checker.tuple_type(parts, f.loc)?,
            Some(t) => {
                let ty = checker.resolve(t, f.loc)?;
                if let Ty::Split(s) = ty {
                    return Err(CompileError::new(
                        f.loc,
                        format!("cannot return `{}`: it has vec fields (pass it as a parameter instead)", checker.structs[s].name),
                    ));
                }
                ty
            }
        };
        checker.sigs.push((params, ret));
    }
    let mut fns = Vec::new();
    for (i, f) in program.fns.iter().enumerate() {
        fns.push(checker.function(i, f)?);
    }
    Ok(TProgram {
        structs: checker.structs,
        tuples: checker.tuples.into_inner(),
        fns,
    })
}

fn resolve_raw(
    ids: &HashMap<String, usize>,
    decls: &[crate::ast::StructDecl],
    ty: &TypeExpr,
    loc: Loc,
) -> Result<Ty, CompileError> {
    Ok(match ty {
        TypeExpr::I64 => Ty::I64,
        TypeExpr::I32 => Ty::I32,
        TypeExpr::U64 => Ty::U64,
        TypeExpr::U32 => Ty::U32,
        TypeExpr::Bool => Ty::Bool,
        TypeExpr::Tuple(_) => return Err(tuple_only_returned(loc)),
        TypeExpr::Named(name) => match ids.get(name) {
            // Whether it is split is decided by the caller that knows all fields.
            Some(&i) => {
                let split = decls[i]
                    .fields
                    .iter()
                    .any(|(_, t, _)| matches!(t, TypeExpr::Vec(_)));
                if split {
                    Ty::Split(i)
                } else {
                    Ty::Struct(i)
                }
            }
            None => return Err(CompileError::new(loc, format!("unknown type `{name}`"))),
        },
        TypeExpr::Vec(elem) => match resolve_raw(ids, decls, elem, loc)?.elem() {
            Some(e) => Ty::Vec(e),
            None => {
                return Err(CompileError::new(
                    loc,
                    "a vec holds i64, i32, bool or structs without vec fields",
                ))
            }
        },
    })
}

fn tuple_only_returned(loc: Loc) -> CompileError {
    CompileError::new(
        loc,
        "a tuple type is only a function's return type (destructure the result with `let (a, b) = ...`)",
    )
}

struct Checker {
    structs: Vec<StructInfo>,
    /// Per struct, each field's index by name (a struct of thousands of fields is looked up
    /// once per access, not scanned).
    field_ids: Vec<HashMap<String, usize>>,
    struct_ids: HashMap<String, usize>,
    fn_ids: HashMap<String, usize>,
    sigs: Vec<(Vec<Ty>, Ty)>,
    /// The tuple types met so far (each once), so equal tuple types have equal [`Ty`]s.
    tuples: RefCell<Vec<Vec<Ty>>>,
}

/// Per-function state: variables and the scopes that name them.
struct FnScope {
    vars: Vec<VarInfo>,
    scopes: Vec<HashMap<String, VarId>>,
    ret: Ty,
    /// How many loops enclose the statement being checked (`break`/`continue` need one).
    loops: u32,
}

impl FnScope {
    fn lookup(&self, name: &str) -> Option<VarId> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    fn declare(&mut self, name: &str, ty: Ty, loc: Loc) -> VarId {
        let id = self.vars.len();
        self.vars.push(VarInfo {
            name: name.to_string(),
            ty,
            loc,
        });
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_string(), id);
        }
        id
    }
}

impl Checker {
    /// The [`Ty`] of a tuple of these scalar types (interned).
    fn intern_tuple(&self, parts: Vec<Ty>) -> Ty {
        let mut tuples = self.tuples.borrow_mut();
        let id = match tuples.iter().position(|t| *t == parts) {
            Some(id) => id,
            None => {
                tuples.push(parts);
                tuples.len() - 1
            }
        };
        Ty::Tuple(id)
    }

    /// A return type `(T1, T2, ...)`: two or more scalars.
    fn tuple_type(&self, parts: &[TypeExpr], loc: Loc) -> Result<Ty, CompileError> {
        if parts.len() < 2 {
            return Err(CompileError::new(
                loc,
                "a tuple type has at least two parts",
            ));
        }
        let mut tys = Vec::new();
        for p in parts {
            let ty = self.resolve(p, loc)?;
            if !ty.is_scalar() {
                return Err(CompileError::new(
                    loc,
                    format!(
                        "a returned tuple holds integers and bools, not `{}`",
                        self.ty_name(ty)
                    ),
                ));
            }
            tys.push(ty);
        }
        Ok(self.intern_tuple(tys))
    }

    fn resolve(&self, ty: &TypeExpr, loc: Loc) -> Result<Ty, CompileError> {
        Ok(match ty {
            TypeExpr::I64 => Ty::I64,
            TypeExpr::I32 => Ty::I32,
            TypeExpr::U64 => Ty::U64,
            TypeExpr::U32 => Ty::U32,
            TypeExpr::Bool => Ty::Bool,
            TypeExpr::Tuple(_) => return Err(tuple_only_returned(loc)),
            TypeExpr::Named(name) => match self.struct_ids.get(name) {
                Some(&i) if self.structs[i].split => Ty::Split(i),
                Some(&i) => Ty::Struct(i),
                None => return Err(CompileError::new(loc, format!("unknown type `{name}`"))),
            },
            TypeExpr::Vec(elem) => match self.resolve(elem, loc)?.elem() {
                Some(e) => Ty::Vec(e),
                None => {
                    return Err(CompileError::new(
                        loc,
                        "a vec holds i64, i32, bool or structs without vec fields",
                    ))
                }
            },
        })
    }

    fn ty_name(&self, ty: Ty) -> String {
        match ty {
            Ty::I64 => "i64".into(),
            Ty::I32 => "i32".into(),
            Ty::U64 => "u64".into(),
            Ty::U32 => "u32".into(),
            Ty::Bool => "bool".into(),
            Ty::Tuple(t) => {
                let parts: Vec<String> = self.tuples.borrow()[t]
                    .iter()
                    .map(|&p| self.ty_name(p))
                    .collect();
                format!("({})", parts.join(", "))
            }
            Ty::Struct(s) | Ty::Split(s) => self.structs[s].name.clone(),
            Ty::Vec(e) => format!("vec<{}>", self.ty_name(e.ty())),
            Ty::Void => "no value".into(),
        }
    }

    fn function(&self, index: usize, f: &FnDecl) -> Result<TFn, CompileError> {
        let (params, ret) = &self.sigs[index];
        let mut scope = FnScope {
            vars: Vec::new(),
            scopes: vec![HashMap::new()],
            ret: *ret,
            loops: 0,
        };
        for ((name, _, loc), ty) in f.params.iter().zip(params) {
            if scope.lookup(name).is_some() {
                return Err(CompileError::new(
                    *loc,
                    format!("parameter `{name}` is declared twice"),
                ));
            }
            scope.declare(name, *ty, *loc);
        }
        let body = self.block(&mut scope, &f.body)?;
        if *ret != Ty::Void && !returns(&body) {
            return Err(CompileError::new(
                f.end,
                format!(
                    "function `{}` can reach its end without returning a value",
                    f.name
                ),
            ));
        }
        Ok(TFn {
            name: f.name.clone(),
            params: params.len(),
            vars: scope.vars,
            ret: *ret,
            body,
            loc: f.loc,
            end: f.end,
        })
    }

    fn block(&self, scope: &mut FnScope, stmts: &[Stmt]) -> Result<Vec<TStmt>, CompileError> {
        scope.scopes.push(HashMap::new());
        let mut out = Vec::new();
        for stmt in stmts {
            out.push(self.stmt(scope, stmt)?);
        }
        scope.scopes.pop();
        Ok(out)
    }

    fn stmt(&self, scope: &mut FnScope, stmt: &Stmt) -> Result<TStmt, CompileError> {
        Ok(match stmt {
            Stmt::Let {
                name,
                ty,
                init,
                loc,
            } => {
                let declared = match ty {
                    Some(t) => Some(self.resolve(t, *loc)?),
                    None => None,
                };
                let value = self.expr(scope, init, declared)?;
                if let Ty::Tuple(_) = value.ty {
                    return Err(CompileError::new(
                        value.loc,
                        format!(
                            "this is `{}`: destructure it with `let (a, b, ...) = ...`",
                            self.ty_name(value.ty)
                        ),
                    ));
                }
                let ty = declared.unwrap_or(value.ty);
                self.expect_ty(&value, ty)?;
                self.need_value(&value)?;
                let var = scope.declare(name, ty, *loc);
                TStmt::Assign {
                    place: Place::Var(var),
                    value,
                    loc: *loc,
                }
            }
            Stmt::LetTuple { names, init, loc } => {
                let value = self.expr(scope, init, None)?;
                let parts = self.tuple_parts(&value, names.len())?;
                let places = names
                    .iter()
                    .zip(parts)
                    .map(|((name, nloc), ty)| {
                        (name != "_").then(|| Place::Var(scope.declare(name, ty, *nloc)))
                    })
                    .collect();
                TStmt::AssignTuple {
                    places,
                    value,
                    loc: *loc,
                }
            }
            Stmt::Assign {
                place:
                    Expr {
                        kind: ExprKind::Tuple(targets),
                        ..
                    },
                value,
                loc,
            } => {
                let mut places = Vec::new();
                let mut tys = Vec::new();
                for t in targets {
                    if matches!(&t.kind, ExprKind::Var(n) if n == "_") {
                        places.push(None);
                        tys.push(None);
                    } else {
                        let (place, ty) = self.place(scope, t)?;
                        places.push(Some(place));
                        tys.push(Some(ty));
                    }
                }
                let hint = tys
                    .iter()
                    .copied()
                    .collect::<Option<Vec<Ty>>>()
                    .map(|parts| self.intern_tuple(parts));
                let value = self.expr(scope, value, hint)?;
                let parts = self.tuple_parts(&value, places.len())?;
                for (want, got) in tys.iter().zip(parts) {
                    if let Some(want) = *want {
                        if want != got {
                            return Err(CompileError::new(
                                value.loc,
                                format!(
                                    "expected `{}` parts, found `{}`",
                                    self.ty_name(want),
                                    self.ty_name(got)
                                ),
                            ));
                        }
                    }
                }
                TStmt::AssignTuple {
                    places,
                    value,
                    loc: *loc,
                }
            }
            Stmt::Break { loc } | Stmt::Continue { loc } => {
                let is_break = matches!(stmt, Stmt::Break { .. });
                if scope.loops == 0 {
                    return Err(CompileError::new(
                        *loc,
                        format!(
                            "`{}` outside of a loop",
                            if is_break { "break" } else { "continue" }
                        ),
                    ));
                }
                if is_break {
                    TStmt::Break { loc: *loc }
                } else {
                    TStmt::Continue { loc: *loc }
                }
            }
            Stmt::Assign { place, value, loc } => {
                let (place, ty) = self.place(scope, place)?;
                let value = self.expr(scope, value, Some(ty))?;
                self.expect_ty(&value, ty)?;
                TStmt::Assign {
                    place,
                    value,
                    loc: *loc,
                }
            }
            Stmt::If { arms, else_body } => {
                let mut typed = Vec::with_capacity(arms.len());
                for arm in arms {
                    typed.push(TIfArm {
                        cond: self.cond(scope, &arm.cond)?,
                        body: self.block(scope, &arm.body)?,
                        loc: arm.loc,
                    });
                }
                TStmt::If {
                    arms: typed,
                    else_body: self.block(scope, else_body)?,
                }
            }
            Stmt::While { cond, body, loc } => {
                let cond = self.cond(scope, cond)?;
                scope.loops += 1;
                let body = self.block(scope, body);
                scope.loops -= 1;
                TStmt::While {
                    cond,
                    body: body?,
                    loc: *loc,
                }
            }
            Stmt::Return { value, loc } => {
                let value = match (value, scope.ret) {
                    (None, Ty::Void) => None,
                    (None, ty) => {
                        return Err(CompileError::new(
                            *loc,
                            format!("missing return value of type `{}`", self.ty_name(ty)),
                        ))
                    }
                    (Some(e), Ty::Void) => {
                        return Err(CompileError::new(e.loc, "this function returns no value"))
                    }
                    (Some(e), ty) => {
                        let v = self.expr(scope, e, Some(ty))?;
                        self.expect_ty(&v, ty)?;
                        Some(v)
                    }
                };
                TStmt::Return { value, loc: *loc }
            }
            Stmt::Trap { message, loc } => TStmt::Trap {
                message: message.clone(),
                loc: *loc,
            },
            Stmt::Expr(e) => {
                if !matches!(e.kind, ExprKind::Call(..) | ExprKind::Method(..)) {
                    return Err(CompileError::new(
                        e.loc,
                        "only calls can be used as statements",
                    ));
                }
                TStmt::Expr(self.expr(scope, e, None)?)
            }
        })
    }

    /// The part types of a tuple value destructured into `n` places.
    fn tuple_parts(&self, value: &TExpr, n: usize) -> Result<Vec<Ty>, CompileError> {
        let Ty::Tuple(t) = value.ty else {
            return Err(CompileError::new(
                value.loc,
                format!(
                    "expected several values (a call of a function returning a tuple, or `(a, b)`), found `{}`",
                    self.ty_name(value.ty)
                ),
            ));
        };
        let parts = self.tuples.borrow()[t].clone();
        if parts.len() != n {
            return Err(CompileError::new(
                value.loc,
                format!(
                    "`{}` has {} parts, {n} given",
                    self.ty_name(value.ty),
                    parts.len()
                ),
            ));
        }
        Ok(parts)
    }

    fn cond(&self, scope: &mut FnScope, e: &Expr) -> Result<TExpr, CompileError> {
        let c = self.expr(scope, e, Some(Ty::Bool))?;
        self.expect_ty(&c, Ty::Bool)?;
        Ok(c)
    }

    fn expect_ty(&self, e: &TExpr, ty: Ty) -> Result<(), CompileError> {
        if e.ty == ty {
            Ok(())
        } else {
            Err(CompileError::new(
                e.loc,
                format!(
                    "expected `{}`, found `{}`",
                    self.ty_name(ty),
                    self.ty_name(e.ty)
                ),
            ))
        }
    }

    fn need_value(&self, e: &TExpr) -> Result<(), CompileError> {
        if e.ty == Ty::Void {
            Err(CompileError::new(
                e.loc,
                "this expression produces no value",
            ))
        } else {
            Ok(())
        }
    }

    fn field_index(&self, s: usize, name: &str, loc: Loc) -> Result<(usize, Ty), CompileError> {
        self.field_ids[s]
            .get(name)
            .map(|&i| (i, self.structs[s].fields[i].1))
            .ok_or_else(|| {
                CompileError::new(
                    loc,
                    format!("struct `{}` has no field `{name}`", self.structs[s].name),
                )
            })
    }

    fn var(&self, scope: &FnScope, name: &str, loc: Loc) -> Result<VarId, CompileError> {
        scope
            .lookup(name)
            .ok_or_else(|| CompileError::new(loc, format!("unknown variable `{name}`")))
    }

    /// The target of an assignment, and the type it holds.
    fn place(&self, scope: &mut FnScope, e: &Expr) -> Result<(Place, Ty), CompileError> {
        match &e.kind {
            ExprKind::Var(name) => {
                let v = self.var(scope, name, e.loc)?;
                Ok((Place::Var(v), scope.vars[v].ty))
            }
            ExprKind::Field(base, field) => match &base.kind {
                ExprKind::Var(name) => {
                    let v = self.var(scope, name, base.loc)?;
                    match scope.vars[v].ty {
                        Ty::Split(s) => {
                            let (f, ty) = self.field_index(s, field, e.loc)?;
                            Ok((Place::SplitField(v, f), ty))
                        }
                        Ty::Struct(s) => {
                            let (f, ty) = self.field_index(s, field, e.loc)?;
                            Ok((Place::VarField(v, f), ty))
                        }
                        other => Err(self.not_struct(other, e.loc)),
                    }
                }
                ExprKind::Index(vec, index) => {
                    let (vec, index, elem) = self.index_parts(scope, vec, index)?;
                    match elem {
                        Elem::Struct(s) => {
                            let (f, ty) = self.field_index(s, field, e.loc)?;
                            Ok((
                                Place::Elem {
                                    vec,
                                    index,
                                    field: Some(f),
                                },
                                ty,
                            ))
                        }
                        other => Err(self.not_struct(other.ty(), e.loc)),
                    }
                }
                _ => Err(CompileError::new(e.loc, "cannot assign to this field")),
            },
            ExprKind::Index(vec, index) => {
                let (vec, index, elem) = self.index_parts(scope, vec, index)?;
                Ok((
                    Place::Elem {
                        vec,
                        index,
                        field: None,
                    },
                    elem.ty(),
                ))
            }
            _ => Err(CompileError::new(e.loc, "cannot assign to this expression")),
        }
    }

    fn not_struct(&self, ty: Ty, loc: Loc) -> CompileError {
        CompileError::new(loc, format!("`{}` has no fields", self.ty_name(ty)))
    }

    fn index_parts(
        &self,
        scope: &mut FnScope,
        vec: &Expr,
        index: &Expr,
    ) -> Result<(TExpr, TExpr, Elem), CompileError> {
        let vec = self.expr(scope, vec, None)?;
        let Ty::Vec(elem) = vec.ty else {
            return Err(CompileError::new(
                vec.loc,
                format!("cannot index `{}`", self.ty_name(vec.ty)),
            ));
        };
        let index = self.expr(scope, index, Some(Ty::I64))?;
        self.expect_ty(&index, Ty::I64)?;
        Ok((vec, index, elem))
    }

    fn expr(&self, scope: &mut FnScope, e: &Expr, hint: Option<Ty>) -> Result<TExpr, CompileError> {
        let loc = e.loc;
        let (kind, ty) = match &e.kind {
            ExprKind::Int(v) => {
                let ty = match hint {
                    Some(t @ (Ty::I32 | Ty::U64 | Ty::U32)) => t,
                    _ => Ty::I64,
                };
                let fits = match ty {
                    Ty::I32 => i32::try_from(*v).is_ok(),
                    Ty::U64 => u64::try_from(*v).is_ok(),
                    Ty::U32 => u32::try_from(*v).is_ok(),
                    _ => i64::try_from(*v).is_ok(),
                };
                if !fits {
                    return Err(CompileError::new(
                        loc,
                        format!("literal `{v}` does not fit `{}`", self.ty_name(ty)),
                    ));
                }
                // The IR holds a value of width w sign-extended from its low w bits.
                let bits = match ty {
                    Ty::I32 | Ty::U32 => i64::from(*v as i32),
                    _ => *v as i64,
                };
                (TExprKind::Const(bits), ty)
            }
            ExprKind::Bool(b) => (TExprKind::Const(*b as i64), Ty::Bool),
            ExprKind::Var(name) => {
                let v = self.var(scope, name, loc)?;
                (TExprKind::Var(v), scope.vars[v].ty)
            }
            ExprKind::Unary(op, arg) => {
                let arg = self.expr(scope, arg, hint)?;
                match op {
                    UnOp::Neg if arg.ty.is_int() && !arg.ty.is_unsigned() => {
                        (TExprKind::Neg(Box::new(arg.clone())), arg.ty)
                    }
                    UnOp::Not if arg.ty == Ty::Bool => (TExprKind::Not(Box::new(arg)), Ty::Bool),
                    UnOp::BitNot if arg.ty.is_int() => {
                        let ty = arg.ty;
                        (TExprKind::BitNot(Box::new(arg)), ty)
                    }
                    UnOp::BitNot => {
                        return Err(CompileError::new(
                            loc,
                            format!(
                                "`~` needs an integer, found `{}`{}",
                                self.ty_name(arg.ty),
                                if arg.ty == Ty::Bool { " (use `!`)" } else { "" }
                            ),
                        ))
                    }
                    UnOp::Neg => {
                        return Err(CompileError::new(
                            loc,
                            format!("cannot negate `{}`", self.ty_name(arg.ty)),
                        ))
                    }
                    UnOp::Not => {
                        return Err(CompileError::new(
                            loc,
                            format!("`!` needs a bool, found `{}`", self.ty_name(arg.ty)),
                        ))
                    }
                }
            }
            ExprKind::Binary(op, lhs, rhs, op_loc) => {
                self.binary(scope, *op, lhs, rhs, hint, *op_loc)?
            }
            ExprKind::Cast(arg, ty) => {
                let to = self.resolve(ty, loc)?;
                let arg = self.expr(scope, arg, None)?;
                let conv = match (arg.ty, to) {
                    (a, b) if a == b && a.is_scalar() => Conv::Same,
                    // Between integers, as Rust's `as`: narrowing keeps the low bits, widening
                    // extends by the source's signedness, same width reinterprets the bits.
                    (a, b) if a.is_int() && b.is_int() => match a.bits().cmp(&b.bits()) {
                        std::cmp::Ordering::Greater => Conv::Trunc,
                        std::cmp::Ordering::Equal => Conv::Same,
                        std::cmp::Ordering::Less if a.is_unsigned() => Conv::ZExt,
                        std::cmp::Ordering::Less => Conv::SExt,
                    },
                    (Ty::Bool, b) if b.is_int() => Conv::ZExt,
                    (from, to) => {
                        return Err(CompileError::new(
                            loc,
                            format!(
                                "cannot convert `{}` to `{}`{}",
                                self.ty_name(from),
                                self.ty_name(to),
                                if to == Ty::Bool {
                                    " (compare with 0 instead)"
                                } else {
                                    ""
                                }
                            ),
                        ))
                    }
                };
                (TExprKind::Cast(conv, Box::new(arg)), to)
            }
            ExprKind::Call(name, args) if BitCount::from_name(name).is_some() => {
                let Some(count) = BitCount::from_name(name) else {
                    return Err(CompileError::new(loc, format!("unknown function `{name}`")));
                };
                if args.len() != 1 {
                    return Err(CompileError::new(
                        loc,
                        format!("`{name}` takes 1 argument, {} given", args.len()),
                    ));
                }
                let arg = self.expr(scope, &args[0], hint)?;
                if !arg.ty.is_int() {
                    return Err(CompileError::new(
                        arg.loc,
                        format!(
                            "`{name}` needs an integer, found `{}`",
                            self.ty_name(arg.ty)
                        ),
                    ));
                }
                let ty = arg.ty;
                (TExprKind::BitCount(count, Box::new(arg)), ty)
            }
            ExprKind::Tuple(parts) => {
                let want: Option<Vec<Ty>> = match hint {
                    Some(Ty::Tuple(t)) => Some(self.tuples.borrow()[t].clone()),
                    _ => None,
                };
                if let Some(w) = &want {
                    if w.len() != parts.len() {
                        return Err(CompileError::new(
                            loc,
                            format!("expected {} values, found {}", w.len(), parts.len()),
                        ));
                    }
                }
                let mut values = Vec::new();
                let mut tys = Vec::new();
                for (i, p) in parts.iter().enumerate() {
                    let h = want.as_ref().map(|w| w[i]);
                    let v = self.expr(scope, p, h)?;
                    if let Some(h) = h {
                        self.expect_ty(&v, h)?;
                    } else if !v.ty.is_scalar() {
                        return Err(CompileError::new(
                            v.loc,
                            format!(
                                "a tuple holds integers and bools, not `{}`",
                                self.ty_name(v.ty)
                            ),
                        ));
                    }
                    tys.push(v.ty);
                    values.push(v);
                }
                (TExprKind::Tuple(values), self.intern_tuple(tys))
            }
            ExprKind::Call(name, args) => {
                let Some(&f) = self.fn_ids.get(name) else {
                    return Err(CompileError::new(loc, format!("unknown function `{name}`")));
                };
                let (params, ret) = &self.sigs[f];
                if params.len() != args.len() {
                    return Err(CompileError::new(
                        loc,
                        format!(
                            "`{name}` takes {} arguments, {} given",
                            params.len(),
                            args.len()
                        ),
                    ));
                }
                let mut targs = Vec::new();
                for (a, &p) in args.iter().zip(params) {
                    let a = self.expr(scope, a, Some(p))?;
                    self.expect_ty(&a, p)?;
                    targs.push(a);
                }
                (TExprKind::Call(f, targs), *ret)
            }
            ExprKind::Method(recv, name, args) => {
                let recv = self.expr(scope, recv, None)?;
                let Ty::Vec(elem) = recv.ty else {
                    return Err(CompileError::new(
                        loc,
                        format!("`{}` has no method `{name}`", self.ty_name(recv.ty)),
                    ));
                };
                let arity = if name == "push" { 1 } else { 0 };
                if !matches!(name.as_str(), "push" | "pop" | "len" | "drop") {
                    return Err(CompileError::new(
                        loc,
                        format!("vecs have no method `{name}` (they have push, pop, len, drop)"),
                    ));
                }
                if args.len() != arity {
                    return Err(CompileError::new(
                        loc,
                        format!("`{name}` takes {arity} arguments, {} given", args.len()),
                    ));
                }
                let recv = Box::new(recv);
                match name.as_str() {
                    "push" => {
                        let v = self.expr(scope, &args[0], Some(elem.ty()))?;
                        self.expect_ty(&v, elem.ty())?;
                        (TExprKind::Push(recv, Box::new(v)), Ty::Void)
                    }
                    "pop" => (TExprKind::Pop(recv), elem.ty()),
                    "len" => (TExprKind::Len(recv), Ty::I64),
                    _ => (TExprKind::Drop(recv), Ty::Void),
                }
            }
            ExprKind::Field(base, field) => {
                if let ExprKind::Index(vec, index) = &base.kind {
                    let (vec, index, elem) = self.index_parts(scope, vec, index)?;
                    let Elem::Struct(s) = elem else {
                        return Err(self.not_struct(elem.ty(), loc));
                    };
                    let (f, ty) = self.field_index(s, field, loc)?;
                    (
                        TExprKind::Index(Box::new(vec), Box::new(index), Some(f)),
                        ty,
                    )
                } else {
                    let base = self.expr(scope, base, None)?;
                    match (base.ty, &base.kind) {
                        (Ty::Split(s), TExprKind::Var(v)) => {
                            let (f, ty) = self.field_index(s, field, loc)?;
                            (TExprKind::SplitField(*v, f), ty)
                        }
                        (Ty::Split(_), _) => {
                            return Err(CompileError::new(
                                loc,
                                "fields of a struct with vec fields are read from a variable",
                            ))
                        }
                        (Ty::Struct(s), _) => {
                            let (f, ty) = self.field_index(s, field, loc)?;
                            (TExprKind::Field(Box::new(base), f), ty)
                        }
                        (other, _) => return Err(self.not_struct(other, loc)),
                    }
                }
            }
            ExprKind::Index(vec, index) => {
                let (vec, index, elem) = self.index_parts(scope, vec, index)?;
                (
                    TExprKind::Index(Box::new(vec), Box::new(index), None),
                    elem.ty(),
                )
            }
            ExprKind::StructLit(name, fields) => {
                let Some(&s) = self.struct_ids.get(name) else {
                    return Err(CompileError::new(loc, format!("unknown struct `{name}`")));
                };
                let mut values: Vec<Option<TExpr>> = vec![None; self.structs[s].fields.len()];
                for (fname, value, floc) in fields {
                    let (f, ty) = self.field_index(s, fname, *floc)?;
                    if values[f].is_some() {
                        return Err(CompileError::new(
                            *floc,
                            format!("field `{fname}` is given twice"),
                        ));
                    }
                    let v = self.expr(scope, value, Some(ty))?;
                    self.expect_ty(&v, ty)?;
                    values[f] = Some(v);
                }
                let mut out = Vec::new();
                for (i, v) in values.into_iter().enumerate() {
                    match v {
                        Some(v) => out.push(v),
                        None => {
                            return Err(CompileError::new(
                                loc,
                                format!(
                                    "missing field `{}` of `{name}`",
                                    self.structs[s].fields[i].0
                                ),
                            ))
                        }
                    }
                }
                let ty = if self.structs[s].split {
                    Ty::Split(s)
                } else {
                    Ty::Struct(s)
                };
                (TExprKind::StructLit(s, out), ty)
            }
            ExprKind::NewVec(elem) => {
                let ty = self.resolve(&TypeExpr::Vec(Box::new(elem.clone())), loc)?;
                let Ty::Vec(e) = ty else {
                    return Err(CompileError::new(loc, "`new` makes vecs"));
                };
                (TExprKind::NewVec(e), ty)
            }
        };
        Ok(TExpr {
            kind,
            ty,
            loc,
            start: e.start,
            end: e.end,
        })
    }

    fn binary(
        &self,
        scope: &mut FnScope,
        op: BinOp,
        lhs: &Expr,
        rhs: &Expr,
        hint: Option<Ty>,
        loc: Loc,
    ) -> Result<(TExprKind, Ty), CompileError> {
        if matches!(op, BinOp::AndAnd | BinOp::OrOr) {
            let l = self.cond(scope, lhs)?;
            let r = self.cond(scope, rhs)?;
            return Ok((
                TExprKind::Logic(op == BinOp::AndAnd, Box::new(l), Box::new(r)),
                Ty::Bool,
            ));
        }
        let is_cmp = matches!(
            op,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        );
        let hint = if is_cmp { None } else { hint };
        // A literal takes its type from the other operand.
        let (l, r) =
            if matches!(lhs.kind, ExprKind::Int(_)) && !matches!(rhs.kind, ExprKind::Int(_)) {
                let r = self.expr(scope, rhs, hint)?;
                let l = self.expr(scope, lhs, Some(r.ty))?;
                (l, r)
            } else {
                let l = self.expr(scope, lhs, hint)?;
                let r = self.expr(scope, rhs, Some(l.ty))?;
                (l, r)
            };
        if l.ty != r.ty {
            return Err(CompileError::new(
                loc,
                format!(
                    "`{}` needs operands of one type, found `{}` and `{}`",
                    op.symbol(),
                    self.ty_name(l.ty),
                    self.ty_name(r.ty)
                ),
            ));
        }
        let ty = l.ty;
        let bad = || {
            CompileError::new(
                loc,
                format!("`{}` is not defined on `{}`", op.symbol(), self.ty_name(ty)),
            )
        };
        let (l, r) = (Box::new(l), Box::new(r));
        let unsigned = ty.is_unsigned();
        if is_cmp {
            let cmp = match (op, unsigned) {
                (BinOp::Eq, _) => Cmp::Eq,
                (BinOp::Ne, _) => Cmp::Ne,
                (BinOp::Lt, false) => Cmp::Lt,
                (BinOp::Le, false) => Cmp::Le,
                (BinOp::Gt, false) => Cmp::Gt,
                (BinOp::Lt, true) => Cmp::ULt,
                (BinOp::Le, true) => Cmp::ULe,
                (BinOp::Gt, true) => Cmp::UGt,
                (_, false) => Cmp::Ge,
                (_, true) => Cmp::UGe,
            };
            let ok = ty.is_int() || (ty == Ty::Bool && matches!(cmp, Cmp::Eq | Cmp::Ne));
            if !ok {
                return Err(bad());
            }
            return Ok((TExprKind::Cmp(cmp, l, r), Ty::Bool));
        }
        let arith = match op {
            BinOp::Add => Arith::Add,
            BinOp::Sub => Arith::Sub,
            BinOp::Mul => Arith::Mul,
            BinOp::Div if unsigned => Arith::UDiv,
            BinOp::Div => Arith::SDiv,
            BinOp::Rem if unsigned => Arith::URem,
            BinOp::Rem => Arith::SRem,
            BinOp::BitAnd => Arith::And,
            BinOp::BitOr => Arith::Or,
            BinOp::BitXor => Arith::Xor,
            BinOp::Shl => Arith::Shl,
            _ if unsigned => Arith::LShr,
            _ => Arith::AShr,
        };
        let ok =
            ty.is_int() || (ty == Ty::Bool && matches!(arith, Arith::And | Arith::Or | Arith::Xor));
        if !ok {
            return Err(bad());
        }
        Ok((TExprKind::Arith(arith, l, r), ty))
    }
}

/// Whether a statement list always ends in `return` or `trap` (loops never count).
fn returns(stmts: &[TStmt]) -> bool {
    stmts.iter().any(|s| match s {
        TStmt::Return { .. } | TStmt::Trap { .. } => true,
        TStmt::If { arms, else_body } => {
            arms.iter().all(|arm| returns(&arm.body)) && returns(else_body)
        }
        _ => false,
    })
}
