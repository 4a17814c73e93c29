; passes: range-check-fold, bounds-check-elim
; runs: main(-5) main(-1) main(0) main(1) main(2) main(i64::MIN)
; The folded compare dominates the store: its check goes.
; `store` pushes, pops and drops nothing, so the call keeps `len(v) > 1` from the two
; pushes in `main`: the check of `v[1]` after it goes too.
; contains: store |     set.unchecked v[i], x\n
; contains: main |     y = get.unchecked v[1]\n
; stat: bounds-check-elim checks_removed = 2
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
