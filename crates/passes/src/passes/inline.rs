//! `inline`: replaces calls of small or hot non-recursive functions by a copy of the callee's
//! body, so the other passes see the caller's length tests and the callee's pops in one
//! function and no call overhead remains.
//!
//! The pass manager runs the pipeline bottom-up over the call graph, so the body copied here is
//! the callee's *optimized* body (its own calls already inlined where the heuristic allowed).
//!
//! A call `dst = call f(a1, ..., an)` in block `B` becomes:
//!
//! ```text
//! B:        ...instructions before the call...
//!           f_p1 = copy a1  ...  f_pn = copy an       ; parameters, by value (see below)
//!           f_x = copy 0 / copy <zero>               ; callee locals read before written
//!           br f_entry
//! f_...:    the callee's blocks, locals renamed, `ret v` -> `dst = copy v; br B_cont`
//! B_cont:   ...instructions after the call..., B's terminator
//! ```
//!
//! A parameter `p` that no instruction of the callee assigns (a field write counts), bound to
//! a local `a` of the caller of the same type, gets no local and no copy: the copy reads `a`
//! wherever the callee reads `p`. Most parameters are only read, and the copies the later
//! passes would have to elide and the dead-local elimination to delete never exist.
//!
//! After the last splice, every block whose only predecessor ends in `br` to it is appended
//! to that predecessor (`simplify-cfg`'s block merging): `f_entry` joins `B`, and `B_cont`
//! joins the callee's block that returns when that is its only `ret`. A continuation that no
//! copied `ret` reaches (the callee traps on every path) has no way in and is dropped. When
//! every copy has a `ret`, every block is reachable (see `merge_straight_jumps`) and the
//! predecessors are counted from the terminators, without building a CFG.
//!
//! A callee that is one block ending in `ret` is not laid out as blocks at all: its copy (the
//! parameter copies, the body, `dst = copy v`) replaces the call inside `B`, which is exactly
//! what the splice and the two merges above would leave, without making the two blocks.
//!
//! Soundness: a call evaluates its arguments, binds them to fresh zero-initialised locals of
//! the callee, runs the body and assigns the returned value to `dst`. The copy does the same
//! with renamed locals no other code mentions: parameters are copied by value (struct bytes,
//! vec handles — so aliasing is exactly as through the call), every callee local that may be
//! read before it is written (live at the callee's entry) is reset to the zero value of its
//! type on every execution of the copy (a never-assigned local of the same type provides the
//! zero struct or null vec handle), and each `ret` assigns `dst` and continues after the call.
//! A parameter read in place of its argument local `a` has `a`'s value at the call on every
//! read: the copied body mentions no local of the caller but the bound arguments, it writes
//! none of them (the parameter is never assigned, and every other callee local is renamed to a
//! fresh one), and the only write of a caller local, `dst = copy v`, ends a returning block,
//! after every read of the body; a vec or struct argument so shares its handle or bytes
//! exactly as a copy of it would, since neither side writes it during the call.
//! Checks inside the callee are copied unchanged (a check the callee had already removed was
//! proved from facts inside the callee, which hold in any calling context). Traps keep their
//! meaning: every copied instruction's location records the function it was written in
//! ([`Loc::inlined_from`]), which the interpreter and the JIT report. Only the call depth and
//! the fuel spent on block entries change, as documented for optimization levels: a call of a
//! function that is on no cycle of the call graph is never counted towards the depth limit,
//! and calls on a cycle (recursion) are never inlined.
//!
//! Heuristic (sizes count instructions and terminators of the callee's optimized body):
//! - `noinline` callees and callees on a call-graph cycle are never inlined;
//! - `inline` callees always are, up to the hard size cap of the caller;
//! - callees of at most [`SMALL`] instructions always are (a call costs about as much);
//! - callees of at most [`MEDIUM`] instructions are when the call sits in a loop or is the only
//!   call site of the callee among the functions being optimized (the module, or what the
//!   entries reach when the pipeline runs for some entries: an unreached caller is never
//!   compiled, so its call keeps nothing alive), within the caller's growth budget: the caller may
//!   grow to `max(GROWTH × original, original + MIN_BUDGET)` instructions;
//! - no caller grows beyond [`HARD_CAP`] instructions;
//! - the functions optimized together grow by at most the unit's budget in all
//!   ([`crate::unit_budget`]: their original size, or [`HARD_CAP`] if larger); once it is spent,
//!   every further call is kept, `inline` callees included.

use super::names::{concat, Composed, Joiner, Names};
use super::simplify_cfg::{merge_blocks, merge_into_only_predecessors, remove_unreachable};
use crate::analysis::CallGraph;
use crate::pass::{OptLevel, Pass, PassContext};
use crate::unit_budget::UnitBudget;
use poolopt_ir::{
    Block, BlockData, EntityRef, FuncId, Function, InlineHint, Inst, InstKind, Loc, Local,
    LocalData, Module, Name, Operand, SecondaryMap, Terminator, Type,
};
use rustc_hash::FxHashMap;

/// Callees up to this size are always inlined.
pub const SMALL: usize = 16;
/// Callees up to this size are inlined when called in a loop or from one site only.
pub const MEDIUM: usize = 160;
/// A caller may grow to this many times its original size ...
pub const GROWTH: usize = 4;
/// ... or by this many instructions, whichever is larger.
pub const MIN_BUDGET: usize = 400;
/// No caller grows beyond this many instructions through inlining.
pub const HARD_CAP: usize = 20_000;

/// The inliner.
pub struct Inline;

impl Pass for Inline {
    fn name(&self) -> &'static str {
        "inline"
    }

    fn min_level(&self) -> OptLevel {
        OptLevel::O2
    }

    fn run(&self, func: &mut Function, cx: &mut PassContext<'_>) -> bool {
        let Some(call_graph) = cx.call_graph() else {
            return false;
        };
        if !has_calls(func) {
            return false;
        }
        let module = cx.module;
        let unit = cx.unit_budget();
        // The per-copy tables of the previous copy (or function), reset by each copy; boxed, so
        // the scratch store hands over a pointer and not the tables themselves.
        let mut work: Box<Work> = cx.take_scratch();
        // The callees cannot change while this function is optimized, but may have since the
        // last run.
        work.binding.assigned_for = None;
        let loops = blocks_in_loops(func, cx, call_graph, &mut work.loops);
        let original = func.inst_count();
        let budget = (GROWTH * original).max(original + MIN_BUDGET).min(HARD_CAP);
        let mut size = original;
        let mut fresh = Fresh {
            // Filled with this function's names at the first copy.
            names: std::mem::take(&mut work.names),
            locals_ready: false,
            blocks_ready: false,
            zero_locals: FxHashMap::default(),
        };
        let mut inlined = 0u64;
        let mut kept = 0u64;
        // Whether every copy laid out as blocks has a `ret`, so its continuation has a way in.
        let mut every_copy_returns = true;

        // Walk the original blocks; a split pushes its continuation block to the work list,
        // with the original block whose name the continuations are named after.
        let mut blocks = std::mem::take(&mut work.blocks);
        blocks.clear();
        let in_loop = &work.loops.in_loop;
        blocks.extend(
            func.layout
                .iter()
                .rev()
                .map(|&b| (b, loops && in_loop[b], b)),
        );
        while let Some((block, looped, origin)) = blocks.pop() {
            let mut index = 0;
            while index < func.blocks[block].insts.len() {
                let inst = func.blocks[block].insts[index];
                let InstKind::Call {
                    func: callee_id, ..
                } = func.insts[inst].kind
                else {
                    index += 1;
                    continue;
                };
                let loc = func.insts[inst].loc;
                let Some(callee) = module.funcs.get(callee_id) else {
                    index += 1;
                    continue;
                };
                let callee_size = callee.inst_count();
                let decision = decide(
                    callee,
                    call_graph.is_recursive(callee_id),
                    call_graph.call_sites(callee_id),
                    callee_size,
                    looped,
                    (size, budget),
                    unit,
                );
                match decision {
                    Err(reason) => {
                        kept += 1;
                        cx.missed_with(func, block, loc, || {
                            format!("call of `{}` kept: {reason}", callee.name)
                        });
                        index += 1;
                    }
                    Ok(why) => {
                        let live_in = cx.entry_live_locals(callee_id);
                        let source = Callee {
                            id: callee_id,
                            body: callee,
                            read_before_written: &live_in,
                            copied_again: call_graph.call_sites(callee_id) > 1,
                        };
                        let copy = if returns_from_its_only_block(callee) {
                            splice_call(func, block, index, &source, &mut fresh, &mut work)
                                .map(Placed::InPlace)
                        } else {
                            let at = (block, origin, index);
                            inline_call(func, at, &source, &mut fresh, &mut work)
                                .map(Placed::Blocks)
                        };
                        let Some(copy) = copy else {
                            index += 1;
                            continue;
                        };
                        size += callee_size + 1;
                        if let Some(unit) = unit {
                            unit.spend(callee_size + 1);
                        }
                        inlined += 1;
                        cx.applied_with(func, block, loc, || {
                            format!(
                                "call of `{}` inlined ({callee_size} instructions; {why})",
                                callee.name
                            )
                        });
                        match copy {
                            // The copy's own calls stay, as in a copy laid out as blocks
                            // (whose blocks are not walked).
                            Placed::InPlace(copied) => index += copied,
                            Placed::Blocks(cont) => {
                                every_copy_returns &= returns(callee);
                                blocks.push((cont, looped, origin));
                                break;
                            }
                        }
                    }
                }
            }
        }
        work.names = fresh.names;
        work.blocks = blocks;
        cx.stat("calls_inlined", inlined);
        cx.stat("calls_kept", kept);
        if inlined > 0 {
            merge_straight_jumps(func, cx, every_copy_returns, &mut work.npreds);
        }
        cx.give_scratch(work);
        inlined > 0
    }
}

/// Merges the jumps the splices left behind (`br f_entry` into a callee's entry, a single
/// `ret`'s `br B_cont`): a block whose only predecessor always jumps to it is appended to that
/// predecessor ([`merge_blocks`], whose soundness argument applies unchanged). The passes
/// after the inliner then see one block where the call was, and the fact analysis evaluates
/// fewer blocks on every sweep.
///
/// When every copy laid out as blocks has a `ret`, every block is reachable: the caller's
/// blocks were (the verifier refuses an unreachable block), a copy's blocks are reachable from
/// its entry as the callee's were from the callee's, and its continuation from the copied
/// `ret`s. The predecessors are then counted from the terminators, without a CFG.
/// `npreds` is working storage, kept from function to function.
fn merge_straight_jumps(
    func: &mut Function,
    cx: &mut PassContext<'_>,
    every_copy_returns: bool,
    npreds: &mut Vec<u32>,
) {
    if every_copy_returns {
        npreds.clear();
        npreds.resize(func.blocks.len(), 0);
        for &p in &func.layout {
            match func.blocks[p].terminator {
                Some(Terminator::Br(b)) => npreds[b.index()] += 1,
                Some(Terminator::BrIf {
                    then_block,
                    else_block,
                    ..
                }) => {
                    npreds[then_block.index()] += 1;
                    // A predecessor counts once, whatever the number of its edges.
                    if else_block != then_block {
                        npreds[else_block.index()] += 1;
                    }
                }
                _ => {}
            }
        }
        merge_into_only_predecessors(func, cx, npreds);
        return;
    }
    let mut cfg = cx.spare_cfg();
    cx.recompute_cfg(func, &mut cfg);
    // The continuation of a call whose callee never returns (every path traps) has no way in,
    // and the verifier refuses an unreachable block.
    remove_unreachable(func, cx, &cfg);
    merge_blocks(func, cx, &cfg);
    cx.return_cfg(cfg);
}

/// Whether some block of `func` has a call whose decision may ask whether it lies in a loop
/// ([`asks_for_loops`]); if so, `loops.in_loop[b]` says so for every block `b` with such a
/// call: whether `b` lies on a cycle of the CFG ([`on_cycle`]). Otherwise every block counts as
/// outside loops, which changes no decision and no remark:
/// - when every branch goes to a block later in the layout, the CFG has no cycle, so no block
///   is in a loop (the usual shape of a function that only calls others);
/// - when no call of `func` asks, the answer is never read.
///
/// A block lies on a cycle exactly when its loop depth
/// ([`poolopt_ir::cfg::Cfg::loop_depths`]) is nonzero, every block of the caller being reachable (see [`merge_straight_jumps`]): a cycle
/// through `b` enters its first block in reverse post-order by a retreating edge, whose walk
/// back from the tail marks every block of the cycle; conversely the walk marks only blocks
/// that reach the tail and, coming after the head in reverse post-order while reaching it,
/// descend from the head in the depth-first search, so they lie on a cycle through the edge.
/// The searches from the few blocks with such calls cost less than the CFG and its loop
/// depths; past [`SEARCH_STEPS`] blocks per block of the layout in all, the loop depths are
/// computed instead, so a function with many such calls stays linear.
///
/// `loops` is working storage, kept from function to function.
fn blocks_in_loops(
    func: &Function,
    cx: &mut PassContext<'_>,
    call_graph: &CallGraph,
    loops: &mut Loops,
) -> bool {
    let position = &mut loops.position;
    position.clear();
    position.resize(func.blocks.len(), 0);
    for (k, &b) in func.layout.iter().enumerate() {
        position[b.index()] = k as u32;
    }
    let forward = func.layout.iter().enumerate().all(|(k, &b)| {
        func.blocks[b]
            .terminator
            .as_ref()
            .is_none_or(|t| t.successors().all(|s| position[s.index()] > k as u32))
    });
    if forward {
        return false;
    }
    let module = cx.module;
    loops.in_loop.clear();
    loops.mark.clear();
    let mut steps_left = SEARCH_STEPS * func.layout.len();
    let mut asked = false;
    for (k, &b) in func.layout.iter().enumerate() {
        let asks = func.blocks[b]
            .insts
            .iter()
            .any(|&i| asks_for_loops(&func.insts[i].kind, module, call_graph));
        if !asks {
            continue;
        }
        asked = true;
        let stamp = k as u32 + 1;
        match on_cycle(
            func,
            b,
            stamp,
            &mut loops.mark,
            &mut loops.stack,
            &mut steps_left,
        ) {
            Some(on) => loops.in_loop[b] = on,
            None => {
                let Loops {
                    in_loop,
                    depth,
                    mark,
                    stack,
                    ..
                } = loops;
                cx.cfg(func).loop_depths_into(depth, mark, stack);
                for &b in &func.layout {
                    in_loop[b] = depth[b] > 0;
                }
                return true;
            }
        }
    }
    asked
}

/// How many blocks, per block of the layout, [`blocks_in_loops`] searches in all before it
/// computes the loop depths instead.
const SEARCH_STEPS: usize = 2;

/// Whether `target` reaches itself by one edge or more (`None` once `steps_left` blocks have
/// been searched). A block the search reaches is marked with `stamp`, which no earlier search
/// of the same marks used.
fn on_cycle(
    func: &Function,
    target: Block,
    stamp: u32,
    mark: &mut SecondaryMap<Block, u32>,
    stack: &mut Vec<Block>,
    steps_left: &mut usize,
) -> Option<bool> {
    stack.clear();
    stack.push(target);
    while let Some(b) = stack.pop() {
        *steps_left = steps_left.checked_sub(1)?;
        let Some(term) = func.blocks.get(b).and_then(|d| d.terminator.as_ref()) else {
            continue;
        };
        for s in term.successors() {
            if s == target {
                return Some(true);
            }
            if mark[s] != stamp {
                mark[s] = stamp;
                stack.push(s);
            }
        }
    }
    Some(false)
}

/// Whether [`decide`] may ask whether the call `kind` lies in a loop: only for a callee with a
/// body, on no call-graph cycle, without an `inline` or `noinline` mark, of more than
/// [`SMALL`] and at most [`MEDIUM`] instructions does it get that far (every other call is
/// decided before).
fn asks_for_loops(kind: &InstKind, module: &Module, call_graph: &CallGraph) -> bool {
    match *kind {
        InstKind::Call { func: id, .. } => module.funcs.get(id).is_some_and(|callee| {
            !callee.layout.is_empty()
                && callee.inline == InlineHint::Default
                && !call_graph.is_recursive(id)
                && (SMALL + 1..=MEDIUM).contains(&callee.inst_count())
        }),
        _ => false,
    }
}

/// The working storage of [`blocks_in_loops`].
#[derive(Default)]
struct Loops {
    /// Each block's position in the layout.
    position: Vec<u32>,
    in_loop: SecondaryMap<Block, bool>,
    depth: SecondaryMap<Block, u32>,
    mark: SecondaryMap<Block, u32>,
    stack: Vec<Block>,
}

/// Whether `callee` has a `ret` (otherwise every path through it traps).
fn returns(callee: &Function) -> bool {
    callee
        .layout
        .iter()
        .any(|&b| matches!(callee.blocks[b].terminator, Some(Terminator::Ret(_))))
}

/// For each parameter of `callee`, whether an instruction of its body assigns it (a field
/// write included).
fn assigned_params_into(callee: &Function, assigned: &mut Vec<bool>) {
    assigned.clear();
    assigned.resize(callee.params.len(), false);
    for &b in &callee.layout {
        for &inst in &callee.blocks[b].insts {
            if let Some(d) = callee.insts[inst].kind.def() {
                if let Some(k) = callee.params.iter().position(|&p| p == d) {
                    assigned[k] = true;
                }
            }
        }
    }
}

/// Whether `func` calls anything (a function without calls has nothing to inline).
fn has_calls(func: &Function) -> bool {
    func.insts
        .values()
        .any(|d| matches!(d.kind, InstKind::Call { .. }))
}

/// Why a call is kept: formatted only when a remark is collected.
enum KeptBecause {
    NoBody,
    Recursive,
    NoInline,
    HardCap,
    UnitBudget { limit: usize },
    TooLarge { callee_size: usize },
    NotInLoop { callee_size: usize, call_sites: u32 },
    Budget { caller_size: usize, budget: usize },
}

impl std::fmt::Display for KeptBecause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            KeptBecause::NoBody => write!(f, "the callee has no body"),
            KeptBecause::Recursive => write!(f, "it is recursive (on a cycle of the call graph)"),
            KeptBecause::NoInline => write!(f, "the callee is marked `noinline`"),
            KeptBecause::HardCap => write!(f, "the caller would exceed {HARD_CAP} instructions"),
            KeptBecause::UnitBudget { limit } => write!(
                f,
                "the module's inlining budget is spent ({limit} instructions added)"
            ),
            KeptBecause::TooLarge { callee_size } => write!(
                f,
                "too large ({callee_size} instructions; the limit is {MEDIUM})"
            ),
            KeptBecause::NotInLoop {
                callee_size,
                call_sites,
            } => write!(
                f,
                "{callee_size} instructions, more than {SMALL}, called from {call_sites} sites and not in a loop"
            ),
            KeptBecause::Budget {
                caller_size,
                budget,
            } => write!(
                f,
                "the caller's growth budget is spent ({caller_size} of {budget} instructions)"
            ),
        }
    }
}

/// Whether to inline one call: `Ok(why)` or `Err(why not)`.
fn decide(
    callee: &Function,
    recursive: bool,
    call_sites: u32,
    callee_size: usize,
    in_loop: bool,
    (caller_size, budget): (usize, usize),
    unit: Option<&UnitBudget>,
) -> Result<&'static str, KeptBecause> {
    if callee.layout.is_empty() {
        return Err(KeptBecause::NoBody);
    }
    if recursive {
        return Err(KeptBecause::Recursive);
    }
    if callee.inline == InlineHint::Never {
        return Err(KeptBecause::NoInline);
    }
    let grown = caller_size + callee_size;
    if grown > HARD_CAP {
        return Err(KeptBecause::HardCap);
    }
    if let Some(unit) = unit.filter(|u| callee_size + 1 > u.left()) {
        return Err(KeptBecause::UnitBudget {
            limit: unit.limit(),
        });
    }
    if callee.inline == InlineHint::Always {
        return Ok("marked `inline`");
    }
    if callee_size <= SMALL {
        return Ok("small");
    }
    if callee_size > MEDIUM {
        return Err(KeptBecause::TooLarge { callee_size });
    }
    if !in_loop && call_sites > 1 {
        return Err(KeptBecause::NotInLoop {
            callee_size,
            call_sites,
        });
    }
    if grown > budget {
        return Err(KeptBecause::Budget {
            caller_size,
            budget,
        });
    }
    Ok(if in_loop {
        "called in a loop"
    } else {
        "its only call site"
    })
}

/// Replaces the call at `index` of `block` by a copy of `callee`; returns the continuation
/// block that holds the instructions after the call (`None`, changing nothing, when there is no
/// call at `index`). The continuation is named `<origin>_after_<callee>` (made unique), after
/// the block of the original function the call was written in — not after `block`, which may
/// be an earlier continuation: chained names would grow with every call of a long block.
fn inline_call(
    func: &mut Function,
    (block, origin, index): (Block, Block, usize),
    source: &Callee<'_>,
    fresh: &mut Fresh,
    work: &mut Work,
) -> Option<Block> {
    let Work {
        binding,
        args,
        prologue,
        block_map,
        new_blocks,
        name_cache,
        ..
    } = work;
    let (call_loc, dst) = call_at(func, block, index, args)?;
    let (callee_id, callee) = (source.id, source.body);
    fresh.prepare_names(func, true);
    let callee_names = name_cache.of(source);

    // Room for the copies at once, not one growth after another.
    func.blocks.reserve(callee.blocks.len() + 1);
    binding.bind(func, source, args, &mut fresh.names, callee_names);

    // Fresh blocks, and the continuation. A callee block no terminator names maps to `block`.
    block_map.clear();
    block_map.resize(callee.blocks.len(), block);
    new_blocks.clear();
    for &cb in &callee.layout {
        let name = fresh.names.block_from(callee_names.block(callee, cb));
        let nb = func.blocks.push(BlockData {
            name,
            // The copies and, for a `ret`, its copy to the destination.
            insts: Vec::with_capacity(callee.blocks[cb].insts.len() + 1),
            terminator: None,
            term_loc: Loc::UNKNOWN,
            loc: callee.blocks[cb].loc.inlined_from(callee_id),
        });
        block_map[cb.index()] = nb;
        new_blocks.push(nb);
    }
    let cont_name = fresh.names.block(concat(&[
        &func.blocks[origin].name,
        "_after_",
        &callee.name,
    ]));
    let tail: Vec<Inst> = func.blocks[block].insts.split_off(index + 1);
    func.blocks[block].insts.pop(); // the call itself
    let terminator = func.blocks[block].terminator.take();
    let term_loc = func.blocks[block].term_loc;
    let cont = func.blocks.push(BlockData {
        name: cont_name,
        insts: tail,
        terminator,
        term_loc,
        loc: call_loc,
    });
    new_blocks.push(cont);

    // Bind the parameters, reset the locals a fresh frame would have zeroed, enter the copy.
    binding.prologue(func, source, args, fresh, prologue);
    for kind in prologue.drain(..) {
        let inst = func.make_inst(kind, call_loc);
        func.blocks[block].insts.push(inst);
    }
    let callee_entry = callee.layout[0];
    func.blocks[block].terminator = Some(Terminator::Br(block_map[callee_entry.index()]));
    func.blocks[block].term_loc = call_loc;

    // Copy the body.
    for &cb in &callee.layout {
        let nb = block_map[cb.index()];
        let data = &callee.blocks[cb];
        for &ci in &data.insts {
            let inst = binding.copy_inst(func, source, ci);
            func.blocks[nb].insts.push(inst);
        }
        let term_loc = data.term_loc.inlined_from(callee_id);
        let term = match data.terminator.as_ref() {
            Some(Terminator::Br(t)) => Terminator::Br(block_map[t.index()]),
            Some(Terminator::BrIf {
                cond,
                then_block,
                else_block,
            }) => Terminator::BrIf {
                cond: binding.map_operand(*cond),
                then_block: block_map[then_block.index()],
                else_block: block_map[else_block.index()],
            },
            Some(Terminator::Ret(value)) => {
                if let Some(inst) = binding.return_copy(func, dst, *value, term_loc) {
                    func.blocks[nb].insts.push(inst);
                }
                Terminator::Br(cont)
            }
            Some(Terminator::Trap(message)) => Terminator::Trap(message.clone()),
            // Verified callees always have terminators; an unterminated block cannot occur.
            None => Terminator::Trap("unterminated block".into()),
        };
        func.blocks[nb].terminator = Some(term);
        func.blocks[nb].term_loc = term_loc;
    }

    // Lay the copy out right after the call's block.
    let pos = func
        .layout
        .iter()
        .position(|&b| b == block)
        .map_or(func.layout.len(), |p| p + 1);
    func.layout.splice(pos..pos, new_blocks.drain(..));
    Some(cont)
}

/// The function a call is copied from.
struct Callee<'c> {
    id: FuncId,
    body: &'c Function,
    /// Its locals read before they are written (live on entry): reset in every copy.
    read_before_written: &'c [Local],
    /// Whether it has more than one call site, so copies after this one may start from the
    /// names this one composes ([`NameCache`]).
    copied_again: bool,
}

/// What one run of the inliner makes fresh for every copy: names, and the never-assigned local
/// per struct or vec type whose value is that type's zero.
struct Fresh {
    names: Names,
    /// Whether `names` holds the function's local names yet ([`Fresh::prepare_names`]).
    locals_ready: bool,
    /// Whether `names` holds the function's block names yet.
    blocks_ready: bool,
    zero_locals: FxHashMap<Type, Local>,
}

impl Fresh {
    /// Fills the name sets with `func`'s local names before its first copy and, when it
    /// makes `blocks`, with its block names before its first copy laid out as blocks: a
    /// function none of whose calls is inlined never hashes its names, and one whose copies
    /// are all spliced into their blocks ([`splice_call`]) never hashes its block names. The
    /// copies spliced before add no block, so the block names are still the function's.
    fn prepare_names(&mut self, func: &Function, blocks: bool) {
        if !self.locals_ready {
            self.names.reset_locals(func);
            self.locals_ready = true;
        }
        if blocks && !self.blocks_ready {
            self.names.reset_blocks(func);
            self.blocks_ready = true;
        }
    }
}

/// The tables of one copy, kept from copy to copy and from function to function
/// ([`PassContext::take_scratch`]): each copy resets what it reads.
#[derive(Default)]
struct Work {
    /// The name sets' storage ([`Fresh::names`]) between functions.
    names: Names,
    binding: Binding,
    /// The call's arguments.
    args: Vec<Operand>,
    /// The prologue's instructions ([`Binding::prologue`]).
    prologue: Vec<InstKind>,
    /// A spliced copy's instructions ([`splice_call`]).
    copy: Vec<Inst>,
    /// Each callee block's copy, by the callee block's index ([`inline_call`]).
    block_map: Vec<Block>,
    /// The copies laid out after the call's block, and the continuation ([`inline_call`]).
    new_blocks: Vec<Block>,
    /// The names the callees' copies start from.
    name_cache: NameCache,
    /// Whether the caller's blocks lie in loops ([`blocks_in_loops`]).
    loops: Loops,
    /// The blocks left to walk, each with whether it lies in a loop and its original block
    /// (`Inline::run`).
    blocks: Vec<(Block, bool, Block)>,
    /// The predecessor counts of [`merge_straight_jumps`].
    npreds: Vec<u32>,
}

/// The names `<callee>_<local>` and `<callee>_<block>` that a callee's copies start from (the
/// name a copy gets is one of these or, when it is taken, the same with a suffix), each with
/// its hash, made when first needed.
#[derive(Clone, Default)]
struct CalleeNames {
    /// By the callee's local index (a parameter bound to its argument needs none).
    locals: Vec<Option<Composed>>,
    /// By the callee's block index.
    blocks: Vec<Option<Composed>>,
    /// Makes them, from `<callee>_`.
    joiner: Joiner,
}

impl CalleeNames {
    /// Empties the names and makes room for those of `callee`.
    fn reset_for(&mut self, callee: &Function) {
        self.locals.clear();
        self.locals.resize_with(callee.locals.len(), || None);
        self.blocks.clear();
        self.blocks.resize_with(callee.blocks.len(), || None);
        self.joiner.clear();
    }

    /// `<callee>_<local>` for the callee's local `l`.
    fn local(&mut self, callee: &Function, l: Local) -> &Composed {
        let joiner = &mut self.joiner;
        self.locals[l.index()]
            .get_or_insert_with(|| Composed::new(joiner.join(&callee.name, &callee.locals[l].name)))
    }

    /// `<callee>_<block>` for the callee's block `b`.
    fn block(&mut self, callee: &Function, b: Block) -> &Composed {
        let joiner = &mut self.joiner;
        self.blocks[b.index()]
            .get_or_insert_with(|| Composed::new(joiner.join(&callee.name, &callee.blocks[b].name)))
    }
}

/// The [`CalleeNames`] of the callees copied so far. Those of a callee with more than one call
/// site are kept for its next copies, in this caller or a later one: the scratch store lives
/// for one run of the pass manager, which optimizes callers after their callees, so a callee's
/// names no longer change once it is copied (as for [`PassContext::entry_live_locals`]). Were
/// a kept name stale, the copy would only be named differently: whatever the base, the name
/// sets make every name unique.
#[derive(Default)]
struct NameCache {
    /// By callee; empty until its first copy (a callee has a block).
    shared: SecondaryMap<FuncId, CalleeNames>,
    /// Those of the single-site callee copied last.
    once: CalleeNames,
}

impl NameCache {
    /// The names the copy of `source` starts from.
    fn of(&mut self, source: &Callee<'_>) -> &mut CalleeNames {
        if !source.copied_again {
            self.once.reset_for(source.body);
            return &mut self.once;
        }
        let names = &mut self.shared[source.id];
        if names.blocks.is_empty() {
            names.reset_for(source.body);
        }
        names
    }
}

/// The location and destination of the call at `index` of `block`, if there is one; its
/// arguments into `args`.
fn call_at(
    func: &Function,
    block: Block,
    index: usize,
    args: &mut Vec<Operand>,
) -> Option<(Loc, Option<Local>)> {
    let call = *func.blocks[block].insts.get(index)?;
    match &func.insts[call].kind {
        InstKind::Call { dst, args: a, .. } => {
            args.clear();
            args.extend_from_slice(a);
            Some((func.insts[call].loc, *dst))
        }
        _ => None,
    }
}

/// Where a call's copy went.
enum Placed {
    /// Into the call's block, in place of the call: this many instructions ([`splice_call`]).
    InPlace(usize),
    /// Into blocks of its own; the instructions after the call are in this continuation
    /// ([`inline_call`]).
    Blocks(Block),
}

/// Whether `callee` is one block that ends in `ret`: its copy is spliced into the caller's
/// block ([`splice_call`]) instead of being laid out as blocks of its own.
fn returns_from_its_only_block(callee: &Function) -> bool {
    matches!(callee.layout[..], [only] if matches!(callee.blocks[only].terminator, Some(Terminator::Ret(_))))
}

/// Replaces the call at `index` of `block` by the instructions of `callee`, which is one block
/// ending in `ret v` ([`returns_from_its_only_block`]): the parameter copies and resets of
/// [`inline_call`], the body, then `dst = copy v`, all in place of the call. The result is what
/// [`inline_call`] followed by the merging of its two straight jumps gives (the same
/// instructions in the same order, in `block`), without the two blocks in between. Returns how
/// many instructions now stand where the call was (`None`, changing nothing, when there is no
/// call at `index`).
fn splice_call(
    func: &mut Function,
    block: Block,
    index: usize,
    source: &Callee<'_>,
    fresh: &mut Fresh,
    work: &mut Work,
) -> Option<usize> {
    let Work {
        binding,
        args,
        prologue,
        copy,
        name_cache,
        ..
    } = work;
    let (call_loc, dst) = call_at(func, block, index, args)?;
    let callee = source.body;
    let only = callee.layout[0];
    let data = &callee.blocks[only];
    let Some(Terminator::Ret(value)) = data.terminator else {
        return None;
    };
    fresh.prepare_names(func, false);
    binding.bind(func, source, args, &mut fresh.names, name_cache.of(source));
    binding.prologue(func, source, args, fresh, prologue);
    copy.clear();
    for kind in prologue.drain(..) {
        copy.push(func.make_inst(kind, call_loc));
    }
    for &ci in &data.insts {
        copy.push(binding.copy_inst(func, source, ci));
    }
    let term_loc = data.term_loc.inlined_from(source.id);
    copy.extend(binding.return_copy(func, dst, value, term_loc));
    let copied = copy.len();
    replace_at(&mut func.blocks[block].insts, index, copy);
    copy.clear();
    Some(copied)
}

/// Replaces `insts[index]` by `by`, in place: what `insts.splice(index..=index, by)` does,
/// with one growth and two moves, without the splice's iterator machinery (see the test).
/// `index` must be an index of `insts`.
fn replace_at(insts: &mut Vec<Inst>, index: usize, by: &[Inst]) {
    let Some((&first, rest)) = by.split_first() else {
        insts.remove(index);
        return;
    };
    insts[index] = first;
    let end = insts.len();
    // Room for the rest at the end, the tail moved there, the rest where the tail was.
    insts.extend_from_slice(rest);
    insts.copy_within(index + 1..end, index + 1 + rest.len());
    insts[index + 1..index + 1 + rest.len()].copy_from_slice(rest);
}

/// The callee's locals in a copy of its body: a parameter the callee never assigns, bound to
/// a local of the same type, is that local (see the module docs); every other callee local
/// gets a fresh one, created here in the callee's order.
///
/// Its tables are reused from copy to copy ([`Work`]): [`Binding::bind`] resets them.
struct Binding {
    local_map: SecondaryMap<Local, Local>,
    bound: SecondaryMap<Local, bool>,
    /// For each parameter of the callee, whether its body assigns it.
    assigned: Vec<bool>,
    /// The callee `assigned` was found for in this run of the pass, if any: copies of one
    /// callee one after the other (its calls in one block) find it once.
    assigned_for: Option<FuncId>,
}

impl Default for Binding {
    fn default() -> Binding {
        Binding {
            local_map: SecondaryMap::with_default(Local::new(0)),
            bound: SecondaryMap::with_default(false),
            assigned: Vec::new(),
            assigned_for: None,
        }
    }
}

impl Binding {
    /// Binds the callee's locals for one copy (the tables of the previous copy are reset).
    fn bind(
        &mut self,
        func: &mut Function,
        source: &Callee<'_>,
        args: &[Operand],
        names: &mut Names,
        callee_names: &mut CalleeNames,
    ) {
        let (callee_id, callee) = (source.id, source.body);
        func.locals.reserve(callee.locals.len() + 1);
        func.insts.reserve(callee.insts.len() + args.len() + 1);
        let Binding {
            local_map,
            bound,
            assigned,
            assigned_for,
        } = self;
        local_map.clear();
        local_map.resize(callee.locals.len());
        bound.clear();
        bound.resize(callee.locals.len());
        if *assigned_for != Some(callee_id) {
            assigned_params_into(callee, assigned);
            *assigned_for = Some(callee_id);
        }
        for (k, (&p, &arg)) in callee.params.iter().zip(args).enumerate() {
            if let Operand::Local(a) = arg {
                if !assigned[k] && !bound[p] && func.locals[a].ty == callee.locals[p].ty {
                    local_map[p] = a;
                    bound[p] = true;
                }
            }
        }
        for (l, data) in callee.locals.iter() {
            if bound[l] {
                continue;
            }
            let name = names.local_from(callee_names.local(callee, l));
            let new = func.locals.push(LocalData {
                name,
                ty: data.ty,
                packed: false,
                loc: data.loc.inlined_from(callee_id),
            });
            local_map[l] = new;
        }
    }

    fn map_operand(&self, op: Operand) -> Operand {
        match op {
            Operand::Local(l) => Operand::Local(self.local_map[l]),
            c => c,
        }
    }

    /// The copies that bind the unbound parameters, then the resets of the locals read before
    /// they are written (a fresh frame would have zeroed them), in that order, into `prologue`.
    fn prologue(
        &self,
        func: &mut Function,
        source: &Callee<'_>,
        args: &[Operand],
        fresh: &mut Fresh,
        prologue: &mut Vec<InstKind>,
    ) {
        let (callee, read_before_written) = (source.body, source.read_before_written);
        prologue.clear();
        for (&p, &arg) in callee.params.iter().zip(args) {
            if self.bound[p] {
                continue;
            }
            prologue.push(InstKind::Copy {
                dst: self.local_map[p],
                src: arg,
            });
        }
        for &l in read_before_written {
            let dst = self.local_map[l];
            let src = match callee.locals[l].ty {
                Type::Scalar(_) => Operand::Const(0),
                ty => Operand::Local(*fresh.zero_locals.entry(ty).or_insert_with(|| {
                    let name = fresh.names.local(Name::from("inline_zero"));
                    func.locals.push(LocalData {
                        name,
                        ty,
                        packed: false,
                        loc: Loc::UNKNOWN,
                    })
                })),
            };
            prologue.push(InstKind::Copy { dst, src });
        }
    }

    /// What a copied `ret value` becomes before the code after the call: `dst = copy value`
    /// (nothing when the call has no destination or the callee returns nothing).
    fn return_copy(
        &self,
        func: &mut Function,
        dst: Option<Local>,
        value: Option<Operand>,
        loc: Loc,
    ) -> Option<Inst> {
        let (dst, v) = (dst?, value?);
        let src = self.map_operand(v);
        Some(func.make_inst(InstKind::Copy { dst, src }, loc))
    }

    /// A copy of the callee's instruction `ci` in `func`, its locals mapped.
    fn copy_inst(&self, func: &mut Function, source: &Callee<'_>, ci: Inst) -> Inst {
        let (callee_id, callee) = (source.id, source.body);
        let data = &callee.insts[ci];
        let renamed = data.kind.map_locals(|l| self.local_map[l]);
        func.make_inst(renamed, data.loc.inlined_from(callee_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The repository's programs.
    fn modules() -> Vec<Module> {
        crate::test_programs::modules()
    }

    /// [`replace_at`] does what `Vec::splice` of one element does, wherever the element is
    /// and whatever the number of instructions put in its place.
    #[test]
    fn replacing_an_instruction_is_a_splice() {
        let inst = |k: usize| Inst::new(k);
        for len in 1..8 {
            for index in 0..len {
                for by in 0..6 {
                    let mut insts: Vec<Inst> = (0..len).map(inst).collect();
                    let with: Vec<Inst> = (100..100 + by).map(inst).collect();
                    let mut expected = insts.clone();
                    expected.splice(index..=index, with.iter().copied());
                    replace_at(&mut insts, index, &with);
                    assert_eq!(insts, expected, "{len} {index} {by}");
                }
            }
        }
    }

    /// A copy laid out as blocks after copies spliced in place ([`splice_call`], which make
    /// no block names) still gets block names unique among the function's: the block names are
    /// hashed at the first copy that makes one ([`Fresh::prepare_names`]).
    #[test]
    fn block_names_stay_unique_after_splices() {
        let src = "fn one(x: i64) -> i64 {\nentry:\n    ret x\n}\n\
                   fn two(c: bool) -> i64 {\nentry:\n    brif c, a, b\na:\n    ret 1\nb:\n    \
                   ret 2\n}\n\
                   fn f(c: bool) -> i64 {\n    var y: i64\n    var z: i64\nentry:\n    \
                   y = call one(1)\n    brif c, two_a, other\nother:\n    br two_a\ntwo_a:\n    \
                   z = call two(c)\n    ret z\n}\n";
        let mut module = poolopt_ir::parse(src).unwrap();
        let manager = crate::PassManager::from_names(&["inline"]).unwrap();
        let report = manager.run(&mut module).unwrap();
        assert_eq!(report.stats.get("inline", "calls_inlined"), 2);
        let f = &module.funcs[module.func_by_name("f").unwrap()];
        let printed = poolopt_ir::print_function(&module, f);
        let labels: Vec<&str> = printed.lines().filter(|l| l.starts_with("two_")).collect();
        assert_eq!(
            labels,
            ["two_a:", "two_a_2:", "two_b:", "two_a_after_two:"],
            "{printed}"
        );
    }

    /// A parameter is read in place of its argument only in the copies of a callee that never
    /// assigns it, whichever callee was copied before ([`Binding::assigned_for`]): `bump`
    /// assigns its parameter, `keep` does not, and `a` is only ever assigned by `f` itself.
    #[test]
    fn only_parameters_never_assigned_read_their_arguments() {
        let src = "fn keep(x: i64) -> i64 {\nentry:\n    ret x\n}\n\
                   fn bump(x: i64) -> i64 {\nentry:\n    x = add x, 1\n    ret x\n}\n\
                   fn f(n: i64) -> i64 {\n    var a: i64\n    var y: i64\nentry:\n    \
                   a = copy n\n    y = call keep(a)\n    y = call bump(a)\n    \
                   y = call keep(a)\n    y = call bump(a)\n    ret y\n}\n";
        let mut module = poolopt_ir::parse(src).unwrap();
        let manager = crate::PassManager::from_names(&["inline"]).unwrap();
        let report = manager.run(&mut module).unwrap();
        assert_eq!(report.stats.get("inline", "calls_inlined"), 4);
        let f = &module.funcs[module.func_by_name("f").unwrap()];
        let printed = poolopt_ir::print_function(&module, f);
        let writes_a = printed
            .lines()
            .filter(|l| l.trim_start().starts_with("a = "));
        assert_eq!(writes_a.count(), 1, "{printed}");
        assert!(printed.contains("bump_x = copy a"), "{printed}");
    }

    /// [`asks_for_loops`] is `true` for every call of the repository's programs whose decision
    /// differs in and out of a loop, whatever the caller's size and the unit's budget.
    #[test]
    fn loops_are_asked_for_wherever_they_decide() {
        let (mut asked, mut deciding) = (0, 0);
        for module in modules() {
            let call_graph = CallGraph::compute(&module);
            for (_, func) in module.funcs.iter() {
                for data in func.insts.values() {
                    let may_ask = asks_for_loops(&data.kind, &module, &call_graph);
                    asked += usize::from(may_ask);
                    let InstKind::Call { func: id, .. } = data.kind else {
                        continue;
                    };
                    let Some(callee) = module.funcs.get(id) else {
                        continue;
                    };
                    let size = callee.inst_count();
                    for caller_size in [0, 100, 1_000, HARD_CAP] {
                        for budget in [0, 500, HARD_CAP] {
                            for unit in [None, Some(UnitBudget::for_unit(0))] {
                                let at = |in_loop| {
                                    let decision = decide(
                                        callee,
                                        call_graph.is_recursive(id),
                                        call_graph.call_sites(id),
                                        size,
                                        in_loop,
                                        (caller_size, budget),
                                        unit.as_ref(),
                                    );
                                    match decision {
                                        Ok(why) => format!("ok {why}"),
                                        Err(why) => format!("kept {why}"),
                                    }
                                };
                                if at(true) != at(false) {
                                    deciding += 1;
                                    assert!(may_ask, "{}: call of {}", func.name, callee.name);
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(
            asked > 0 && deciding > 0,
            "{asked} calls, {deciding} decisions"
        );
    }

    /// [`blocks_in_loops`] marks every block holding a call the loop test could decide as a
    /// nonzero loop depth does, by its searches and, past their step budget, by the loop
    /// depths: on the repository's programs, on a caller whose loop is one block branching to
    /// itself (a self-loop, which the layout test must not take for a forward branch), on a
    /// loop of ten blocks with such calls and on a loop through the entry block (the first
    /// search, whose marks must not be taken for those of an earlier one).
    #[test]
    fn blocks_in_loops_marks_what_the_loop_depths_say() {
        let body: String = (0..=SMALL).map(|_| "    x = add x, 1\n").collect();
        let src = format!(
            "fn medium(x: i64) -> i64 {{\nentry:\n{body}    ret x\n}}\n\
             fn spins(c: bool, x: i64) -> i64 {{\n    var y: i64\nentry:\n    br spin\n\
             spin:\n    y = call medium(x)\n    brif c, spin, out\nout:\n    ret y\n}}\n\
             fn once(x: i64) -> i64 {{\n    var y: i64\nentry:\n    y = call medium(x)\n    \
             ret y\n}}\n"
        );
        // A loop of ten blocks each with such a call, after one outside it: the searches from
        // them exceed the step budget, and the loop depths answer.
        let ring: String = (0..10)
            .map(|k| {
                format!(
                    "r{k}:\n    y = call medium(x)\n    brif c, r{}, out\n",
                    (k + 1) % 10
                )
            })
            .collect();
        let src = format!(
            "{src}fn ring(c: bool, x: i64) -> i64 {{\n    var y: i64\nentry:\n    y = call medium(x)\n    br r0\n{ring}\
             out:\n    ret y\n}}\n\
             fn head(c: bool, x: i64) -> i64 {{\n    var y: i64\nentry:\n    \
             y = call medium(x)\n    brif c, back, out\nback:\n    br entry\nout:\n    ret y\n}}\n"
        );
        let mut modules = modules();
        modules.push(poolopt_ir::parse(&src).unwrap());
        let (mut looped, mut straight) = (0, 0);
        for module in &modules {
            let call_graph = CallGraph::compute(module);
            for (_, func) in module.funcs.iter() {
                let depth = poolopt_ir::cfg::Cfg::compute(func).loop_depths();
                let asking: Vec<Block> = func
                    .layout
                    .iter()
                    .copied()
                    .filter(|&b| {
                        func.blocks[b]
                            .insts
                            .iter()
                            .any(|&i| asks_for_loops(&func.insts[i].kind, module, &call_graph))
                    })
                    .collect();
                let (mut remarks, mut stats) = (Vec::new(), crate::Stats::default());
                let mut cx = PassContext::new(module, &func.name, &mut remarks, &mut stats);
                let mut loops = Loops::default();
                let any = blocks_in_loops(func, &mut cx, &call_graph, &mut loops);
                for &b in &asking {
                    let in_loop = any && loops.in_loop[b];
                    assert_eq!(
                        in_loop,
                        depth[b] > 0,
                        "{}: {}",
                        func.name,
                        func.blocks[b].name
                    );
                    if in_loop {
                        looped += 1
                    } else {
                        straight += 1
                    }
                }
            }
        }
        assert!(
            looped > 0 && straight > 0,
            "{looped} in loops, {straight} not"
        );
    }

    /// [`on_cycle`] says of every block of the repository's programs and of an irreducible
    /// CFG what a nonzero loop depth says, and gives up once its steps are spent.
    #[test]
    fn a_block_is_on_a_cycle_where_its_loop_depth_is_nonzero() {
        let irreducible = "fn f(c: bool) -> i64 {\nentry:\n    brif c, a, b\na:\n    \
                           brif c, b, out\nb:\n    brif c, a, b\nout:\n    ret 0\n}\n";
        let mut modules = modules();
        modules.push(poolopt_ir::parse(irreducible).unwrap());
        let (mut on, mut off) = (0, 0);
        let (mut mark, mut stack) = (SecondaryMap::new(), Vec::new());
        for module in &modules {
            for (_, func) in module.funcs.iter() {
                let depth = poolopt_ir::cfg::Cfg::compute(func).loop_depths();
                mark.clear();
                for (k, &b) in func.layout.iter().enumerate() {
                    let mut steps = usize::MAX;
                    let found = on_cycle(func, b, k as u32 + 1, &mut mark, &mut stack, &mut steps);
                    assert_eq!(
                        found,
                        Some(depth[b] > 0),
                        "{}: {}",
                        func.name,
                        func.blocks[b].name
                    );
                    if depth[b] > 0 {
                        on += 1
                    } else {
                        off += 1
                    }
                }
            }
        }
        assert!(on > 0 && off > 0, "{on} on cycles, {off} not");
        let module = modules.last().unwrap();
        let func = module.funcs.values().next().unwrap();
        let entry = func.layout[0];
        mark.clear();
        assert_eq!(
            on_cycle(func, entry, 1, &mut mark, &mut stack, &mut 3),
            None
        );
        assert_eq!(
            on_cycle(func, entry, 2, &mut mark, &mut stack, &mut 5),
            Some(false)
        );
    }
}
