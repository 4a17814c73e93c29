; passes: range-check-fold
; entry: main
; args: -1
; expect: value 100
; Near miss: the second test's block assigns `n`, which the failure block reads: hoisting that
; assignment onto the `i < 0` path would change what the failure path returns. Not folded.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var c: bool
    var n: i64
entry:
    v = new vec<i64>
    push v, 1
    n = copy 100
    c = slt i, 0
    brif c, fail, check_hi
check_hi:
    n = len v
    c = sge i, n
    brif c, fail, ok
ok:
    ret 0
fail:
    ret n
}
