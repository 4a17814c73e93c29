; passes: struct-split, dead-local-elim
; entry: main
; args: 1
; expect: trap index_oob
; Near miss: a split struct stored whole out of range. The store of the rebuilt element keeps
; its check and traps; the earlier in-range store went through. (`s` is read whole by `get`:
; a local only built, changed by field and stored whole would stay whole, see
; split_struct_held_field_wise_stays_whole.pir.)
struct S16 { a: i64, b: i64 }

fn main(i: i64) -> i64 {
    var v: vec<S16>
    var s: S16
entry:
    v = new vec<S16>
    s = make S16(7, 8)
    push v, s
    s = get v[0]
    setfield s.b, 9
    set v[0], s
    set v[i], s
    ret 0
}
