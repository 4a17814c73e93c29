//! SSA construction with π-nodes: the inequality graph of one function, and the questions
//! `bounds-check-elim` asks, in terms of its nodes.
//!
//! The *variables* are the `i64` locals (their values) and the vec locals (their lengths)
//! a check or a checked division may depend on;
//! `bool` locals are followed too, as the compare they hold (operands as SSA values), so that
//! a branch on them can refine its operands ([`relevance`]); at the branch, an operand whose
//! local now holds a π copy of it is read as that copy (`Builder::refreshed`), so a second
//! branch on a `bool` sees what the first taught. Phis are placed at the iterated
//! dominance frontier of every block that defines a variable, pruned by liveness ([`phis`]).
//! Renaming walks the dominator tree, making π-nodes where something is learnt about a value
//! ([`rename`]). The tables live in a work space ([`Built`]) kept across functions.
//!
//! - this module: the query and term types, the work space, and [`build`], the entry;
//! - [`relevance`]: which locals are variables, and what defines one;
//! - [`phis`]: pruned phi placement;
//! - [`rename`]: the renaming walk ([`Builder`]).

mod phis;
mod relevance;
mod rename;

use super::graph::{room, Conds, Graph, Node, ZERO};
use crate::analysis::facts::CallKills;
use crate::analysis::Cfg;
use phis::place_phis;
use poolopt_ir::dominators::DomTree;
use poolopt_ir::{BinaryOp, Block, CmpOp, EntityRef, Function, Inst, Local};
use relevance::{relevant_vars, Var};
use rename::Builder;
use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;

/// Constraints `x <= y + c` between terms, each usable under its conditions.
type Rels = SmallVec<[(TermPlus, TermPlus, i128, Conds); 4]>;

/// An SSA value plus a constant.
pub(super) type TermPlus = (Node, i128);

/// A compare of two `i64` operands, as SSA values.
#[derive(Copy, Clone, Debug)]
pub(super) struct Cmp {
    pub op: CmpOp,
    pub lhs: TermPlus,
    pub rhs: TermPlus,
    /// The locals the operands were read from (`None`: a constant).
    pub locals: [Option<Local>; 2],
}

/// What a checked operation needs, in SSA values.
#[derive(Copy, Clone, Debug)]
pub(super) enum Need {
    /// `len > 0`.
    Pop { len: Node },
    /// `0 <= i < len`.
    Index { i: Node, len: Node },
    /// `k < len`.
    Const { len: Node, k: i64 },
}

/// A checked operation to decide.
pub(super) struct CheckQuery {
    pub block: Block,
    /// The block never runs: the check never fails.
    pub dead: bool,
    pub inst: Inst,
    pub need: Need,
}

/// A checked division (`sdiv udiv srem urem`) by an `i64` local to decide: whether its
/// divisor `d` is at least 1, or at most -1 (-2 for `sdiv`), wherever the division runs.
pub(super) struct DivQuery {
    pub block: Block,
    /// The block never runs: the check never fails.
    pub dead: bool,
    pub inst: Inst,
    pub op: BinaryOp,
    pub d: Node,
    /// Its quotient witnesses: `Built::witnesses()[at..at + len]`.
    pub witnesses: (u32, u32),
}

/// A quotient witness of a division's divisor `d`: local `q` holds `value == d sdiv k`
/// (`k >= 1`) where the division runs, so `value >= 1` gives `d >= k` and `value <= -1`
/// gives `d <= -k` (the fact analysis's quotient facts).
#[derive(Copy, Clone, Debug)]
pub(super) struct Witness {
    pub q: Local,
    pub value: Node,
    pub k: i64,
}

/// An explicit check to decide: `brif c, ..` ending `block`, trapping when `c == trap_when`
/// (`c`'s compare is [`Built::end_cmp`]).
pub(super) struct ExplicitQuery {
    pub block: Block,
    /// The block never runs: the trap edge is never taken.
    pub dead: bool,
    pub trap_when: bool,
}

/// The tables the renaming walk ([`Builder`]) fills for one function: the graph, the
/// queries, and the walk's own state. Kept across functions (cleared, not reallocated).
#[derive(Default)]
struct Tables {
    graph: Graph,
    checks: Vec<CheckQuery>,
    explicit: Vec<ExplicitQuery>,
    divisions: Vec<DivQuery>,
    witnesses: Vec<Witness>,
    /// Each `q = x sdiv k` for a constant `k >= 1`: `(q, origin of x, k)`.
    quotients: Vec<(Node, Node, i64)>,
    /// What each local is to the SSA form.
    vars: Vec<Var>,
    /// The `i64` and vec locals.
    tracked: Vec<Local>,
    vecs: Vec<Local>,
    /// Current value of each value or length variable, by local.
    cur: Vec<Node>,
    /// Current compare of each bool local.
    cmp: Vec<Option<Cmp>>,
    undo: Vec<(Local, Node)>,
    undo_cmp: Vec<(Local, Option<Cmp>)>,
    /// (block, variable) of each phi, sorted by block; each block's range; each phi's node,
    /// once made.
    phis: Vec<(Block, Local)>,
    phi_range: Vec<(u32, u32)>,
    phi_nodes: Vec<Node>,
    consts: HashMap<i128, Node>,
    /// The value of each constant node.
    const_of: HashMap<Node, i128>,
    /// The compare a block's `brif` branches on, as the block ends.
    end_cmp: Vec<Option<Cmp>>,
    /// By block entered only through a branch edge (a π-block): the branch's block, and the
    /// value of its compare (`end_cmp`) when that edge is taken.
    entry_edge: Vec<Option<(Block, bool)>>,
    /// Blocks that never run (see `pi`).
    dead: Vec<bool>,
    /// Scratch: the vecs a call changes.
    changed: Vec<Local>,
}

/// The graph and the queries of the last function built, and the tables [`build`] works in:
/// kept across functions (cleared, not reallocated).
#[derive(Default)]
pub(super) struct Built {
    t: Tables,
    // Scratch.
    on: Vec<bool>,
    explicit_conds: Vec<bool>,
    links: Vec<(u32, u32)>,
    links_tmp: Vec<(u32, u32)>,
    bool_copies: Vec<(u32, u32)>,
    compares: Vec<(Local, [Option<Local>; 2])>,
    work: Vec<u32>,
    range: Vec<(u32, u32)>,
    defs: Vec<(u32, Block)>,
    defs_tmp: Vec<(u32, Block)>,
    ue: Vec<u64>,
    bit_of: Vec<u32>,
    kill: Vec<u64>,
    live: Vec<u64>,
    df: Vec<(Block, Block)>,
    pairs_tmp: Vec<(Block, Block)>,
    df_range: Vec<(u32, u32)>,
    phis_tmp: Vec<(Block, Local)>,
    stamp: Vec<u32>,
    blocks: Vec<Block>,
    children: Vec<(Block, Block)>,
    child_range: Vec<(u32, u32)>,
    stack: Vec<Step>,
}

impl Built {
    /// The inequality graph of the last function built.
    pub fn graph(&self) -> &Graph {
        &self.t.graph
    }

    /// Its checked operations.
    pub fn checks(&self) -> &[CheckQuery] {
        &self.t.checks
    }

    /// Its explicit checks.
    pub fn explicit(&self) -> &[ExplicitQuery] {
        &self.t.explicit
    }

    /// Its checked divisions by an `i64` local.
    pub fn divisions(&self) -> &[DivQuery] {
        &self.t.divisions
    }

    /// The branch edge `b` is entered through when it is its only way in (a π-block): the
    /// branch's block, and the value of that block's compare ([`Built::end_cmp`]) when the
    /// edge is taken.
    pub fn entry_edge(&self, b: Block) -> Option<(Block, bool)> {
        self.t.entry_edge.get(b.index()).copied().flatten()
    }

    /// The compare the `brif` ending `b` branches on, in the values of `b`'s end.
    pub fn end_cmp(&self, b: Block) -> Option<Cmp> {
        self.t.end_cmp.get(b.index()).copied().flatten()
    }

    /// The number of blocks of the last function built.
    pub fn blocks(&self) -> usize {
        self.t.end_cmp.len()
    }

    /// The quotient witnesses of a division.
    pub fn witnesses(&self, q: &DivQuery) -> &[Witness] {
        let (at, len) = q.witnesses;
        &self.t.witnesses[at as usize..(at + len) as usize]
    }
}

enum Step {
    Enter(Block),
    Exit(usize, usize),
}

/// `v`, cleared and filled with `n` copies of `x`.
fn fill<T: Clone>(v: &mut Vec<T>, n: usize, x: T) -> Vec<T> {
    let mut v = std::mem::take(v);
    room(&mut v, n);
    v.resize(n, x);
    v
}

/// Clears `v` and fills it with `n` copies of `x`, in place.
fn refill<T: Clone>(v: &mut Vec<T>, n: usize, x: T) {
    room(v, n);
    v.resize(n, x);
}

/// `v`, emptied.
fn take<T>(v: &mut Vec<T>, n: usize) -> Vec<T> {
    let mut v = std::mem::take(v);
    room(&mut v, n);
    v
}

/// Builds the graph and the queries into `s` (`false` for a function without blocks). An
/// entry block with predecessors (a loop back to it) gets phis whose last operand is the
/// initial value.
pub(super) fn build(
    func: &Function,
    cfg: &Cfg,
    dom: &DomTree,
    calls: &CallKills,
    s: &mut Built,
) -> bool {
    let Some(entry) = func.entry() else {
        return false;
    };
    let n = func.locals.len();
    relevant_vars(func, s);
    let t = &mut s.t;
    room(&mut t.tracked, n);
    t.tracked.extend(
        func.locals
            .keys()
            .filter(|&l| matches!(t.vars[l.index()], Var::Value | Var::Length)),
    );
    room(&mut t.vecs, n);
    t.vecs.extend(
        t.tracked
            .iter()
            .copied()
            .filter(|&l| t.vars[l.index()] == Var::Length),
    );
    let nb = func.blocks.len();
    place_phis(func, cfg, dom, calls, s);
    let t = &mut s.t;
    let phis_len = t.phis.len();
    let insts: usize = cfg.rpo().iter().map(|&b| func.blocks[b].insts.len()).sum();
    t.graph.reset(entry);
    t.consts.clear();
    t.consts.reserve(32);
    t.const_of.clear();
    t.const_of.reserve(32);
    refill(&mut t.cur, n, ZERO);
    refill(&mut t.cmp, n, None);
    room(&mut t.undo, insts + phis_len + 16);
    // One entry per compare assigned to a `bool` local: few, grown on demand.
    room(&mut t.undo_cmp, 16);
    refill(&mut t.phi_nodes, phis_len, u32::MAX);
    refill(&mut t.end_cmp, nb, None);
    refill(&mut t.entry_edge, nb, None);
    room(&mut t.checks, 16);
    room(&mut t.explicit, 16);
    room(&mut t.divisions, 16);
    room(&mut t.witnesses, 16);
    room(&mut t.quotients, 16);
    refill(&mut t.dead, nb, false);
    room(&mut t.changed, 8);
    t.graph
        .reserve(insts + phis_len + func.params.len() + 1, 3 * phis_len);
    // Initial values: parameters are unknown, other locals are zero (a vec local never
    // assigned has length 0).
    for &p in &func.params {
        match t.vars[p.index()] {
            Var::Value => t.cur[p.index()] = t.graph.plain(entry),
            Var::Length => t.cur[p.index()] = t.graph.length(entry),
            _ => {}
        }
    }
    let Built {
        t,
        children,
        child_range,
        stack,
        pairs_tmp,
        ..
    } = s;
    // The dominator tree, children in reverse post-order.
    room(children, nb);
    children.extend(
        cfg.rpo()
            .iter()
            .filter_map(|&b| dom.idom(b).map(|d| (d, b))),
    );
    // Stable: each parent's children stay in reverse post-order.
    room(child_range, nb);
    group_by(nb, children, pairs_tmp, child_range, |&(d, _)| d.index());
    room(stack, 2 * nb);
    let mut builder = Builder {
        func,
        calls,
        cfg,
        t,
    };
    stack.push(Step::Enter(entry));
    while let Some(step) = stack.pop() {
        match step {
            Step::Exit(len, len_cmp) => builder.undo_to(len, len_cmp),
            Step::Enter(b) => {
                stack.push(Step::Exit(builder.t.undo.len(), builder.t.undo_cmp.len()));
                // A block only reached through a block that never runs never runs.
                if let Some(d) = dom.idom(b) {
                    builder.t.dead[b.index()] = builder.t.dead[d.index()];
                }
                builder.block(b);
                let (lo, hi) = child_range[b.index()];
                for &(_, c) in children[lo as usize..hi as usize].iter().rev() {
                    stack.push(Step::Enter(c));
                }
            }
        }
    }
    builder.t.graph.finish();
    true
}

/// Groups `items` by `key` (in `0..n`) with a stable counting sort (through `tmp`), and sets
/// `range` to each key's `(start, end)` range in the grouped list.
fn group_by<T: Copy>(
    n: usize,
    items: &mut Vec<T>,
    tmp: &mut Vec<T>,
    range: &mut Vec<(u32, u32)>,
    key: impl Fn(&T) -> usize,
) {
    room(range, n);
    range.resize(n, (0, 0));
    for it in items.iter() {
        range[key(it)].1 += 1;
    }
    let mut at = 0u32;
    for r in range.iter_mut() {
        let len = r.1;
        *r = (at, at);
        at += len;
    }
    if let Some(&first) = items.first() {
        room(tmp, items.len());
        tmp.resize(items.len(), first);
        for it in items.iter() {
            let r = &mut range[key(it)];
            tmp[r.1 as usize] = *it;
            r.1 += 1;
        }
        std::mem::swap(items, tmp);
    }
}
