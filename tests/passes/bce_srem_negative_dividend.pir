; passes: bounds-check-elim
; entry: main
; args: -1000
; expect: trap index_oob
; Near miss: the dividend may be negative (a parameter), so `x % len(v)` may be negative; the
; check stays and traps for x = -1000 (-333 % 3 = 0, but -1000 % 3 = -1).
fn main(x: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var i: i64
    var y: i64
entry:
    v = new vec<i64>
    push v, 11
    push v, 12
    push v, 13
    n = len v
    i = srem x, n
    y = get v[i]
    ret y
}
