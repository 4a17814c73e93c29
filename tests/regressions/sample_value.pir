; generated program (seeded input 0 of tests/differential.rs); O2 removes some checks
; entry: main
; args: 7,4
; expect: value -6990031894649706411
struct S8 { a: i32, b: i32 }

struct P { a: i8, b: i16, c: bool }

struct Big { x: i8, y: i64, z: i16, f: bool, w: i32 }

fn main(x0: i64, x1: i64) -> i64 {
    var va: vec<i64>
    var vb: vec<i64>
    var vs: vec<S8>
    var vt: vec<S8>
    var vp: vec<P>
    var vg: vec<Big>
    var x2: i64
    var x3: i64
    var ix: i64
    var n: i64
    var t: i64
    var acc: i64
    var y0: i32
    var y1: i32
    var h: i16
    var z: i8
    var c0: bool
    var c1: bool
    var c2: bool
    var s: S8
    var s2: S8
    var ts: S8
    var p: P
    var tp: P
    var g: Big
    var tg: Big
    var k0: i64
    var k1: i64
entry1:
    va = new vec<i64>
    push va, 6
    vb = new vec<i64>
    push vb, 2
    vs = new vec<S8>
    vt = new vec<S8>
    vp = new vec<P>
    p = make P(4, 5, 0)
    push vp, p
    vg = new vec<Big>
    g = make Big(-1, 4, 6, 0, 4)
    push vg, g
    g = make Big(6, 1, 5, 0, 3)
    push vg, g
    ix = copy x0
    n = len vs
    c0 = sge n, 4
    brif c0, inb2, join3
inb2:
    s = make S8(y1, -128)
    push vs, s
    s = get vt[ix]
    y1 = getfield s.b
    t = sext y1
    acc = mul acc, 31
    acc = add acc, t
    br join3
join3:
    ix = urem x2, 6
    c0 = slt ix, 0
    n = len va
    c1 = sge ix, n
    c2 = or c0, c1
    brif c2, oob4, ok5
oob4:
    trap "index out of range"
ok5:
    x2 = mul x1, 7
    set vb[ix], x2
    n = len vg
    c0 = sgt n, 0
    brif c0, have6, join7
have6:
    tg = pop vg
    g = copy tg
    br join7
join7:
    ix = neg ix
    y0 = srem y0, 1
    p = make P(z, 7, 0)
    push vp, p
    acc = mul acc, 31
    acc = add acc, x0
    acc = mul acc, 31
    acc = add acc, x1
    acc = mul acc, 31
    acc = add acc, x2
    acc = mul acc, 31
    acc = add acc, x3
    acc = mul acc, 31
    acc = add acc, ix
    t = sext y0
    acc = mul acc, 31
    acc = add acc, t
    t = sext y1
    acc = mul acc, 31
    acc = add acc, t
    t = sext h
    acc = mul acc, 31
    acc = add acc, t
    t = sext z
    acc = mul acc, 31
    acc = add acc, t
    t = zext c0
    acc = mul acc, 31
    acc = add acc, t
    t = zext c1
    acc = mul acc, 31
    acc = add acc, t
    t = zext c2
    acc = mul acc, 31
    acc = add acc, t
    n = len va
    acc = mul acc, 31
    acc = add acc, n
    n = len vb
    acc = mul acc, 31
    acc = add acc, n
    n = len vs
    acc = mul acc, 31
    acc = add acc, n
    n = len vt
    acc = mul acc, 31
    acc = add acc, n
    n = len vp
    acc = mul acc, 31
    acc = add acc, n
    n = len vg
    acc = mul acc, 31
    acc = add acc, n
    y1 = getfield s.a
    t = sext y1
    acc = mul acc, 31
    acc = add acc, t
    y1 = getfield s.b
    t = sext y1
    acc = mul acc, 31
    acc = add acc, t
    z = getfield p.a
    t = sext z
    acc = mul acc, 31
    acc = add acc, t
    h = getfield p.b
    t = sext h
    acc = mul acc, 31
    acc = add acc, t
    c2 = getfield p.c
    t = zext c2
    acc = mul acc, 31
    acc = add acc, t
    z = getfield g.x
    t = sext z
    acc = mul acc, 31
    acc = add acc, t
    t = getfield g.y
    acc = mul acc, 31
    acc = add acc, t
    h = getfield g.z
    t = sext h
    acc = mul acc, 31
    acc = add acc, t
    c2 = getfield g.f
    t = zext c2
    acc = mul acc, 31
    acc = add acc, t
    y1 = getfield g.w
    t = sext y1
    acc = mul acc, 31
    acc = add acc, t
    ret acc
}

fn f1(va: vec<i64>, vb: vec<i64>, vs: vec<S8>, vt: vec<S8>, vp: vec<P>, vg: vec<Big>, x0: i64) -> i64 {
    var x1: i64
    var x2: i64
    var x3: i64
    var ix: i64
    var n: i64
    var t: i64
    var acc: i64
    var y0: i32
    var y1: i32
    var h: i16
    var z: i8
    var c0: bool
    var c1: bool
    var c2: bool
    var s: S8
    var s2: S8
    var ts: S8
    var p: P
    var tp: P
    var g: Big
    var tg: Big
    var k0: i64
    var k1: i64
entry1:
    c2 = sgt y1, y1
    brif c2, then2, else3
then2:
    n = len vt
    c0 = sge n, 0
    brif c0, have5, join6
else3:
    t = sext z
    acc = mul acc, 31
    acc = add acc, t
    br join4
join4:
    p = pop vp
    ix = urem x0, 6
    set vb[ix], 2
    n = len va
    c0 = sgt n, 0
    brif c0, reuse10, append11
have5:
    s = pop vt
    br join6
join6:
    call f2(vb, va, vt, vs, vp, vg, x2)
    ix = urem x0, 6
    c0 = slt ix, 0
    brif c0, oob7, upper8
oob7:
    trap "index out of range"
upper8:
    n = len vb
    c1 = sge ix, n
    brif c1, oob7, ok9
ok9:
    ix = add ix, 1
    set va[ix], 100
    br join4
reuse10:
    t = pop va
    ix = copy t
    n = len vp
    c0 = uge ix, n
    brif c0, bad13, ok14
append11:
    ix = len vp
    p = make P(z, h, c0)
    push vp, p
    br join12
join12:
    acc = mul acc, 31
    acc = add acc, ix
    acc = mul acc, 31
    acc = add acc, x0
    acc = mul acc, 31
    acc = add acc, x1
    acc = mul acc, 31
    acc = add acc, x2
    acc = mul acc, 31
    acc = add acc, x3
    acc = mul acc, 31
    acc = add acc, ix
    t = sext y0
    acc = mul acc, 31
    acc = add acc, t
    t = sext y1
    acc = mul acc, 31
    acc = add acc, t
    t = sext h
    acc = mul acc, 31
    acc = add acc, t
    t = sext z
    acc = mul acc, 31
    acc = add acc, t
    t = zext c0
    acc = mul acc, 31
    acc = add acc, t
    t = zext c1
    acc = mul acc, 31
    acc = add acc, t
    t = zext c2
    acc = mul acc, 31
    acc = add acc, t
    n = len va
    acc = mul acc, 31
    acc = add acc, n
    n = len vb
    acc = mul acc, 31
    acc = add acc, n
    n = len vs
    acc = mul acc, 31
    acc = add acc, n
    n = len vt
    acc = mul acc, 31
    acc = add acc, n
    n = len vp
    acc = mul acc, 31
    acc = add acc, n
    n = len vg
    acc = mul acc, 31
    acc = add acc, n
    y1 = getfield s.a
    t = sext y1
    acc = mul acc, 31
    acc = add acc, t
    y1 = getfield s.b
    t = sext y1
    acc = mul acc, 31
    acc = add acc, t
    z = getfield p.a
    t = sext z
    acc = mul acc, 31
    acc = add acc, t
    h = getfield p.b
    t = sext h
    acc = mul acc, 31
    acc = add acc, t
    c2 = getfield p.c
    t = zext c2
    acc = mul acc, 31
    acc = add acc, t
    z = getfield g.x
    t = sext z
    acc = mul acc, 31
    acc = add acc, t
    t = getfield g.y
    acc = mul acc, 31
    acc = add acc, t
    h = getfield g.z
    t = sext h
    acc = mul acc, 31
    acc = add acc, t
    c2 = getfield g.f
    t = zext c2
    acc = mul acc, 31
    acc = add acc, t
    y1 = getfield g.w
    t = sext y1
    acc = mul acc, 31
    acc = add acc, t
    ret acc
bad13:
    trap "corrupt free list"
ok14:
    set vp[ix], p
    br join12
}

fn f2(va: vec<i64>, vb: vec<i64>, vs: vec<S8>, vt: vec<S8>, vp: vec<P>, vg: vec<Big>, x0: i64) -> i64 {
    var x1: i64
    var x2: i64
    var x3: i64
    var ix: i64
    var n: i64
    var t: i64
    var acc: i64
    var y0: i32
    var y1: i32
    var h: i16
    var z: i8
    var c0: bool
    var c1: bool
    var c2: bool
    var s: S8
    var s2: S8
    var ts: S8
    var p: P
    var tp: P
    var g: Big
    var tg: Big
    var k0: i64
    var k1: i64
entry1:
    n = len vg
    c0 = ugt n, 0
    brif c0, have2, join3
have2:
    g = pop vg
    br join3
join3:
    n = len vb
    acc = mul acc, 31
    acc = add acc, n
    brif c1, then4, else5
then4:
    n = len va
    c0 = sgt n, 0
    brif c0, reuse7, append8
else5:
    n = len vt
    c0 = sgt n, 0
    brif c0, have14, join15
join6:
    x0 = add x0, x0
    acc = mul acc, 31
    acc = add acc, x0
    acc = mul acc, 31
    acc = add acc, x1
    acc = mul acc, 31
    acc = add acc, x2
    acc = mul acc, 31
    acc = add acc, x3
    acc = mul acc, 31
    acc = add acc, ix
    t = sext y0
    acc = mul acc, 31
    acc = add acc, t
    t = sext y1
    acc = mul acc, 31
    acc = add acc, t
    t = sext h
    acc = mul acc, 31
    acc = add acc, t
    t = sext z
    acc = mul acc, 31
    acc = add acc, t
    t = zext c0
    acc = mul acc, 31
    acc = add acc, t
    t = zext c1
    acc = mul acc, 31
    acc = add acc, t
    t = zext c2
    acc = mul acc, 31
    acc = add acc, t
    n = len va
    acc = mul acc, 31
    acc = add acc, n
    n = len vb
    acc = mul acc, 31
    acc = add acc, n
    n = len vs
    acc = mul acc, 31
    acc = add acc, n
    n = len vt
    acc = mul acc, 31
    acc = add acc, n
    n = len vp
    acc = mul acc, 31
    acc = add acc, n
    n = len vg
    acc = mul acc, 31
    acc = add acc, n
    y1 = getfield s.a
    t = sext y1
    acc = mul acc, 31
    acc = add acc, t
    y1 = getfield s.b
    t = sext y1
    acc = mul acc, 31
    acc = add acc, t
    z = getfield p.a
    t = sext z
    acc = mul acc, 31
    acc = add acc, t
    h = getfield p.b
    t = sext h
    acc = mul acc, 31
    acc = add acc, t
    c2 = getfield p.c
    t = zext c2
    acc = mul acc, 31
    acc = add acc, t
    z = getfield g.x
    t = sext z
    acc = mul acc, 31
    acc = add acc, t
    t = getfield g.y
    acc = mul acc, 31
    acc = add acc, t
    h = getfield g.z
    t = sext h
    acc = mul acc, 31
    acc = add acc, t
    c2 = getfield g.f
    t = zext c2
    acc = mul acc, 31
    acc = add acc, t
    y1 = getfield g.w
    t = sext y1
    acc = mul acc, 31
    acc = add acc, t
    ret acc
reuse7:
    t = pop va
    ix = copy t
    n = len vs
    c0 = uge ix, n
    brif c0, bad10, ok11
append8:
    ix = len vs
    s = make S8(y1, y0)
    push vs, s
    br join9
join9:
    acc = mul acc, 31
    acc = add acc, ix
    n = len vt
    c0 = ugt n, 0
    brif c0, have12, join13
bad10:
    trap "corrupt free list"
ok11:
    set vs[ix], s
    br join9
have12:
    ts = pop vt
    s = copy ts
    br join13
join13:
    br join6
have14:
    n = len vs
    acc = mul acc, 31
    acc = add acc, n
    s = pop vt
    br join15
join15:
    n = len va
    c0 = sgt n, 0
    brif c0, reuse16, append17
reuse16:
    t = pop va
    ix = copy t
    n = len vs
    c0 = uge ix, n
    brif c0, bad19, ok20
append17:
    ix = len vs
    s = make S8(y0, y0)
    push vs, s
    br join18
join18:
    acc = mul acc, 31
    acc = add acc, ix
    br join6
bad19:
    trap "corrupt free list"
ok20:
    set vs[ix], s
    br join18
}
