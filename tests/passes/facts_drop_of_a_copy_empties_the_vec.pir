; passes: bounds-check-elim
; entry: main
; args: 4
; expect: trap pop_empty
; Near miss: `w = copy v` holds `v`'s vec, so `drop w` empties `v` too: the guard's
; `len(v) > 0` does not survive it, and `pop v` keeps its check and traps.
fn main(x: i64) -> i64 {
    var v: vec<i64>
    var w: vec<i64>
    var n: i64
    var c: bool
    var t: i64
entry:
    v = new vec<i64>
    w = copy v
    push v, x
    n = len v
    c = sgt n, 0
    brif c, have, out
have:
    drop w
    t = pop v
    ret t
out:
    ret -1
}
