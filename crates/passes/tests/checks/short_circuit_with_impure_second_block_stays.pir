; passes: range-check-fold
; runs: main(-1) main(0) main(1)
; contains: f | hi:\n
; missed: not folded: `hi` has an instruction with side effects (`push v, 3`)
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
entry:
    c = slt i, 0
    brif c, bad, hi
hi:
    push v, 3
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
entry:
    v = new vec<i64>
    r = call f(v, k)
    ret r
}
