//! The locals a function may read before writing them, for the inliner (which resets them in
//! each copy of a callee): liveness's live-in set of the entry, found by one forward walk
//! instead of a CFG and a full liveness analysis per callee.

use poolopt_ir::{EntityRef, Function, Local, Operand};
use std::rc::Rc;

/// The locals other than parameters that `func` may read before writing them (a `setfield`
/// reads its struct), in local order: its locals live on entry, found without a CFG or a
/// liveness analysis. Per block of the layout: the locals it reads before it writes them
/// (`exposed`) and those it writes. Then, from the entry, the locals that some path reaches
/// each block without writing (`unwritten`: every local at the entry; along each edge, what
/// reaches its source less what the source writes, until nothing grows). A local is live on
/// entry exactly when some block reads it before writing it and some path reaches that block
/// without writing it (liveness's equations, solved forwards for the entry alone).
pub(crate) fn live_on_entry(func: &Function, scratch: &mut EntryReads) -> Rc<[Local]> {
    if func.layout.is_empty() {
        return Rc::from([]);
    }
    let w = func.locals.len().div_ceil(64).max(1);
    let nb = func.layout.len();
    let EntryReads {
        position,
        sets,
        work,
        queued,
    } = scratch;
    position.clear();
    position.resize(func.blocks.len(), 0);
    for (k, &b) in func.layout.iter().enumerate() {
        position[b.index()] = k as u32;
    }
    // Each set is `w` words per block, by its position in the layout, then the live set.
    sets.clear();
    sets.resize(3 * nb * w + w, 0);
    let (exposed, rest) = sets.split_at_mut(nb * w);
    let (written, rest) = rest.split_at_mut(nb * w);
    let (unwritten, live) = rest.split_at_mut(nb * w);
    for (k, &b) in func.layout.iter().enumerate() {
        let exposed = &mut exposed[k * w..(k + 1) * w];
        let written = &mut written[k * w..(k + 1) * w];
        let data = &func.blocks[b];
        for &inst in &data.insts {
            let kind = &func.insts[inst].kind;
            kind.for_each_use(|op| {
                if let Operand::Local(l) = op {
                    read(exposed, written, l);
                }
            });
            // (A `setfield`'s struct is among its uses, read before its write here.)
            if let Some(d) = kind.def() {
                written[d.index() / 64] |= 1 << (d.index() % 64);
            }
        }
        if let Some(Operand::Local(l)) = data.terminator.as_ref().and_then(|t| t.used_operand()) {
            read(exposed, written, l);
        }
    }
    unwritten[..w].fill(u64::MAX);
    work.clear();
    work.push(0);
    queued.clear();
    queued.resize(nb, false);
    while let Some(k) = work.pop() {
        queued[k] = false;
        let Some(terminator) = &func.blocks[func.layout[k]].terminator else {
            continue;
        };
        for succ in terminator.successors() {
            let j = position[succ.index()] as usize;
            let mut grew = false;
            for i in 0..w {
                let reached = unwritten[j * w + i] | (unwritten[k * w + i] & !written[k * w + i]);
                grew |= reached != unwritten[j * w + i];
                unwritten[j * w + i] = reached;
            }
            if grew && !queued[j] {
                queued[j] = true;
                work.push(j);
            }
        }
    }
    for k in 0..nb {
        for i in 0..w {
            live[i] |= exposed[k * w + i] & unwritten[k * w + i];
        }
    }
    func.locals
        .keys()
        .filter(|l| live[l.index() / 64] & (1 << (l.index() % 64)) != 0)
        .filter(|l| !func.params.contains(l))
        .collect()
}

/// The working storage of [`live_on_entry`], kept from callee to callee in the pass context's
/// scratch store.
#[derive(Default)]
pub(crate) struct EntryReads {
    /// Each block's position in the layout.
    position: Vec<u32>,
    sets: Vec<u64>,
    work: Vec<usize>,
    queued: Vec<bool>,
}

/// Notes a read of `l` in a block: read before written there when the block has not written
/// it yet.
fn read(exposed: &mut [u64], written: &[u64], l: Local) {
    let (word, bit) = (l.index() / 64, 1 << (l.index() % 64));
    if written[word] & bit == 0 {
        exposed[word] |= bit;
    }
}

#[cfg(test)]
mod tests {
    use super::{live_on_entry, EntryReads};
    use crate::analysis::{Cfg, Liveness};

    /// The walk gives the locals liveness finds live on entry: read before any write (`t`
    /// read by `t = add t, 1`, `s` by a `setfield` and then by `getfield`), but not a local
    /// written first (`u`), nor a parameter; the same for a block that branches to itself (its
    /// live-out is its live-in), and across blocks: a local read in a loop's header before its
    /// body writes it (`i`), written on one arm of a diamond only (`a`), on both (`b`, not
    /// live), or written in the entry before a loop reads it (`n`, not live); a block that
    /// reads a local only after a path that writes it (`c`, not live), and the entry as the
    /// target of a loop (`k`).
    #[test]
    fn entry_reads_are_the_live_in_set_of_the_entry() {
        let src = "struct P { a: i64, b: i64 }\n\
                   fn f(x: i64) -> i64 {\n    var t: i64\n    var u: i64\n    var s: P\n    \
                   var r: i64\nentry:\n    t = add t, 1\n    u = copy x\n    u = add u, t\n    \
                   setfield s.a, u\n    r = getfield s.b\n    r = add r, u\n    ret r\n}\n\
                   fn g(x: i64) -> i64 {\n    var k: i64\n    var c: bool\nentry:\n    \
                   k = add k, x\n    c = slt k, 10\n    brif c, entry, out\nout:\n    ret k\n}\n\
                   fn h(x: i64) {\n    var k: i64\n    var c: bool\nentry:\n    k = add k, x\n    \
                   c = slt k, 10\n    brif c, entry, entry\n}\n\
                   fn m(x: i64) -> i64 {\n    var i: i64\n    var n: i64\n    var a: i64\n    \
                   var b: i64\n    var c: bool\n    var d: bool\n    var y: i64\nentry:\n    \
                   n = copy 10\n    br head\nhead:\n    c = slt i, n\n    brif c, body, done\n\
                   body:\n    i = add i, 1\n    br head\ndone:\n    d = slt x, 0\n    \
                   brif d, left, right\nleft:\n    a = copy 1\n    b = copy 1\n    br join\n\
                   right:\n    b = copy 2\n    br join\njoin:\n    y = add a, b\n    ret y\n}\n\
                   fn w(x: i64) -> i64 {\n    var c: i64\n    var d: bool\nentry:\n    \
                   d = slt x, 0\n    brif d, set, use\nset:\n    c = copy x\n    br use2\n\
                   use:\n    c = copy 1\n    br use2\nuse2:\n    ret c\n}\n";
        let module = poolopt_ir::parse(src).unwrap();
        poolopt_ir::verify(&module).unwrap();
        for func in module.funcs.values() {
            let entry = func.entry().unwrap();
            let cfg = Cfg::compute(func);
            let live = Liveness::compute(func, &cfg);
            let expected: Vec<_> = func
                .locals
                .keys()
                .filter(|&l| !func.params.contains(&l) && live.live_in(entry).contains(l))
                .collect();
            assert_eq!(
                &*live_on_entry(func, &mut EntryReads::default()),
                &expected[..],
                "{}",
                func.name
            );
            let names: Vec<&str> = expected.iter().map(|&l| func.local_name(l)).collect();
            match func.name.as_str() {
                "f" => assert_eq!(names, ["t", "s"]),
                "m" => assert_eq!(names, ["i", "a"]),
                "w" => assert!(names.is_empty(), "{names:?}"),
                _ => assert_eq!(names, ["k"], "{}", func.name),
            }
        }
    }
}
