; passes: bounds-check-elim
; entry: main
; args: 8
; expect: value 13
; A bit count is never negative: with `i = ctz a` (0..=64) the test `i < len(v)` alone bounds
; the index, so the element check goes. By hand: ctz 8 = 3, v = [10, 11, 12, 13], v[3] = 13.
fn main(a: i64) -> i64 {
    var v: vec<i64>
    var i: i64
    var n: i64
    var c: bool
    var x: i64
entry:
    v = new vec<i64>
    push v, 10
    push v, 11
    push v, 12
    push v, 13
    i = ctz a
    n = len v
    c = slt i, n
    brif c, read, out
read:
    x = get v[i]
    ret x
out:
    ret -2
}
