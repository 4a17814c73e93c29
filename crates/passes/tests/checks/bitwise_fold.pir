; passes: range-check-fold, bounds-check-elim
; runs: main(-1) main(0) main(1) main(i64::MIN)
; g's bound is a parameter: may be negative.
; contains: f |     c3 = uge i, n\n
; contains: f |     x = get.unchecked v[i]\n
; contains: g |     c3 = and c2, c1\n
; applied: range check `i < 0 || i >= n` folded to `i >=u n`
; missed: range check not folded: `n` may be negative
fn f(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c1: bool
    var c2: bool
    var c3: bool
    var x: i64
entry:
    n = len v
    c1 = slt i, 0
    c2 = sge i, n
    c3 = or c1, c2
    brif c3, bad, good
good:
    x = get v[i]
    ret x
bad:
    ret -1
}
fn g(i: i64, n: i64) -> i64 {
    var c1: bool
    var c2: bool
    var c3: bool
    var r: i64
entry:
    c1 = sge i, 0
    c2 = slt i, n
    c3 = and c2, c1
    r = zext c3
    ret r
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
    var s: i64
entry:
    v = new vec<i64>
    push v, 4
    r = call f(v, k)
    s = call g(k, 1)
    r = add r, s
    ret r
}
