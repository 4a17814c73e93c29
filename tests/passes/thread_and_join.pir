; passes: branch-threading, bounds-check-elim
; entry: main
; args: 2, 7
; expect: value 7
; `i < len(v) && v[i] == x`, lowered as a front end does: the join copies the last test's
; result and branches on it again. On the edge from `entry` the join's condition is known
; false (the first test failed), so that edge goes straight to `no`; `then` is then reached
; only through `and0`, after `i < len(v)` and the successful `get v[i]`, and the second read
; of `v[i]` loses its check.
fn main(i: i64, x: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var t: bool
    var r: bool
    var e: i64
    var ok: bool
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    push v, 7
    ok = sge i, 0
    brif ok, test, no
test:
    n = len v
    t = slt i, n
    brif t, and0, join
and0:
    e = get v[i]
    t = eq e, x
    br join
join:
    r = copy t
    brif t, then, no
then:
    e = get v[i]
    ret e
no:
    ret -1
}
