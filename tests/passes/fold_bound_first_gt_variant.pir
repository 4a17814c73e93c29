; passes: range-check-fold
; entry: main
; args: -3, 12
; expect: trap explicit
; The `>` variant, bound first: `i > m || i < 0` with `m = x & 7` (non-negative: the mask
; clears the sign bit) folds to `i >u m`. For i = -3 it traps, as before.
fn main(i: i64, x: i64) -> i64 {
    var c: bool
    var m: i64
entry:
    m = and x, 7
    c = sgt i, m
    brif c, bad, check_lo
check_lo:
    c = slt i, 0
    brif c, bad, ok
ok:
    ret i
bad:
    trap "index out of range"
}
