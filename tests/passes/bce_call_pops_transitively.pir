; passes: bounds-check-elim
; entry: main
; expect: trap pop_empty
; Near miss: the callee does not pop itself, but a function it calls does; the summary is
; transitive, so the check after the call stays and traps.
fn drain(v: vec<i64>) {
    var x: i64
entry:
    x = pop v
    ret
}

fn middle(v: vec<i64>) -> i64 {
entry:
    call drain(v)
    ret 0
}

fn main() -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var a: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 3
    n = len v
    c = sgt n, 0
    brif c, have, empty
have:
    a = call middle(v)
    r = pop v
    ret r
empty:
    ret -1
}
