; passes: bounds-check-elim
; runs: main(0) main(4294967296)
; contains: f |     x = get v[i]\n
; traps: main(4294967296)
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var n32: i32
    var i32v: i32
    var c: bool
    var x: i64
entry:
    n = len v
    n32 = trunc n
    i32v = trunc i
    c = ult i32v, n32
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
