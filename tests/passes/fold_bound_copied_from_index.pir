; passes: range-check-fold
; entry: main
; args: -1
; expect: trap explicit
; Near miss of the zero-first fold (found by the differential test, seed 904176601): the
; upper test's bound is assigned from the index in the second block (`n = copy ix`), so
; `n >= 0` holds there only because the first test failed. Folded, `ix >u n` would compare
; `ix` with itself and never fail: the fold must judge `n` without the first test's edge, and
; keeps both tests. `ix = -1` traps at the first one.
fn main(x: i64) -> i64 {
    var ix: i64
    var n: i64
    var c0: bool
    var c1: bool
entry:
    ix = copy x
    c0 = slt ix, 0
    brif c0, fail, upper
upper:
    n = copy ix
    c1 = sgt ix, n
    brif c1, fail, ok
fail:
    trap "index out of range"
ok:
    ret ix
}
