; passes: bounds-check-elim
; entry: main
; expect: value 8
; Two locals of the same vec type that each only hold vecs of their own `new` never hold the
; same vec: `pop b` cannot shorten `a`, so the guard `len(a) > 0` still covers `pop a` (and
; `push b` before it covers `pop b`): both checks go.
fn main() -> i64 {
    var a: vec<i64>
    var b: vec<i64>
    var n: i64
    var c: bool
    var x: i64
    var y: i64
entry:
    a = new vec<i64>
    b = new vec<i64>
    push a, 3
    n = len a
    c = sgt n, 0
    brif c, have, empty
have:
    push b, 5
    y = pop b
    x = pop a
    x = add x, y
    ret x
empty:
    ret -1
}
