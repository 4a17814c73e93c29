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
//! every length fact of every vec (scalar facts survive: callees cannot see locals).
//!
//! Soundness rests on three points: (1) every generated fact follows from the semantics of the
//! instruction or branch edge that generates it, evaluated on the pre-state, and mentions the
//! assigned local only in its new meaning; (2) every instruction that may change a value a fact
//! depends on kills that fact; (3) merges intersect, so a fact at a merge held on all incoming
//! paths. Loops terminate because sets only shrink, and a decreasing `LenGt` bound at a merge
//! is dropped rather than counted down.

use super::cfg::Cfg;
use super::liveness::{Liveness, LocalSet};
use poolopt_ir::{
    BinaryOp, Block, CmpOp, Function, Inst, InstKind, Local, Operand, SecondaryMap, Terminator,
    Type, UnaryOp,
};
use rustc_hash::FxHashMap as HashMap;
use std::collections::{BTreeMap, BTreeSet};

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
/// Besides the facts themselves it keeps two indexes so that every update costs time in
/// proportion to the facts it touches, not to the size of the set: `mentions` lists, for each
/// local, the facts that mention it (entries may be stale: a fact removed through another local
/// stays listed until the list is next visited), and `vecs` the vec locals that have ever had a
/// length fact. An optional change log records what each update added and removed, so a client
/// can replay a block without cloning the set at every instruction ([`FactCursor`]).
#[derive(Clone, Debug, Default)]
pub struct FactSet {
    /// (n, v): n == len(v).
    len_is: BTreeSet<(Local, Local)>,
    /// c -> (op, lhs, rhs).
    cmps: BTreeMap<Local, (CmpOp, Operand, Operand)>,
    nonneg: BTreeSet<Local>,
    /// (i, v): i < len(v).
    lt_len: BTreeSet<(Local, Local)>,
    /// v -> the largest k known with len(v) > k.
    len_gt: BTreeMap<Local, i64>,
    /// i: i < i64::MAX.
    below_max: BTreeSet<Local>,
    /// Facts that may mention each local (possibly stale).
    mentions: HashMap<Local, Vec<Fact>>,
    /// Vec locals that may have length facts.
    vecs: BTreeSet<Local>,
    /// When `Some`, every fact added (`true`) or removed (`false`) is appended.
    log: Option<Vec<(Fact, bool)>>,
}

impl PartialEq for FactSet {
    fn eq(&self, other: &FactSet) -> bool {
        self.len_is == other.len_is
            && self.cmps == other.cmps
            && self.nonneg == other.nonneg
            && self.lt_len == other.lt_len
            && self.len_gt == other.len_gt
            && self.below_max == other.below_max
    }
}

impl Eq for FactSet {}

/// The locals a fact mentions (at most three).
fn mentioned(f: &Fact) -> impl Iterator<Item = Local> {
    let (a, b, c) = match *f {
        Fact::LenIs { n, v } => (Some(n), Some(v), None),
        Fact::CmpIs { c, lhs, rhs, .. } => (Some(c), lhs.as_local(), rhs.as_local()),
        Fact::NonNeg(i) | Fact::BelowMax(i) => (Some(i), None, None),
        Fact::LtLen { i, v } => (Some(i), Some(v), None),
        Fact::LenGt { v, .. } => (Some(v), None, None),
    };
    a.into_iter().chain(b).chain(c)
}

impl FactSet {
    /// The empty set (nothing known), as at the function entry.
    pub fn new() -> FactSet {
        FactSet::default()
    }

    /// Whether `fact` holds (a weaker `LenGt` than the one recorded holds too; `len(v) > k`
    /// for `k < 0` always holds).
    pub fn holds(&self, fact: &Fact) -> bool {
        match *fact {
            Fact::LenIs { n, v } => self.len_is.contains(&(n, v)),
            Fact::CmpIs { c, op, lhs, rhs } => self.cmps.get(&c) == Some(&(op, lhs, rhs)),
            Fact::NonNeg(i) => self.nonneg.contains(&i),
            Fact::LtLen { i, v } => self.lt_len.contains(&(i, v)),
            Fact::BelowMax(i) => self.below_max.contains(&i),
            Fact::LenGt { v, k } => {
                k < 0
                    || self.len_gt.get(&v).is_some_and(|&m| m >= k)
                    // 0 <= i < len(v) gives len(v) > 0.
                    || (k == 0
                        && self.mentions.get(&v).is_some_and(|fs| {
                            fs.iter().any(|f| {
                                matches!(*f, Fact::LtLen { i, v: w } if w == v
                                    && self.lt_len.contains(&(i, v))
                                    && self.nonneg.contains(&i))
                            })
                        }))
            }
        }
    }

    /// Whether exactly this fact is recorded (unlike [`FactSet::holds`], a `LenGt` must have
    /// exactly this bound).
    fn contains_exact(&self, fact: &Fact) -> bool {
        match *fact {
            Fact::LenGt { v, k } => self.len_gt.get(&v) == Some(&k),
            ref f => self.holds(f),
        }
    }

    pub fn non_neg(&self, i: Local) -> bool {
        self.nonneg.contains(&i)
    }

    pub fn lt_len(&self, i: Local, v: Local) -> bool {
        self.lt_len.contains(&(i, v))
    }

    /// Whether `len(v) > k` is known.
    pub fn len_gt(&self, v: Local, k: i64) -> bool {
        self.holds(&Fact::LenGt { v, k })
    }

    /// The largest `k` with `len(v) > k` known.
    pub fn len_gt_bound(&self, v: Local) -> Option<i64> {
        self.len_gt.get(&v).copied()
    }

    /// A vec `v` with `n == len(v)`, if any.
    pub fn len_of(&self, n: Local) -> Option<Local> {
        self.len_is
            .range((n, Local::from_u32(0))..)
            .next()
            .filter(|&&(m, _)| m == n)
            .map(|&(_, v)| v)
    }

    /// The compare `c` is known to hold, if any.
    pub fn cmp_of(&self, c: Local) -> Option<(CmpOp, Operand, Operand)> {
        self.cmps.get(&c).copied()
    }

    /// The vecs `w` with `i < len(w)` known.
    pub fn lt_len_vecs(&self, i: Local) -> impl Iterator<Item = Local> + '_ {
        self.lt_len
            .range((i, Local::from_u32(0))..)
            .take_while(move |&&(j, _)| j == i)
            .map(|&(_, v)| v)
    }

    /// Every `(v, k)` with `len(v) > k` recorded.
    pub fn len_gt_vecs(&self) -> impl Iterator<Item = (Local, i64)> + '_ {
        self.len_gt.iter().map(|(&v, &k)| (v, k))
    }

    /// Every fact of the set (each `LenGt` with its strongest bound).
    pub fn facts(&self) -> Vec<Fact> {
        let mut out = Vec::new();
        out.extend(self.len_is.iter().map(|&(n, v)| Fact::LenIs { n, v }));
        out.extend(
            self.cmps
                .iter()
                .map(|(&c, &(op, lhs, rhs))| Fact::CmpIs { c, op, lhs, rhs }),
        );
        out.extend(self.nonneg.iter().map(|&i| Fact::NonNeg(i)));
        out.extend(self.lt_len.iter().map(|&(i, v)| Fact::LtLen { i, v }));
        out.extend(self.len_gt.iter().map(|(&v, &k)| Fact::LenGt { v, k }));
        out.extend(self.below_max.iter().map(|&i| Fact::BelowMax(i)));
        out
    }

    /// The facts that mention `l` (each once).
    pub fn facts_mentioning(&self, l: Local) -> Vec<Fact> {
        let mut out: Vec<Fact> = Vec::new();
        for f in self.mentions.get(&l).into_iter().flatten() {
            if self.contains_exact(f) && !out.contains(f) {
                out.push(*f);
            }
        }
        out
    }

    fn note(&mut self, fact: Fact, added: bool) {
        if let Some(log) = self.log.as_mut() {
            log.push((fact, added));
        }
    }

    fn index(&mut self, fact: Fact) {
        for l in mentioned(&fact) {
            self.mentions.entry(l).or_default().push(fact);
        }
        if let Fact::LenIs { v, .. } | Fact::LtLen { v, .. } | Fact::LenGt { v, .. } = fact {
            self.vecs.insert(v);
        }
    }

    /// Adds a fact (a `LenGt` keeps the stronger bound; `LenGt` with `k < 0` is not recorded).
    pub fn insert(&mut self, fact: Fact) {
        let new = match fact {
            Fact::LenIs { n, v } => self.len_is.insert((n, v)),
            Fact::CmpIs { c, op, lhs, rhs } => {
                if let Some(old) = self.cmps.insert(c, (op, lhs, rhs)) {
                    if old != (op, lhs, rhs) {
                        let (op, lhs, rhs) = old;
                        self.note(Fact::CmpIs { c, op, lhs, rhs }, false);
                        true
                    } else {
                        false
                    }
                } else {
                    true
                }
            }
            Fact::NonNeg(i) => self.nonneg.insert(i),
            Fact::LtLen { i, v } => {
                // i < len(v) <= i64::MAX.
                self.insert(Fact::BelowMax(i));
                self.lt_len.insert((i, v))
            }
            Fact::BelowMax(i) => self.below_max.insert(i),
            Fact::LenGt { v, k } => {
                if k < 0 {
                    return;
                }
                match self.len_gt.get(&v).copied() {
                    Some(old) if old >= k => false,
                    old => {
                        if let Some(old) = old {
                            self.note(Fact::LenGt { v, k: old }, false);
                        }
                        self.len_gt.insert(v, k);
                        true
                    }
                }
            }
        };
        if new {
            self.note(fact, true);
            self.index(fact);
        }
    }

    /// Removes exactly `fact` (a `LenGt` only when recorded with this bound).
    fn remove(&mut self, fact: &Fact) {
        let removed = match *fact {
            Fact::LenIs { n, v } => self.len_is.remove(&(n, v)),
            Fact::CmpIs { c, op, lhs, rhs } => {
                if self.cmps.get(&c) == Some(&(op, lhs, rhs)) {
                    self.cmps.remove(&c);
                    true
                } else {
                    false
                }
            }
            Fact::NonNeg(i) => self.nonneg.remove(&i),
            Fact::LtLen { i, v } => self.lt_len.remove(&(i, v)),
            Fact::BelowMax(i) => self.below_max.remove(&i),
            Fact::LenGt { v, k } => {
                if self.len_gt.get(&v) == Some(&k) {
                    self.len_gt.remove(&v);
                    true
                } else {
                    false
                }
            }
        };
        if removed {
            self.note(*fact, false);
        }
    }

    /// Drops the facts *about* `l` (it is dead: nothing will read it before it is written
    /// again). A `CmpIs` that only has `l` as an operand stays; `LenGt` facts stay (see
    /// [`fact_is_live`]).
    pub fn forget_local(&mut self, l: Local) {
        let Some(list) = self.mentions.remove(&l) else {
            return;
        };
        let mut keep = Vec::new();
        for f in list {
            if !self.contains_exact(&f) {
                continue;
            }
            let about_l = match f {
                Fact::LenIs { n, v } | Fact::LtLen { i: n, v } => n == l || v == l,
                Fact::CmpIs { c, .. } => c == l,
                Fact::NonNeg(i) | Fact::BelowMax(i) => i == l,
                Fact::LenGt { .. } => false,
            };
            if about_l {
                self.remove(&f);
            } else {
                keep.push(f);
            }
        }
        if !keep.is_empty() {
            self.mentions.insert(l, keep);
        }
    }

    /// Removes every fact that mentions `l`.
    pub fn kill_local(&mut self, l: Local) {
        if let Some(list) = self.mentions.remove(&l) {
            for f in &list {
                self.remove(f);
            }
        }
    }

    /// `self ∩ other` (a `LenGt` keeps the weaker bound). Returns whether `self` changed.
    pub fn meet_with(&mut self, other: &FactSet) -> bool {
        self.meet_by(
            |f| other.contains_exact(f),
            |v| other.len_gt.get(&v).copied(),
        )
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
        self.meet_by(
            |f| other.contains_exact(f) || plus.contains_exact(f),
            |v| {
                other
                    .len_gt
                    .get(&v)
                    .copied()
                    .max(plus.len_gt.get(&v).copied())
            },
        )
    }

    /// Keeps the facts `holds` accepts; each `LenGt(v, k)` becomes `LenGt(v, min(k, bound(v)))`
    /// or goes when `bound(v)` is `None`. Returns whether anything changed.
    fn meet_by(
        &mut self,
        holds: impl Fn(&Fact) -> bool,
        bound: impl Fn(Local) -> Option<i64>,
    ) -> bool {
        let size = |s: &FactSet| {
            s.len_is.len()
                + s.cmps.len()
                + s.nonneg.len()
                + s.lt_len.len()
                + s.len_gt.len()
                + s.below_max.len()
        };
        let before = size(self);
        let mut lowered = false;
        self.len_is.retain(|&(n, v)| holds(&Fact::LenIs { n, v }));
        self.cmps
            .retain(|&c, &mut (op, lhs, rhs)| holds(&Fact::CmpIs { c, op, lhs, rhs }));
        self.nonneg.retain(|&i| holds(&Fact::NonNeg(i)));
        self.lt_len.retain(|&(i, v)| holds(&Fact::LtLen { i, v }));
        self.below_max.retain(|&i| holds(&Fact::BelowMax(i)));
        self.len_gt.retain(|&v, k| match bound(v) {
            Some(k2) => {
                lowered |= k2 < *k;
                *k = (*k).min(k2);
                true
            }
            None => false,
        });
        lowered || size(self) != before
    }

    /// Keeps only the facts whose locals `keep` accepts (the manager of block-entry states uses
    /// it to drop facts about dead locals). Dropping facts is always sound.
    pub fn retain_locals(&mut self, keep: impl Fn(&Fact) -> bool) {
        if self.log.is_some() {
            for f in self.facts() {
                if !keep(&f) {
                    self.remove(&f);
                }
            }
        } else {
            self.len_is.retain(|&(n, v)| keep(&Fact::LenIs { n, v }));
            self.cmps
                .retain(|&c, &mut (op, lhs, rhs)| keep(&Fact::CmpIs { c, op, lhs, rhs }));
            self.nonneg.retain(|&i| keep(&Fact::NonNeg(i)));
            self.lt_len.retain(|&(i, v)| keep(&Fact::LtLen { i, v }));
            self.len_gt.retain(|&v, &mut k| keep(&Fact::LenGt { v, k }));
            self.below_max.retain(|&i| keep(&Fact::BelowMax(i)));
        }
        self.mentions.retain(|_, list| {
            list.retain(|f| keep(f));
            !list.is_empty()
        });
    }

    /// Kills length facts of every vec `v` with `affected(v)`: only `LenIs` (the length grew)
    /// or, with `all`, every length fact. With `pop`, `LenGt` is weakened by one instead.
    fn kill_lengths(&mut self, affected: impl Fn(Local) -> bool, mode: LengthChange) {
        let vecs: Vec<Local> = self.vecs.iter().copied().filter(|&v| affected(v)).collect();
        for v in vecs {
            // A pop lowers the length by one: `len(v) > k` becomes `len(v) > k - 1`.
            let weakened = match mode {
                LengthChange::Shrank => self.len_gt_bound(v).filter(|&k| k >= 1),
                _ => None,
            };
            let list = self.mentions.remove(&v).unwrap_or_default();
            let mut keep = Vec::new();
            for f in list {
                if !self.contains_exact(&f) {
                    continue; // stale
                }
                let kill = match f {
                    Fact::LenIs { v: w, .. } if w == v => true,
                    Fact::LtLen { v: w, .. } if w == v => mode != LengthChange::Grew,
                    Fact::LenGt { v: w, .. } if w == v => mode != LengthChange::Grew,
                    _ => false,
                };
                if kill {
                    self.remove(&f);
                } else {
                    keep.push(f);
                }
            }
            if !keep.is_empty() {
                self.mentions.insert(v, keep);
            }
            if let Some(k) = weakened {
                self.insert(Fact::LenGt { v, k: k - 1 });
            }
        }
    }
}

/// Whether `fact` can still matter where `live` are the live locals: the locals it is about
/// must be live (a `CmpIs` only needs its bool: its operands are not read again). `LenGt`
/// facts are kept regardless: there is at most one per vec local, and remarks use them to say
/// which vec a guard was about.
fn fact_is_live(fact: &Fact, live: &LocalSet) -> bool {
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
}

/// Where the locals of `block` die: after which instruction each local is no longer live. A
/// `brif c` at the end keeps the operands of `c`'s compare (defined in this block), and the vec
/// whose length an operand holds, alive to the end: the branch's edge facts are derived from
/// them.
fn block_deaths(func: &Function, block: Block, live: &Liveness) -> Vec<(usize, Local)> {
    let data = &func.blocks[block];
    let mut alive = live.live_out(block).clone();
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
    inst: Inst,
    index: usize,
    deaths: &[(usize, Local)],
    next_death: &mut usize,
    s: &mut FactSet,
) {
    transfer(func, inst, s);
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

    /// Runs the analysis over `func`, reusing a liveness result of the same function.
    pub fn compute_with(func: &Function, cfg: &Cfg, live: &Liveness) -> FactAnalysis {
        let mut fa = FactAnalysis::default();
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
                    new_in
                        .len_gt
                        .retain(|v, k| old.len_gt.get(v).is_none_or(|&ko| ko <= *k));
                    if *old == new_in {
                        continue;
                    }
                }
                let mut s = new_in.clone();
                let mut next_death = 0;
                for (index, &inst) in func.blocks[b].insts.iter().enumerate() {
                    step_block(func, inst, index, &fa.deaths[b], &mut next_death, &mut s);
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

/// Applies one instruction to `s`.
pub fn transfer(func: &Function, inst: Inst, s: &mut FactSet) {
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
        InstKind::Call { .. } => s.kill_lengths(|_| true, LengthChange::Unknown),
        _ => {}
    }
    // 4. The destination's old facts die; its new ones are added.
    if let Some(d) = kind.def() {
        s.kill_local(d);
    }
    for f in gen {
        s.insert(f);
    }
    if let InstKind::VecPush { vec, .. } = *kind {
        s.insert(Fact::LenGt { v: vec, k: 0 });
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
        _ => {}
    }
    gen
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
