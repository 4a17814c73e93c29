; passes: range-check-fold
; entry: main
; args: 2
; expect: trap explicit
; `i <= -1` is another spelling of the zero test: `i < 0 || i >= len(v)` folds to one `uge`,
; and i = 2 traps as before.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var c: bool
    var n: i64
    var x: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    c = sle i, -1
    brif c, bad, check_hi
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
