//! Whether Cranelift's e-graph pass (`opt_level=speed`) would blow a function up.
//!
//! The e-graph pass takes every pure instruction out of its block and, walking the dominator
//! tree, puts each back where a side-effecting instruction or a branch first needs it
//! ("scoped elaboration"). Two effects of that are super-linear on some inputs, both measured
//! with `poolopt run F -O0 --cl-opt speed` and both gone at `opt_level=none`:
//!
//! - **Copies in sibling blocks.** A value computed in a block that does not use it itself, but
//!   whose successors both do, is computed again in each of them, and so are its operands that
//!   are not available there: a chain `s = add s, t` whose every link is read only in the two
//!   arms of the next diamond is recomputed whole in every arm (Cranelift issue #8959). 400
//!   such diamonds took 2.8 s, 800 took 46 s and 640 MB, 400 divisions 1.9 s: quadratic code,
//!   and regalloc2 then spills its values against each other (cubic time). At `none`, 8,000
//!   diamonds compile in 0.07 s.
//! - **Stretched live ranges.** A pure value is computed where it is first needed, so a chain
//!   of additions of loaded values (`s = add s, x` after each checked `x = get v[j]`) sinks to
//!   the end of the block: every loaded value stays live across all the loads after it (6,000
//!   of them: 1.3 s, against 0.06 s at `none`).
//!
//! `egraph_is_safe` replays the elaboration's placement on the function as lowered, cheaply:
//! the dominator tree in preorder, a scoped set of the pure values already computed, and each
//! side-effecting instruction's and branch's operands computed where they are used (without
//! the loop-invariant hoisting the real pass adds, which only ever computes less). It counts
//! the pure instructions computed and, for each, how far its operands that are not pure (a
//! load, a call's result, a block parameter) were defined before it, in side-effecting
//! instructions; past a budget proportional to the function's size it stops and says no, and
//! the function is compiled at `opt_level=none`. Ordinary functions stay far below both
//! budgets (docs/jit.md, "The elaboration budget").

use cranelift_codegen::dominator_tree::DominatorTree;
use cranelift_codegen::flowgraph::ControlFlowGraph;
use cranelift_codegen::ir::{Block, Function, Inst, InstructionData, Opcode, Value, ValueDef};
use cranelift_entity::SecondaryMap;

/// Functions of at most this many CLIF instructions are not replayed. The worst shapes
/// measured (a chain of diamonds, of divisions) cost at most 0.01 s at this size.
pub const ALWAYS_SAFE_INSTS: usize = 512;
/// The pure instructions the elaboration may compute: this many times the function's
/// instructions, plus [`COPY_SLACK`].
pub const COPIES_PER_INST: usize = 2;
/// See [`COPIES_PER_INST`].
pub const COPY_SLACK: usize = 1_000;
/// The operands' stretch (in side-effecting instructions between a non-pure operand's
/// definition and the pure instruction that reads it, summed) the elaboration may make: this
/// many times the function's instructions, plus [`STRETCH_SLACK`].
pub const STRETCH_PER_INST: u64 = 64;
/// See [`STRETCH_PER_INST`].
pub const STRETCH_SLACK: u64 = 100_000;

/// Work space of [`egraph_is_safe`], kept from one function to the next.
pub(crate) struct ElaborationScratch {
    cfg: ControlFlowGraph,
    domtree: DominatorTree,
    /// Whether a value is the result of a pure instruction.
    pure: SecondaryMap<Value, bool>,
    /// Whether a pure value is computed in the current scope or one that dominates it.
    available: SecondaryMap<Value, bool>,
    /// The pure values made available, in order, with scope marks: popped when a scope ends.
    undo: Vec<Option<Value>>,
    /// Where each value was defined (a pure one: written), in side-effecting instructions
    /// from the start of the walk.
    position: SecondaryMap<Value, u32>,
    /// The blocks still to visit (`Some`) and the scopes still to close (`None`).
    walk: Vec<Option<Block>>,
    /// The values still to compute for one operand, and whether their operands are done.
    pending: Vec<(Value, bool)>,
}

impl Default for ElaborationScratch {
    fn default() -> ElaborationScratch {
        ElaborationScratch {
            cfg: ControlFlowGraph::new(),
            domtree: DominatorTree::new(),
            pure: SecondaryMap::new(),
            available: SecondaryMap::new(),
            undo: Vec::new(),
            position: SecondaryMap::new(),
            walk: Vec::new(),
            pending: Vec::new(),
        }
    }
}

/// The replay's counts against its budgets.
#[derive(Debug)]
struct Replay {
    /// Pure instructions computed.
    copies: usize,
    /// Over every pure instruction computed: how many side-effecting instructions later than
    /// written, times its operands that are not pure.
    stretch: u64,
    copy_budget: usize,
    stretch_budget: u64,
}

impl Replay {
    fn over(&self) -> bool {
        self.copies > self.copy_budget || self.stretch > self.stretch_budget
    }
}

/// Whether `func` is pure for the e-graph pass (its `is_pure_for_egraph`): one result, and no
/// load (but a read-only one that cannot trap and can move), store, trap, call, branch or
/// other side effect.
fn is_pure(func: &Function, inst: Inst) -> bool {
    if func.dfg.inst_results(inst).len() != 1 {
        return false;
    }
    let data = &func.dfg.insts[inst];
    if let InstructionData::Load {
        opcode: Opcode::Load,
        flags,
        ..
    } = *data
    {
        let flags = func.dfg.mem_flags[flags];
        return flags.readonly() && flags.notrap() && flags.can_move();
    }
    let op = data.opcode();
    !(op.can_load()
        || op.is_call()
        || op.is_branch()
        || op.is_terminator()
        || op.is_return()
        || op.can_trap()
        || op.other_side_effects()
        || op.can_store())
}

/// Whether `func`'s e-graph compilation stays within the budgets of the module
/// documentation (`false`: compile it at `opt_level=none`). A function of at most
/// [`ALWAYS_SAFE_INSTS`] instructions is not replayed: what elaboration can make of it costs
/// little whatever it is.
pub(crate) fn egraph_is_safe(func: &Function, scratch: &mut ElaborationScratch) -> bool {
    let insts = func.dfg.num_insts();
    if insts <= ALWAYS_SAFE_INSTS {
        return true;
    }
    let (copy_budget, stretch_budget) = budgets(insts);
    let mut replay = Replay {
        copies: 0,
        stretch: 0,
        copy_budget,
        stretch_budget,
    };
    run_replay(func, scratch, &mut replay);
    !replay.over()
}

/// The copy and stretch budgets of a function of `insts` CLIF instructions.
fn budgets(insts: usize) -> (usize, u64) {
    (
        insts.saturating_mul(COPIES_PER_INST) + COPY_SLACK,
        (insts as u64).saturating_mul(STRETCH_PER_INST) + STRETCH_SLACK,
    )
}

/// Replays the elaboration of `func` into `replay`'s counts, stopping once they pass its
/// budgets.
fn run_replay(func: &Function, scratch: &mut ElaborationScratch, replay: &mut Replay) {
    let Some(entry) = func.layout.entry_block() else {
        return;
    };
    let s = scratch;
    s.cfg.compute(func);
    s.domtree.compute(func, &s.cfg);
    let values = func.dfg.num_values();
    for table in [&mut s.available, &mut s.pure] {
        table.clear();
        table.resize(values);
    }
    s.position.clear();
    s.position.resize(values);
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            if is_pure(func, inst) {
                s.pure[func.dfg.first_result(inst)] = true;
            }
        }
    }
    s.undo.clear();
    s.walk.clear();
    s.walk.push(Some(entry));
    let mut at: u32 = 0;
    while let Some(item) = s.walk.pop() {
        let Some(block) = item else {
            // The end of a scope: what it computed is not available to its siblings.
            while let Some(Some(v)) = s.undo.pop() {
                s.available[v] = false;
            }
            continue;
        };
        s.undo.push(None);
        s.walk.push(None);
        for &p in func.dfg.block_params(block) {
            s.position[p] = at;
        }
        for inst in func.layout.block_insts(block) {
            let results = func.dfg.inst_results(inst);
            if results.len() == 1 && s.pure[results[0]] {
                s.position[results[0]] = at;
                continue;
            }
            for arg in func.dfg.inst_values(inst) {
                demand(func, s, replay, arg, at);
                if replay.over() {
                    return;
                }
            }
            at += 1;
            for &r in func.dfg.inst_results(inst) {
                s.position[r] = at;
            }
        }
        for child in s.domtree.children(block) {
            s.walk.push(Some(child));
        }
    }
}

/// Computes `v` at side-effecting position `at`, with the operands it needs that are not
/// available yet, as the elaboration would.
fn demand(func: &Function, s: &mut ElaborationScratch, replay: &mut Replay, v: Value, at: u32) {
    let v = func.dfg.resolve_aliases(v);
    if !s.pure[v] || s.available[v] {
        return;
    }
    s.pending.clear();
    s.pending.push((v, false));
    while let Some((v, operands_done)) = s.pending.pop() {
        if s.available[v] {
            continue;
        }
        let ValueDef::Result(inst, _) = func.dfg.value_def(v) else {
            continue;
        };
        if operands_done {
            s.available[v] = true;
            s.undo.push(Some(v));
            replay.copies += 1;
            // Computed `sunk` side-effecting instructions later than written: each operand
            // that is not pure stays live that much longer.
            let sunk = u64::from(at.saturating_sub(s.position[v]));
            for arg in func.dfg.inst_values(inst) {
                if !s.pure[func.dfg.resolve_aliases(arg)] {
                    replay.stretch += sunk;
                }
            }
            if replay.over() {
                return;
            }
            continue;
        }
        s.pending.push((v, true));
        for arg in func.dfg.inst_values(inst) {
            let arg = func.dfg.resolve_aliases(arg);
            if s.pure[arg] && !s.available[arg] {
                s.pending.push((arg, false));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_clif::{frontend, signature};
    use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, TrapCode};
    use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

    /// The replay's counts for `func`, without budgets.
    fn counts(func: &Function) -> (usize, u64) {
        let mut replay = Replay {
            copies: 0,
            stretch: 0,
            copy_budget: usize::MAX,
            stretch_budget: u64::MAX,
        };
        run_replay(func, &mut ElaborationScratch::default(), &mut replay);
        (replay.copies, replay.stretch)
    }

    /// `block0(x): one = iconst 1; y = entry(x, one); brif x, block1, block2`, then
    /// `block1: return iadd y, one` and `block2: return isub y, one`.
    fn diamond(entry: impl FnOnce(&mut FunctionBuilder<'_>, Value, Value) -> Value) -> Function {
        let mut func = Function::with_name_signature(Default::default(), signature());
        let mut fbc = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(&mut func, &mut fbc);
        let (b0, b1, b2) = (b.create_block(), b.create_block(), b.create_block());
        b.append_block_params_for_function_params(b0);
        b.switch_to_block(b0);
        let x = b.block_params(b0)[0];
        let one = b.ins().iconst(types::I64, 1);
        let y = entry(&mut b, x, one);
        b.ins().brif(x, b1, &[], b2, &[]);
        b.switch_to_block(b1);
        let up = b.ins().iadd(y, one);
        b.ins().return_(&[up]);
        b.switch_to_block(b2);
        let down = b.ins().isub(y, one);
        b.ins().return_(&[down]);
        b.seal_all_blocks();
        b.finalize(frontend());
        func
    }

    #[test]
    fn a_value_read_only_in_both_arms_is_computed_in_each() {
        // block0: l = load x; store l, x+8; y = iadd l, l. Each arm computes `one`, `y` and
        // its own result: 6 copies (the load is no copy: it stays where it is, and the store
        // reads it there). `y` is computed one side-effecting instruction (the brif) after it
        // was written in the first arm visited and two (the brif and that arm's return) in
        // the other, and reads the load twice: a stretch of 2 × (1 + 2).
        let func = diamond(|b, x, _| {
            let loaded = b.ins().load(types::I64, MemFlagsData::trusted(), x, 0);
            b.ins().store(MemFlagsData::trusted(), loaded, x, 8);
            b.ins().iadd(loaded, loaded)
        });
        assert_eq!(counts(&func), (6, 6));
    }

    #[test]
    fn a_value_its_own_block_uses_is_computed_once() {
        // The near miss: block0 computes y = iadd x, one and also stores it, so `y` is
        // computed there, before the branch, and both arms find it: `one` and `y` once, and
        // each arm's own result.
        let func = diamond(|b, x, one| {
            let y = b.ins().iadd(x, one);
            b.ins().store(MemFlagsData::trusted(), y, x, 0);
            y
        });
        assert_eq!(counts(&func), (4, 0));
    }

    #[test]
    fn the_budgets_grow_with_the_function_and_are_inclusive() {
        assert_eq!(budgets(1_000), (3_000, 164_000));
        assert_eq!(budgets(600), (2_200, 138_400));
        let at = |copies, stretch| Replay {
            copies,
            stretch,
            copy_budget: 10,
            stretch_budget: 20,
        };
        assert!(!at(10, 20).over());
        assert!(at(11, 0).over());
        assert!(at(0, 21).over());
        assert!(!at(9, 19).over());
    }

    #[test]
    fn purity_follows_the_egraph_pass() {
        let mut func = Function::with_name_signature(Default::default(), signature());
        let mut fbc = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(&mut func, &mut fbc);
        let b0 = b.create_block();
        b.append_block_params_for_function_params(b0);
        b.switch_to_block(b0);
        let x = b.block_params(b0)[0];
        let add = b.ins().iadd(x, x);
        let cmp = b
            .ins()
            .icmp_imm_s(cranelift_codegen::ir::condcodes::IntCC::Equal, x, 0);
        let load = b.ins().load(types::I64, MemFlagsData::trusted(), x, 0);
        let fixed = MemFlagsData::trusted().with_readonly().with_can_move();
        let readonly = b.ins().load(types::I64, fixed, x, 8);
        let movable = MemFlagsData::trusted().with_can_move();
        let not_readonly = b.ins().load(types::I64, movable, x, 16);
        let may_trap = MemFlagsData::new().with_readonly().with_can_move();
        let trapping = b.ins().load(types::I64, may_trap, x, 24);
        let div = b.ins().sdiv(x, add);
        let sig = b.import_signature(signature());
        let callee = b.ins().iconst(types::I64, 0);
        let call = b.ins().call_indirect(sig, callee, &[x]);
        let called = b.inst_results(call)[0];
        b.ins().store(MemFlagsData::trusted(), x, x, 0);
        b.ins().trapnz(cmp, TrapCode::unwrap_user(1));
        let sum = b.ins().iadd(load, readonly);
        let sum = b.ins().iadd(sum, div);
        let sum = b.ins().iadd(sum, called);
        let sum = b.ins().iadd(sum, not_readonly);
        let sum = b.ins().iadd(sum, trapping);
        b.ins().return_(&[sum]);
        b.seal_all_blocks();
        b.finalize(frontend());
        let def = |v: Value| match func.dfg.value_def(v) {
            ValueDef::Result(inst, _) => inst,
            _ => unreachable!("a result"),
        };
        let pure = |v: Value| is_pure(&func, def(v));
        assert!(pure(add) && pure(cmp) && pure(callee) && pure(readonly));
        assert!(!pure(load), "a load that may see a store");
        assert!(!pure(not_readonly), "a movable load that may see a store");
        assert!(!pure(trapping), "a read-only load that may trap");
        assert!(!pure(div), "a division may trap");
        assert!(!pure(called), "a call");
        let insts: Vec<Inst> = func.layout.block_insts(b0).collect();
        let effects: Vec<bool> = insts
            .iter()
            .filter(|&&i| func.dfg.inst_results(i).is_empty())
            .map(|&i| is_pure(&func, i))
            .collect();
        assert_eq!(effects, [false, false, false], "store, trapnz, return");
    }
}
