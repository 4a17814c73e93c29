; passes: temp-elision
; entry: main
; expect: value 15
; Near miss: the temporary `t` is read twice (two copies) and must stay; `w` copies `u`, and
; `u` is written before `w` is read, so `w` must stay too. Only `b`, a copy of `t` read once
; while `t` is unchanged, may be replaced by `t`.
struct P { x: i32, y: i32 }

fn main() -> i64 {
    var v: vec<P>
    var t: P
    var a: P
    var b: P
    var u: P
    var w: P
    var ax: i32
    var bx: i32
    var wx: i32
    var r: i64
    var q: i64
entry:
    v = new vec<P>
    u = make P(5, 6)
    push v, u
    t = get v[0]
    a = copy t
    b = copy t
    setfield a.x, 1
    w = copy u
    setfield u.x, 9
    push v, w
    ax = getfield a.x
    bx = getfield b.x
    wx = getfield w.x
    r = sext ax
    q = sext bx
    r = add r, q
    q = sext wx
    r = add r, q
    q = len v
    r = add r, q
    r = add r, 2
    ret r
}
