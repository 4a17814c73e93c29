//! *Fixed* locals: scalar, vec and packed locals (and struct locals held field by field) with
//! exactly one assignment, which dominates every read. The lowering gives such a local the
//! Cranelift value of that assignment directly, with no variable of the SSA construction
//! ([`crate::ssa`]: `use_var` walking predecessors, sealing, block parameters at joins) for
//! what is already in SSA form.
//!
//! Soundness. A local is zero until assigned, and a read sees the latest assignment on the
//! path that reached it. Let a local have exactly one assignment `d` (a parameter's is its
//! incoming value, before the entry block), and let `d` dominate every read: a read in `d`'s
//! block comes after `d`, a read in another block is in a block that `d`'s block dominates.
//! Then every path to a read passes `d` and no other assignment, so the read sees the value
//! `d` computed on its latest execution, and never the initial zero. In Cranelift, an IR
//! block lowers to a main line of blocks (each dominated by the one before; cold paths
//! either return or rejoin it), and the IR terminator leaves from the main line's last block,
//! so the Cranelift value defined at `d` dominates the lowering of every read. The lowering
//! emits blocks in layout order, so `d`'s block must also come before every reading block in
//! the layout (the value must exist when the read is lowered); a local that fails any of
//! these tests stays a variable. Cranelift's verifier, on in debug builds and so in every
//! test, rejects any use its definition does not dominate.
//!
//! Reads the lowering adds itself are not IR reads: a hoisted loop's vec header is loaded at
//! the end of the preheader, which the vec's assignment dominates (it dominates the loop's
//! reads and lies outside the loop, whose only way in is the preheader) but may follow in the
//! layout. So the assignment also defines the local's SSA variable (a cheap `def_var`), and a
//! read that comes before the assignment is lowered asks the SSA construction, as for any
//! other local.

use crate::scratch::refill;
use poolopt_ir::cfg::Cfg;
use poolopt_ir::dominators::DomTree;
use poolopt_ir::field_wise::field_wise_mention;
use poolopt_ir::room::vec_room;
use poolopt_ir::{Block, EntityRef, Function, InstKind, Local, Operand, SecondaryMap, Type};

/// The fixed locals of `ir` (see the module documentation), with storage of its own (the
/// lowering uses [`fixed_locals_into`] with a [`crate::scratch::LowerScratch`]'s).
#[cfg(test)]
pub fn fixed_locals(ir: &Function, cfg: &Cfg) -> SecondaryMap<Local, bool> {
    let mut fixed = SecondaryMap::new();
    let mut block_local = SecondaryMap::new();
    fixed_locals_into(
        ir,
        cfg,
        &mut FixedLocalsScratch::default(),
        &mut fixed,
        &mut block_local,
        None,
        WalkExtras {
            area_limit: u64::MAX,
            track_make_reads: false,
        },
    );
    fixed
}

/// The working storage of [`fixed_locals_into`], kept from one function to the next.
#[derive(Default)]
pub struct FixedLocalsScratch {
    /// Per local: how many assignments, and the block and position of the last one seen.
    defs: Vec<u32>,
    def_block: Vec<Block>,
    def_pos: Vec<i64>,
    /// Per local: the 1-based layout index of the block that last wrote it, in the walk.
    written: Vec<u32>,
    /// The live area, measured in the same walk.
    area: LiveArea,
    /// Per local: whether something other than a `make` operand reads it (a terminator, any
    /// other instruction), from the same walk; [`FixedLocalsScratch::read_only_by_make`].
    read_elsewhere: Vec<bool>,
    /// Per block: its position in the layout.
    layout_pos: Vec<u32>,
    /// The reads whose dominance only the CFG can tell: a fixed local read in a block other
    /// than its assignment's, which is not the entry block (the entry dominates every
    /// reachable block). They are judged after the walk ([`judge_pending`]).
    pending: Vec<(Local, Block)>,
    search: DominanceSearch,
    dom: DomTree,
}

impl FixedLocalsScratch {
    /// Whether every read of `l` in the function last walked by [`fixed_locals_into`] is an
    /// operand of a `make` (also when it is never read).
    pub(crate) fn read_only_by_make(&self, l: Local) -> bool {
        !self.read_elsewhere.get(l.index()).copied().unwrap_or(true)
    }

    /// Makes room for a function of `locals` locals and `blocks` blocks.
    pub(crate) fn reserve(&mut self, locals: usize, blocks: usize) {
        vec_room(&mut self.defs, locals);
        vec_room(&mut self.def_block, locals);
        vec_room(&mut self.def_pos, locals);
        vec_room(&mut self.written, locals);
        vec_room(&mut self.area.seen_pos, locals);
        vec_room(&mut self.read_elsewhere, locals);
        vec_room(&mut self.area.first_at, locals);
        vec_room(&mut self.area.last_at, locals);
        vec_room(&mut self.layout_pos, blocks);
        vec_room(&mut self.pending, locals);
        vec_room(&mut self.search.reached, blocks);
        vec_room(&mut self.search.stack, blocks);
        self.dom.reserve(blocks);
    }
}

/// The *live area* of a function: about how many (value, instruction) pairs there are where
/// the value of a scalar, vec or packed local is live, which is what register allocation's
/// cost grows with once the values live at once outnumber the registers
/// ([`crate::tier::MAX_LIVE_AREA`]). Counted without liveness, in the walk over the reads:
/// within a block, from each write to the last read of its value there; for a local some read
/// of which may see a value from another block, from its first mention to its last in the
/// layout's numbering of instructions (an over-estimate for a local mentioned in distant
/// blocks, exact for a straight line).
#[derive(Default)]
struct LiveArea {
    /// Per local: where in its block it was last written, or read after a write there.
    seen_pos: Vec<u32>,
    /// Per local: the first and last positions in the layout's numbering where it is
    /// mentioned (`u32::MAX` and 0 when it is not).
    first_at: Vec<u32>,
    last_at: Vec<u32>,
    /// The block-local part counted so far.
    within_blocks: u64,
}

impl LiveArea {
    /// Starts measuring a function of `n_locals` locals.
    fn reset(&mut self, n_locals: usize) {
        self.within_blocks = 0;
        refill_with(&mut self.seen_pos, n_locals, 0);
        refill_with(&mut self.first_at, n_locals, u32::MAX);
        refill_with(&mut self.last_at, n_locals, 0);
    }

    /// `l` is mentioned at `at` in the layout's numbering (the walk's mentions come in
    /// increasing order).
    fn mention(&mut self, l: usize, at: u32) {
        if self.first_at[l] == u32::MAX {
            self.first_at[l] = at;
        }
        self.last_at[l] = at;
    }

    /// `l` is written at `pos` in its block (`at` in the layout's numbering).
    fn write(&mut self, l: usize, pos: u32, at: u32) {
        self.seen_pos[l] = pos;
        self.mention(l, at);
    }

    /// `l` is read at `pos` in its block (`at` in the layout's numbering), after a write in
    /// the same block when `after_write`.
    fn read(&mut self, l: usize, pos: u32, at: u32, after_write: bool) {
        if after_write {
            self.within_blocks += u64::from(pos.saturating_sub(self.seen_pos[l]));
            self.seen_pos[l] = pos;
        }
        self.mention(l, at);
    }

    /// The area: the block-local part, plus the extent of each `exposed` local that is one
    /// value (scalar, vec or packed).
    fn total(&self, ir: &Function, exposed: &SecondaryMap<Local, bool>) -> u64 {
        let crossing: u64 = ir
            .locals
            .iter()
            .filter(|&(l, data)| {
                exposed[l]
                    && match data.ty {
                        Type::Scalar(_) | Type::Vec(_) => true,
                        Type::Struct(_) => data.packed,
                    }
            })
            .map(|(l, _)| {
                let i = l.index();
                u64::from(self.last_at[i].saturating_sub(self.first_at[i]))
            })
            .sum();
        self.within_blocks + crossing
    }
}

fn refill_with<T: Copy>(v: &mut Vec<T>, n: usize, x: T) {
    v.clear();
    v.resize(n, x);
}

/// What [`fixed_locals_into`] works out besides the fixed and block-local flags.
#[derive(Copy, Clone, Debug)]
pub struct WalkExtras {
    /// The live area is measured unless a bound shows it is at most this.
    pub area_limit: u64,
    /// Whether to record which locals only `make`s read.
    pub track_make_reads: bool,
}

/// The fixed locals of `ir` (see the module documentation) into `fixed`, and in the same walk
/// over the function's reads its block-local locals ([`crate::lower::block_local_locals`]) into
/// `block_local` (both emptied first), with the working storage of `scratch`. One walk instead
/// of two: the lowering of a normal-tier function needs both. With `field_wise_barred`, the
/// walk also marks there (emptied first) each local some mention bars from being held field by
/// field ([`field_wise_mention`]), a third analysis of the same instructions.
/// With `track_make_reads`, it also records which locals only `make`s read
/// ([`FixedLocalsScratch::read_only_by_make`]; otherwise that answers no for every local).
/// Returns the function's live area ([`LiveArea`]), a fourth, unless a bound that costs
/// nothing to compute shows that it is at most `area_limit` (each local's part is at most
/// twice the function's length: one part within blocks, one across them); then `None`.
pub fn fixed_locals_into(
    ir: &Function,
    cfg: &Cfg,
    scratch: &mut FixedLocalsScratch,
    fixed: &mut SecondaryMap<Local, bool>,
    block_local: &mut SecondaryMap<Local, bool>,
    field_wise_barred: Option<&mut SecondaryMap<Local, bool>>,
    extras: WalkExtras,
) -> Option<u64> {
    let WalkExtras {
        area_limit,
        track_make_reads,
    } = extras;
    let n_locals = ir.locals.len();
    refill(fixed, n_locals);
    // First per local whether some read of it may see a value from outside its block (the
    // complement, at the end, is the block-local flag). Parameters do.
    let exposed = block_local;
    refill(exposed, n_locals);
    for &p in &ir.params {
        exposed[p] = true;
    }
    let mut barred = field_wise_barred;
    if let Some(barred) = barred.as_deref_mut() {
        refill(barred, n_locals);
        for &p in &ir.params {
            barred[p] = true;
        }
    }
    let length = (ir.insts.len() + ir.blocks.len()) as u64; // terminators included
    let measure = 2u64.saturating_mul(n_locals as u64).saturating_mul(length) > area_limit;
    if measure {
        scratch.area.reset(n_locals);
        for &p in &ir.params {
            // The incoming value, before the first instruction.
            scratch.area.mention(p.index(), 0);
        }
    }
    scratch.read_elsewhere.clear();
    match (measure, track_make_reads) {
        (true, true) => walk::<true, true>(ir, cfg, scratch, fixed, exposed, barred),
        (true, false) => walk::<true, false>(ir, cfg, scratch, fixed, exposed, barred),
        (false, true) => walk::<false, true>(ir, cfg, scratch, fixed, exposed, barred),
        (false, false) => walk::<false, false>(ir, cfg, scratch, fixed, exposed, barred),
    }
    let area = measure.then(|| scratch.area.total(ir, exposed));
    for flag in exposed.values_mut() {
        *flag = !*flag;
    }
    area
}

/// The walks of [`fixed_locals_into`]: assignments, then reads (and, with `barred`, the
/// mentions that bar a local from being held field by field, into it; with `MEASURE`, the
/// live area into the scratch's [`LiveArea`]).
fn walk<const MEASURE: bool, const MAKE_READS: bool>(
    ir: &Function,
    cfg: &Cfg,
    scratch: &mut FixedLocalsScratch,
    fixed: &mut SecondaryMap<Local, bool>,
    exposed: &mut SecondaryMap<Local, bool>,
    mut barred: Option<&mut SecondaryMap<Local, bool>>,
) {
    let n_locals = ir.locals.len();
    let Some(entry) = ir.entry() else {
        return;
    };
    let n_blocks = ir.blocks.len();
    // Per local: how many assignments, and the block and position of the last one seen
    // (`-1` for a parameter's incoming value, before the entry block's first instruction).
    let FixedLocalsScratch {
        defs,
        def_block,
        def_pos,
        written,
        layout_pos,
        pending,
        search,
        dom,
        area,
        read_elsewhere,
    } = scratch;
    if MAKE_READS {
        refill_with(read_elsewhere, n_locals, false);
    }
    defs.clear();
    defs.resize(n_locals, 0);
    def_block.clear();
    def_block.resize(n_locals, entry);
    def_pos.clear();
    def_pos.resize(n_locals, 0);
    for &p in &ir.params {
        defs[p.index()] += 1;
        def_pos[p.index()] = -1;
    }
    for &blk in &ir.layout {
        for (pos, &inst) in ir.blocks[blk].insts.iter().enumerate() {
            let Some(kind) = ir.insts.get(inst).map(|d| &d.kind) else {
                continue;
            };
            if let Some(l) = kind.def() {
                // A field write assigns part of its local: never the one assignment.
                let partial = matches!(kind, InstKind::SetField { .. });
                defs[l.index()] += if partial { 2 } else { 1 };
                def_block[l.index()] = blk;
                def_pos[l.index()] = pos as i64;
            }
        }
    }
    for l in ir.locals.keys() {
        // Every local may be fixed: a struct local's flag matters only when the lowering
        // holds it field by field (then its one assignment is a `make`, which gives every
        // field its value; a `setfield` never counts as the one), and is ignored otherwise.
        let i = l.index();
        fixed[l] = defs[i] == 1 && cfg.is_reachable(def_block[i]);
    }
    pending.clear();
    layout_pos.clear();
    layout_pos.resize(n_blocks, 0);
    for (n, &b) in ir.layout.iter().enumerate() {
        layout_pos[b.index()] = n as u32;
    }
    // Per local: the 1-based layout index of the block in which it was last written.
    written.clear();
    written.resize(n_locals, 0);
    // The layout's numbering of instructions (each block's terminator included), where the
    // current block starts.
    let mut base = 0u32;
    for (n, &blk) in ir.layout.iter().enumerate() {
        let stamp = n as u32 + 1;
        let data = &ir.blocks[blk];
        let mut read = |op: Operand,
                        pos: i64,
                        fixed: &mut SecondaryMap<Local, bool>,
                        exposed: &mut SecondaryMap<Local, bool>,
                        written: &[u32],
                        area: &mut LiveArea| {
            let Operand::Local(l) = op else { return };
            let after_write = written.get(l.index()).copied().unwrap_or(0) == stamp;
            if !after_write {
                exposed[l] = true;
            }
            if MEASURE {
                let pos32 = pos as u32;
                area.read(l.index(), pos32, base.saturating_add(pos32), after_write);
            }
            if !fixed[l] {
                return;
            }
            let (d, i) = (def_block[l.index()], l.index());
            let dominated = if d == blk {
                def_pos[i] < pos
            } else if layout_pos[d.index()] >= layout_pos[blk.index()] {
                false
            } else if d == entry {
                // The entry block dominates exactly the reachable blocks.
                cfg.is_reachable(blk)
            } else {
                pending.push((l, blk));
                true
            };
            if !dominated {
                fixed[l] = false;
            }
        };
        for (pos, &inst) in data.insts.iter().enumerate() {
            if let Some(d) = ir.insts.get(inst) {
                let in_make = matches!(d.kind, InstKind::Make { .. });
                if let Some(barred) = barred.as_deref_mut() {
                    // `poolopt_ir::field_wise::for_each_barred`'s rule, fused into this walk's
                    // one pass over the uses (`tests/field_structs.rs` holds the two equal).
                    let allowed = field_wise_mention(&d.kind);
                    d.kind.for_each_use(|op| {
                        if let Operand::Local(l) = op {
                            if Some(l) != allowed {
                                barred[l] = true;
                            }
                            if MAKE_READS {
                                read_elsewhere[l.index()] |= !in_make;
                            }
                        }
                        read(op, pos as i64, fixed, exposed, written, area)
                    });
                    if let Some(l) = d.kind.def() {
                        if Some(l) != allowed {
                            barred[l] = true;
                        }
                    }
                } else {
                    d.kind.for_each_use(|op| {
                        if let (Operand::Local(l), true) = (op, MAKE_READS) {
                            read_elsewhere[l.index()] |= !in_make;
                        }
                        read(op, pos as i64, fixed, exposed, written, area)
                    });
                }
                if let Some(l) = d.kind.def() {
                    if let Some(w) = written.get_mut(l.index()) {
                        *w = stamp;
                    }
                    if MEASURE {
                        area.write(l.index(), pos as u32, base.saturating_add(pos as u32));
                    }
                }
            }
        }
        if let Some(op) = data.terminator.as_ref().and_then(|t| t.used_operand()) {
            if let (Operand::Local(l), Some(barred)) = (op, barred.as_deref_mut()) {
                barred[l] = true;
            }
            if let (Operand::Local(l), true) = (op, MAKE_READS) {
                read_elsewhere[l.index()] = true;
            }
            read(op, data.insts.len() as i64, fixed, exposed, written, area);
        }
        base = base.saturating_add(data.insts.len() as u32 + 1);
    }
    judge_pending(
        cfg,
        def_block,
        pending,
        fixed,
        search,
        dom,
        MAX_DOMINANCE_SEARCHES,
    );
}

/// How many assigning blocks [`judge_pending`] tests the dominance of by a search each before
/// it computes the dominator tree instead. On the workloads' functions (20 to 31 blocks) a
/// search costs about a seventh of the tree (callgrind); the bound keeps the cost linear in
/// the function's size.
const MAX_DOMINANCE_SEARCHES: usize = 8;

/// The working storage of [`judge_pending`]'s searches.
#[derive(Default)]
struct DominanceSearch {
    /// Per block: the number of the last search that reached it.
    reached: Vec<u32>,
    /// The search's blocks still to visit.
    stack: Vec<Block>,
}

/// Judges the reads of `pending` whose dominance only the CFG can tell, of locals still
/// `fixed`: a read's local stays fixed only if its assignment's block (`def_block`, not the
/// entry) dominates the read's block. A block `d` dominates exactly the reachable blocks that
/// no path from the entry reaches without passing `d`: so for up to `max_searches` distinct
/// assigning blocks, one search from the entry that never enters `d` answers every read of
/// `d`'s locals; past that, the dominator tree `dom` answers them all. Reorders `pending`.
fn judge_pending(
    cfg: &Cfg,
    def_block: &[Block],
    pending: &mut Vec<(Local, Block)>,
    fixed: &mut SecondaryMap<Local, bool>,
    search: &mut DominanceSearch,
    dom: &mut DomTree,
    max_searches: usize,
) {
    pending.retain(|&(l, _)| fixed[l]);
    let Some(&entry) = cfg.rpo().first() else {
        return;
    };
    pending.sort_unstable_by_key(|&(l, _)| def_block[l.index()]);
    let groups = pending.chunk_by(|a, b| def_block[a.0.index()] == def_block[b.0.index()]);
    if groups.count() > max_searches {
        dom.recompute(cfg);
        for &(l, blk) in pending.iter() {
            if !dom.dominates(def_block[l.index()], blk) {
                fixed[l] = false;
            }
        }
        return;
    }
    let DominanceSearch { reached, stack } = search;
    let n_blocks = cfg.rpo().iter().map(|b| b.index() + 1).max().unwrap_or(0);
    reached.clear();
    reached.resize(n_blocks, 0);
    let groups = pending.chunk_by(|a, b| def_block[a.0.index()] == def_block[b.0.index()]);
    for (number, group) in (1u32..).zip(groups) {
        let d = def_block[group[0].0.index()];
        reached[entry.index()] = number;
        stack.clear();
        stack.push(entry);
        while let Some(b) = stack.pop() {
            for &s in cfg.succs(b) {
                if s != d && reached[s.index()] != number {
                    reached[s.index()] = number;
                    stack.push(s);
                }
            }
        }
        for &(l, blk) in group {
            let dominated = cfg.is_reachable(blk) && reached[blk.index()] != number;
            if !dominated {
                fixed[l] = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use poolopt_ir::parse;

    fn fixed_names(src: &str) -> Vec<String> {
        let module = parse(src).expect("parses");
        let f = module.funcs.values().next().expect("one function");
        let fixed = fixed_locals(f, &Cfg::compute(f));
        // The shared walk's block-local flags are the standalone analysis's.
        let (mut fixed2, mut block_local) = (SecondaryMap::new(), SecondaryMap::new());
        let mut scratch = FixedLocalsScratch::default();
        let mut barred = SecondaryMap::new();
        fixed_locals_into(
            f,
            &Cfg::compute(f),
            &mut scratch,
            &mut fixed2,
            &mut block_local,
            Some(&mut barred),
            WalkExtras {
                area_limit: u64::MAX,
                track_make_reads: true,
            },
        );
        let standalone = crate::lower::block_local_locals(f);
        for (l, _) in f.locals.iter() {
            assert_eq!(block_local[l], standalone[l], "block-local flag of {l}");
            assert_eq!(fixed2[l], fixed[l]);
        }
        let mut names: Vec<String> = f
            .locals
            .iter()
            .filter(|(l, _)| fixed[*l])
            .map(|(_, d)| d.name.to_string())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_shared_walk_bars_the_same_struct_locals_as_the_field_wise_scan() {
        let src = "struct P { a: i8, b: i64 }
        fn f(p: P, n: i64) -> i64 {
            var v: vec<P>
            var s: P
            var u: P
            var w: P
            var y: i64
            var c: bool
          entry:
            v = new vec<P>
            s = make P(1, n)
            y = getfield s.b
            setfield s.b, y
            push v, s
            u = make P(2, y)
            w = copy u
            c = slt y, 3
            brif c, t, e
          t:
            set v[0], u
            y = getfield p.b
            ret y
          e:
            ret n
        }";
        let module = parse(src).expect("parses");
        let f = module.funcs.values().next().expect("one function");
        let (mut fixed, mut block_local, mut barred) = (
            SecondaryMap::new(),
            SecondaryMap::new(),
            SecondaryMap::new(),
        );
        fixed_locals_into(
            f,
            &Cfg::compute(f),
            &mut FixedLocalsScratch::default(),
            &mut fixed,
            &mut block_local,
            Some(&mut barred),
            WalkExtras {
                area_limit: u64::MAX,
                track_make_reads: true,
            },
        );
        let mut shared = SecondaryMap::new();
        crate::lower::field_struct_locals_from(f, &module, &barred, &mut shared);
        let standalone = crate::lower::field_struct_locals(f, &module);
        let mut names = Vec::new();
        for (l, data) in f.locals.iter() {
            assert_eq!(shared[l], standalone[l], "field-wise flag of {l}");
            if shared[l] {
                names.push(data.name.to_string());
            }
        }
        // `s`: built, read and written by field, pushed. Not `p` (a parameter), `u` (copied),
        // `w` (assigned by a copy).
        assert_eq!(names, vec!["s"]);
    }

    #[test]
    fn one_dominating_assignment_is_fixed() {
        let src = "fn f(a: i64, b: i64) -> i64 {
            var x: i64
            var y: i64
            var c: bool
          entry:
            b = add b, 1
            x = add a, 1
            c = slt x, 10
            brif c, t, e
          t:
            y = copy x
            br e
          e:
            ret x
        }";
        // `a`: the parameter, never assigned again. `x`: one assignment in the entry block,
        // read in dominated blocks. `c`: read by the entry block's own terminator. `y`: one
        // assignment and no read. Not `b`: assigned twice (its incoming value and `add`).
        assert_eq!(fixed_names(src), vec!["a", "c", "x", "y"]);
    }

    #[test]
    fn a_read_the_assignment_does_not_dominate_is_not_fixed() {
        let src = "fn f(a: i64) -> i64 {
            var x: i64
            var z: i64
            var c: bool
          entry:
            c = slt a, 10
            brif c, t, e
          t:
            x = copy a
            z = add x, 1
            br e
          e:
            ret x
        }";
        // `x` is assigned in `t` but read in `e`, which `t` does not dominate (the path
        // entry -> e reads the initial zero).
        assert_eq!(fixed_names(src), vec!["a", "c", "z"]);
    }

    #[test]
    fn a_read_before_the_assignment_in_a_loop_is_not_fixed() {
        let src = "fn f(a: i64) -> i64 {
            var x: i64
            var c: bool
          entry:
            br h
          h:
            c = slt x, a
            x = copy 5
            brif c, h, out
          out:
            ret 0
        }";
        // `x` is read in `h` before its one assignment in `h` (the first time round it is
        // zero); `c` is read by `h`'s terminator after its assignment.
        assert_eq!(fixed_names(src), vec!["a", "c"]);
    }

    #[test]
    fn an_assignment_that_reads_its_own_local_is_not_fixed() {
        let src = "fn f(a: i64) -> i64 {
            var x: i64
          entry:
            x = add x, a
            ret x
        }";
        // The one assignment of `x` reads `x` first (its initial zero): that read comes at
        // the assignment's own position, not after it.
        assert_eq!(fixed_names(src), vec!["a"]);
    }

    #[test]
    fn a_dominated_block_earlier_in_the_layout_is_not_fixed() {
        let src = "fn f(a: i64) -> i64 {
            var x: i64
          entry:
            br d
          u:
            ret x
          d:
            x = add a, 1
            br u
        }";
        // `d` dominates `u`, but `u` is lowered first: the value would not exist yet.
        assert_eq!(fixed_names(src), vec!["a"]);
    }

    #[test]
    fn reads_in_unreachable_blocks_keep_the_variable() {
        let src = "fn f(a: i64) -> i64 {
            var x: i64
          entry:
            x = add a, 1
            ret x
          dead:
            ret x
        }";
        assert_eq!(fixed_names(src), vec!["a"]);
    }

    #[test]
    fn a_struct_local_built_once_is_fixed_and_one_changed_by_field_is_not() {
        // `s` has one assignment (its `make`), before the branch to the block that stores
        // it; `t` has two (`make`, then `setfield`). The flag only matters when the lowering
        // holds the local field by field, as it does both here.
        let src = "struct S { a: i64, b: i64 }
        fn f(x: i64) -> i64 {
            var v: vec<S>
            var s: S
            var t: S
            var c: bool
        entry:
            v = new vec<S>
            s = make S(x, 1)
            t = make S(x, 2)
            setfield t.b, 3
            c = slt x, 0
            brif c, a, b
        a:
            push v, s
            push v, t
            br b
        b:
            ret x
        }";
        assert_eq!(fixed_names(src), vec!["c", "s", "v", "x"]);
    }

    #[test]
    fn a_struct_local_assigned_only_by_a_field_write_is_not_fixed() {
        // `s`'s one assignment is `setfield s.a`: field `b` keeps its initial zero, which
        // only a variable gives it.
        let src = "struct S { a: i64, b: i64 }
        fn f(x: i64) -> i64 {
            var v: vec<S>
            var s: S
        entry:
            v = new vec<S>
            setfield s.a, x
            push v, s
            ret x
        }";
        assert_eq!(fixed_names(src), vec!["v", "x"]);
    }

    /// The live area of the one function of `src` (a limit of 0 has it measured).
    fn area_of(src: &str) -> u64 {
        let module = parse(src).expect("parses");
        let f = module.funcs.values().next().expect("one function");
        let (mut fixed, mut block_local) = (SecondaryMap::new(), SecondaryMap::new());
        fixed_locals_into(
            f,
            &Cfg::compute(f),
            &mut FixedLocalsScratch::default(),
            &mut fixed,
            &mut block_local,
            None,
            WalkExtras {
                area_limit: 0,
                track_make_reads: false,
            },
        )
        .expect("measured")
    }

    #[test]
    fn the_live_area_of_a_block_local_value_runs_from_its_write_to_its_last_read() {
        // `a` is written at 0 and last read at 3 (its read at 1 between changes nothing):
        // 3; `b` is written at 1 and read at 2: 1; `c`'s first value lives from 2 to 3 and
        // its second from 3 to the terminator (4): 2. The parameter `x` (read at 0) is
        // mentioned from its incoming value (0) to 0.
        let src = "fn f(x: i64) -> i64 {
            var a: i64
            var b: i64
            var c: i64
        entry:
            a = add x, 1
            b = add a, 2
            c = add b, 3
            c = add c, a
            ret c
        }";
        assert_eq!(area_of(src), 6);
        // Writing `a` again starts a new value: its first one is read only at 1.
        let again = "fn f(x: i64) -> i64 {
            var a: i64
            var b: i64
        entry:
            a = add x, 1
            b = add a, 2
            a = add b, 3
            b = add a, 4
            ret b
        }";
        // a: 1 + 1, b: 1 + 1 (read at 2, then the second value read at 4).
        assert_eq!(area_of(again), 4);
    }

    #[test]
    fn the_live_area_of_a_crossing_local_is_its_extent_in_the_layout() {
        // The layout's numbering: `entry` 0 (`t = ...`) and 1 (`br`), `next` 2 (`y = ...`)
        // and 3 (`ret`). `x` crosses from its incoming value (0) to 2, `t` from 0 to 2; `y`
        // is block-local, written at 0 of `next` and read by its terminator at 1.
        let src = "fn f(x: i64) -> i64 {
            var t: i64
            var y: i64
        entry:
            t = add x, 2
            br next
        next:
            y = add x, t
            ret y
        }";
        assert_eq!(area_of(src), 2 + 2 + 1);
    }
    /// A function of `n` blocks with random branches (its terminators only: the CFG is what
    /// counts), from the xorshift64 state `rng`.
    fn random_cfg_function(rng: &mut u64, n: usize) -> String {
        let mut next = |below: usize| {
            *rng ^= *rng << 13;
            *rng ^= *rng >> 7;
            *rng ^= *rng << 17;
            (*rng % below as u64) as usize
        };
        let mut src = String::from("fn f(c: bool) -> i64 {\n");
        for b in 0..n {
            src.push_str(&format!("  b{b}:\n"));
            let term = match next(4) {
                _ if b + 1 == n => "ret 0".to_string(),
                0 => "ret 0".to_string(),
                1 => format!("br b{}", next(n)),
                _ => format!("brif c, b{}, b{}", next(n), next(n)),
            };
            src.push_str(&format!("    {term}\n"));
        }
        src.push('}');
        src
    }

    #[test]
    fn the_searches_judge_every_read_as_the_dominator_tree_does() {
        let mut rng = 0x2545_f491_4f6c_dd1d_u64;
        for round in 0..300 {
            let n = 2 + round % 14;
            let src = random_cfg_function(&mut rng, n);
            let module = parse(&src).expect("parses");
            let f = module.funcs.values().next().expect("one function");
            let cfg = Cfg::compute(f);
            let entry = f.entry().expect("an entry block");
            // One read per pair of blocks, each of its own local, assigned in the first
            // block of the pair (never the entry, as for the walk's pending reads).
            let mut def_block = Vec::new();
            let mut pending = Vec::new();
            for &d in f.layout.iter().filter(|&&d| d != entry) {
                for &blk in &f.layout {
                    pending.push((Local::new(def_block.len()), blk));
                    def_block.push(d);
                }
            }
            let judged = |max_searches: usize| {
                let mut fixed = SecondaryMap::new();
                fixed.resize(def_block.len());
                for flag in fixed.values_mut() {
                    *flag = true;
                }
                judge_pending(
                    &cfg,
                    &def_block,
                    &mut pending.clone(),
                    &mut fixed,
                    &mut DominanceSearch::default(),
                    &mut DomTree::default(),
                    max_searches,
                );
                fixed
            };
            let (searched, by_tree) = (judged(usize::MAX), judged(0));
            let dom = DomTree::compute(&cfg);
            for &(l, blk) in &pending {
                let d = def_block[l.index()];
                assert_eq!(
                    searched[l],
                    dom.dominates(d, blk),
                    "{d} over {blk} in\n{src}"
                );
                assert_eq!(by_tree[l], searched[l], "{d} over {blk} in\n{src}");
            }
        }
    }
}
