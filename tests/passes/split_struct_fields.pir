; passes: struct-split, dead-local-elim
; entry: main
; args: 1
; expect: value 4000007
; A 24-byte struct local (padding after `b`) read whole from a vec, changed by field, copied
; and stored whole: split into field locals. A whole `get` becomes one checked read of a
; field that is read after it, then unchecked reads of the other fields; dead-local-elim
; removes the unchecked reads nobody needs (the second `get` of `t` loads only `b`). The
; stores build the element with `make` right before them.
struct S24 { a: i64, b: i32, c: i64 }

fn main(i: i64) -> i64 {
    var v: vec<S24>
    var s: S24
    var t: S24
    var b: i32
    var c: i64
    var r: i64
entry:
    v = new vec<S24>
    s = make S24(1, 2, 3)
    push v, s
    setfield s.c, 4000000
    push v, s
    s = get v[i]
    t = copy s
    setfield t.b, 5
    set v[0], t
    b = getfield s.b
    c = getfield s.c
    r = sext b
    r = add r, c
    t = get v[0]
    b = getfield t.b
    c = sext b
    r = add r, c
    ret r
}
