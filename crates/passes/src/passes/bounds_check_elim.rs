//! `bounds-check-elim`: turns checked vec operations into unchecked ones where the fact
//! analysis ([`crate::analysis::facts`]) proves the check cannot fail.
//!
//! - `pop v` becomes `pop.unchecked v` when `len(v) > 0` holds just before it.
//! - `get v[i]` / `set v[i], x` (element or field) become unchecked when `i >= 0` and
//!   `i < len(v)` hold just before them; with a constant index `k`, when `len(v) > k` holds.
//!
//! Soundness: the fact analysis is a must-analysis — a fact holds at a point only if it holds on
//! every path from the entry to that point, with every instruction that may change a value the
//! fact depends on (assignment of a local it mentions; push/pop/drop of a vec that may alias,
//! i.e. has the same type; any call) killing it. So when the facts hold just before the
//! operation, its precondition holds on every execution that reaches it, the check can never
//! fire, and dropping it changes no result and no trap. Every check kept gets a missed remark
//! saying which fact is missing and, where it can tell, why.

use crate::analysis::facts::{Fact, FactAnalysis, FactSet};
use crate::analysis::Cfg;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_inst, display_terminator, Block, Check, Function, Inst, InstKind, Local, Module,
    Operand,
};

/// The pass.
pub struct BoundsCheckElim;

/// What a checked operation needs.
enum Need {
    /// `pop v`: `len(v) > 0`.
    Pop { vec: Local },
    /// `v[i]`: `i >= 0` and `i < len(v)`.
    Index { vec: Local, i: Local },
    /// `v[k]`: `len(v) > k`.
    Const { vec: Local, k: i64 },
}

fn need_of(kind: &InstKind) -> Option<Need> {
    match *kind {
        InstKind::VecPop {
            vec,
            check: Check::Checked,
            ..
        } => Some(Need::Pop { vec }),
        InstKind::VecGet {
            vec,
            index,
            check: Check::Checked,
            ..
        }
        | InstKind::VecSet {
            vec,
            index,
            check: Check::Checked,
            ..
        } => Some(match index {
            Operand::Local(i) => Need::Index { vec, i },
            Operand::Const(k) => Need::Const { vec, k },
        }),
        _ => None,
    }
}

/// A decision about one checked operation.
struct Decision {
    inst: Inst,
    remove: bool,
    message: String,
}

impl Pass for BoundsCheckElim {
    fn name(&self) -> &'static str {
        "bounds-check-elim"
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O1
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        let fa = FactAnalysis::compute(func, cx.cfg(func));
        let cfg = cx.cfg(func).clone();
        let module = cx.module;
        let mut decisions: Vec<(Block, Decision)> = Vec::new();
        for &block in &func.layout {
            if fa.block_in(block).is_none() {
                continue; // unreachable: nothing is known, and nothing runs
            }
            let ctx = Ctx {
                func,
                module,
                fa: &fa,
                cfg: &cfg,
                block,
            };
            // Facts killed so far in this block, with the instruction that killed them.
            let mut killed: Vec<(Fact, Inst)> = Vec::new();
            fa.replay(func, block, |idx, inst, before, after| {
                if let Some(need) = need_of(func.inst(inst)) {
                    decisions.push((block, ctx.decide(idx, inst, &need, before, &killed)));
                }
                for f in before.removed_in(after) {
                    killed.push((f, inst));
                }
            });
        }
        let mut changed = false;
        for (block, d) in decisions {
            let loc = func.insts[d.inst].loc;
            if d.remove {
                match &mut func.insts[d.inst].kind {
                    InstKind::VecPop { check, .. }
                    | InstKind::VecGet { check, .. }
                    | InstKind::VecSet { check, .. } => *check = Check::Unchecked,
                    _ => continue,
                }
                changed = true;
                cx.stat("checks_removed", 1);
                cx.applied(func, block, loc, d.message);
            } else {
                cx.stat("checks_kept", 1);
                cx.missed(func, block, loc, d.message);
            }
        }
        changed
    }
}

struct Ctx<'a> {
    func: &'a Function,
    module: &'a Module,
    fa: &'a FactAnalysis,
    cfg: &'a Cfg,
    block: Block,
}

/// Whether `have` proves `need` (the same fact, or a stronger `len(v) > k` bound).
fn implies(have: &Fact, need: &Fact) -> bool {
    match (*have, *need) {
        (Fact::LenGt { v, k }, Fact::LenGt { v: v2, k: k2 }) => v == v2 && k >= k2,
        _ => have == need,
    }
}

fn line_of(func: &Function, inst: Inst) -> String {
    let loc = func.insts[inst].loc;
    if loc.is_known() {
        format!(" (line {})", loc.line)
    } else {
        String::new()
    }
}

impl Ctx<'_> {
    fn name(&self, l: Local) -> &str {
        self.func.local_name(l)
    }

    fn inst_text(&self, inst: Inst) -> String {
        display_inst(self.module, self.func, inst)
    }

    fn decide(
        &self,
        idx: usize,
        inst: Inst,
        need: &Need,
        before: &FactSet,
        killed: &[(Fact, Inst)],
    ) -> Decision {
        let keep = |message: String| Decision {
            inst,
            remove: false,
            message,
        };
        let remove = |message: String| Decision {
            inst,
            remove: true,
            message,
        };
        match *need {
            Need::Pop { vec } => {
                let fact = Fact::LenGt { v: vec, k: 0 };
                if before.holds(&fact) {
                    return remove(format!(
                        "pop check removed: len({}) > 0 holds on every path here{}",
                        self.name(vec),
                        self.origins(idx, &[fact])
                    ));
                }
                if let Some((w, k)) = before.len_gt_vecs().find(|&(w, _)| w != vec) {
                    return keep(format!(
                        "pop check kept: only len({}) > {k} is known, and `{}` is not known to be `{}`",
                        self.name(w),
                        self.name(w),
                        self.name(vec)
                    ));
                }
                keep(format!(
                    "pop check kept: nothing proves len({}) > 0 here{}",
                    self.name(vec),
                    self.why_missing(idx, &fact, killed)
                ))
            }
            Need::Const { vec, k } => {
                if k < 0 {
                    return keep(format!(
                        "index check kept: index {k} is negative; the access always traps"
                    ));
                }
                let fact = Fact::LenGt { v: vec, k };
                if before.holds(&fact) {
                    return remove(format!(
                        "index check removed: len({}) > {k} holds on every path here{}",
                        self.name(vec),
                        self.origins(idx, &[fact])
                    ));
                }
                keep(format!(
                    "index check kept: nothing proves len({}) > {k} here{}",
                    self.name(vec),
                    self.why_missing(idx, &fact, killed)
                ))
            }
            Need::Index { vec, i } => {
                let nn = Fact::NonNeg(i);
                let lt = Fact::LtLen { i, v: vec };
                let (has_nn, has_lt) = (before.holds(&nn), before.holds(&lt));
                let (iname, vname) = (self.name(i), self.name(vec));
                if has_nn && has_lt {
                    return remove(format!(
                        "index check removed: 0 <= {iname} < len({vname}) holds on every path here{}",
                        self.origins(idx, &[nn, lt])
                    ));
                }
                if !has_nn && !has_lt {
                    if let Some(origin) = self.index_origin(idx, i) {
                        return keep(format!("index check kept: {origin}; nothing bounds it"));
                    }
                }
                if !has_lt {
                    if let Some(w) = before.lt_len_vecs(i).find(|&w| w != vec) {
                        return keep(format!(
                            "index check kept: only `{iname} < len({})` is known, and `{}` is not known to be `{vname}`",
                            self.name(w),
                            self.name(w)
                        ));
                    }
                    let what = if has_nn {
                        format!("`{iname} < len({vname})`")
                    } else {
                        format!("`0 <= {iname} < len({vname})`")
                    };
                    return keep(format!(
                        "index check kept: nothing proves {what} here{}",
                        self.why_missing(idx, &lt, killed)
                    ));
                }
                keep(format!(
                    "index check kept: `{iname}` may be negative (only `{iname} < len({vname})` is known){}",
                    self.why_missing(idx, &nn, killed)
                ))
            }
        }
    }

    /// Why `fact` does not hold before instruction `idx` of the block: an instruction of this
    /// block killed it, or it holds on some incoming paths only. Empty when unknown.
    fn why_missing(&self, _idx: usize, fact: &Fact, killed: &[(Fact, Inst)]) -> String {
        if let Some(&(_, inst)) = killed.iter().rev().find(|(f, _)| implies(f, fact)) {
            let kind = self.func.inst(inst);
            let text = self.inst_text(inst);
            let line = line_of(self.func, inst);
            let index_redefined =
                matches!(*fact, Fact::NonNeg(i) | Fact::LtLen { i, .. } if kind.def() == Some(i));
            return match kind {
                _ if index_redefined => {
                    format!("; it held, but `{text}`{line} reassigns the index after the test")
                }
                InstKind::VecPush { .. }
                | InstKind::VecPop { .. }
                | InstKind::VecDrop { .. }
                | InstKind::Call { .. } => {
                    format!("; it held, but `{text}`{line} may change the length")
                }
                _ => format!("; it held, but `{text}`{line} invalidates it"),
            };
        }
        let Some(start) = self.fa.block_in(self.block) else {
            return String::new();
        };
        if start.holds(fact) {
            return String::new();
        }
        let mut with = Vec::new();
        let mut without = Vec::new();
        for &p in self.cfg.preds(self.block) {
            match self.fa.edge(self.func, p, self.block) {
                Some(e) if e.holds(fact) => with.push(p),
                Some(_) => without.push(p),
                None => {}
            }
        }
        if let (Some(&a), Some(&b)) = (with.first(), without.first()) {
            return format!(
                "; it holds on the path from `{}` but not on the path from `{}`",
                self.func.blocks[a].name, self.func.blocks[b].name
            );
        }
        String::new()
    }

    /// Where the facts come from, when a single-predecessor chain leads to the instruction or
    /// branch that established them: ` (i >= 0 from ...; ...)`. Empty when unknown.
    fn origins(&self, idx: usize, facts: &[Fact]) -> String {
        let parts: Vec<String> = facts
            .iter()
            .filter_map(|f| {
                self.origin(idx, f)
                    .map(|o| format!("{} {o}", f.describe(self.func)))
            })
            .collect();
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join("; "))
        }
    }

    fn origin(&self, idx: usize, fact: &Fact) -> Option<String> {
        let mut block = self.block;
        let mut limit = idx;
        for _ in 0..32 {
            let states = self.fa.facts_before_each(self.func, block);
            let insts = &self.func.blocks[block].insts;
            for j in (0..limit.min(insts.len())).rev() {
                if !states[j].holds(fact) && states[j + 1].holds(fact) {
                    let inst = insts[j];
                    return Some(format!(
                        "from `{}`{}",
                        self.inst_text(inst),
                        line_of(self.func, inst)
                    ));
                }
            }
            let preds: Vec<Block> = self
                .cfg
                .preds(block)
                .iter()
                .copied()
                .filter(|&p| self.fa.block_in(p).is_some())
                .collect();
            let [p] = preds[..] else { return None };
            if p == block {
                return None;
            }
            let out = self.fa.block_out(p)?;
            if !out.holds(fact) {
                let term = self.func.terminator(p)?;
                let loc = self.func.blocks[p].term_loc;
                let line = if loc.is_known() {
                    format!(" (line {})", loc.line)
                } else {
                    String::new()
                };
                return Some(format!(
                    "from `{}` in `{}`{line}",
                    display_terminator(self.func, term),
                    self.func.blocks[p].name
                ));
            }
            block = p;
            limit = self.func.blocks[p].insts.len();
        }
        None
    }

    /// Where the index `i` came from, when that explains why nothing bounds it: popped from a
    /// vec, loaded from a vec, returned by a call, or a parameter (copies are followed).
    fn index_origin(&self, idx: usize, i: Local) -> Option<String> {
        let func = self.func;
        let iname = self.name(i);
        let mut cur = i;
        let mut local_scan = Some(idx);
        for _ in 0..8 {
            let mut def: Option<Inst> = None;
            if let Some(limit) = local_scan {
                def = func.blocks[self.block].insts[..limit]
                    .iter()
                    .rev()
                    .copied()
                    .find(|&d| func.inst(d).def() == Some(cur));
            }
            if def.is_none() {
                let defs: Vec<Inst> = func
                    .layout
                    .iter()
                    .flat_map(|&b| func.blocks[b].insts.iter().copied())
                    .filter(|&d| func.inst(d).def() == Some(cur))
                    .collect();
                let is_param = func.params.contains(&cur);
                match (defs.as_slice(), is_param) {
                    ([], true) => return Some(format!("`{iname}` is a parameter")),
                    ([d], false) => def = Some(*d),
                    _ => return None,
                }
            }
            local_scan = None;
            match *func.inst(def?) {
                InstKind::Copy {
                    src: Operand::Local(j),
                    ..
                } => cur = j,
                InstKind::VecPop { vec, .. } => {
                    return Some(format!("`{iname}` was popped from `{}`", self.name(vec)))
                }
                InstKind::VecGet { vec, .. } => {
                    return Some(format!("`{iname}` was loaded from `{}`", self.name(vec)))
                }
                InstKind::Call { func: callee, .. } => {
                    let callee = self
                        .module
                        .funcs
                        .get(callee)
                        .map_or_else(|| callee.to_string(), |f| f.name.clone());
                    return Some(format!("`{iname}` is the result of a call to `{callee}`"));
                }
                _ => return None,
            }
        }
        None
    }
}
