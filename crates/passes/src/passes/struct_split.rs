//! `struct-split`: a struct local of more than 8 bytes becomes one local per field, so its
//! fields live in registers instead of a stack slot.
//!
//! **Which locals.** A struct local (not a parameter) whose fields are all scalars and whose
//! struct does not fit one integer ([`Module::packable`] refuses it; the small ones are
//! `scalarize`'s) is split unless it *escapes*: passed to a call, assigned by a call, returned,
//! or assigned whole by `pop`. Those need the struct's bytes in memory (the call protocol passes
//! and returns structs through memory); the local stays whole with a missed remark naming the
//! reason. A struct with more than [`MAX_FIELDS`] fields stays whole too (its field locals would
//! crowd out every other local at register allocation). So does a local that is only built
//! (`make`), read or written by field and stored whole into elements, of a struct of at most
//! [`poolopt_ir::field_wise::MAX_FIELD_WISE_FIELDS`] scalar fields: the JIT holds such a local field by field already ([`poolopt_ir::field_wise`]),
//! and splitting it would add a copy per field and a `make` per store, work for every later
//! pass, the lowering and Cranelift, for the same machine code.
//!
//! **Rewrite.** With `s` split into `s_f0 … s_fn`:
//!
//! | before | after |
//! |---|---|
//! | `s = make S(a0, …)` | `s_f0 = copy a0` … |
//! | `x = getfield s.f` | `x = copy s_f` |
//! | `setfield s.f, x` | `s_f = copy x` |
//! | `s = copy t` (`t` split) | `s_f0 = copy t_f0` … |
//! | `s = copy t` (`t` whole) | `s_f0 = getfield t.f0` … |
//! | `t = copy s` (`t` whole) | `t = make S(s_f0, …)` |
//! | `s = get v[i]` | `s_fk = get v[i].fk` (checked as before), then `s_f = get.unchecked v[i].f` for the other fields read anywhere |
//! | `set v[i], s` / `push v, s` | `s_whole = make S(s_f0, …)`, then `set v[i], s_whole` / `push v, s_whole` |
//!
//! The `make` before a whole store is what the JIT already lowers field by field straight
//! into the element (docs/jit.md, "struct locals held field by field").
//!
//! **Soundness.** A struct local is its fields: every instruction that defines it defines all
//! of them (`make`, `copy`, `get`) or one (`setfield`), and every read reads one (`getfield`)
//! or all (`copy`, a whole store). The rewrite performs exactly those field reads and writes on
//! the field locals, which start zero like the struct's bytes (docs/ir.md §2), so every read
//! sees the value it saw before. Padding is not a field: no instruction can read it (a struct
//! over 8 bytes is never held as one integer), so not copying it changes nothing observable.
//! For a split `get`, the first field read carries the original check, with the original
//! vec, index and source location: it traps exactly when and where the whole read did,
//! before any field local is written; the later reads use the same vec and index with
//! nothing in between that could change either (the destinations are fresh field locals), so
//! `0 <= i < len(v)` still holds and they cannot fail. Fields never read anywhere in the
//! function are not loaded: their locals are never read.
//!
//! [`Module::packable`]: poolopt_ir::Module::packable

use super::names::{joined, Names};
use crate::analysis::liveness::live_after_in_block;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::field_wise::{field_wise_mention, field_wise_struct};
use poolopt_ir::{
    Block, Check, EntityRef, Function, Inst, InstData, InstKind, Local, LocalData, Module, Operand,
    StructId, Terminator, Type,
};

/// Structs with more fields than this stay whole.
pub const MAX_FIELDS: usize = 32;

/// The struct splitting pass.
pub struct StructSplit;

impl Pass for StructSplit {
    fn name(&self) -> &'static str {
        "struct-split"
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
        // Most functions have no struct local over 8 bytes: nothing to decide or report.
        let mut by_struct = ByStruct::new();
        let Some(first) = first_candidate(func, cx.module, &mut by_struct) else {
            return false;
        };
        let mut plan = Plan::new(func, cx.module, first, by_struct, cx.take_scratch());
        let mut any = false;
        let module = cx.module;
        for cand in &plan.cands {
            let data = &func.locals[cand.local];
            match &cand.verdict {
                Verdict::NotCandidate => {}
                Verdict::Whole(reason) => {
                    cx.missed_with(func, entry, data.loc, || {
                        format!(
                            "`{}` not split into fields: {}",
                            data.name,
                            reason.describe(module)
                        )
                    });
                }
                Verdict::Split(sid) => {
                    any = true;
                    let def = &cx.module.structs[*sid];
                    cx.applied_with(func, entry, data.loc, || {
                        format!(
                            "`{}` ({}, {} bytes) split into {} field locals",
                            data.name,
                            def.name,
                            def.size(),
                            def.fields.len()
                        )
                    });
                    cx.stat("structs_split", 1);
                }
            }
        }
        if !any {
            cx.give_scratch(plan.into_tables());
            return false;
        }
        plan.create_field_locals(func, cx.module);
        let blocks = func.layout.clone();
        // Per block, the split `get`s: (position of the first read, number of reads).
        let mut split_gets: Vec<(Block, Vec<(usize, usize)>)> = Vec::new();
        for block in blocks {
            let insts = std::mem::take(&mut func.blocks[block].insts);
            let mut out = Vec::with_capacity(insts.len());
            let mut gets = Vec::new();
            for inst in insts {
                let start = out.len();
                if plan.rewrite(func, inst, &mut out) {
                    gets.push((start, out.len() - start));
                }
            }
            func.blocks[block].insts = out;
            if !gets.is_empty() {
                split_gets.push((block, gets));
            }
        }
        cx.invalidate_dataflow();
        check_a_live_field(func, cx, &split_gets);
        cx.give_scratch(plan.into_tables());
        true
    }
}

/// Moves the check of each split `get` to a field read that is live after it, when the one
/// that carries it is not: `dead-local-elim` then removes the dead unchecked reads, and the
/// check stays on a read that is needed anyway. The checked read stays first of its group, so
/// no unchecked read runs before the check.
fn check_a_live_field(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    split_gets: &[(Block, Vec<(usize, usize)>)],
) {
    for (block, gets) in split_gets {
        let block = *block;
        // The reads of a group write distinct fresh locals and read none of them, so each
        // destination's liveness after the group is its liveness after its own read.
        let mut swaps = Vec::new();
        for &(start, len) in gets {
            let last = start + len - 1;
            if !dst_live_after(func, cx, block, start, last) {
                if let Some(i) =
                    (start + 1..start + len).find(|&i| dst_live_after(func, cx, block, i, last))
                {
                    swaps.push((start, i));
                }
            }
        }
        for (first, live_one) in swaps {
            let insts = &mut func.blocks[block].insts;
            insts.swap(first, live_one);
            let (a, b) = (insts[first], insts[live_one]);
            let check = set_check(&mut func.insts[b].kind, Check::Unchecked);
            set_check(&mut func.insts[a].kind, check);
        }
    }
}

/// Whether the destination of the instruction at position `i` of `block` is live after
/// position `last`. The liveness analysis is asked only when the block's code after `last`
/// leaves it open (a split field is usually read in the block that loads it); the swaps
/// already made in other blocks reorder reads of fresh locals and change no block's live-in
/// or live-out set, so the analysis computed now is the one of the function before them.
fn dst_live_after(
    func: &Function,
    cx: &mut PassContext<'_>,
    block: Block,
    i: usize,
    last: usize,
) -> bool {
    let Some(d) = func.insts[func.blocks[block].insts[i]].kind.def() else {
        return false;
    };
    live_after_in_block(func, block, last, d)
        .unwrap_or_else(|| cx.liveness(func).live_out(block).contains(d))
}

/// Sets the check of a `get` and returns the one it had.
fn set_check(kind: &mut InstKind, to: Check) -> Check {
    match kind {
        InstKind::VecGet { check, .. } => std::mem::replace(check, to),
        _ => to,
    }
}

/// What the pass decided for one local.
#[derive(Clone, Debug)]
enum Verdict {
    /// Not a struct local this pass considers (scalars, vecs, small structs).
    NotCandidate,
    /// A struct local that stays whole.
    Whole(WholeReason),
    /// Split into one local per field.
    Split(StructId),
}

/// Why a struct local stays whole.
#[derive(Clone, Debug)]
enum WholeReason {
    Parameter,
    NonScalarField(StructId, usize),
    TooManyFields(usize),
    CallArgument(poolopt_ir::FuncId),
    CallResult(poolopt_ir::FuncId),
    Returned,
    Popped,
    /// Only built, read or written by field and stored whole: the JIT holds it field by field
    /// already (`poolopt_ir::field_wise`), and splitting would only add copies.
    HeldFieldWise,
}

impl WholeReason {
    fn describe(&self, module: &Module) -> String {
        match *self {
            WholeReason::Parameter => "it is a parameter (structs are passed by reference)".into(),
            WholeReason::NonScalarField(s, f) => format!(
                "field `{}` of `{}` is not a scalar",
                module.structs[s].fields[f].name, module.structs[s].name
            ),
            WholeReason::TooManyFields(n) => {
                format!("its struct has {n} fields, more than the {MAX_FIELDS} split")
            }
            WholeReason::CallArgument(f) => {
                format!("it is passed whole to `{}`", module.funcs[f].name)
            }
            WholeReason::CallResult(f) => {
                format!(
                    "it is assigned whole by a call of `{}`",
                    module.funcs[f].name
                )
            }
            WholeReason::Returned => "it is returned whole".into(),
            WholeReason::Popped => "it is assigned whole by `pop`".into(),
            WholeReason::HeldFieldWise => {
                "it is only built, read or written by field and stored whole, which the JIT \
                 holds field by field already"
                    .into()
            }
        }
    }
}

/// How one local is mentioned, from [`Plan::new`]'s scan of the function.
#[derive(Clone, Default)]
struct LocalUse {
    /// Mentioned at all (assigned or read).
    mentioned: bool,
    /// Some mention bars the back end from holding it field by field.
    barred: bool,
    /// The first reason found why it must stay whole in memory.
    escape: Option<WholeReason>,
}

/// Calls `f` with what `pick` gives for each local `kind` mentions (assigned or read), when it
/// gives something, and whether that mention bars the local from being held field by field:
/// one walk over the locals ([`InstKind::for_each_local`], a single match) for what
/// [`for_each_barred`](poolopt_ir::field_wise::for_each_barred) and a walk of every mention
/// would find in two. The local the instruction allows ([`field_wise_mention`]) is worked out
/// only for a picked one: the scan picks the few candidates among the function's locals.
fn for_each_mention<T>(
    kind: &InstKind,
    mut pick: impl FnMut(Local) -> Option<T>,
    mut f: impl FnMut(T, bool),
) {
    let mut allowed = None;
    kind.for_each_local(|l| {
        if let Some(t) = pick(l) {
            let allowed = *allowed.get_or_insert_with(|| field_wise_mention(kind));
            f(t, Some(l) != allowed);
        }
    });
}

/// Per candidate to split, which of its fields the function reads, in one flat table: a
/// table per candidate cost an allocation (and a free) for each.
#[derive(Default)]
struct FieldsRead {
    /// Per candidate: where its fields start in `read` and how many (none for one not split).
    spans: Vec<(u32, u32)>,
    read: Vec<bool>,
}

impl FieldsRead {
    /// Nothing read yet, with room for the fields of every candidate whose verdict splits it.
    fn reset(&mut self, cands: &[Cand], module: &Module) {
        self.spans.clear();
        self.read.clear();
        for cand in cands {
            let start = self.read.len() as u32;
            if let Verdict::Split(s) = cand.verdict {
                let n = module.structs[s].fields.len();
                self.read.resize(self.read.len() + n, false);
            }
            self.spans.push((start, self.read.len() as u32));
        }
    }

    /// The fields of candidate `c` read (empty for one not split).
    fn of(&self, c: usize) -> &[bool] {
        match self.spans.get(c) {
            Some(&(a, b)) => &self.read[a as usize..b as usize],
            None => &[],
        }
    }

    fn of_mut(&mut self, c: usize) -> &mut [bool] {
        match self.spans.get(c) {
            Some(&(a, b)) => &mut self.read[a as usize..b as usize],
            None => &mut [],
        }
    }
}

/// No entry in [`Plan::slot`]: the local is no candidate.
const NONE: u32 = u32::MAX;

/// The entry of `l` in the candidates, by `slot` ([`Plan::slot`]), if it is one (a local made
/// by the pass is none).
fn cand_in(slot: &[u32], l: Local) -> Option<usize> {
    match slot.get(l.index()) {
        Some(&c) if c != NONE => Some(c as usize),
        _ => None,
    }
}

/// A local whose first verdict ([`first_verdict`]) is not [`Verdict::NotCandidate`]: only
/// these get a verdict, and only their mentions are recorded. A function has a few among
/// many locals, so the tables of the plan are per candidate, not per local.
#[derive(Clone)]
struct Cand {
    local: Local,
    verdict: Verdict,
    uses: LocalUse,
}

/// The decisions for one function, and the field locals of every split local.
struct Plan {
    /// Per local of the function as the pass found it: its entry in `cands`, or [`NONE`].
    slot: Vec<u32>,
    /// The candidates, in the order of their locals (the order of the remarks).
    cands: Vec<Cand>,
    /// The fields read anywhere in the function (all of them when the local is read whole),
    /// of the candidates to split only.
    read: FieldsRead,
    /// Per candidate: its field locals, in field order (none unless split).
    fields: Vec<Vec<Local>>,
    /// Per candidate: the whole temporary that a store of it is built in, once created.
    whole: Vec<Option<Local>>,
    /// The names of the function's locals, for fresh ones (filled when the first is needed).
    names: Option<Names>,
}

/// The tables of [`Plan::new`], kept from one function to the next
/// ([`PassContext::take_scratch`]): a function with a struct local over 8 bytes allocated
/// them, and freed them, for the usual verdict of no split. Every one is overwritten before
/// it is read.
#[derive(Default)]
struct Tables {
    slot: Vec<u32>,
    cands: Vec<Cand>,
    read: FieldsRead,
}

/// How many structs [`ByStruct`] keeps in place.
const FEW_STRUCTS: usize = 8;

/// The first verdicts of one function's struct locals, per struct ([`first_verdict`]): those
/// of the first [`FEW_STRUCTS`] structs of the module in place, the others in a vector. A
/// module has a few structs, and a vector for them cost every function with a struct local an
/// allocation and a free.
struct ByStruct {
    few: [Option<Verdict>; FEW_STRUCTS],
    more: Vec<Option<Verdict>>,
}

impl ByStruct {
    fn new() -> ByStruct {
        ByStruct {
            few: [const { None }; FEW_STRUCTS],
            more: Vec::new(),
        }
    }

    /// The verdict of struct `sid`, once judged.
    fn slot(&mut self, sid: StructId) -> &mut Option<Verdict> {
        match sid.index().checked_sub(FEW_STRUCTS) {
            None => &mut self.few[sid.index()],
            Some(i) => {
                if self.more.len() <= i {
                    self.more.resize(i + 1, None);
                }
                &mut self.more[i]
            }
        }
    }
}

/// The verdict on a local before looking at how it is used ([`candidate`]), judging each
/// struct once: it depends only on the struct (and whether the local is packed). `by_struct`
/// keeps the verdicts per struct. (Always inlined: it is asked of every local, most not
/// structs; called from two places, the compiler would otherwise make it a call.)
#[inline(always)]
fn first_verdict(data: &LocalData, module: &Module, by_struct: &mut ByStruct) -> Verdict {
    match data.ty {
        Type::Struct(sid) if !data.packed => by_struct
            .slot(sid)
            .get_or_insert_with(|| candidate(data, module))
            .clone(),
        _ => Verdict::NotCandidate,
    }
}

/// The first local of `func` whose first verdict is not [`Verdict::NotCandidate`], if any.
fn first_candidate(func: &Function, module: &Module, by_struct: &mut ByStruct) -> Option<usize> {
    func.locals.values().position(|data| {
        !matches!(
            first_verdict(data, module, by_struct),
            Verdict::NotCandidate
        )
    })
}

impl Plan {
    /// The plan for `func`, whose first candidate local is `first` ([`first_candidate`],
    /// which left its verdicts per struct in `by_struct`), in the storage of `tables`.
    fn new(
        func: &Function,
        module: &Module,
        first: usize,
        mut by_struct: ByStruct,
        tables: Tables,
    ) -> Plan {
        let Tables {
            mut slot,
            mut cands,
            mut read,
        } = tables;
        slot.clear();
        slot.resize(func.locals.len(), NONE);
        cands.clear();
        for (i, data) in func.locals.values().enumerate().skip(first) {
            let verdict = first_verdict(data, module, &mut by_struct);
            if !matches!(verdict, Verdict::NotCandidate) {
                slot[i] = cands.len() as u32;
                cands.push(Cand {
                    local: Local::new(i),
                    verdict,
                    uses: LocalUse::default(),
                });
            }
        }
        let cand = |l: Local| cand_in(&slot, l);
        // One scan: which candidates are mentioned at all (one nobody mentions is
        // dead-local-elim's, not worth a remark), which escape whole (and why), which fields
        // are read; and, per candidate, whether some mention bars the back end from holding it
        // field by field (see `poolopt_ir::field_wise`; parameters are barred by their
        // escape). No other local's mentions matter.
        for &p in &func.params {
            if let Some(c) = cand(p) {
                cands[c].uses.escape = Some(WholeReason::Parameter);
            }
        }
        read.reset(&cands, module);
        for &block in &func.layout {
            let data = &func.blocks[block];
            for &inst in &data.insts {
                let kind = &func.insts[inst].kind;
                for_each_mention(kind, cand, |c, barred| {
                    let u = &mut cands[c].uses;
                    u.mentioned = true;
                    u.barred |= barred;
                });
                let mut escape = |l: Local, why: WholeReason| {
                    if let Some(c) = cand(l) {
                        cands[c].uses.escape.get_or_insert(why);
                    }
                };
                match kind {
                    InstKind::Call { dst, func: f, args } => {
                        for l in args.iter().filter_map(|a| a.as_local()) {
                            escape(l, WholeReason::CallArgument(*f));
                        }
                        if let Some(d) = *dst {
                            escape(d, WholeReason::CallResult(*f));
                        }
                    }
                    InstKind::VecPop { dst: Some(d), .. } => escape(*d, WholeReason::Popped),
                    InstKind::GetField { src, field, .. } => {
                        if let Some(c) = cand(*src) {
                            if let Some(r) = read.of_mut(c).get_mut(*field as usize) {
                                *r = true;
                            }
                        }
                    }
                    // Read whole: every field.
                    InstKind::Copy {
                        src: Operand::Local(l),
                        ..
                    }
                    | InstKind::VecSet {
                        value: Operand::Local(l),
                        field: None,
                        ..
                    }
                    | InstKind::VecPush {
                        value: Operand::Local(l),
                        ..
                    } => {
                        if let Some(c) = cand(*l) {
                            read.of_mut(c).fill(true);
                        }
                    }
                    _ => {}
                }
            }
            match data.terminator {
                Some(Terminator::Ret(Some(Operand::Local(l)))) => {
                    if let Some(c) = cand(l) {
                        let u = &mut cands[c].uses;
                        u.mentioned = true;
                        u.escape.get_or_insert(WholeReason::Returned);
                    }
                }
                Some(Terminator::BrIf {
                    cond: Operand::Local(l),
                    ..
                }) => {
                    if let Some(c) = cand(l) {
                        cands[c].uses.mentioned = true;
                    }
                }
                _ => {}
            }
        }
        for Cand {
            verdict: v,
            uses: u,
            ..
        } in &mut cands
        {
            match (&v, &u.escape) {
                _ if !u.mentioned => *v = Verdict::NotCandidate,
                (Verdict::Split(_), Some(why)) => *v = Verdict::Whole(why.clone()),
                (Verdict::Split(sid), None) if !u.barred && field_wise_struct(module, *sid) => {
                    *v = Verdict::Whole(WholeReason::HeldFieldWise)
                }
                _ => {}
            }
        }
        // The tables of the rewrite are made by `create_field_locals`, only when some local
        // is split.
        Plan {
            slot,
            cands,
            read,
            fields: Vec::new(),
            whole: Vec::new(),
            names: None,
        }
    }

    /// The storage of the per-local tables, for the next function.
    fn into_tables(self) -> Tables {
        Tables {
            slot: self.slot,
            cands: self.cands,
            read: self.read,
        }
    }

    /// The entry of `l` in [`Plan::cands`], if it is a candidate ([`cand_in`]).
    fn cand(&self, l: Local) -> Option<usize> {
        cand_in(&self.slot, l)
    }

    fn split_struct(&self, l: Local) -> Option<StructId> {
        match self.cands[self.cand(l)?].verdict {
            Verdict::Split(s) => Some(s),
            _ => None,
        }
    }

    /// The field locals of `l` (none unless it is split).
    fn field_locals(&self, l: Local) -> &[Local] {
        self.cand(l).map_or(&[], |c| &self.fields[c])
    }

    fn create_field_locals(&mut self, func: &mut Function, module: &Module) {
        let n = self.cands.len();
        self.fields = vec![Vec::new(); n];
        self.whole = vec![None; n];
        let names = self.names.get_or_insert_with(|| Names::of(func));
        for (i, cand) in self.cands.iter().enumerate() {
            let Verdict::Split(sid) = &cand.verdict else {
                continue;
            };
            let local = cand.local;
            let (base, loc) = {
                let d = &func.locals[local];
                (d.name.clone(), d.loc)
            };
            let fields = module.structs[*sid]
                .fields
                .iter()
                .map(|f| {
                    let name = names.local(joined(&base, &f.name));
                    func.locals.push(LocalData {
                        name,
                        ty: f.ty,
                        packed: false,
                        loc,
                    })
                })
                .collect();
            self.fields[i] = fields;
        }
    }

    /// The whole temporary of split local `s` (created on first use).
    fn whole_temp(&mut self, func: &mut Function, s: Local, sid: StructId) -> Local {
        let c = self.cand(s).expect("a split local is a candidate");
        if let Some(w) = self.whole[c] {
            return w;
        }
        let names = self.names.get_or_insert_with(|| Names::of(func));
        let data = &func.locals[s];
        let (name, loc) = (names.local(joined(&data.name, "whole")), data.loc);
        let w = func.locals.push(LocalData {
            name,
            ty: Type::Struct(sid),
            packed: false,
            loc,
        });
        self.whole[c] = Some(w);
        w
    }

    /// Appends to `out` what `inst` becomes; true when that is a split `get` (only the reads of
    /// its fields).
    fn rewrite(&mut self, func: &mut Function, inst: Inst, out: &mut Vec<Inst>) -> bool {
        let split = |l: &Local| self.split_struct(*l).is_some();
        let mentions_split = match &func.insts[inst].kind {
            InstKind::Copy {
                dst,
                src: Operand::Local(src),
            } => split(dst) || split(src),
            InstKind::Make { dst, .. } | InstKind::SetField { dst, .. } => split(dst),
            InstKind::GetField { src, .. } => split(src),
            InstKind::VecGet {
                dst, field: None, ..
            } => split(dst),
            InstKind::VecSet {
                value: Operand::Local(l),
                field: None,
                ..
            }
            | InstKind::VecPush {
                value: Operand::Local(l),
                ..
            } => split(l),
            _ => false,
        };
        if !mentions_split {
            out.push(inst);
            return false;
        }
        let InstData { kind, loc } = func.insts[inst].clone();
        let mut emit = |func: &mut Function, kind: InstKind| out.push(func.make_inst(kind, loc));
        match kind {
            InstKind::Copy {
                dst,
                src: Operand::Local(src),
            } if self.split_struct(dst).is_some() || self.split_struct(src).is_some() => {
                match (self.split_struct(dst), self.split_struct(src)) {
                    (Some(_), Some(_)) => {
                        if dst != src {
                            let pairs: Vec<(Local, Local)> = self
                                .field_locals(dst)
                                .iter()
                                .copied()
                                .zip(self.field_locals(src).iter().copied())
                                .collect();
                            for (d, s) in pairs {
                                emit(func, copy(d, Operand::Local(s)));
                            }
                        }
                    }
                    (Some(_), None) => {
                        for (k, &d) in self.field_locals(dst).iter().enumerate() {
                            emit(
                                func,
                                InstKind::GetField {
                                    dst: d,
                                    src,
                                    field: k as u32,
                                },
                            );
                        }
                    }
                    (None, Some(sid)) => {
                        let fields = self.field_operands(src);
                        emit(
                            func,
                            InstKind::Make {
                                dst,
                                ty: sid,
                                fields,
                            },
                        );
                    }
                    (None, None) => unreachable!("guarded above"),
                }
            }
            InstKind::Make { dst, fields, .. } if self.split_struct(dst).is_some() => {
                for (k, op) in fields.into_iter().enumerate() {
                    emit(func, copy(self.field_locals(dst)[k], op));
                }
            }
            InstKind::GetField { dst, src, field } if self.split_struct(src).is_some() => {
                let f = self.field_locals(src)[field as usize];
                emit(func, copy(dst, Operand::Local(f)));
            }
            InstKind::SetField { dst, field, value } if self.split_struct(dst).is_some() => {
                let f = self.field_locals(dst)[field as usize];
                emit(func, copy(f, value));
            }
            InstKind::VecGet {
                dst,
                vec,
                index,
                field: None,
                check,
            } if self.split_struct(dst).is_some() => {
                let read = self.read.of(self.cand(dst).expect("a split local"));
                let first = read.iter().position(|&r| r).unwrap_or(0);
                let order = std::iter::once(first)
                    .chain((0..read.len()).filter(|&k| k != first && read[k]))
                    .collect::<Vec<_>>();
                for (n, k) in order.into_iter().enumerate() {
                    emit(
                        func,
                        InstKind::VecGet {
                            dst: self.field_locals(dst)[k],
                            vec,
                            index,
                            field: Some(k as u32),
                            check: if n == 0 { check } else { Check::Unchecked },
                        },
                    );
                }
                return true;
            }
            InstKind::VecSet {
                vec,
                index,
                field: None,
                value: Operand::Local(s),
                check,
            } if self.split_struct(s).is_some() => {
                let w = self.materialize(func, s, &mut emit);
                emit(
                    func,
                    InstKind::VecSet {
                        vec,
                        index,
                        field: None,
                        value: Operand::Local(w),
                        check,
                    },
                );
            }
            InstKind::VecPush {
                vec,
                value: Operand::Local(s),
            } if self.split_struct(s).is_some() => {
                let w = self.materialize(func, s, &mut emit);
                emit(
                    func,
                    InstKind::VecPush {
                        vec,
                        value: Operand::Local(w),
                    },
                );
            }
            _ => out.push(inst),
        }
        false
    }

    /// Emits `s_whole = make S(s_f0, ...)` and returns `s_whole`.
    fn materialize(
        &mut self,
        func: &mut Function,
        s: Local,
        emit: &mut impl FnMut(&mut Function, InstKind),
    ) -> Local {
        let sid = self.split_struct(s).expect("a split local");
        let w = self.whole_temp(func, s, sid);
        let fields = self.field_operands(s);
        emit(
            func,
            InstKind::Make {
                dst: w,
                ty: sid,
                fields,
            },
        );
        w
    }

    fn field_operands(&self, s: Local) -> Vec<Operand> {
        self.field_locals(s)
            .iter()
            .map(|&f| Operand::Local(f))
            .collect()
    }
}

fn copy(dst: Local, src: Operand) -> InstKind {
    InstKind::Copy { dst, src }
}

/// The verdict before looking at how the local is used.
fn candidate(data: &LocalData, module: &Module) -> Verdict {
    let Type::Struct(sid) = data.ty else {
        return Verdict::NotCandidate;
    };
    if data.packed || module.packing(sid).is_ok() {
        return Verdict::NotCandidate;
    }
    let def = &module.structs[sid];
    if let Some(f) = def.fields.iter().position(|f| f.ty.as_scalar().is_none()) {
        return Verdict::Whole(WholeReason::NonScalarField(sid, f));
    }
    if def.fields.len() > MAX_FIELDS {
        return Verdict::Whole(WholeReason::TooManyFields(def.fields.len()));
    }
    Verdict::Split(sid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use poolopt_ir::field_wise::for_each_barred;
    use std::collections::BTreeSet;

    /// A verdict kept per struct comes back for that struct only, in place or past the few.
    #[test]
    fn by_struct_keeps_one_verdict_per_struct() {
        let mut by_struct = ByStruct::new();
        let ids = [0, FEW_STRUCTS - 1, FEW_STRUCTS, 3 * FEW_STRUCTS];
        for &i in &ids {
            assert!(by_struct.slot(StructId::new(i)).is_none());
            *by_struct.slot(StructId::new(i)) = Some(Verdict::Whole(WholeReason::TooManyFields(i)));
        }
        for &i in &ids {
            let got = by_struct.slot(StructId::new(i)).clone();
            assert!(
                matches!(got, Some(Verdict::Whole(WholeReason::TooManyFields(n))) if n == i),
                "{i}: {got:?}"
            );
        }
        assert!(by_struct.slot(StructId::new(FEW_STRUCTS + 1)).is_none());
    }

    /// `for_each_mention` reports, for every instruction of the repository's programs, the
    /// locals `for_each_barred` bars as barred, and every other local the instruction assigns
    /// or reads as not barred.
    #[test]
    fn mentions_are_the_uses_and_definition_with_field_wise_bars() {
        let mut checked = 0;
        for func in crate::test_programs::functions() {
            for &block in &func.layout {
                for &inst in &func.blocks[block].insts {
                    let kind = &func.insts[inst].kind;
                    let (mut barred, mut mentioned) = (BTreeSet::new(), BTreeSet::new());
                    for_each_barred(kind, |l| {
                        barred.insert(l);
                    });
                    kind.for_each_use(|op| mentioned.extend(op.as_local()));
                    mentioned.extend(kind.def());
                    let (mut got_barred, mut got_mentioned) = (BTreeSet::new(), BTreeSet::new());
                    for_each_mention(kind, Some, |l, bars| {
                        got_mentioned.insert(l);
                        if bars {
                            got_barred.insert(l);
                        }
                    });
                    assert_eq!(got_barred, barred, "{}: {kind:?}", func.name);
                    assert_eq!(got_mentioned, mentioned, "{}: {kind:?}", func.name);
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked} instructions");
    }
}
