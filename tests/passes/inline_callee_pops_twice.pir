; passes: inline, temp-elision, copy-prop, bounds-check-elim
; entry: main
; expect: trap pop_empty
; Near miss: the caller's `len > 0` covers the callee's first pop only; the second pop keeps
; its check and traps on a one-element vec.
fn take2(v: vec<i64>) -> i64 {
    var x: i64
    var y: i64
    var s: i64
entry:
    x = pop v
    y = pop v
    s = add x, y
    ret s
}

fn main() -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var r: i64
entry:
    v = new vec<i64>
    push v, 7
    n = len v
    c = sgt n, 0
    brif c, have, empty
have:
    r = call take2(v)
    ret r
empty:
    ret -1
}
