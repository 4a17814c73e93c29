; passes: bounds-check-elim
; entry: main
; args: -3
; expect: trap index_oob
; Near miss: `-3 <= x <= 3` is known, but not `x >= 0`, so `d = mul x, 2` may be negative
; (x = -3 gives -6): the index check stays and traps. (Reading the lower bound -3 as 0 would
; prove `0 <= d <= 6 < 8`.)
fn main(x: i64) -> i64 {
    var v: vec<i64>
    var d: i64
    var c: bool
    var t: i64
entry:
    v = new vec<i64>
    push v, 10
    push v, 11
    push v, 12
    push v, 13
    push v, 14
    push v, 15
    push v, 16
    push v, 17
    c = sge x, -3
    brif c, low_ok, out
low_ok:
    c = sle x, 3
    brif c, body, out
body:
    d = mul x, 2
    t = get v[d]
    ret t
out:
    ret -1
}
