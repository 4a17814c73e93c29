; passes: bounds-check-elim
; entry: main
; expect: trap pop_empty
; Near miss: one length test, two pops. The first pop's check goes; the second stays (the first
; pop may have emptied the vec) and traps.
fn take_two(v: vec<i64>) -> i64 {
    var n: i64
    var c: bool
    var x: i64
    var y: i64
entry:
    n = len v
    c = sgt n, 0
    brif c, have, empty
have:
    x = pop v
    y = pop v
    x = add x, y
    ret x
empty:
    ret -1
}

fn main() -> i64 {
    var v: vec<i64>
    var r: i64
entry:
    v = new vec<i64>
    push v, 5
    r = call take_two(v)
    ret r
}
