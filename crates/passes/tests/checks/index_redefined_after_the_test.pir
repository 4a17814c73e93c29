; passes: bounds-check-elim
; runs: main(0) main(-1)
; `i + 1` is non-negative (i < len(v) rules out overflow) but may equal len(v).
; contains: f |     x = get v[i]\n
; missed: index check kept: needs `i < len(v)`; known: `i >= 1`, `i <= len(v)`; it held, but `i = add i, 1`
; traps: main(0)
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = uge i, n
    brif c, out, go
go:
    i = add i, 1
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
