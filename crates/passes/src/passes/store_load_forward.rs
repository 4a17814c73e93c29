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
//! grows. At most `MAX_AVAILABLE_STORES` stores are available at once; a newer one makes the
//! pass forget the oldest, so a block of `n` stores costs `O(n)`, not `O(n²)`.
//!
//! **Soundness.** When `y = get v[k](.f)` (same vec local, same index operand, same field or
//! none) is reached with the store available, the `set` ran on this path with the same handle
//! and index and wrote `x`'s current value; no write to that element happened since, so the
//! get would read `x`. Its bounds check: the `set` did not trap (a checked `set` checks; an
//! unchecked one was proven by the pass that made it so), so `0 <= k < len(v)` then, and no
//! `pop`/`drop`/call could have shrunk `v` since, so the get's check would pass too: removing
//! the `get` with its check cannot hide a trap. A `get` of one field after a `set` of the whole
//! element is left alone (it would need a `getfield` of `x`).
//!
//! A function in which no `get` reads a place (vec local, index operand, field) some `set`
//! writes is not walked: a `get` is forwarded (or reported as not forwarded) only from a store
//! to that very place, so the walk would change and report nothing.

use super::extended_blocks::{self, Available};
use crate::analysis::facts::may_alias;
use crate::pass::{OptLevel, Pass, PassContext};
use poolopt_ir::{display_inst, Block, Function, Inst, InstKind, Local, Module, Operand};
use rustc_hash::FxHashMap;

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

impl Store {
    fn place(&self) -> Place {
        (self.vec, self.index, self.field)
    }
}

/// Why a store stopped being available (the text is only made for a remark).
#[derive(Clone, Copy)]
enum Cause {
    /// A `set` that may write the same element.
    Writes,
    /// A `pop` or `drop` of a vec that may be the store's.
    Shrinks,
    /// A call that receives a vec of the store's type.
    CallReceives,
    /// The vec, index or value local is assigned.
    Reassigned(Local),
    /// Forgotten: more than [`MAX_AVAILABLE_STORES`] stores were available.
    TooMany,
}

/// A store that was available until instruction `at` (for the missed remark of a later get;
/// recorded only when remarks are collected).
#[derive(Clone, Copy)]
struct Killed {
    cause: Cause,
    at: Inst,
}

impl Killed {
    fn why(&self, module: &Module, func: &Function) -> String {
        let text = display_inst(module, func, self.at);
        match self.cause {
            Cause::Writes => format!("`{text}` between may write the same element"),
            Cause::Shrinks => format!("`{text}` between may shrink the vec"),
            Cause::CallReceives => {
                format!("`{text}` between receives a vec of that type and may write or shrink it")
            }
            Cause::Reassigned(d) => {
                format!("`{}` is reassigned between (`{text}`)", func.local_name(d))
            }
            Cause::TooMany => format!(
                "forgotten when `{text}` made more than {MAX_AVAILABLE_STORES} stores available"
            ),
        }
    }
}

/// The element a store writes: vec local, index, field.
type Place = (Local, Operand, Option<u32>);

/// How many stores are kept available at once. Every instruction checks the available stores
/// against what it kills, so without a bound a block of `n` stores would cost `n²`; past it
/// the oldest store is forgotten (sound: forgetting only forwards less). LLVM's memory
/// dependence analysis bounds its backward scan the same way (`memdep-block-scan-limit`).
const MAX_AVAILABLE_STORES: usize = 64;

#[derive(Clone)]
struct State {
    live: Available<Store>,
    /// Why each place's last store stopped being available (kept only when remarks are
    /// collected).
    killed: FxHashMap<Place, Killed>,
    /// Whether `killed` is kept (remarks are collected).
    explain: bool,
}

impl Default for State {
    fn default() -> State {
        State {
            live: Available::new(MAX_AVAILABLE_STORES),
            killed: FxHashMap::default(),
            explain: false,
        }
    }
}

impl extended_blocks::WalkState for State {
    fn reset(&mut self) {
        self.live.clear();
        self.killed.clear();
        self.explain = false;
    }

    fn assign(&mut self, other: &State) {
        self.live.assign(&other.live);
        self.killed.clone_from(&other.killed);
        self.explain = other.explain;
    }
}

impl State {
    fn kill(&mut self, cause: Cause, at: Inst, dies: impl Fn(&Store) -> bool) {
        let State {
            live,
            killed,
            explain,
        } = self;
        live.remove_where(dies, |s| {
            if *explain {
                killed.insert(s.place(), Killed { cause, at });
            }
        });
    }

    /// Makes `store` available, forgetting the oldest one past the bound.
    fn push(&mut self, store: Store) {
        let at = store.inst;
        if let Some(oldest) = self.live.push(store) {
            if self.explain {
                let cause = Cause::TooMany;
                self.killed.insert(oldest.place(), Killed { cause, at });
            }
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
        if !may_forward(func) {
            return false;
        }
        extended_blocks::walk(
            func,
            cx,
            |state: &mut State, explain| state.explain = explain,
            visit,
        )
    }
}

/// The most `set`s and `get`s [`may_forward`] compares; past them it answers `true`.
const MAX_PRECHECKED: usize = 64;

/// Whether some `get` reads the place (same vec local, index operand and field) some `set`
/// writes, or there are too many to compare. When none does, the walk would change nothing
/// and report nothing: it forwards to a `get`, or reports one as not forwarded, only for a
/// store to that very place.
fn may_forward(func: &Function) -> bool {
    let mut sets: [Option<Place>; MAX_PRECHECKED] = [None; MAX_PRECHECKED];
    let mut gets: [Option<Place>; MAX_PRECHECKED] = [None; MAX_PRECHECKED];
    let (mut n_sets, mut n_gets) = (0, 0);
    for &block in &func.layout {
        for &inst in &func.blocks[block].insts {
            let (list, n, place) = match *func.inst(inst) {
                InstKind::VecSet {
                    vec, index, field, ..
                } => (&mut sets, &mut n_sets, (vec, index, field)),
                InstKind::VecGet {
                    vec, index, field, ..
                } => (&mut gets, &mut n_gets, (vec, index, field)),
                _ => continue,
            };
            let Some(slot) = list.get_mut(*n) else {
                return true;
            };
            *slot = Some(place);
            *n += 1;
        }
    }
    sets[..n_sets].iter().any(|s| gets[..n_gets].contains(s))
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
    if let InstKind::VecGet {
        dst,
        vec,
        index,
        field,
        ..
    } = *func.inst(inst)
    {
        let hit = state
            .live
            .iter()
            .rev()
            .find(|s| s.vec == vec && s.index == index && s.field == field)
            .cloned();
        if let Some(store) = hit {
            let explain = cx.remarks_enabled();
            let before = explain.then(|| display_inst(cx.module, func, inst));
            let set_text = explain.then(|| display_inst(cx.module, func, store.inst));
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
                    "`{}` forwarded from `{}` (line {set_line}): no write to that element and no length decrease between, so its check would pass",
                    before.unwrap_or_default(),
                    set_text.unwrap_or_default()
                )
            });
        } else if let Some(k) = state.killed.get(&(vec, index, field)) {
            let why = k.why(cx.module, func);
            let loc = func.insts[inst].loc;
            cx.missed_with(func, block, loc, || {
                format!(
                    "`{}` not forwarded: {why}",
                    display_inst(cx.module, func, inst)
                )
            });
        }
    }
    let kind = func.inst(inst);
    match *kind {
        InstKind::VecSet {
            vec,
            index,
            field,
            value,
            ..
        } => {
            state.kill(Cause::Writes, inst, |s| {
                may_alias(func, s.vec, vec)
                    && !matches!((s.index, index), (Operand::Const(a), Operand::Const(b)) if a != b)
            });
            let self_ref = |l: Local| op_is(index, l) || op_is(value, l);
            if !self_ref(vec) {
                state.push(Store {
                    vec,
                    index,
                    field,
                    value,
                    inst,
                });
            }
        }
        InstKind::VecPop { vec, .. } | InstKind::VecDrop { vec } => {
            state.kill(Cause::Shrinks, inst, |s| may_alias(func, s.vec, vec));
        }
        InstKind::Call { ref args, .. } => {
            state.kill(Cause::CallReceives, inst, |s| {
                args.iter()
                    .filter_map(|a| a.as_local())
                    .any(|l| func.local_ty(l) == func.local_ty(s.vec))
            });
        }
        _ => {}
    }
    if let Some(d) = kind.def() {
        state.kill(Cause::Reassigned(d), inst, |s| {
            s.vec == d || op_is(s.index, d) || op_is(s.value, d)
        });
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::{may_forward, Place};
    use poolopt_ir::{Function, InstKind};

    /// The places `func`'s `set`s write and its `get`s read, every one of them.
    fn places(func: &Function) -> (Vec<Place>, Vec<Place>) {
        let (mut sets, mut gets) = (Vec::new(), Vec::new());
        for &block in &func.layout {
            for &inst in &func.blocks[block].insts {
                match *func.inst(inst) {
                    InstKind::VecSet {
                        vec, index, field, ..
                    } => sets.push((vec, index, field)),
                    InstKind::VecGet {
                        vec, index, field, ..
                    } => gets.push((vec, index, field)),
                    _ => {}
                }
            }
        }
        (sets, gets)
    }

    /// On every function of the repository's programs, `may_forward` answers as the
    /// straightforward comparison of all places does (or `true` past its bound).
    #[test]
    fn may_forward_matches_comparing_all_places() {
        let (mut checked, mut forwardable) = (0, 0);
        for (path, module) in crate::test_programs::modules_with_paths() {
            for func in module.funcs.values() {
                let (sets, gets) = places(func);
                let common = sets.iter().any(|s| gets.contains(s));
                let bounded =
                    sets.len() > super::MAX_PRECHECKED || gets.len() > super::MAX_PRECHECKED;
                assert_eq!(may_forward(func), common || bounded, "{}", path.display());
                checked += 1;
                forwardable += usize::from(common);
            }
        }
        assert!(checked > 200 && forwardable > 0, "{checked} {forwardable}");
    }
}
