; passes: bounds-check-elim
; entry: main
; expect: trap pop_empty
; Near miss: a call between the guard and the pop may change the vec's length (here it pops
; it empty): the check stays and traps.
fn drain(v: vec<i64>) {
    var x: i64
entry:
    x = pop v
    ret
}

fn take(v: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, have, empty
have:
    call drain(v)
    x = pop v
    ret x
empty:
    ret -1
}

fn main() -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 3
    r = call take(v)
    ret r
}
