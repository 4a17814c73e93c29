//! The builder API a front end drives to emit IR without going through text.
//!
//! [`ModuleBuilder`] declares structs and functions (so calls can refer to functions defined
//! later); [`FunctionBuilder`] appends instructions to a current block, one method per
//! instruction, tagging each with the current source location. Misuse (an instruction with no
//! current block, a block terminated twice) is recorded and reported by
//! [`ModuleBuilder::finish`] as [`BuildErrors`] (naming function, block and instruction); the
//! builder never panics on it. The ids it takes (functions, structs, blocks, locals) are the
//! ones it handed out: an id from another builder or function is a bug in the front end and
//! panics, as indexing a `Vec` out of range does ([`ModuleBuilder::field_index`], a lookup,
//! answers `None` instead). Front ends attach their source locations with
//! [`FunctionBuilder::set_loc`] (instructions, terminators, locals, blocks) and
//! [`ModuleBuilder::set_function_loc`] (functions and parameters): verify errors and trap
//! lines then point into the front end's source. The result is an
//! unverified [`Module`]: run [`crate::verify`] on it (the facade crate does this for you).

use crate::entities::{Block, FuncId, Inst, Local, StructId};
use crate::function::{Function, InlineHint};
use crate::inst::{BinaryOp, CastOp, Check, CmpOp, InstKind, Loc, Operand, Terminator, UnaryOp};
use crate::module::Module;
use crate::printer::{display_inst, display_terminator};
use crate::types::{ElemType, FieldDef, StructDef, Type, FIELD_SCAN};
use rustc_hash::{FxHashMap, FxHashSet, FxHasher};
use std::fmt;
use std::hash::{Hash, Hasher};
use thiserror::Error;

/// Misuse of the builder API, naming the function, the block (when there is one) and the
/// offending instruction or terminator in the text syntax, and the source location the front
/// end gave ([`FunctionBuilder::set_loc`]; unknown when it gave none).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BuildError {
    #[error("in function `{func}`{}: `{inst}` emitted with no current block", at(*.loc))]
    NoCurrentBlock {
        func: String,
        inst: String,
        loc: Loc,
    },
    #[error("in function `{func}`{}: block `{block}` is terminated twice (already ends in `{first}`, then `{second}`)", at(*.loc))]
    DoubleTerminator {
        func: String,
        block: String,
        first: String,
        second: String,
        loc: Loc,
    },
}

fn at(loc: Loc) -> String {
    if loc.is_known() {
        format!(" at {}:{}", loc.line, loc.col)
    } else {
        String::new()
    }
}

/// Every misuse [`ModuleBuilder::finish`] found; displays one per line and works with `?`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildErrors(pub Vec<BuildError>);

impl BuildErrors {
    /// The errors, in the order they happened.
    pub fn iter(&self) -> std::slice::Iter<'_, BuildError> {
        self.0.iter()
    }

    /// Gives the errors back.
    pub fn into_vec(self) -> Vec<BuildError> {
        self.0
    }
}

impl std::ops::Deref for BuildErrors {
    type Target = [BuildError];
    fn deref(&self) -> &[BuildError] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a BuildErrors {
    type Item = &'a BuildError;
    type IntoIter = std::slice::Iter<'a, BuildError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Display for BuildErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        write!(f, "{n} builder error{}", if n == 1 { "" } else { "s" })?;
        for e in &self.0 {
            write!(f, "\n  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for BuildErrors {}

/// A misuse recorded while building, rendered by [`ModuleBuilder::finish`] (when the whole
/// module is there to print the instruction).
enum Misuse {
    NoBlockInst {
        func: FuncId,
        inst: Inst,
    },
    NoBlockTerm {
        func: FuncId,
        term: Terminator,
        loc: Loc,
    },
    DoubleTerminator {
        func: FuncId,
        block: Block,
        term: Terminator,
        loc: Loc,
    },
}

/// Builds a [`Module`].
#[derive(Default)]
pub struct ModuleBuilder {
    module: Module,
    errors: Vec<Misuse>,
    /// The fields of every struct of more than [`FIELD_SCAN`] fields, by name: a front end
    /// looks a field up per access, and a scan of a struct of thousands of fields per
    /// lookup made that quadratic.
    wide_fields: FxHashMap<StructId, FxHashMap<String, u32>>,
}

impl ModuleBuilder {
    pub fn new() -> ModuleBuilder {
        ModuleBuilder::default()
    }

    /// Declares a struct with the given fields (name, type), in declaration order.
    pub fn add_struct(&mut self, name: &str, fields: &[(&str, Type)]) -> StructId {
        let id = self.module.structs.next_key();
        if fields.len() > FIELD_SCAN {
            let mut names = FxHashMap::default();
            for (k, (n, _)) in fields.iter().enumerate() {
                // The first field of a name, as the scan finds it (a second one is a verify
                // error).
                names.entry(n.to_string()).or_insert(k as u32);
            }
            self.wide_fields.insert(id, names);
        }
        self.module.structs.push(StructDef {
            name: name.to_string(),
            fields: fields
                .iter()
                .map(|(n, t)| FieldDef {
                    name: n.to_string(),
                    ty: *t,
                })
                .collect(),
            loc: Loc::UNKNOWN,
        })
    }

    /// Index of field `name` of struct `id`, for the field instructions (`None` when the
    /// struct has no such field, or `id` is not a struct of this builder).
    pub fn field_index(&self, id: StructId, name: &str) -> Option<u32> {
        let def = self.module.structs.get(id)?;
        match self.wide_fields.get(&id) {
            Some(names) => names.get(name).copied(),
            None => def.field_index(name),
        }
    }

    /// The module built so far (struct layouts, declared functions).
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// Declares a function; its parameters become its first locals.
    pub fn declare_function(
        &mut self,
        name: &str,
        params: &[(&str, Type)],
        ret: Option<Type>,
    ) -> FuncId {
        let mut func = Function::new(name);
        for (pname, ty) in params {
            let local = func.add_local(*pname, *ty);
            func.params.push(local);
        }
        func.ret = ret;
        self.module.funcs.push(func)
    }

    /// Sets the source location of a declared function and of those of its parameters that
    /// have none, so verify errors and `stack_overflow` traps in it name a real place.
    pub fn set_function_loc(&mut self, id: FuncId, loc: Loc) {
        let func = &mut self.module.funcs[id];
        func.loc = loc;
        for &p in &func.params {
            if !func.locals[p].loc.is_known() {
                func.locals[p].loc = loc;
            }
        }
    }

    /// Sets the source location of parameter `index` of a declared function.
    pub fn set_param_loc(&mut self, id: FuncId, index: usize, loc: Loc) {
        let func = &mut self.module.funcs[id];
        if let Some(&p) = func.params.get(index) {
            func.locals[p].loc = loc;
        }
    }

    /// Sets the source location of a declared struct.
    pub fn set_struct_loc(&mut self, id: StructId, loc: Loc) {
        self.module.structs[id].loc = loc;
    }

    /// Sets the inlining hint of a declared function (`inline` / `noinline` in the text format).
    pub fn set_inline_hint(&mut self, id: FuncId, hint: InlineHint) {
        self.module.funcs[id].inline = hint;
    }

    /// Starts (or continues) defining the body of a declared function.
    pub fn define_function(&mut self, id: FuncId) -> FunctionBuilder<'_> {
        FunctionBuilder {
            id,
            func: &mut self.module.funcs[id],
            errors: &mut self.errors,
            current: None,
            loc: Loc::UNKNOWN,
            temps: TempNames::default(),
        }
    }

    /// Finishes the module. The result still has to be verified.
    pub fn finish(self) -> Result<Module, BuildErrors> {
        if self.errors.is_empty() {
            return Ok(self.module);
        }
        let m = &self.module;
        let errors = self
            .errors
            .iter()
            .map(|misuse| match misuse {
                Misuse::NoBlockInst { func, inst } => {
                    let f = &m.funcs[*func];
                    BuildError::NoCurrentBlock {
                        func: f.name.clone(),
                        inst: display_inst(m, f, *inst),
                        loc: f.insts[*inst].loc,
                    }
                }
                Misuse::NoBlockTerm { func, term, loc } => {
                    let f = &m.funcs[*func];
                    BuildError::NoCurrentBlock {
                        func: f.name.clone(),
                        inst: display_terminator(f, term),
                        loc: *loc,
                    }
                }
                Misuse::DoubleTerminator {
                    func,
                    block,
                    term,
                    loc,
                } => {
                    let f = &m.funcs[*func];
                    let data = &f.blocks[*block];
                    BuildError::DoubleTerminator {
                        func: f.name.clone(),
                        block: data.name.to_string(),
                        first: data
                            .terminator
                            .as_ref()
                            .map(|t| display_terminator(f, t))
                            .unwrap_or_default(),
                        second: display_terminator(f, term),
                        loc: *loc,
                    }
                }
            })
            .collect();
        Err(BuildErrors(errors))
    }
}

/// Appends instructions to one function.
pub struct FunctionBuilder<'a> {
    id: FuncId,
    func: &'a mut Function,
    errors: &'a mut Vec<Misuse>,
    current: Option<Block>,
    loc: Loc,
    temps: TempNames,
}

/// The names [`FunctionBuilder::temp`] hands out: `t0`, `t1`, … skipping taken ones. The
/// suffix only grows and the taken names are kept in a set (their hashes: a collision only
/// skips a name), so a temporary costs O(1); asking the function for a fresh name each time
/// (every local's name, then every suffix from 0) made a front end's 50,000 temporaries take
/// 75 s.
#[derive(Default)]
struct TempNames {
    next: u64,
    /// Hashes of the function's local names, built on the first `temp` (`None` before).
    taken: Option<FxHashSet<u64>>,
}

fn name_hash(name: &str) -> u64 {
    let mut h = FxHasher::default();
    name.hash(&mut h);
    h.finish()
}

impl FunctionBuilder<'_> {
    /// The `i`-th parameter's local.
    pub fn param(&self, i: usize) -> Option<Local> {
        self.func.params.get(i).copied()
    }

    /// Declares a named local.
    pub fn local(&mut self, name: &str, ty: Type) -> Local {
        if let Some(taken) = self.temps.taken.as_mut() {
            taken.insert(name_hash(name));
        }
        let local = self.func.add_local(name, ty);
        self.func.locals[local].loc = self.loc;
        local
    }

    /// Declares a fresh temporary (`t0`, `t1`, ...: a name no local of the function has) of
    /// type `ty`.
    pub fn temp(&mut self, ty: Type) -> Local {
        let func = &*self.func;
        let taken = self.temps.taken.get_or_insert_with(|| {
            func.locals
                .values()
                .map(|l| name_hash(l.name.as_str()))
                .collect()
        });
        let name = loop {
            let candidate = format!("t{}", self.temps.next);
            self.temps.next += 1;
            if taken.insert(name_hash(&candidate)) {
                break candidate;
            }
        };
        self.local(&name, ty)
    }

    /// The type of a local.
    pub fn local_ty(&self, local: Local) -> Type {
        self.func.local_ty(local)
    }

    /// Creates a block (appended to the layout; the first block created is the entry).
    pub fn create_block(&mut self, name: &str) -> Block {
        let block = self.func.add_block(name);
        self.func.blocks[block].loc = self.loc;
        block
    }

    /// Makes `block` the block new instructions are appended to.
    pub fn switch_to_block(&mut self, block: Block) {
        self.current = Some(block);
    }

    /// The current block.
    pub fn current_block(&self) -> Option<Block> {
        self.current
    }

    /// Whether the current block already has its terminator.
    pub fn is_terminated(&self) -> bool {
        self.current
            .is_some_and(|b| self.func.blocks[b].terminator.is_some())
    }

    /// Sets the source location attached to the instructions emitted from now on.
    pub fn set_loc(&mut self, loc: Loc) {
        self.loc = loc;
    }

    /// Appends an instruction of any kind to the current block.
    pub fn ins(&mut self, kind: InstKind) -> Inst {
        let inst = self.func.make_inst(kind, self.loc);
        match self.current {
            Some(b) => self.func.blocks[b].insts.push(inst),
            None => self.errors.push(Misuse::NoBlockInst {
                func: self.id,
                inst,
            }),
        }
        inst
    }

    /// Ends the current block with `term`.
    pub fn terminate(&mut self, term: Terminator) {
        let Some(b) = self.current else {
            self.errors.push(Misuse::NoBlockTerm {
                func: self.id,
                term,
                loc: self.loc,
            });
            return;
        };
        let data = &mut self.func.blocks[b];
        if data.terminator.is_some() {
            self.errors.push(Misuse::DoubleTerminator {
                func: self.id,
                block: b,
                term,
                loc: self.loc,
            });
            return;
        }
        data.terminator = Some(term);
        data.term_loc = self.loc;
    }

    pub fn copy(&mut self, dst: Local, src: impl Into<Operand>) -> Inst {
        self.ins(InstKind::Copy {
            dst,
            src: src.into(),
        })
    }

    pub fn unary(&mut self, dst: Local, op: UnaryOp, arg: impl Into<Operand>) -> Inst {
        self.ins(InstKind::Unary {
            dst,
            op,
            arg: arg.into(),
        })
    }

    pub fn binary(
        &mut self,
        dst: Local,
        op: BinaryOp,
        lhs: impl Into<Operand>,
        rhs: impl Into<Operand>,
    ) -> Inst {
        self.binary_with(dst, op, lhs.into(), rhs.into(), Check::Checked)
    }

    /// `dst = sdiv.unchecked a, b` (and `udiv`, `srem`, `urem`): a division without its test
    /// of the divisor. The caller vouches that the divisor is not 0 (and not -1 for `sdiv`);
    /// the verifier refuses it unless `trust_unchecked`, and on another operator.
    pub fn binary_unchecked(
        &mut self,
        dst: Local,
        op: BinaryOp,
        lhs: impl Into<Operand>,
        rhs: impl Into<Operand>,
    ) -> Inst {
        self.binary_with(dst, op, lhs.into(), rhs.into(), Check::Unchecked)
    }

    fn binary_with(
        &mut self,
        dst: Local,
        op: BinaryOp,
        lhs: Operand,
        rhs: Operand,
        check: Check,
    ) -> Inst {
        self.ins(InstKind::Binary {
            dst,
            op,
            lhs,
            rhs,
            check,
        })
    }

    pub fn compare(
        &mut self,
        dst: Local,
        op: CmpOp,
        lhs: impl Into<Operand>,
        rhs: impl Into<Operand>,
    ) -> Inst {
        self.ins(InstKind::Compare {
            dst,
            op,
            lhs: lhs.into(),
            rhs: rhs.into(),
        })
    }

    pub fn cast(&mut self, dst: Local, op: CastOp, arg: impl Into<Operand>) -> Inst {
        self.ins(InstKind::Cast {
            dst,
            op,
            arg: arg.into(),
        })
    }

    pub fn make(&mut self, dst: Local, ty: StructId, fields: Vec<Operand>) -> Inst {
        self.ins(InstKind::Make { dst, ty, fields })
    }

    pub fn get_field(&mut self, dst: Local, src: Local, field: u32) -> Inst {
        self.ins(InstKind::GetField { dst, src, field })
    }

    pub fn set_field(&mut self, dst: Local, field: u32, value: impl Into<Operand>) -> Inst {
        self.ins(InstKind::SetField {
            dst,
            field,
            value: value.into(),
        })
    }

    pub fn vec_new(&mut self, dst: Local, elem: ElemType) -> Inst {
        self.ins(InstKind::VecNew { dst, elem })
    }

    pub fn vec_len(&mut self, dst: Local, vec: Local) -> Inst {
        self.ins(InstKind::VecLen { dst, vec })
    }

    pub fn push(&mut self, vec: Local, value: impl Into<Operand>) -> Inst {
        self.ins(InstKind::VecPush {
            vec,
            value: value.into(),
        })
    }

    /// A checked pop (traps when empty).
    pub fn pop(&mut self, dst: Option<Local>, vec: Local) -> Inst {
        self.ins(InstKind::VecPop {
            dst,
            vec,
            check: Check::Checked,
        })
    }

    /// A checked element read `dst = v[index]` (or one field of it).
    pub fn get(
        &mut self,
        dst: Local,
        vec: Local,
        index: impl Into<Operand>,
        field: Option<u32>,
    ) -> Inst {
        self.ins(InstKind::VecGet {
            dst,
            vec,
            index: index.into(),
            field,
            check: Check::Checked,
        })
    }

    /// A checked element write `v[index] = value` (or one field of it).
    pub fn set(
        &mut self,
        vec: Local,
        index: impl Into<Operand>,
        field: Option<u32>,
        value: impl Into<Operand>,
    ) -> Inst {
        self.ins(InstKind::VecSet {
            vec,
            index: index.into(),
            field,
            value: value.into(),
            check: Check::Checked,
        })
    }

    pub fn drop_vec(&mut self, vec: Local) -> Inst {
        self.ins(InstKind::VecDrop { vec })
    }

    pub fn call(&mut self, dst: Option<Local>, func: FuncId, args: Vec<Operand>) -> Inst {
        self.ins(InstKind::Call { dst, func, args })
    }

    pub fn br(&mut self, target: Block) {
        self.terminate(Terminator::Br(target));
    }

    pub fn brif(&mut self, cond: impl Into<Operand>, then_block: Block, else_block: Block) {
        self.terminate(Terminator::BrIf {
            cond: cond.into(),
            then_block,
            else_block,
        });
    }

    pub fn ret(&mut self, value: Option<Operand>) {
        self.terminate(Terminator::Ret(value));
    }

    pub fn trap(&mut self, message: &str) {
        self.terminate(Terminator::Trap(message.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `temp` names are `t0`, `t1`, … in order, skipping names any local already has (declared
    /// before the first temporary or between two), so every name stays unique.
    #[test]
    fn temporaries_skip_taken_names() {
        let mut mb = ModuleBuilder::new();
        let f = mb.declare_function("f", &[("t2", Type::I64)], Some(Type::I64));
        let mut fb = mb.define_function(f);
        fb.local("t0", Type::I64);
        let names = |fb: &mut FunctionBuilder<'_>, n: usize| -> Vec<String> {
            (0..n)
                .map(|_| {
                    let t = fb.temp(Type::I64);
                    fb.func.locals[t].name.to_string()
                })
                .collect()
        };
        assert_eq!(names(&mut fb, 2), ["t1", "t3"]);
        fb.local("t5", Type::BOOL);
        assert_eq!(names(&mut fb, 3), ["t4", "t6", "t7"]);
        let mut all: Vec<String> = fb
            .func
            .locals
            .values()
            .map(|l| l.name.to_string())
            .collect();
        let count = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), count, "unique names");
    }

    /// `field_index` finds every field of a struct wider than the scan bound (through its
    /// map) and of a narrow one (by the scan), the first of two fields of one name, nothing
    /// for an unknown name, and nothing for a struct id this builder did not make.
    #[test]
    fn field_index_of_narrow_wide_and_foreign_structs() {
        let mut mb = ModuleBuilder::new();
        let names: Vec<String> = (0..40).map(|k| format!("f{k}")).collect();
        let mut fields: Vec<(&str, Type)> = names.iter().map(|n| (n.as_str(), Type::I64)).collect();
        fields.push(("f3", Type::I32));
        let wide = mb.add_struct("W", &fields);
        let narrow = mb.add_struct("N", &[("a", Type::I64), ("b", Type::I64)]);
        for (k, n) in names.iter().enumerate() {
            assert_eq!(mb.field_index(wide, n), Some(k as u32));
        }
        assert_eq!(mb.field_index(wide, "f40"), None);
        assert_eq!(mb.field_index(narrow, "b"), Some(1));
        assert_eq!(mb.field_index(narrow, "f0"), None);
        let mut other = ModuleBuilder::new();
        other.add_struct("A", &[("x", Type::I64)]);
        let foreign = {
            let mut more = ModuleBuilder::new();
            for k in 0..5 {
                more.add_struct(&format!("S{k}"), &[("x", Type::I64)]);
            }
            more.add_struct("S5", &[("x", Type::I64)])
        };
        assert_eq!(other.field_index(foreign, "x"), None);
    }
}
