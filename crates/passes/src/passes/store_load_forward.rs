//! `store-load-forward`: `set v[k], x; ...; y = get v[k]` becomes `y = copy x` when nothing in
//! between may have changed that element or shrunk the vec.
//!
//! The scan runs over *extended basic blocks*: a block with exactly one predecessor starts
//! with the stores still available at the end of that predecessor, any other block with none.
//! Every path to an instruction of such a block therefore runs through the stores it sees, with
//! only the scanned instructions in between.
//!
//! A store `set v[k](.f), x` is available until one of these happens:
//!
//! - `v`, `k` (a local) or `x` (a local) is reassigned (a `setfield` of `x` included): the
//!   same names no longer denote the same handle, element or value;
//! - a `set` through a handle that may alias `v` (same element type), unless both indices are
//!   different constants: it may write the same element;
//! - a `pop` or `drop` of a handle that may alias `v`: the element may be gone (the `get` must
//!   then trap as at O0, so its check must stay);
//! - a call that receives a handle of `v`'s type: the callee can only reach vecs through its
//!   arguments (vec handles live in locals only: no globals, no vec in a struct or a vec), so
//!   it may write the element or shrink the vec exactly when it is given one of that type.
//!
//! A `push` keeps the store: it appends, so element `k` keeps its value and the length only
//! grows.
//!
//! **Soundness.** When `y = get v[k](.f)` (same vec local, same index operand, same field or
//! none) is reached with the store available, the `set` ran on this path with the same handle
//! and index and wrote `x`'s current value; no write to that element happened since, so the
//! get would read `x`. Its bounds check: the `set` did not trap (a checked `set` checks; an
//! unchecked one was proven by the pass that made it so), so `0 <= k < len(v)` then, and no
//! `pop`/`drop`/call could have shrunk `v` since, so the get's check would pass too: removing
//! the `get` with its check cannot hide a trap. A `get` of one field after a `set` of the whole
//! element is left alone (it would need a `getfield` of `x`).

use crate::analysis::facts::may_alias;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{display_inst, Block, Function, Inst, InstKind, Local, Operand, SecondaryMap};

/// The pass.
pub struct StoreLoadForward;

/// A store still available: `set vec[index](.field), value` at `inst`.
#[derive(Clone)]
struct Store {
    vec: Local,
    index: Operand,
    field: Option<u32>,
    value: Operand,
    inst: Inst,
}

/// A store that was available until `why` happened (for the missed remark of a later get).
#[derive(Clone)]
struct Killed {
    vec: Local,
    index: Operand,
    field: Option<u32>,
    why: String,
}

#[derive(Clone, Default)]
struct State {
    live: Vec<Store>,
    killed: Vec<Killed>,
}

impl State {
    fn kill(&mut self, why: &str, dies: impl Fn(&Store) -> bool) {
        let (dead, keep): (Vec<Store>, Vec<Store>) = self.live.drain(..).partition(|s| dies(s));
        self.live = keep;
        for s in dead {
            self.killed
                .retain(|k| !(k.vec == s.vec && k.index == s.index && k.field == s.field));
            self.killed.push(Killed {
                vec: s.vec,
                index: s.index,
                field: s.field,
                why: why.to_string(),
            });
        }
    }
}

impl Pass for StoreLoadForward {
    fn name(&self) -> &'static str {
        "store-load-forward"
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O2
    }

    fn preserves_cfg(&self) -> bool {
        true
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        let has_set = func.layout.iter().any(|&b| {
            func.blocks[b]
                .insts
                .iter()
                .any(|&i| matches!(func.inst(i), InstKind::VecSet { .. }))
        });
        if !has_set {
            return false;
        }
        let cfg = cx.cfg(func).clone();
        let mut out: SecondaryMap<Block, Option<State>> = SecondaryMap::new();
        let mut changed = false;
        for &block in cfg.rpo() {
            let preds = cfg.preds(block);
            let single = preds.first().copied().filter(|&p| {
                preds.iter().all(|&q| q == p) && p != block && Some(block) != func.entry()
            });
            let mut state = single.and_then(|p| out[p].clone()).unwrap_or_default();
            let insts = func.blocks[block].insts.clone();
            for inst in insts {
                changed |= visit(func, cx, block, inst, &mut state);
            }
            out[block] = Some(state);
        }
        changed
    }
}

fn op_is(o: Operand, l: Local) -> bool {
    o == Operand::Local(l)
}

/// Processes one instruction: forwards a matching `get`, then updates the available stores.
fn visit(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    block: Block,
    inst: Inst,
    state: &mut State,
) -> bool {
    let mut changed = false;
    let kind = func.inst(inst).clone();
    if let InstKind::VecGet {
        dst,
        vec,
        index,
        field,
        ..
    } = kind
    {
        let hit = state
            .live
            .iter()
            .rev()
            .find(|s| s.vec == vec && s.index == index && s.field == field)
            .cloned();
        if let Some(store) = hit {
            let before = display_inst(cx.module, func, inst);
            let set_text = display_inst(cx.module, func, store.inst);
            let set_line = func.insts[store.inst].loc.line;
            func.insts[inst].kind = InstKind::Copy {
                dst,
                src: store.value,
            };
            changed = true;
            cx.stat("loads_forwarded", 1);
            let loc = func.insts[inst].loc;
            cx.applied_with(func, block, loc, || {
                format!(
                    "`{before}` forwarded from `{set_text}` (line {set_line}): no write to that element and no length decrease between, so its check would pass"
                )
            });
        } else if let Some(k) = state
            .killed
            .iter()
            .rev()
            .find(|k| k.vec == vec && k.index == index && k.field == field)
        {
            let why = k.why.clone();
            let loc = func.insts[inst].loc;
            cx.missed_with(func, block, loc, || {
                format!(
                    "`{}` not forwarded: {why}",
                    display_inst(cx.module, func, inst)
                )
            });
        }
    }
    let kind = func.inst(inst).clone();
    let text = || display_inst(cx.module, func, inst);
    match kind {
        InstKind::VecSet {
            vec,
            index,
            field,
            value,
            ..
        } => {
            let why = format!("`{}` between may write the same element", text());
            state.kill(&why, |s| {
                may_alias(func, s.vec, vec)
                    && !matches!((s.index, index), (Operand::Const(a), Operand::Const(b)) if a != b)
            });
            let self_ref = |l: Local| op_is(index, l) || op_is(value, l);
            if !self_ref(vec) {
                state.live.push(Store {
                    vec,
                    index,
                    field,
                    value,
                    inst,
                });
            }
        }
        InstKind::VecPop { vec, .. } | InstKind::VecDrop { vec } => {
            let why = format!("`{}` between may shrink the vec", text());
            state.kill(&why, |s| may_alias(func, s.vec, vec));
        }
        InstKind::Call { ref args, .. } => {
            let types: Vec<_> = args
                .iter()
                .filter_map(|a| a.as_local())
                .map(|l| func.local_ty(l))
                .collect();
            let why = format!(
                "`{}` between receives a vec of that type and may write or shrink it",
                text()
            );
            state.kill(&why, |s| types.contains(&func.local_ty(s.vec)));
        }
        _ => {}
    }
    if let Some(d) = kind.def() {
        let why = format!(
            "`{}` is reassigned between (`{}`)",
            func.local_name(d),
            text()
        );
        state.kill(&why, |s| {
            s.vec == d || op_is(s.index, d) || op_is(s.value, d)
        });
    }
    changed
}
