; passes: range-check-fold
; runs: main(-11) main(-1) main(0) main(1)
; contains: f | test:\n    c = slt i, 0\n    n = len v\n    c = uge i, n\n
; contains: f | hi:\n    n = len v\n    c = sge i, n\n
; stat: range-check-fold compares_folded = 1
fn f(v: vec<i64>, i: i64, p: bool) -> i64 {
    var n: i64
    var c: bool
entry:
    brif p, test, hi
test:
    c = slt i, 0
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
    var v: vec<i64>
    var r: i64
    var p: bool
entry:
    v = new vec<i64>
    push v, 1
    p = sgt k, -10
    r = call f(v, k, p)
    ret r
}
