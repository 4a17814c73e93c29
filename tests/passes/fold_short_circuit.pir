; passes: range-check-fold
; entry: main
; args: 2
; expect: trap explicit
; `i < 0 || i >= len(v)` as two branches to the same trap block becomes one `uge`. For i = 2 and
; len 2 it traps, as before.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var c: bool
    var n: i64
    var x: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    c = slt i, 0
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
