; passes: inline, temp-elision, copy-prop, bounds-check-elim
; entry: main
; expect: trap pop_empty
; Near miss: the callee receives the same vec twice; its guard on `a` covers one pop, and the
; pop through `b` empties the same vec, so the second pop through `a` keeps its check.
fn two(a: vec<i64>, b: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
    var y: i64
entry:
    n = len a
    c = sgt n, 0
    brif c, have, empty
have:
    y = pop b
    x = pop a
    ret x
empty:
    ret -1
}

fn main() -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 7
    r = call two(v, v)
    ret r
}
