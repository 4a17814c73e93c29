//! The inequality graph: one node per SSA value (an `i64` local's value or a vec length), with
//! the difference constraints its *definition* establishes against earlier values.
//!
//! Every edge belongs to the node it was created with and points to a node whose definition
//! dominates it (an operand of the definition, or the constant 0): `x <= y + c` (an *upper*
//! edge of `x`) or `x >= y + c` (a *lower* edge of `x`). A constraint is never attached to
//! the older node: `x_pi <= n - 1` holds only where the branch that made `x_pi` was taken, so
//! it must not become a fact about `n` everywhere `n` is live. An edge may carry a
//! *condition* (another constraint between earlier values) that must be proved before the
//! edge is used: the no-wrap side condition of `x = y + k`, the `n >= 0` an unsigned compare
//! needs.
//!
//! A phi node has no edges of its own: it is the *max* node of ABCD, and a constraint on it
//! holds when it holds for every incoming value on its edge (see the prover).

use poolopt_ir::Block;

/// An SSA value: an index into [`Graph::nodes`].
pub(super) type Node = u32;

/// The constant 0 (every constant `k` is `ZERO + k`).
pub(super) const ZERO: Node = 0;

/// The largest length a vec can have (`MAX_LEN` of the fact analysis): lengths are counted in
/// elements of at least one byte, and no run can allocate 2^62 bytes.
pub(super) const MAX_LEN: i128 = crate::analysis::facts::constraints::MAX_LEN as i128;

/// `self <= to + c` (upper) or `self >= to + c` (lower), usable once both conditions (those
/// not [`NO_COND`]) are proved. (Packed: 32 bytes.)
#[derive(Copy, Clone, Debug)]
pub(super) struct Edge {
    pub to: Node,
    pub cond: [u32; 2],
    pub c: i128,
}

/// No condition, in [`Edge::cond`].
pub(super) const NO_COND: u32 = u32::MAX;

/// The packed form of `cond`.
#[inline]
fn pack(cond: Conds) -> [u32; 2] {
    cond.map(|k| k.unwrap_or(NO_COND))
}

/// The conditions of an edge: none, one, or two.
pub(super) type Conds = [Option<u32>; 2];

/// No condition.
pub(super) const ALWAYS: Conds = [None, None];

/// One condition.
pub(super) fn when(k: u32) -> Conds {
    [Some(k), None]
}

/// How a node is defined.
#[derive(Copy, Clone, Debug)]
pub(super) enum Kind {
    /// The constant 0.
    Zero,
    /// Any definition but a phi: the node's edges say all that is known.
    Plain,
    /// A phi at `block`: `Graph::phi_ops[start + k]` is the value on the edge from the
    /// block's `k`-th predecessor (`NONE` for an unreachable predecessor, whose edge is never
    /// taken).
    Phi { block: Block, start: u32, len: u32 },
}

/// A definition whose edges depend on constant bounds of its operands (see the prover's
/// `materialize`): `node = x op y` for `i64` terms (a node plus a constant).
#[derive(Copy, Clone, Debug)]
pub(super) struct Lazy {
    pub node: Node,
    pub op: poolopt_ir::BinaryOp,
    pub x: (Node, i128),
    pub y: (Node, i128),
}

/// Empties `v` with room for `n` items. Short of room, it takes a fresh buffer (twice the
/// size, and at least [`MIN_ROOM`]; past [`EXACT_ROOM`] items just `n`, so that a huge
/// function's tables are not twice what it asks) rather than growing the old one
/// ([`poolopt_ir::room::vec_room`]: `realloc` would copy the old contents).
#[inline]
pub(super) fn room<T>(v: &mut Vec<T>, n: usize) {
    v.clear();
    if v.capacity() < n {
        let take = if n > EXACT_ROOM { n } else { 2 * n };
        poolopt_ir::room::vec_room(v, take.max(MIN_ROOM));
    }
}

/// The least room a work-space table takes: most functions then fit in the first buffer.
const MIN_ROOM: usize = 256;

/// Past this many items a table gets the room asked for, not twice it.
pub(super) const EXACT_ROOM: usize = 1 << 15;

/// No value (an unset phi operand).
pub(super) const NONE: Node = u32::MAX;

#[derive(Copy, Clone, Debug)]
pub(super) struct NodeData {
    pub kind: Kind,
    /// The block of the definition (the entry block for initial values and constants).
    pub block: Block,
    /// A constant: the same value everywhere (its definition dominates every point).
    pub global: bool,
    /// Has a lazy definition ([`Graph::lazy`]).
    pub lazy: bool,
    /// The value the node copies: itself, or for a π-node the first node it copies that is
    /// not one ([`Graph::copy_of`]). Two nodes of one origin are equal wherever both are
    /// defined.
    pub origin: Node,
}

/// A condition: `a <= b + c`.
#[derive(Copy, Clone, Debug)]
pub(super) struct Cond {
    pub a: Node,
    pub b: Node,
    pub c: i128,
}

/// The graph. Edges are collected as they are made (`pending`), then [`Graph::finish`]
/// groups them by node (`upper_at`/`lower_at` index `edges` by node).
#[derive(Debug, Default)]
pub(super) struct Graph {
    pub nodes: Vec<NodeData>,
    pub conds: Vec<Cond>,
    pub phi_ops: Vec<Node>,
    /// The lazy definitions, by node (sorted: made in node order).
    pub lazies: Vec<Lazy>,
    /// (node, is upper, edge), in the order made.
    pending: Vec<(Node, bool, Edge)>,
    /// After `finish`: the edges, node by node, upper ones first.
    pub edges: Vec<Edge>,
    /// After `finish`: node `n`'s upper edges are `edges[at[n]..mid[n]]`, its lower ones
    /// `edges[mid[n]..at[n + 1]]`.
    at: Vec<u32>,
    mid: Vec<u32>,
    /// Scratch of `finish`.
    count: Vec<u32>,
}

impl Graph {
    /// Empties the graph (keeping its tables' room) for a new function.
    pub fn reset(&mut self, entry: Block) {
        self.nodes.clear();
        self.nodes.push(NodeData {
            kind: Kind::Zero,
            block: entry,
            global: true,
            lazy: false,
            origin: ZERO,
        });
        self.conds.clear();
        self.phi_ops.clear();
        self.lazies.clear();
        self.pending.clear();
        self.edges.clear();
        self.at.clear();
        self.mid.clear();
    }

    /// Marks `n` as a constant.
    #[inline]
    pub fn set_global(&mut self, n: Node) {
        self.nodes[n as usize].global = true;
    }

    /// Room for about `n` nodes (`n` is an upper bound: one per instruction, phi and
    /// parameter; a function's nodes are about two thirds of it, its edges about twice).
    pub fn reserve(&mut self, n: usize, phi_ops: usize) {
        // Empty but for the zero node.
        if self.nodes.capacity() < n {
            let zero = self.nodes[0];
            room(&mut self.nodes, n);
            self.nodes.push(zero);
        }
        room(&mut self.pending, 2 * n);
        room(&mut self.conds, n);
        room(&mut self.phi_ops, phi_ops);
    }

    /// A new node with no edges yet.
    #[inline]
    pub fn plain(&mut self, block: Block) -> Node {
        let n = self.nodes.len() as Node;
        self.nodes.push(NodeData {
            kind: Kind::Plain,
            block,
            global: false,
            lazy: false,
            origin: n,
        });
        n
    }

    /// A π-node at `block`: a copy of `old` (`p == old`; its other edges are added by the
    /// caller), of `old`'s origin.
    #[inline]
    pub fn copy_of(&mut self, block: Block, old: Node) -> Node {
        let p = self.plain(block);
        self.exact(p, old, 0, ALWAYS);
        self.nodes[p as usize].origin = self.nodes[old as usize].origin;
        p
    }

    /// A new vec length: `0 <= len <= MAX_LEN`, nothing else known yet.
    #[inline]
    pub fn length(&mut self, block: Block) -> Node {
        let n = self.plain(block);
        self.upper(n, ZERO, MAX_LEN, ALWAYS);
        self.lower(n, ZERO, 0, ALWAYS);
        n
    }

    #[inline]
    pub fn phi(&mut self, block: Block, preds: usize) -> Node {
        let start = self.phi_ops.len() as u32;
        self.phi_ops.resize(self.phi_ops.len() + preds, NONE);
        let n = self.nodes.len() as Node;
        self.nodes.push(NodeData {
            kind: Kind::Phi {
                block,
                start,
                len: preds as u32,
            },
            block,
            global: false,
            lazy: false,
            origin: n,
        });
        n
    }

    #[inline]
    pub fn set_phi_op(&mut self, phi: Node, k: usize, value: Node) {
        if let Kind::Phi { start, .. } = self.nodes[phi as usize].kind {
            self.phi_ops[start as usize + k] = value;
        }
    }

    /// The operands of a phi (`NONE` for unreachable predecessors).
    #[inline]
    pub fn ops(&self, start: u32, len: u32) -> &[Node] {
        &self.phi_ops[start as usize..(start + len) as usize]
    }

    /// Marks `node` (just made) as `x op y`, with edges from constant bounds made on demand.
    #[inline]
    pub fn lazy(&mut self, node: Node, op: poolopt_ir::BinaryOp, x: (Node, i128), y: (Node, i128)) {
        self.lazies.push(Lazy { node, op, x, y });
        self.nodes[node as usize].lazy = true;
    }

    /// The lazy definition of `node`, if any.
    #[inline]
    pub fn lazy_of(&self, node: Node) -> Option<Lazy> {
        if self.lazies.is_empty() {
            return None;
        }
        self.lazies
            .binary_search_by_key(&node, |l| l.node)
            .ok()
            .map(|i| self.lazies[i])
    }

    #[inline]
    pub fn cond(&mut self, a: Node, b: Node, c: i128) -> u32 {
        self.conds.push(Cond { a, b, c });
        (self.conds.len() - 1) as u32
    }

    /// `x <= to + c` for the new node `x` (`to` dominates it).
    #[inline]
    pub fn upper(&mut self, x: Node, to: Node, c: i128, cond: Conds) {
        debug_assert!(to < x);
        let cond = pack(cond);
        self.pending.push((x, true, Edge { to, c, cond }));
    }

    /// `x >= to + c` for the new node `x` (`to` dominates it).
    #[inline]
    pub fn lower(&mut self, x: Node, to: Node, c: i128, cond: Conds) {
        debug_assert!(to < x);
        let cond = pack(cond);
        self.pending.push((x, false, Edge { to, c, cond }));
    }

    /// `x == to + c`.
    #[inline]
    pub fn exact(&mut self, x: Node, to: Node, c: i128, cond: Conds) {
        self.upper(x, to, c, cond);
        self.lower(x, to, c, cond);
    }

    /// Groups the edges by node (a counting sort, stable).
    pub fn finish(&mut self) {
        let n = self.nodes.len();
        let mut count = std::mem::take(&mut self.count);
        room(&mut count, 2 * n + 1);
        count.resize(2 * n + 1, 0);
        for &(x, up, _) in &self.pending {
            count[2 * x as usize + usize::from(!up) + 1] += 1;
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        room(&mut self.at, n + 1);
        self.at.extend((0..=n).map(|i| count[2 * i.min(n)]));
        self.at[n] = count[2 * n];
        room(&mut self.mid, n);
        self.mid.extend((0..n).map(|i| count[2 * i + 1]));
        let mut fill = count;
        room(&mut self.edges, self.pending.len());
        self.edges.resize(
            self.pending.len(),
            Edge {
                to: ZERO,
                c: 0,
                cond: [NO_COND; 2],
            },
        );
        for &(x, up, e) in &self.pending {
            let slot = &mut fill[2 * x as usize + usize::from(!up)];
            self.edges[*slot as usize] = e;
            *slot += 1;
        }
        self.pending.clear();
        self.count = fill;
    }

    /// After `finish`: `x`'s upper edges.
    #[inline]
    pub fn uppers(&self, x: Node) -> &[Edge] {
        &self.edges[self.at[x as usize] as usize..self.mid[x as usize] as usize]
    }

    /// After `finish`: `x`'s lower edges.
    #[inline]
    pub fn lowers(&self, x: Node) -> &[Edge] {
        &self.edges[self.mid[x as usize] as usize..self.at[x as usize + 1] as usize]
    }
}
