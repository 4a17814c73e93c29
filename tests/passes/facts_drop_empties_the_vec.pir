; passes: bounds-check-elim
; entry: main
; args: 4
; expect: trap pop_empty
; Near miss: `len(v) > 0` holds at the guard, but `drop v` leaves `v` empty (it stays usable,
; with length 0), so the pop after it keeps its check and traps. The first pop, before the
; drop, is proved.
fn main(x: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var t: i64
    var u: i64
entry:
    v = new vec<i64>
    push v, x
    push v, x
    n = len v
    c = sgt n, 1
    brif c, have, out
have:
    t = pop v
    drop v
    u = pop v
    t = add t, u
    ret t
out:
    ret -1
}
