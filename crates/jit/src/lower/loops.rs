//! The loops whose vec headers cannot change while they run ([`header_invariant_loops`]): their
//! vecs' lengths and data pointers are loaded once, at the end of the preheader.

use cranelift_codegen::ir::Value;
use poolopt_ir::cfg::Cfg;
use poolopt_ir::room::{map_room, vec_room};
use poolopt_ir::SecondaryMap;
use poolopt_ir::{Block, Function, InstKind, Local, Terminator, Type};

/// A vec's header fields loaded in a loop's preheader: the vec, its length, its data pointer
/// (each if the loop needs it).
pub(crate) type HoistedHeader = (Local, Option<Value>, Option<Value>);

/// A loop whose vec headers do not change while it runs: no instruction of its body can
/// change any header (no `push`, `pop`, `new`, `drop` or call) or assign a vec local, so the
/// length and data pointer of each vec it reads or writes are loaded once, at the end of its
/// preheader.
#[derive(Clone, Debug)]
pub struct HoistLoop {
    /// The block before the loop: its only way in, ending in `br header`.
    pub preheader: Block,
    /// The header and every block of the loop.
    pub body: Vec<Block>,
    /// Per vec the loop uses: whether it needs the length, whether the data pointer.
    pub vecs: Vec<(Local, bool, bool)>,
}

/// The loops of [`HoistLoop`]'s kind. A loop here is a header `h` with exactly two
/// predecessors: a preheader before it in the layout that ends in `br h`, and a latch; the
/// body is every block that reaches the latch without passing `h`, and no block of the body
/// other than `h` may have a predecessor outside it (so `h` is the only way in and the
/// preheader dominates the body). The preheader comes before every block of the body in the
/// layout, so the loads are emitted before anything that uses them.
///
/// `cfg` is the CFG of `ir` ([`Cfg::compute`]); its predecessor lists are distinct, so a latch
/// that branches to the header on both sides counts once.
pub fn header_invariant_loops(ir: &Function, cfg: &Cfg) -> Vec<HoistLoop> {
    let mut out = Vec::new();
    header_invariant_loops_into(ir, cfg, &mut LoopScanScratch::default(), &mut out);
    out
}

/// The working storage of [`header_invariant_loops_into`], kept from one function to the next.
#[derive(Default)]
pub struct LoopScanScratch {
    /// Per block: its position in the layout.
    pos: SecondaryMap<Block, u32>,
    /// Per block: in the body being collected.
    seen: SecondaryMap<Block, bool>,
    work: Vec<Block>,
    /// The body being collected (copied out only when its loop qualifies).
    body: Vec<Block>,
}

impl LoopScanScratch {
    /// Makes room for a function of `blocks` blocks.
    pub(crate) fn reserve(&mut self, blocks: usize) {
        map_room(&mut self.pos, blocks);
        map_room(&mut self.seen, blocks);
        vec_room(&mut self.work, blocks);
        vec_room(&mut self.body, blocks);
    }
}

/// [`header_invariant_loops`] into `out` (emptied first), with the working storage of
/// `scratch`.
pub fn header_invariant_loops_into(
    ir: &Function,
    cfg: &Cfg,
    scratch: &mut LoopScanScratch,
    out: &mut Vec<HoistLoop>,
) {
    out.clear();
    // A qualifying loop reads or writes some vec local.
    if !ir.locals.values().any(|d| matches!(d.ty, Type::Vec(_))) {
        return;
    }
    let LoopScanScratch {
        pos,
        seen,
        work,
        body,
    } = scratch;
    pos.clear();
    pos.resize(ir.blocks.len());
    for (n, &b) in ir.layout.iter().enumerate() {
        pos[b] = n as u32;
    }
    let preds = |b: Block| cfg.preds(b);
    seen.clear();
    seen.resize(ir.blocks.len());
    for &h in &ir.layout {
        let [a, c] = preds(h) else {
            continue;
        };
        // The predecessor list is in layout order, so the preheader (before `h`) is the first.
        let (p, latch) = if pos[*a] < pos[h] && pos[*c] >= pos[h] {
            (*a, *c)
        } else {
            continue;
        };
        if !matches!(
            ir.blocks.get(p).and_then(|d| d.terminator.as_ref()),
            Some(Terminator::Br(t)) if *t == h
        ) {
            continue;
        }
        // The body: backwards from the latch, stopping at the header. `seen` is all false
        // between candidates (cleared over the body below).
        body.clear();
        body.push(h);
        seen[h] = true;
        work.clear();
        work.push(latch);
        let mut ok = true;
        while let Some(b) = work.pop() {
            if seen[b] {
                continue;
            }
            if b == p || pos[b] <= pos[p] {
                ok = false;
                break;
            }
            seen[b] = true;
            body.push(b);
            work.extend(preds(b).iter().copied());
        }
        let single_entry = ok
            && body
                .iter()
                .all(|&b| b == h || preds(b).iter().all(|q| seen[*q]));
        for &b in body.iter() {
            seen[b] = false;
        }
        if !single_entry {
            continue;
        }
        let mut vecs: Vec<(Local, bool, bool)> = Vec::new();
        let mut need = |vec: Local, len: bool, ptr: bool| match vecs.iter_mut().find(|e| e.0 == vec)
        {
            Some(e) => {
                e.1 |= len;
                e.2 |= ptr;
            }
            None => vecs.push((vec, len, ptr)),
        };
        // The first instruction that disqualifies the loop ends the scan.
        'scan: for &b in body.iter() {
            let Some(data) = ir.blocks.get(b) else {
                ok = false;
                break;
            };
            for &inst in &data.insts {
                if !ok {
                    break 'scan;
                }
                let Some(d) = ir.insts.get(inst) else {
                    ok = false;
                    break;
                };
                if let Some(l) = d.kind.def() {
                    if matches!(ir.locals.get(l).map(|x| x.ty), Some(Type::Vec(_)) | None) {
                        ok = false;
                    }
                }
                match &d.kind {
                    InstKind::VecPush { .. }
                    | InstKind::VecPop { .. }
                    | InstKind::VecNew { .. }
                    | InstKind::VecDrop { .. }
                    | InstKind::Call { .. } => ok = false,
                    InstKind::VecLen { vec, .. } => need(*vec, true, false),
                    InstKind::VecGet { vec, check, .. } | InstKind::VecSet { vec, check, .. } => {
                        need(*vec, check.is_checked(), true)
                    }
                    _ => {}
                }
            }
        }
        if ok && !vecs.is_empty() {
            out.push(HoistLoop {
                preheader: p,
                body: body.clone(),
                vecs,
            });
        }
    }
}
