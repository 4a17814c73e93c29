//! Which locals the fact analysis tracks: those connected to a check or a divisor.
//!
//! Only a few questions are ever asked of the facts: is an index within its vec's length, is a
//! vec non-empty before a pop, does an explicit range check or a folded compare hold, is a
//! divisor non-zero. A
//! constraint between two locals that no chain of definitions and compares links to such a
//! question can never contribute to an answer, yet it costs time in every meet, query and
//! elimination. So the analysis only records constraints whose terms are *tracked*.
//!
//! Tracked locals, to a fixpoint:
//! - the index and vec of every checked `get`/`set`, the vec of every checked `pop`;
//! - both operands of a compare that a branch with a trapping successor tests (an explicit
//!   check), or that an `and`/`or` combines (a range-check-fold candidate);
//! - the operands of the definition of a tracked value local (`copy`, unary, binary);
//! - `n = len v`: `n` and `v` together; and every `n = len w` that a branch's compare reads
//!   and whose `w` may hold the same vec as a tracked vec ([`CallKills::may_alias`]: a guard
//!   on a vec that may or may not be the checked one, which the kept check's remark names);
//! - a vec copy: source and destination together;
//! - a compare with one tracked operand: the other one too (its branch links them);
//! - the divisor of every checked division (is it non-zero: `div-check-prove` asks that of
//!   this analysis), with one more link: `d = x sdiv k` (a constant `k >= 1`) with `x`
//!   tracked tracks `d`, whose bounds its quotient fact turns into bounds of `x`.
//!
//! One analysis then answers both `bounds-check-elim` and `div-check-prove` (both opt-in since
//! the pipelines run `sparse-bounds-check-elim`), which runs right after it on the analysis it
//! kept. Tracking the divisors there costs little
//! (the O2 analyses of `scattered`'s functions: 599,440 → 601,718 instructions), while a second
//! analysis of the same function, however few locals it tracks, paid the fixpoint's cost per
//! block again (201,785). `div-check-elim`, at the end of O2 and when run alone, computes its
//! own over [`Tracked::of_divisors`]: the divisors and the same propagation only.
//!
//! Soundness: dropping a constraint only makes the facts weaker, and every check decision
//! reads the facts as "proved" or "not proved"; an untracked local simply never appears in a
//! constraint.

use poolopt_ir::{
    BinaryOp, Block, EntityRef, Function, InstKind, Local, Operand, Terminator, Type,
};

use super::constraints::Term;
use super::demand::ends_in_explicit_check;
use super::driver::room_for;
use super::transfer::quotient_of;
use super::CallKills;

/// The tracked locals of one function (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Tracked {
    locals: Vec<bool>,
}

/// A bool local that a conditional branch reads (its compare's operands are guarded).
const BRANCH_COND: u8 = 1;
/// A bool local that an explicit check's branch or an `and`/`or` reads (its compare's
/// operands are seeds).
const TESTED: u8 = 2;
/// An operand of a compare that a conditional branch reads (a `len` into it may be a guard).
const GUARDED: u8 = 4;
/// A local that a compare or a unary operation writes: among bools, the only ones a compare
/// fact may be held by (a compare's, or a `not`'s of a held compare).
const HOLDS_COMPARE: u8 = 8;

/// The work space of [`Tracked::of`] and [`Tracked::of_divisors`], kept from one analysis to
/// the next so that an analysis allocates none of it once earlier ones have grown it.
///
/// The function is walked once: what the seeds need (compares, `len`s, checked accesses and
/// divisors, the branches' conditions) is listed, and every link of the propagation is
/// recorded as a directed edge between locals. The propagation is then a search from the
/// seeds over those edges (each edge is followed once), where it used to sweep the function
/// again until a sweep added nothing (at least two sweeps, one per link against the order
/// in the worst case).
#[derive(Clone, Debug, Default)]
pub struct RelevanceScratch {
    /// Per local: [`BRANCH_COND`], [`TESTED`], [`GUARDED`], [`HOLDS_COMPARE`].
    flags: Vec<u8>,
    /// Every compare: destination and operands.
    compares: Vec<(Local, Operand, Operand)>,
    /// Every `n = len w`: `(n, w)`.
    lens: Vec<(Local, Local)>,
    /// The locals of the checked accesses (vec and index) and the checked divisions' divisors.
    seeds: Vec<Local>,
    /// Whether each entry of `seeds` is a divisor (the rest are accesses' locals).
    seed_is_divisor: Vec<bool>,
    /// The propagation's links: if the first local is tracked, so is the second.
    links: Vec<(u32, u32)>,
    /// The links by their first local: local `l`'s second locals are
    /// `link_to[link_start[l]..link_start[l + 1]]`.
    link_start: Vec<u32>,
    link_to: Vec<u32>,
    /// Per block (by index): whether it holds something the check passes decide with facts
    /// ([`super::demand::decides_in`]), which is where the demand of an analysis starts.
    deciding: Vec<bool>,
    /// The tracked locals in the order they were found (the search's work list).
    found: Vec<Local>,
    /// The checked vecs, ascending.
    checked_vecs: Vec<Local>,
    /// The table of a recycled [`Tracked`], for the next one.
    spare_locals: Vec<bool>,
}

impl Tracked {
    /// Every local tracked (for callers without a function at hand).
    pub fn all() -> Tracked {
        Tracked { locals: Vec::new() }
    }

    /// Whether constraints about term `t` are recorded.
    pub fn term(&self, t: Term) -> bool {
        t.local().is_none_or(|l| self.local(l))
    }

    /// Whether constraints about local `l` (its value or its length) are recorded.
    pub fn local(&self, l: Local) -> bool {
        self.locals.get(l.index()).is_none_or(|&b| b)
    }

    /// The tracked locals of `func`.
    pub fn of(func: &Function, calls: &CallKills) -> Tracked {
        Tracked::of_in(func, calls, &mut RelevanceScratch::default())
    }

    /// [`Tracked::of`] in the work space `scratch` (its contents are overwritten).
    pub fn of_in(func: &Function, calls: &CallKills, scratch: &mut RelevanceScratch) -> Tracked {
        scratch.scan(func);
        Tracked::of_scanned(func, calls, scratch)
    }

    /// [`Tracked::of`] from `scratch` holding the walk of `func` ([`RelevanceScratch::scan`]).
    pub fn of_scanned(
        func: &Function,
        calls: &CallKills,
        scratch: &mut RelevanceScratch,
    ) -> Tracked {
        let n = func.locals.len();
        let mut on = scratch.fresh_locals(n);
        let s = scratch;
        s.found.clear();
        // Seeds: the checked accesses, the explicit checks' compares, the checked divisions'
        // divisors; and the locals a branch's compare reads.
        for &(dst, lhs, rhs) in &s.compares {
            let flags = s.flags.get(dst.index()).copied().unwrap_or(0);
            for l in [lhs, rhs].into_iter().filter_map(Operand::as_local) {
                if flags & BRANCH_COND != 0 {
                    if let Some(f) = s.flags.get_mut(l.index()) {
                        *f |= GUARDED;
                    }
                }
                if flags & TESTED != 0 {
                    mark(&mut on, &mut s.found, l);
                }
            }
        }
        for &l in &s.seeds {
            mark(&mut on, &mut s.found, l);
        }
        // `n = len w` where `w` may be a checked vec: a guard that may be about the wrong vec,
        // which the kept check's remark names ("only len(a) > 0 is known"). The checked vecs
        // are the seeds' vec locals (a divisor or a compare's operand is never a vec).
        let guarded = |l: Local| s.flags.get(l.index()).is_some_and(|&f| f & GUARDED != 0);
        if s.lens.iter().any(|&(dst, _)| guarded(dst)) {
            s.checked_vecs.clear();
            s.checked_vecs.extend(
                s.found
                    .iter()
                    .copied()
                    .filter(|&l| matches!(func.local_ty(l), Type::Vec(_))),
            );
            s.checked_vecs.sort_unstable();
            for &(dst, vec) in &s.lens {
                if !guarded(dst) {
                    continue;
                }
                // A vec no other local may alias is a checked vec's only when it is one.
                let checked = if calls.alone(vec) {
                    s.checked_vecs.binary_search(&vec).is_ok()
                } else {
                    s.checked_vecs
                        .iter()
                        .any(|&w| calls.may_alias(func, vec, w))
                };
                if checked {
                    mark(&mut on, &mut s.found, dst);
                    mark(&mut on, &mut s.found, vec);
                }
            }
        }
        s.propagate(on)
    }

    /// The locals linked to a checked division's divisor: each divisor, then the propagation
    /// of [`Tracked::of`].
    pub fn of_divisors(func: &Function) -> Tracked {
        Tracked::of_divisors_in(func, &mut RelevanceScratch::default())
    }

    /// [`Tracked::of_divisors`] in the work space `scratch` (its contents are overwritten).
    pub fn of_divisors_in(func: &Function, scratch: &mut RelevanceScratch) -> Tracked {
        scratch.scan(func);
        Tracked::of_divisors_scanned(func, scratch)
    }

    /// [`Tracked::of_divisors`] from `scratch` holding the walk of `func`
    /// ([`RelevanceScratch::scan`]).
    pub fn of_divisors_scanned(func: &Function, scratch: &mut RelevanceScratch) -> Tracked {
        let mut on = scratch.fresh_locals(func.locals.len());
        let s = scratch;
        s.found.clear();
        for (&l, &divisor) in s.seeds.iter().zip(&s.seed_is_divisor) {
            if divisor {
                mark(&mut on, &mut s.found, l);
            }
        }
        s.propagate(on)
    }
}

/// Tracks `l` (if it is a local of the function) and lists it in `found` when it is new.
fn mark(on: &mut [bool], found: &mut Vec<Local>, l: Local) {
    if let Some(slot) = on.get_mut(l.index()) {
        if !*slot {
            *slot = true;
            found.push(l);
        }
    }
}

impl RelevanceScratch {
    /// Keeps the table of `tracked` (an analysis being recycled) for the next analysis.
    pub fn give_locals(&mut self, tracked: Tracked) {
        self.spare_locals = tracked.locals;
    }

    /// A table of `n` untracked locals, in the storage of a recycled one when there is one.
    fn fresh_locals(&mut self, n: usize) -> Vec<bool> {
        let mut on = std::mem::take(&mut self.spare_locals);
        on.clear();
        on.resize(n, false);
        on
    }

    /// One walk over `func`: the branches' conditions, the compares, the `len`s, the checked
    /// accesses' and divisions' locals, the blocks that decide something
    /// ([`RelevanceScratch::decides`]), and the propagation's links (module docs):
    /// - `copy`: destination and source both ways;
    /// - unary and binary operations: destination to each operand;
    /// - `n = len v`: both ways;
    /// - a compare of two locals: both ways (one tracked operand tracks the other);
    /// - a quotient `d = x sdiv k` (a constant `k >= 1`): `x` to `d`.
    pub fn scan(&mut self, func: &Function) {
        let n = func.locals.len();
        // Tables by local and by block with room for the next functions too (`room_for`).
        room_for(&mut self.flags, n);
        room_for(&mut self.link_start, n + 1);
        room_for(&mut self.spare_locals, n);
        // The tracked locals' work list lists each local at most once.
        room_for(&mut self.found, n);
        room_for(&mut self.deciding, func.blocks.len());
        self.deciding.clear();
        self.deciding.resize(func.blocks.len(), false);
        self.flags.clear();
        self.flags.resize(n, 0);
        self.compares.clear();
        self.lens.clear();
        self.seeds.clear();
        self.seed_is_divisor.clear();
        self.links.clear();
        // Room for an ordinary function's links and lists at once: grown one doubling at a
        // time, the first analyses' buffers cost more than the walk.
        self.links.reserve(256);
        self.compares.reserve(32);
        self.seeds.reserve(32);
        self.lens.reserve(32);
        self.seed_is_divisor.reserve(32);
        let links = &mut self.links;
        let mut link = |from: Local, to: Operand| {
            if let Operand::Local(to) = to {
                if from.index() < n && to.index() < n {
                    links.push((from.index() as u32, to.index() as u32));
                }
            }
        };
        let flag = |flags: &mut Vec<u8>, l: Local, f: u8| {
            if let Some(slot) = flags.get_mut(l.index()) {
                *slot |= f;
            }
        };
        for &b in &func.layout {
            let data = &func.blocks[b];
            let mut decides = ends_in_explicit_check(func, b);
            if let Some(Terminator::BrIf {
                cond: Operand::Local(c),
                then_block,
                else_block,
            }) = data.terminator
            {
                flag(&mut self.flags, c, BRANCH_COND);
                let traps = |t| matches!(func.terminator(t), Some(Terminator::Trap(_)));
                if traps(then_block) || traps(else_block) {
                    flag(&mut self.flags, c, TESTED);
                }
            }
            for &inst in &data.insts {
                let kind = func.inst(inst);
                match *kind {
                    InstKind::Copy { dst, src } => {
                        link(dst, src);
                        if let Operand::Local(src) = src {
                            link(src, Operand::Local(dst));
                        }
                    }
                    InstKind::Unary { dst, arg, .. } => {
                        flag(&mut self.flags, dst, HOLDS_COMPARE);
                        link(dst, arg);
                    }
                    InstKind::Binary {
                        op,
                        dst,
                        lhs,
                        rhs,
                        check,
                    } => {
                        if matches!(op, BinaryOp::And | BinaryOp::Or) {
                            for l in [lhs, rhs].into_iter().filter_map(Operand::as_local) {
                                flag(&mut self.flags, l, TESTED);
                            }
                        }
                        link(dst, lhs);
                        link(dst, rhs);
                        if let Some(q) = quotient_of(func, kind) {
                            link(q.x, Operand::Local(q.d));
                        }
                        if check.is_checked() && op.is_division() {
                            decides = true;
                            if let Operand::Local(d) = rhs {
                                self.seeds.push(d);
                                self.seed_is_divisor.push(true);
                            }
                        }
                    }
                    InstKind::VecLen { dst, vec } => {
                        link(dst, Operand::Local(vec));
                        link(vec, Operand::Local(dst));
                        self.lens.push((dst, vec));
                    }
                    InstKind::Compare { dst, lhs, rhs, .. } => {
                        if let (Operand::Local(l), Operand::Local(r)) = (lhs, rhs) {
                            link(l, rhs);
                            link(r, lhs);
                        }
                        flag(&mut self.flags, dst, HOLDS_COMPARE);
                        self.compares.push((dst, lhs, rhs));
                    }
                    InstKind::VecGet {
                        vec, index, check, ..
                    }
                    | InstKind::VecSet {
                        vec, index, check, ..
                    } if check.is_checked() => {
                        decides = true;
                        self.seeds.push(vec);
                        self.seed_is_divisor.push(false);
                        if let Operand::Local(i) = index {
                            self.seeds.push(i);
                            self.seed_is_divisor.push(false);
                        }
                    }
                    InstKind::VecPop { vec, check, .. } if check.is_checked() => {
                        decides = true;
                        self.seeds.push(vec);
                        self.seed_is_divisor.push(false);
                    }
                    _ => {}
                }
            }
            if let Some(d) = self.deciding.get_mut(b.index()) {
                *d = decides;
            }
        }
    }

    /// Whether block `b` of the function last walked ([`RelevanceScratch::scan`]) holds
    /// something the check passes decide with facts ([`super::demand::decides_in`]); `None`
    /// for a block out of its range.
    pub fn decides(&self, b: Block) -> Option<bool> {
        self.deciding.get(b.index()).copied()
    }

    /// Whether a compare or a unary operation of the function last walked
    /// ([`RelevanceScratch::scan`]) writes `l`: a bool no such instruction writes never holds a
    /// compare fact. `None` for a local out of its range.
    pub fn may_hold_compare(&self, l: Local) -> Option<bool> {
        self.flags.get(l.index()).map(|&f| f & HOLDS_COMPARE != 0)
    }

    /// Adds to the tracked locals `on` (those in `self.found`) every local a chain of links
    /// reaches from them: the least fixpoint of the module docs' rules, whatever the order.
    fn propagate(&mut self, mut on: Vec<bool>) -> Tracked {
        let n = on.len();
        // The links by their first local (a counting sort).
        let starts = &mut self.link_start;
        starts.clear();
        starts.resize(n + 1, 0);
        for &(from, _) in &self.links {
            starts[from as usize] += 1;
        }
        let mut end = 0;
        for s in starts.iter_mut() {
            end += *s;
            *s = end;
        }
        room_for(&mut self.link_to, self.links.len());
        self.link_to.clear();
        self.link_to.resize(self.links.len(), 0);
        for &(from, to) in &self.links {
            let slot = &mut starts[from as usize];
            *slot -= 1;
            self.link_to[*slot as usize] = to;
        }
        // `starts[l]` is now where `l`'s links start, `starts[n]` their total.
        let mut next = 0;
        while let Some(&l) = self.found.get(next) {
            next += 1;
            let range = starts[l.index()] as usize..starts[l.index() + 1] as usize;
            for &to in &self.link_to[range] {
                let to = to as usize;
                if !on[to] {
                    on[to] = true;
                    self.found.push(Local::new(to));
                }
            }
        }
        Tracked { locals: on }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The earlier propagation: sweeps over the function's instructions, backwards, until
    /// one adds nothing.
    fn propagate_as_before(func: &Function, mut on: Vec<bool>) -> Vec<bool> {
        let is = |on: &Vec<bool>, o: Operand| o.as_local().is_some_and(|l| on[l.index()]);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in func.layout.iter().rev() {
                for &inst in func.blocks[b].insts.iter().rev() {
                    let mut add: [Option<Operand>; 2] = [None, None];
                    if let Some(q) = quotient_of(func, func.inst(inst)) {
                        if on[q.x.index()] && !on[q.d.index()] {
                            add[0] = Some(Operand::Local(q.d));
                        }
                    }
                    match *func.inst(inst) {
                        InstKind::Copy { dst, src } => {
                            if on[dst.index()] && !is(&on, src) {
                                add[0] = Some(src);
                            } else if is(&on, src) && !on[dst.index()] {
                                add[0] = Some(Operand::Local(dst));
                            }
                        }
                        InstKind::Unary { dst, arg, .. } if on[dst.index()] => add[0] = Some(arg),
                        InstKind::Binary { dst, lhs, rhs, .. } if on[dst.index()] => {
                            add = [Some(lhs), Some(rhs)];
                        }
                        InstKind::VecLen { dst, vec } if on[dst.index()] != on[vec.index()] => {
                            add = [Some(Operand::Local(dst)), Some(Operand::Local(vec))];
                        }
                        InstKind::Compare { lhs, rhs, .. } if is(&on, lhs) || is(&on, rhs) => {
                            add = [Some(lhs), Some(rhs)];
                        }
                        _ => {}
                    }
                    for o in add.into_iter().flatten() {
                        if let Operand::Local(l) = o {
                            if !on[l.index()] {
                                on[l.index()] = true;
                                changed = true;
                            }
                        }
                    }
                }
            }
        }
        on
    }

    /// The earlier divisor seeds.
    fn divisors_as_before(func: &Function, on: &mut [bool]) {
        for &b in &func.layout {
            for &inst in &func.blocks[b].insts {
                if let InstKind::Binary {
                    op,
                    rhs: Operand::Local(d),
                    check,
                    ..
                } = *func.inst(inst)
                {
                    if check.is_checked() && op.is_division() {
                        on[d.index()] = true;
                    }
                }
            }
        }
    }

    /// The earlier `Tracked::of`: two walks for the seeds, then the sweeps.
    fn of_as_before(func: &Function, calls: &CallKills) -> Vec<bool> {
        let n = func.locals.len();
        let mut on = vec![false; n];
        let mark = |on: &mut Vec<bool>, o: Operand| {
            if let Operand::Local(l) = o {
                on[l.index()] = true;
            }
        };
        let mut tested = vec![false; n];
        let mut branch_cond = vec![false; n];
        for &b in &func.layout {
            if let Some(Terminator::BrIf {
                cond: Operand::Local(c),
                then_block,
                else_block,
            }) = func.terminator(b)
            {
                branch_cond[c.index()] = true;
                let traps = |t| matches!(func.terminator(t), Some(Terminator::Trap(_)));
                if traps(*then_block) || traps(*else_block) {
                    tested[c.index()] = true;
                }
            }
            for &inst in &func.blocks[b].insts {
                if let InstKind::Binary {
                    op: BinaryOp::And | BinaryOp::Or,
                    lhs,
                    rhs,
                    ..
                } = *func.inst(inst)
                {
                    for l in [lhs, rhs].into_iter().filter_map(Operand::as_local) {
                        tested[l.index()] = true;
                    }
                }
            }
        }
        let mut guarded = vec![false; n];
        let mut lens: Vec<(Local, Local)> = Vec::new();
        for &b in &func.layout {
            for &inst in &func.blocks[b].insts {
                match *func.inst(inst) {
                    InstKind::Compare { dst, lhs, rhs, .. } => {
                        if branch_cond[dst.index()] {
                            for l in [lhs, rhs].into_iter().filter_map(Operand::as_local) {
                                guarded[l.index()] = true;
                            }
                        }
                        if tested[dst.index()] {
                            mark(&mut on, lhs);
                            mark(&mut on, rhs);
                        }
                    }
                    InstKind::VecGet {
                        vec, index, check, ..
                    }
                    | InstKind::VecSet {
                        vec, index, check, ..
                    } if check.is_checked() => {
                        mark(&mut on, Operand::Local(vec));
                        mark(&mut on, index);
                    }
                    InstKind::VecPop { vec, check, .. } if check.is_checked() => {
                        mark(&mut on, Operand::Local(vec));
                    }
                    InstKind::VecLen { dst, vec } => lens.push((dst, vec)),
                    _ => {}
                }
            }
        }
        divisors_as_before(func, &mut on);
        let checked_vecs: Vec<Local> = (0..n)
            .map(Local::new)
            .filter(|&l| on[l.index()] && matches!(func.local_ty(l), Type::Vec(_)))
            .collect();
        for (dst, vec) in lens {
            if !guarded[dst.index()] {
                continue;
            }
            let checked = if calls.alone(vec) {
                checked_vecs.binary_search(&vec).is_ok()
            } else {
                checked_vecs.iter().any(|&w| calls.may_alias(func, vec, w))
            };
            if checked {
                on[dst.index()] = true;
                on[vec.index()] = true;
            }
        }
        propagate_as_before(func, on)
    }

    /// The repository's functions as parsed and after the O2 pipeline, and how many of them
    /// hold an unchecked access (which must be neither a seed nor a deciding block).
    fn parsed_and_optimized() -> (Vec<Function>, usize) {
        let mut funcs = crate::test_programs::functions();
        funcs.extend(crate::test_programs::optimized_functions());
        let unchecked = funcs
            .iter()
            .filter(|f| {
                f.insts.values().any(|d| match d.kind {
                    InstKind::VecGet { check, .. }
                    | InstKind::VecSet { check, .. }
                    | InstKind::VecPop { check, .. } => !check.is_checked(),
                    _ => false,
                })
            })
            .count();
        (funcs, unchecked)
    }

    /// One walk and a search over the links track the locals the earlier walks and sweeps
    /// tracked, for the check passes and for the divisors, on every function of the
    /// repository's programs as parsed and after the O2 pipeline, with one work space reused
    /// from function to function (and the tables of recycled results) as the analyses reuse
    /// them.
    #[test]
    fn one_walk_and_a_search_track_what_the_sweeps_tracked() {
        let mut scratch = RelevanceScratch::default();
        let (mut functions, mut propagated, mut divisors) = (0, 0, 0);
        let (funcs, unchecked) = parsed_and_optimized();
        assert!(
            unchecked > 50,
            "{unchecked} functions with unchecked accesses"
        );
        for func in funcs {
            let calls = CallKills::of(&func, None);
            let tracked = Tracked::of_in(&func, &calls, &mut scratch);
            let before = of_as_before(&func, &calls);
            assert_eq!(tracked.locals, before, "{}", func.name);
            let seeds = scratch.seeds.len() + scratch.compares.len();
            propagated += usize::from(scratch.found.len() > seeds);
            scratch.give_locals(tracked);
            let tracked = Tracked::of_divisors_in(&func, &mut scratch);
            let mut on = vec![false; func.locals.len()];
            divisors_as_before(&func, &mut on);
            divisors += usize::from(on.contains(&true));
            assert_eq!(
                tracked.locals,
                propagate_as_before(&func, on),
                "{}",
                func.name
            );
            scratch.give_locals(tracked);
            functions += 1;
        }
        assert!(
            functions > 200 && propagated > 50 && divisors > 10,
            "{functions} functions, {propagated} propagated, {divisors} with divisors"
        );
    }

    /// A `len` of a vec that may hold the checked one is tracked only when a branch's compare
    /// reads it (a guard on possibly the wrong vec, which a kept check's remark names): not
    /// when the compare's result is only returned.
    #[test]
    fn a_len_is_a_guard_only_under_a_branch() {
        let src = |tail: &str| {
            format!(
                "fn f(v: vec<i64>, w: vec<i64>, i: i64) -> bool {{\n\
                 var x: i64\nvar n: i64\nvar t: bool\n\
                 entry:\nx = get v[i]\nn = len w\nt = slt n, 5\n{tail}\n}}\n"
            )
        };
        let returned = src("ret t");
        let branched = src("brif t, yes, no\nyes:\nret t\nno:\nret t");
        for (text, guard) in [(returned, false), (branched, true)] {
            let module = poolopt_ir::parse(&text).unwrap();
            let func = module.funcs.values().next().unwrap();
            let calls = CallKills::of(func, None);
            let tracked = Tracked::of(func, &calls);
            let local = |name| func.local_by_name(name).unwrap();
            assert!(tracked.local(local("v")) && tracked.local(local("i")));
            assert_eq!(tracked.local(local("n")), guard, "{text}");
            assert_eq!(tracked.local(local("w")), guard, "{text}");
            assert!(calls.may_alias(func, local("v"), local("w")));
        }
    }

    /// The walk's deciding blocks are those `decides_in` finds, on every reachable block of
    /// every function of the repository's programs as parsed and after the O2 pipeline.
    #[test]
    fn the_walk_finds_the_blocks_that_decide() {
        let mut scratch = RelevanceScratch::default();
        let (mut blocks, mut deciding) = (0, 0);
        let (funcs, unchecked) = parsed_and_optimized();
        assert!(
            unchecked > 50,
            "{unchecked} functions with unchecked accesses"
        );
        for func in funcs {
            scratch.scan(&func);
            let cfg = crate::analysis::Cfg::compute(&func);
            for &b in cfg.rpo() {
                let before = super::super::demand::decides_in(&func, b);
                assert_eq!(scratch.decides(b), Some(before), "{} {b}", func.name);
                blocks += 1;
                deciding += usize::from(before);
            }
        }
        assert!(
            blocks > 1000 && deciding > 300,
            "{blocks} blocks, {deciding} deciding"
        );
    }
}
