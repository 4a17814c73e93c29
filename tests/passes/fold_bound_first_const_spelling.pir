; passes: range-check-fold
; entry: main
; args: 1
; expect: value 6
; Bound first with constant-first and `<=` spellings: `n <= i || 0 > i` is `i >= n || i < 0`,
; folded to `i >=u n`. For i = 1 (len 2) the access runs and returns 6.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var c: bool
    var d: bool
    var n: i64
    var x: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    n = len v
    c = sle n, i
    brif c, bad, check_lo
check_lo:
    d = sgt 0, i
    brif d, bad, ok
ok:
    x = get v[i]
    ret x
bad:
    trap "index out of range"
}
