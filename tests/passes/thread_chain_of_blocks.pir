; passes: branch-threading
; entry: main
; args: 3, 7
; expect: value 1
; A chain of five blocks, the most branch-threading follows (the join and MAX_CHAIN = 4
; blocks after it, each the only successor of the one before and with it as its only
; predecessor), with eight copies in all (MAX_COPIES), the last block branching on the
; join's incoming `t`: on the edge from `entry`, `t` is false, so that edge goes to a new
; block with the eight copies and `br no`. The edge from `and0` stays.
fn main(i: i64, x: i64) -> i64 {
    var t: bool
    var a: bool
    var b: bool
    var c: bool
    var d: bool
    var r: i64
    var s: i64
    var u: i64
    var w: i64
entry:
    t = slt i, x
    brif t, and0, join
and0:
    t = sgt i, 0
    br join
join:
    a = copy t
    r = copy i
    br j2
j2:
    b = copy a
    s = copy r
    br j3
j3:
    c = copy b
    u = copy s
    br j4
j4:
    w = copy u
    br j5
j5:
    d = copy c
    brif d, then, no
then:
    ret 1
no:
    ret w
}
