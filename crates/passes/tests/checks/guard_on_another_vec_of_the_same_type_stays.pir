; passes: bounds-check-elim
; runs: main(3)
; contains: f |     x = pop b\n
; missed: pop check kept: only len(a) > 0 is known, and `a` is not known to be `b`
; traps: main(3)
fn f(a: vec<i64>, b: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len a
    c = sgt n, 0
    brif c, have, none
have:
    x = pop b
    ret x
none:
    ret -1
}
fn main(k: i64) -> i64 {
    var a: vec<i64>
    var b: vec<i64>
    var r: i64
entry:
    a = new vec<i64>
    b = new vec<i64>
    push a, k
    r = call f(a, b)
    ret r
}
