; passes: bounds-check-elim
; entry: main
; expect: value 12
; The pop is guarded by a length test on the same vec: its emptiness check goes.
fn take(v: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, have, empty
have:
    x = pop v
    ret x
empty:
    ret -1
}

fn main() -> i64 {
    var v: vec<i64>
    var a: i64
    var b: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 12
    a = call take(v)
    b = call take(v)
    r = add a, b
    r = add r, 1
    ret r
}
