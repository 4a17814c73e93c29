; passes: range-check-fold
; entry: main
; args: 5, -1
; expect: value 5
; A bound whose non-negativity only the facts know: `m = x & 0x7fffffff` is `>= 0`, and
; `n = copy m` carries that over (`n == m`). `n` is neither a length nor assigned only
; non-negative constants or masks, so the fold rests on the fact `n >= 0` alone:
; `i < 0 || i >= n` folds to `i >=u n`. For x = -1, n = 0x7fffffff and i = 5 is in range.
fn main(i: i64, x: i64) -> i64 {
    var c: bool
    var m: i64
    var n: i64
entry:
    m = and x, 0x7fffffff
    n = copy m
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
