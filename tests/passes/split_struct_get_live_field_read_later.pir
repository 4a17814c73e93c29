; passes: struct-split, dead-local-elim
; entry: main
; args: 0
; expect: value 15
; Near miss of split_struct_get_first_field_dead: the live field (`c`) is read only after an
; unrelated instruction, and the dead first field (`a`) is written again before it would be
; read (by the `make` that follows). Liveness after the split `get` must look past the
; unrelated instruction (`c` is live) and stop at the new write of `s_a` (`a` is dead), so the
; check still moves to `c`'s read and both dead reads go.
struct S24 { a: i64, b: i32, c: i64 }

fn main(i: i64) -> i64 {
    var v: vec<S24>
    var s: S24
    var x: i64
    var c: i64
    var y: i64
    var r: i64
entry:
    v = new vec<S24>
    s = make S24(1, 2, 3)
    push v, s
    x = getfield s.a
    br next
next:
    s = get v[i]
    r = add x, 1
    c = getfield s.c
    s = make S24(7, 8, 9)
    y = getfield s.a
    r = add r, c
    r = add r, y
    r = add r, 3
    ret r
}
