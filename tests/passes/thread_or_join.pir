; passes: branch-threading, bounds-check-elim
; entry: main
; args: 3
; expect: value -1
; `if i < 0 || i >= len(v) { return -1 }`, with the `||` join: the edge on which the first
; test held (`i < 0`) is known true at the join and goes straight to the early return; the
; edge from the second test keeps the join. `v[i]` after it is in range on every path left
; (i >= 0 from the first test's false edge, i < len from the second's).
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var t: bool
    var e: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    push v, 7
    t = slt i, 0
    brif t, join, test
test:
    n = len v
    t = sge i, n
    br join
join:
    brif t, bad, good
bad:
    ret -1
good:
    e = get v[i]
    ret e
}
