; passes: bounds-check-elim
; entry: main
; args: 1000
; expect: value 11
; `(r / k) % len(v)` with `r >= 0` (masked) and `k > 0`: signed division and remainder of
; non-negative operands stay in `[0, len(v))`, so the element check goes.
fn main(x: i64) -> i64 {
    var v: vec<i64>
    var r: i64
    var q: i64
    var n: i64
    var i: i64
    var y: i64
entry:
    v = new vec<i64>
    push v, 11
    push v, 12
    push v, 13
    r = and x, 9223372036854775807
    q = sdiv r, 3
    n = len v
    i = srem q, n
    y = get v[i]
    ret y
}
