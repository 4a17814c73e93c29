; passes: range-check-fold
; entry: main
; args: 3, -5
; expect: trap explicit
; Near miss: the bound `n` is a parameter and may be negative; `i >=u n` would let i = 3 pass
; for n = -5, while `i < 0 || i >= n` traps. Not folded.
fn main(i: i64, n: i64) -> i64 {
    var c: bool
entry:
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
