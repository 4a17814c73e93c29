; passes: range-check-fold
; entry: main
; args: 3
; expect: trap explicit
; Near miss (issue 14, witness 4), narrow type: the i16 bound is the constant -5 (narrow locals
; carry no facts, so the pass reads the bound's assignments): not folded; i = 3 traps.
fn main(a: i64) -> i64 {
    var c: bool
    var i: i16
    var n: i16
entry:
    i = trunc a
    n = copy -5
    c = slt i, 0
    brif c, bad, check_hi
check_hi:
    c = sge i, n
    brif c, bad, ok
ok:
    ret a
bad:
    trap "index out of range"
}
