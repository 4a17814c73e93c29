; passes: bounds-check-elim
; entry: main
; args: 12
; expect: value 9
; A call of a function that touches no vec cannot change a length: the guard still covers
; the pop after it (the call effects summary of `low_bit` is empty).
fn low_bit(x: i64) -> i64 {
    var y: i64
    var m: i64
entry:
    y = sub 0, x
    m = and x, y
    ret m
}

fn main(x: i64) -> i64 {
    var v: vec<i64>
    var n: i64
    var c: bool
    var b: i64
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    n = len v
    c = sgt n, 0
    brif c, have, empty
have:
    b = call low_bit(x)
    r = pop v
    r = add r, b
    ret r
empty:
    ret -1
}
