; passes: branch-threading, bounds-check-elim
; entry: main
; args: 5
; expect: trap index_oob
; Near miss: the join computes its condition (`t = xor t, true`), it does not only copy it.
; Not a chain of copies, so nothing is threaded: on the edge from `entry` `t` is false but
; the join's branch sees true and goes to the read, which traps (5 is out of range). Threading
; on `t`'s value at the edge would have returned -1.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var t: bool
    var e: i64
entry:
    v = new vec<i64>
    push v, 5
    n = len v
    t = slt i, n
    brif t, a, join
a:
    t = copy false
    br join
join:
    t = xor t, true
    brif t, read, out
read:
    e = get v[i]
    ret e
out:
    ret -1
}
