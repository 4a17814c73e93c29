; passes: range-check-fold
; runs: main(-5) main(-1) main(0) main(1) main(2) main(i64::MIN)
; contains: store | entry:\n    c = slt i, 0\n    n = len v\n    c = uge i, n\n    brif c, bad, ok\n
; lacks: store | hi:
; applied: range check `i < 0 || i >= n` folded to `i >=u n`
; stat: range-check-fold compares_folded = 1
fn store(v: vec<i64>, i: i64, x: i64) -> i64 {
    var n: i64
    var c: bool
entry:
    c = slt i, 0
    brif c, bad, hi
hi:
    n = len v
    c = sge i, n
    brif c, bad, ok
ok:
    set v[i], x
    ret i
bad:
    ret -1
}
fn main(k: i64) -> i64 {
    var v: vec<i64>
    var r: i64
    var y: i64
entry:
    v = new vec<i64>
    push v, 1
    push v, 2
    r = call store(v, k, 9)
    y = get v[1]
    r = add r, y
    ret r
}
