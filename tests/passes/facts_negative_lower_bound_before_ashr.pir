; passes: bounds-check-elim
; entry: main
; args: -5
; expect: trap index_oob
; Near miss: `-5 <= x < 8` is known, but not `x >= 0`, so `d = ashr x, 1` may be negative
; (x = -5 gives -3): the index check stays and traps. (Reading the lower bound -5 as 0 would
; prove `0 <= d <= x < 8`.)
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
    c = sge x, -5
    brif c, low_ok, out
low_ok:
    c = slt x, 8
    brif c, body, out
body:
    d = ashr x, 1
    t = get v[d]
    ret t
out:
    ret -1
}
