; passes: value-numbering, bounds-check-elim
; entry: main
; args: 1
; expect: value 7
; The same index expression computed twice into two temporaries (`t1 = add i, 1` checked
; against the length, `t2 = add 1, i` used for the access): `t2` becomes `copy t1`, so the facts
; `0 <= t1 < len(v)` from the branches reach the access and its check goes.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var t1: i64
    var t2: i64
    var c: bool
    var d: bool
    var x: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    push v, 7
    n = len v
    c = sge i, 0
    brif c, nonneg, bad
nonneg:
    c = slt i, n
    brif c, inside, bad
inside:
    t1 = add i, 1
    d = slt t1, n
    brif d, ok, bad
ok:
    t2 = add 1, i
    x = get v[t2]
    ret x
bad:
    ret -1
}
