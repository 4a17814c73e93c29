; passes: bounds-check-elim
; runs: main(0) main(9)
; The body pops v after the test: the access right after the pop must keep its check.
; The pop itself goes: 0 <= k < len(v) gives len(v) > 0.
; contains: f |     x = get v[k]\n
; contains: f |     pop.unchecked v\n
; missed: index check kept: needs `k < len(v)`; known: `k >= 0`, `k <= len(v)`; it held, but `pop v` (line 23) may change the length
; traps: main(0)
fn f(v: vec<i64>) -> i64 {
    var k: i64
    var n: i64
    var c: bool
    var x: i64
entry:
    k = copy 0
    x = copy 0
    br head
head:
    n = len v
    c = slt k, n
    brif c, body, exit
body:
    pop v
    x = get v[k]
    k = add k, 1
    br head
exit:
    ret x
}
fn main(m: i64) -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, m
    r = call f(v)
    ret r
}
