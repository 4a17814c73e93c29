; passes: range-check-fold, bounds-check-elim
; runs: main(1) main(0)
; contains: f |     pop v\n
fn f(v: vec<i64>, p: bool) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, same, same
same:
    brif p, spin, done
spin:
    pop v
    brif p, spin, done
done:
    x = len v
    ret x
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
    var p: bool
entry:
    v = new vec<i64>
    push v, 1
    p = eq k, 0
    r = call f(v, p)
    ret r
}
