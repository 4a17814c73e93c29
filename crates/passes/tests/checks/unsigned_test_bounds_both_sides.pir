; passes: bounds-check-elim
; runs: main(0) main(-1) main(3)
; contains: f |     x = get.unchecked v[i]\n
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = uge i, n
    brif c, out, go
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
