; passes: bounds-check-elim
; entry: main
; args: 4
; expect: value 11
; A callee reaches the caller's vecs only through its vec arguments: `scratch` pushes and pops
; a `vec<i64>` of its own but is passed no vec, so the call keeps `len(a) > 0` and the pop's
; check goes (a summary by type alone would kill it).
fn scratch(x: i64) -> i64 {
    var t: vec<i64>
    var r: i64
entry:
    t = new vec<i64>
    push t, x
    r = pop t
    ret r
}

fn main(x: i64) -> i64 {
    var a: vec<i64>
    var n: i64
    var c: bool
    var r: i64
    var s: i64
entry:
    a = new vec<i64>
    push a, 7
    n = len a
    c = sgt n, 0
    brif c, have, empty
have:
    s = call scratch(x)
    r = pop a
    r = add r, s
    ret r
empty:
    ret -1
}
