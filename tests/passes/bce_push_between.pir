; passes: bounds-check-elim
; entry: main
; expect: value 9
; A push between the guard and the pop only makes the vec longer: the check still goes.
fn push_then_pop(v: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, have, empty
have:
    push v, 9
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
    push v, 1
    r = call push_then_pop(v)
    ret r
}
