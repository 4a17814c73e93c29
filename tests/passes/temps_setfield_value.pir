; passes: temp-elision
; entry: main
; args: 41
; expect: value 42
; `setfield`'s value operand is a renamable position (only its implicit read of the struct is
; not): `t = copy x; setfield s.a, t` becomes `setfield s.a, x`, and a constant stands in the
; same way (`w = copy 1; setfield s.b, w` becomes `setfield s.b, 1`).
struct P { a: i64, b: i64 }

fn main(x: i64) -> i64 {
    var s: P
    var t: i64
    var w: i64
    var r: i64
    var q: i64
entry:
    setfield s.b, 1
    t = copy x
    setfield s.a, t
    w = copy 1
    setfield s.b, w
    r = getfield s.a
    q = getfield s.b
    r = add r, q
    ret r
}
