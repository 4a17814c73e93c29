//! The fact analysis: which facts about indices and vec lengths hold at each program point.
//!
//! A forward *must* dataflow over the CFG. Each program point carries a [`FactSet`]; a fact is
//! in it only when it holds on **every** path from the entry to that point. The analysis is
//! optimistic (blocks not yet visited are "top", every fact), intersects at merges, takes
//! edge-specific facts from conditional branches, and iterates over the reverse post-order to a
//! fixpoint. Unreachable blocks get no state at all.
//!
//! Facts (all indices are `i64`; compares of other widths produce no index or length facts):
//!
//! - `LenIs(n, v)`: local `n` holds `len(v)` (from `n = len v`).
//! - `CmpIs(c, op, a, b)`: bool `c` holds `a op b` for the current values of `a` and `b`, so a
//!   `brif c` can be interpreted.
//! - `NonNeg(i)`: `i >= 0`.
//! - `LtLen(i, v)`: `i < len(v)` (signed).
//! - `LenGt(v, k)`: `len(v) > k` for a constant `k >= 0`.
//!
//! Kill rules (design.md, "Aliasing"): assigning a local kills every fact that mentions it
//! (a copy then re-derives the source's facts for the destination); `push w` kills `LenIs` of
//! every vec that may alias `w` (same vec type) but keeps `LtLen`/`LenGt` (lengths only grow);
//! `pop w` kills `LenIs`/`LtLen` of every may-alias vec and weakens `LenGt(v, k)` to
//! `LenGt(v, k - 1)`; `drop w` kills every length fact of every may-alias vec; a `call` kills
//! the length facts of every vec whose type the callee may change ([`CallEffects`]; every vec
//! without a summary) — scalar facts survive: callees cannot see locals.
//!
//! Soundness rests on three points: (1) every generated fact follows from the semantics of the
//! instruction or branch edge that generates it, evaluated on the pre-state, and mentions the
//! assigned local only in its new meaning; (2) every instruction that may change a value a fact
//! depends on kills that fact; (3) merges intersect, so a fact at a merge held on all incoming
//! paths. Loops terminate because sets only shrink, and a decreasing `LenGt` bound at a merge
//! is dropped rather than counted down.

use super::cfg::Cfg;
use super::effects::CallEffects;
use super::liveness::{LiveSet, Liveness};
use poolopt_ir::{
    BinaryOp, Block, CmpOp, EntityRef, Function, Inst, InstKind, Local, Operand, SecondaryMap,
    Terminator, Type, UnaryOp,
};

/// One fact, for queries and messages.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Fact {
    LenIs {
        n: Local,
        v: Local,
    },
    CmpIs {
        c: Local,
        op: CmpOp,
        lhs: Operand,
        rhs: Operand,
    },
    NonNeg(Local),
    LtLen {
        i: Local,
        v: Local,
    },
    LenGt {
        v: Local,
        k: i64,
    },
    /// `i < i64::MAX`, so `i + 1` cannot overflow. Implied by `i < len(v)` for any v, but
    /// unlike that fact it survives changes of vec lengths and calls: only a reassignment of
    /// `i` kills it.
    BelowMax(Local),
}

impl Fact {
    /// Renders the fact with the function's local names (`len(free) > 0`, `i < len(v)`).
    pub fn describe(&self, func: &Function) -> String {
        let name = |l: Local| func.local_name(l).to_string();
        let op = |o: Operand| match o {
            Operand::Local(l) => name(l),
            Operand::Const(c) => c.to_string(),
        };
        match *self {
            Fact::LenIs { n, v } => format!("{} == len({})", name(n), name(v)),
            Fact::CmpIs { c, op: o, lhs, rhs } => {
                format!("{} == ({} {} {})", name(c), op(lhs), o.name(), op(rhs))
            }
            Fact::NonNeg(i) => format!("{} >= 0", name(i)),
            Fact::LtLen { i, v } => format!("{} < len({})", name(i), name(v)),
            Fact::LenGt { v, k } => format!("len({}) > {}", name(v), k),
            Fact::BelowMax(i) => format!("{} < i64::MAX", name(i)),
        }
    }
}

/// The facts holding at one program point.
///
/// Stored as one flat vector sorted by a per-fact key (`key`): `(kind, local, local)`, with
/// at most one fact per key (a `CmpIs` per bool, a `LenGt` per vec — the strongest bound).
/// Lookups are binary searches, a meet is one merge of two sorted vectors, a clone is one
/// allocation; sets stay small because facts about dead locals are dropped, so the linear
/// scans of kills are cheap. An optional change log records what each update added and
/// removed, so a client can replay a block without cloning the set at every instruction
/// ([`FactCursor`]).
#[derive(Debug, Default)]
pub struct FactSet {
    facts: Vec<Fact>,
    /// When `Some`, every fact added (`true`) or removed (`false`) is appended.
    log: Option<Vec<(Fact, bool)>>,
}

impl Clone for FactSet {
    fn clone(&self) -> FactSet {
        FactSet {
            facts: self.facts.clone(),
            log: None,
        }
    }
}

impl PartialEq for FactSet {
    fn eq(&self, other: &FactSet) -> bool {
        self.facts == other.facts
    }
}

impl Eq for FactSet {}

/// The sort key of a fact: kind, then the locals that identify it. Facts with equal keys are
/// alternatives (another compare for the same bool, another bound for the same vec).
fn key(f: &Fact) -> (u8, u32, u32) {
    let ix = |l: Local| l.index() as u32;
    match *f {
        Fact::LenIs { n, v } => (0, ix(n), ix(v)),
        Fact::CmpIs { c, .. } => (1, ix(c), 0),
        Fact::NonNeg(i) => (2, ix(i), 0),
        Fact::LtLen { i, v } => (3, ix(i), ix(v)),
        Fact::LenGt { v, .. } => (4, ix(v), 0),
        Fact::BelowMax(i) => (5, ix(i), 0),
    }
}

/// Whether fact `f` mentions local `l` at all (operands of a compare included).
fn mentions(f: &Fact, l: Local) -> bool {
    let lo = Operand::Local(l);
    match *f {
        Fact::LenIs { n, v } | Fact::LtLen { i: n, v } => n == l || v == l,
        Fact::CmpIs { c, lhs, rhs, .. } => c == l || lhs == lo || rhs == lo,
        Fact::NonNeg(i) | Fact::BelowMax(i) => i == l,
        Fact::LenGt { v, .. } => v == l,
    }
}

/// Whether fact `f` is *about* `l` (a `CmpIs` that only has `l` as an operand is not; a
/// `LenGt` never is: see [`fact_is_live`]).
fn about(f: &Fact, l: Local) -> bool {
    match *f {
        Fact::LenIs { n, v } | Fact::LtLen { i: n, v } => n == l || v == l,
        Fact::CmpIs { c, .. } => c == l,
        Fact::NonNeg(i) | Fact::BelowMax(i) => i == l,
        Fact::LenGt { .. } => false,
    }
}

impl FactSet {
    /// The empty set (nothing known), as at the function entry.
    pub fn new() -> FactSet {
        FactSet::default()
    }

    fn find(&self, k: (u8, u32, u32)) -> Result<usize, usize> {
        self.facts.binary_search_by(|f| key(f).cmp(&k))
    }

    fn get(&self, k: (u8, u32, u32)) -> Option<&Fact> {
        self.find(k).ok().map(|i| &self.facts[i])
    }

    /// The facts with keys in `lo..=hi`.
    fn range(&self, lo: (u8, u32, u32), hi: (u8, u32, u32)) -> &[Fact] {
        let start = self.facts.partition_point(|f| key(f) < lo);
        let end = self.facts.partition_point(|f| key(f) <= hi);
        &self.facts[start..end.max(start)]
    }

    /// Whether `fact` holds (a weaker `LenGt` than the one recorded holds too; `len(v) > k`
    /// for `k < 0` always holds).
    pub fn holds(&self, fact: &Fact) -> bool {
        match *fact {
            Fact::LenGt { v, k } => {
                k < 0
                    || self.len_gt_bound(v).is_some_and(|m| m >= k)
                    // 0 <= i < len(v) gives len(v) > 0.
                    || (k == 0
                        && self
                            .range((3, 0, 0), (3, u32::MAX, u32::MAX))
                            .iter()
                            .any(|f| matches!(*f, Fact::LtLen { i, v: w } if w == v && self.non_neg(i))))
            }
            ref f => self.contains_exact(f),
        }
    }

    /// Whether exactly this fact is recorded (unlike [`FactSet::holds`], a `LenGt` must have
    /// exactly this bound).
    fn contains_exact(&self, fact: &Fact) -> bool {
        self.get(key(fact)) == Some(fact)
    }

    pub fn non_neg(&self, i: Local) -> bool {
        self.get((2, i.index() as u32, 0)).is_some()
    }

    pub fn lt_len(&self, i: Local, v: Local) -> bool {
        self.get((3, i.index() as u32, v.index() as u32)).is_some()
    }

    /// Whether `len(v) > k` is known.
    pub fn len_gt(&self, v: Local, k: i64) -> bool {
        self.holds(&Fact::LenGt { v, k })
    }

    /// The largest `k` with `len(v) > k` known.
    pub fn len_gt_bound(&self, v: Local) -> Option<i64> {
        match self.get((4, v.index() as u32, 0)) {
            Some(&Fact::LenGt { k, .. }) => Some(k),
            _ => None,
        }
    }

    /// A vec `v` with `n == len(v)`, if any.
    pub fn len_of(&self, n: Local) -> Option<Local> {
        let n32 = n.index() as u32;
        self.range((0, n32, 0), (0, n32, u32::MAX))
            .first()
            .and_then(|f| match *f {
                Fact::LenIs { v, .. } => Some(v),
                _ => None,
            })
    }

    /// The compare `c` is known to hold, if any.
    pub fn cmp_of(&self, c: Local) -> Option<(CmpOp, Operand, Operand)> {
        match self.get((1, c.index() as u32, 0)) {
            Some(&Fact::CmpIs { op, lhs, rhs, .. }) => Some((op, lhs, rhs)),
            _ => None,
        }
    }

    /// The vecs `w` with `i < len(w)` known.
    pub fn lt_len_vecs(&self, i: Local) -> impl Iterator<Item = Local> + '_ {
        let i32_ = i.index() as u32;
        self.range((3, i32_, 0), (3, i32_, u32::MAX))
            .iter()
            .filter_map(|f| match *f {
                Fact::LtLen { v, .. } => Some(v),
                _ => None,
            })
    }

    /// Every `(v, k)` with `len(v) > k` recorded.
    pub fn len_gt_vecs(&self) -> impl Iterator<Item = (Local, i64)> + '_ {
        self.range((4, 0, 0), (4, u32::MAX, u32::MAX))
            .iter()
            .filter_map(|f| match *f {
                Fact::LenGt { v, k } => Some((v, k)),
                _ => None,
            })
    }

    /// Every fact of the set (each `LenGt` with its strongest bound).
    pub fn facts(&self) -> Vec<Fact> {
        self.facts.clone()
    }

    /// The facts that mention `l` (each once).
    pub fn facts_mentioning(&self, l: Local) -> Vec<Fact> {
        self.facts
            .iter()
            .filter(|f| mentions(f, l))
            .copied()
            .collect()
    }

    fn note(&mut self, fact: Fact, added: bool) {
        if let Some(log) = self.log.as_mut() {
            log.push((fact, added));
        }
    }

    /// Adds a fact (a `LenGt` keeps the stronger bound; `LenGt` with `k < 0` is not recorded;
    /// a `CmpIs` replaces the bool's old compare).
    pub fn insert(&mut self, fact: Fact) {
        match fact {
            Fact::LenGt { k, .. } if k < 0 => return,
            // i < len(v) <= i64::MAX.
            Fact::LtLen { i, .. } => self.insert(Fact::BelowMax(i)),
            _ => {}
        }
        match self.find(key(&fact)) {
            Ok(at) => {
                let old = self.facts[at];
                let replace = match (old, fact) {
                    (Fact::LenGt { k: old_k, .. }, Fact::LenGt { k, .. }) => k > old_k,
                    _ => old != fact,
                };
                if replace {
                    self.facts[at] = fact;
                    self.note(old, false);
                    self.note(fact, true);
                }
            }
            Err(at) => {
                self.facts.insert(at, fact);
                self.note(fact, true);
            }
        }
    }

    /// Removes the facts `kill` selects, logging each.
    fn remove_where(&mut self, kill: impl Fn(&Fact) -> bool) {
        if self.log.is_some() {
            let mut removed = Vec::new();
            self.facts.retain(|f| {
                let k = kill(f);
                if k {
                    removed.push(*f);
                }
                !k
            });
            for f in removed {
                self.note(f, false);
            }
        } else {
            self.facts.retain(|f| !kill(f));
        }
    }

    /// Drops the facts *about* `l` (it is dead: nothing will read it before it is written
    /// again). A `CmpIs` that only has `l` as an operand stays; `LenGt` facts stay (see
    /// [`fact_is_live`]).
    pub fn forget_local(&mut self, l: Local) {
        self.remove_where(|f| about(f, l));
    }

    /// Removes every fact that mentions `l`.
    pub fn kill_local(&mut self, l: Local) {
        self.remove_where(|f| mentions(f, l));
    }

    /// `self ∩ other` (a `LenGt` keeps the weaker bound). Returns whether `self` changed.
    pub fn meet_with(&mut self, other: &FactSet) -> bool {
        self.meet_sorted(&other.facts, &[])
    }

    /// `self ∩ (other ∪ extra)`: the meet with a set given as `other` plus a few more facts
    /// (an edge's facts), without building that set. Returns whether `self` changed.
    pub fn meet_with_extra(&mut self, other: &FactSet, extra: &[Fact]) -> bool {
        if extra.is_empty() {
            return self.meet_with(other);
        }
        let mut plus = FactSet::default();
        for f in extra {
            plus.insert(*f);
        }
        self.meet_sorted(&other.facts, &plus.facts)
    }

    /// Keeps each fact of `self` that `a` or `b` (sorted, unique keys) has; a `LenGt` keeps
    /// the weaker of its bound and the larger bound of `a` and `b`.
    fn meet_sorted(&mut self, a: &[Fact], b: &[Fact]) -> bool {
        let (mut ia, mut ib) = (0, 0);
        let mut changed = false;
        let mut out = 0;
        for idx in 0..self.facts.len() {
            let f = self.facts[idx];
            let k = key(&f);
            while ia < a.len() && key(&a[ia]) < k {
                ia += 1;
            }
            while ib < b.len() && key(&b[ib]) < k {
                ib += 1;
            }
            let in_a = a.get(ia).filter(|g| key(g) == k);
            let in_b = b.get(ib).filter(|g| key(g) == k);
            let kept = match f {
                Fact::LenGt { v, k: mine } => {
                    let bound = |g: Option<&Fact>| match g {
                        Some(&Fact::LenGt { k, .. }) => Some(k),
                        _ => None,
                    };
                    bound(in_a).max(bound(in_b)).map(|theirs| {
                        if theirs < mine {
                            changed = true;
                        }
                        Fact::LenGt {
                            v,
                            k: mine.min(theirs),
                        }
                    })
                }
                _ => (in_a == Some(&f) || in_b == Some(&f)).then_some(f),
            };
            match kept {
                Some(g) => {
                    self.facts[out] = g;
                    out += 1;
                }
                None => changed = true,
            }
        }
        self.facts.truncate(out);
        changed
    }

    /// Keeps only the facts `keep` accepts (the manager of block-entry states uses it to drop
    /// facts about dead locals). Dropping facts is always sound.
    pub fn retain_locals(&mut self, keep: impl Fn(&Fact) -> bool) {
        self.remove_where(|f| !keep(f));
    }

    /// Widening at a loop header: a `LenGt` bound lower than the one `old` recorded for the
    /// same vec is dropped rather than counted down.
    fn widen(&mut self, old: &FactSet) {
        self.facts.retain(|f| match *f {
            Fact::LenGt { v, k } => old.len_gt_bound(v).is_none_or(|ko| ko <= k),
            _ => true,
        });
    }

    /// Kills length facts of every vec `v` with `affected(v)`: only `LenIs` (the length grew)
    /// or, with `all`, every length fact. With `pop`, `LenGt` is weakened by one instead.
    fn kill_lengths(&mut self, affected: impl Fn(Local) -> bool, mode: LengthChange) {
        let mut weakened: Vec<Fact> = Vec::new();
        if mode == LengthChange::Shrank {
            // A pop lowers the length by one: `len(v) > k` becomes `len(v) > k - 1`.
            weakened.extend(self.len_gt_vecs().filter_map(|(v, k)| {
                (affected(v) && k >= 1).then_some(Fact::LenGt { v, k: k - 1 })
            }));
        }
        self.remove_where(|f| match *f {
            Fact::LenIs { v, .. } => affected(v),
            Fact::LtLen { v, .. } | Fact::LenGt { v, .. } => {
                mode != LengthChange::Grew && affected(v)
            }
            _ => false,
        });
        for f in weakened {
            self.insert(f);
        }
    }
}

/// Whether `fact` can still matter where `live` are the live locals: the locals it is about
/// must be live (a `CmpIs` only needs its bool: its operands are not read again). `LenGt`
/// facts are kept regardless: there is at most one per vec local, and remarks use them to say
/// which vec a guard was about.
fn fact_is_live(fact: &Fact, live: LiveSet<'_>) -> bool {
    match *fact {
        Fact::LenIs { n, v } | Fact::LtLen { i: n, v } => live.contains(n) && live.contains(v),
        Fact::CmpIs { c, .. } => live.contains(c),
        Fact::NonNeg(i) | Fact::BelowMax(i) => live.contains(i),
        Fact::LenGt { .. } => true,
    }
}

/// How an instruction changed the length of the vecs it may touch.
#[derive(Copy, Clone, PartialEq, Eq)]
enum LengthChange {
    Grew,
    Shrank,
    Unknown,
}

/// Replays a block instruction by instruction without cloning the fact set each time: at each
/// step the client reads the facts before the instruction, then [`FactCursor::step`] applies it
/// and returns what it killed and established.
pub struct FactCursor<'f> {
    func: &'f Function,
    calls: &'f CallKills,
    insts: &'f [Inst],
    pos: usize,
    state: FactSet,
    deaths: &'f [(usize, Local)],
    next_death: usize,
}

impl<'f> FactCursor<'f> {
    /// The next instruction (with its index) or `None` at the end of the block.
    pub fn peek(&self) -> Option<(usize, Inst)> {
        self.insts.get(self.pos).map(|&i| (self.pos, i))
    }

    /// The facts before the next instruction (after the last one at the end).
    pub fn facts(&self) -> &FactSet {
        &self.state
    }

    /// Applies the next instruction; returns the facts it killed and the facts it established
    /// (net: a fact removed and re-established by the same instruction is in neither list).
    pub fn step(&mut self) -> (Vec<Fact>, Vec<Fact>) {
        let Some(&inst) = self.insts.get(self.pos) else {
            return (Vec::new(), Vec::new());
        };
        self.pos += 1;
        self.state.log = Some(Vec::new());
        step_block(
            self.func,
            self.calls,
            inst,
            self.pos - 1,
            self.deaths,
            &mut self.next_death,
            &mut self.state,
        );
        let log = self.state.log.take().unwrap_or_default();
        let mut killed: Vec<Fact> = Vec::new();
        let mut gained: Vec<Fact> = Vec::new();
        for (f, added) in log {
            let (this, other) = if added {
                (&mut gained, &mut killed)
            } else {
                (&mut killed, &mut gained)
            };
            if let Some(p) = other.iter().position(|g| *g == f) {
                other.swap_remove(p);
            } else if !this.contains(&f) {
                this.push(f);
            }
        }
        (killed, gained)
    }
}

/// Per-block results of the fact analysis.
#[derive(Clone, Debug, Default)]
pub struct FactAnalysis {
    /// Facts on entry to each reachable block (`None`: unreachable).
    block_in: SecondaryMap<Block, Option<FactSet>>,
    /// Facts after the last instruction of each reachable block (before its terminator).
    block_out: SecondaryMap<Block, Option<FactSet>>,
    /// For each block, `(index, local)`: after instruction `index`, `local` is dead, so the
    /// facts about it can be forgotten (ascending by index).
    deaths: SecondaryMap<Block, Vec<(usize, Local)>>,
    /// What the calls of this function may do to vec lengths.
    calls: CallKills,
}

/// For each function this one calls, the vec types whose length the call may change (`None`:
/// unknown, every vec). Without a summary every call kills every length fact.
#[derive(Clone, Debug, Default)]
pub struct CallKills {
    by_callee: Vec<(poolopt_ir::FuncId, Option<Vec<Type>>)>,
}

impl CallKills {
    /// The kills of `func`'s calls under `effects`.
    pub fn of(func: &Function, effects: Option<&CallEffects>) -> CallKills {
        let mut by_callee = Vec::new();
        let Some(effects) = effects else {
            return CallKills { by_callee };
        };
        let mut vec_types: Vec<Type> = Vec::new();
        for ty in func.locals.values().map(|l| l.ty) {
            if matches!(ty, Type::Vec(_)) && !vec_types.contains(&ty) {
                vec_types.push(ty);
            }
        }
        for data in func.insts.values() {
            if let InstKind::Call { func: callee, .. } = data.kind {
                if by_callee.iter().any(|(c, _)| *c == callee) {
                    continue;
                }
                let changed: Vec<Type> = vec_types
                    .iter()
                    .copied()
                    .filter(|&ty| effects.may_change(callee, ty))
                    .collect();
                by_callee.push((callee, Some(changed)));
            }
        }
        CallKills { by_callee }
    }

    /// Whether a call of `callee` may change the length of a vec of type `ty`.
    fn may_change(&self, callee: poolopt_ir::FuncId, ty: Type) -> bool {
        match self.by_callee.iter().find(|(c, _)| *c == callee) {
            Some((_, Some(types))) => types.contains(&ty),
            _ => true,
        }
    }
}

/// Where the locals of `block` die: after which instruction each local is no longer live. A
/// `brif c` at the end keeps the operands of `c`'s compare (defined in this block), and the vec
/// whose length an operand holds, alive to the end: the branch's edge facts are derived from
/// them.
fn block_deaths(func: &Function, block: Block, live: &Liveness) -> Vec<(usize, Local)> {
    let data = &func.blocks[block];
    let mut alive = live.live_out(block).to_set();
    let mut term_uses: Vec<Local> = Vec::new();
    if let Some(Operand::Local(c)) = data.terminator.as_ref().and_then(|t| t.used_operand()) {
        term_uses.push(c);
        let compare = data
            .insts
            .iter()
            .rev()
            .find(|&&i| func.inst(i).def() == Some(c));
        if let Some(&i) = compare {
            if let InstKind::Compare { lhs, rhs, .. } = *func.inst(i) {
                for x in [lhs, rhs].into_iter().filter_map(Operand::as_local) {
                    term_uses.push(x);
                    // `x == len(v)` is what turns the compare into a length fact: keep `v` too.
                    let def = data
                        .insts
                        .iter()
                        .rev()
                        .find(|&&j| func.inst(j).def() == Some(x));
                    if let Some(&j) = def {
                        if let InstKind::VecLen { vec, .. } = *func.inst(j) {
                            term_uses.push(vec);
                        }
                    }
                }
            }
        }
    }
    for l in term_uses {
        alive.insert(l);
    }
    let mut deaths = Vec::new();
    for (index, &inst) in data.insts.iter().enumerate().rev() {
        let kind = func.inst(inst);
        let mut mentioned: Vec<Local> = Vec::new();
        kind.for_each_use(|op| mentioned.extend(op.as_local()));
        let def = kind.def();
        mentioned.extend(def);
        mentioned.sort_unstable();
        mentioned.dedup();
        for &l in &mentioned {
            if !alive.contains(l) {
                deaths.push((index, l));
            }
        }
        if let Some(d) = def {
            if !matches!(kind, InstKind::SetField { .. }) {
                alive.remove(d);
            }
        }
        kind.for_each_use(|op| {
            if let Operand::Local(l) = op {
                alive.insert(l);
            }
        });
    }
    deaths.reverse();
    deaths
}

/// Applies instruction `index` of a block and forgets the locals that die after it.
fn step_block(
    func: &Function,
    calls: &CallKills,
    inst: Inst,
    index: usize,
    deaths: &[(usize, Local)],
    next_death: &mut usize,
    s: &mut FactSet,
) {
    transfer_with(func, calls, inst, s);
    while let Some(&(at, l)) = deaths.get(*next_death) {
        if at > index {
            break;
        }
        if at == index {
            s.forget_local(l);
        }
        *next_death += 1;
    }
}

/// Safety net on the number of sweeps; past it the analysis gives up and reports nothing known
/// anywhere (always sound).
const MAX_SWEEPS: usize = 1000;

impl FactAnalysis {
    /// Runs the analysis over `func`.
    pub fn compute(func: &Function, cfg: &Cfg) -> FactAnalysis {
        let live = Liveness::compute(func, cfg);
        FactAnalysis::compute_with(func, cfg, &live)
    }

    /// Runs the analysis over `func`, reusing a liveness result of the same function. Every
    /// call kills every length fact.
    pub fn compute_with(func: &Function, cfg: &Cfg, live: &Liveness) -> FactAnalysis {
        FactAnalysis::compute_with_effects(func, cfg, live, None)
    }

    /// Like [`FactAnalysis::compute_with`], with the module's call effects: a call kills only
    /// the length facts of vecs whose type its callee may change.
    pub fn compute_with_effects(
        func: &Function,
        cfg: &Cfg,
        live: &Liveness,
        effects: Option<&CallEffects>,
    ) -> FactAnalysis {
        let mut fa = FactAnalysis {
            calls: CallKills::of(func, effects),
            ..FactAnalysis::default()
        };
        let Some(entry) = func.entry() else {
            return fa;
        };
        for &b in cfg.rpo() {
            fa.deaths[b] = block_deaths(func, b, live);
        }
        let mut sweeps = 0;
        let mut changed = true;
        while changed {
            changed = false;
            sweeps += 1;
            if sweeps > MAX_SWEEPS {
                for &b in cfg.rpo() {
                    fa.block_in[b] = Some(FactSet::new());
                    fa.block_out[b] = Some(FactSet::new());
                }
                return fa;
            }
            for &b in cfg.rpo() {
                let mut state: Option<FactSet> = if b == entry {
                    Some(FactSet::new())
                } else {
                    None
                };
                for &p in cfg.preds(b) {
                    let Some(out) = fa.block_out[p].as_ref() else {
                        continue; // unreachable or not yet visited: top
                    };
                    // The edge's facts are `out` plus what the branch condition says; only the
                    // first edge needs a copy, later ones are met without building their set.
                    let extra = edge_extra_facts(func, p, b, out);
                    match state.as_mut() {
                        None => {
                            let mut edge = out.clone();
                            for f in extra {
                                edge.insert(f);
                            }
                            state = Some(edge);
                        }
                        Some(s) => {
                            s.meet_with_extra(out, &extra);
                        }
                    }
                }
                let Some(mut new_in) = state else { continue };
                // Facts about locals that are dead here can never be used again (a dead local is
                // written before it is read): dropping them keeps every set as small as the
                // live state, so long functions cost linear time.
                let live_in = live.live_in(b);
                new_in.retain_locals(|f| fact_is_live(f, live_in));
                if let Some(old) = fa.block_in[b].as_ref() {
                    if *old == new_in {
                        continue;
                    }
                    // Widening: a bound that went down is dropped, not counted down.
                    new_in.widen(old);
                    if *old == new_in {
                        continue;
                    }
                }
                let mut s = new_in.clone();
                let mut next_death = 0;
                for (index, &inst) in func.blocks[b].insts.iter().enumerate() {
                    step_block(
                        func,
                        &fa.calls,
                        inst,
                        index,
                        &fa.deaths[b],
                        &mut next_death,
                        &mut s,
                    );
                }
                fa.block_in[b] = Some(new_in);
                fa.block_out[b] = Some(s);
                changed = true;
            }
        }
        fa
    }

    /// Facts on entry to `block` (`None` when unreachable).
    pub fn block_in(&self, block: Block) -> Option<&FactSet> {
        self.block_in.get(block).and_then(|s| s.as_ref())
    }

    /// Facts after the last instruction of `block`, before its terminator.
    pub fn block_out(&self, block: Block) -> Option<&FactSet> {
        self.block_out.get(block).and_then(|s| s.as_ref())
    }

    /// Facts on the edge `from → to` (the terminator's branch facts included).
    pub fn edge(&self, func: &Function, from: Block, to: Block) -> Option<FactSet> {
        self.block_out(from)
            .map(|out| edge_facts(func, from, to, out))
    }

    /// A cursor over `block` starting from its entry facts (`None` when unreachable).
    pub fn cursor<'f>(&'f self, func: &'f Function, block: Block) -> Option<FactCursor<'f>> {
        let start = self.block_in(block)?.clone();
        Some(FactCursor {
            func,
            calls: &self.calls,
            insts: &func.blocks[block].insts,
            pos: 0,
            state: start,
            deaths: &self.deaths[block],
            next_death: 0,
        })
    }

    /// Replays `block`: calls `f(index, inst, before)` for each instruction with the facts
    /// just before it. Does nothing for an unreachable block. (Use [`FactAnalysis::cursor`] to
    /// also see what each instruction killed and established.)
    pub fn replay(&self, func: &Function, block: Block, mut f: impl FnMut(usize, Inst, &FactSet)) {
        let Some(mut cursor) = self.cursor(func, block) else {
            return;
        };
        while let Some((idx, inst)) = cursor.peek() {
            f(idx, inst, cursor.facts());
            cursor.step();
        }
    }
}

fn is_i64(func: &Function, l: Local) -> bool {
    func.local_ty(l) == Type::I64
}

fn is_vec(func: &Function, l: Local) -> bool {
    matches!(func.local_ty(l), Type::Vec(_))
}

/// Whether two vec locals may hold the same vec: same vec type.
pub fn may_alias(func: &Function, v: Local, w: Local) -> bool {
    v == w || (is_vec(func, v) && func.local_ty(v) == func.local_ty(w))
}

/// Applies one instruction to `s` (every call kills every length fact).
pub fn transfer(func: &Function, inst: Inst, s: &mut FactSet) {
    transfer_with(func, &CallKills::default(), inst, s);
}

/// Applies one instruction to `s`; a call kills the length facts its callee may change.
fn transfer_with(func: &Function, calls: &CallKills, inst: Inst, s: &mut FactSet) {
    let kind = func.inst(inst);
    // 1. What a successful checked access proves about its operands (they are read before the
    //    instruction's own destination is written).
    match *kind {
        InstKind::VecGet {
            vec, index, check, ..
        }
        | InstKind::VecSet {
            vec, index, check, ..
        } if check.is_checked() => match index {
            Operand::Local(i) if is_i64(func, i) => {
                s.insert(Fact::NonNeg(i));
                s.insert(Fact::LtLen { i, v: vec });
            }
            Operand::Const(k) if k >= 0 => s.insert(Fact::LenGt { v: vec, k }),
            _ => {}
        },
        _ => {}
    }
    // 2. Facts about the destination, derived from the pre-state.
    let gen = def_facts(func, kind, s);
    // What a push of `vec` proves from the pre-state: a length known to be `> k` is now
    // `> k + 1`, and a local holding the old length is now a valid index.
    let pushed = match *kind {
        InstKind::VecPush { vec, .. } => {
            let bound = s
                .len_gt_bound(vec)
                .and_then(|k| k.checked_add(1))
                .unwrap_or(0);
            let old_len: Vec<Local> = s
                .facts
                .iter()
                .filter_map(|f| match *f {
                    Fact::LenIs { n, v } if v == vec => Some(n),
                    _ => None,
                })
                .collect();
            Some((vec, bound, old_len))
        }
        _ => None,
    };
    // 3. Effects on vec lengths.
    match *kind {
        InstKind::VecPush { vec, .. } => {
            s.kill_lengths(|v| may_alias(func, v, vec), LengthChange::Grew);
        }
        InstKind::VecPop { vec, .. } => {
            s.kill_lengths(|v| may_alias(func, v, vec), LengthChange::Shrank);
        }
        InstKind::VecDrop { vec } => {
            s.kill_lengths(|v| may_alias(func, v, vec), LengthChange::Unknown)
        }
        InstKind::Call { func: callee, .. } => s.kill_lengths(
            |v| calls.may_change(callee, func.local_ty(v)),
            LengthChange::Unknown,
        ),
        _ => {}
    }
    // 4. The destination's old facts die; its new ones are added.
    if let Some(d) = kind.def() {
        s.kill_local(d);
    }
    for f in gen {
        s.insert(f);
    }
    if let Some((vec, bound, old_len)) = pushed {
        s.insert(Fact::LenGt { v: vec, k: bound });
        for n in old_len {
            // n == old len(vec) >= 0 and len(vec) is now n + 1.
            s.insert(Fact::NonNeg(n));
            s.insert(Fact::LtLen { i: n, v: vec });
        }
    }
}

/// Facts about the destination of `kind` after it runs, from the pre-state `s`. None of them
/// mentions the destination's old value.
fn def_facts(func: &Function, kind: &InstKind, s: &FactSet) -> Vec<Fact> {
    let mut gen = Vec::new();
    let mentions = |f: &Fact, l: Local| -> bool {
        let lo = Operand::Local(l);
        match *f {
            Fact::LenIs { n, v } => n == l || v == l,
            Fact::CmpIs { c, lhs, rhs, .. } => c == l || lhs == lo || rhs == lo,
            Fact::NonNeg(i) => i == l,
            Fact::LtLen { i, v } => i == l || v == l,
            Fact::LenGt { v, .. } => v == l,
            Fact::BelowMax(i) => i == l,
        }
    };
    match *kind {
        InstKind::Copy { dst, src } => match src {
            Operand::Const(k) => {
                if k >= 0 && is_i64(func, dst) {
                    gen.push(Fact::NonNeg(dst));
                }
            }
            Operand::Local(j) if j != dst => {
                let sub = |l: Local| if l == j { dst } else { l };
                let sub_op = |o: Operand| match o {
                    Operand::Local(l) => Operand::Local(sub(l)),
                    c => c,
                };
                for f in s.facts_mentioning(j) {
                    if !mentions(&f, j) || mentions(&f, dst) {
                        continue;
                    }
                    gen.push(match f {
                        Fact::LenIs { n, v } => Fact::LenIs {
                            n: sub(n),
                            v: sub(v),
                        },
                        Fact::CmpIs { c, op, lhs, rhs } => Fact::CmpIs {
                            c: sub(c),
                            op,
                            lhs: sub_op(lhs),
                            rhs: sub_op(rhs),
                        },
                        Fact::NonNeg(i) => Fact::NonNeg(sub(i)),
                        Fact::LtLen { i, v } => Fact::LtLen {
                            i: sub(i),
                            v: sub(v),
                        },
                        Fact::LenGt { v, k } => Fact::LenGt { v: sub(v), k },
                        Fact::BelowMax(i) => Fact::BelowMax(sub(i)),
                    });
                }
            }
            Operand::Local(_) => {}
        },
        InstKind::VecLen { dst, vec } => {
            gen.push(Fact::LenIs { n: dst, v: vec });
            gen.push(Fact::NonNeg(dst));
        }
        InstKind::Compare { dst, op, lhs, rhs } => {
            let lo = Operand::Local(dst);
            if lhs != lo && rhs != lo {
                gen.push(Fact::CmpIs {
                    c: dst,
                    op,
                    lhs,
                    rhs,
                });
            }
        }
        InstKind::Unary {
            dst,
            op: UnaryOp::Not,
            arg: Operand::Local(c),
        } if func.local_ty(dst) == Type::BOOL => {
            if let Some((op, lhs, rhs)) = s.cmp_of(c) {
                let lo = Operand::Local(dst);
                if lhs != lo && rhs != lo {
                    gen.push(Fact::CmpIs {
                        c: dst,
                        op: op.negate(),
                        lhs,
                        rhs,
                    });
                }
            }
        }
        InstKind::Unary {
            dst,
            op: UnaryOp::Ctz | UnaryOp::Clz | UnaryOp::Popcnt,
            ..
        } if is_i64(func, dst) => {
            // A bit count is in 0..=64: non-negative, and far below i64::MAX.
            gen.push(Fact::NonNeg(dst));
            gen.push(Fact::BelowMax(dst));
        }
        InstKind::Binary { dst, op, lhs, rhs } if is_i64(func, dst) => {
            gen.extend(binary_facts(func, dst, op, lhs, rhs, s));
        }
        _ => {}
    }
    gen
}

fn binary_facts(
    func: &Function,
    dst: Local,
    op: BinaryOp,
    lhs: Operand,
    rhs: Operand,
    s: &FactSet,
) -> Vec<Fact> {
    let mut gen = Vec::new();
    let vecs_lt = |j: Local| -> Vec<Local> { s.lt_len_vecs(j).collect() };
    match (op, lhs, rhs) {
        (BinaryOp::Add, Operand::Local(j), Operand::Const(k))
        | (BinaryOp::Add, Operand::Const(k), Operand::Local(j))
            if is_i64(func, j) && s.non_neg(j) =>
        {
            let lt = vecs_lt(j);
            if k == 0 {
                gen.push(Fact::NonNeg(dst));
                gen.extend(lt.into_iter().map(|v| Fact::LtLen { i: dst, v }));
            } else if k == 1 && s.holds(&Fact::BelowMax(j)) {
                // j < i64::MAX (it was below some vec length), so j + 1 does not overflow.
                gen.push(Fact::NonNeg(dst));
            }
        }
        (BinaryOp::Sub, Operand::Local(j), Operand::Const(k)) if is_i64(func, j) => {
            if k == 0 && s.non_neg(j) {
                gen.push(Fact::NonNeg(dst));
                gen.extend(vecs_lt(j).into_iter().map(|v| Fact::LtLen { i: dst, v }));
            } else if k >= 1 {
                // j >= 0 and k >= 1: j - k is in [-k, j), no overflow.
                if let Some(v) = s.len_of(j) {
                    gen.push(Fact::LtLen { i: dst, v });
                    if s.len_gt(v, k - 1) {
                        gen.push(Fact::NonNeg(dst));
                    }
                }
                if s.non_neg(j) {
                    gen.extend(vecs_lt(j).into_iter().map(|v| Fact::LtLen { i: dst, v }));
                }
            }
        }
        (BinaryOp::And, _, Operand::Const(k)) | (BinaryOp::And, Operand::Const(k), _) if k >= 0 => {
            gen.push(Fact::NonNeg(dst));
        }
        (BinaryOp::LShr, _, Operand::Const(k)) if k.rem_euclid(64) != 0 => {
            gen.push(Fact::NonNeg(dst));
        }
        (BinaryOp::URem, _, Operand::Local(n)) if is_i64(func, n) => {
            // It did not trap, so n != 0; the result is < n unsigned.
            if s.non_neg(n) {
                gen.push(Fact::NonNeg(dst));
            }
            if let Some(v) = s.len_of(n) {
                gen.push(Fact::NonNeg(dst));
                gen.push(Fact::LtLen { i: dst, v });
            }
        }
        (BinaryOp::URem, _, Operand::Const(k)) if k > 0 => {
            gen.push(Fact::NonNeg(dst));
        }
        // Signed division of a non-negative dividend: it did not trap, so the divisor is not
        // 0, and a divisor known >= 0 is then > 0; the quotient is >= 0 (no MIN / -1 case).
        (BinaryOp::SDiv, x, y) if non_neg_operand(func, s, x) && non_neg_operand(func, s, y) => {
            gen.push(Fact::NonNeg(dst));
        }
        // Signed remainder: the result has the dividend's sign and is smaller in magnitude
        // than the divisor, so with `x >= 0` it lies in `[0, n)`.
        (BinaryOp::SRem, x, y) if non_neg_operand(func, s, x) => {
            gen.push(Fact::NonNeg(dst));
            if let Operand::Local(n) = y {
                if is_i64(func, n) {
                    if let Some(v) = s.len_of(n) {
                        gen.push(Fact::LtLen { i: dst, v });
                    }
                }
            }
        }
        _ => {}
    }
    gen
}

/// Whether an operand is known `>= 0`: a non-negative constant or an `i64` local with `NonNeg`.
fn non_neg_operand(func: &Function, s: &FactSet, op: Operand) -> bool {
    match op {
        Operand::Const(c) => c >= 0,
        Operand::Local(l) => is_i64(func, l) && s.non_neg(l),
    }
}

/// The facts on the edge `from → to`, given the facts `out` before `from`'s terminator.
fn edge_facts(func: &Function, from: Block, to: Block, out: &FactSet) -> FactSet {
    let mut s = out.clone();
    for f in edge_extra_facts(func, from, to, out) {
        s.insert(f);
    }
    s
}

/// What the edge `from → to` adds to the facts `out` at the end of `from`: the facts that follow
/// from the branch condition being true (or false) on that edge.
fn edge_extra_facts(func: &Function, from: Block, to: Block, out: &FactSet) -> Vec<Fact> {
    let mut extra = Vec::new();
    if let Some(Terminator::BrIf {
        cond: Operand::Local(c),
        then_block,
        else_block,
    }) = func.terminator(from)
    {
        if then_block != else_block {
            if let Some((op, lhs, rhs)) = out.cmp_of(*c) {
                let op = if to == *then_block { op } else { op.negate() };
                extra.extend(relation_facts(func, op, lhs, rhs, out));
                extra.extend(relation_facts(func, op.swap(), rhs, lhs, out));
            }
        }
    }
    extra
}

/// Facts that follow from `x op rhs` being true, where `x` is the left operand; only the left
/// side is inspected (the caller tries both orders).
fn relation_facts(
    func: &Function,
    op: CmpOp,
    lhs: Operand,
    rhs: Operand,
    s: &FactSet,
) -> Vec<Fact> {
    let mut out = Vec::new();
    let Operand::Local(x) = lhs else {
        return out;
    };
    if !is_i64(func, x) {
        return out;
    }
    let rhs_ok = match rhs {
        Operand::Local(y) => is_i64(func, y),
        Operand::Const(_) => true,
    };
    if !rhs_ok {
        return out;
    }
    // NonNeg(x).
    let nonneg = match (op, rhs) {
        (CmpOp::Sgt, Operand::Const(c)) => c >= -1,
        (CmpOp::Sge | CmpOp::Eq, Operand::Const(c)) => c >= 0,
        (CmpOp::Sgt | CmpOp::Sge | CmpOp::Eq, Operand::Local(y)) => s.non_neg(y),
        (CmpOp::Ult | CmpOp::Ule, Operand::Const(c)) => c >= 0,
        (CmpOp::Ult | CmpOp::Ule, Operand::Local(y)) => s.non_neg(y),
        _ => false,
    };
    if nonneg {
        out.push(Fact::NonNeg(x));
    }
    // LtLen(x, v).
    if let Operand::Local(y) = rhs {
        match op {
            CmpOp::Slt => {
                if let Some(v) = s.len_of(y) {
                    out.push(Fact::LtLen { i: x, v });
                }
                out.extend(s.lt_len_vecs(y).map(|v| Fact::LtLen { i: x, v }));
            }
            CmpOp::Ult => {
                // len(v) >= 0, so x <u len(v) means 0 <= x < len(v).
                if let Some(v) = s.len_of(y) {
                    out.push(Fact::LtLen { i: x, v });
                    out.push(Fact::NonNeg(x));
                }
                if s.non_neg(y) {
                    out.extend(s.lt_len_vecs(y).map(|v| Fact::LtLen { i: x, v }));
                }
            }
            CmpOp::Sle | CmpOp::Eq => {
                out.extend(s.lt_len_vecs(y).map(|v| Fact::LtLen { i: x, v }));
            }
            CmpOp::Ule if s.non_neg(y) => {
                out.extend(s.lt_len_vecs(y).map(|v| Fact::LtLen { i: x, v }));
            }
            _ => {}
        }
    }
    // LenGt(v, k) when x == len(v).
    if let Some(v) = s.len_of(x) {
        let k = match (op, rhs) {
            (CmpOp::Sgt | CmpOp::Ugt, Operand::Const(c)) if c >= 0 => Some(c),
            (CmpOp::Sge | CmpOp::Uge | CmpOp::Eq, Operand::Const(c)) if c >= 1 => Some(c - 1),
            (CmpOp::Ne, Operand::Const(0)) => Some(0),
            (CmpOp::Sgt, Operand::Local(y)) if s.non_neg(y) => Some(0),
            _ => None,
        };
        if let Some(k) = k {
            out.push(Fact::LenGt { v, k });
        }
    }
    out
}
