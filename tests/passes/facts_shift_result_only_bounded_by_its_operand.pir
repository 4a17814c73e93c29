; passes: bounds-check-elim
; entry: main
; args: 100
; expect: trap index_oob
; Near miss: `0 <= x <= 100`, so `d = ashr x, 1` is in `0..=x`, not below 8: the index check
; on a vec of 8 stays and traps at x = 100 (d = 50). (An upper bound of `d` taken as a constant
; below 8 instead of x's would prove it.)
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
    c = sge x, 0
    brif c, low_ok, out
low_ok:
    c = sle x, 100
    brif c, body, out
body:
    d = ashr x, 1
    t = get v[d]
    ret t
out:
    ret -1
}
