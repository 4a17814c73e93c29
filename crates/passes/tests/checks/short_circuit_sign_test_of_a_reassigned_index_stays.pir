; The sign test reads `i` before `i` is reassigned in the same block: the upper test reads the
; new `i`, so `i >=u n` would not test the `i` that was found negative (main(-1) must take `bad`
; and the fold would take `good`). No fold, with or without the fact analysis.
; passes: range-check-fold
; runs: main(-1) main(0) main(1) main(5)
; contains: f |     c = slt i, 0\n    i = copy j\n    brif c, bad, hi\n
; contains: f | hi:\n    n = len v\n    c = sge i, n\n
; stat: range-check-fold compares_folded = 0
; returns: main(-1)
fn f(i: i64, j: i64) -> i64 {
    var c: bool
    var n: i64
    var v: vec<i64>
entry:
    v = new vec<i64>
    push v, 7
    c = slt i, 0
    i = copy j
    brif c, bad, hi
hi:
    n = len v
    c = sge i, n
    brif c, bad, good
good:
    ret 1
bad:
    ret 0
}
fn main(k: i64) -> i64 {
    var r: i64
entry:
    r = call f(k, 0)
    ret r
}
