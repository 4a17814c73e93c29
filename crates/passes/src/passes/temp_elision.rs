//! `temp-elision`: removes temporaries that only carry a value to its one reader, for scalars
//! and structs alike (a 128-byte element read into a temporary and copied on is then copied
//! once, not twice).
//!
//! Two forms, both inside one block, with `t`'s definition at position `i` and its reader at
//! position `j > i`:
//!
//! - **Forward**: `t = <producer>` ... `d = copy t` becomes `d = <producer>` (the copy is
//!   deleted). Conditions: nothing mentions `t` strictly between `i` and `j`; `t` is dead after
//!   the copy; nothing reads or writes `d` strictly between `i` and `j`; the producer is not a
//!   `setfield` (which reads its destination) and `d != t`. The producer may read `d`: every
//!   instruction reads its operands before it writes its destination (`t = get v[d]` becomes
//!   `d = get v[d]`).
//! - **Backward**: `t = copy x` ... `use(t)` becomes `use(x)` (the copy is deleted), for any
//!   reading position (push or set value, call argument, `make` field, `ret`, `brif`, any
//!   operand; not `setfield`'s implicit read of its struct). Conditions: nothing mentions `t`
//!   strictly between `i` and `j`; after `j`, `t`'s old value is dead (`t` is not live after
//!   `j`, or `j` overwrites it); `x` (a local) is not redefined strictly between `i` and `j`.
//!   A constant `x` is substituted only where the verifier accepts a constant.
//!
//! Soundness. No instruction moves: the pass only retargets a destination or renames an operand
//! in place and deletes a copy, so no memory read crosses a write, and every trap still happens
//! at the same point with the same operands. Forward: the producer computes the same value from
//! the same operands as before (it still reads them before writing); `d` receives that value
//! earlier, but no instruction between `i` and `j` reads `d` (so the earlier write is invisible,
//! and a trap in between ends the run, whose locals nobody can observe) and none writes `d` (so
//! `d` holds the same value after `j` as before); `t` is no longer written, but its value from
//! `i` was read only by the deleted copy, so every remaining read of `t` sees what it saw before.
//! Backward: `x` holds the value copied into `t` until `j` (no redefinition in between), so
//! `use(x)` reads what `use(t)` read; `t` is no longer written at `i`, but its value from `i` was
//! read only at `j`. Liveness at block boundaries does not change under either rewrite, so the
//! block-entry liveness computed once up front stays valid while a block is rewritten.

use super::copy_prop::{substitute_inst, substitute_term};
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_inst_kind, display_operand, display_terminator, Block, Function, InstKind, Local,
    Operand,
};
use rustc_hash::FxHashMap as HashMap;

/// The temporary elision pass.
pub struct TempElision;

impl Pass for TempElision {
    fn name(&self) -> &'static str {
        "temp-elision"
    }

    fn preserves_cfg(&self) -> bool {
        true
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O2
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        let blocks: Vec<Block> = cx.cfg(func).rpo().to_vec();
        let live_out: Vec<_> = {
            let live = cx.liveness(func);
            blocks.iter().map(|&b| live.live_out(b).to_set()).collect()
        };
        let mut changed = false;
        for (block, out) in blocks.into_iter().zip(live_out) {
            changed |= elide_in_block(func, cx, block, out);
        }
        changed
    }
}

/// Locals read by the renamable operand positions of `kind` (`setfield`'s implicit read of its
/// struct excluded), each once, in order.
fn renamable_locals(kind: &InstKind) -> Vec<Local> {
    let mut out = Vec::new();
    kind.clone().for_each_use_mut(|op| {
        if let Operand::Local(l) = *op {
            if !out.contains(&l) {
                out.push(l);
            }
        }
    });
    out
}

/// Everything a local is mentioned by (read or written) in `kind`.
fn mentions(kind: &InstKind, mut f: impl FnMut(Local)) {
    kind.for_each_use(|op| {
        if let Operand::Local(l) = op {
            f(l)
        }
    });
    if let Some(d) = kind.def() {
        f(d);
    }
}

/// Whether `kind` overwrites all of `local` (a `setfield` only updates part of it).
fn fully_defines(kind: &InstKind, local: Local) -> bool {
    kind.def() == Some(local) && !matches!(kind, InstKind::SetField { .. })
}

struct BlockState {
    /// Position of the last (remaining) instruction mentioning a local.
    last_mention: HashMap<Local, usize>,
    /// Position of the last instruction writing a local (`setfield` included).
    last_def: HashMap<Local, usize>,
    deleted: Vec<bool>,
}

impl BlockState {
    fn record(&mut self, kind: &InstKind, pos: usize) {
        mentions(kind, |l| {
            self.last_mention.insert(l, pos);
        });
        if let Some(d) = kind.def() {
            self.last_def.insert(d, pos);
        }
    }
}

fn elide_in_block(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    block: Block,
    live_out: crate::analysis::LocalSet,
) -> bool {
    let insts = func.blocks[block].insts.clone();
    let n = insts.len();

    // live_after[j]: for each local read at position j (n = the terminator), whether it is live
    // right after j, computed on the code as it is now. Rewrites only touch positions at or
    // before the one being examined, so the facts about later code stay true.
    let mut live_after: Vec<Vec<(Local, bool)>> = vec![Vec::new(); n + 1];
    let mut live = live_out;
    if let Some(Operand::Local(l)) = func.blocks[block]
        .terminator
        .as_ref()
        .and_then(|t| t.used_operand())
    {
        live_after[n].push((l, live.contains(l)));
        live.insert(l);
    }
    for j in (0..n).rev() {
        let kind = &func.insts[insts[j]].kind;
        kind.for_each_use(|op| {
            if let Operand::Local(l) = op {
                live_after[j].push((l, live.contains(l)));
            }
        });
        if let Some(d) = kind.def() {
            if fully_defines(kind, d) {
                live.remove(d);
            }
        }
        kind.for_each_use(|op| {
            if let Operand::Local(l) = op {
                live.insert(l);
            }
        });
    }
    let live_after_at = |j: usize, l: Local| live_after[j].iter().any(|&(x, live)| x == l && live);

    let mut st = BlockState {
        last_mention: HashMap::default(),
        last_def: HashMap::default(),
        deleted: vec![false; n],
    };
    let mut changed = false;

    for j in 0..=n {
        // The reader at j: an instruction, or (j == n) the terminator.
        let kind_j = if j < n {
            Some(func.insts[insts[j]].kind.clone())
        } else {
            None
        };

        // Forward form at a copy `d = copy t`.
        if let Some(InstKind::Copy {
            dst: d,
            src: Operand::Local(t),
        }) = kind_j
        {
            if d != t {
                match forward(func, &insts, &st, d, t, live_after_at(j, t)) {
                    Forward::Apply(i) => {
                        let producer = &mut func.insts[insts[i]].kind;
                        if let Some(dst) = producer.def_mut() {
                            *dst = d;
                        }
                        st.deleted[j] = true;
                        st.last_mention.insert(d, i);
                        st.last_def.insert(d, i);
                        let rhs = rhs_text(func, cx, insts[i]);
                        let msg = || {
                            format!(
                                "temporary `{}` elided: `{}` now writes `{}` directly",
                                func.locals[t].name, rhs, func.locals[d].name
                            )
                        };
                        let loc = func.insts[insts[j]].loc;
                        cx.applied_with(func, block, loc, msg);
                        cx.stat("temps_elided", 1);
                        changed = true;
                        continue;
                    }
                    Forward::Missed(reason) => {
                        let loc = func.insts[insts[j]].loc;
                        let msg = || format!("temporary `{}` kept: {reason}", func.locals[t].name);
                        cx.missed_with(func, block, loc, msg);
                    }
                    Forward::NotApplicable => {}
                }
            }
        }

        // Backward form: each temporary read at j whose definition is `t = copy x`.
        let readers = match &kind_j {
            Some(k) => renamable_locals(k),
            None => func.blocks[block]
                .terminator
                .as_ref()
                .and_then(|t| t.used_operand())
                .and_then(|o| o.as_local())
                .into_iter()
                .collect(),
        };
        for t in readers {
            let Some(&i) = st.last_mention.get(&t) else {
                continue;
            };
            if st.deleted[i] || st.last_def.get(&t) != Some(&i) {
                continue;
            }
            let InstKind::Copy { dst, src: x } = func.insts[insts[i]].kind else {
                continue;
            };
            if dst != t || x == Operand::Local(t) {
                continue;
            }
            let redefined_by_j = kind_j.as_ref().is_some_and(|k| fully_defines(k, t));
            let reason = if live_after_at(j, t) && !redefined_by_j {
                Some("it is used more than once".to_string())
            } else if let Some(xl) = x.as_local().filter(|xl| st.last_def.get(xl) > Some(&i)) {
                Some(if cx.remarks_enabled() {
                    format!(
                        "its source `{}` is redefined between the copy and the use",
                        func.locals[xl].name
                    )
                } else {
                    String::new()
                })
            } else {
                None
            };
            let loc = if j < n {
                func.insts[insts[j]].loc
            } else {
                func.blocks[block].term_loc
            };
            if let Some(reason) = reason {
                let msg = || format!("temporary `{}` kept: {reason}", func.locals[t].name);
                cx.missed_with(func, block, loc, msg);
                continue;
            }
            // Rename every read of t at j; refuse if some position rejects a constant.
            let mut map = |l: Local| (l == t).then_some(x);
            let (ok, text) = if j < n {
                let mut kind = func.insts[insts[j]].kind.clone();
                substitute_inst(&mut kind, &mut map);
                let ok = !renamable_locals(&kind).contains(&t);
                if ok {
                    func.insts[insts[j]].kind = kind;
                }
                let text = if cx.remarks_enabled() {
                    display_inst_kind(cx.module, func, &func.insts[insts[j]].kind)
                } else {
                    String::new()
                };
                (ok, text)
            } else {
                let mut term = func.blocks[block].terminator.clone();
                if let Some(term) = term.as_mut() {
                    substitute_term(term, &mut map);
                }
                let ok = term
                    .as_ref()
                    .and_then(|t| t.used_operand())
                    .is_none_or(|o| o != Operand::Local(t));
                if ok {
                    func.blocks[block].terminator = term;
                }
                let text = func.blocks[block]
                    .terminator
                    .as_ref()
                    .filter(|_| cx.remarks_enabled())
                    .map(|term| display_terminator(func, term))
                    .unwrap_or_default();
                (ok, text)
            };
            if !ok {
                let msg = || {
                    format!(
                        "temporary `{}` kept: the constant {} cannot stand in for it in `{text}`",
                        func.locals[t].name,
                        display_operand(func, x)
                    )
                };
                cx.missed_with(func, block, loc, msg);
                continue;
            }
            st.deleted[i] = true;
            let msg = || {
                format!(
                    "temporary `{}` elided: `{text}` now reads `{}` directly",
                    func.locals[t].name,
                    display_operand(func, x)
                )
            };
            cx.applied_with(func, block, loc, msg);
            cx.stat("temps_elided", 1);
            changed = true;
        }

        if j < n {
            let kind = func.insts[insts[j]].kind.clone();
            st.record(&kind, j);
        }
    }

    if changed {
        let kept: Vec<_> = insts
            .iter()
            .zip(&st.deleted)
            .filter(|(_, &del)| !del)
            .map(|(&inst, _)| inst)
            .collect();
        func.blocks[block].insts = kept;
    }
    changed
}

enum Forward {
    /// Retarget the producer at this position and delete the copy.
    Apply(usize),
    /// The copy's source looks like a temporary but cannot go, for this reason.
    Missed(String),
    /// Not a forward candidate (the source is not defined earlier in this block by a
    /// producer, or an earlier reader already reported on it).
    NotApplicable,
}

/// Decides the forward form for the copy `d = copy t` being examined.
fn forward(
    func: &Function,
    insts: &[poolopt_ir::Inst],
    st: &BlockState,
    d: Local,
    t: Local,
    t_live_after: bool,
) -> Forward {
    let Some(&i) = st.last_def.get(&t) else {
        return Forward::NotApplicable;
    };
    if st.deleted[i] {
        return Forward::NotApplicable;
    }
    let producer = &func.insts[insts[i]].kind;
    if !fully_defines(producer, t) {
        // Built up by `setfield`: not a temporary.
        return Forward::NotApplicable;
    }
    let is_copy = matches!(producer, InstKind::Copy { .. });
    if st.last_mention.get(&t) != Some(&i) {
        // Read in between. For a copy-defined `t` the first reader already reported.
        return if is_copy {
            Forward::NotApplicable
        } else {
            Forward::Missed("it is used more than once".to_string())
        };
    }
    let reason = if t_live_after {
        "it is used more than once".to_string()
    } else if st.last_mention.get(&d).is_some_and(|&p| p > i) {
        format!(
            "`{}` is read or written between its definition and the copy",
            func.locals[d].name
        )
    } else if func.locals[d].ty != func.locals[t].ty {
        "the copy changes its type".to_string()
    } else {
        return Forward::Apply(i);
    };
    if is_copy {
        // `t = copy x`: the backward form may still apply at this copy; it reports.
        Forward::NotApplicable
    } else {
        Forward::Missed(reason)
    }
}

/// The right-hand side of an instruction's text (`get items[i]` for `s = get items[i]`).
fn rhs_text(func: &Function, cx: &PassContext<'_>, inst: poolopt_ir::Inst) -> String {
    if !cx.remarks_enabled() {
        return String::new();
    }
    let text = display_inst_kind(cx.module, func, &func.insts[inst].kind);
    match text.split_once(" = ") {
        Some((_, rhs)) => rhs.to_string(),
        None => text,
    }
}
