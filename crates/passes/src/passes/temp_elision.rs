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
use crate::analysis::LocalSet;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{
    display_inst_kind, display_operand, display_terminator, Block, EntityRef, Function, InstKind,
    Local, Operand,
};

/// The temporary elision pass.
pub struct TempElision;

impl Pass for TempElision {
    fn name(&self) -> &'static str {
        "temp-elision"
    }

    fn preserves_cfg(&self) -> bool {
        true
    }

    /// Block-boundary liveness does not change (module docs), and no local is added or
    /// removed.
    fn preserves_liveness(&self) -> bool {
        true
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O2
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        // The work space of the previous function, reset to this one's locals.
        let mut scratch: Scratch = cx.take_scratch();
        scratch.reset(func.locals.len());
        scratch.blocks.clear();
        scratch.blocks.extend_from_slice(cx.cfg(func).rpo());
        let mut changed = false;
        for at in 0..scratch.blocks.len() {
            let block = scratch.blocks[at];
            // Both forms rewrite around a `copy`: a block without one has nothing to elide, and
            // needs neither its live-out set nor the walk (nor the function its liveness, if no
            // block has a copy).
            let Some(first) = first_copy(func, block) else {
                continue;
            };
            // Block-boundary liveness does not change under the rewrites (see the soundness
            // argument), so the cached analysis stays valid for the whole pass.
            cx.liveness(func)
                .live_out(block)
                .copy_into(&mut scratch.live);
            changed |= elide_in_block(func, cx, block, first, &mut scratch);
        }
        if scratch.elided > 0 {
            cx.stat("temps_elided", scratch.elided);
        }
        cx.give_scratch(scratch);
        changed
    }
}

/// Calls `f` on the locals read by the renamable operand positions of `kind` (`setfield`'s
/// implicit read of its struct excluded), in order, possibly more than once.
fn for_each_renamable_local(kind: &InstKind, mut f: impl FnMut(Local)) {
    // `for_each_use` reports `setfield`'s struct first; it is not a renamable position.
    let mut skip = usize::from(matches!(kind, InstKind::SetField { .. }));
    kind.for_each_use(|op| {
        if skip > 0 {
            skip -= 1;
            return;
        }
        if let Operand::Local(l) = op {
            f(l)
        }
    });
}

/// Whether some renamable operand position of `kind` still reads `t`.
fn reads_renamable(kind: &InstKind, t: Local) -> bool {
    let mut found = false;
    for_each_renamable_local(kind, |l| found |= l == t);
    found
}

/// Whether `kind` overwrites all of `local` (a `setfield` only updates part of it).
fn fully_defines(kind: &InstKind, local: Local) -> bool {
    kind.def() == Some(local) && !matches!(kind, InstKind::SetField { .. })
}

/// Marks "no position" in the per-local position tables.
const NONE: u32 = u32::MAX;

/// Where the block so far last mentions a local, and last writes it (`setfield` included):
/// positions of remaining instructions, or `NONE`. Valid only for the block numbered `block`
/// ([`Scratch::block`]): an entry of an earlier block reads as no position, so moving on to
/// the next block resets nothing.
#[derive(Copy, Clone)]
struct Positions {
    block: u32,
    mention: u32,
    def: u32,
}

impl Positions {
    /// No position in any block (block numbers start at 1).
    const NONE: Positions = Positions {
        block: 0,
        mention: NONE,
        def: NONE,
    };
}

/// The room a new [`Scratch`]'s buffers start with: enough for an ordinary block and
/// function, rather than growing step by step (a reallocation each) over the first few.
const MIN_ROOM: usize = 64;

/// Buffers reused across the blocks of a function, and across functions through the pass
/// context ([`PassContext::take_scratch`]), so rewriting a block allocates nothing once they
/// have grown to the largest block.
struct Scratch {
    /// The blocks to visit, in reverse post-order.
    blocks: Vec<Block>,
    /// The live set being walked backwards; on entry to a block, its live-out set.
    live: LocalSet,
    /// For each position `j` (the terminator is position `n`), the locals read at `j` with
    /// whether each is live right after `j`: `reads[spans[j].0..spans[j].1]`.
    reads: Vec<(Local, bool)>,
    spans: Vec<(u32, u32)>,
    /// Per local, where the block so far last mentions and last writes it.
    positions: Vec<Positions>,
    /// The number of the block being rewritten, from 1 in each function.
    block: u32,
    deleted: Vec<bool>,
    /// Temporaries elided in the function so far (counted once at the end).
    elided: u64,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            blocks: Vec::with_capacity(MIN_ROOM),
            live: LocalSet::default(),
            reads: Vec::with_capacity(MIN_ROOM),
            spans: Vec::with_capacity(MIN_ROOM),
            positions: Vec::with_capacity(MIN_ROOM),
            block: 0,
            deleted: Vec::with_capacity(MIN_ROOM),
            elided: 0,
        }
    }
}

impl Scratch {
    /// Ready for a function of `num_locals` locals: no position recorded for any local (the
    /// per-block buffers are cleared, and the positions left behind, where each block starts;
    /// `live` is overwritten).
    fn reset(&mut self, num_locals: usize) {
        // `live` is overwritten per block (`LiveSet::copy_into`, which resizes it).
        self.positions.clear();
        self.positions.resize(num_locals, Positions::NONE);
        self.block = 0;
        self.elided = 0;
    }

    fn live_after(&self, j: usize, l: Local) -> bool {
        let (a, b) = self.spans[j];
        self.reads[a as usize..b as usize]
            .iter()
            .any(|&(x, live)| x == l && live)
    }

    /// Starts the positions of a new block: none recorded.
    fn next_block(&mut self) {
        self.block += 1;
    }

    /// The positions of `l` in the current block.
    fn positions_of(&self, l: Local) -> Positions {
        match self.positions[l.index()] {
            p if p.block == self.block => p,
            _ => Positions::NONE,
        }
    }

    fn last_mention(&self, l: Local) -> Option<usize> {
        position(self.positions_of(l).mention)
    }

    fn last_def(&self, l: Local) -> Option<usize> {
        position(self.positions_of(l).def)
    }

    fn set_mention(&mut self, l: Local, pos: usize) {
        let block = self.block;
        let p = &mut self.positions[l.index()];
        if p.block == block {
            p.mention = pos as u32;
        } else {
            *p = Positions {
                block,
                mention: pos as u32,
                def: NONE,
            };
        }
    }

    /// Always called right after [`Scratch::set_mention`] of the same local (a definition is
    /// a mention), which has made its entry the current block's.
    fn set_def(&mut self, l: Local, pos: usize) {
        let p = &mut self.positions[l.index()];
        debug_assert_eq!(p.block, self.block);
        p.def = pos as u32;
    }

    /// Where the locals read at position `j` by renamable operand positions lie in `reads`
    /// (`setfield_j`: the instruction there is a `setfield`, whose first recorded read is its
    /// struct's), in order, a local read twice listed twice.
    fn renamable_reads(&self, j: usize, setfield_j: bool) -> std::ops::Range<usize> {
        let (a, b) = self.spans[j];
        a as usize + usize::from(setfield_j)..b as usize
    }

    /// [`Scratch::record`] for the instruction at `pos` as the walk saw it, with destination
    /// `def`: its mentions are its reads recorded for `pos` and `def`, so its operands are not
    /// walked again.
    fn record_unchanged(&mut self, pos: usize, def: Option<Local>) {
        let (a, b) = self.spans[pos];
        for k in a..b {
            let l = self.reads[k as usize].0;
            self.set_mention(l, pos);
        }
        if let Some(d) = def {
            self.set_mention(d, pos);
            self.set_def(d, pos);
        }
    }

    /// Records the instruction `kind` at `pos`: every local it reads or writes is mentioned
    /// there (in one match over the instruction: [`InstKind::for_each_local`]).
    fn record(&mut self, kind: &InstKind, pos: usize) {
        kind.for_each_local(|l| self.set_mention(l, pos));
        if let Some(d) = kind.def() {
            self.set_def(d, pos);
        }
    }
}

fn position(p: u32) -> Option<usize> {
    match p {
        NONE => None,
        p => Some(p as usize),
    }
}

/// The position of the first `copy` in `block`, if it has one.
fn first_copy(func: &Function, block: Block) -> Option<usize> {
    func.blocks[block]
        .insts
        .iter()
        .position(|&inst| matches!(func.insts[inst].kind, InstKind::Copy { .. }))
}

/// Rewrites `block`, whose first `copy` is at position `first`.
fn elide_in_block(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    block: Block,
    first: usize,
    st: &mut Scratch,
) -> bool {
    // The block's instruction list is only rebuilt at the end; take it out meanwhile.
    let insts = std::mem::take(&mut func.blocks[block].insts);
    let n = insts.len();
    st.next_block();

    // For each local read at position j >= first (n = the terminator), whether it is live
    // right after j, computed on the code as it is now. Rewrites only touch positions at or
    // before the one being examined, so the facts about later code stay true. Both forms ask
    // only at a `copy` or after one, so the walk stops at the first.
    st.reads.clear();
    st.spans.clear();
    st.spans.resize(n + 1, (0, 0));
    let start = st.reads.len() as u32;
    if let Some(Operand::Local(l)) = func.blocks[block]
        .terminator
        .as_ref()
        .and_then(|t| t.used_operand())
    {
        st.reads.push((l, st.live.contains(l)));
        st.live.insert(l);
    }
    st.spans[n] = (start, st.reads.len() as u32);
    for j in (first..n).rev() {
        let kind = &func.insts[insts[j]].kind;
        let start = st.reads.len() as u32;
        kind.for_each_use(|op| {
            if let Operand::Local(l) = op {
                st.reads.push((l, st.live.contains(l)));
            }
        });
        let end = st.reads.len() as u32;
        st.spans[j] = (start, end);
        if let Some(d) = kind.def() {
            if fully_defines(kind, d) {
                st.live.remove(d);
            }
        }
        // The locals just recorded are this instruction's reads: live before it.
        for k in start..end {
            let l = st.reads[k as usize].0;
            st.live.insert(l);
        }
    }

    st.deleted.clear();
    st.deleted.resize(n, false);
    let mut changed = false;

    // Before the first `copy` neither form applies (the forward form examines a `copy`, the
    // backward form a reader after one): only the positions are recorded, for the checks of
    // what lies between a definition and its reader.
    for (j, &inst) in insts[..first].iter().enumerate() {
        st.record(&func.insts[inst].kind, j);
    }
    for j in first..=n {
        // The reader at j: an instruction, or (j == n) the terminator.
        let copy_j = match (j < n).then(|| &func.insts[insts[j]].kind) {
            Some(&InstKind::Copy {
                dst,
                src: Operand::Local(t),
            }) => Some((dst, t)),
            _ => None,
        };

        // Forward form at a copy `d = copy t`.
        if let Some((d, t)) = copy_j {
            if d != t {
                match forward(func, &insts, st, d, t, st.live_after(j, t)) {
                    Forward::Apply(i) => {
                        let producer = &mut func.insts[insts[i]].kind;
                        if let Some(dst) = producer.def_mut() {
                            *dst = d;
                        }
                        st.deleted[j] = true;
                        st.set_mention(d, i);
                        st.set_def(d, i);
                        let rhs = rhs_text(func, cx, insts[i]);
                        let msg = || {
                            format!(
                                "temporary `{}` elided: `{}` now writes `{}` directly",
                                func.locals[t].name, rhs, func.locals[d].name
                            )
                        };
                        let loc = func.insts[insts[j]].loc;
                        cx.applied_with(func, block, loc, msg);
                        st.elided += 1;
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

        // Backward form: each temporary read at j whose definition is `t = copy x`. Inst j is
        // still as the walk saw it (rewrites at earlier positions only touch earlier
        // instructions), so its reads are the ones recorded for j.
        let setfield_j = j < n && matches!(func.insts[insts[j]].kind, InstKind::SetField { .. });
        let renamable = st.renamable_reads(j, setfield_j);
        let mut renamed_j = false;
        for r in renamable.clone() {
            let t = st.reads[r].0;
            let Some(i) = st.last_mention(t) else {
                continue;
            };
            if st.deleted[i] || st.last_def(t) != Some(i) {
                continue;
            }
            let InstKind::Copy { dst, src: x } = func.insts[insts[i]].kind else {
                continue;
            };
            if dst != t || x == Operand::Local(t) {
                continue;
            }
            // A local read twice at j is examined at its first read only (checked here, where
            // few reads get: most are no copy's destination).
            if st.reads[renamable.start..r].iter().any(|&(l, _)| l == t) {
                continue;
            }
            let redefined_by_j = j < n && fully_defines(&func.insts[insts[j]].kind, t);
            let reason = if st.live_after(j, t) && !redefined_by_j {
                Some("it is used more than once".to_string())
            } else if let Some(xl) = x.as_local().filter(|&xl| st.last_def(xl) > Some(i)) {
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
                let kind = &mut func.insts[insts[j]].kind;
                let before = kind.clone();
                substitute_inst(kind, &mut map);
                let ok = !reads_renamable(kind, t);
                if !ok {
                    *kind = before;
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
            st.elided += 1;
            renamed_j = true;
            changed = true;
        }

        if j < n {
            if renamed_j {
                st.record(&func.insts[insts[j]].kind, j);
            } else {
                // Unchanged: its mentions are its recorded reads and its destination.
                st.record_unchanged(j, func.insts[insts[j]].kind.def());
            }
        }
    }

    let mut insts = insts;
    if changed {
        // In place: the block keeps its list's storage.
        let mut at = 0;
        insts.retain(|_| {
            at += 1;
            !st.deleted[at - 1]
        });
    }
    func.blocks[block].insts = insts;
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
    st: &Scratch,
    d: Local,
    t: Local,
    t_live_after: bool,
) -> Forward {
    let Some(i) = st.last_def(t) else {
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
    if st.last_mention(t) != Some(i) {
        // Read in between. For a copy-defined `t` the first reader already reported.
        return if is_copy {
            Forward::NotApplicable
        } else {
            Forward::Missed("it is used more than once".to_string())
        };
    }
    let reason = if t_live_after {
        "it is used more than once".to_string()
    } else if st.last_mention(d).is_some_and(|p| p > i) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_the_current_blocks_only() {
        let (a, b) = (Local::new(0), Local::new(1));
        let mut st = Scratch::default();
        st.reset(2);
        st.next_block();
        assert_eq!((st.last_mention(a), st.last_def(a)), (None, None));
        st.set_mention(a, 3);
        st.set_def(a, 3);
        st.set_mention(a, 5);
        st.set_mention(b, 4);
        assert_eq!((st.last_mention(a), st.last_def(a)), (Some(5), Some(3)));
        assert_eq!((st.last_mention(b), st.last_def(b)), (Some(4), None));
        // The next block starts with none; a mention there does not bring back the old def.
        st.next_block();
        assert_eq!((st.last_mention(a), st.last_def(a)), (None, None));
        st.set_mention(a, 0);
        assert_eq!((st.last_mention(a), st.last_def(a)), (Some(0), None));
        assert_eq!(st.last_mention(b), None);
        // A new function starts with none, whatever its blocks are numbered.
        st.reset(2);
        st.next_block();
        assert_eq!((st.last_mention(a), st.last_mention(b)), (None, None));
    }
}
