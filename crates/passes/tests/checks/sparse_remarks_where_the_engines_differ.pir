; passes: sparse-bounds-check-elim
; runs: main(3, 20) main(-1, 20) main(3, 0)
; traps: main(3, 20)
; traps: main(-1, 20)
; traps: main(3, 0)
; missed: pop check kept: only len(u) > 0 is known, and `u` is not known to be `z`
; missed: index check kept: needs `m >= 0`; the sparse prover finds only `m >= -1`; the fact analysis proves it (`--passes bounds-check-elim`)
; missed: pop check kept: needs `len(w) > 0`; the sparse prover finds only `len(w) >= 0`; the fact analysis proves it (`--passes bounds-check-elim`)
; applied: index check removed: 0 <= k < len(u) proved by the sparse prover
; applied: explicit check `brif d, big, small` removed: the sparse prover decides `sge k, 1` here
; contains: main |     m = get.unchecked u[k]
; contains: main |     x = get v[m]
; stat: sparse-bounds-check-elim checks_removed = 1
; stat: sparse-bounds-check-elim explicit_checks_removed = 1
; Where only one engine proves a check, the remark says so. `pop z` of a new vec always traps;
; after it the fact analysis's facts contradict each other and prove `m >= 0` and `len(w) >
; 0` (the code never runs), which the prover does not: those checks stay (the decisions are
; the prover's alone) and their remarks say what the prover found and that
; `bounds-check-elim` proves them. `k` is never assigned, so it is 0: the prover proves `u[k]`
; (`u` holds one element) and decides `k >= 1` false; the fact analysis, which does not start
; locals at zero, keeps both, so the remarks give the prover's words. The pop of `z` is kept by
; both and worded as bounds-check-elim words it (only `u`'s length is known).
fn main(i: i64, j: i64) -> i64 {
    var u: vec<i64>
    var v: vec<i64>
    var w: vec<i64>
    var z: vec<i64>
    var e: i64
    var k: i64
    var m: i64
    var n: i64
    var x: i64
    var c: bool
    var d: bool
entry:
    u = new vec<i64>
    push u, j
    d = sge k, 1
    brif d, big, small
big:
    trap "k at least 1"
small:
    m = get u[k]
    v = new vec<i64>
    n = copy 0
    br fill
fill:
    c = slt n, j
    brif c, push, filled
push:
    push v, n
    n = add n, 1
    br fill
filled:
    z = new vec<i64>
    e = pop z
    c = sge i, 0
    brif c, both, out
both:
    n = len v
    m = sub i, 1
    c = slt m, n
    brif c, m_ok, out
m_ok:
    x = get v[m]
    w = new vec<i64>
    x = pop w
    ret x
out:
    ret -1
}
