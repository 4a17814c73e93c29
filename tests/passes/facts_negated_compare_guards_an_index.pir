; passes: bounds-check-elim
; entry: main
; args: 3
; expect: value 13
; `d = not c` holds the negated compare of `c` (`i >= n` for `c = slt i, n`): on the else
; edge of `brif d` the compare `i < n` holds, so with `i >= 0` from the first guard the index
; check goes.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var d: bool
    var t: i64
entry:
    v = new vec<i64>
    push v, 10
    push v, 11
    push v, 12
    push v, 13
    push v, 14
    c = sge i, 0
    brif c, low_ok, out
low_ok:
    n = len v
    c = slt i, n
    d = not c
    brif d, out, body
body:
    t = get v[i]
    ret t
out:
    ret -1
}
