; `x2 = lshr x0, 255` (a shift by 63) of a negative x0 is 1, but the fact rule bounded it by `i64::MAX >> 63` = 0 and bounds-check-elim removed `ix < len(vt)` with len 1 (differential seed 135726598, levels mode, minimized): O1 read past the end.
; entry: main
; args: -4,0
; expect: trap explicit
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
    var j: i64
    var m: i64
    var r: i64
    var vr: vec<i64>
    var e: i64
entry1:
    va = new vec<i64>
    vb = new vec<i64>
    push vb, -1
    push vb, -1
    push vb, -1
    push vb, -1
    vs = new vec<S8>
    s = make S8(-1, -1)
    push vs, s
    s = make S8(-1, -1)
    push vs, s
    s = make S8(-1, -1)
    push vs, s
    vt = new vec<S8>
    s = make S8(-1, -1)
    push vt, s
    vp = new vec<P>
    p = make P(-1, -1, 1)
    push vp, p
    p = make P(-1, -1, 1)
    push vp, p
    p = make P(-1, -1, 1)
    push vp, p
    p = make P(-1, -1, 1)
    push vp, p
    vg = new vec<Big>
    g = make Big(-1, -1, -1, 1, -1)
    push vg, g
    c1 = sle x0, x0
    brif c1, then2, else3
then2:
    x2 = lshr x0, 255
    ix = copy x2
    c0 = slt ix, 0
    brif c0, oob5, upper6
else3:
    br join4
join4:
    brif c0, then8, else9
oob5:
    trap "index out of range"
upper6:
    n = len vt
    c1 = sge ix, n
    brif c1, oob5, ok7
ok7:
    ts = get vt[ix]
    s = copy ts
    br join4
then8:
    br join10
else9:
    br join10
join10:
    x0 = add x0, x0
    e = add e, 1
    c0 = slt e, 1
    brif c0, entry1, tail11
tail11:
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
    var j: i64
    var m: i64
    var r: i64
    var vr: vec<i64>
    var e: i64
entry1:
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
    var j: i64
    var m: i64
    var r: i64
    var vr: vec<i64>
    var e: i64
entry1:
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
}

fn rd(v: vec<i64>, i: i64) -> i64 {
    var n: i64
    var c: bool
    var r: i64
entry:
    n = len v
    c = ult i, n
    brif c, ok, out
ok:
    r = get v[i]
    ret r
out:
    ret -1
}

fn pp(v: vec<i64>, w: vec<i64>, x: i64) -> i64 {
    var n: i64
    var c: bool
    var t: i64
entry:
    t = pop v
    ret t
}

fn bnd(x: i64) -> i64 {
    var c: bool
    var r: i64
    var z: i64
    var tmp: vec<i64>
entry:
    c = slt x, -50
    brif c, bad, ok
bad:
    trap "bad bound"
ok:
    r = and x, 7
    ret r
}

fn mv(x: i64) -> vec<i64> {
    var c: bool
    var m: i64
    var r: vec<i64>
entry:
    r = new vec<i64>
    push r, x
    m = and x, 3
    c = eq m, 3
    brif c, bad, ok
bad:
    trap "no vec"
ok:
    push r, m
    ret r
}

fn sr(s: S8, g: Big, x: i64) -> Big {
    var r: Big
    var a: i32
    var y: i64
    var c: bool
    var t: i64
entry:
    c = eq x, 7
    brif c, bad, ok
bad:
    trap "bad struct"
ok:
    r = copy g
    a = getfield s.a
    t = sext a
    y = getfield g.y
    y = add y, t
    y = add y, x
    setfield r.y, y
    ret r
}

fn sw(s: S8, g: Big, x: i64) -> S8 {
    var a: i32
    var w: i32
    var r: S8
entry:
    a = trunc x
    setfield s.a, a
    setfield g.w, a
    w = getfield g.w
    w = add w, 1
    setfield s.b, w
    r = copy s
    ret r
}

fn rec(d: i64, v: vec<i64>) -> i64 {
    var c: bool
    var d1: i64
    var r: i64
entry:
    c = sle d, 0
    brif c, base, step
base:
    r = len v
    ret r
step:
    r = get v[0]
    d1 = sub d, 1
    r = call rec(d1, v)
    r = add r, d
    ret r
}

fn ev(d: i64, v: vec<i64>) -> i64 {
    var c: bool
    var d1: i64
    var r: i64
entry:
    c = sle d, 0
    brif c, base, step
base:
    ret 1
step:
    d1 = sub d, 1
    r = call od(d1, v)
    r = add r, 1
    ret r
}

fn od(d: i64, v: vec<i64>) -> i64 {
    var c: bool
    var d1: i64
    var r: i64
entry:
    c = sle d, 0
    brif c, base, step
base:
    ret 0
step:
    r = len v
    d1 = sub d, 1
    r = call ev(d1, v)
    r = add r, 0
    ret r
}
