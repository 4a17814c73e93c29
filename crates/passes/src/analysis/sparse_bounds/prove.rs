//! The demand-driven prover: does `x <= t + c` hold, for SSA values `x` and `t`, wherever both
//! are defined?
//!
//! The claim `Q(x, t, c)` is read dynamically: at every point dominated by the definitions of
//! `x` and `t`, their latest values satisfy it. It is reduced along the graph's edges:
//!
//! - `x` a plain node with an upper edge `x <= y + d` (conditions proved): `Q(y, t, c - d)`
//!   suffices (`y` dominates `x`, and in strict SSA the latest `y` at a point dominated by `x`
//!   is the one `x` was computed from). Any one edge suffices: a plain node is a *min* node.
//! - `t` a plain node with a lower edge `t >= y + d`: `Q(x, y, c + d)` suffices.
//! - *Distances.* `x` a plain node `a - b` (`a`, `b` earlier values, the subtraction proved
//!   not to wrap, so `x == a - b` exactly) and `t` the constant 0: `Q(a, b, c)` suffices
//!   (`a <= b + c` gives `a - b <= c`); symmetrically `Q(0, t, c)` for `t == a - b` from
//!   `Q(b, a, c)`. This is the fact analysis's rule for `d = x - y` (`x <= y + c` gives
//!   `d <= c`, `y <= x + c` gives `d >= -c`), with its no-wrap condition (both lower bounds
//!   at least 0, or every difference of the operands' constant bounds in `i64`). `a` and `b`
//!   are defined before `x`, so the latest `a` and `b` wherever `x` is defined are the ones
//!   it was computed from, and the cycle argument below is unchanged.
//! - `x` a phi at block `H` whose operands are `a_k` and `t`'s definition strictly dominates
//!   `H` (or `t` is 0): `Q(a_k, t, c)` for **every** operand (`t` is the same on every
//!   incoming edge: it was defined before `H`): a phi is a *max* node. Symmetrically for `t` a
//!   phi. Both phis of one block: `Q(a_k, b_k, c)` for every incoming edge `k`.
//!
//! **Cycles** (ABCD's rule). A query met again while it is being proved, `Q(x, t, c')`, can
//! only have come back through a phi's back-edge operand (every other step goes to a value
//! whose definition strictly dominates), i.e. to the values of an earlier iteration. If
//! `c' >= c` the hypothesis `Q(x, t, c)` on the earlier values implies it (induction on the
//! number of times the phi was entered): the answer is *reduced* (true under the hypothesis).
//! If `c' < c` the cycle amplifies and nothing is concluded. A top-level query that comes back
//! reduced is proved.
//!
//! Memoization: a `True` result used no hypothesis and is kept for every later query of the
//! function; a `False` is kept only when no hypothesis, amplifying cycle, unfinished condition
//! or exhausted budget played a part in it. Each top-level query has a step budget; past it,
//! the answer is "not proved" (always sound).

use super::graph::{room, Edge, Graph, Kind, Node, EXACT_ROOM, NONE, NO_COND, ZERO};
use poolopt_ir::dominators::DomTree;
use poolopt_ir::BinaryOp;
use poolopt_ir::Block;
use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;

/// Steps (node pairs visited) per top-level query, conditions included.
const BUDGET: u32 = 2_000;

/// The deepest chain of open queries (which bounds the machine stack, and the scan of the
/// open queries for the cycle rule).
const MAX_DEPTH: usize = 256;

/// The result of a (sub)query, ordered by strength.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum R {
    False,
    Reduced,
    True,
}

#[derive(Copy, Clone)]
struct Memo {
    /// The smallest `c` proved (`i128::MAX`: none).
    proved: i128,
    /// The largest `c` refuted without any context-dependent step (`i128::MIN`: none).
    failed: i128,
}

const NO_MEMO: Memo = Memo {
    proved: i128::MAX,
    failed: i128::MIN,
};

/// The size of the active-pair filter (a power of two).
const FILTER: usize = 1024;

/// The filter slot of the pair `(x, t)`.
fn slot(x: Node, t: Node) -> usize {
    (x.wrapping_mul(0x9E37_79B9) ^ t) as usize & (FILTER - 1)
}

/// The memo key of the pair `(x, t)`.
fn key(x: Node, t: Node) -> u64 {
    (u64::from(x) << 32) | u64::from(t)
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum CondState {
    Unknown,
    InProgress,
    Yes,
    No,
}

/// The tables of the prover, kept across functions (cleared, not reallocated).
#[derive(Default)]
pub(super) struct ProverSpace {
    memo: HashMap<u64, Memo>,
    /// The queries being proved, innermost last.
    active: Vec<(Node, Node, i128)>,
    /// A counting filter of the active pairs (by [`slot`]): a pair whose count is 0 is not
    /// active, and the scan of `active` is skipped.
    on_stack: Vec<u16>,
    conds: Vec<CondState>,
    /// Constant bounds found, by node: `[lower, upper]`.
    bounds: Vec<[Bound; 2]>,
    /// The edges of lazy definitions, once made: node `n`'s are `extra[at..at + len]` for
    /// `extra_at[n] == (at, len)` (`UNMADE` before).
    extra_at: Vec<(u32, u32)>,
    extra: Vec<(bool, Edge)>,
    /// By node: a lazy `x - y` of two locals found not to wrap (see [`Prover::difference`]).
    exact_sub: Vec<bool>,
}

#[derive(Copy, Clone)]
enum Bound {
    Unknown,
    InProgress,
    Done(Option<i128>),
}

const UNMADE: (u32, u32) = (u32::MAX, 0);

pub(super) struct Prover<'a> {
    g: &'a Graph,
    dom: &'a DomTree,
    s: &'a mut ProverSpace,
    /// A condition's nested query sees only the active queries above `base`.
    base: usize,
    steps: u32,
    /// Set when a result depended on the context (see the module docs).
    tainted: bool,
    bound_depth: usize,
    /// Steps taken over all queries (for statistics).
    pub total_steps: u64,
}

impl<'a> Prover<'a> {
    pub fn new(g: &'a Graph, dom: &'a DomTree, s: &'a mut ProverSpace) -> Prover<'a> {
        let n = g.nodes.len();
        s.memo.clear();
        // A huge function's queries answer a fraction of its nodes; a small one's table is
        // kept from function to function.
        s.memo.reserve(if n > EXACT_ROOM { n } else { 4 * n });
        s.active.clear();
        // Balanced pushes and pops leave it all zero; a fresh one the first time.
        if s.on_stack.len() != FILTER {
            s.on_stack = vec![0; FILTER];
        }
        room(&mut s.conds, g.conds.len());
        s.conds.resize(g.conds.len(), CondState::Unknown);
        room(&mut s.bounds, n);
        s.bounds.resize(n, [Bound::Unknown; 2]);
        room(&mut s.extra_at, n);
        s.extra_at.resize(n, UNMADE);
        s.extra.clear();
        room(&mut s.exact_sub, n);
        s.exact_sub.resize(n, false);
        Prover {
            g,
            dom,
            s,
            base: 0,
            steps: 0,
            tainted: false,
            bound_depth: 0,
            total_steps: 0,
        }
    }

    /// Whether `x <= t + c` is proved (a top-level query).
    pub fn le(&mut self, x: Node, t: Node, c: i128) -> bool {
        self.steps = BUDGET;
        self.s.active.clear();
        self.base = 0;
        self.tainted = false;
        self.query(x, t, c) >= R::Reduced
    }

    /// A condition: proved once, by a nested query with no hypotheses of the enclosing one.
    fn cond_holds(&mut self, id: u32) -> bool {
        match self.s.conds[id as usize] {
            CondState::Yes => return true,
            CondState::No => return false,
            CondState::InProgress => {
                self.tainted = true;
                return false;
            }
            CondState::Unknown => {}
        }
        self.s.conds[id as usize] = CondState::InProgress;
        let k = self.g.conds[id as usize];
        let base = std::mem::replace(&mut self.base, self.s.active.len());
        let tainted = std::mem::replace(&mut self.tainted, false);
        let r = self.query(k.a, k.b, k.c);
        let ok = r >= R::Reduced;
        // A refutation that depended on the context may be retried later.
        self.s.conds[id as usize] = if ok {
            CondState::Yes
        } else if self.tainted {
            CondState::Unknown
        } else {
            CondState::No
        };
        self.tainted = tainted || (!ok && self.tainted);
        self.base = base;
        ok
    }

    /// `Q(x, t, c)`: the answers that need no step here, the rest in [`Prover::search`].
    #[inline(always)]
    fn query(&mut self, x: Node, t: Node, c: i128) -> R {
        if x == t {
            return if c >= 0 { R::True } else { R::False };
        }
        // Every value is an i64: `x <= i64::MAX`, `t >= i64::MIN`.
        if (t == ZERO && c >= i64::MAX as i128)
            || (x == ZERO && c >= -(i64::MIN as i128))
            || c >= u64::MAX as i128
        {
            return R::True;
        }
        self.search(x, t, c)
    }

    #[inline(never)]
    fn search(&mut self, x: Node, t: Node, c: i128) -> R {
        let memo = self.s.memo.get(&key(x, t)).copied().unwrap_or(NO_MEMO);
        // (`c` is far from `i128::MAX`: the checks above took every `c >= u64::MAX`.)
        if c >= memo.proved {
            return R::True;
        }
        if c <= memo.failed {
            return R::False;
        }
        let slot = slot(x, t);
        if let Some(&(_, _, ca)) = (self.s.on_stack[slot] != 0)
            .then(|| {
                self.s.active[self.base..]
                    .iter()
                    .rev()
                    .find(|&&(a, b, _)| a == x && b == t)
            })
            .flatten()
        {
            self.tainted = true;
            return if c >= ca { R::Reduced } else { R::False };
        }
        if self.steps == 0 || self.s.active.len() >= MAX_DEPTH {
            self.tainted = true;
            return R::False;
        }
        self.steps -= 1;
        self.total_steps += 1;
        let outer_taint = std::mem::replace(&mut self.tainted, false);
        self.s.active.push((x, t, c));
        self.s.on_stack[slot] += 1;
        let r = self.expand(x, t, c);
        self.s.on_stack[slot] -= 1;
        self.s.active.pop();
        match r {
            R::True => {
                let m = self.s.memo.entry(key(x, t)).or_insert(NO_MEMO);
                m.proved = m.proved.min(c);
            }
            R::False if !self.tainted => {
                let m = self.s.memo.entry(key(x, t)).or_insert(NO_MEMO);
                m.failed = m.failed.max(c);
            }
            _ => {}
        }
        self.tainted |= outer_taint;
        r
    }

    /// Whether the definition of `n` strictly dominates the entry of `block` (phis included).
    fn before(&self, n: Node, block: Block) -> bool {
        let d = &self.g.nodes[n as usize];
        d.global || (d.block != block && self.dom.dominates(d.block, block))
    }

    #[inline(always)]
    fn expand(&mut self, x: Node, t: Node, c: i128) -> R {
        let g = self.g;
        let (kx, kt) = (g.nodes[x as usize].kind, g.nodes[t as usize].kind);
        // Two phis of one block: edge by edge.
        if let (
            Kind::Phi {
                block: bx,
                start: sx,
                len,
            },
            Kind::Phi {
                block: bt,
                start: st,
                ..
            },
        ) = (kx, kt)
        {
            if bx == bt {
                let mut r = R::True;
                for (&a, &b) in g.ops(sx, len).iter().zip(g.ops(st, len)) {
                    if a != NONE && b != NONE {
                        r = r.min(self.query(a, b, c));
                        if r == R::False {
                            break;
                        }
                    }
                }
                if r > R::False {
                    return r;
                }
            }
        }
        // The later definition first: the two walks meet at a common ancestor.
        let first_x = x > t;
        let mut best = if first_x {
            self.expand_upper(x, t, c)
        } else {
            self.expand_lower(x, t, c)
        };
        if best != R::True {
            let other = if first_x {
                self.expand_lower(x, t, c)
            } else {
                self.expand_upper(x, t, c)
            };
            best = best.max(other);
        }
        best
    }

    /// Proofs through `x`'s definition.
    #[inline(always)]
    fn expand_upper(&mut self, x: Node, t: Node, c: i128) -> R {
        let g = self.g;
        match g.nodes[x as usize].kind {
            Kind::Zero => R::False,
            Kind::Phi { block, start, len } => {
                if !self.before(t, block) {
                    return R::False;
                }
                let mut r = R::True;
                for &a in g.ops(start, len).iter().filter(|&&a| a != NONE) {
                    r = r.min(self.query(a, t, c));
                    if r == R::False {
                        break;
                    }
                }
                r
            }
            Kind::Plain => {
                let mut best = R::False;
                for e in g.uppers(x) {
                    if e.cond.iter().any(|&k| k != NO_COND && !self.cond_holds(k)) {
                        continue;
                    }
                    best = best.max(self.query(e.to, t, c - e.c));
                    if best == R::True {
                        return best;
                    }
                }
                let (at, len) = self.materialize(x);
                for i in at..at + len {
                    let (up, e) = self.s.extra[i as usize];
                    if !up {
                        continue;
                    }
                    best = best.max(self.query(e.to, t, c - e.c));
                    if best == R::True {
                        return best;
                    }
                }
                // x = a - b + k <= c  <=  a <= b + (c - k).
                if t == ZERO {
                    if let Some((a, b, k)) = self.difference(x) {
                        best = best.max(self.query(a, b, c - k));
                    }
                }
                best
            }
        }
    }

    /// Proofs through `t`'s definition.
    #[inline(always)]
    fn expand_lower(&mut self, x: Node, t: Node, c: i128) -> R {
        let g = self.g;
        match g.nodes[t as usize].kind {
            Kind::Zero => R::False,
            Kind::Phi { block, start, len } => {
                if !self.before(x, block) {
                    return R::False;
                }
                let mut r = R::True;
                for &b in g.ops(start, len).iter().filter(|&&b| b != NONE) {
                    r = r.min(self.query(x, b, c));
                    if r == R::False {
                        break;
                    }
                }
                r
            }
            Kind::Plain => {
                let mut best = R::False;
                for e in g.lowers(t) {
                    if e.cond.iter().any(|&k| k != NO_COND && !self.cond_holds(k)) {
                        continue;
                    }
                    best = best.max(self.query(x, e.to, c + e.c));
                    if best == R::True {
                        return best;
                    }
                }
                let (at, len) = self.materialize(t);
                for i in at..at + len {
                    let (up, e) = self.s.extra[i as usize];
                    if up {
                        continue;
                    }
                    best = best.max(self.query(x, e.to, c + e.c));
                    if best == R::True {
                        return best;
                    }
                }
                // 0 <= (a - b + k) + c  <=  b <= a + (k + c).
                if x == ZERO {
                    if let Some((a, b, k)) = self.difference(t) {
                        best = best.max(self.query(b, a, c + k));
                    }
                }
                best
            }
        }
    }

    /// The constant upper bound of `x` its edges give (the smallest `c` found with
    /// `x <= c`), or `None`. A phi's is the largest of its operands'; a phi met again while
    /// its bound is being found has none (no induction here). Memoized.
    pub fn upper_bound(&mut self, x: Node) -> Option<i128> {
        self.bound(x, true)
    }

    /// The constant lower bound of `x` its edges give (as [`Prover::upper_bound`]).
    pub fn lower_bound(&mut self, x: Node) -> Option<i128> {
        self.bound(x, false)
    }

    fn bound(&mut self, x: Node, up: bool) -> Option<i128> {
        if x == ZERO {
            return Some(0);
        }
        let side = usize::from(up);
        match self.s.bounds[x as usize][side] {
            Bound::Done(b) => return b,
            Bound::InProgress => return None,
            Bound::Unknown => {}
        }
        if self.bound_depth >= MAX_DEPTH {
            return None;
        }
        self.bound_depth += 1;
        self.s.bounds[x as usize][side] = Bound::InProgress;
        let g = self.g;
        // An upper bound: the least of `to`'s bound + c over upper edges; a lower one: the
        // greatest over lower edges.
        let pick = |a: Option<i128>, b: Option<i128>| match (a, b) {
            (Some(a), Some(b)) => Some(if up { a.min(b) } else { a.max(b) }),
            (a, b) => a.or(b),
        };
        let b = match g.nodes[x as usize].kind {
            Kind::Zero => Some(0),
            Kind::Phi { start, len, .. } => {
                let mut out: Option<i128> = None;
                let mut all = true;
                for &a in g.ops(start, len).iter().filter(|&&a| a != NONE) {
                    match self.bound(a, up) {
                        Some(v) => {
                            out = Some(match out {
                                None => v,
                                Some(o) if up => o.max(v),
                                Some(o) => o.min(v),
                            })
                        }
                        None => {
                            all = false;
                            break;
                        }
                    }
                }
                out.filter(|_| all)
            }
            Kind::Plain => {
                let edges = if up { g.uppers(x) } else { g.lowers(x) };
                let mut best = None;
                for e in edges {
                    if e.cond.iter().any(|&k| k != NO_COND && !self.cond_holds(k)) {
                        continue;
                    }
                    let v = self.bound(e.to, up).map(|v| v + e.c);
                    best = pick(best, v);
                }
                let (at, len) = self.materialize(x);
                for i in at..at + len {
                    let (u, e) = self.s.extra[i as usize];
                    if u != up {
                        continue;
                    }
                    let v = self.bound(e.to, up).map(|v| v + e.c);
                    best = pick(best, v);
                }
                best
            }
        };
        self.bound_depth -= 1;
        self.s.bounds[x as usize][side] = Bound::Done(b);
        b
    }

    /// The edges of a lazy definition ([`Graph::lazy`]), made once from the constant bounds
    /// of its operands, with the rules of the fact analysis (`binary_facts`): each is exact
    /// arithmetic on bounds that hold wherever the operands are defined, and each first
    /// proves from them that the operation cannot wrap.
    /// Returns the `(start, len)` of the edges in `extra`.
    #[inline(always)]
    fn materialize(&mut self, n: Node) -> (u32, u32) {
        if !self.g.nodes[n as usize].lazy {
            return (0, 0);
        }
        let made = self.s.extra_at[n as usize];
        if made != UNMADE {
            return made;
        }
        self.make_lazy_edges(n)
    }

    /// [`Prover::materialize`] the first time.
    #[inline(never)]
    fn make_lazy_edges(&mut self, n: Node) -> (u32, u32) {
        // In progress (or no lazy definition): none yet (a query that comes back here sees no
        // extra edge).
        self.s.extra_at[n as usize] = (0, 0);
        let Some(lz) = self.g.lazy_of(n) else {
            return (0, 0);
        };
        let mut out: SmallVec<[(bool, Edge); 4]> = SmallVec::new();
        let fits = |v: i128| (i64::MIN as i128..=i64::MAX as i128).contains(&v);
        let bounds = |p: &mut Self, t: (Node, i128)| -> (Option<i128>, Option<i128>) {
            if t.0 == ZERO {
                (Some(t.1), Some(t.1))
            } else {
                (
                    p.lower_bound(t.0).map(|v| v + t.1),
                    p.upper_bound(t.0).map(|v| v + t.1),
                )
            }
        };
        let edge = |to: Node, c: i128| Edge {
            to,
            c,
            cond: [NO_COND; 2],
        };
        let (x, y) = (lz.x, lz.y);
        match lz.op {
            BinaryOp::Add if x.0 != ZERO && y.0 != ZERO => {
                let ((lx, hx), (ly, hy)) = (bounds(self, x), bounds(self, y));
                let up = hx.zip(hy).is_some_and(|(a, b)| fits(a + b))
                    || hx.is_some_and(|h| h <= 0)
                    || hy.is_some_and(|h| h <= 0);
                let down = lx.zip(ly).is_some_and(|(a, b)| fits(a + b))
                    || lx.is_some_and(|l| l >= 0)
                    || ly.is_some_and(|l| l >= 0);
                if up && down {
                    for ((p, _), (lq, hq)) in [(x, (ly, hy)), (y, (lx, hx))] {
                        if let Some(h) = hq {
                            out.push((true, edge(p, h)));
                        }
                        if let Some(l) = lq {
                            out.push((false, edge(p, l)));
                        }
                    }
                }
            }
            BinaryOp::Sub if y.0 != ZERO => {
                let ((lx, hx), (ly, hy)) = (bounds(self, x), bounds(self, y));
                let (Some(lx), Some(ly)) = (lx, ly) else {
                    return self.done(n, out);
                };
                let fits_all = (lx >= 0 && ly >= 0)
                    || (hy.is_some_and(|h| fits(lx - h)) && hx.is_some_and(|h| fits(h - ly)));
                if fits_all {
                    self.s.exact_sub[n as usize] = x.0 != ZERO;
                    if x.0 == ZERO {
                        // d = k - y: k - hi(y) <= d <= k - lo(y).
                        out.push((true, edge(ZERO, x.1 - ly)));
                        if let Some(h) = hy {
                            out.push((false, edge(ZERO, x.1 - h)));
                        }
                    } else {
                        // d <= x - lo(y); d >= x - hi(y).
                        out.push((true, edge(x.0, -ly)));
                        if let Some(h) = hy {
                            out.push((false, edge(x.0, -h)));
                        }
                    }
                }
            }
            // d = p * k (or p << s) for 0 <= p <= hi and a small k: lo*k <= d <= hi*k, d >= p.
            BinaryOp::Mul | BinaryOp::Shl => {
                let (p, k) = match (lz.op, x.0 == ZERO, y.0 == ZERO) {
                    (BinaryOp::Mul, false, true) => (x, y.1),
                    (BinaryOp::Mul, true, false) => (y, x.1),
                    (BinaryOp::Shl, false, true) if (1..=20).contains(&y.1) => (x, 1i128 << y.1),
                    _ => return self.done(n, out),
                };
                if (1..=1 << 20).contains(&k) {
                    if let (Some(lp), Some(hp)) = bounds(self, p) {
                        if lp >= 0 && fits(hp * k) {
                            out.push((true, edge(ZERO, hp * k)));
                            out.push((false, edge(ZERO, lp * k)));
                            out.push((false, edge(p.0, p.1)));
                        }
                    }
                }
            }
            _ => {}
        }
        self.done(n, out)
    }

    /// `n == a - b + k` exactly, for `n` a lazy `x - y` of two locals (`a`, `b` plus
    /// constants) that [`Prover::materialize`] found cannot wrap: the *distance rule*, which
    /// turns a constant bound of `n` into a constraint between `a` and `b` (`a <= b + c` gives
    /// `n <= c + k`), as the fact analysis's distance query does.
    fn difference(&mut self, n: Node) -> Option<(Node, Node, i128)> {
        if !self.g.nodes[n as usize].lazy {
            return None;
        }
        self.materialize(n);
        if !self.s.exact_sub[n as usize] {
            return None;
        }
        let lz = self.g.lazy_of(n)?;
        Some((lz.x.0, lz.y.0, lz.x.1 - lz.y.1))
    }

    fn done(&mut self, n: Node, out: SmallVec<[(bool, Edge); 4]>) -> (u32, u32) {
        let made = (self.s.extra.len() as u32, out.len() as u32);
        self.s.extra.extend_from_slice(&out);
        self.s.extra_at[n as usize] = made;
        made
    }
}
