; passes: branch-threading
; entry: main
; args: 10
; expect: trap index_oob
; The smallest function branch-threading works on: three blocks. `entry` heads a loop that
; leaves only by the failing read (the vec holds three elements, so `get v[i]` traps when `i`
; reaches 3); `join` copies the loop test's result and branches on it, from `entry` and from
; `reset` (listed first, so that `join` comes last in the reverse post-order and is no loop
; header). On the edge `entry -> join` the test is known false, so that edge goes straight back
; to `entry` through a copy of the join's instruction; so does the edge from `reset`, which
; sets `t` to 0, and `join`, left without a way in, is removed.
fn main(n: i64) -> i64 {
    var v: vec<i64>
    var i: i64
    var x: i64
    var t: bool
    var r: bool
entry:
    v = new vec<i64>
    push v, 1
    push v, 2
    push v, 3
    x = get v[i]
    i = add i, 1
    t = sge i, n
    brif t, reset, join
reset:
    t = copy 0
    br join
join:
    r = copy t
    brif t, reset, entry
}
