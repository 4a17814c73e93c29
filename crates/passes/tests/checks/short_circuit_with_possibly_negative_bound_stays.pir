; passes: range-check-fold
; runs: main(-1) main(0)
; contains: f | hi:\n    c = sge i, n\n
; missed: range check `i < 0 || i >= n` not folded: `n` may be negative
; stat: range-check-fold compares_folded = 0
fn f(i: i64, n: i64) -> i64 {
    var c: bool
entry:
    c = slt i, 0
    brif c, bad, hi
hi:
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
    r = call f(k, -3)
    ret r
}
