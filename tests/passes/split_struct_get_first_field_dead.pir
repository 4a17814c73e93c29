; passes: struct-split, dead-local-elim
; entry: main
; args: 0
; expect: value 4
; A split `get` that starts its block, whose first field read (`a`, read earlier in the
; function, so it is loaded) is dead right after it while a later one (`c`) is live: the
; check moves to the live read, which comes first, and dead-local-elim removes the dead one.
; (With the check left on the dead read, the read and its check would both have to stay.)
struct S24 { a: i64, b: i32, c: i64 }

fn main(i: i64) -> i64 {
    var v: vec<S24>
    var s: S24
    var x: i64
    var c: i64
    var r: i64
entry:
    v = new vec<S24>
    s = make S24(1, 2, 3)
    push v, s
    x = getfield s.a
    br next
next:
    s = get v[i]
    c = getfield s.c
    r = add x, c
    ret r
}
