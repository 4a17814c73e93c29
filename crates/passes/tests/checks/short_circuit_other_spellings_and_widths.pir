; passes: range-check-fold
; runs: main(-1) main(0) main(9) main(10) main(-2147483648)
; contains: f |     d = ugt m, i\n    brif d, good, bad\n
; applied: range check `i >= 0 && i < m` folded to `i <u m`
fn f(i: i32, n: i32) -> i64 {
    var c: bool
    var d: bool
    var m: i32
entry:
    m = copy 10
    c = sle 0, i
    brif c, hi, bad
hi:
    d = sgt m, i
    brif d, good, bad
good:
    ret 1
bad:
    ret 0
}
fn main(k: i64) -> i64 {
    var r: i64
    var i: i32
entry:
    i = trunc k
    r = call f(i, 3)
    ret r
}
