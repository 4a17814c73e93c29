; passes: branch-threading, bounds-check-elim
; entry: main
; args: 4
; expect: trap index_oob
; The join branches on `r`, a copy of `u`, not on `t`, the local `entry` tested: what
; decides each edge is `u`'s value on it. On the edge from `entry`, `u` was set to true (though
; `t` is false there); on the edge from `a`, `u` is a copy of `t`, which is true on `entry`'s
; edge into `a`. Both edges go to `read` (threading on `t` would have sent the first to `out`),
; the join goes, and the read traps as at O0.
fn main(i: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var t: bool
    var u: bool
    var r: bool
    var e: i64
entry:
    v = new vec<i64>
    push v, 5
    n = len v
    t = slt i, n
    u = copy true
    brif t, a, join
a:
    u = copy t
    br join
join:
    r = copy u
    brif r, read, out
read:
    e = get v[i]
    ret e
out:
    ret -1
}
