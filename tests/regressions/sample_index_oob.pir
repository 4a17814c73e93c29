; generated program (seeded input 7 of tests/differential.rs); O2 removes some checks
; entry: main
; args: -2,7
; expect: trap index_oob
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
    push va, 4
    push va, 2
    push va, 4
    push va, 5
    vb = new vec<i64>
    push vb, 1
    push vb, 3
    push vb, 6
    vs = new vec<S8>
    s = make S8(0, -1)
    push vs, s
    s = make S8(5, 3)
    push vs, s
    s = make S8(-1, 1)
    push vs, s
    s = make S8(6, 5)
    push vs, s
    vt = new vec<S8>
    s = make S8(3, 0)
    push vt, s
    vp = new vec<P>
    p = make P(0, -1, 1)
    push vp, p
    p = make P(1, 1, 0)
    push vp, p
    p = make P(2, 0, 1)
    push vp, p
    p = make P(-1, 6, 0)
    push vp, p
    vg = new vec<Big>
    g = make Big(3, 6, 2, 1, 6)
    push vg, g
    k0 = copy 0
    br head2
head2:
    c0 = sgt k0, 0
    brif c0, body3, exit4
body3:
    k0 = sub k0, 1
    n = len va
    c0 = sgt n, 0
    brif c0, reuse5, append6
exit4:
    n = len va
    c0 = sgt n, 0
    brif c0, reuse13, append14
reuse5:
    t = pop va
    ix = copy t
    n = len vg
    c0 = uge ix, n
    brif c0, bad8, ok9
append6:
    ix = len vg
    g = make Big(z, ix, h, 1, y0)
    push vg, g
    br join7
join7:
    acc = mul acc, 31
    acc = add acc, ix
    n = len vb
    c0 = sgt n, 0
    brif c0, reuse10, append11
bad8:
    trap "corrupt free list"
ok9:
    set vg[ix], g
    br join7
reuse10:
    t = pop vb
    ix = copy t
    set va[ix], x0
    br join12
append11:
    ix = len va
    push va, x0
    br join12
join12:
    acc = mul acc, 31
    acc = add acc, ix
    br head2
reuse13:
    t = pop va
    ix = copy t
    set vs[ix], s
    br join15
append14:
    ix = len vs
    s = make S8(y1, 7)
    push vs, s
    br join15
join15:
    acc = mul acc, 31
    acc = add acc, ix
    n = len va
    c0 = sgt n, 0
    brif c0, reuse16, append17
reuse16:
    t = pop va
    ix = copy t
    set vs[ix], s
    br join18
append17:
    ix = len vs
    s = make S8(65536, y1)
    push vs, s
    br join18
join18:
    acc = mul acc, 31
    acc = add acc, ix
    c2 = getfield p.c
    ix = and ix, 7
    c0 = sge ix, 0
    brif c0, upper21, join20
inb19:
    ix = add ix, 1
    set vb[ix], x1
    br join20
join20:
    ix = srem x1, 4
    n = len vg
    c0 = sgt n, 1
    brif c0, inb22, join23
upper21:
    n = len vb
    c1 = slt ix, n
    brif c1, inb19, join20
inb22:
    ix = add ix, 1
    set vg[ix].f, c2
    br join23
join23:
    c1 = ult x0, x2
    brif c1, then24, else25
then24:
    br join26
else25:
    c1 = eq x1, ix
    brif c1, boom27, cont28
join26:
    k0 = copy 2
    br head29
boom27:
    trap "boom"
cont28:
    ix = urem ix, x1
    x1 = urem 7, x0
    br join26
head29:
    c0 = sgt k0, 0
    brif c0, body30, exit31
body30:
    k0 = sub k0, 1
    n = len vg
    c0 = sge n, 0
    brif c0, have32, join33
exit31:
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
have32:
    pop vg
    tg = pop vg
    g = copy tg
    br join33
join33:
    drop vg
    ix = and x3, 7
    n = len va
    c0 = sge n, 0
    brif c0, inb34, join35
inb34:
    ix = call f1(va, vb, vs, vt, vp, vg, 1)
    acc = mul acc, 31
    acc = add acc, ix
    ix = get va[ix]
    br join35
join35:
    br head29
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
    n = len vb
    c0 = ugt n, 0
    brif c0, have2, join3
have2:
    pop vb
    br join3
join3:
    c1 = eq ix, 4
    brif c1, boom4, cont5
boom4:
    trap "boom"
cont5:
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
    n = len va
    c0 = ne n, 0
    brif c0, have2, join3
have2:
    pop va
    br join3
join3:
    z = srem z, z
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
