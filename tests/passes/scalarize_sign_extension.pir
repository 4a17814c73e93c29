; passes: scalarize
; entry: main
; expect: value -70019
; Small structs held as one integer: field reads must sign-extend (negative i32 and i8 fields,
; an i16 at offset 2 after padding) and field writes must not disturb their neighbours.
struct S8 { a: i32, b: i32 }
struct Mixed { x: i8, y: i16, z: i32 }

fn main() -> i64 {
    var s: S8
    var m: Mixed
    var v: vec<Mixed>
    var a: i32
    var b: i32
    var x: i8
    var y: i16
    var z: i32
    var r: i64
    var t: i64
entry:
    s = make S8(-70000, 3)
    setfield s.b, -20
    a = getfield s.a
    b = getfield s.b
    m = make Mixed(-1, -2, 7)
    setfield m.y, 300
    v = new vec<Mixed>
    push v, m
    m = get v[0]
    x = getfield m.x
    y = getfield m.y
    z = getfield m.z
    r = sext a
    t = sext b
    r = add r, t
    t = sext x
    r = add r, t
    t = sext y
    r = sub r, t
    t = sext z
    r = add r, t
    r = add r, 295
    ret r
}
