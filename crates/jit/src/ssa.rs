//! SSA construction for the locals that are reassigned, over IR blocks.
//!
//! Most locals of a function never meet this: fixed locals get the value of their one
//! assignment, block-local ones the value written earlier in the same IR block, and the huge
//! tier keeps its locals in memory. What is left (loop counters, accumulators, anything
//! assigned in more than one place) needs block parameters where different assignments meet.
//! This module builds them with the algorithm of Braun et al., *Simple and Efficient
//! Construction of Static Single Assignment Form* (CC 2013), in the form cranelift-frontend
//! 0.135.8 implements it (`cranelift_frontend::ssa`), which the lowering used before: the
//! same steps in the same order, so the function comes out with the same block parameters,
//! in the same order, and the same branch arguments (only the numbers of the values differ,
//! and cranelift-frontend's aliases for the parameters it removed at main-line joins, below,
//! are gone). The one place the two can part is code no path reaches, which the IR verifier
//! rejects (every block must be reachable) but the lowering still takes: when a read's walk
//! runs around a cycle of sealed single-predecessor IR blocks (entered only by the walk from
//! a block after them in the layout), cranelift-frontend put the parameter, and the zero it
//! turns into, on the Cranelift block where its walk met itself again (the last block of a
//! main line), this module on that IR block's head. Cranelift removes such code before
//! compiling it.
//!
//! **Nodes.** The algorithm works on *nodes*, not on Cranelift blocks: one node per IR block
//! (its *head* is the IR block's first Cranelift block) and one for the function's start block
//! when that is not the entry IR block's own. An IR block lowers to a main line of Cranelift
//! blocks, each dominated by the one before; the cold paths off it (trap edges, a push's
//! growth) read at most the values current on the main line and assign nothing, and the main
//! line's own joins (a division's `-1` check, a push's two stores) have both sides carrying the
//! same values. So within one IR block a local has one current value at every point, the one
//! the node keeps (`defs`), and only the heads need block parameters. cranelift-frontend made
//! the same choices one Cranelift block at a time: a read in the middle of a main line walked
//! up the line's single predecessors to the head, and at a main-line join it added a parameter
//! that it removed again at once as redundant (both sides agree); neither shows in the result.
//!
//! **The algorithm.** Every node records the current value of each variable assigned or
//! looked up in it. A read with no such value asks the node's predecessors:
//!
//! - a sealed node (all its predecessors emitted) with exactly one predecessor has that one's
//!   value (the walk follows such chains, and stops on a cycle of them, which no path from the
//!   entry enters);
//! - otherwise the node gets a new block parameter, the *sentinel*, recorded as the
//!   variable's value there (so that a walk around a loop finds it and stops). If the node is
//!   sealed, every predecessor is asked for its value at once; if not, the variable is
//!   remembered and asked for when the node is sealed (`seal`). When the predecessors answer,
//!   the values other than the sentinel are compared: if they are all one value, the
//!   parameter is removed and the sentinel made an alias of that value (uses already emitted
//!   see through it); if they differ, each predecessor's branch passes its value; if there is
//!   none (no assignment on any path: the entry, or a block no path reaches), the value is a
//!   zero made at the top of the node's head, the IR's initial value of every local.
//!
//! The recursion runs on an explicit stack (`calls` and `results`), as cranelift-frontend's
//! does, so deep chains of blocks cannot overflow the native stack, and it visits
//! predecessors in the order their branches were emitted: that order decides which block's
//! parameter is created first, and so the order of parameters within a block.
//!
//! **Why it is correct.** This is Braun et al.'s algorithm without the recursive removal of
//! parameters that become trivial later (cranelift-frontend leaves those too, as block
//! parameters whose arguments are all one value): each read gets the value that reaches it
//! on every path, through a parameter wherever paths with different values meet; a sealed
//! node's predecessors never change, so what was decided from them stays right; an unsealed
//! node's parameter stands for whatever the predecessors emitted later bring, and sealing
//! connects it. A node is sealed once the last branch the lowering counted into it is
//! recorded (`seal_if_complete`) and, at the end, every node nothing branches to (an
//! unreachable block, whose reads see zero). Cranelift's verifier, on in every debug test,
//! checks that each use is dominated by its definition and that every branch passes its
//! target's parameters.
//!
//! **Cost.** cranelift-frontend keeps a map of blocks per variable, grown by block number
//! (every Cranelift block, trap edges included) and dropped at every function, and seals and
//! tracks every Cranelift block. Here the tables are dense and kept from one function to the
//! next: one value per node and variable (variable-major, a column per variable declared),
//! and per node its head, predecessors (branch and node, in a flat list with room for the IR's
//! count of branches into it), seal flag, single predecessor and pending variables.

use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::entity::EntityRef;
use cranelift_codegen::ir::{Block, Function, Inst, InstBuilder, Type, Value};
use cranelift_codegen::packed_option::PackedOption;
use poolopt_ir::room::vec_room;

/// A variable of the SSA construction (one per local that needs it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct SsaVar(u32);

/// No node (a node's missing single predecessor, the end of a list).
const NONE: u32 = u32::MAX;

/// One step of the recursion over predecessors (see the module documentation).
#[derive(Copy, Clone)]
enum Call {
    /// Find the variable's value at the end of this node.
    UseVar(u32),
    /// The predecessors' values are on the result stack: decide the sentinel's fate at this
    /// node.
    Finish(Value, u32),
}

/// A variable read in an unsealed node before any value of it was known there.
#[derive(Copy, Clone)]
struct Pending {
    var: u32,
    sentinel: Value,
    /// The next pending variable of the same node, or [`NONE`].
    next: u32,
}

/// The SSA construction's tables (see the module documentation), kept from one function to
/// the next.
#[derive(Default)]
pub(crate) struct Ssa {
    /// How many nodes the function has.
    nodes: usize,
    /// Per variable: its type.
    types: Vec<Type>,
    /// Per variable and node (`var * nodes + node`): its current value there, if known.
    defs: Vec<PackedOption<Value>>,
    /// Per node: its head block.
    head: Vec<PackedOption<Block>>,
    /// Per node: whether every branch into it has been emitted.
    sealed: Vec<bool>,
    /// Per sealed node with exactly one predecessor: that node, else [`NONE`].
    single_pred: Vec<u32>,
    /// Per node: where its predecessors start in `preds`, and how many there are so far.
    pred_start: Vec<u32>,
    pred_len: Vec<u32>,
    /// The branches into each node and the nodes they leave from, in emission order.
    preds: Vec<(Inst, u32)>,
    /// Per node: its first and last pending variable in `pending`, or [`NONE`].
    pending_first: Vec<u32>,
    pending_last: Vec<u32>,
    pending: Vec<Pending>,
    /// Per node: the walk that last visited it (`find_var`'s cycle check).
    visited: Vec<u32>,
    walk: u32,
    calls: Vec<Call>,
    results: Vec<Value>,
}

impl Ssa {
    /// Gives the per-node tables room for `nodes` nodes and `preds` predecessors in all (a
    /// no-op once they have it).
    pub(crate) fn reserve(&mut self, nodes: usize, preds: usize) {
        vec_room(&mut self.head, nodes);
        vec_room(&mut self.sealed, nodes);
        vec_room(&mut self.single_pred, nodes);
        vec_room(&mut self.pred_start, nodes);
        vec_room(&mut self.pred_len, nodes);
        vec_room(&mut self.pending_first, nodes);
        vec_room(&mut self.pending_last, nodes);
        vec_room(&mut self.visited, nodes);
        vec_room(&mut self.preds, preds);
    }

    /// Empties the tables for a function of `nodes` nodes, node `n` having room for
    /// `pred_room(n)` predecessors (at least as many as branches into it will be emitted).
    pub(crate) fn reset(&mut self, nodes: usize, mut pred_room: impl FnMut(usize) -> u32) {
        self.nodes = nodes;
        self.types.clear();
        self.defs.clear();
        fill(&mut self.head, nodes, PackedOption::default());
        fill(&mut self.sealed, nodes, false);
        fill(&mut self.single_pred, nodes, NONE);
        fill(&mut self.pred_len, nodes, 0);
        fill(&mut self.pending_first, nodes, NONE);
        fill(&mut self.pending_last, nodes, NONE);
        fill(&mut self.visited, nodes, 0);
        self.walk = 0;
        self.pending.clear();
        self.pred_start.clear();
        let mut total = 0u32;
        for n in 0..nodes {
            self.pred_start.push(total);
            total = total.saturating_add(pred_room(n));
        }
        fill(&mut self.preds, total as usize, (Inst::new(0), NONE));
    }

    /// Whether any variable has been declared.
    pub(crate) fn has_vars(&self) -> bool {
        !self.types.is_empty()
    }

    /// Makes `block` the head of `node`.
    pub(crate) fn set_head(&mut self, node: usize, block: Block) {
        self.head[node] = block.into();
    }

    /// A new variable of type `ty` (an integer type), with no value anywhere yet.
    pub(crate) fn declare_var(&mut self, ty: Type) -> SsaVar {
        let var = SsaVar(self.types.len() as u32);
        self.types.push(ty);
        self.defs
            .resize(self.defs.len() + self.nodes, PackedOption::default());
        var
    }

    fn slot(&self, var: u32, node: u32) -> usize {
        var as usize * self.nodes + node as usize
    }

    /// Assigns `val` to `var` at the current point of `node`.
    pub(crate) fn def_var(&mut self, var: SsaVar, node: usize, val: Value) {
        let i = self.slot(var.0, node as u32);
        self.defs[i] = val.into();
    }

    /// The end of `node`'s room in `preds`.
    #[inline]
    fn pred_end(&self, node: usize) -> usize {
        match self.pred_start.get(node + 1) {
            Some(&next) => next as usize,
            None => self.preds.len(),
        }
    }

    /// Records that `branch`, emitted at the end of `from`, leads to `node`'s head (once per
    /// branch, even when both of a `brif`'s targets are the head). `false`, and nothing
    /// recorded, when `node` has no room left: more branches lead to it than
    /// [`Ssa::reset`] was told. Its parameters would then miss that branch's arguments, so the
    /// caller must not go on (the lowering reports an internal error rather than emit code
    /// that Cranelift's verifier, off in release builds, would reject).
    #[must_use]
    pub(crate) fn add_pred(&mut self, node: usize, branch: Inst, from: usize) -> bool {
        let i = self.pred_start[node] as usize + self.pred_len[node] as usize;
        if i >= self.pred_end(node) {
            return false;
        }
        self.preds[i] = (branch, from as u32);
        self.pred_len[node] += 1;
        true
    }

    /// The value of `var` at the current point of `node`, creating block parameters where
    /// needed (see the module documentation).
    pub(crate) fn use_var(&mut self, func: &mut Function, var: SsaVar, node: usize) -> Value {
        debug_assert!(self.calls.is_empty() && self.results.is_empty());
        self.use_var_nonlocal(func, var.0, node as u32);
        self.run(func, var.0)
    }

    /// Declares every branch into `node` emitted, and connects the parameters its reads
    /// created meanwhile.
    pub(crate) fn seal(&mut self, func: &mut Function, node: usize) {
        if std::mem::replace(&mut self.sealed[node], true) {
            return;
        }
        if self.pred_len[node] == 1 {
            self.single_pred[node] = self.preds[self.pred_start[node] as usize].1;
        }
        let mut p = std::mem::replace(&mut self.pending_first[node], NONE);
        self.pending_last[node] = NONE;
        while p != NONE {
            let Pending {
                var,
                sentinel,
                next,
            } = self.pending[p as usize];
            self.begin_lookup(sentinel, node as u32);
            self.run(func, var);
            p = next;
        }
    }

    /// Seals `node` once every branch [`Ssa::reset`] gave it room for is recorded.
    #[inline]
    pub(crate) fn seal_if_complete(&mut self, func: &mut Function, node: usize) {
        let recorded = self.pred_start[node] as usize + self.pred_len[node] as usize;
        if recorded == self.pred_end(node) {
            self.seal(func, node);
        }
    }

    /// Runs the recursion until its stack is empty, and returns its one result.
    fn run(&mut self, func: &mut Function, var: u32) -> Value {
        while let Some(call) = self.calls.pop() {
            match call {
                Call::UseVar(node) => self.use_var_nonlocal(func, var, node),
                Call::Finish(sentinel, node) => {
                    let v = self.finish_lookup(func, sentinel, node);
                    self.results.push(v);
                }
            }
        }
        debug_assert_eq!(self.results.len(), 1);
        self.results.pop().unwrap_or_else(|| Value::new(0))
    }

    /// Pushes `var`'s value at the end of `node` on the result stack (or the calls that will),
    /// and records it in the nodes of the single-predecessor chain walked.
    fn use_var_nonlocal(&mut self, func: &mut Function, var: u32, node: u32) {
        if let Some(v) = self.defs[self.slot(var, node)].expand() {
            self.results.push(v);
            return;
        }
        let (val, from) = self.find_var(func, var, node);
        let mut n = node;
        while n != from {
            let i = self.slot(var, n);
            self.defs[i] = val.into();
            n = self.single_pred[n as usize];
        }
    }

    /// Follows single predecessors from `node` to a value of `var`, or gives the node where
    /// the walk stops a new parameter (see the module documentation). Returns the value and
    /// the node it belongs to.
    fn find_var(&mut self, func: &mut Function, var: u32, mut node: u32) -> (Value, u32) {
        self.walk = self.walk.wrapping_add(1);
        if self.walk == 0 {
            self.visited.fill(0);
            self.walk = 1;
        }
        loop {
            let pred = self.single_pred[node as usize];
            if pred == NONE || self.visited[node as usize] == self.walk {
                break;
            }
            self.visited[node as usize] = self.walk;
            node = pred;
            if let Some(v) = self.defs[self.slot(var, node)].expand() {
                self.results.push(v);
                return (v, node);
            }
        }
        let head = self.head_of(node);
        let val = func.dfg.append_block_param(head, self.types[var as usize]);
        let i = self.slot(var, node);
        self.defs[i] = val.into();
        if self.sealed[node as usize] {
            self.begin_lookup(val, node);
        } else {
            let p = self.pending.len() as u32;
            self.pending.push(Pending {
                var,
                sentinel: val,
                next: NONE,
            });
            match self.pending_last[node as usize] {
                NONE => self.pending_first[node as usize] = p,
                last => self.pending[last as usize].next = p,
            }
            self.pending_last[node as usize] = p;
            self.results.push(val);
        }
        (val, node)
    }

    fn head_of(&self, node: u32) -> Block {
        self.head[node as usize]
            .expand()
            .unwrap_or_else(|| Block::new(0))
    }

    /// Schedules asking every predecessor of `node` for the variable's value, then deciding
    /// about `sentinel` (the predecessors are visited in the order their branches were
    /// emitted).
    fn begin_lookup(&mut self, sentinel: Value, node: u32) {
        self.calls.push(Call::Finish(sentinel, node));
        let start = self.pred_start[node as usize] as usize;
        let len = self.pred_len[node as usize] as usize;
        for &(_, from) in self.preds[start..start + len].iter().rev() {
            self.calls.push(Call::UseVar(from));
        }
    }

    /// With the predecessors' values on the result stack: removes `sentinel` when they agree
    /// (or makes it a zero when there are none but itself), else passes them on the branches.
    fn finish_lookup(&mut self, func: &mut Function, sentinel: Value, node: u32) -> Value {
        let start = self.pred_start[node as usize] as usize;
        let len = self.pred_len[node as usize] as usize;
        let from = self.results.len() - len;
        let mut agreed = None;
        let mut differ = false;
        for &v in &self.results[from..] {
            let v = func.dfg.resolve_aliases(v);
            if v == sentinel {
                continue;
            }
            match agreed {
                None => agreed = Some(v),
                Some(a) if a != v => {
                    differ = true;
                    break;
                }
                Some(_) => {}
            }
        }
        let head = self.head_of(node);
        let value = if differ {
            let dfg = &mut func.dfg;
            for (k, &v) in self.results[from..].iter().enumerate() {
                let branch = self.preds[start + k].0;
                let dests = dfg.insts[branch]
                    .branch_destination_mut(&mut dfg.jump_tables, &mut dfg.exception_tables);
                for dest in dests {
                    if dest.block(&dfg.value_lists) == head {
                        dest.append_argument(v, &mut dfg.value_lists);
                    }
                }
            }
            sentinel
        } else {
            let v = match agreed {
                Some(v) => v,
                None => {
                    // No assignment on any path: the local's initial zero, at the top of the
                    // head, as cranelift-frontend places it.
                    if !func.layout.is_block_inserted(head) {
                        func.layout.append_block(head);
                    }
                    let ty = func.dfg.value_type(sentinel);
                    FuncCursor::new(func)
                        .at_first_insertion_point(head)
                        .ins()
                        .iconst(ty, 0)
                }
            };
            func.dfg.remove_block_param(sentinel);
            func.dfg.change_to_alias(sentinel, v);
            v
        };
        self.results.truncate(from);
        value
    }
}

/// Empties `v` and gives it `n` entries `x` (within its storage when it has room).
fn fill<T: Clone>(v: &mut Vec<T>, n: usize, x: T) {
    v.clear();
    v.resize(n, x);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::append::Builder;
    use cranelift_codegen::ir::condcodes::IntCC;
    use cranelift_codegen::ir::types::I64;
    use cranelift_codegen::ir::{AbiParam, InstructionData, Opcode};
    use cranelift_codegen::settings;
    use cranelift_codegen::verify_function;

    /// A function `fn(i64) -> i64` with `n` blocks, the SSA tables for them (block `k` the
    /// head of node `k`, with room for `room[k]` predecessors), and block 0 current and sealed.
    fn setup(func: &mut Function, room: &[u32]) -> (Vec<Block>, Ssa, Value) {
        func.signature.params.push(AbiParam::new(I64));
        func.signature.returns.push(AbiParam::new(I64));
        let mut b = Builder::new(func);
        let blocks: Vec<Block> = room.iter().map(|_| b.create_block()).collect();
        let mut ssa = Ssa::default();
        ssa.reset(room.len(), |n| room[n]);
        for (n, &blk) in blocks.iter().enumerate() {
            ssa.set_head(n, blk);
        }
        b.append_block_params_for_function_params(blocks[0]);
        ssa.seal(b.func, 0);
        let p = b.block_params(blocks[0])[0];
        (blocks, ssa, p)
    }

    /// The top of a diamond: in node 0, a variable `x` set to `p` and `brif p` to nodes 1 and
    /// 2, both sealed (their one predecessor is that branch). Returns `x`.
    fn open_diamond(b: &mut Builder<'_>, ssa: &mut Ssa, blk: &[Block], p: Value) -> SsaVar {
        let x = ssa.declare_var(I64);
        b.switch_to_block(blk[0]);
        ssa.def_var(x, 0, p);
        let br = b.ins().brif(p, blk[1], &[], blk[2], &[]);
        assert!(ssa.add_pred(1, br, 0));
        assert!(ssa.add_pred(2, br, 0));
        ssa.seal(b.func, 1);
        ssa.seal(b.func, 2);
        x
    }

    /// Emits `jump blk[to]` at the end of node `from` (the current block) and records it as
    /// a predecessor of node `to`.
    fn jump_to(b: &mut Builder<'_>, ssa: &mut Ssa, blk: &[Block], from: usize, to: usize) {
        let j = b.ins().jump(blk[to], &[]);
        assert!(ssa.add_pred(to, j, from));
    }

    /// Seals node `n`, and ends its block by returning `x`'s value there, which it returns.
    fn seal_and_return(
        b: &mut Builder<'_>,
        ssa: &mut Ssa,
        blk: &[Block],
        x: SsaVar,
        n: usize,
    ) -> Value {
        ssa.seal(b.func, n);
        b.switch_to_block(blk[n]);
        let r = ssa.use_var(b.func, x, n);
        b.ins().return_(&[r]);
        r
    }

    fn verify(func: &Function) {
        let flags = settings::Flags::new(settings::builder());
        if let Err(e) = verify_function(func, &flags) {
            panic!("{e}\n{}", func.display());
        }
    }

    #[test]
    fn a_branch_past_a_nodes_counted_room_is_refused_and_leaves_the_next_node_alone() {
        // Node 1 has room for one predecessor, node 2 for one: a second branch into node 1
        // must not land in node 2's slot.
        let mut func = Function::new();
        let (blk, mut ssa, p) = setup(&mut func, &[0, 1, 1]);
        let mut b = Builder::new(&mut func);
        b.switch_to_block(blk[0]);
        let br = b.ins().brif(p, blk[1], &[], blk[2], &[]);
        assert!(ssa.add_pred(2, br, 0));
        assert!(ssa.add_pred(1, br, 0));
        // Node 2's slot follows node 1's: an overflowing write would put node 7 there.
        assert!(!ssa.add_pred(1, br, 7));
        assert!(!ssa.add_pred(2, br, 7));
        let start = ssa.pred_start[2] as usize;
        assert_eq!((ssa.pred_len[1], ssa.pred_len[2]), (1, 1));
        assert_eq!(ssa.preds[start], (br, 0));
    }

    #[test]
    fn a_node_is_sealed_once_its_counted_branches_are_recorded_and_not_before() {
        // Node 1 has room for two branches, node 2 for one.
        let mut func = Function::new();
        let (blk, mut ssa, p) = setup(&mut func, &[0, 2, 1]);
        let mut b = Builder::new(&mut func);
        b.switch_to_block(blk[0]);
        let br = b.ins().brif(p, blk[1], &[], blk[2], &[]);
        assert!(ssa.add_pred(1, br, 0));
        assert!(ssa.add_pred(2, br, 0));
        ssa.seal_if_complete(b.func, 1);
        ssa.seal_if_complete(b.func, 2);
        assert_eq!(ssa.sealed[1..3], [false, true]);
        b.switch_to_block(blk[2]);
        let j = b.ins().jump(blk[1], &[]);
        assert!(ssa.add_pred(1, j, 2));
        ssa.seal_if_complete(b.func, 1);
        assert!(ssa.sealed[1]);
    }

    #[test]
    fn a_diamond_gets_one_parameter_with_each_sides_value() {
        let mut func = Function::new();
        let (blk, mut ssa, p) = setup(&mut func, &[0, 1, 1, 2]);
        let mut b = Builder::new(&mut func);
        let x = open_diamond(&mut b, &mut ssa, &blk, p);
        b.switch_to_block(blk[1]);
        let old = ssa.use_var(b.func, x, 1);
        let new = b.ins().iadd(old, p);
        ssa.def_var(x, 1, new);
        jump_to(&mut b, &mut ssa, &blk, 1, 3);
        b.switch_to_block(blk[2]);
        jump_to(&mut b, &mut ssa, &blk, 2, 3);
        let r = seal_and_return(&mut b, &mut ssa, &blk, x, 3);
        assert_eq!(old, p);
        assert_eq!(b.func.dfg.block_params(blk[3]), &[r]);
        verify(&func);
    }

    #[test]
    fn a_loop_counter_starts_at_a_zero_in_the_entry() {
        // 0: jump 1; 1: brif i < p, 2, 3; 2: i += 1, jump 1; 3: return i. The header is read
        // before its back edge exists.
        let mut func = Function::new();
        let (blk, mut ssa, p) = setup(&mut func, &[0, 2, 1, 1]);
        let mut b = Builder::new(&mut func);
        let i = ssa.declare_var(I64);
        b.switch_to_block(blk[0]);
        jump_to(&mut b, &mut ssa, &blk, 0, 1);
        b.switch_to_block(blk[1]);
        let head_i = ssa.use_var(b.func, i, 1);
        let c = b.ins().icmp(IntCC::SignedLessThan, head_i, p);
        let br = b.ins().brif(c, blk[2], &[], blk[3], &[]);
        assert!(ssa.add_pred(2, br, 1));
        assert!(ssa.add_pred(3, br, 1));
        ssa.seal(b.func, 2);
        ssa.seal(b.func, 3);
        b.switch_to_block(blk[2]);
        let body_i = ssa.use_var(b.func, i, 2);
        assert_eq!(body_i, head_i);
        let one = b.ins().iconst(I64, 1);
        let next = b.ins().iadd(body_i, one);
        ssa.def_var(i, 2, next);
        jump_to(&mut b, &mut ssa, &blk, 2, 1);
        ssa.seal(b.func, 1);
        b.switch_to_block(blk[3]);
        let r = ssa.use_var(b.func, i, 3);
        b.ins().return_(&[r]);
        assert_eq!(b.func.dfg.block_params(blk[1]), &[head_i]);
        // The zero is the entry's first instruction, and the entry keeps only its parameter.
        let first = b.func.layout.first_inst(blk[0]).unwrap();
        assert!(matches!(
            b.func.dfg.insts[first],
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                ..
            }
        ));
        assert_eq!(b.func.dfg.block_params(blk[0]).len(), 1);
        verify(&func);
    }

    #[test]
    fn a_local_only_read_in_a_loop_needs_no_parameter() {
        // 0: x = p, jump 1; 1: brif x, 1, 2 (a self loop); 2: return x.
        let mut func = Function::new();
        let (blk, mut ssa, p) = setup(&mut func, &[0, 2, 1]);
        let mut b = Builder::new(&mut func);
        let x = ssa.declare_var(I64);
        b.switch_to_block(blk[0]);
        ssa.def_var(x, 0, p);
        jump_to(&mut b, &mut ssa, &blk, 0, 1);
        b.switch_to_block(blk[1]);
        let v = ssa.use_var(b.func, x, 1);
        let br = b.ins().brif(v, blk[1], &[], blk[2], &[]);
        assert!(ssa.add_pred(1, br, 1));
        assert!(ssa.add_pred(2, br, 1));
        ssa.seal(b.func, 1);
        let r = seal_and_return(&mut b, &mut ssa, &blk, x, 2);
        assert!(b.func.dfg.block_params(blk[1]).is_empty());
        assert_eq!(b.func.dfg.resolve_aliases(v), p);
        assert_eq!(b.func.dfg.resolve_aliases(r), p);
        verify(&func);
    }

    #[test]
    fn a_join_whose_predecessors_agree_gets_no_parameter() {
        // 0: x = p, brif p, 1, 2; 1: jump 3; 2: jump 3; 3: return x. Both sides carry `p`.
        let mut func = Function::new();
        let (blk, mut ssa, p) = setup(&mut func, &[0, 1, 1, 2]);
        let mut b = Builder::new(&mut func);
        let x = open_diamond(&mut b, &mut ssa, &blk, p);
        for n in [1, 2] {
            b.switch_to_block(blk[n]);
            jump_to(&mut b, &mut ssa, &blk, n, 3);
        }
        let r = seal_and_return(&mut b, &mut ssa, &blk, x, 3);
        assert_eq!(r, p);
        assert!(b.func.dfg.block_params(blk[3]).is_empty());
        verify(&func);
    }

    #[test]
    fn a_read_walks_single_predecessors_without_making_parameters() {
        // 0: x = p, jump 1; 1: jump 2; 2: jump 3; 3: return x (each block sealed when its
        // one branch is emitted). The read in 3 follows the chain up to 0's value, records it
        // on the way (a second read in 2 finds it), and makes no value at all.
        let mut func = Function::new();
        let (blk, mut ssa, p) = setup(&mut func, &[0, 1, 1, 1]);
        let mut b = Builder::new(&mut func);
        let x = ssa.declare_var(I64);
        b.switch_to_block(blk[0]);
        ssa.def_var(x, 0, p);
        for n in 0..3 {
            b.switch_to_block(blk[n]);
            jump_to(&mut b, &mut ssa, &blk, n, n + 1);
            ssa.seal(b.func, n + 1);
        }
        b.switch_to_block(blk[3]);
        let values = b.func.dfg.num_values();
        let r = ssa.use_var(b.func, x, 3);
        assert_eq!(r, p);
        assert_eq!(ssa.use_var(b.func, x, 2), p);
        assert_eq!(b.func.dfg.num_values(), values);
        b.ins().return_(&[r]);
        for &blk in &blk[1..] {
            assert!(b.func.dfg.block_params(blk).is_empty());
        }
        verify(&func);
    }
}
