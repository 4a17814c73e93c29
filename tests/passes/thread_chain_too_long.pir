; passes: branch-threading
; entry: main
; args: 3, 7
; expect: value 1
; Near misses of thread_chain_of_blocks.pir, each one step past a bound, so nothing is
; threaded: `join1` starts a chain of six blocks (one more than the join and MAX_CHAIN = 4
; after it); `join2` holds nine copies (one more than MAX_COPIES); `join3`'s next block
; has a second predecessor (`side`, on whose edge `t` is not known), so it is not part of a
; chain; and `join4` branches to
; the same block both ways.
fn main(i: i64, x: i64) -> i64 {
    var t: bool
    var a: bool
    var b: bool
    var c: bool
    var d: bool
    var e: bool
entry:
    t = slt i, x
    brif t, and1, join1
and1:
    t = sgt i, 0
    br join1
join1:
    a = copy t
    br k2
k2:
    b = copy a
    br k3
k3:
    c = copy b
    br k4
k4:
    d = copy c
    br k5
k5:
    e = copy d
    br k6
k6:
    brif e, next2, out
next2:
    t = slt i, x
    brif t, and2, join2
and2:
    t = sgt i, 0
    br join2
join2:
    a = copy t
    b = copy a
    c = copy b
    d = copy c
    e = copy d
    a = copy e
    b = copy a
    c = copy b
    d = copy c
    brif d, next3, out
next3:
    t = slt i, x
    brif t, and3, join3
and3:
    t = sgt i, 0
    brif t, side, join3
side:
    t = sgt x, 5
    br m2
join3:
    a = copy t
    br m2
m2:
    brif t, next4, out
next4:
    t = slt i, x
    brif t, and4, join4
and4:
    t = sgt i, 0
    br join4
join4:
    a = copy t
    brif t, then, then
then:
    ret 1
out:
    ret 2
}
