; passes: struct-split, dead-local-elim
; entry: main
; args: 2
; expect: trap index_oob
; Near miss: the whole `get` is out of range. Its split keeps the check on a read that is
; needed (field `c`, the only one read afterwards) with the same vec and index, first of the
; group, so it traps `index_oob` as the whole read did, before any unchecked read runs.
struct S24 { a: i64, b: i32, c: i64 }

fn main(i: i64) -> i64 {
    var v: vec<S24>
    var s: S24
    var c: i64
entry:
    v = new vec<S24>
    s = make S24(1, 2, 3)
    push v, s
    push v, s
    s = get v[i]
    c = getfield s.c
    ret c
}
