; passes: bounds-check-elim
; entry: main
; expect: trap pop_empty
; Near miss: `a` and `b` are two handles to the same vec. The guard on `a` proves nothing about
; `b` (kept), and the pop through `b` kills what was known about `a` (may alias): the second
; pop's check stays too, and traps.
fn take(a: vec<i64>, b: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
    var y: i64
entry:
    n = len a
    c = sgt n, 0
    brif c, have, empty
have:
    x = pop b
    y = pop a
    ret y
empty:
    ret -1
}

fn main() -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 4
    r = call take(v, v)
    ret r
}
