; passes: inline, temp-elision, copy-prop, bounds-check-elim
; entry: main
; expect: trap pop_empty
; Near miss: a pop between the caller's guard and the call uses up the only element; the
; inlined pop keeps its check.
fn take(v: vec<i64>) -> i64 {
    var x: i64
entry:
    x = pop v
    ret x
}

fn main() -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var r: i64
    var d: i64
entry:
    v = new vec<i64>
    push v, 7
    n = len v
    c = sgt n, 0
    brif c, have, empty
have:
    d = pop v
    r = call take(v)
    ret r
empty:
    ret -1
}
