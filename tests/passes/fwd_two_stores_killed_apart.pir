; passes: store-load-forward
; entry: main
; args: 1, 2, 3, 4, 5
; expect: value 15
; Stores killed by different instructions (their values reassigned one after the other):
; each later get's remark names its own store's cause. Killing one store must not drop the
; record of another: of another index (`v[0]`, `v[1]`), of another vec at the same index
; (`w[0]`, a vec of another type, so its `set` does not kill `v[0]`'s store), or of another
; field of the same element (`s[0].a`, `s[0].b`).
struct P { a: i64, b: i64 }

fn main(a: i64, b: i64, c: i64, d: i64, e: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i32>
    var s: vec<P>
    var p: P
    var c32: i32
    var y: i64
    var z: i64
    var u: i32
    var f: i64
    var g: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    push v, 6
    w = new vec<i32>
    push w, 7
    s = new vec<P>
    p = make P(8, 9)
    push s, p
    c32 = trunc c
    set v[0], a
    set v[1], b
    set w[0], c32
    set s[0].a, d
    set s[0].b, e
    a = add a, 100
    b = add b, 100
    c32 = add c32, 100
    d = add d, 100
    e = add e, 100
    y = get v[0]
    z = get v[1]
    u = get w[0]
    f = get s[0].a
    g = get s[0].b
    r = add y, z
    c = sext u
    r = add r, c
    r = add r, f
    r = add r, g
    ret r
}
