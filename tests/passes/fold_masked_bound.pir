; passes: range-check-fold
; entry: main
; args: 5, -1
; expect: value 5
; A bound made non-negative by masking: `n = x & 0x7fffffffffffffff` is `>= 0` for every `x`, so
; `i < 0 || i >= n` folds to `i >=u n`. For x = -1, n = i64::MAX and i = 5 is in range.
fn main(i: i64, x: i64) -> i64 {
    var c: bool
    var n: i64
entry:
    n = and x, 0x7fffffffffffffff
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
