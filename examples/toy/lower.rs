//! Lowering of the typed program to poolopt IR through the builder API, the way a simple
//! compiler does it: every variable becomes an IR local (declared up front, as
//! cranelift-jit-demo declares its variables), every subexpression gets a fresh temporary,
//! `&&`/`||` and conditions become branches, and every vec operation is emitted checked.
//! Each instruction carries the toy source location ([`FunctionBuilder::set_loc`]) so that
//! remarks point at toy lines.
//!
//! A split struct (one with vec fields) has no IR type: a variable of it is one IR local per
//! field (`p_items`, `p_free`), a parameter is one parameter per field, and passing it passes
//! each field.
//!
//! Multiple return values: a tuple type `(T1, T2)` is an IR struct `tuple_T1_T2 { _0: T1,
//! _1: T2 }`; `return (a, b)` is `make` + `ret`, and `let (x, y) = f()` is the call into a
//! temporary and one `getfield` per part. `break`/`continue` branch to the innermost loop's
//! exit/test block. Unsigned types are the IR's integer types with the unsigned operators.
//!
//! Besides the module, the lowering records what each IR local stands for in the toy program
//! ([`ToyNames`]): a variable's toy name (`p.items` for the local `p_items`) or the source
//! span of the expression a temporary holds, so that remarks can speak the toy's terms.

use crate::error::CompileError;
use crate::names::{ToyName, ToyNames};
use crate::typed::{
    Arith, BitCount, Cmp, Conv, Elem, Place, TExpr, TExprKind, TFn, TIfArm, TProgram, TStmt, Ty,
};
use poolopt::ir::{
    BinaryOp, Block, CastOp, CmpOp, ElemType, FuncId, FunctionBuilder, Loc, Local, Module,
    ModuleBuilder, Operand, ScalarType, StructId, Type, UnaryOp,
};
use std::collections::HashSet;

/// Builds the IR module of a checked program (still to be verified), and records what each
/// of its locals is in the toy program.
pub fn lower(program: &TProgram) -> Result<(Module, ToyNames), CompileError> {
    let mut mb = ModuleBuilder::new();
    let mut struct_ids: Vec<Option<StructId>> = Vec::new();
    for s in &program.structs {
        if s.split {
            struct_ids.push(None);
            continue;
        }
        let fields: Vec<(&str, Type)> = s
            .fields
            .iter()
            .map(|(n, t)| (n.as_str(), scalar_type(*t)))
            .collect();
        struct_ids.push(Some(mb.add_struct(&s.name, &fields)));
    }
    let mut tuple_ids = Vec::new();
    for parts in &program.tuples {
        let base = parts
            .iter()
            .map(|&t| toy_type_name(t))
            .fold(String::from("tuple"), |acc, n| format!("{acc}_{n}"));
        let mut name = base.clone();
        let mut n = 1;
        while program.structs.iter().any(|s| s.name == name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        let field_names: Vec<String> = (0..parts.len()).map(|i| format!("_{i}")).collect();
        let fields: Vec<(&str, Type)> = field_names
            .iter()
            .zip(parts)
            .map(|(n, &t)| (n.as_str(), scalar_type(t)))
            .collect();
        tuple_ids.push(mb.add_struct(&name, &fields));
    }
    let types = Types {
        program,
        struct_ids,
        tuple_ids,
    };
    let mut func_ids = Vec::new();
    let mut param_names = Vec::new();
    let mut recorded: Vec<(FuncId, Local, ToyName)> = Vec::new();
    for f in &program.fns {
        let mut names = Names::default();
        let mut params: Vec<(String, Type)> = Vec::new();
        for var in &f.vars[..f.params] {
            for (suffix, ty) in types.parts(var.ty) {
                params.push((names.fresh(&var.name, suffix), ty));
            }
        }
        let refs: Vec<(&str, Type)> = params.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        let ret = (f.ret != Ty::Void).then(|| types.ir(f.ret));
        let id = mb.declare_function(&f.name, &refs, ret);
        mb.set_function_loc(id, f.loc); // a stack_overflow entering it reports this line
        func_ids.push(id);
        param_names.push(names);
    }
    for ((f, &id), names) in program.fns.iter().zip(&func_ids).zip(param_names) {
        let fb = mb.define_function(id);
        let names_of_locals = FnLower {
            fb,
            types: &types,
            func_ids: &func_ids,
            func: f,
            locals: Vec::new(),
            named: HashSet::new(),
            blocks: 0,
            loops: Vec::new(),
            toy_names: Vec::new(),
        }
        .run(names);
        recorded.extend(names_of_locals.into_iter().map(|(l, n)| (id, l, n)));
    }
    let module = mb.finish().map_err(|errors| {
        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        CompileError::new(Loc::UNKNOWN, format!("internal error: {}", text.join("; ")))
    })?;
    let mut toy_names = ToyNames::default();
    for (id, local, name) in recorded {
        let func = &module.funcs[id];
        toy_names.insert(&func.name, func.local_name(local), name);
    }
    for func in module.funcs.values() {
        for block in func.blocks.values() {
            toy_names.insert_block(&func.name, &block.name);
        }
    }
    Ok((module, toy_names))
}

/// How a scalar type is written in toy source (for tuple struct names).
fn toy_type_name(ty: Ty) -> &'static str {
    match ty {
        Ty::I32 => "i32",
        Ty::U64 => "u64",
        Ty::U32 => "u32",
        Ty::Bool => "bool",
        _ => "i64",
    }
}

/// The IR type of a scalar (struct fields and `as` targets are scalars).
fn scalar_type(ty: Ty) -> Type {
    match ty {
        Ty::I32 | Ty::U32 => Type::I32,
        Ty::Bool => Type::BOOL,
        _ => Type::I64,
    }
}

fn elem_type(elem: Elem, struct_ids: &[Option<StructId>]) -> ElemType {
    match elem {
        Elem::I64 | Elem::U64 => ElemType::Scalar(ScalarType::I64),
        Elem::I32 | Elem::U32 => ElemType::Scalar(ScalarType::I32),
        Elem::Bool => ElemType::Scalar(ScalarType::Bool),
        Elem::Struct(s) => match struct_ids[s] {
            Some(id) => ElemType::Struct(id),
            // The checker rejects vecs of split structs.
            None => ElemType::Scalar(ScalarType::I64),
        },
    }
}

/// Maps toy types to IR types.
struct Types<'p> {
    program: &'p TProgram,
    struct_ids: Vec<Option<StructId>>,
    /// The IR struct of each tuple type.
    tuple_ids: Vec<StructId>,
}

impl Types<'_> {
    /// The IR type of a value that is not split and not void.
    fn ir(&self, ty: Ty) -> Type {
        match ty {
            Ty::Struct(s) => match self.struct_ids[s] {
                Some(id) => Type::Struct(id),
                None => Type::I64,
            },
            Ty::Vec(e) => Type::Vec(elem_type(e, &self.struct_ids)),
            Ty::Tuple(t) => Type::Struct(self.tuple_ids[t]),
            other => scalar_type(other),
        }
    }

    /// The IR locals a value of `ty` occupies: one (suffix `None`), or one per field of a
    /// split struct (suffix the field name).
    fn parts(&self, ty: Ty) -> Vec<(Option<&str>, Type)> {
        match ty {
            Ty::Split(s) => self.program.structs[s]
                .fields
                .iter()
                .map(|(n, t)| (Some(n.as_str()), self.ir(*t)))
                .collect(),
            other => vec![(None, self.ir(other))],
        }
    }
}

/// Unique local names within one function (`x`, then `x_1`, `x_2` for shadowed names).
#[derive(Default)]
struct Names {
    taken: HashSet<String>,
}

impl Names {
    fn fresh(&mut self, base: &str, suffix: Option<&str>) -> String {
        let base = match suffix {
            Some(field) => format!("{base}_{field}"),
            None => base.to_string(),
        };
        let mut name = base.clone();
        let mut n = 1;
        // Temporaries are `t0`, `t1`, ...: keep user names off that pattern's way by
        // declaring all user locals before any temporary (the builder then skips them).
        while self.taken.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        name
    }
}

/// The lowering of one function.
struct FnLower<'a, 'b> {
    fb: FunctionBuilder<'b>,
    types: &'a Types<'a>,
    func_ids: &'a [FuncId],
    func: &'a TFn,
    /// The IR locals of each toy variable.
    locals: Vec<Vec<Local>>,
    /// The locals that are toy variables (not temporaries).
    named: HashSet<Local>,
    blocks: u32,
    /// The enclosing loops, innermost last: (test block, exit block).
    loops: Vec<(Block, Block)>,
    /// What each local is in the toy source.
    toy_names: Vec<(Local, ToyName)>,
}

impl FnLower<'_, '_> {
    fn run(mut self, mut names: Names) -> Vec<(Local, ToyName)> {
        // Parameters are the function's first locals, in order.
        let mut next_param = 0;
        for var in &self.func.vars[..self.func.params] {
            let mut ls = Vec::new();
            for _ in self.types.parts(var.ty) {
                if let Some(l) = self.fb.param(next_param) {
                    ls.push(l);
                }
                next_param += 1;
            }
            self.locals.push(ls);
        }
        // Then every `let` variable, before any code (temporaries come later and get names
        // that do not clash with these).
        for var in &self.func.vars[self.func.params..] {
            self.fb.set_loc(var.loc);
            let mut ls = Vec::new();
            for (suffix, ty) in self.types.parts(var.ty) {
                let name = names.fresh(&var.name, suffix);
                ls.push(self.fb.local(&name, ty));
            }
            self.locals.push(ls);
        }
        self.named = self.locals.iter().flatten().copied().collect();
        for (var, ls) in self.func.vars.iter().zip(&self.locals) {
            let fields = match var.ty {
                Ty::Split(s) => self.types.program.structs[s]
                    .fields
                    .iter()
                    .map(|(n, _)| format!("{}.{n}", var.name))
                    .collect(),
                _ => vec![var.name.clone()],
            };
            for (&l, toy) in ls.iter().zip(fields) {
                self.toy_names.push((l, ToyName::Var(toy)));
            }
        }
        self.fb.set_loc(self.func.loc);
        let entry = self.fb.create_block("entry");
        self.fb.switch_to_block(entry);
        let func = self.func;
        self.stmts(&func.body);
        if self.live() {
            self.fb.set_loc(func.end);
            if func.ret == Ty::Void {
                self.fb.ret(None);
            } else {
                // Unreachable: the checker proves every path returns.
                self.fb.trap("missing return");
            }
        }
        self.toy_names
    }

    /// Whether code emitted now would be reachable.
    fn live(&self) -> bool {
        self.fb.current_block().is_some() && !self.fb.is_terminated()
    }

    fn block(&mut self, base: &str) -> Block {
        let name = format!("{base}{}", self.blocks);
        self.blocks += 1;
        self.fb.create_block(&name)
    }

    fn stmts(&mut self, stmts: &[TStmt]) {
        for s in stmts {
            if !self.live() {
                // Code after `return` or `trap` is dead; the IR must not contain dead blocks.
                return;
            }
            self.stmt(s);
        }
    }

    /// An `if` chain. Arm `k` branches to its body or to the next arm (the final `else`, or
    /// past the chain); each arm that has something after it gets a join (`endif`) of its body
    /// and of what follows, made innermost first. The blocks are those of the chain written as
    /// nested `if`s in `else`s, in the same order, built with a loop instead of recursion.
    fn if_chain(&mut self, arms: &[TIfArm], else_body: &[TStmt]) {
        // For each arm followed by more: whether its body can fall through, where it ends, and
        // its location (for the join).
        let mut open: Vec<(bool, Option<Block>, Loc)> = Vec::new();
        for (k, arm) in arms.iter().enumerate() {
            let last = k + 1 == arms.len() && else_body.is_empty();
            self.fb.set_loc(arm.loc);
            let then_b = self.block("then");
            let after = self.block(if last { "endif" } else { "else" });
            self.cond_branch(&arm.cond, then_b, after);
            self.fb.switch_to_block(then_b);
            self.stmts(&arm.body);
            if last {
                if self.live() {
                    self.fb.br(after);
                }
                self.fb.switch_to_block(after);
                break;
            }
            open.push((self.live(), self.fb.current_block(), arm.loc));
            self.fb.switch_to_block(after);
            if k + 1 == arms.len() {
                self.stmts(else_body);
            }
        }
        for (then_live, then_end, loc) in open.into_iter().rev() {
            let else_live = self.live();
            if !then_live && !else_live {
                continue;
            }
            self.fb.set_loc(loc);
            let join = self.block("endif");
            if else_live {
                self.fb.br(join);
            }
            if then_live {
                if let Some(b) = then_end {
                    self.fb.switch_to_block(b);
                    self.fb.br(join);
                }
            }
            self.fb.switch_to_block(join);
        }
    }

    fn stmt(&mut self, stmt: &TStmt) {
        match stmt {
            TStmt::Assign { place, value, loc } => {
                self.fb.set_loc(*loc);
                self.assign(place, value, *loc);
            }
            TStmt::If { arms, else_body } => self.if_chain(arms, else_body),
            TStmt::While { cond, body, loc } => {
                self.fb.set_loc(*loc);
                let head = self.block("while");
                let body_b = self.block("do");
                let exit = self.block("wend");
                self.fb.br(head);
                self.fb.switch_to_block(head);
                self.cond_branch(cond, body_b, exit);
                self.fb.switch_to_block(body_b);
                self.loops.push((head, exit));
                self.stmts(body);
                self.loops.pop();
                if self.live() {
                    self.fb.set_loc(*loc);
                    self.fb.br(head);
                }
                self.fb.switch_to_block(exit);
            }
            TStmt::Return { value, loc } => {
                let op = value.as_ref().map(|v| self.eval(v));
                self.fb.set_loc(*loc);
                self.fb.ret(op);
            }
            TStmt::Trap { message, loc } => {
                self.fb.set_loc(*loc);
                self.fb.trap(message);
            }
            TStmt::Break { loc } | TStmt::Continue { loc } => {
                // The checker accepts these only inside a loop.
                if let Some(&(head, exit)) = self.loops.last() {
                    self.fb.set_loc(*loc);
                    let to_exit = matches!(stmt, TStmt::Break { .. });
                    self.fb.br(if to_exit { exit } else { head });
                }
            }
            TStmt::AssignTuple { places, value, loc } => {
                let parts: Vec<Operand> = match &value.kind {
                    // `(a, b) = (b, a)`: every part is read before any is written.
                    TExprKind::Tuple(values) => {
                        values.iter().map(|v| self.eval_stored(v)).collect()
                    }
                    _ => {
                        let s = self.eval_local(value);
                        let tys = match value.ty {
                            Ty::Tuple(t) => self.types.program.tuples[t].clone(),
                            _ => Vec::new(),
                        };
                        let mut ops = Vec::new();
                        for (i, (ty, place)) in tys.into_iter().zip(places).enumerate() {
                            if place.is_none() {
                                ops.push(Operand::Const(0));
                                continue;
                            }
                            let t = self.temp(ty, value);
                            self.fb.set_loc(*loc);
                            self.fb.get_field(t, s, i as u32);
                            ops.push(t.into());
                        }
                        ops
                    }
                };
                for (place, op) in places.iter().zip(parts) {
                    if let Some(place) = place {
                        self.store(place, op, *loc);
                    }
                }
            }
            TStmt::Expr(e) => self.effect(e),
        }
    }

    fn assign(&mut self, place: &Place, value: &TExpr, loc: Loc) {
        match place {
            Place::Var(v) => {
                if matches!(value.ty, Ty::Split(_)) {
                    let ops = self.eval_split(value);
                    self.fb.set_loc(loc);
                    for (dst, op) in self.locals[*v].clone().into_iter().zip(ops) {
                        self.fb.copy(dst, op);
                    }
                } else {
                    let op = self.eval(value);
                    self.fb.set_loc(loc);
                    let dst = self.locals[*v][0];
                    self.fb.copy(dst, op);
                }
            }
            Place::SplitField(v, f) => {
                let op = self.eval(value);
                self.fb.set_loc(loc);
                let dst = self.locals[*v][*f];
                self.fb.copy(dst, op);
            }
            Place::VarField(v, f) => {
                let op = self.eval(value);
                self.fb.set_loc(loc);
                let dst = self.locals[*v][0];
                self.fb.set_field(dst, *f as u32, op);
            }
            Place::Elem { vec, index, field } => {
                let vl = self.eval_local(vec);
                let i = self.eval(index);
                let x = self.eval_stored(value);
                self.fb.set_loc(loc);
                self.fb.set(vl, i, field.map(|f| f as u32), x);
            }
        }
    }

    /// Stores an already evaluated value into a place.
    fn store(&mut self, place: &Place, op: Operand, loc: Loc) {
        match place {
            Place::Var(v) | Place::SplitField(v, _) => {
                let f = match place {
                    Place::SplitField(_, f) => *f,
                    _ => 0,
                };
                self.fb.set_loc(loc);
                let dst = self.locals[*v][f];
                self.fb.copy(dst, op);
            }
            Place::VarField(v, f) => {
                self.fb.set_loc(loc);
                let dst = self.locals[*v][0];
                self.fb.set_field(dst, *f as u32, op);
            }
            Place::Elem { vec, index, field } => {
                let vl = self.eval_local(vec);
                let i = self.eval(index);
                self.fb.set_loc(loc);
                self.fb.set(vl, i, field.map(|f| f as u32), op);
            }
        }
    }

    /// A statement that is an expression: its value, if any, is discarded.
    fn effect(&mut self, e: &TExpr) {
        match &e.kind {
            TExprKind::Pop(v) => {
                let vl = self.eval_local(v);
                self.fb.set_loc(e.loc);
                self.fb.pop(None, vl);
            }
            TExprKind::Call(f, args) => {
                let ops = self.eval_args(args);
                self.fb.set_loc(e.loc);
                self.fb.call(None, self.func_ids[*f], ops);
            }
            _ => {
                self.eval(e);
            }
        }
    }

    /// Branches to `then_b` if `cond` holds, else to `else_b`; `&&`, `||` and `!` become
    /// control flow, not values.
    fn cond_branch(&mut self, cond: &TExpr, then_b: Block, else_b: Block) {
        match &cond.kind {
            TExprKind::Logic(is_and, a, b) => {
                self.fb.set_loc(cond.loc);
                let mid = self.block(if *is_and { "and" } else { "or" });
                if *is_and {
                    self.cond_branch(a, mid, else_b);
                } else {
                    self.cond_branch(a, then_b, mid);
                }
                self.fb.switch_to_block(mid);
                self.cond_branch(b, then_b, else_b);
            }
            TExprKind::Not(a) => self.cond_branch(a, else_b, then_b),
            _ => {
                let c = self.eval(cond);
                self.fb.set_loc(cond.loc);
                self.fb.brif(c, then_b, else_b);
            }
        }
    }

    /// A fresh temporary of type `ty` holding (a part of) the value of `e`.
    fn temp(&mut self, ty: Ty, e: &TExpr) -> Local {
        let ir = self.types.ir(ty);
        let t = self.fb.temp(ir);
        self.toy_names.push((t, ToyName::Span(e.start, e.end)));
        t
    }

    /// Evaluates `e` into a local (constants are copied into a temporary).
    fn eval_local(&mut self, e: &TExpr) -> Local {
        match self.eval(e) {
            Operand::Local(l) => l,
            c @ Operand::Const(_) => {
                let t = self.temp(e.ty, e);
                self.fb.set_loc(e.loc);
                self.fb.copy(t, c);
                t
            }
        }
    }

    /// Evaluates a value that is stored into a vec: a variable is first copied into a
    /// temporary, as a simple compiler moves the value into its argument slot.
    fn eval_stored(&mut self, e: &TExpr) -> Operand {
        let op = self.eval(e);
        match op {
            Operand::Local(l) if self.named.contains(&l) => {
                let t = self.temp(e.ty, e);
                self.fb.set_loc(e.loc);
                self.fb.copy(t, l);
                Operand::Local(t)
            }
            other => other,
        }
    }

    /// The locals of a split-struct value, one per field.
    fn eval_split(&mut self, e: &TExpr) -> Vec<Operand> {
        match &e.kind {
            TExprKind::Var(v) => self.locals[*v].iter().map(|&l| l.into()).collect(),
            TExprKind::StructLit(_, fields) => {
                // Fields are moved into temporaries first, so `p = P { a: p.b, b: p.a }` swaps.
                fields.iter().map(|f| self.eval_stored(f)).collect()
            }
            _ => Vec::new(),
        }
    }

    fn eval_args(&mut self, args: &[TExpr]) -> Vec<Operand> {
        let mut ops = Vec::new();
        for a in args {
            if matches!(a.ty, Ty::Split(_)) {
                ops.extend(self.eval_split(a));
            } else {
                ops.push(self.eval(a));
            }
        }
        ops
    }

    /// Evaluates an expression that has a value (not split, not void) to an operand: a
    /// constant, a variable's local, or a fresh temporary holding the result.
    fn eval(&mut self, e: &TExpr) -> Operand {
        match &e.kind {
            TExprKind::Const(c) => Operand::Const(*c),
            TExprKind::Var(v) => self.locals[*v]
                .first()
                .map_or(Operand::Const(0), |&l| l.into()),
            TExprKind::SplitField(v, f) => self.locals[*v]
                .get(*f)
                .map_or(Operand::Const(0), |&l| l.into()),
            TExprKind::Neg(a)
            | TExprKind::Not(a)
            | TExprKind::BitNot(a)
            | TExprKind::BitCount(_, a) => {
                let x = self.eval(a);
                let op = match e.kind {
                    TExprKind::Neg(_) => UnaryOp::Neg,
                    TExprKind::BitCount(BitCount::Ctz, _) => UnaryOp::Ctz,
                    TExprKind::BitCount(BitCount::Clz, _) => UnaryOp::Clz,
                    TExprKind::BitCount(BitCount::Popcnt, _) => UnaryOp::Popcnt,
                    _ => UnaryOp::Not,
                };
                let t = self.temp(e.ty, e);
                self.fb.set_loc(e.loc);
                self.fb.unary(t, op, x);
                t.into()
            }
            TExprKind::Arith(op, a, b) => {
                let x = self.eval(a);
                let y = self.eval(b);
                let t = self.temp(e.ty, e);
                self.fb.set_loc(e.loc);
                self.fb.binary(t, binary_op(*op), x, y);
                t.into()
            }
            TExprKind::Cmp(op, a, b) => {
                let mut x = self.eval(a);
                let y = self.eval(b);
                if x.as_const().is_some() && y.as_const().is_some() {
                    // A compare needs a local to give its constants a type.
                    x = self.eval_local(a).into();
                }
                let t = self.temp(Ty::Bool, e);
                self.fb.set_loc(e.loc);
                self.fb.compare(t, cmp_op(*op), x, y);
                t.into()
            }
            TExprKind::Logic(is_and, a, b) => {
                // As a value: t = a; if (t is the deciding value) skip b; else t = b.
                let t = self.temp(Ty::Bool, e);
                let x = self.eval(a);
                self.fb.set_loc(e.loc);
                self.fb.copy(t, x);
                let rhs = self.block(if *is_and { "and" } else { "or" });
                let join = self.block("logic_end");
                if *is_and {
                    self.fb.brif(t, rhs, join);
                } else {
                    self.fb.brif(t, join, rhs);
                }
                self.fb.switch_to_block(rhs);
                let y = self.eval(b);
                self.fb.set_loc(e.loc);
                self.fb.copy(t, y);
                self.fb.br(join);
                self.fb.switch_to_block(join);
                t.into()
            }
            TExprKind::Cast(conv, a) => {
                let op = match conv {
                    Conv::Same => return self.eval(a),
                    Conv::Trunc => CastOp::Trunc,
                    Conv::SExt => CastOp::Sext,
                    Conv::ZExt => CastOp::Zext,
                };
                let x = self.eval_local(a);
                let t = self.temp(e.ty, e);
                self.fb.set_loc(e.loc);
                self.fb.cast(t, op, x);
                t.into()
            }
            TExprKind::Call(f, args) => {
                let ops = self.eval_args(args);
                let dst = (e.ty != Ty::Void).then(|| self.temp(e.ty, e));
                self.fb.set_loc(e.loc);
                self.fb.call(dst, self.func_ids[*f], ops);
                dst.map_or(Operand::Const(0), Operand::Local)
            }
            TExprKind::Len(v) => {
                let vl = self.eval_local(v);
                let t = self.temp(Ty::I64, e);
                self.fb.set_loc(e.loc);
                self.fb.vec_len(t, vl);
                t.into()
            }
            TExprKind::Pop(v) => {
                let vl = self.eval_local(v);
                let t = self.temp(e.ty, e);
                self.fb.set_loc(e.loc);
                self.fb.pop(Some(t), vl);
                t.into()
            }
            TExprKind::Push(v, x) => {
                let vl = self.eval_local(v);
                let x = self.eval_stored(x);
                self.fb.set_loc(e.loc);
                self.fb.push(vl, x);
                Operand::Const(0)
            }
            TExprKind::Drop(v) => {
                let vl = self.eval_local(v);
                self.fb.set_loc(e.loc);
                self.fb.drop_vec(vl);
                Operand::Const(0)
            }
            TExprKind::NewVec(elem) => {
                let t = self.temp(e.ty, e);
                self.fb.set_loc(e.loc);
                self.fb.vec_new(t, elem_type(*elem, &self.types.struct_ids));
                t.into()
            }
            TExprKind::Field(base, f) => {
                let s = self.eval_local(base);
                let t = self.temp(e.ty, e);
                self.fb.set_loc(e.loc);
                self.fb.get_field(t, s, *f as u32);
                t.into()
            }
            TExprKind::Index(v, i, field) => {
                let vl = self.eval_local(v);
                let i = self.eval(i);
                let t = self.temp(e.ty, e);
                self.fb.set_loc(e.loc);
                self.fb.get(t, vl, i, field.map(|f| f as u32));
                t.into()
            }
            TExprKind::Tuple(parts) => {
                let ops: Vec<Operand> = parts.iter().map(|p| self.eval(p)).collect();
                let Ty::Tuple(id) = e.ty else {
                    return Operand::Const(0);
                };
                let t = self.temp(e.ty, e);
                self.fb.set_loc(e.loc);
                self.fb.make(t, self.types.tuple_ids[id], ops);
                t.into()
            }
            TExprKind::StructLit(s, fields) => {
                let ops: Vec<Operand> = fields.iter().map(|f| self.eval(f)).collect();
                let Some(id) = self.types.struct_ids[*s] else {
                    // Split literals are handled by `eval_split`; the checker allows them only
                    // where a split value is expected.
                    return Operand::Const(0);
                };
                let t = self.temp(e.ty, e);
                self.fb.set_loc(e.loc);
                self.fb.make(t, id, ops);
                t.into()
            }
        }
    }
}

fn binary_op(op: Arith) -> BinaryOp {
    match op {
        Arith::Add => BinaryOp::Add,
        Arith::Sub => BinaryOp::Sub,
        Arith::Mul => BinaryOp::Mul,
        Arith::SDiv => BinaryOp::SDiv,
        Arith::SRem => BinaryOp::SRem,
        Arith::UDiv => BinaryOp::UDiv,
        Arith::URem => BinaryOp::URem,
        Arith::LShr => BinaryOp::LShr,
        Arith::And => BinaryOp::And,
        Arith::Or => BinaryOp::Or,
        Arith::Xor => BinaryOp::Xor,
        Arith::Shl => BinaryOp::Shl,
        Arith::AShr => BinaryOp::AShr,
    }
}

fn cmp_op(op: Cmp) -> CmpOp {
    match op {
        Cmp::Eq => CmpOp::Eq,
        Cmp::Ne => CmpOp::Ne,
        Cmp::Lt => CmpOp::Slt,
        Cmp::Le => CmpOp::Sle,
        Cmp::Gt => CmpOp::Sgt,
        Cmp::Ge => CmpOp::Sge,
        Cmp::ULt => CmpOp::Ult,
        Cmp::ULe => CmpOp::Ule,
        Cmp::UGt => CmpOp::Ugt,
        Cmp::UGe => CmpOp::Uge,
    }
}
