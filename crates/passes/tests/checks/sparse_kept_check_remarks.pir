; passes: sparse-bounds-check-elim
; runs: main(3, 20) main(0, 20) main(12, 20) main(3, 2) main(2, 3) main(1, 4) main(-1, 20)
; traps: main(3, 20)
; traps: main(0, 20)
; traps: main(3, 2)
; traps: main(2, 3)
; traps: main(1, 4)
; missed: index check kept: needs `i >= 0` and `i < len(v)`; the sparse prover finds no lower bound for `i`, and `i <= 9` but not `len(v) > 9`
; missed: index check kept: needs `x >= 0` and `x < len(v)`; the sparse prover finds no bound for `x`
; missed: index check kept: needs `len(v) > 3`; the sparse prover finds only `len(v) >= 1`
; missed: index check kept: needs `k < len(v)`; the sparse prover finds `k <= 5` but not `len(v) > 5`
; missed: index check kept: needs `m >= 0`; the sparse prover finds only `m >= -1`
; missed: explicit check `brif c, bad, ok` kept: nothing decides `sge x, 100` here
; missed: pop check kept: needs `len(w) > 0`; the sparse prover finds only `len(w) >= 0`
; applied: index check removed: proved by the sparse prover
; The sparse pass's missed remarks name what a kept check needs, in bounds-check-elim's words,
; and what the prover found short of it: no lower bound for an index that has only an upper
; one, no bound at all for a loaded index, a length known only to be >= 1, an upper bound the
; length is not known to exceed, a lower bound below 0, a compare it does not decide. Each near
; miss traps on a call above (`v` holds 0..j, so `len(v) == j`); the one check proved (`v[i]`
; again, after `i >= 0` and the first `v[i]` did not trap) is removed.
fn main(i: i64, j: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var e: i64
    var k: i64
    var m: i64
    var n: i64
    var x: i64
    var c: bool
entry:
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
    c = sle i, 9
    brif c, low, out
low:
    e = get v[i]
    c = sge i, 0
    brif c, both, out
both:
    n = len v
    x = get v[i]
    e = get v[x]
    e = get v[3]
    k = and j, 5
    e = get v[k]
    m = sub i, 1
    c = slt m, n
    brif c, m_ok, out
m_ok:
    x = get v[m]
    c = sge x, 100
    brif c, bad, ok
bad:
    trap "x at least 100"
ok:
    w = new vec<i64>
    x = pop w
    ret x
out:
    ret -1
}
