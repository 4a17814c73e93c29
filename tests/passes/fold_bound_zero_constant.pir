; passes: range-check-fold
; entry: main
; args: 0
; expect: trap explicit
; The bound is the constant 0 (an empty range): `i < 0 || i >= 0` always fails, and folding to
; `i >=u 0` keeps that. i = 0 traps.
fn main(i: i64) -> i64 {
    var c: bool
    var n: i64
entry:
    n = copy 0
    c = slt i, 0
    brif c, bad, check_hi
check_hi:
    c = sge i, n
    brif c, bad, ok
ok:
    ret i
bad:
    trap "index out of range"
}
