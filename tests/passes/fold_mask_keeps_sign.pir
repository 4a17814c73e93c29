; passes: range-check-fold
; entry: main
; args: -5, -1
; expect: trap explicit
; Near miss: the mask `-2` keeps the sign bit, so `n = x & -2` may be negative (x = -1 gives
; n = -2). With i = -5 the original test traps (`i < 0`), but `-5 >=u -2` is false: folding
; would let it through. Not folded, with a remark.
fn main(i: i64, x: i64) -> i64 {
    var c: bool
    var n: i64
entry:
    n = and x, -2
    c = sge i, n
    brif c, bad, check_lo
check_lo:
    c = slt i, 0
    brif c, bad, ok
ok:
    ret i
bad:
    trap "index out of range"
}
