; passes: range-check-fold
; entry: main
; args: -3, -1
; expect: trap explicit
; Near miss, bound first: the bound `n` is a parameter that may be negative. With n = -1 and
; i = -3 the original traps at `i < 0`; `-3 >=u -1` is false. Not folded, with a remark.
fn main(i: i64, n: i64) -> i64 {
    var c: bool
entry:
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
