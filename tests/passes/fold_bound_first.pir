; passes: range-check-fold
; entry: main
; args: -1
; expect: trap explicit
; Bound first: `i >= n || i < 0` as two branches to the same trap block (the order a front end
; emits for `if i >= len(v) || i < 0`) becomes one `uge`; the block with the sign test is
; skipped. For i = -1 the folded `-1 >=u 2` is true, so it traps as before.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var c: bool
    var n: i64
    var x: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    n = len v
    c = sge i, n
    brif c, bad, check_lo
check_lo:
    c = slt i, 0
    brif c, bad, ok
ok:
    x = get v[i]
    ret x
bad:
    trap "index out of range"
}
