; passes: range-check-fold
; entry: main
; args: 3
; expect: trap explicit
; Near miss (issue 14, witness 4): the bound is a local whose only assignment is the negative
; constant -5; `i >=u n` would let i = 3 pass (-5 is huge unsigned) while `i < 0 || i >= n`
; traps. Not folded.
fn main(i: i64) -> i64 {
    var c: bool
    var n: i64
entry:
    n = copy -5
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
