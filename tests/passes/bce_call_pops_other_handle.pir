; passes: bounds-check-elim
; entry: main
; expect: trap pop_empty
; Near miss: the callee pops its argument `b`, another handle of the same type as `a` (here
; the same vec): the call may change `len(a)`, so the pop of `a` keeps its check and traps.
fn drain(v: vec<i64>) {
    var x: i64
entry:
    x = pop v
    ret
}

fn main() -> i64 {
    var a: vec<i64>
    var b: vec<i64>
    var n: i64
    var c: bool
    var r: i64
entry:
    a = new vec<i64>
    b = copy a
    push a, 7
    n = len a
    c = sgt n, 0
    brif c, have, empty
have:
    call drain(b)
    r = pop a
    ret r
empty:
    ret -1
}
