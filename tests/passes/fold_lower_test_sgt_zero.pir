; passes: range-check-fold
; entry: main
; args: 0
; expect: trap explicit
; Near miss (issue 14, witness 3): the lower test is `i > 0`, not a test against 0 that
; `i >=u n` could replace: i = 0 must trap, and the fold would let it through. Not folded.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var c: bool
    var n: i64
    var x: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    c = sgt i, 0
    brif c, check_hi, bad
check_hi:
    n = len v
    c = sge i, n
    brif c, bad, ok
ok:
    x = get v[i]
    ret x
bad:
    trap "index out of range"
}
