; passes: bounds-check-elim
; runs: main(0) main(-1) main(3)
; contains: f |     x = get v[i]\n
; missed: index check kept: needs `i >= 0`: `i` may be negative (only `i < len(v)` is known)
; traps: main(-1)
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = slt i, n
    brif c, go, out
go:
    x = get v[i]
    ret x
out:
    ret -1
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    r = call f(v, k)
    ret r
}
