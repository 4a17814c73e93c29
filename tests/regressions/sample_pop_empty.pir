; generated program (seeded input 17 of tests/differential.rs); O2 removes some checks
; entry: main
; args: -44000132,1000003
; expect: trap pop_empty
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
    push va, 1
    push va, 5
    vb = new vec<i64>
    push vb, 2
    push vb, 2
    push vb, -1
    vs = new vec<S8>
    s = make S8(0, 3)
    push vs, s
    s = make S8(5, 3)
    push vs, s
    s = make S8(3, 4)
    push vs, s
    s = make S8(1, 3)
    push vs, s
    vt = new vec<S8>
    vp = new vec<P>
    p = make P(3, 0, 0)
    push vp, p
    p = make P(2, 6, 0)
    push vp, p
    p = make P(1, -1, 0)
    push vp, p
    vg = new vec<Big>
    g = make Big(-1, 4, -1, 0, 3)
    push vg, g
    g = make Big(5, -1, 4, 1, 3)
    push vg, g
    g = make Big(6, 6, 6, 0, 0)
    push vg, g
    g = make Big(3, 5, 2, 0, 1)
    push vg, g
    g = make Big(0, 6, 2, 0, -1)
    push vg, g
    p = make P(-1, h, c1)
    push vp, p
    ts = pop vt
    s = copy ts
    z = add z, z
    k0 = copy 5
    br head2
head2:
    c0 = sgt k0, 0
    brif c0, body3, exit4
body3:
    k0 = sub k0, 1
    x0 = lshr x0, x3
    n = len va
    c0 = sgt n, 0
    brif c0, reuse5, append6
exit4:
    n = len vs
    ix = sub n, 1
    n = len vs
    c0 = sge n, 5
    brif c0, inb10, join11
reuse5:
    t = pop va
    ix = copy t
    n = len vs
    c0 = uge ix, n
    brif c0, bad8, ok9
append6:
    ix = len vs
    s = make S8(7, y1)
    push vs, s
    br join7
join7:
    acc = mul acc, 31
    acc = add acc, ix
    x0 = shl 1, x2
    br head2
bad8:
    trap "corrupt free list"
ok9:
    set vs[ix], s
    br join7
inb10:
    set vs[ix], s
    br join11
join11:
    n = len vp
    ix = sub n, 1
    n = len vs
    c0 = sgt n, 0
    brif c0, inb12, join13
inb12:
    set vs[ix], s
    br join13
join13:
    x2 = neg 3
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
    c1 = sge x0, x3
    brif c1, then2, else3
then2:
    ix = urem ix, 6
    c0 = slt ix, 0
    n = len vt
    c1 = sge ix, n
    c2 = or c0, c1
    brif c2, oob5, ok6
else3:
    ix = shl 5, 4
    br join4
join4:
    n = len va
    c0 = sgt n, 0
    brif c0, reuse7, append8
oob5:
    trap "index out of range"
ok6:
    pop vt
    y0 = get vt[ix].b
    t = sext y0
    acc = mul acc, 31
    acc = add acc, t
    call f2(va, vb, vs, vt, vp, vg, x0)
    br join4
reuse7:
    t = pop va
    ix = copy t
    set vg[ix], g
    br join9
append8:
    ix = len vg
    g = make Big(1, 1, -100, 0, 1)
    push vg, g
    br join9
join9:
    acc = mul acc, 31
    acc = add acc, ix
    x2 = call f2(vb, va, vt, vs, vp, vg, ix)
    acc = mul acc, 31
    acc = add acc, x2
    n = len va
    c0 = sgt n, 0
    brif c0, reuse10, append11
reuse10:
    t = pop va
    ix = copy t
    n = len vg
    c0 = uge ix, n
    brif c0, bad13, ok14
append11:
    ix = len vg
    g = make Big(z, 2, h, c1, y0)
    push vg, g
    br join12
join12:
    acc = mul acc, 31
    acc = add acc, ix
    ix = srem x1, 4
    c0 = slt ix, 0
    n = len vp
    c1 = sge ix, n
    c2 = or c0, c1
    brif c2, oob15, ok16
bad13:
    trap "corrupt free list"
ok14:
    set vg[ix], g
    br join12
oob15:
    trap "index out of range"
ok16:
    c2 = get vp[ix].c
    t = zext c2
    acc = mul acc, 31
    acc = add acc, t
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
    n = len vt
    c0 = ugt n, 0
    brif c0, have2, join3
have2:
    s = pop vt
    br join3
join3:
    n = len vt
    c0 = sge n, 0
    brif c0, have4, join5
have4:
    n = len va
    acc = mul acc, 31
    acc = add acc, n
    ts = pop vt
    s = copy ts
    br join5
join5:
    n = len va
    c0 = sgt n, 0
    brif c0, reuse6, append7
reuse6:
    t = pop va
    ix = copy t
    set vs[ix], s
    br join8
append7:
    ix = len vs
    s = make S8(-1, y0)
    push vs, s
    br join8
join8:
    acc = mul acc, 31
    acc = add acc, ix
    k0 = copy 4
    br head9
head9:
    c0 = sgt k0, 0
    brif c0, body10, exit11
body10:
    k0 = sub k0, 1
    n = len vp
    c0 = sge n, 1
    brif c0, have12, join13
exit11:
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
have12:
    p = pop vp
    br join13
join13:
    x0 = or -2, 2
    br head9
}
