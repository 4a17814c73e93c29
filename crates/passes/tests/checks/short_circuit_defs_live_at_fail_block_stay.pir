; passes: range-check-fold
; runs: main(-1) main(0) main(1)
; contains: f | hi:\n
; missed: not folded: `n` (assigned in `hi`) is live at `bad`
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
entry:
    n = copy 100
    c = slt i, 0
    brif c, bad, hi
hi:
    n = len v
    c = sge i, n
    brif c, bad, good
good:
    ret 1
bad:
    ret n
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 1
    r = call f(v, k)
    ret r
}
