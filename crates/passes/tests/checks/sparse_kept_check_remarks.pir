; passes: sparse-bounds-check-elim
; runs: main(3, 20) main(0, 20) main(12, 20) main(3, 2) main(2, 3) main(1, 4) main(-1, 20)
; traps: main(3, 20)
; traps: main(0, 20)
; traps: main(3, 2)
; traps: main(2, 3)
; traps: main(1, 4)
; missed: index check kept: needs `i >= 0` and `i < len(v)`; known: `i <= 9`
; missed: index check kept: `x` was loaded from `v`; nothing bounds it
; missed: index check kept: nothing proves len(v) > 3 here (only len(v) > 0 is known)
; missed: index check kept: needs `k < len(v)`; known: `k >= 0`, `k <= 5`
; missed: index check kept: needs `m >= 0`: `m` may be negative (only `m >= -1`
; missed: explicit check `brif c, bad, ok` kept: `x` was loaded from `v`; nothing bounds it
; missed: pop check kept: only len(v) > 3 is known, and `v` is not known to be `w`
; applied: index check removed: 0 <= i < len(v) holds on every path here (i >= 0 from `e = get v[i]`
; no-remark: sparse prover
; Where the prover and the fact analysis agree, the sparse pass's remarks are
; bounds-check-elim's (the fact analysis runs for them when remarks are on): where an index
; came from, what is known of it, which vec a known length belongs to. Each near miss traps on
; a call above (`v` holds 0..j, so `len(v) == j`); the one check proved (`v[i]` again, after
; `i >= 0` and the first `v[i]` did not trap) is removed. The prover's own words for these
; kept checks (no lower bound for `i`, only `m >= -1`, ...) are the unit test
; `the_provers_own_words_for_kept_checks` in passes/sparse_bounds_check_elim.rs, which reads
; this file.
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
