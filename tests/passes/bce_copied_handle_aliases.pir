; passes: bounds-check-elim
; entry: main
; expect: trap pop_empty
; Near miss: `b = copy a` makes `b` hold `a`'s vec (its sites include `a`'s `new`): `pop b`
; may shorten `a`, so `pop a` keeps its check and traps (the guard's only element is gone).
fn main() -> i64 {
    var a: vec<i64>
    var b: vec<i64>
    var n: i64
    var c: bool
    var x: i64
    var y: i64
entry:
    a = new vec<i64>
    b = copy a
    push a, 3
    n = len a
    c = sgt n, 0
    brif c, have, empty
have:
    y = pop b
    x = pop a
    x = add x, y
    ret x
empty:
    ret -1
}
