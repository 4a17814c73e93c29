; passes: bounds-check-elim
; runs: main(0)
; contains: f |     x = pop v\n
; missed: pop check kept: nothing proves len(v) > 0 here
; stat: bounds-check-elim checks_removed = 0
fn f(v: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sge n, 0
    brif c, go, out
go:
    x = pop v
    ret x
out:
    ret -1
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    r = call f(v)
    ret r
}
