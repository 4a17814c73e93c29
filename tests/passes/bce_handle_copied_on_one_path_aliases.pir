; passes: bounds-check-elim
; entry: main
; args: 1
; expect: trap pop_empty
; Near miss: `a` has one `new`, but `b` holds either a fresh vec or `a`'s (its sites are two
; `new`s, one of them `a`'s), so `pop a` may shorten `b`: `a` is not alone in its vec type (a
; `pop a` must shift every length that may alias it), the guard's `len(b) > 0` does not
; survive `pop a`, and `pop b` keeps its check and traps when `b` is `a` (x = 1).
fn main(x: i64) -> i64 {
    var a: vec<i64>
    var b: vec<i64>
    var n: i64
    var c: bool
    var d: bool
    var y: i64
    var z: i64
entry:
    a = new vec<i64>
    push a, 3
    d = sgt x, 0
    brif d, same, fresh
same:
    b = copy a
    br guard
fresh:
    b = new vec<i64>
    push b, 4
    br guard
guard:
    n = len b
    c = sgt n, 0
    brif c, have, empty
have:
    y = pop a
    z = pop b
    z = add z, y
    ret z
empty:
    ret -1
}
