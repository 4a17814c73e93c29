; passes: bounds-check-elim
; entry: main
; expect: trap pop_empty
; Near miss: the guard tests `a`, the pop pops `b`. They have the same type and may be the same
; vec, but nothing says they are: the check stays, and traps because `b` is empty.
fn take(a: vec<i64>, b: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len a
    c = sgt n, 0
    brif c, have, empty
have:
    x = pop b
    ret x
empty:
    ret -1
}

fn main() -> i64 {
    var a: vec<i64>
    var b: vec<i64>
    var r: i64
entry:
    a = new vec<i64>
    b = new vec<i64>
    push a, 1
    r = call take(a, b)
    ret r
}
