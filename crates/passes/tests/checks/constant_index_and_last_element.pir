; passes: bounds-check-elim
; runs: main(7)
; contains: f |     x = get.unchecked v[1]\n
; contains: f |     y = get v[2]\n
; contains: f |     y = get.unchecked v[j]\n
; missed: index check kept: nothing proves len(v) > 2 here
fn f(v: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
    var y: i64
    var j: i64
entry:
    n = len v
    c = sgt n, 1
    brif c, go, out
go:
    x = get v[1]
    y = get v[2]
    j = sub n, 1
    y = get v[j]
    x = add x, y
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
    push v, 6
    push v, k
    r = call f(v)
    ret r
}
