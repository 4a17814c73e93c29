//! The type checker: resolves names, gives every expression a type, decides signedness, and
//! rejects ill-typed programs with a located [`CompileError`]. Its output, [`TProgram`], is
//! well typed by construction, so the lowering never has to report a user error.
//!
//! Integer literals take the type their context asks for (`i64` by default); `i32` and `i64`
//! never mix without `as`. A struct with a vec field is a *split* struct: it can live in
//! variables and be passed to functions, but not be returned or stored in a vec.

use crate::ast::{BinOp, Expr, ExprKind, FnDecl, Program, Stmt, TypeExpr, UnOp};
use crate::error::CompileError;
use crate::typed::{
    Arith, Cmp, Conv, Elem, Place, StructInfo, TExpr, TExprKind, TFn, TProgram, TStmt, Ty, VarId,
    VarInfo,
};
use poolopt::ir::Loc;
use std::collections::HashMap;

/// Checks a parsed program.
pub fn check(program: &Program) -> Result<TProgram, CompileError> {
    let mut struct_ids = HashMap::new();
    for (i, s) in program.structs.iter().enumerate() {
        if matches!(s.name.as_str(), "i64" | "i32" | "bool" | "vec") {
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
    for s in &program.structs {
        if s.fields.is_empty() {
            return Err(CompileError::new(
                s.loc,
                format!("struct `{}` has no fields", s.name),
            ));
        }
        let mut fields: Vec<(String, Ty)> = Vec::new();
        for (name, ty, loc) in &s.fields {
            if fields.iter().any(|(n, _)| n == name) {
                return Err(CompileError::new(
                    *loc,
                    format!("field `{name}` is declared twice"),
                ));
            }
            let ty = resolve_raw(&struct_ids, &program.structs, ty, *loc)?;
            if !(ty.is_scalar() || matches!(ty, Ty::Vec(_))) {
                return Err(CompileError::new(
                    *loc,
                    format!("field `{name}` must be an i64, i32, bool or vec"),
                ));
            }
            fields.push((name.clone(), ty));
        }
        let split = fields.iter().any(|(_, t)| matches!(t, Ty::Vec(_)));
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
        struct_ids,
        fn_ids: HashMap::new(),
        sigs: Vec::new(),
    };
    for (i, f) in program.fns.iter().enumerate() {
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
        TypeExpr::Bool => Ty::Bool,
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

struct Checker {
    structs: Vec<StructInfo>,
    struct_ids: HashMap<String, usize>,
    fn_ids: HashMap<String, usize>,
    sigs: Vec<(Vec<Ty>, Ty)>,
}

/// Per-function state: variables and the scopes that name them.
struct FnScope {
    vars: Vec<VarInfo>,
    scopes: Vec<HashMap<String, VarId>>,
    ret: Ty,
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
    fn resolve(&self, ty: &TypeExpr, loc: Loc) -> Result<Ty, CompileError> {
        Ok(match ty {
            TypeExpr::I64 => Ty::I64,
            TypeExpr::I32 => Ty::I32,
            TypeExpr::Bool => Ty::Bool,
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
            Ty::Bool => "bool".into(),
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
            Stmt::If {
                cond,
                then_body,
                else_body,
                loc,
            } => TStmt::If {
                cond: self.cond(scope, cond)?,
                then_body: self.block(scope, then_body)?,
                else_body: self.block(scope, else_body)?,
                loc: *loc,
            },
            Stmt::While { cond, body, loc } => TStmt::While {
                cond: self.cond(scope, cond)?,
                body: self.block(scope, body)?,
                loc: *loc,
            },
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
        self.structs[s]
            .fields
            .iter()
            .position(|(n, _)| n == name)
            .map(|i| (i, self.structs[s].fields[i].1))
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
                    Some(Ty::I32) => Ty::I32,
                    _ => Ty::I64,
                };
                if ty == Ty::I32 && i32::try_from(*v).is_err() {
                    return Err(CompileError::new(
                        loc,
                        format!("literal `{v}` does not fit `i32`"),
                    ));
                }
                (TExprKind::Const(*v), ty)
            }
            ExprKind::Bool(b) => (TExprKind::Const(*b as i64), Ty::Bool),
            ExprKind::Var(name) => {
                let v = self.var(scope, name, loc)?;
                (TExprKind::Var(v), scope.vars[v].ty)
            }
            ExprKind::Unary(op, arg) => {
                let arg = self.expr(scope, arg, hint)?;
                match op {
                    UnOp::Neg if arg.ty.is_int() => (TExprKind::Neg(Box::new(arg.clone())), arg.ty),
                    UnOp::Not if arg.ty == Ty::Bool => (TExprKind::Not(Box::new(arg)), Ty::Bool),
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
                    (Ty::I64, Ty::I32) => Conv::Trunc,
                    (Ty::I32, Ty::I64) => Conv::SExt,
                    (Ty::Bool, Ty::I64 | Ty::I32) => Conv::ZExt,
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
        Ok(TExpr { kind, ty, loc })
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
        if is_cmp {
            let cmp = match op {
                BinOp::Eq => Cmp::Eq,
                BinOp::Ne => Cmp::Ne,
                BinOp::Lt => Cmp::Lt,
                BinOp::Le => Cmp::Le,
                BinOp::Gt => Cmp::Gt,
                _ => Cmp::Ge,
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
            BinOp::Div => Arith::SDiv,
            BinOp::Rem => Arith::SRem,
            BinOp::BitAnd => Arith::And,
            BinOp::BitOr => Arith::Or,
            BinOp::BitXor => Arith::Xor,
            BinOp::Shl => Arith::Shl,
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
        TStmt::If {
            then_body,
            else_body,
            ..
        } => returns(then_body) && returns(else_body),
        _ => false,
    })
}
