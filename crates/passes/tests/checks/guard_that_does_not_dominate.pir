; passes: bounds-check-elim
; runs: main(0) main(1)
; contains: f |     x = pop v\n
; missed: pop check kept: nothing proves len(v) > 0 here; it holds on the path from `guarded` but not on the path from `entry`
; traps: main(1)
fn f(v: vec<i64>, p: bool) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    brif p, guarded, join
guarded:
    n = len v
    c = sgt n, 0
    brif c, join, out
join:
    x = pop v
    ret x
out:
    ret -1
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var p: bool
    var r: i64
entry:
    v = new vec<i64>
    p = eq k, 0
    r = call f(v, p)
    ret r
}
