//! A sparse, demand-driven bounds-check prover (ABCD: Bodík, Gupta, Sarkar, "ABCD: eliminating
//! array bounds checks on demand", PLDI 2000), as an experiment against the dense fact
//! analysis ([`crate::analysis::facts`]).
//!
//! For one function it decides the questions `bounds-check-elim` asks: whether each checked
//! `pop`/`get`/`set` can fail, and whether each explicit check's compare is decided so that
//! its trap edge is never taken; and the one rule 1 of `div-check-elim` asks of a checked
//! division by an `i64` local: whether its divisor is at least 1, or at most -1 (-2 for
//! `sdiv`). Three parts:
//!
//! - `ssa`: an SSA form of the `i64` locals and the vec lengths, with π-nodes where a branch
//!   or a successful checked access teaches something about a value;
//! - `graph`: the inequality graph, one node per SSA value, each with the constraints
//!   `x <= y + c` / `x >= y + c` its definition gives against earlier values;
//! - `prove`: the demand-driven proof of `x <= t + c`, memoized, with ABCD's cycle rule at
//!   phis.
//!
//! # Soundness
//!
//! 1. *Every edge is a fact about exact integer values.* Each rule in `ssa` mirrors a rule
//!    of the dense analysis (`facts/transfer.rs`): `x = y + k` gives `x == y + k` only under
//!    the condition `y <= i64::MAX - k` (`y >= i64::MIN - k` for `k < 0`), proved before the
//!    edge is used, so a wrapping add gives nothing; `push w` makes `len(w)` a new value
//!    exactly one more, and every vec that may alias `w` (same type, sites not disjoint:
//!    [`CallKills::may_alias`]) a new value between its old one and one more; `pop` likewise
//!    one less (and the checked `pop` that did not trap proves the old length was at least
//!    1); `drop` makes it 0 (an alias: between 0 and its old value); a call makes a new,
//!    unknown length of every vec that may alias a vec argument of a type the callee may
//!    change; every length is in `0..=2^62`. The other arithmetic rules (masks, shifts,
//!    remainders, divisions, bit counts, `x - y` of non-negative locals) carry the same side
//!    conditions as their dense counterparts, as edge conditions. *Lazy* definitions (`x + y`
//!    and `x - y` of locals, `k - y`, `x * k`, `x << s`) get their edges only when the prover
//!    first needs them, from constant bounds of the operands found along proved edges (a phi's
//!    bound is the widest of its operands', and a phi met again while its bound is sought has
//!    none), each after proving from those bounds that the operation cannot wrap. Any other
//!    definition of an `i64` local is a new value with no edge, and a `bool` that is not a
//!    compare of `i64` operands holds nothing. Locals start at zero (a vec local never
//!    assigned has length 0); parameters are unknown.
//! 2. *Every edge holds wherever its node is defined.* Edges point from a node to values
//!    whose definitions dominate it; in strict SSA the latest instance of an operand at any
//!    point dominated by the node is the one it was computed from. A π-node's extra edges
//!    (from a compare on the edge into a block with a single predecessor, or from a checked
//!    access that did not trap) belong to the π alone, which is defined only where they hold.
//! 3. *The phis are where the values merge.* Phis are placed at the iterated dominance
//!    frontier of every block that (by the same rule table, `ssa`'s `for_each_def`) gives a
//!    variable a new value, so the value of a variable in a block is the one its dominating
//!    definition or phi names; an entry block that is also a loop header has the function's
//!    start as one more predecessor (its phis' last operand is the initial value). π-nodes
//!    copy values and need none. The SSA is *pruned*: no phi where the variable is dead (no
//!    path from the block reads it before a new definition; every read the builder makes,
//!    including the old length an aliasing `push`/`pop`/`drop` or a call starts from, counts
//!    as a use). A dead variable's stale value is then never read, and a node reaches a
//!    query only through reads, so the pruned phis could never have been reached: the
//!    decisions are the same.
//! 4. *The prover's steps are implications* (`prove`), and its cycle rule is ABCD's
//!    induction over the iterations of a loop.
//!
//! 5. *Blocks that never run.* A branch edge is never taken when its condition is false
//!    wherever the branch runs: a compare false of two constants (seen as the SSA form is
//!    built), or, asked on demand, a compare of `i64` operands whose negation the prover
//!    proves at the end of the branch's block `p`. The compare's operands are the latest
//!    values there: they are defined before the compare, which dominates `p`'s end (a `bool`
//!    merged at a phi holds no compare), so every path from an operand's definition to the
//!    branch passes the compare again; an operand read from a local that now holds a π copy
//!    of it is read as that copy, equal to it wherever the copy is defined (2.). A proof
//!    about those values holds on every execution of the branch (2., 4.), so the edge is
//!    never taken. When that edge is the only way into its target (a π-block; never the
//!    entry), the target never runs, nor does any block it dominates (every path to them
//!    takes the edge): their checks cannot fail, their explicit checks' trap edges are never
//!    taken, their divisions never run. The proof rests only on values defined at or before
//!    `p`, never on the target's π-nodes or anything below, so it does not lean on the
//!    blocks it finds dead. It is asked only for a check not proved otherwise: the dominator
//!    tree is walked up from the check's block, each π-block's edge asked once per function
//!    (memoized), and the walk stops at the first block already answered.
//!
//! 6. *Divisions.* The query is the divisor's SSA value just before the division (read
//!    before the destination is assigned, which may be the divisor itself): `0 <= d - 1` or
//!    `d <= 0 + upper` proved of it holds on every execution of the division (2.), so the
//!    test (`d == 0`; for `sdiv` also `d == -1`) never fires, as rule 1's facts would show.
//!    A *quotient witness* is a local holding, where the division runs, a copy of
//!    `q = x sdiv k` (constant `k >= 1`) whose `x` is a copy of the divisor's value (π-nodes
//!    and copies keep values; the latest `x` wherever `q` is defined is the one it was
//!    computed from, 2.): `q >= 1` then means `d >= k`, and `q <= -1` that `d <= -k`
//!    (truncating division), the fact analysis's quotient rule.
//!
//! Anything not modeled (locals of other types, `or`/`xor`/`neg`, casts, loads, call results,
//! relations of more than two values such as `i + j < len(v)`) gives no edge, so the
//! prover answers "not proved". Contradictory facts on an infeasible path are exploited only
//! through rule 5: an edge refuted by the compare it branches on (not, say, a `pop` of a
//! vec proved empty); and only compares of locals the SSA form follows (those a check may
//! depend on) are decided.

mod graph;
mod prove;
mod ssa;

#[cfg(test)]
mod tests;

use crate::analysis::facts::CallKills;
use crate::analysis::{compare_bounds, Cfg};
use graph::ZERO;
use poolopt_ir::dominators::DomTree;
use poolopt_ir::{BinaryOp, Block, EntityRef, Function, Inst, Local};
use prove::Prover;
use smallvec::SmallVec;
use ssa::{Cmp, Need};
use std::cell::RefCell;

/// What the prover decided for one function.
#[derive(Debug, Default)]
pub struct SparseDecisions {
    /// Each checked `pop`/`get`/`set` (with its block): whether it is proved safe.
    pub checks: Vec<(Block, Inst, bool)>,
    /// Each explicit check (a block ending in a branch to a block that only traps): whether
    /// its trap edge is proved never taken.
    pub explicit: Vec<(Block, bool)>,
    /// Each checked division by an `i64` local (with its block): why its test cannot fail,
    /// when proved.
    pub divisions: Vec<(Block, Inst, Option<DivisorProof>)>,
    /// With `explain`: for each check not proved (by its instruction), what the prover found
    /// short of a proof.
    pub shortfalls: Vec<(Inst, Shortfall)>,
    /// Nodes of the inequality graph, for statistics.
    pub nodes: usize,
    /// Prover steps, for statistics.
    pub steps: u64,
}

/// What the prover found short of a kept check's proof, for its remark: which of the
/// check's conditions it did not prove, and the constant bounds it finds for the operand the
/// remark names (the index of an index check, the length otherwise).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Shortfall {
    /// `i >= 0` was not proved (an index check).
    pub lower: bool,
    /// `i < len(v)`, `len(v) > k` or `len(v) > 0` was not proved.
    pub upper: bool,
    /// The operand's constant lower and upper bounds, as far as the prover finds them.
    pub bounds: (Option<i128>, Option<i128>),
}

/// Why a checked division's divisor `d` passes its test (rule 1 of `div-check-elim`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DivisorProof {
    /// `d >= 1`.
    AtLeastOne,
    /// `d <= -1` (`d <= -2` for `sdiv`): [`divisor_upper`].
    AtMostUpper,
    /// Local `q` holds `d sdiv k` there, and `q >= 1` gives `d >= k` (`below`: `q <= -1`
    /// gives `d <= -k`, and `-k` is at most [`divisor_upper`]). `bound` is `k` (`-k`).
    Quotient { q: Local, below: bool, bound: i64 },
    /// The division's block never runs.
    NeverRuns,
}

/// The largest negative divisor that passes `op`'s test: -1, or -2 for `sdiv` (`MIN / -1`).
pub fn divisor_upper(op: BinaryOp) -> i128 {
    if op == BinaryOp::SDiv {
        -2
    } else {
        -1
    }
}

/// Decides every check of `func` (reachable blocks only; unreachable ones are not listed).
/// With `explain`, also what it found short of each kept check's proof
/// ([`SparseDecisions::shortfalls`]), asked after every decision so that the decisions do not
/// depend on it.
pub fn decide(
    func: &Function,
    cfg: &Cfg,
    dom: &DomTree,
    calls: &CallKills,
    explain: bool,
) -> SparseDecisions {
    SPACE.with(|space| {
        let mut space = space.borrow_mut();
        let Space { ssa, prover, runs } = &mut *space;
        if !ssa::build(func, cfg, dom, calls, ssa) {
            return SparseDecisions::default();
        }
        let decisions = decide_with(ssa, dom, prover, runs, explain);
        if decisions.nodes > KEEP_SPACE_NODES {
            *space = Space::default();
        }
        decisions
    })
}

thread_local! {
    /// The work space of [`decide`], kept across functions so that it allocates nothing once
    /// its tables have grown (up to [`KEEP_SPACE_NODES`]).
    static SPACE: RefCell<Space> = RefCell::default();
}

/// The work space of a function with more nodes is freed after it: a huge function's tables
/// (a few hundred bytes a node) would otherwise stay with the thread for the rest of the
/// process, on top of what every later pass, the code generator and the embedder take.
const KEEP_SPACE_NODES: usize = 1 << 16;

#[derive(Default)]
struct Space {
    ssa: ssa::Built,
    prover: prove::ProverSpace,
    runs: Vec<u8>,
}

fn decide_with(
    built: &ssa::Built,
    dom: &DomTree,
    space: &mut prove::ProverSpace,
    runs: &mut Vec<u8>,
    explain: bool,
) -> SparseDecisions {
    let mut prover = Prover::new(built.graph(), dom, space);
    let mut reach = Reach::new(built, dom, runs);
    let mut out = SparseDecisions {
        nodes: built.graph().nodes.len(),
        ..SparseDecisions::default()
    };
    // The kept checks (with whether `i >= 0` was proved), explained at the end.
    let mut kept: Vec<(&ssa::CheckQuery, bool)> = Vec::new();
    for q in built.checks() {
        let mut non_negative = false;
        let safe = q.dead
            || match q.need {
                // 1 <= len, i.e. 0 <= len - 1.
                Need::Pop { len } => prover.le(ZERO, len, -1),
                Need::Index { i, len } => {
                    non_negative = prover.le(ZERO, i, 0);
                    non_negative && prover.le(i, len, -1)
                }
                Need::Const { len, k } => k >= 0 && prover.le(ZERO, len, -(k as i128) - 1),
            }
            || reach.never_runs(&mut prover, q.block);
        out.checks.push((q.block, q.inst, safe));
        if explain && !safe {
            kept.push((q, non_negative));
        }
    }
    for q in built.explicit() {
        let safe = q.dead
            || built
                .end_cmp(q.block)
                .and_then(|c| decide_compare(&mut prover, c))
                .is_some_and(|value| value != q.trap_when)
            || reach.never_runs(&mut prover, q.block);
        out.explicit.push((q.block, safe));
    }
    for q in built.divisions() {
        let proof = if q.dead {
            Some(DivisorProof::NeverRuns)
        } else if prover.le(ZERO, q.d, -1) {
            // 0 <= d - 1.
            Some(DivisorProof::AtLeastOne)
        } else if prover.le(q.d, ZERO, divisor_upper(q.op)) {
            Some(DivisorProof::AtMostUpper)
        } else {
            built.witnesses(q).iter().find_map(|w| {
                if prover.le(ZERO, w.value, -1) {
                    Some(DivisorProof::Quotient {
                        q: w.q,
                        below: false,
                        bound: w.k,
                    })
                } else if -i128::from(w.k) <= divisor_upper(q.op) && prover.le(w.value, ZERO, -1) {
                    Some(DivisorProof::Quotient {
                        q: w.q,
                        below: true,
                        bound: -w.k,
                    })
                } else {
                    None
                }
            })
        };
        let proof = proof.or_else(|| {
            reach
                .never_runs(&mut prover, q.block)
                .then_some(DivisorProof::NeverRuns)
        });
        out.divisions.push((q.block, q.inst, proof));
    }
    // The decisions' steps only: the statistics are the same with remarks and without.
    out.steps = prover.total_steps;
    for (q, non_negative) in kept {
        let shortfall = shortfall(&mut prover, q.need, non_negative);
        out.shortfalls.push((q.inst, shortfall));
    }
    out
}

/// Rule 5's blocks that never run, asked on demand: memoized by block (`runs`: 0 not asked,
/// 1 runs or may, 2 never runs; filled on the first question).
struct Reach<'a> {
    built: &'a ssa::Built,
    dom: &'a DomTree,
    runs: &'a mut Vec<u8>,
    ready: bool,
}

const NOT_ASKED: u8 = 0;
const MAY_RUN: u8 = 1;
const NEVER_RUNS: u8 = 2;

impl<'a> Reach<'a> {
    fn new(built: &'a ssa::Built, dom: &'a DomTree, runs: &'a mut Vec<u8>) -> Self {
        Reach {
            built,
            dom,
            runs,
            ready: false,
        }
    }

    /// Whether `b` (a reachable block) never runs: some block that dominates it (itself
    /// included) is entered only through a branch edge that is never taken. The dominator
    /// tree is walked up from `b` to the first block already answered (or past the entry),
    /// then answered downwards, each block asked only while none above never runs.
    fn never_runs(&mut self, prover: &mut Prover<'_>, b: Block) -> bool {
        if !self.ready {
            self.ready = true;
            self.runs.clear();
            self.runs.resize(self.built.blocks(), NOT_ASKED);
        }
        let mut chain: SmallVec<[Block; 16]> = SmallVec::new();
        let mut never = false;
        let mut at = Some(b);
        while let Some(d) = at {
            match self.runs[d.index()] {
                NOT_ASKED => chain.push(d),
                known => {
                    never = known == NEVER_RUNS;
                    break;
                }
            }
            at = self.dom.idom(d);
        }
        for &d in chain.iter().rev() {
            never = never || self.refuted(prover, d);
            self.runs[d.index()] = if never { NEVER_RUNS } else { MAY_RUN };
        }
        never
    }

    /// Whether `d` is entered only through a branch edge that is never taken: the negation
    /// of the compare that the edge needs holds at the branch.
    fn refuted(&self, prover: &mut Prover<'_>, d: Block) -> bool {
        let Some((p, when)) = self.built.entry_edge(d) else {
            return false;
        };
        self.built.end_cmp(p).is_some_and(|c| {
            // The edge is taken when `c` is `when`: refuted when `c` is proved `!when`.
            let op = if when { c.op.negate() } else { c.op };
            compare_bounds::compare_holds(op, c.lhs, c.rhs, ZERO, |a, b, off| prover.le(a, b, off))
        })
    }
}

/// What the prover finds short of proving `need` (not proved; `non_negative`: its `i >= 0`
/// was).
fn shortfall(p: &mut Prover<'_>, need: Need, non_negative: bool) -> Shortfall {
    let bounds = |p: &mut Prover<'_>, n| (p.lower_bound(n), p.upper_bound(n));
    match need {
        Need::Index { i, len } => Shortfall {
            lower: !non_negative,
            upper: non_negative || !p.le(i, len, -1),
            bounds: bounds(p, i),
        },
        Need::Pop { len } | Need::Const { len, .. } => Shortfall {
            lower: false,
            upper: true,
            bounds: bounds(p, len),
        },
    }
}

/// The value of a compare when the prover decides it (the rules `bounds-check-elim` applies
/// to the facts: [`crate::analysis::compare_bounds`]).
fn decide_compare(p: &mut Prover<'_>, c: Cmp) -> Option<bool> {
    compare_bounds::decide_compare(c.op, c.lhs, c.rhs, ZERO, |a, b, off| p.le(a, b, off))
}
