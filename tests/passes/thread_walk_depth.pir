; passes: branch-threading
; entry: main
; args: 3, 7
; expect: value 1111
; The backward walk that decides a condition on an edge takes at most MAX_DEPTH = 6 steps,
; each a block passed through (no write of the local, one predecessor) or a copy followed.
; `a_join`: the edge from `a5` is decided at `entry`'s branch, five blocks back: threaded.
; `b_join`: six blocks back: not. `c_join`: `t` comes from a constant through five copies
; in `c_pre`: threaded. `d_join`: six copies: not.
fn main(i: i64, x: i64) -> i64 {
    var t: bool
    var r: bool
    var a1: bool
    var a2: bool
    var a3: bool
    var a4: bool
    var a5: bool
    var a6: bool
    var acc: i64
entry:
    t = slt i, x
    brif t, a_and, a1
a1:
    br a2
a2:
    br a3
a3:
    br a4
a4:
    br a5
a5:
    br a_join
a_and:
    t = sgt i, 0
    br a_join
a_join:
    r = copy t
    brif t, a_yes, b_start
a_yes:
    acc = add acc, 1
    br b_start
b_start:
    t = slt i, x
    brif t, b_and, b1
b1:
    br b2
b2:
    br b3
b3:
    br b4
b4:
    br b5
b5:
    br b6
b6:
    br b_join
b_and:
    t = sgt i, 0
    br b_join
b_join:
    r = copy t
    brif t, b_yes, c_start
b_yes:
    acc = add acc, 10
    br c_start
c_start:
    t = slt i, x
    brif t, c_and, c_pre
c_pre:
    a1 = copy 0
    a2 = copy a1
    a3 = copy a2
    a4 = copy a3
    a5 = copy a4
    t = copy a5
    br c_join
c_and:
    t = sgt i, 0
    br c_join
c_join:
    r = copy t
    brif t, c_yes, d_start
c_yes:
    acc = add acc, 100
    br d_start
d_start:
    t = slt i, x
    brif t, d_and, d_pre
d_pre:
    a1 = copy 0
    a2 = copy a1
    a3 = copy a2
    a4 = copy a3
    a5 = copy a4
    a6 = copy a5
    t = copy a6
    br d_join
d_and:
    t = sgt i, 0
    br d_join
d_join:
    r = copy t
    brif t, d_yes, done
d_yes:
    acc = add acc, 1000
    br done
done:
    ret acc
}
